#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
// The codestream's fields as `JXLHeaderReader` visits them, and the U32 distributions they
// are coded with (ISO/IEC 18181-1; libjxl `headers.cc`, `image_metadata.cc`,
// `color_encoding_internal.cc`, `frame_header.cc`, `loop_filter.cc`, `toc.cc`).

extension JXLHeaderReader {
    /// How a field is coded.
    enum Primitive: Sendable {
        /// A fixed number of bits (1...32).
        case bits(UInt8)
        /// The padding to the next byte boundary, which must be zero.
        case align
        case u32(U32Distribution)
        case u64
        /// A 16-bit IEEE half; infinities and NaNs are refused.
        case f16
    }

    /// The fields in codestream order, which `headerField` follows unless a handler says
    /// otherwise.
    enum Field: UInt8, Sendable {
        // The signature (container only) and the SizeHeader.
        case signatureFirst, signatureSecond
        case small, smallHeight, height, ratio, smallWidth, width

        // ImageMetadata.
        case allDefault, extraFields, orientation
        case haveIntrinsicSize, intrinsicSmall, intrinsicSmallHeight, intrinsicHeight, intrinsicRatio, intrinsicSmallWidth,
            intrinsicWidth
        case havePreview, previewDiv8, previewHeightDiv8, previewHeight, previewRatio, previewWidthDiv8, previewWidth
        case haveAnimation, ticksNumerator, ticksDenominator, loops, haveTimecodes
        /// BitDepth, of the image or of an extra channel.
        case floatSample, integerBits, floatBits, exponentBits
        case modular16BitBuffers, extraChannelCount
        /// ExtraChannelInfo; `channelEnd` (no bits) closes one.
        case channelAllDefault, channelType, channelDimShift, channelNameLength, channelAlphaAssociated, channelCFA, channelEnd
        case xybEncoded
        /// ColourEncoding; `customXY` reads `inner` chromaticity coordinates, then `resume`.
        case colourAllDefault, wantICC, colourSpace, whitePoint, primaries, customXY, haveGamma, gamma, transferFunction,
            renderingIntent
        case toneMappingAllDefault, intensityTarget, minNits, relativeToMaxDisplay, linearBelow
        case metadataExtensions
        /// A bundle's extension sizes (`count` of them), summed into `total` and skipped; then
        /// `resume`. Shared by every bundle with extensions.
        case extensionBits
        /// `inner` F16 values passed over, then `resume`. Shared.
        case f16Run
        /// CustomTransformData.
        case transformAllDefault, opsinAllDefault, upsamplingWeightsMask
        /// The end of the headers (no bits): the ICC profile, if any, would follow.
        case headersEnd
        /// Zero padding to the byte where the first frame starts.
        case headersAlign

        // FrameHeader, then the TOC. Every field from here on is part of a frame.
        case frameAllDefault, frameType, frameModular, frameFlags, frameYCbCr, chromaSubsampling, upsampling,
            channelUpsampling, groupSizeShift, quantMatrixScales
        case passCount, downsampleCount, passShift, downsample, lastPass, dcLevel
        case customSizeOrOrigin, originX, originY, frameWidth, frameHeight
        /// BlendingInfo, for the frame and then for each extra channel.
        case blendMode, alphaChannel, clamp, blendSource
        case duration, timecode, isLast, saveAsReference, saveBeforeColourTransform, frameNameLength
        /// LoopFilter.
        case loopFilterAllDefault, gaborish, gaborishCustom, gaborishWeights, epfIterations, epfSharpCustom, epfWeightCustom,
            epfSigmaCustom, epfSigmaModular, loopFilterExtensions
        case frameExtensions
        /// The TOC: its entry count (no bits), the permutation flag, padding, the sizes, padding.
        case tocStart, tocPermutation, tocAlign, tocEntry, tocEnd

