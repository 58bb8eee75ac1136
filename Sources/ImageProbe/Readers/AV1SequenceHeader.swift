#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
/// The colour description of an AV1 sequence header (AV1 Bitstream & Decoding Process
/// Specification §5.5, `color_config` in §5.5.2), read from the configOBUs that follow the
/// four fixed bytes of an `av1C` box (AV1-ISOBMFF §2.3.3). libavif reads the same fields when
/// an AVIF has no `colr` of type `nclx` (it finds the sequence header in the first sample;
/// writers that fill configOBUs copy that header there).
///
/// Only the fields before `color_config` are walked, each bit read at most once: the header is
/// a few dozen bytes, and a field too short to hold it gives nil, as does a header without a
/// colour description (its code points would be "unspecified").
enum AV1SequenceHeader {
    /// `OBU_SEQUENCE_HEADER` (§6.2.2).
    static let sequenceHeaderType: UInt8 = 1

    /// The colour of the sequence header OBU at `field[start...]`, or nil. AV1-ISOBMFF §2.3.3
    /// puts the sequence header first in configOBUs when there is one; anything else there
    /// gives nil.
    static func colour(in field: FieldBytes, from start: Int) -> CICP? {
        guard start < field.count else { return nil }
        let header = field.u8(start)
        // obu_forbidden_bit 0, obu_type OBU_SEQUENCE_HEADER (§5.3.2); an extension byte to pass.
        guard header & 0x80 == 0, (header >> 3) & 0x0F == sequenceHeaderType else { return nil }
        var offset = start + (header & 0x04 != 0 ? 2 : 1)
        // With obu_has_size_field, the payload's LEB128 size (§4.10.5): at most 2 bytes here,
        // since a field is at most 64 bytes.
        var size = 64
        if header & 0x02 != 0 {
            guard offset < field.count else { return nil }
            let low = field.u8(offset)
            offset += 1
            size = Int(low & 0x7F)
            if low & 0x80 != 0 {
                guard offset < field.count, field.u8(offset) & 0x80 == 0 else { return nil }
                size |= Int(field.u8(offset)) << 7
                offset += 1
            }
        }
        guard offset <= field.count else { return nil }
        var bits = BitReader(field, from: offset, count: min(size, field.count - offset))
        return colourConfig(&bits)
    }

