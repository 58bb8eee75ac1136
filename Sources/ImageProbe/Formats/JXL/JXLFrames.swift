#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
// Animation mode's walk over the frames (ISO/IEC 18181-1 §C; libjxl `frame_header.cc`,
// `loop_filter.cc`, `toc.cc`, `frame_dimensions.h`, `dec_frame.cc`): each FrameHeader is read
// whole, then its TOC, and the frame's sections are skipped by the sum of the TOC's sizes to
// the next frame header.
//
// Which frames count is libjxl's rule for the frames a decoder shows (`dec_frame.cc`, the
// `visible_frame_index`; the frames `JXL_DEC_FRAME` reports with coalescing on, as browsers
// decode): a regular or skip-progressive frame, not the preview, whose `duration` is not 0 or
// which is the last. A frame of duration 0 that is not the last is a layer blended into the
// next shown frame, and reference-only and DC frames are never shown.

extension JXLHeaderReader {
    /// A frame header starts: the preview's (`preview`), or the next frame's.
    @usableFromInline
    mutating func startFrame(preview: Bool, _ options: ScanOptions) -> Progress? {
        guard frameHeaders < options.entryLimit else { return .failed(.limit(.jxl, .moreFramesThanMaxEntries)) }
        frameHeaders &+= 1
        flags[.previewFrame] = preview
        flags[.modular] = false
        flags[.useDCFrame] = false
        flags[.skipAdaptiveDCSmoothing] = false
        flags[.yCbCr] = false
        flags[.customSize] = false
        flags[.partialFrame] = false
        flags[.blends] = false
        flags[.channelBlending] = false
        flags[.isLast] = false
        frameType = 0
        upsamplingShift = 0
        groupSizeShift = 1
        passes = 1
        downsamples = 0
        dcLevel = 0
        chromaShifts = 0
        blendMode = 0
        saveAsReference = 0
        originX = 0
        originY = 0
        frameWidth = 0
        frameHeight = 0
        duration = 0
        next = .frameAllDefault
        return nil
    }