        /// The field after this one in the order above, where most fields go on to (the last
        /// is its own). No `init(rawValue:)`: its switch over every field is a jump table.
        var following: Field {
            // SAFETY: the cases are numbered from 0 without gaps and `tocEnd` is the last
            // (JXLTests.fieldsFollowInOrder checks both), so every value up to it is a case.
            unsafeBitCast(min(rawValue &+ 1, Self.tocEnd.rawValue), to: Field.self)
        }

        /// How the field is coded.
        var primitive: Primitive {
            switch self {
            case .signatureFirst, .signatureSecond: .bits(8)
            case .small, .allDefault, .extraFields, .haveIntrinsicSize, .intrinsicSmall, .havePreview, .previewDiv8,
                .haveAnimation, .haveTimecodes, .floatSample, .modular16BitBuffers, .channelAllDefault,
                .channelAlphaAssociated, .xybEncoded, .colourAllDefault, .wantICC, .haveGamma, .toneMappingAllDefault,
                .relativeToMaxDisplay, .transformAllDefault, .opsinAllDefault:
                .bits(1)
            case .smallHeight, .smallWidth, .intrinsicSmallHeight, .intrinsicSmallWidth: .bits(5)
            case .ratio, .orientation, .intrinsicRatio, .previewRatio, .upsamplingWeightsMask: .bits(3)
            case .height, .width, .intrinsicHeight, .intrinsicWidth: .u32(.size)
            case .previewHeightDiv8, .previewWidthDiv8: .u32(.previewDiv8)
            case .previewHeight, .previewWidth: .u32(.preview)
            case .ticksNumerator: .u32(.ticksNumerator)
            case .ticksDenominator: .u32(.ticksDenominator)
            case .loops: .u32(.loops)
            case .integerBits: .u32(.integerBits)
            case .floatBits: .u32(.floatBits)
            case .exponentBits: .bits(4)
            case .extraChannelCount: .u32(.extraChannelCount)
            case .channelType, .colourSpace, .whitePoint, .primaries, .transferFunction, .renderingIntent: .u32(.enumeration)
            case .channelDimShift: .u32(.dimShift)
            case .channelNameLength, .frameNameLength: .u32(.nameLength)
            case .channelCFA: .u32(.cfaChannel)
            case .channelEnd, .headersEnd, .tocStart: .bits(0)
            case .customXY: .u32(.chromaticity)
            case .gamma: .bits(24)
            case .intensityTarget, .minNits, .linearBelow, .f16Run, .gaborishWeights, .epfSigmaModular: .f16
            case .metadataExtensions, .extensionBits, .frameFlags, .loopFilterExtensions, .frameExtensions: .u64
            case .headersAlign, .tocAlign, .tocEnd: .align
            case .frameAllDefault, .frameModular, .frameYCbCr, .customSizeOrOrigin, .clamp, .isLast,
                .saveBeforeColourTransform, .loopFilterAllDefault, .gaborish, .gaborishCustom, .epfSharpCustom,
                .epfWeightCustom, .epfSigmaCustom, .tocPermutation:
                .bits(1)
            case .frameType, .blendSource, .saveAsReference: .u32(.zeroToThree)
            case .chromaSubsampling, .groupSizeShift, .epfIterations: .bits(2)
            case .upsampling, .channelUpsampling, .downsample: .u32(.powerOfTwo)
            case .quantMatrixScales: .bits(6)
            case .passCount: .u32(.passes)
            case .downsampleCount: .u32(.downsampleCount)
            case .passShift: .bits(2)
            case .lastPass: .u32(.lastPass)
            case .dcLevel: .u32(.dcLevel)
            case .originX, .originY, .frameWidth, .frameHeight: .u32(.frameSize)
            case .blendMode: .u32(.blendMode)
            case .alphaChannel: .u32(.alphaChannel)
            case .duration: .u32(.duration)
            case .timecode: .bits(32)
            case .tocEntry: .u32(.tocEntry)
            }
        }
    }

