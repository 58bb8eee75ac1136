#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
// The codestream's fields as `JXLHeaderReader` visits them, and the U32 distributions they
// are coded with (ISO/IEC 18181-1; libjxl `headers.cc`, `image_metadata.cc`,
// `color_encoding_internal.cc`, `frame_header.cc`, `loop_filter.cc`, `toc.cc`).

extension JXLHeaderReader {
    /// How a field is coded.
    @usableFromInline
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

    /// The fields in codestream order; `decoded` dispatches on the ranges they fall in.
    @usableFromInline
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

        /// How the field is coded.
        @inlinable
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
    @usableFromInline
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
        @inlinable
        func entry(_ selector: UInt64) -> (bits: UInt8, offset: UInt32) {
            let s = selector & 3
            switch self {
            case .size: return Self.pick(s, (9, 1), (13, 1), (18, 1), (30, 1))
            case .previewDiv8: return Self.pick(s, (0, 16), (0, 32), (5, 1), (9, 33))
            case .preview: return Self.pick(s, (6, 1), (8, 65), (10, 321), (12, 1345))
            case .ticksNumerator: return Self.pick(s, (0, 100), (0, 1000), (10, 1), (30, 1))
            case .ticksDenominator: return Self.pick(s, (0, 1), (0, 1001), (8, 1), (10, 1))
            case .loops: return Self.pick(s, (0, 0), (3, 0), (16, 0), (32, 0))
            case .integerBits: return Self.pick(s, (0, 8), (0, 10), (0, 12), (6, 1))
            case .floatBits: return Self.pick(s, (0, 32), (0, 16), (0, 24), (6, 1))
            case .extraChannelCount: return Self.pick(s, (0, 0), (0, 1), (4, 2), (12, 1))
            case .enumeration: return Self.pick(s, (0, 0), (0, 1), (4, 2), (6, 18))
            case .dimShift: return Self.pick(s, (0, 0), (0, 3), (0, 4), (3, 1))
            case .nameLength: return Self.pick(s, (0, 0), (4, 0), (5, 16), (10, 48))
            case .cfaChannel: return Self.pick(s, (0, 1), (2, 0), (4, 3), (8, 19))
            case .chromaticity: return Self.pick(s, (19, 0), (19, 0x8_0000), (20, 0x10_0000), (21, 0x20_0000))
            case .zeroToThree: return Self.pick(s, (0, 0), (0, 1), (0, 2), (0, 3))
            case .powerOfTwo: return Self.pick(s, (0, 1), (0, 2), (0, 4), (0, 8))
            case .passes: return Self.pick(s, (0, 1), (0, 2), (0, 3), (3, 4))
            case .downsampleCount: return Self.pick(s, (0, 0), (0, 1), (0, 2), (1, 3))
            case .lastPass: return Self.pick(s, (0, 0), (0, 1), (0, 2), (3, 0))
            case .dcLevel: return Self.pick(s, (0, 1), (0, 2), (0, 3), (0, 4))
            case .frameSize: return Self.pick(s, (8, 0), (11, 256), (14, 2304), (30, 18688))
            case .blendMode: return Self.pick(s, (0, 0), (0, 1), (0, 2), (2, 3))
            case .alphaChannel: return Self.pick(s, (0, 0), (0, 1), (0, 2), (3, 3))
            case .duration: return Self.pick(s, (0, 0), (0, 1), (8, 0), (32, 0))
            case .tocEntry: return Self.pick(s, (10, 0), (14, 1024), (22, 17408), (30, 4_211_712))
            }
        }

        /// One of four entries, without an array (nothing is allocated).
        @inlinable @inline(__always)
        static func pick(
            _ selector: UInt64, _ e0: (UInt8, UInt32), _ e1: (UInt8, UInt32), _ e2: (UInt8, UInt32), _ e3: (UInt8, UInt32)
        ) -> (bits: UInt8, offset: UInt32) {
            switch selector {
            case 0: e0
            case 1: e1
            case 2: e2
            default: e3
            }
        }

        /// The fewest bits any entry reads.
        @inlinable
        var fewestBits: UInt8 {
            switch self {
            case .size: 9
            case .preview: 6
            case .chromaticity: 19
            case .frameSize: 8
            case .tocEntry: 10
            default: 0
            }
        }
    }
}
#endif
