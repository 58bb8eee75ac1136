#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
// Animation mode's walk over the frames (ISO/IEC 18181-1 §C; libjxl `frame_header.cc`,
// `loop_filter.cc`, `toc.cc`, `frame_dimensions.h`, `dec_frame.cc`): each FrameHeader is read
// whole, then its TOC, and the frame's sections are skipped by the sum of the TOC's sizes to
// the next frame header. Their fields are decoded in `headerField` (`JXLMetadata.swift`); here
// are the transitions between them, the frame's geometry and its timing.
//
// Which frames count is libjxl's rule for the frames a decoder shows (`dec_frame.cc`, the
// `visible_frame_index`; the frames `JXL_DEC_FRAME` reports with coalescing on, as browsers
// decode): a regular or skip-progressive frame, not the preview, whose `duration` is not 0 or
// which is the last. A frame of duration 0 that is not the last is a layer blended into the
// next shown frame, and reference-only and DC frames are never shown.

extension JXLHeaderReader {
    /// A frame header starts: the preview's (`preview`), or the next frame's.
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

    // MARK: - Transitions

    /// A regular or skip-progressive frame: the kinds that have blending and timing, and may
    /// be shown.
    var isShowable: Bool { frameType == 0 || frameType == 3 }

    mutating func afterColourTransform() {
        if flags[.yCbCr] && !flags[.useDCFrame] {
            inner = 3
            next = .chromaSubsampling
        } else {
            afterChroma()
        }
    }

    mutating func afterChroma() {
        if flags[.useDCFrame] {
            afterUpsampling()
        } else {
            next = .upsampling
        }
    }

    mutating func afterUpsampling() {
        if flags[.modular] {
            next = .groupSizeShift
        } else {
            afterGroupSizeShift()
        }
    }

    mutating func afterGroupSizeShift() {
        // x_qm_scale and b_qm_scale, in VarDCT frames of an XYB image.
        if !flags[.modular] && flags[.xybEncoded] {
            next = .quantMatrixScales
        } else {
            afterQuantMatrixScales()
        }
    }

    mutating func afterQuantMatrixScales() {
        if frameType != 2 {
            next = .passCount  // reference-only frames have no passes
        } else {
            afterPasses()
        }
    }

    mutating func afterPasses() {
        next = frameType == 1 ? .dcLevel : .customSizeOrOrigin
    }

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
    mutating func blendSourceOrEnd() -> Progress? {
        if scratch != 0 || flags[.partialFrame] {
            next = .blendSource
            return nil
        }
        return blendingDone()
    }

    /// A blending info is complete: the next extra channel's follows, or the animation fields.
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
    mutating func isLastDecoded() -> Progress? {
        guard isShowable && !flags[.previewFrame] else { return nil }
        cover()
        guard duration > 0 || flags[.isLast] else { return nil }
        let delay = Self.delay(ticks: duration, numerator: ticksNumerator, denominator: ticksDenominator)
        // Nothing covered: all 0.
        event = PendingFrames(
            numerator: delay.numerator, denominator: delay.denominator, x: coverLeft, y: coverTop,
            width: coverRight &- coverLeft, height: coverBottom &- coverTop)
        (coverLeft, coverTop, coverRight, coverBottom) = (0, 0, 0, 0)
        return flags[.isLast] ? .finished : nil
    }

    mutating func afterIsLast() {
        if frameType != 1 && !flags[.isLast] {
            next = .saveAsReference
        } else {
            afterSaveAsReference()
        }
    }

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
    var defaultSize: (width: UInt32, height: UInt32) {
        flags[.previewFrame] ? (UInt32(previewWidth), UInt32(previewHeight)) : (width, height)
    }