    /// The FrameHeader's and the TOC's fields.
    @usableFromInline
    mutating func frameField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .frameAllDefault:
            guard value == 0 else {
                // A regular VarDCT frame of the image's size, of duration 0, and the last.
                flags[.isLast] = true
                if let progress = isLastDecoded() { return progress }
                next = .tocStart
                return nil
            }
            next = .frameType
        case .frameType:
            frameType = UInt8(truncatingIfNeeded: value)
            guard !flags[.previewFrame] || value == 0 else { return Self.invalidFrame }  // a preview is a regular frame
            next = .frameModular
        case .frameModular:
            flags[.modular] = value == 1
            next = .frameFlags
        case .frameFlags:
            flags[.useDCFrame] = value & 32 != 0  // kUseDcFrame
            flags[.skipAdaptiveDCSmoothing] = value & 128 != 0
            guard flags[.xybEncoded] else {
                next = .frameYCbCr
                return nil
            }
            afterColourTransform()
        case .frameYCbCr:
            flags[.yCbCr] = value == 1
            afterColourTransform()
        case .chromaSubsampling:
            // Channel modes 0...3 shift by kHShift {0, 1, 1, 0} and kVShift {0, 1, 0, 1}; the
            // frame's shifts are the largest.
            if value == 1 || value == 2 { chromaShifts |= 1 }
            if value == 1 || value == 3 { chromaShifts |= 2 }
            inner &-= 1
            if inner == 0 { afterChroma() }
        case .upsampling:
            upsamplingShift = UInt8(truncatingIfNeeded: value.trailingZeroBitCount)  // 1, 2, 4 or 8
            guard extraChannels == 0 else {
                count = UInt32(extraChannels)
                next = .channelUpsampling
                return nil
            }
            afterUpsampling()
        case .channelUpsampling:
            // Checking these against the colour channels' takes each channel's dim_shift,
            // which is not kept: they are passed over.
            count &-= 1
            if count == 0 { afterUpsampling() }
        case .groupSizeShift:
            groupSizeShift = UInt8(truncatingIfNeeded: value)
            afterGroupSizeShift()
        case .quantMatrixScales:
            afterQuantMatrixScales()
        default:
            return passesField(value, options)
        }
        return nil
    }

    /// Passes, `dc_level`, the crop and the blending info.
    @usableFromInline
    mutating func passesField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .passCount:
            passes = UInt8(truncatingIfNeeded: value)  // 1...11
            guard value != 1 else {
                afterPasses()
                return nil
            }
            next = .downsampleCount
        case .downsampleCount:
            guard value <= UInt64(passes) else { return Self.invalidFrame }
            downsamples = UInt8(truncatingIfNeeded: value)
            inner = UInt16(passes) &- 1
            next = .passShift
        case .passShift:
            inner &-= 1
            guard inner == 0 else { return nil }
            if downsamples == 0 {
                afterPasses()
            } else {
                inner = UInt16(downsamples)
                next = .downsample
            }
        case .downsample:
            // Decreasing factors.
            guard inner == UInt16(downsamples) || value < UInt64(scratch) else { return Self.invalidFrame }
            scratch = UInt32(truncatingIfNeeded: value)
            inner &-= 1
            if inner == 0 {
                inner = UInt16(downsamples)
                next = .lastPass
            }
        case .lastPass:
            // Increasing passes, each before the last.
            guard value < UInt64(passes), inner == UInt16(downsamples) || value > UInt64(scratch) else { return Self.invalidFrame }
            scratch = UInt32(truncatingIfNeeded: value)
            inner &-= 1
            if inner == 0 { afterPasses() }
        case .dcLevel:
            dcLevel = UInt8(truncatingIfNeeded: value)  // 1...4
            afterCrop()
        case .customSizeOrOrigin:
            flags[.customSize] = value == 1
            guard value == 1 else {
                afterCrop()
                return nil
            }
            next = isShowable ? .originX : .frameWidth
        case .originX:
            originX = Self.unpackSigned(value)
            next = .originY
        case .originY:
            originY = Self.unpackSigned(value)
            next = .frameWidth
        case .frameWidth:
            guard value != 0 else { return Self.invalidFrame }
            frameWidth = UInt32(truncatingIfNeeded: value)  // at most 2^30 + 18687
            next = .frameHeight
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
            if extraChannels > 0 && (value == 2 || value == 3) {
                next = .alphaChannel
            } else if value == 4 {
                next = .clamp
            } else {
                return blendSourceOrEnd()
            }
        case .alphaChannel:
            guard value < UInt64(extraChannels) else { return Self.invalidFrame }
            next = .clamp
        case .clamp:
            return blendSourceOrEnd()
        case .blendSource:
            return blendingDone()
        default:
            return laterFrameField(value, options)
        }
        return nil
    }

    /// The animation fields, `is_last`, the reference fields, the name and the LoopFilter.
    @usableFromInline
    mutating func laterFrameField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .duration:
            duration = UInt32(truncatingIfNeeded: value)
            next = flags[.timecodes] ? .timecode : .isLast
        case .timecode:
            next = .isLast
        case .isLast:
            flags[.isLast] = value == 1
            if let progress = isLastDecoded() { return progress }
            afterIsLast()
        case .saveAsReference:
            saveAsReference = UInt8(truncatingIfNeeded: value)
            afterSaveAsReference()
        case .saveBeforeColourTransform:
            if frameType == 2 && value == 0 {
                // A reference frame saved after the colour transform must cover the canvas.
                let width = flags[.customSize] ? frameWidth : self.width
                let height = flags[.customSize] ? frameHeight : self.height
                guard width >= self.width, height >= self.height, originX == 0, originY == 0 else { return Self.invalidFrame }
            }
            next = .frameNameLength
        case .frameNameLength:
            skipBits = value &* 8  // at most 1071 bytes
            next = .loopFilterAllDefault
        case .loopFilterAllDefault:
            next = value == 1 ? .frameExtensions : .gaborish
        case .gaborish:
            next = value == 1 ? .gaborishCustom : .epfIterations
        case .gaborishCustom:
            guard value == 1 else {
                next = .epfIterations
                return nil
            }
            inner = 6
            next = .gaborishWeights
        case .gaborishWeights:
            // Three pairs of weights; each pair's kernel must not sum to nearly 0.
            if inner % 2 == 0 {
                scratch = UInt32(truncatingIfNeeded: value)
            } else {
                let sum = 1 + (Self.half(UInt16(truncatingIfNeeded: scratch)) + Self.half(UInt16(truncatingIfNeeded: value))) * 4
                guard sum.magnitude >= 1e-8 else { return Self.invalidFrame }
            }
            inner &-= 1
            if inner == 0 { next = .epfIterations }
        case .epfIterations:
            if value == 0 {
                next = .loopFilterExtensions
            } else {
                next = flags[.modular] ? .epfWeightCustom : .epfSharpCustom
            }
        case .epfSharpCustom:
            if value == 1 { startF16Run(8, then: .epfWeightCustom) } else { next = .epfWeightCustom }
        case .epfWeightCustom:
            if value == 1 { startF16Run(5, then: .epfSigmaCustom) } else { next = .epfSigmaCustom }
        case .epfSigmaCustom:
            let after: Field = flags[.modular] ? .epfSigmaModular : .loopFilterExtensions
            if value == 1 { startF16Run(flags[.modular] ? 3 : 4, then: after) } else { next = after }
        case .epfSigmaModular:
            // At least 1e-8: above 0, since the smallest positive F16 is about 6e-8.
            guard value & 0x8000 == 0, value != 0 else { return Self.invalidFrame }
            next = .loopFilterExtensions
        case .loopFilterExtensions:
            return extensionsStart(value, then: .frameExtensions)
        case .frameExtensions:
            return extensionsStart(value, then: .tocStart)
        default:
            return tocField(value, options)
        }
        return nil
    }

    /// The TOC: one size per section, after an optional permutation; the frame's sections
    /// follow, and then the next frame.
    @usableFromInline
    mutating func tocField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .tocStart:
            // libjxl refuses subsampled chroma with adaptive DC smoothing in VarDCT frames.
            guard chromaShifts == 0 || flags[.skipAdaptiveDCSmoothing] || flags[.modular] else { return Self.invalidFrame }
            let entries = tocEntries()
            guard entries <= 65536 else { return .failed(.malformed(.jxl, JXLParser.Failure.moreThan65536TOCEntries)) }
            guard entries <= UInt64(options.entryLimit) else { return .failed(.limit(.jxl, JXLParser.Failure.moreTOCEntriesThanMaxEntries)) }
            count = UInt32(truncatingIfNeeded: entries)
            total = 0
            next = .tocPermutation
        case .tocPermutation:
            // The permutation is entropy coded, like an ICC profile.
            guard value == 0 else { return .failed(.unsupported(.jxl, JXLParser.Failure.permutedTOC)) }
            next = .tocAlign
        case .tocAlign:
            guard value == 0 else { return Self.nonZeroPadding }
            next = .tocEntry
        case .tocEntry:
            total &+= value  // at most 65,536 sizes below 2^31: no overflow
            count &-= 1
            if count == 0 { next = .tocEnd }
        default:  // .tocEnd
            guard value == 0 else { return Self.nonZeroPadding }
            skipBits = total &* 8  // below 2^50
            return startFrame(preview: false, options)
        }
        return nil
    }

    // MARK: - Transitions

    /// A regular or skip-progressive frame: the kinds that have blending and timing, and may
    /// be shown.
    @inlinable
    var isShowable: Bool { frameType == 0 || frameType == 3 }

    @inlinable
    mutating func afterColourTransform() {
        if flags[.yCbCr] && !flags[.useDCFrame] {
            inner = 3
            next = .chromaSubsampling
        } else {
            afterChroma()
        }
    }

    @inlinable
    mutating func afterChroma() {
        if flags[.useDCFrame] {
            afterUpsampling()
        } else {
            next = .upsampling
        }
    }

    @inlinable
    mutating func afterUpsampling() {
        if flags[.modular] {
            next = .groupSizeShift
        } else {
            afterGroupSizeShift()
        }
    }

    @inlinable
    mutating func afterGroupSizeShift() {
        // x_qm_scale and b_qm_scale, in VarDCT frames of an XYB image.
        if !flags[.modular] && flags[.xybEncoded] {
            next = .quantMatrixScales
        } else {
            afterQuantMatrixScales()
        }
    }

    @inlinable
    mutating func afterQuantMatrixScales() {
        if frameType != 2 {
            next = .passCount  // reference-only frames have no passes
        } else {
            afterPasses()
        }
    }

    @inlinable
    mutating func afterPasses() {
        next = frameType == 1 ? .dcLevel : .customSizeOrOrigin
    }

    @inlinable
    mutating func afterCrop() {
        if isShowable {
            count = UInt32(extraChannels)
            next = .blendMode
        } else {
            flags[.isLast] = false
            afterIsLast()
        }
    }

    /// The blending info's `source`, needed unless the mode is kReplace over the whole canvas;
    /// without it the blending info is complete (and a preview with a size of its own fails here).
    @inlinable
    mutating func blendSourceOrEnd() -> Progress? {
        guard scratch == 0 && !flags[.partialFrame] else {
            next = .blendSource
            return nil
        }
        return blendingDone()
    }

    /// A blending info is complete: the next extra channel's follows, or the animation fields.
    @inlinable
    mutating func blendingDone() -> Progress? {
        if count > 0 {
            count &-= 1
            flags[.channelBlending] = true
            next = .blendMode
            return nil
        }
        flags[.channelBlending] = false
        if flags[.previewFrame] && (flags[.blends] || flags[.customSize]) { return Self.invalidFrame }
        next = flags[.animated] ? .duration : .isLast
        return nil
    }

    /// `is_last` is known. A frame shown on its own becomes an event with the canvas area its
    /// layers covered; the last one ends the walk (its sections are not needed).
    @inlinable
    mutating func isLastDecoded() -> Progress? {
        guard isShowable && !flags[.previewFrame] else { return nil }
        cover()
        guard duration > 0 || flags[.isLast] else { return nil }
        let delay = Self.delay(ticks: duration, numerator: ticksNumerator, denominator: ticksDenominator)
        let covered = flags[.covered]
        event = PendingFrames(
            numerator: delay.numerator, denominator: delay.denominator, x: covered ? coverLeft : 0, y: covered ? coverTop : 0,
            width: covered ? coverRight &- coverLeft : 0, height: covered ? coverBottom &- coverTop : 0)
        flags[.covered] = false
        return flags[.isLast] ? .finished : nil
    }

    @inlinable
    mutating func afterIsLast() {
        if frameType != 1 && !flags[.isLast] {
            next = .saveAsReference
        } else {
            afterSaveAsReference()
        }
    }

    @inlinable
    mutating func afterSaveAsReference() {
        // libjxl's CanBeReferenced: not the last frame, and either a layer or saved.
        let canBeReferenced = !flags[.isLast] && frameType != 1 && (duration == 0 || saveAsReference != 0)
        if (canBeReferenced && blendMode == 0 && !flags[.partialFrame] && isShowable) || frameType == 2 {
            next = .saveBeforeColourTransform
        } else {
            next = .frameNameLength
        }
    }

    // MARK: - Geometry

    /// The size a frame has without a crop: the preview's, or the image's.
    @inlinable
    var defaultSize: (width: UInt32, height: UInt32) {
        flags[.previewFrame] ? (UInt32(previewWidth), UInt32(previewHeight)) : (width, height)
    }

    /// Adds the canvas area this layer covers (its crop, clipped to the canvas) to the area
    /// of the frame being composed.
    @inlinable
    mutating func cover() {
        var left: Int64 = 0
        var top: Int64 = 0
        var right = Int64(width)
        var bottom = Int64(height)
        if flags[.customSize] {
            left = max(0, Int64(originX))
            top = max(0, Int64(originY))
            right = min(right, Int64(originX) &+ Int64(frameWidth))
            bottom = min(bottom, Int64(originY) &+ Int64(frameHeight))
        }
        guard right > left && bottom > top else { return }
        // Each is within 0...width or 0...height, both below 2^32.
        let area = (UInt32(truncatingIfNeeded: left), UInt32(truncatingIfNeeded: top),
                    UInt32(truncatingIfNeeded: right), UInt32(truncatingIfNeeded: bottom))
        if flags[.covered] {
            coverLeft = min(coverLeft, area.0)
            coverTop = min(coverTop, area.1)
            coverRight = max(coverRight, area.2)
            coverBottom = max(coverBottom, area.3)
        } else {
            (coverLeft, coverTop, coverRight, coverBottom) = area
            flags[.covered] = true
        }
    }

    /// The number of TOC entries (libjxl `NumTocEntries` over `FrameDimensions::Set`): one
    /// when the frame is a single group in a single pass, otherwise the DC global section,
    /// the DC groups, the AC global section and the AC groups of every pass. At most about
    /// 2^52, in 64 bits.
    // `mutating` though it changes nothing: a computed property of the reader (172 bytes)
    // copies it first.
    @inlinable
    mutating func tocEntries() -> UInt64 {
        var (xsize, ysize) = (UInt64(defaultSize.width), UInt64(defaultSize.height))
        if flags[.customSize] { (xsize, ysize) = (UInt64(frameWidth), UInt64(frameHeight)) }
        // DC frames are 8^dc_level times smaller, and upsampled frames are coded smaller.
        let shift = 3 &* UInt64(dcLevel) &+ UInt64(upsamplingShift)
        xsize = Self.divideRoundingUp(xsize, 1 << shift)
        ysize = Self.divideRoundingUp(ysize, 1 << shift)
        let groupDimension: UInt64 = 128 << UInt64(groupSizeShift)
        let horizontal = UInt64(chromaShifts & 1)
        let vertical = UInt64(chromaShifts >> 1)
        let blocksX = Self.divideRoundingUp(xsize, 8 << horizontal) << horizontal
        let blocksY = Self.divideRoundingUp(ysize, 8 << vertical) << vertical
        let groups = Self.divideRoundingUp(xsize, groupDimension) &* Self.divideRoundingUp(ysize, groupDimension)
        let dcGroups = Self.divideRoundingUp(blocksX, groupDimension) &* Self.divideRoundingUp(blocksY, groupDimension)
        if groups == 1 && passes == 1 { return 1 }
        return 2 &+ dcGroups &+ groups &* UInt64(passes)
    }

    @inlinable
    static func divideRoundingUp(_ value: UInt64, _ divisor: UInt64) -> UInt64 {
        value / divisor &+ (value % divisor == 0 ? 0 : 1)
    }

    /// libjxl's `UnpackSigned`: even values are 0, 1, 2, ...; odd ones −1, −2, ...
    @inlinable
    static func unpackSigned(_ value: UInt64) -> Int32 {
        let packed = UInt32(truncatingIfNeeded: value)
        return Int32(bitPattern: (packed >> 1) ^ ((~packed & 1) &- 1))
    }

    /// An F16's value (libjxl `F16Coder::Read`; infinities and NaNs were refused on reading).
    @inlinable
    static func half(_ bits: UInt16) -> Float {
        let sign = UInt32(bits >> 15)
        let exponent = UInt32((bits >> 10) & 0x1F)
        let mantissa = UInt32(bits & 0x3FF)
        guard exponent != 0 else {
            let value = Float(mantissa) * (1 / 16384) * (1 / 1024)  // subnormal
            return sign != 0 ? -value : value
        }
        return Float(bitPattern: sign << 31 | (exponent &+ 112) << 23 | mantissa << 13)
    }

    // MARK: - Timing

    /// A frame's delay, `ticks` × `denominator` ÷ `numerator` seconds, as a fraction of 32-bit
    /// terms. Reduced when the numerator exceeds 32 bits; a delay still too long for that
    /// (above 2^32 seconds over the reduced tick rate) is approximated by halving both terms,
    /// and saturates at 2^32 − 1 seconds.
    @inlinable
    static func delay(ticks: UInt32, numerator: UInt32, denominator: UInt32) -> (numerator: UInt32, denominator: UInt32) {
        var top = UInt64(ticks) &* UInt64(denominator)  // below 2^42
        var bottom = UInt64(max(numerator, 1))
        if top > UInt64(UInt32.max) {
            // Euclid's algorithm: at most about 90 rounds for 64-bit terms.
            var (a, b) = (top, bottom)
            while b != 0 { (a, b) = (b, a % b) }
            top /= a
            bottom /= a
            while top > UInt64(UInt32.max) && bottom > 1 {
                top >>= 1
                bottom >>= 1
            }
        }
        return (UInt32(clamping: top), UInt32(truncatingIfNeeded: bottom))
    }

    /// Takes the shown frame just read, if any, as animation mode's event.
    @inlinable
    mutating func takeFrame() -> PendingFrames? { event.take() }

    @usableFromInline
    static var invalidFrame: Progress { .failed(.malformed(.jxl, JXLParser.Failure.invalidFrameHeader)) }
}
#endif
