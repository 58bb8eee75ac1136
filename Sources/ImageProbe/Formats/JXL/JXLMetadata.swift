#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
// ImageMetadata, its ColourEncoding and ToneMapping, and CustomTransformData (ISO/IEC
// 18181-1; libjxl `image_metadata.cc`, `color_encoding_internal.cc`, `headers.cc`), as
// `JXLHeaderReader` decodes them. Full mode ends at the end of the ColourEncoding; animation
// mode reads on to the first frame when the file is an animation.

extension JXLHeaderReader {
    /// ImageMetadata's fields and the bundles nested in it.
    @usableFromInline
    mutating func metadataField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .allDefault:
            guard value == 0 else {
                // 8-bit samples, no extra channels, no animation, sRGB, XYB-coded.
                flags[.metadataAllDefault] = true
                orientation = 1
                setAnimated(false)
                bitDepth = 8
                flags[.channelsKnown] = true
                flags[.xybEncoded] = true
                flags[.colourKnown] = true
                return .finished
            }
            next = .extraFields
        case .extraFields:
            if value == 1 {
                flags[.extraFields] = true
                next = .orientation
            } else {
                // No extra fields: orientation 1, no intrinsic size, preview or animation.
                orientation = 1
                setAnimated(false)
                next = .floatSample
            }
        case .orientation:
            orientation = UInt8(truncatingIfNeeded: value &+ 1)
            next = .haveIntrinsicSize
        case .haveIntrinsicSize:
            next = value == 1 ? .intrinsicSmall : .havePreview
        case .intrinsicSmall:
            flags[.nested] = value == 1
            next = value == 1 ? .intrinsicSmallHeight : .intrinsicHeight
        case .intrinsicSmallHeight, .intrinsicHeight:
            next = .intrinsicRatio
        case .intrinsicRatio:
            next = value != 0 ? .havePreview : flags[.nested] ? .intrinsicSmallWidth : .intrinsicWidth
        case .intrinsicSmallWidth, .intrinsicWidth:
            next = .havePreview
        case .havePreview:
            flags[.havePreview] = value == 1
            next = value == 1 ? .previewDiv8 : .haveAnimation
        case .previewDiv8:
            flags[.nested] = value == 1
            next = value == 1 ? .previewHeightDiv8 : .previewHeight
        case .previewHeightDiv8, .previewHeight:
            // At most (2^9 + 32) × 8 = 4352, or 4095 + 1345 = 5440.
            previewHeight = UInt16(truncatingIfNeeded: next == .previewHeight ? value : value &* 8)
            next = .previewRatio
        case .previewRatio:
            if value != 0 {
                previewWidth = UInt16(truncatingIfNeeded: Self.ratio(value, of: UInt64(previewHeight)))  // at most 10880
                next = .haveAnimation
            } else {
                next = flags[.nested] ? .previewWidthDiv8 : .previewWidth
            }
        case .previewWidthDiv8, .previewWidth:
            previewWidth = UInt16(truncatingIfNeeded: next == .previewWidth ? value : value &* 8)
            next = .haveAnimation
        case .haveAnimation:
            setAnimated(value == 1)
            next = value == 1 ? .ticksNumerator : .floatSample
        case .ticksNumerator:
            ticksNumerator = UInt32(truncatingIfNeeded: value)  // 1...2^30
            next = .ticksDenominator
        case .ticksDenominator:
            ticksDenominator = UInt32(truncatingIfNeeded: value)  // 1...1024
            next = .loops
        case .loops:
            loops = UInt32(truncatingIfNeeded: value)  // Bits(32) at most
            flags[.loopsKnown] = true
            next = .haveTimecodes
        case .haveTimecodes:
            flags[.timecodes] = value == 1
            next = .floatSample
        default:
            return laterMetadataField(value, options)
        }
        return nil
    }

    /// BitDepth, the extra channels, `xyb_encoded` and the colour encoding.
    @usableFromInline
    mutating func laterMetadataField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .floatSample:
            flags[.floatSample] = value == 1
            next = value == 1 ? .floatBits : .integerBits
        case .integerBits:
            guard value <= 31 else { return invalid(.invalidImageMetadata, options) }
            return bitDepthDecoded(value)
        case .floatBits:
            scratch = UInt32(truncatingIfNeeded: value)  // at most 64
            next = .exponentBits
        case .exponentBits:
            // exponent_bits_per_sample 1...8 must be 2...8, and the mantissa 2...23 bits.
            let exponent = value &+ 1
            let bits = UInt64(scratch)
            guard exponent >= 2, exponent <= 8, bits >= exponent &+ 3, bits &- exponent &- 1 <= 23 else {
                return invalid(.invalidImageMetadata, options)
            }
            return bitDepthDecoded(bits)
        case .modular16BitBuffers:
            next = .extraChannelCount
        case .extraChannelCount:
            extraChannels = UInt16(truncatingIfNeeded: value)  // at most 4096
            count = UInt32(truncatingIfNeeded: value)
            flags[.channelsKnown] = value == 0
            next = value == 0 ? .xybEncoded : .channelAllDefault
        case .channelAllDefault:
            guard value == 0 else {
                // An 8-bit alpha channel.
                flags[.hasAlpha] = true
                next = .channelEnd
                return nil
            }
            next = .channelType
        case .channelType:
            // kAlpha, kDepth, kSpotColor, kSelectionMask, kBlack, kCFA, kThermal, kOptional;
            // the reserved values and kUnknown are refused.
            guard value <= 6 || value == 16 else { return invalid(.invalidImageMetadata, options) }
            channelType = UInt8(truncatingIfNeeded: value)
            if value == 0 { flags[.hasAlpha] = true }
            flags[.inChannel] = true
            next = .floatSample
        case .channelDimShift:
            guard value <= 3 else { return invalid(.invalidImageMetadata, options) }  // 1 << dim_shift at most 8
            next = .channelNameLength
        case .channelNameLength:
            skipBits = value &* 8  // at most 1071 bytes
            switch channelType {
            case 0: next = .channelAlphaAssociated
            case 2: startF16Run(4, then: .channelEnd)  // the spot colour
            case 5: next = .channelCFA
            default: next = .channelEnd
            }
        case .channelAlphaAssociated, .channelCFA:
            next = .channelEnd
        case .channelEnd:
            flags[.inChannel] = false
            count &-= 1
            flags[.channelsKnown] = count == 0
            next = count == 0 ? .xybEncoded : .channelAllDefault
        case .xybEncoded:
            flags[.xybEncoded] = value == 1
            next = .colourAllDefault
        default:
            return colourField(value, options)
        }
        return nil
    }

    /// ColourEncoding, then what follows it in animation mode: ToneMapping, the extensions,
    /// CustomTransformData and the end of the headers.
    @usableFromInline
    mutating func colourField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .colourAllDefault:
            // RGB, D65, sRGB primaries and transfer, relative intent.
            guard value == 0 else { return colourDecoded(options) }
            next = .wantICC
        case .wantICC:
            flags[.wantICC] = value == 1
            next = .colourSpace
        case .colourSpace:
            // kRGB, kGray, kXYB, kUnknown. With an ICC profile, the rest is not coded.
            guard value <= 3 else { return invalid(.invalidColourEncoding, options) }
            colourSpace = UInt8(truncatingIfNeeded: value)
            if flags[.wantICC] { return colourDecoded(options) }
            guard value != 2 else {
                // XYB implies its white point, primaries and transfer (gamma 1/3).
                flags[.haveGamma] = true
                gamma = 3_333_333
                next = .renderingIntent
                return nil
            }
            next = .whitePoint
        case .whitePoint:
            // kD65, kCustom, kE, kDCI; then the primaries, which grey has none of.
            guard value == 1 || value == 2 || value == 10 || value == 11 else { return invalid(.invalidColourEncoding, options) }
            whitePoint = UInt8(truncatingIfNeeded: value)
            let after: Field = colourSpace == 1 ? .haveGamma : .primaries
            if value == 2 {
                startCustomXY(2, then: after)
            } else {
                next = after
            }
        case .primaries:
            // kSRGB, kCustom, k2100, kP3.
            guard value == 1 || value == 2 || value == 9 || value == 11 else { return invalid(.invalidColourEncoding, options) }
            primaries = UInt8(truncatingIfNeeded: value)
            if value == 2 {
                startCustomXY(6, then: .haveGamma)
            } else {
                next = .haveGamma
            }
        case .customXY:
            inner &-= 1
            if inner == 0 { next = resume }
        case .haveGamma:
            flags[.haveGamma] = value == 1
            next = value == 1 ? .gamma : .transferFunction
        case .gamma:
            // 1e7 × gamma, in (0, 1], and not below 1 / 8192 (libjxl's kMaxGamma).
            guard value <= 10_000_000, value &* 8192 >= 10_000_000 else { return invalid(.invalidColourEncoding, options) }
            gamma = UInt32(truncatingIfNeeded: value)
            next = .renderingIntent
        case .transferFunction:
            // k709, kUnknown, kLinear, kSRGB, kPQ, kDCI, kHLG.
            guard value == 1 || value == 2 || value == 8 || value == 13 || (value >= 16 && value <= 18) else {
                return invalid(.invalidColourEncoding, options)
            }
            transfer = UInt8(truncatingIfNeeded: value)
            next = .renderingIntent
        case .renderingIntent:
            guard value <= 3 else { return invalid(.invalidColourEncoding, options) }
            // Without an ICC profile, every field must be known.
            guard colourSpace != 3, flags[.haveGamma] || colourSpace == 2 || transfer != 2 else { return invalid(.invalidColourEncoding, options) }
            return colourDecoded(options)
        default:
            return afterColourField(value, options)
        }
        return nil
    }

    /// The colour encoding is complete: full mode has its answer, and so has animation mode
    /// for a still image; an animation reads on to its frames.
    @inlinable
    mutating func colourDecoded(_ options: ScanOptions) -> Progress? {
        flags[.colourKnown] = true
        guard options.animation && flags[.animated] else { return .finished }
        next = flags[.extraFields] ? .toneMappingAllDefault : .metadataExtensions
        return nil
    }

    /// ToneMapping, the metadata's extensions, CustomTransformData and the headers' end.
    @usableFromInline
    mutating func afterColourField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .toneMappingAllDefault:
            next = value == 1 ? .metadataExtensions : .intensityTarget
        case .intensityTarget:
            // Above 0 (an F16's order is its bits' for values of one sign).
            guard value & 0x8000 == 0, value != 0 else { return invalid(.invalidImageMetadata, options) }
            scratch = UInt32(truncatingIfNeeded: value)
            next = .minNits
        case .minNits:
            // 0 ≤ min_nits ≤ intensity_target (−0 counts as 0).
            guard value & 0x8000 == 0 || value == 0x8000, value & 0x7FFF <= UInt64(scratch) else { return invalid(.invalidImageMetadata, options) }
            next = .relativeToMaxDisplay
        case .relativeToMaxDisplay:
            flags[.relativeToMaxDisplay] = value == 1
            next = .linearBelow
        case .linearBelow:
            // Not negative, and at most 1 when relative to the display's maximum.
            guard value & 0x8000 == 0 || value == 0x8000 else { return invalid(.invalidImageMetadata, options) }
            guard !flags[.relativeToMaxDisplay] || value & 0x7FFF <= 0x3C00 else { return invalid(.invalidImageMetadata, options) }
            next = .metadataExtensions
        case .metadataExtensions:
            return extensionsStart(value, then: .transformAllDefault)
        case .extensionBits:
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { return .failed(.malformed(.jxl, JXLParser.Failure.extensionSizesOverflow)) }
            total = sum
            count &-= 1
            if count == 0 {
                // No extension is defined yet: all of them are skipped.
                skipBits = total
                next = resume
            }
        case .f16Run:
            inner &-= 1
            if inner == 0 { next = resume }
        case .transformAllDefault:
            next = value == 1 ? .headersEnd : flags[.xybEncoded] ? .opsinAllDefault : .upsamplingWeightsMask
        case .opsinAllDefault:
            if value == 1 {
                next = .upsamplingWeightsMask
            } else {
                startF16Run(16, then: .upsamplingWeightsMask)  // a 3 × 3 matrix, 3 + 4 biases
            }
        case .upsamplingWeightsMask:
            // Custom kernels for 2×, 4× and 8× upsampling: 15, 55 and 210 weights.
            let weights = (value & 1 != 0 ? 15 : 0) &+ (value & 2 != 0 ? 55 : 0) &+ (value & 4 != 0 ? 210 : 0)
            if weights == 0 {
                next = .headersEnd
            } else {
                startF16Run(UInt16(weights), then: .headersEnd)
            }
        case .headersEnd:
            // An ICC profile is entropy coded: its end is found only by decoding it.
            guard !flags[.wantICC] else { return .failed(.unsupported(.jxl, JXLParser.Failure.iccProfileBeforeTheFrames)) }
            next = .headersAlign
        default:  // .headersAlign
            guard value == 0 else { return Self.nonZeroPadding }
            return startFrame(preview: flags[.havePreview], options)
        }
        return nil
    }

    /// A BitDepth is complete: the image's goes on to the extra channels, a channel's to its
    /// `dim_shift`.
    @inlinable
    mutating func bitDepthDecoded(_ bits: UInt64) -> Progress? {
        if flags[.inChannel] {
            next = .channelDimShift
        } else {
            bitDepth = UInt8(truncatingIfNeeded: bits)  // at most 32
            next = .modular16BitBuffers
        }
        return nil
    }

    @inlinable
    mutating func setAnimated(_ animated: Bool) {
        flags[.animationKnown] = true
        flags[.animated] = animated
    }

    /// `count` F16 values to pass over, then `then`.
    @inlinable
    mutating func startF16Run(_ count: UInt16, then: Field) {
        inner = count
        resume = then
        next = .f16Run
    }

    /// `count` chromaticity coordinates to pass over, then `then`.
    @inlinable
    mutating func startCustomXY(_ count: UInt16, then: Field) {
        inner = count
        resume = then
        next = .customXY
    }

    /// A bundle's `extensions` bit set: none goes straight on to `then`; otherwise one U64
    /// size per extension, then all of them skipped.
    @inlinable
    mutating func extensionsStart(_ mask: UInt64, then: Field) -> Progress? {
        guard mask != 0 else {
            next = then
            return nil
        }
        count = UInt32(truncatingIfNeeded: mask.nonzeroBitCount)
        total = 0
        resume = then
        next = .extensionBits
        return nil
    }

    /// A field of ImageMetadata out of range. Walking an animation's frames needs every field
    /// right: the answer is partial (`malformed`). Otherwise ImageMetadata is read for its
    /// facts, and the reading ends there: the facts from that field on are not reported, and
    /// the answer is not partial (as a broken EXIF block costs the orientation, never the
    /// image). libjxl refuses such a file; the facts read before the field stand, as they did
    /// before this reader looked past the orientation.
    @inlinable
    func invalid(_ reason: JXLParser.Failure, _ options: ScanOptions) -> Progress {
        options.animation && flags[.animated] ? .failed(.malformed(.jxl, reason)) : .finished
    }

    @usableFromInline
    static var nonZeroPadding: Progress { .failed(.malformed(.jxl, JXLParser.Failure.nonZeroPaddingBits)) }
}
#endif