    /// Adds the canvas area this layer covers (its crop, clipped to the canvas) to the area
    /// of the frame being composed.
    mutating func cover() {
        var left: UInt32 = 0
        var top: UInt32 = 0
        var right = width
        var bottom = height
        if flags[.customSize] {
            // The crop's far edges fit in 32 bits: an origin of at most 2^29 + 9344 either
            // way (a packed U32 below 2^30 + 18688) and a size of at most 2^30 + 18687.
            let farX = originX &+ Int32(truncatingIfNeeded: frameWidth)
            let farY = originY &+ Int32(truncatingIfNeeded: frameHeight)
            left = UInt32(truncatingIfNeeded: max(0, originX))
            top = UInt32(truncatingIfNeeded: max(0, originY))
            right = min(right, UInt32(truncatingIfNeeded: max(0, farX)))
            bottom = min(bottom, UInt32(truncatingIfNeeded: max(0, farY)))
        }
        guard right > left && bottom > top else { return }
        if coverRight != 0 {
            coverLeft = min(coverLeft, left)
            coverTop = min(coverTop, top)
            coverRight = max(coverRight, right)
            coverBottom = max(coverBottom, bottom)
        } else {
            (coverLeft, coverTop, coverRight, coverBottom) = (left, top, right, bottom)
        }
    }

    /// The number of TOC entries (libjxl `NumTocEntries` over `FrameDimensions::Set`): one
    /// when the frame is a single group in a single pass, otherwise the DC global section,
    /// the DC groups, the AC global section and the AC groups of every pass. At most about
    /// 2^52, in 64 bits. Every divisor is a power of two: the divisions are shifts.
    // `mutating` though it changes nothing: a computed property of the reader copies it
    // first.
    mutating func tocEntries() -> UInt64 {
        var (xsize, ysize) = (UInt64(defaultSize.width), UInt64(defaultSize.height))
        if flags[.customSize] { (xsize, ysize) = (UInt64(frameWidth), UInt64(frameHeight)) }
        // DC frames are 8^dc_level times smaller, and upsampled frames are coded smaller.
        let shift = 3 &* UInt64(dcLevel) &+ UInt64(upsamplingShift)
        xsize = Self.shiftRoundingUp(xsize, shift)
        ysize = Self.shiftRoundingUp(ysize, shift)
        // Groups of 128 << group_size_shift pixels, blocks of 8 (times the chroma shift).
        let groupShift = 7 &+ UInt64(groupSizeShift)
        let horizontal = UInt64(chromaShifts & 1)
        let vertical = UInt64(chromaShifts >> 1)
        let blocksX = Self.shiftRoundingUp(xsize, 3 &+ horizontal) &<< horizontal
        let blocksY = Self.shiftRoundingUp(ysize, 3 &+ vertical) &<< vertical
        let groups = Self.shiftRoundingUp(xsize, groupShift) &* Self.shiftRoundingUp(ysize, groupShift)
        let dcGroups = Self.shiftRoundingUp(blocksX, groupShift) &* Self.shiftRoundingUp(blocksY, groupShift)
        if groups == 1 && passes == 1 { return 1 }
        return 2 &+ dcGroups &+ groups &* UInt64(passes)
    }

    /// ⌈`value` ÷ 2^`shift`⌉, for a value below 2^32 and a shift below 32.
    static func shiftRoundingUp(_ value: UInt64, _ shift: UInt64) -> UInt64 {
        (value &+ (1 &<< shift) &- 1) &>> shift
    }

    /// libjxl's `UnpackSigned`: even values are 0, 1, 2, ...; odd ones −1, −2, ...
    static func unpackSigned(_ value: UInt64) -> Int32 {
        let packed = UInt32(truncatingIfNeeded: value)
        return Int32(bitPattern: (packed >> 1) ^ ((~packed & 1) &- 1))
    }

    /// An F16's value (libjxl `F16Coder::Read`; infinities and NaNs were refused on reading).
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
    mutating func takeFrame() -> PendingFrames? { event.take() }

    static var invalidFrame: Progress { .failed(.malformed(.jxl, JXLParser.Failure.invalidFrameHeader)) }
}
#endif