    /// The U32 distributions in use: four entries each, picked by a 2-bit selector, each a
    /// number of bits read (0 for a plain value) and an offset added to them.
    enum U32Distribution: UInt8, Sendable {
        /// SizeHeader: BitsOffset(9, 1), (13, 1), (18, 1), (30, 1).
        case size
        /// PreviewHeader: Val(16), Val(32), BitsOffset(5, 1), (9, 33); and BitsOffset(6, 1),
        /// (8, 65), (10, 321), (12, 1345).
        case previewDiv8, preview
        /// AnimationHeader: Val(100), Val(1000), BitsOffset(10, 1), (30, 1); Val(1), Val(1001),
        /// BitsOffset(8, 1), (10, 1); Val(0), Bits(3), Bits(16), Bits(32).
        case ticksNumerator, ticksDenominator, loops
        /// BitDepth: Val(8), Val(10), Val(12), BitsOffset(6, 1); Val(32), Val(16), Val(24),
        /// BitsOffset(6, 1).
        case integerBits, floatBits
        /// Val(0), Val(1), BitsOffset(4, 2), (12, 1).
        case extraChannelCount
        /// Every enum: Val(0), Val(1), BitsOffset(4, 2), (6, 18).
        case enumeration
        /// ExtraChannelInfo: Val(0), Val(3), Val(4), BitsOffset(3, 1); the name's length
        /// Val(0), Bits(4), BitsOffset(5, 16), (10, 48); Val(1), Bits(2), BitsOffset(4, 3),
        /// (8, 19).
        case dimShift, nameLength, cfaChannel
        /// Customxy: Bits(19), BitsOffset(19, 2^19), (20, 2^20), (21, 2^21).
        case chromaticity
        /// FrameHeader: Val(0...3); Val(1), Val(2), Val(4), Val(8); Val(1), Val(2), Val(3),
        /// BitsOffset(3, 4); Val(0), Val(1), Val(2), BitsOffset(1, 3); Val(0), Val(1), Val(2),
        /// Bits(3); Val(1...4); Bits(8), BitsOffset(11, 256), (14, 2304), (30, 18688).
        case zeroToThree, powerOfTwo, passes, downsampleCount, lastPass, dcLevel, frameSize
        /// BlendingInfo: Val(0), Val(1), Val(2), BitsOffset(2, 3); Val(0), Val(1), Val(2),
        /// BitsOffset(3, 3). AnimationFrame: Val(0), Val(1), Bits(8), Bits(32).
        case blendMode, alphaChannel, duration
        /// The TOC: Bits(10), BitsOffset(14, 1024), (22, 17408), (30, 4211712).
        case tocEntry

        /// The entry a selector (0...3) picks.
        func entry(_ selector: UInt64) -> (bits: UInt8, offset: UInt32) {
            let packed = packedEntry(selector)
            return (UInt8(truncatingIfNeeded: packed >> 24), packed & 0xFF_FFFF)
        }

