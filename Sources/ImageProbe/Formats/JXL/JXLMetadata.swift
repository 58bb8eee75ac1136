#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
// The codestream's grammar past the SizeHeader as `JXLHeaderReader` decodes it, in one
// switch: ImageMetadata, its ColourEncoding and ToneMapping, and CustomTransformData (ISO/IEC
// 18181-1; libjxl `image_metadata.cc`, `color_encoding_internal.cc`, `headers.cc`), then each
// FrameHeader and its TOC (their transitions and geometry in `JXLFrames.swift`). Full mode
// ends at the end of the ColourEncoding; animation mode reads on to the first frame when the
// file is an animation.

extension JXLHeaderReader {
    /// Every field past the SizeHeader: ImageMetadata and the bundles nested in it, then in
    /// animation mode each FrameHeader and its TOC (`JXLFrames.swift`). One switch: `next`
    /// moves to the field after this one in `Field`'s order before the handler runs, and a
    /// handler sets it only where the grammar goes elsewhere (a loop repeats its field).
    mutating func headerField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        let field = next
        next = field.following
        switch field {
        // ImageMetadata.
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
        case .extraFields:
            if value == 1 {
                flags[.extraFields] = true
            } else {
                // No extra fields: orientation 1, no intrinsic size, preview or animation.
                orientation = 1
                setAnimated(false)
                next = .floatSample
            }
        case .orientation:
            orientation = UInt8(truncatingIfNeeded: value &+ 1)
        case .haveIntrinsicSize:
            if value == 0 { next = .havePreview }
        case .intrinsicSmall, .previewDiv8:
            flags[.nested] = value == 1
            if value == 0 { next = field.following.following }  // past the div-8 (small) height
        case .intrinsicSmallHeight:
            next = .intrinsicRatio
        case .intrinsicHeight, .intrinsicWidth:
            break  // the intrinsic size is not kept
        case .intrinsicRatio:
            if value != 0 {
                next = .havePreview
            } else if !flags[.nested] {
                next = .intrinsicWidth
            }
        case .intrinsicSmallWidth:
            next = .havePreview
        case .havePreview:
            flags[.havePreview] = value == 1
            if value == 0 { next = .haveAnimation }
        case .previewHeightDiv8, .previewHeight:
            // At most (2^9 + 32) × 8 = 4352, or 4095 + 1345 = 5440.
            previewHeight = UInt16(truncatingIfNeeded: field == .previewHeight ? value : value &* 8)
            next = .previewRatio
        case .previewRatio:
            if value != 0 {
                previewWidth = UInt16(truncatingIfNeeded: Self.ratio(value, of: UInt64(previewHeight)))  // at most 10880
                next = .haveAnimation
            } else if !flags[.nested] {
                next = .previewWidth
            }
        case .previewWidthDiv8, .previewWidth:
            previewWidth = UInt16(truncatingIfNeeded: field == .previewWidth ? value : value &* 8)
            next = .haveAnimation
        case .haveAnimation:
            setAnimated(value == 1)
            if value == 0 { next = .floatSample }
        case .ticksNumerator:
            ticksNumerator = UInt32(truncatingIfNeeded: value)  // 1...2^30
        case .ticksDenominator:
            ticksDenominator = UInt32(truncatingIfNeeded: value)  // 1...1024
        case .loops:
            loops = UInt32(truncatingIfNeeded: value)  // Bits(32) at most
            flags[.loopsKnown] = true
        case .haveTimecodes:
            flags[.timecodes] = value == 1
        // BitDepth, of the image or of an extra channel.
        case .floatSample:
            flags[.floatSample] = value == 1
            if value == 1 { next = .floatBits }
        case .integerBits:
            guard value <= 31 else { return invalid(.invalidImageMetadata, options) }
            bitDepthDecoded(value)
        case .floatBits:
            scratch = UInt32(truncatingIfNeeded: value)  // at most 64
        case .exponentBits:
            // exponent_bits_per_sample 1...8 must be 2...8, and the mantissa 2...23 bits.
            let exponent = value &+ 1
            let bits = UInt64(scratch)
            guard exponent >= 2, exponent <= 8, bits >= exponent &+ 3, bits &- exponent &- 1 <= 23 else {
                return invalid(.invalidImageMetadata, options)
            }
            bitDepthDecoded(bits)
        case .modular16BitBuffers:
            break
        // The extra channels.
        case .extraChannelCount:
            extraChannels = UInt16(truncatingIfNeeded: value)  // at most 4096
            count = UInt32(truncatingIfNeeded: value)
            flags[.channelsKnown] = value == 0
            if value == 0 { next = .xybEncoded }
        case .channelAllDefault:
            if value != 0 {
                // An 8-bit alpha channel.
                flags[.hasAlpha] = true
                next = .channelEnd
            }
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
        case .channelNameLength:
            skipBits = value &* 8  // at most 1071 bytes
            switch channelType {
            case 0: break  // channelAlphaAssociated
            case 2: startF16Run(4, then: .channelEnd)  // the spot colour
            case 5: next = .channelCFA
            default: next = .channelEnd
            }
        case .channelAlphaAssociated:
            next = .channelEnd
        case .channelCFA:
            break
        case .channelEnd:
            flags[.inChannel] = false
            count &-= 1
            flags[.channelsKnown] = count == 0
            if count != 0 { next = .channelAllDefault }
        case .xybEncoded:
            flags[.xybEncoded] = value == 1
        // ColourEncoding.
        case .colourAllDefault:
            // RGB, D65, sRGB primaries and transfer, relative intent.
            guard value == 0 else { return colourDecoded(options) }
        case .wantICC:
            flags[.wantICC] = value == 1
        case .colourSpace:
            // kRGB, kGray, kXYB, kUnknown. With an ICC profile, the rest is not coded.
            guard value <= 3 else { return invalid(.invalidColourEncoding, options) }
            colourSpace = UInt8(truncatingIfNeeded: value)
            if flags[.wantICC] { return colourDecoded(options) }
            if value == 2 {
                // XYB implies its white point, primaries and transfer (gamma 1/3).
                flags[.haveGamma] = true
                gamma = 3_333_333
                next = .renderingIntent
            }
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
        case .customXY, .f16Run:
            inner &-= 1
            next = inner == 0 ? resume : field
        case .haveGamma:
            flags[.haveGamma] = value == 1
            if value == 0 { next = .transferFunction }
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
        case .renderingIntent:
            guard value <= 3 else { return invalid(.invalidColourEncoding, options) }
            // Without an ICC profile, every field must be known.
            guard colourSpace != 3, flags[.haveGamma] || colourSpace == 2 || transfer != 2 else { return invalid(.invalidColourEncoding, options) }
            return colourDecoded(options)
        // ToneMapping, the metadata's extensions, CustomTransformData and the headers' end.
        case .toneMappingAllDefault:
            if value == 1 { next = .metadataExtensions }
        case .intensityTarget:
            // Above 0 (an F16's order is its bits' for values of one sign).
            guard value & 0x8000 == 0, value != 0 else { return invalid(.invalidImageMetadata, options) }
            scratch = UInt32(truncatingIfNeeded: value)
        case .minNits:
            // 0 ≤ min_nits ≤ intensity_target (−0 counts as 0).
            guard value & 0x8000 == 0 || value == 0x8000, value & 0x7FFF <= UInt64(scratch) else { return invalid(.invalidImageMetadata, options) }
        case .relativeToMaxDisplay:
            flags[.relativeToMaxDisplay] = value == 1
        case .linearBelow:
            // Not negative, and at most 1 when relative to the display's maximum.
            guard value & 0x8000 == 0 || value == 0x8000 else { return invalid(.invalidImageMetadata, options) }
            guard !flags[.relativeToMaxDisplay] || value & 0x7FFF <= 0x3C00 else { return invalid(.invalidImageMetadata, options) }
        case .metadataExtensions:
            extensionsStart(value, then: .transformAllDefault)
        case .extensionBits:
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { return .failed(.malformed(.jxl, JXLParser.Failure.extensionSizesOverflow)) }
            total = sum
            count &-= 1
            if count == 0 {
                // No extension is defined yet: all of them are skipped.
                skipBits = total
                next = resume
            } else {
                next = field
            }
        case .transformAllDefault:
            if value == 1 {
                next = .headersEnd
            } else if !flags[.xybEncoded] {
                next = .upsamplingWeightsMask
            }
        case .opsinAllDefault:
            if value == 0 { startF16Run(16, then: .upsamplingWeightsMask) }  // a 3 × 3 matrix, 3 + 4 biases
        case .upsamplingWeightsMask:
            // Custom kernels for 2×, 4× and 8× upsampling: 15, 55 and 210 weights.
            let weights = (value & 1 != 0 ? 15 : 0) &+ (value & 2 != 0 ? 55 : 0) &+ (value & 4 != 0 ? 210 : 0)
            if weights != 0 { startF16Run(UInt16(weights), then: .headersEnd) }
        case .headersEnd:
            // An ICC profile is entropy coded: its end is found only by decoding it.
            guard !flags[.wantICC] else { return .failed(.unsupported(.jxl, JXLParser.Failure.iccProfileBeforeTheFrames)) }
        case .headersAlign:
            guard value == 0 else { return Self.nonZeroPadding }
            return startFrame(preview: flags[.havePreview], options)

        // FrameHeader (its transitions and checks across fields are in JXLFrames.swift).
        case .frameAllDefault:
            if value != 0 {
                // A regular VarDCT frame of the image's size, of duration 0, and the last.
                flags[.isLast] = true
                if let progress = isLastDecoded() { return progress }
                next = .tocStart
            }
        case .frameType:
            frameType = UInt8(truncatingIfNeeded: value)
            guard !flags[.previewFrame] || value == 0 else { return Self.invalidFrame }  // a preview is a regular frame
        case .frameModular:
            flags[.modular] = value == 1
        case .frameFlags:
            flags[.useDCFrame] = value & 32 != 0  // kUseDcFrame
            flags[.skipAdaptiveDCSmoothing] = value & 128 != 0
            if flags[.xybEncoded] { afterColourTransform() }
        case .frameYCbCr:
            flags[.yCbCr] = value == 1
            afterColourTransform()
        case .chromaSubsampling:
            // Channel modes 0...3 shift by kHShift {0, 1, 1, 0} and kVShift {0, 1, 0, 1}: as
            // chromaShifts bits, 0, 3, 1 and 2, two bits each of 0b10_01_11_00. The frame's
            // shifts are the largest.
            chromaShifts |= UInt8(truncatingIfNeeded: 0b10_01_11_00 &>> (value &* 2)) & 3
            inner &-= 1
            if inner == 0 { afterChroma() } else { next = field }
        case .upsampling:
            upsamplingShift = UInt8(truncatingIfNeeded: value.trailingZeroBitCount)  // 1, 2, 4 or 8
            if extraChannels == 0 { afterUpsampling() } else { count = UInt32(extraChannels) }
        case .channelUpsampling:
            // Checking these against the colour channels' takes each channel's dim_shift,
            // which is not kept: they are passed over.
            count &-= 1
            if count == 0 { afterUpsampling() } else { next = field }
        case .groupSizeShift:
            groupSizeShift = UInt8(truncatingIfNeeded: value)
            afterGroupSizeShift()
        case .quantMatrixScales:
            afterQuantMatrixScales()
        // Passes, `dc_level`, the crop and the blending info.
        case .passCount:
            passes = UInt8(truncatingIfNeeded: value)  // 1...11
            if value == 1 { afterPasses() }
        case .downsampleCount:
            guard value <= UInt64(passes) else { return Self.invalidFrame }
            downsamples = UInt8(truncatingIfNeeded: value)
            inner = UInt16(passes) &- 1
        case .passShift:
            inner &-= 1
            if inner != 0 {
                next = field
            } else if downsamples == 0 {
                afterPasses()
            } else {
                inner = UInt16(downsamples)
            }
        case .downsample:
            // Decreasing factors.
            guard inner == UInt16(downsamples) || value < UInt64(scratch) else { return Self.invalidFrame }
            scratch = UInt32(truncatingIfNeeded: value)
            inner &-= 1
            if inner == 0 { inner = UInt16(downsamples) } else { next = field }
        case .lastPass:
            // Increasing passes, each before the last.
            guard value < UInt64(passes), inner == UInt16(downsamples) || value > UInt64(scratch) else { return Self.invalidFrame }
            scratch = UInt32(truncatingIfNeeded: value)
            inner &-= 1
            if inner == 0 { afterPasses() } else { next = field }
        case .dcLevel:
            dcLevel = UInt8(truncatingIfNeeded: value)  // 1...4
            afterCrop()
        case .customSizeOrOrigin:
            flags[.customSize] = value == 1
            if value == 0 {
                afterCrop()
            } else if !isShowable {
                next = .frameWidth
            }
        case .originX:
            originX = Self.unpackSigned(value)
        case .originY:
            originY = Self.unpackSigned(value)
        case .frameWidth:
            guard value != 0 else { return Self.invalidFrame }
            frameWidth = UInt32(truncatingIfNeeded: value)  // at most 2^30 + 18687
        case .frameHeight:
            guard value != 0 else { return Self.invalidFrame }
            frameHeight = UInt32(truncatingIfNeeded: value)
            if isShowable {
                // A crop that leaves part of the canvas uncovered.
                let (left, top) = (Int64(originX), Int64(originY))
                let (canvasWidth, canvasHeight) = defaultSize
                flags[.partialFrame] = left > 0 || top > 0 || Int64(frameWidth) &+ left < Int64(canvasWidth)
                    || Int64(frameHeight) &+ top < Int64(canvasHeight)
            }
            afterCrop()
        case .blendMode:
            // kReplace, kAdd, kBlend, kAlphaWeightedAdd, kMul.
            guard value <= 4 else { return Self.invalidFrame }
            if !flags[.channelBlending] { blendMode = UInt8(truncatingIfNeeded: value) }
            if value != 0 { flags[.blends] = true }
            scratch = UInt32(truncatingIfNeeded: value)
            // kBlend and kAlphaWeightedAdd name an alpha channel (`alpha_channel`, next in
            // order) when there are extra channels; kMul a `clamp`.
            if value == 4 {
                next = .clamp
            } else if extraChannels == 0 || (value != 2 && value != 3) {
                return blendSourceOrEnd()
            }
        case .alphaChannel:
            guard value < UInt64(extraChannels) else { return Self.invalidFrame }
        case .clamp:
            return blendSourceOrEnd()
        case .blendSource:
            return blendingDone()
        // The animation fields, `is_last`, the reference fields, the name and the LoopFilter.
        case .duration:
            duration = UInt32(truncatingIfNeeded: value)
            if !flags[.timecodes] { next = .isLast }
        case .timecode:
            break
        case .isLast:
            flags[.isLast] = value == 1
            if let progress = isLastDecoded() { return progress }
            afterIsLast()
        case .saveAsReference:
            saveAsReference = UInt8(truncatingIfNeeded: value)
            afterSaveAsReference()
        case .saveBeforeColourTransform:
            // A reference frame saved after the colour transform must cover the canvas: without
            // a crop it does, and its crop has no origin (only the kinds shown have one, so
            // `originX` and `originY` stay 0).
            guard frameType != 2 || value != 0 || !flags[.customSize] || (frameWidth >= width && frameHeight >= height) else {
                return Self.invalidFrame
            }
        case .frameNameLength:
            skipBits = value &* 8  // at most 1071 bytes
        case .loopFilterAllDefault:
            if value == 1 { next = .frameExtensions }
        case .gaborish:
            if value == 0 { next = .epfIterations }
        case .gaborishCustom:
            if value == 1 { inner = 6 } else { next = .epfIterations }
        case .gaborishWeights:
            // Three pairs of weights; each pair's kernel must not sum to nearly 0.
            if inner % 2 == 0 {
                scratch = UInt32(truncatingIfNeeded: value)
            } else {
                let sum = 1 + (Self.half(UInt16(truncatingIfNeeded: scratch)) + Self.half(UInt16(truncatingIfNeeded: value))) * 4
                guard sum.magnitude >= 1e-8 else { return Self.invalidFrame }
            }
            inner &-= 1
            if inner != 0 { next = field }
        case .epfIterations:
            if value == 0 {
                next = .loopFilterExtensions
            } else if flags[.modular] {
                next = .epfWeightCustom
            }
        case .epfSharpCustom:
            if value == 1 { startF16Run(8, then: .epfWeightCustom) }
        case .epfWeightCustom:
            if value == 1 { startF16Run(5, then: .epfSigmaCustom) }
        case .epfSigmaCustom:
            let after: Field = flags[.modular] ? .epfSigmaModular : .loopFilterExtensions
            if value == 1 { startF16Run(flags[.modular] ? 3 : 4, then: after) } else { next = after }
        case .epfSigmaModular:
            // At least 1e-8: above 0, since the smallest positive F16 is about 6e-8.
            guard value & 0x8000 == 0, value != 0 else { return Self.invalidFrame }
        case .loopFilterExtensions:
            extensionsStart(value, then: .frameExtensions)
        case .frameExtensions:
            extensionsStart(value, then: .tocStart)
        // The TOC: one size per section, after an optional permutation; the frame's sections
        // follow, and then the next frame.
        case .tocStart:
            // libjxl refuses subsampled chroma with adaptive DC smoothing in VarDCT frames.
            guard chromaShifts == 0 || flags[.skipAdaptiveDCSmoothing] || flags[.modular] else { return Self.invalidFrame }
            let entries = tocEntries()
            guard entries <= 65536 else { return .failed(.malformed(.jxl, JXLParser.Failure.moreThan65536TOCEntries)) }
            guard entries <= UInt64(options.entryLimit) else { return .failed(.limit(.jxl, JXLParser.Failure.moreTOCEntriesThanMaxEntries)) }
            count = UInt32(truncatingIfNeeded: entries)
            total = 0
        case .tocPermutation:
            // The permutation is entropy coded, like an ICC profile.
            guard value == 0 else { return .failed(.unsupported(.jxl, JXLParser.Failure.permutedTOC)) }
        case .tocAlign:
            guard value == 0 else { return Self.nonZeroPadding }
        case .tocEntry:
            total &+= value  // at most 65,536 sizes below 2^31: no overflow
            count &-= 1
            if count != 0 { next = field }
        case .tocEnd:
            guard value == 0 else { return Self.nonZeroPadding }
            skipBits = total &* 8  // below 2^50
            return startFrame(preview: false, options)
        case .signatureFirst, .signatureSecond, .small, .smallHeight, .height, .ratio, .smallWidth, .width:
            break  // unreachable: decoded by `sizeHeaderField`
        }
        return nil
    }

    /// The colour encoding is complete: full mode has its answer, and so has animation mode
    /// for a still image; an animation reads on to its frames.
    mutating func colourDecoded(_ options: ScanOptions) -> Progress? {
        flags[.colourKnown] = true
        guard options.animation && flags[.animated] else { return .finished }
        next = flags[.extraFields] ? .toneMappingAllDefault : .metadataExtensions
        return nil
    }

    /// A BitDepth is complete: the image's goes on to the extra channels, a channel's to its
    /// `dim_shift`.
    mutating func bitDepthDecoded(_ bits: UInt64) {
        if flags[.inChannel] {
            next = .channelDimShift
        } else {
            bitDepth = UInt8(truncatingIfNeeded: bits)  // at most 32
            next = .modular16BitBuffers
        }
    }

    mutating func setAnimated(_ animated: Bool) {
        flags[.animationKnown] = true
        flags[.animated] = animated
    }

    /// `count` F16 values to pass over, then `then`.
    mutating func startF16Run(_ count: UInt16, then: Field) {
        inner = count
        resume = then
        next = .f16Run
    }

    /// `count` chromaticity coordinates to pass over, then `then`.
    mutating func startCustomXY(_ count: UInt16, then: Field) {
        inner = count
        resume = then
        next = .customXY
    }

    /// A bundle's `extensions` bit set: none goes straight on to `then`; otherwise one U64
    /// size per extension, then all of them skipped.
    mutating func extensionsStart(_ mask: UInt64, then: Field) {
        guard mask != 0 else {
            next = then
            return
        }
        count = UInt32(truncatingIfNeeded: mask.nonzeroBitCount)
        total = 0
        resume = then
        next = .extensionBits
    }

    /// A field of ImageMetadata out of range. Walking an animation's frames needs every field
    /// right: the answer is partial (`malformed`). Otherwise ImageMetadata is read for its
    /// facts, and the reading ends there: the facts from that field on are not reported, and
    /// the answer is not partial (as a broken EXIF block costs the orientation, never the
    /// image). libjxl refuses such a file; the facts read before the field stand, as they did
    /// before this reader looked past the orientation.
    func invalid(_ reason: JXLParser.Failure, _ options: ScanOptions) -> Progress {
        options.animation && flags[.animated] ? .failed(.malformed(.jxl, reason)) : .finished
    }

    static var nonZeroPadding: Progress { .failed(.malformed(.jxl, JXLParser.Failure.nonZeroPaddingBits)) }
}
#endif
