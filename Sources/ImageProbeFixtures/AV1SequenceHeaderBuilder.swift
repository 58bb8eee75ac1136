/// AV1 sequence header OBUs (AV1 Bitstream & Decoding Process Specification §5.5), written
/// field by field for `av1C`'s configOBUs, with the optional parts a test chooses.
public struct AV1SequenceHeaderBuilder: Sendable {
    public var profile = 0
    /// The short form of still images (§5.5: `reduced_still_picture_header`).
    public var reducedStillPictureHeader = true
    /// `timing_info` with `decoder_model_info`, and two operating points with their
    /// parameters, when not reduced.
    public var timingAndOperatingPoints = false
    public var highBitDepth = false
    public var twelveBit = false
    public var monochrome = false
    /// color_primaries, transfer_characteristics, matrix_coefficients; nil for no colour
    /// description.
    public var colour: (primaries: Int, transfer: Int, matrix: Int)? = (1, 13, 6)
    public var fullRange = false

    public init() {}

    /// The OBU: its header (type 1, with a size field), the size, then the payload.
    public var obu: [UInt8] {
        let payload = self.payload
        return [0x0A, UInt8(payload.count)] + payload
    }

    public var payload: [UInt8] {
        var bits = BitWriter()
        bits.write(profile, 3)
        bits.write(1, 1)  // still_picture
        bits.write(reducedStillPictureHeader ? 1 : 0, 1)
        if reducedStillPictureHeader {
            bits.write(8, 5)  // seq_level_idx[0]
        } else {
            bits.write(timingAndOperatingPoints ? 1 : 0, 1)  // timing_info_present_flag
            if timingAndOperatingPoints {
                bits.write(1, 32)  // num_units_in_display_tick
                bits.write(30, 32)  // time_scale
                bits.write(1, 1)  // equal_picture_interval
                bits.write(0b00101, 5)  // num_ticks_per_picture_minus_1 = 4, as uvlc
                bits.write(1, 1)  // decoder_model_info_present_flag
                bits.write(9, 5)  // buffer_delay_length_minus_1
                bits.write(90_000, 32)  // num_units_in_decoding_tick
                bits.write(0x3FF, 10)  // the two lengths
            }
            bits.write(timingAndOperatingPoints ? 1 : 0, 1)  // initial_display_delay_present_flag
            let points = timingAndOperatingPoints ? 2 : 1
            bits.write(points - 1, 5)
            for point in 0..<points {
                bits.write(point == 0 ? 0 : 0x101, 12)  // operating_point_idc
                bits.write(9, 5)  // seq_level_idx, above 7: a tier bit follows
                bits.write(1, 1)  // seq_tier
                if timingAndOperatingPoints {
                    bits.write(1, 1)  // decoder_model_present_for_this_op
                    bits.write(0x155, 10)  // decoder_buffer_delay
                    bits.write(0x2AA, 10)  // encoder_buffer_delay
                    bits.write(0, 1)  // low_delay_mode_flag
                    bits.write(1, 1)  // initial_display_delay_present_for_this_op
                    bits.write(9, 4)
                }
            }
        }
        bits.write(15, 4)  // frame_width_bits_minus_1
        bits.write(15, 4)  // frame_height_bits_minus_1
        bits.write(63, 16)  // max_frame_width_minus_1
        bits.write(47, 16)  // max_frame_height_minus_1
        if !reducedStillPictureHeader {
            bits.write(1, 1)  // frame_id_numbers_present_flag
            bits.write(0x55, 7)
        }
        bits.write(0b011, 3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
        if !reducedStillPictureHeader {
            bits.write(0b1010, 4)
            bits.write(1, 1)  // enable_order_hint
            bits.write(0b11, 2)  // enable_jnt_comp, enable_ref_frame_mvs
            bits.write(1, 1)  // seq_choose_screen_content_tools
            bits.write(0, 1)  // seq_choose_integer_mv
            bits.write(1, 1)  // seq_force_integer_mv
            bits.write(6, 3)  // order_hint_bits_minus_1
        }
        bits.write(0b011, 3)  // enable_superres, enable_cdef, enable_restoration
        bits.write(highBitDepth ? 1 : 0, 1)
        if profile == 2 && highBitDepth { bits.write(twelveBit ? 1 : 0, 1) }
        if profile != 1 { bits.write(monochrome ? 1 : 0, 1) }
        bits.write(colour == nil ? 0 : 1, 1)
        if let colour {
            bits.write(colour.primaries, 8)
            bits.write(colour.transfer, 8)
            bits.write(colour.matrix, 8)
        }
        let srgbIdentity = colour.map { $0.primaries == 1 && $0.transfer == 13 && $0.matrix == 0 } ?? false
        if monochrome || !srgbIdentity {
            bits.write(fullRange ? 1 : 0, 1)
            if !monochrome && profile == 0 { bits.write(0, 2) }  // chroma_sample_position
        }
        bits.write(0, 1)  // separate_uv_delta_q (film_grain_params_present below)
        bits.write(0, 1)
        bits.write(1, 1)  // trailing_one_bit
        return bits.bytes
    }
}

/// Bits, most significant first, padded with zeros to a byte.
struct BitWriter {
    var bytes: [UInt8] = []
    var used = 8

    mutating func write(_ value: Int, _ width: Int) {
        for shift in stride(from: width - 1, through: 0, by: -1) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used) }
            used += 1
        }
    }
}