        /// The entry a selector (0...3) picks, as `bits << 24 | offset` (every offset is below
        /// 2^23): one word, returned in a register. One switch over the distribution (in the
        /// order of its cases) and the selector, which becomes one lookup table; nothing is
        /// allocated.
        func packedEntry(_ selector: UInt64) -> UInt32 {
            switch UInt32(rawValue) &<< 2 | UInt32(truncatingIfNeeded: selector & 3) {
            // .size
            case 0: Self.e(9, 1); case 1: Self.e(13, 1); case 2: Self.e(18, 1); case 3: Self.e(30, 1)
            // .previewDiv8
            case 4: Self.e(0, 16); case 5: Self.e(0, 32); case 6: Self.e(5, 1); case 7: Self.e(9, 33)
            // .preview
            case 8: Self.e(6, 1); case 9: Self.e(8, 65); case 10: Self.e(10, 321); case 11: Self.e(12, 1345)
            // .ticksNumerator
            case 12: Self.e(0, 100); case 13: Self.e(0, 1000); case 14: Self.e(10, 1); case 15: Self.e(30, 1)
            // .ticksDenominator
            case 16: Self.e(0, 1); case 17: Self.e(0, 1001); case 18: Self.e(8, 1); case 19: Self.e(10, 1)
            // .loops
            case 20: Self.e(0, 0); case 21: Self.e(3, 0); case 22: Self.e(16, 0); case 23: Self.e(32, 0)
            // .integerBits
            case 24: Self.e(0, 8); case 25: Self.e(0, 10); case 26: Self.e(0, 12); case 27: Self.e(6, 1)
            // .floatBits
            case 28: Self.e(0, 32); case 29: Self.e(0, 16); case 30: Self.e(0, 24); case 31: Self.e(6, 1)
            // .extraChannelCount
            case 32: Self.e(0, 0); case 33: Self.e(0, 1); case 34: Self.e(4, 2); case 35: Self.e(12, 1)
            // .enumeration
            case 36: Self.e(0, 0); case 37: Self.e(0, 1); case 38: Self.e(4, 2); case 39: Self.e(6, 18)
            // .dimShift
            case 40: Self.e(0, 0); case 41: Self.e(0, 3); case 42: Self.e(0, 4); case 43: Self.e(3, 1)
            // .nameLength
            case 44: Self.e(0, 0); case 45: Self.e(4, 0); case 46: Self.e(5, 16); case 47: Self.e(10, 48)
            // .cfaChannel
            case 48: Self.e(0, 1); case 49: Self.e(2, 0); case 50: Self.e(4, 3); case 51: Self.e(8, 19)
            // .chromaticity
            case 52: Self.e(19, 0); case 53: Self.e(19, 0x8_0000); case 54: Self.e(20, 0x10_0000); case 55: Self.e(21, 0x20_0000)
            // .zeroToThree
            case 56: Self.e(0, 0); case 57: Self.e(0, 1); case 58: Self.e(0, 2); case 59: Self.e(0, 3)
            // .powerOfTwo
            case 60: Self.e(0, 1); case 61: Self.e(0, 2); case 62: Self.e(0, 4); case 63: Self.e(0, 8)
            // .passes
            case 64: Self.e(0, 1); case 65: Self.e(0, 2); case 66: Self.e(0, 3); case 67: Self.e(3, 4)
            // .downsampleCount
            case 68: Self.e(0, 0); case 69: Self.e(0, 1); case 70: Self.e(0, 2); case 71: Self.e(1, 3)
            // .lastPass
            case 72: Self.e(0, 0); case 73: Self.e(0, 1); case 74: Self.e(0, 2); case 75: Self.e(3, 0)
            // .dcLevel
            case 76: Self.e(0, 1); case 77: Self.e(0, 2); case 78: Self.e(0, 3); case 79: Self.e(0, 4)
            // .frameSize
            case 80: Self.e(8, 0); case 81: Self.e(11, 256); case 82: Self.e(14, 2304); case 83: Self.e(30, 18688)
            // .blendMode
            case 84: Self.e(0, 0); case 85: Self.e(0, 1); case 86: Self.e(0, 2); case 87: Self.e(2, 3)
            // .alphaChannel
            case 88: Self.e(0, 0); case 89: Self.e(0, 1); case 90: Self.e(0, 2); case 91: Self.e(3, 3)
            // .duration
            case 92: Self.e(0, 0); case 93: Self.e(0, 1); case 94: Self.e(8, 0); case 95: Self.e(32, 0)
            // .tocEntry
            case 96: Self.e(10, 0); case 97: Self.e(14, 1024); case 98: Self.e(22, 17408); default: Self.e(30, 4_211_712)
            }
        }

        /// An entry of `bits` bits (0...32) and an offset below 2^24, packed.
        static func e(_ bits: UInt32, _ offset: UInt32) -> UInt32 { bits << 24 | offset }

        /// The fewest bits any entry reads: the first entry's, in every distribution.
        var fewestBits: UInt8 { entry(0).bits }
    }
}
#endif
