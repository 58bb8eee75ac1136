#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNG)
/// PNG (ISO/IEC 15948, W3C PNG Third Edition), APNG, and Apple's CgBI variant.
///
/// The size is in IHDR, the first chunk (the second after CgBI). In full mode the scanner
/// then walks the chunk headers, skipping payloads by length, to find `acTL` (animation),
/// `tRNS` (alpha) and `eXIf` (orientation). PNG 1.2's extension allowed `eXIf` after the
/// image data, and ImageMagick writes it there, so the walk goes on to IEND (see SPEC.md),
/// except over HTTP, where it stops at the image data as browsers do.
/// An `eXIf` before the image data ends the walk only at IDAT: `acTL` and `tRNS` may still
/// follow it (Pillow writes `eXIf` before `acTL`). On the way full mode notes the colour and
/// resolution chunks, which precede the image data: `iCCP` (an ICC profile), `cICP` (CICP),
/// `pHYs` (pixels per metre) and IHDR's interlace method (Adam7).
struct PNGParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Signature bytes 2...7, the first chunk's length and type, and 8 data bytes.
        case signature
        /// After a CgBI chunk: IHDR's length and type, width and height.
        case appleHeader
        /// IHDR's last five bytes: depth, colour type, compression, filter, interlace.
        case headerTail
        /// A chunk's length and type.
        case chunkHeader
        /// The eight bytes of `acTL`.
        case animationControl
        /// The first 26 bytes of an `fcTL` (animation mode).
        case frameControl
        /// The `eXIf` payload, read by `exif`.
        case exif
        /// `pHYs`: pixels per unit, x and y, and the unit (1: the metre).
        case physicalSize
        /// `cICP`: colour primaries, transfer function, matrix coefficients, full range.
        case colourCodes
    }

    var exif = ExifReader()
    var facts = ImageFacts(format: .png)
    var extras = ExtraFacts()
    /// Animation mode: the frame whose `fcTL` was just read.
    var pending = PendingFrames()
    var phase: Phase = .signature
    /// An `acTL` came before the image data: an APNG.
    var isAPNG = false

    static var emitsFrames: Bool { true }

    mutating func takeFrame() -> PendingFrames? { pending.take() }

    var sizeKnown = false
    var sawImageData = false
    /// The one `eXIf` allowed was read: the orientation is settled.
    var exifRead = false
    var chunks = 0
    /// The length of the `fcTL` being read.
    var frameControlLength: UInt32 = 0

    /// After the two signature bytes the sniffer consumed.
    @inline(__always)
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(22) }

    @inline(__always)
    init() {}

    var format: ImageFormat? { .png }

    func infoAtEndOfInput() -> ImageInfo? { sizeKnown ? info : nil }

    var info: ImageInfo { ImageInfo(facts, extras) }

    static let ihdr: UInt32 = 0x4948_4452  // "IHDR"
    static let cgbi: UInt32 = 0x4367_4249  // "CgBI"
    static let idat: UInt32 = 0x4944_4154  // "IDAT"
    static let iend: UInt32 = 0x4945_4E44  // "IEND"
    static let actl: UInt32 = 0x6163_544C  // "acTL"
    static let trns: UInt32 = 0x7452_4E53  // "tRNS"
    static let exif: UInt32 = 0x6558_4966  // "eXIf"
    static let fctl: UInt32 = 0x6663_544C  // "fcTL"
    static let iccp: UInt32 = 0x6943_4350  // "iCCP"
    static let cicp: UInt32 = 0x6349_4350  // "cICP"
    static let phys: UInt32 = 0x7048_5973  // "pHYs"

    @inline(__always)  // into the field loop, its one caller
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .signature:
            // Bytes 2...7 of "\x89PNG\r\n\x1a\n".
            // Bytes 2...7 of "\x89PNG\r\n\x1a\n": "NG\r\n" and "\x1a\n".
            guard field.be32(0) == 0x4E47_0D0A && field.be16(4) == 0x1A0A else {
                return .failed(ScanFailure(.unknownFormat, Failure.pngSignatureDamaged))
            }
            let length = field.be32(6)
            switch field.tag(10) {
            case Self.ihdr:
                return header(length: length, width: field.be32(14), height: field.be32(18), options: options)
            case Self.cgbi:
                // CgBI's payload is 4 bytes; this field ends after it and its CRC.
                guard length >= 4 && length <= 0x7FFF_FFFF else {
                    return .failed(.malformed(.png, Failure.badCgBIChunkLength))
                }
                phase = .appleHeader
                return length == 4 ? .read(16) : .skipThenRead(UInt64(length &- 4), 16)
            default:
                return .failed(.malformed(.png, Failure.firstChunkIsNotIHDR))
            }
        case .appleHeader:
            guard field.tag(4) == Self.ihdr else {
                return .failed(.malformed(.png, Failure.cgBIIsNotFollowedByIHDR))
            }
            return header(length: field.be32(0), width: field.be32(8), height: field.be32(12), options: options)
        case .headerTail:
            let depth = field.u8(0)
            let colourType = field.u8(1)
            facts.bitDepth = Int(depth)
            // Colour types 4 and 6 carry alpha; a tRNS chunk may add it to the others.
            facts.hasAlpha = colourType == 4 || colourType == 6
            facts.isProgressive = field.u8(4) == 1
            extras.isInterlaced = field.u8(4) == 1
            phase = .chunkHeader
            return .skipThenRead(4, 8)  // IHDR's CRC, then the next chunk header
        case .chunkHeader:
            return chunk(length: field.be32(0), type: field.tag(4), at: offset, options: options)
        case .animationControl:
            let frames = field.be32(0)
            // One frame is a still image (Skia, Blink: animated means more than one).
            isAPNG = true
            facts.isAnimated = frames > 1
            facts.storedFrameCount = frames
            facts.storedLoopCount = field.be32(4)  // num_plays
            phase = .chunkHeader
            return .skipThenRead(4, 8)
        case .frameControl:
            // sequence, width, height, x, y, delay_num, delay_den (0 means 100), dispose, blend.
            let denominator = field.be16(22)
            pending = PendingFrames(
                numerator: UInt32(field.be16(20)), denominator: denominator == 0 ? 100 : UInt32(denominator),
                x: field.be32(12), y: field.be32(16), width: field.be32(4), height: field.be32(8))
            phase = .chunkHeader
            return .skipThenRead(UInt64(frameControlLength) &- 26 &+ 4, 8)
        case .physicalSize:
            // Unit 1 is the metre; 0 states only the aspect ratio (PNG §11.3.5.3).
            if field.u8(8) == 1 { extras.setResolution(x: field.be32(0), y: field.be32(4), perMicrometres: 1_000_000) }
            phase = .chunkHeader
            return .skipThenRead(4, 8)
        case .colourCodes:
            extras.cicp = CICP(
                colourPrimaries: field.u8(0), transferCharacteristics: field.u8(1), matrixCoefficients: field.u8(2),
                isFullRange: field.u8(3) == 1)
            phase = .chunkHeader
            return .skipThenRead(4, 8)
        case .exif:
            switch exif.parse(field, at: offset, options: options) {
            case .step(let step):
                return step
            case .finished:
                facts.orientation = exif.orientation
                // pHYs is PNG's own resolution; eXIf's counts only without it.
                let exifFacts = exif.facts
                if extras.dpiX == 0 && exifFacts.dpiX != 0 { extras.takeResolution(of: exifFacts) }
                return afterExif(from: offset &+ field.span, to: exif.end, options: options)
            }
        }
    }

    mutating func header(length: UInt32, width: UInt32, height: UInt32, options: ScanOptions) -> Step {
        guard length == 13 else { return .failed(.malformed(.png, Failure.ihdrLengthIsNot13)) }
        guard width != 0 && height != 0 && width <= 0x7FFF_FFFF && height <= 0x7FFF_FFFF else {
            return .failed(.malformed(.png, Failure.ihdrSizeOutOfRange))
        }
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.png)) }
        facts.storedWidth = width
        facts.storedHeight = height
        sizeKnown = true
        if options.dimensionsOnly { return .done }
        phase = .headerTail
        return .read(5)
    }

    mutating func chunk(length: UInt32, type: UInt32, at offset: UInt64, options: ScanOptions) -> Step {
        guard length <= 0x7FFF_FFFF else { return .failed(.malformed(.png, Failure.chunkLengthOver2To31)) }
        chunks &+= 1
        guard chunks <= options.maxEntries else { return .failed(.limit(.png, .moreChunksThanMaxEntries)) }
        let payloadAndCRC = UInt64(length) &+ 4
        switch type {
        case Self.iend:
            return .done
        case Self.idat:
            // Without acTL before it, the file is a still image; iCCP comes before the image
            // data or not at all.
            if !isAPNG { facts.isAnimated = false }
            if extras.hasICCProfile == nil { extras.hasICCProfile = false }
            // Nothing full mode reads comes after the image data but an eXIf, and that only
            // where wanted; animation mode goes on to count an APNG's frames.
            let exifMayFollow = !exifRead && (options.metadataAfterImageData || options.animation)
            if !exifMayFollow && !(isAPNG && options.animation) { return .done }
            sawImageData = true
        case Self.actl where !sawImageData && length == 8:
            phase = .animationControl
            return .read(8)
        case Self.fctl where isAPNG && options.animation && length >= 26:
            frameControlLength = length
            phase = .frameControl
            return .read(26)
        case Self.trns where !sawImageData:
            facts.hasAlpha = true
        case Self.iccp where !sawImageData:
            extras.hasICCProfile = true
        case Self.phys where !sawImageData && length == 9:
            phase = .physicalSize
            return .read(9)
        case Self.cicp where !sawImageData && length == 4:
            phase = .colourCodes
            return .read(4)
        case Self.exif where !exifRead:
            let start = offset &+ 8
            exif = ExifReader(start: start, end: start &+ UInt64(length), requiresIdentifier: false)
            // At most one eXIf is allowed: whatever it holds settles the orientation.
            guard let step = exif.firstStep else { return afterExif(from: start, to: exif.end, options: options) }
            phase = .exif
            return step
        default:
            break
        }
        phase = .chunkHeader
        return .skipThenRead(payloadAndCRC, 8)
    }

    /// After the `eXIf` payload, read up to `position`, that ends at `payloadEnd`: after the
    /// image data that is the answer; before it, the walk goes on to IDAT for `acTL`/`tRNS`.
    mutating func afterExif(from position: UInt64, to payloadEnd: UInt64, options: ScanOptions) -> Step {
        exifRead = true
        if sawImageData && !(isAPNG && options.animation) { return .done }
        phase = .chunkHeader
        let rest = payloadEnd > position ? payloadEnd &- position : 0
        return .skipThenRead(rest &+ 4, 8)  // the payload's rest and the CRC
    }
}

extension PNGParser {
    /// Why PNG input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case pngSignatureDamaged
        case badCgBIChunkLength
        case firstChunkIsNotIHDR
        case cgBIIsNotFollowedByIHDR
        case ihdrLengthIsNot13
        case ihdrSizeOutOfRange
        case chunkLengthOver2To31

        static var owner: UInt8 { PNGParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .pngSignatureDamaged: "PNG signature damaged"
            case .badCgBIChunkLength: "bad CgBI chunk length"
            case .firstChunkIsNotIHDR: "first chunk is not IHDR"
            case .cgBIIsNotFollowedByIHDR: "CgBI is not followed by IHDR"
            case .ihdrLengthIsNot13: "IHDR length is not 13"
            case .ihdrSizeOutOfRange: "IHDR size out of range"
            case .chunkLengthOver2To31: "chunk length over 2^31-1"
            }
        }
    }
}
#endif
