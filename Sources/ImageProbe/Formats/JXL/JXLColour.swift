#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
// JPEG XL's enumerated colour encoding in the code points of ITU-T H.273 (CICP).

extension JXLHeaderReader {
    /// The colour encoding as CICP, where it is enumerated (no ICC profile) and H.273 can say
    /// it; nil otherwise, or before the colour encoding is read.
    ///
    /// JPEG XL's enum values are CICP's where they can be (libjxl `color_encoding.h`), and the
    /// mapping is libjxl's own, from `MaybeAddCICP` in `lib/extras/enc/apng.cc` (which writes
    /// a PNG `cICP` chunk for a decoded image):
    ///
    /// - Only the RGB colour space. Primaries sRGB → 1 and Rec.2100 → 9 with the D65 white
    ///   point; P3 → 12 (Display P3) with D65, 11 (DCI-P3) with the DCI white point. Custom
    ///   primaries, or another white point, have no code point: nil.
    /// - Transfer: 709 → 1, linear → 8, sRGB → 13, PQ → 16, DCI → 17, HLG → 18, the same
    ///   numbers. Unknown: nil.
    /// - Matrix 0 (identity: the samples are RGB), full range.
    ///
    /// Two additions, following FFmpeg's `libavcodec/libjxldec.c` (`libjxl_get_trc`,
    /// `libjxl_color_encoding_event`), which libjxl's writer leaves out:
    ///
    /// - A gamma within 0.001 of 1/2.2 or 1/2.8 is transfer 4 or 5 (H.273's "assumed display
    ///   gamma" 2.2 and 2.8; libjxl's PNG reader `DecodeCicpChunk` maps 4 and 5 to exactly
    ///   these gammas). Any other gamma: nil.
    /// - Grey has no primaries: it is primaries 2 and matrix 2 (unspecified) with its
    ///   transfer, so that a grey PQ or HLG image reads as HDR. Its white point is not
    ///   expressed.
    ///
    /// XYB and unknown colour spaces: nil.
    var cicp: CICP? {
        guard flags[.colourKnown] && !flags[.wantICC] else { return nil }
        let transferCode: UInt8
        if flags[.haveGamma] {
            // Gamma in units of 1e-7: 1/2.2 = 0.4545..., 1/2.8 = 0.3571...
            if gamma > 4_535_500 && gamma < 4_555_500 {
                transferCode = 4
            } else if gamma > 3_561_400 && gamma < 3_581_400 {
                transferCode = 5
            } else {
                return nil
            }
        } else {
            switch transfer {
            case 1, 8, 13, 16, 17, 18: transferCode = transfer
            default: return nil
            }
        }
        switch colourSpace {
        case 0:
            let primariesCode: UInt8
            switch (primaries, whitePoint) {
            case (11, 1): primariesCode = 12
            case (11, 11): primariesCode = 11
            case (1, 1), (9, 1): primariesCode = primaries
            default: return nil
            }
            return CICP(colourPrimaries: primariesCode, transferCharacteristics: transferCode, matrixCoefficients: 0, isFullRange: true)
        case 1:
            return CICP(colourPrimaries: 2, transferCharacteristics: transferCode, matrixCoefficients: 2, isFullRange: true)
        default:
            return nil
        }
    }

    /// Whether an ICC profile is embedded in the codestream (`want_icc`), once the colour
    /// encoding is read.
    var hasICCProfile: Bool? { flags[.colourKnown] ? flags[.wantICC] : nil }
}
#endif