    /// `sequence_header_obu` up to and through `color_config`'s code points and range.
    static func colourConfig(_ bits: inout BitReader) -> CICP? {
        let profile = bits.read(3)
        guard profile <= 2 else { return nil }
        _ = bits.read(1)  // still_picture
        let reducedStillPictureHeader = bits.read(1) == 1
        if reducedStillPictureHeader {
            _ = bits.read(5)  // seq_level_idx[0]
        } else {
            skipTimingAndOperatingPoints(&bits)
        }
        // Frame size (§5.5.1).
        let widthBits = bits.read(4) &+ 1
        let heightBits = bits.read(4) &+ 1
        _ = bits.read(widthBits)
        _ = bits.read(heightBits)
        if !reducedStillPictureHeader && bits.read(1) == 1 {  // frame_id_numbers_present_flag
            _ = bits.read(7)  // delta_frame_id_length_minus_2, additional_frame_id_length_minus_1
        }
        _ = bits.read(3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
        if !reducedStillPictureHeader {
            // interintra, masked compound, warped motion, dual filter
            _ = bits.read(4)
            let orderHint = bits.read(1) == 1
            if orderHint { _ = bits.read(2) }  // enable_jnt_comp, enable_ref_frame_mvs
            // seq_choose_screen_content_tools, else seq_force_screen_content_tools
            let forcesScreenContent = bits.read(1) == 1 || bits.read(1) == 1
            if forcesScreenContent && bits.read(1) == 0 {  // seq_choose_integer_mv
                _ = bits.read(1)  // seq_force_integer_mv
            }
            if orderHint { _ = bits.read(3) }  // order_hint_bits_minus_1
        }
        _ = bits.read(3)  // enable_superres, enable_cdef, enable_restoration
        // color_config (§5.5.2).
        let highBitDepth = bits.read(1) == 1
        if profile == 2 && highBitDepth { _ = bits.read(1) }  // twelve_bit
        let monochrome = profile == 1 ? false : bits.read(1) == 1
        guard bits.read(1) == 1 else { return nil }  // color_description_present_flag
        let primaries = UInt8(truncatingIfNeeded: bits.read(8))
        let transfer = UInt8(truncatingIfNeeded: bits.read(8))
        let matrix = UInt8(truncatingIfNeeded: bits.read(8))
        // sRGB primaries and transfer with the identity matrix are full range by definition.
        let fullRange = !monochrome && primaries == 1 && transfer == 13 && matrix == 0 ? true : bits.read(1) == 1
        guard !bits.overran else { return nil }
        return CICP(
            colourPrimaries: primaries, transferCharacteristics: transfer, matrixCoefficients: matrix,
            isFullRange: fullRange)
    }

    /// `timing_info`, `decoder_model_info` and the operating points (§5.5.1, §5.5.3–5).
    static func skipTimingAndOperatingPoints(_ bits: inout BitReader) {
        var decoderModelInfo = false
        var bufferDelayLength = 0
        if bits.read(1) == 1 {  // timing_info_present_flag
            _ = bits.read(32)  // num_units_in_display_tick
            _ = bits.read(32)  // time_scale
            if bits.read(1) == 1 { bits.skipUVLC() }  // equal_picture_interval, num_ticks_per_picture_minus_1
            decoderModelInfo = bits.read(1) == 1
            if decoderModelInfo {
                bufferDelayLength = bits.read(5) &+ 1
                _ = bits.read(32)  // num_units_in_decoding_tick
                _ = bits.read(10)  // buffer_removal_time_length_minus_1, frame_presentation_time_length_minus_1
            }
        }
        let initialDisplayDelay = bits.read(1) == 1
        let operatingPoints = bits.read(5) &+ 1
        // At most 32 rounds, each reading at least 17 bits.
        for _ in 0..<operatingPoints {
            _ = bits.read(12)  // operating_point_idc
            if bits.read(5) > 7 { _ = bits.read(1) }  // seq_level_idx, seq_tier
            if decoderModelInfo && bits.read(1) == 1 {  // decoder_model_present_for_this_op
                _ = bits.read(bufferDelayLength)  // decoder_buffer_delay
                _ = bits.read(bufferDelayLength)  // encoder_buffer_delay
                _ = bits.read(1)  // low_delay_mode_flag
            }
            if initialDisplayDelay && bits.read(1) == 1 { _ = bits.read(4) }  // initial_display_delay_minus_1
        }
    }
}

/// Bits of a field, most significant first (AV1 §4.10.2 `f(n)`). Reading past the end gives
/// zeros and sets `overran`, so a caller checks once at the end.
struct BitReader {
    let field: FieldBytes
    /// The next bit, counted from the field's start.
    var position: Int
    /// One past the last bit that may be read.
    let end: Int
    var overran = false

    /// The bits of `field[start..<start + count]`.
    init(_ field: FieldBytes, from start: Int, count: Int) {
        self.field = field
        position = start * 8  // both under 64: fields are at most 64 bytes
        end = (start + count) * 8
    }

    /// The next `width` (0...32) bits as a number.
    mutating func read(_ width: Int) -> Int {
        var value = 0
        for _ in 0..<min(max(width, 0), 32) {
            guard position < end else {
                overran = true
                return 0
            }
            let byte = field.u8(position >> 3)
            value = value << 1 | Int((byte >> (7 - UInt8(truncatingIfNeeded: position & 7))) & 1)
            position += 1
        }
        return value
    }

    /// A `uvlc()` number (§4.10.3), unread: leading zeros, a one, then as many bits.
    mutating func skipUVLC() {
        var leadingZeros = 0
        // Each round reads a bit; an overrun reads zeros and ends at 32.
        while leadingZeros < 32 && read(1) == 0 { leadingZeros += 1 }
        if leadingZeros < 32 { _ = read(leadingZeros) }
    }
}
#endif
