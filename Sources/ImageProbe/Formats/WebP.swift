#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_WEBP)
/// WebP (RFC 9649): a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or
/// VP8X (extended, with the canvas size and feature flags).
///
/// The simple formats carry no metadata and are still images. In full mode an extended file
/// whose VP8X flags announce an animation is walked chunk by chunk (payloads skipped by
/// length) to `ANIM` for the loop count, and one that announces EXIF on to the `EXIF` chunk,
/// which the specification places after the image data. Animation mode walks every chunk and
/// reports each `ANMF` as a frame.
struct WebPParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// "FF" (after the sniffed "RI"), RIFF size, "WEBP", first chunk type and size.
        case riffHeader
        /// VP8 frame tag, start code, width and height (10 bytes).
        case lossy
        /// VP8L signature byte and the packed 32-bit size (5 bytes).
        case lossless
        /// VP8X flags, reserved bytes and canvas size (10 bytes); the chunk is `chunkSize` long.
        case extended
        /// A chunk's type and size.
        case chunkHeader
        /// `ANIM`: background colour and loop count (6 bytes).
        case animationParameters
        /// An `ANMF` frame's 16-byte header (animation mode).
        case frameHeader
        /// The `EXIF` chunk's payload, read by `exif`.
        case exif
    }

    var exif = ExifReader()
    var facts = ImageFacts(format: .webp)
    var extras = ExtraFacts()
    /// Animation mode: the frame whose `ANMF` header was just read.
    var pending = PendingFrames()
    var phase: Phase = .riffHeader
    var chunkSize: UInt32 = 0
    /// The walk goes on for the `EXIF` chunk (full mode, the VP8X EXIF flag).
    var wantsExif = false
    /// The walk goes on through every chunk (animation mode, the VP8X animation flag).
    var walksFrames = false

    static var emitsFrames: Bool { true }

    mutating func takeFrame() -> PendingFrames? { pending.take() }

    var sizeKnown = false
    /// Absolute offset where the RIFF payload ends, as its header declares.
    var riffEnd: UInt64 = 0
    var chunks = 0

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(18) }

    static let vp8: UInt32 = 0x5650_3820  // "VP8 "
    static let vp8l: UInt32 = 0x5650_384C  // "VP8L"
    static let vp8x: UInt32 = 0x5650_3858  // "VP8X"
    static let exif: UInt32 = 0x4558_4946  // "EXIF"
    static let anim: UInt32 = 0x414E_494D  // "ANIM"
    static let anmf: UInt32 = 0x414E_4D46  // "ANMF"

    init() {}

    var format: ImageFormat? { .webp }

    func infoAtEndOfInput() -> ImageInfo? { sizeKnown ? info : nil }

    var info: ImageInfo { ImageInfo(facts, extras) }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        // Every phase that walks on to the next chunk header ends in the one `nextChunk` below:
        // the skip starts at `position` and is `padding` long. After the `EXIF` chunk, it
        // starts at `exifStop`, where the reading of its payload stopped.
        var position: UInt64 = 0, padding: UInt64 = 0
        var exifStop: UInt64? = nil
        switch phase {
        case .riffHeader:
            guard field.be16(0) == 0x4646 else { return .failed(ScanFailure(.unknownFormat, Failure.notARIFFFile)) }  // "FF"
            guard field.tag(6) == 0x5745_4250 else {  // "WEBP"
                return .failed(ScanFailure(.unknownFormat, Failure.riffFileIsNotWebP))
            }
            riffEnd = 8 &+ UInt64(field.le32(2))
            // The RIFF payload and its first chunk must lie inside a known input.
            guard !options.runsPastInput(max(riffEnd, 20 &+ UInt64(field.le32(14)))) else {
                return .failed(.malformed(.webp, .boxOrChunkRunsPastTheEndOfTheInput))
            }
            switch field.tag(10) {
            case Self.vp8:
                phase = .lossy
                return .read(10)
            case Self.vp8l:
                phase = .lossless
                return .read(5)
            case Self.vp8x:
                phase = .extended
                chunkSize = field.le32(14)
                return .read(10)
            default:
                return .failed(.malformed(.webp, Failure.firstChunkIsNotVP8VP8LOrVP8X))
            }
        case .lossy:
            guard field.u8(0) & 0x01 == 0 else { return .failed(.malformed(.webp, Failure.vp8DataIsNotAKeyFrame)) }
            guard field.u8(3) == 0x9D && field.u8(4) == 0x01 && field.u8(5) == 0x2A else {
                return .failed(.malformed(.webp, Failure.vp8StartCodeMissing))
            }
            // 14 bits of size; the top two bits are an upscaling hint.
            let width = field.le16(6) & 0x3FFF
            let height = field.le16(8) & 0x3FFF
            guard width != 0 && height != 0 else { return .failed(.malformed(.webp, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.webp)) }
            facts.width = Int(width)
            facts.height = Int(height)
            facts.hasAlpha = false
            facts.isAnimated = false
            // Only VP8X can announce an ICCP chunk.
            if !options.dimensionsOnly { extras.hasICCProfile = false }
            return .done
        case .lossless:
            guard field.u8(0) == 0x2F else { return .failed(.malformed(.webp, Failure.vp8lSignatureMissing)) }
            let bits = field.le32(1)
            guard bits >> 29 == 0 else { return .failed(.unsupported(.webp, Failure.unknownVP8LVersion)) }
            let width = UInt64(bits & 0x3FFF) + 1
            let height = UInt64((bits >> 14) & 0x3FFF) + 1
            guard options.admits(width: width, height: height) else { return .failed(.tooLarge(.webp)) }
            facts.storedWidth = UInt32(truncatingIfNeeded: width)  // admitted
            facts.storedHeight = UInt32(truncatingIfNeeded: height)
            facts.hasAlpha = (bits >> 28) & 1 == 1
            facts.isAnimated = false
            if !options.dimensionsOnly { extras.hasICCProfile = false }
            return .done
        case .extended:
            let flags = field.u8(0)
            let width = UInt64(field.le24(4)) + 1
            let height = UInt64(field.le24(7)) + 1
            guard options.admits(width: width, height: height) else { return .failed(.tooLarge(.webp)) }
            facts.storedWidth = UInt32(truncatingIfNeeded: width)  // admitted
            facts.storedHeight = UInt32(truncatingIfNeeded: height)
            facts.hasAlpha = flags & 0x10 != 0
            let animated = flags & 0x02 != 0
            facts.isAnimated = animated
            sizeKnown = true
            if options.dimensionsOnly { return .done }
            // The ICC flag says an ICCP chunk follows VP8X (RFC 9649 §2.7).
            extras.hasICCProfile = flags & 0x20 != 0
            wantsExif = flags & 0x08 != 0
            walksFrames = animated && options.animation
            // Full mode reads an animation's loop count from ANIM, which comes before the frames.
            if !wantsExif && !animated { return .done }
            guard chunkSize >= 10 else { return .failed(.malformed(.webp, Failure.vp8xChunkTooShort)) }
            (position, padding) = (offset &+ 10, Self.padded(chunkSize) &- 10)
        case .chunkHeader:
            let size = field.le32(4)
            chunks &+= 1
            guard chunks <= options.maxEntries else { return .failed(.limit(.webp, .moreChunksThanMaxEntries)) }
            let payloadStart = offset &+ 8
            guard !options.runsPastInput(payloadStart &+ UInt64(size)) else {
                return .failed(.malformed(.webp, .boxOrChunkRunsPastTheEndOfTheInput))
            }
            switch field.tag(0) {
            case Self.exif where wantsExif:
                exif = ExifReader(start: payloadStart, end: payloadStart &+ UInt64(size), requiresIdentifier: false)
                guard let step = exif.firstStep else {
                    exifStop = payloadStart
                    break
                }
                phase = .exif
                return step
            case Self.anim where size >= 6 && facts.loopCount == nil:
                chunkSize = size
                phase = .animationParameters
                return .read(6)
            case Self.anmf where walksFrames && size >= 16:
                chunkSize = size
                phase = .frameHeader
                return .read(16)
            case let type:
                // ANIM comes before the frames: past it, full mode has nothing left to find.
                let imageData = type == Self.anmf || type == Self.vp8 || type == Self.vp8l
                if imageData && !wantsExif && !walksFrames { return .done }
                (position, padding) = (payloadStart, Self.padded(size))
            }
        case .animationParameters:
            facts.loopCount = Int(field.le16(4))
            // Full mode came for the loop count (and perhaps EXIF, at the end).
            if !wantsExif && !walksFrames { return .done }
            (position, padding) = (offset &+ 6, Self.padded(chunkSize) &- 6)
        case .frameHeader:
            // X and Y are stored halved; width and height minus one; the duration in ms.
            pending = PendingFrames(
                numerator: field.le24(12), denominator: 1000, x: field.le24(0) &* 2, y: field.le24(3) &* 2,
                width: field.le24(6) &+ 1, height: field.le24(9) &+ 1)
            (position, padding) = (offset &+ 16, Self.padded(chunkSize) &- 16)
        case .exif:
            switch exif.parse(field, at: offset, options: options) {
            case .step(let step):
                return step
            case .finished:
                facts.orientation = exif.orientation
                // WebP states no resolution of its own: the EXIF chunk's is the file's.
                extras.takeResolution(of: exif.facts)
                exifStop = offset &+ field.span
            }
        }
        if let from = exifStop {
            // After the `EXIF` chunk: the answer, unless animation mode walks on through the
            // frames.
            wantsExif = false
            guard walksFrames else { return .done }
            let next = exif.start &+ Self.padded(UInt32(truncatingIfNeeded: exif.end &- exif.start))
            (position, padding) = (from, next > from ? next &- from : 0)
        }
        phase = .chunkHeader
        return nextChunk(after: position, padding: padding)
    }

    /// Chunk payloads are padded to an even length.
    static func padded(_ size: UInt32) -> UInt64 { UInt64(size) &+ UInt64(size & 1) }

    /// Skips `padding` bytes after `position` to the next chunk header, unless the RIFF
    /// payload ends first: then no EXIF chunk follows.
    mutating func nextChunk(after position: UInt64, padding: UInt64) -> Step {
        let next = position &+ padding
        if riffEnd > 20 && (next >= riffEnd || riffEnd &- next < 8) { return .done }
        return padding == 0 ? .read(8) : .skipThenRead(padding, 8)
    }
}

extension WebPParser {
    /// Why WebP input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case notARIFFFile
        case riffFileIsNotWebP
        case firstChunkIsNotVP8VP8LOrVP8X
        case vp8DataIsNotAKeyFrame
        case vp8StartCodeMissing
        case vp8lSignatureMissing
        case vp8xChunkTooShort
        case unknownVP8LVersion

        static var owner: UInt8 { WebPParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .notARIFFFile: "not a RIFF file"
            case .riffFileIsNotWebP: "RIFF file is not WebP"
            case .firstChunkIsNotVP8VP8LOrVP8X: "first chunk is not VP8, VP8L or VP8X"
            case .vp8DataIsNotAKeyFrame: "VP8 data is not a key frame"
            case .vp8StartCodeMissing: "VP8 start code missing"
            case .vp8lSignatureMissing: "VP8L signature missing"
            case .vp8xChunkTooShort: "VP8X chunk too short"
            case .unknownVP8LVersion: "unknown VP8L version"
            }
        }
    }
}
#endif
