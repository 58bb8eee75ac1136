#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG2000)
/// JPEG 2000 (ISO/IEC 15444-1): a raw codestream (`FF 4F`, then the SIZ marker segment), or
/// a JP2/JPX file, whose boxes hold the size in the `ihdr` box inside the `jp2h` superbox.
///
/// The raw codestream's size is the reference grid minus its offset: Xsiz − XOsiz by
/// Ysiz − YOsiz. A boxed file is walked from the signature and `ftyp` boxes, skipping other
/// boxes by their size, to `jp2h` and then to `ihdr` (HEIGHT, WIDTH, NC, BPC). JPEG 2000
/// carries no orientation.
struct JPEG2000Parser: FormatParser, Sendable {

    enum Phase: UInt8, Sendable {
        /// The SIZ marker, Lsiz, Rsiz, Xsiz, Ysiz, XOsiz and YOsiz (22 bytes), after SOC; or
        /// SOC and those (24 bytes) at the start of a `jp2c` box (`withStartMarker`).
        case imageSize
        /// XTsiz, YTsiz, XTOsiz, YTOsiz, Csiz and the first component's Ssiz (19 bytes); Lsiz
        /// is in `segmentLength`.
        case tilesAndFirstComponent
        /// The signature box's payload `0D 0A 87 0A`, then the `ftyp` box's size, type and
        /// brand (16 bytes).
        case signatureAndFileType
        /// A box's 32-bit size and type, at the top level or inside `jp2h`.
        case boxHeader
        /// A box's 64-bit size, right after its header (a 32-bit size of 1 and the type, in
        /// `largeType`).
        case largeSize
        /// `ihdr`'s HEIGHT and WIDTH (8 bytes).
        case imageHeader
        /// `ihdr`'s NC and BPC (3 bytes), in full mode.
        case componentsAndDepth
    }

    /// A plain enum, its data in the fields below it (a payload per case would cost an enum
    /// copy per field).
    var phase: Phase
    var withStartMarker = false
    var segmentLength: UInt16 = 0
    var largeType: UInt32 = 0
    var facts: ImageFacts

    var sizeKnown = false
    /// The size of the file's first box, as the sniffer read it (it must be 12).
    var signatureBoxSize: UInt32 = 12
    /// Whether the walk is inside the `jp2h` superbox, and where that ends (nil: at the end
    /// of the file).
    var inHeaderBox = false
    var headerBoxEnd: UInt64? = nil
    /// Boxes read, which `maxEntries` bounds.
    var boxes: UInt32 = 0

    static let headerBox: UInt32 = 0x6A70_3268  // "jp2h"
    static let imageHeaderBox: UInt32 = 0x6968_6472  // "ihdr"
    static let codestreamBox: UInt32 = 0x6A70_3263  // "jp2c"
    static let motionBrand: UInt32 = 0x6D6A_7032  // "mjp2"
    static let compoundBrand: UInt32 = 0x6A70_6D20  // "jpm "

    /// A raw codestream: the sniffer consumed SOC (`FF 4F`).
    @inline(__always)
    init(codestream: ()) {
        phase = .imageSize
        facts = ImageFacts(format: .j2k, width: 0, height: 0)
    }

    /// A JP2 family file: the sniffer consumed the first box's size and type `jP  `.
    @inline(__always)
    init(signatureBoxSize: UInt32) {
        phase = .signatureAndFileType
        facts = ImageFacts(format: .jp2, width: 0, height: 0)
        self.signatureBoxSize = signatureBoxSize
    }

    /// A boxed file (its signature box), or a raw codestream (its signature `FF 4F`).
    @inline(__always)
    init(sniffed: Sniffed) {
        if case .box(let size) = sniffed {
            self.init(signatureBoxSize: size)
        } else {
            self.init(codestream: ())
        }
    }

    var firstStep: Step {
        switch phase {
        case .signatureAndFileType: .read(16)
        case .imageSize, .tilesAndFirstComponent, .boxHeader, .largeSize, .imageHeader, .componentsAndDepth: .read(22)
        }
    }

    func infoAtEndOfInput() -> ImageInfo? { sizeKnown ? info : nil }

    @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .imageSize:
            let base = withStartMarker ? 2 : 0
            if withStartMarker && field.be16(0) != 0xFF4F {
                return .failed(.malformed(facts.format, Failure.jp2cBoxDoesNotStartWithSOC))
            }
            guard field.be16(base) == 0xFF51 else { return .failed(.malformed(facts.format, Failure.sizDoesNotFollowSOC)) }
            // 38 bytes of fixed fields, then 3 per component, at least one.
            let segmentLength = field.be16(base + 2)
            guard segmentLength >= 41 else { return .failed(.malformed(facts.format, Failure.sizSegmentTooShort)) }
            let gridWidth = field.be32(base + 6)
            let gridHeight = field.be32(base + 10)
            let imageX = field.be32(base + 14)
            let imageY = field.be32(base + 18)
            guard imageX < gridWidth && imageY < gridHeight else {
                return .failed(.malformed(facts.format, Failure.imageOffsetNotBelowTheGridSize))
            }
            if let failure = setSize(width: gridWidth &- imageX, height: gridHeight &- imageY, options) {
                return .failed(failure)
            }
            if options.dimensionsOnly { return .done }
            self.segmentLength = segmentLength
            phase = .tilesAndFirstComponent
            return .read(19)
        case .tilesAndFirstComponent:
            let components = field.be16(16)
            guard components >= 1 && UInt32(segmentLength) == 38 + 3 * UInt32(components) else {
                return .failed(.malformed(facts.format, Failure.sizLengthDoesNotMatchItsComponentCount))
            }
            // Ssiz: bit depth minus 1 in the low 7 bits; the top bit marks signed samples.
            facts.bitDepth = Int(field.u8(18) & 0x7F) + 1
            return .done
        case .signatureAndFileType:
            switch JPEG2000Box.fileStart(field, signatureBoxSize: signatureBoxSize, format: .jp2) {
            case .failed(let failure):
                return .failed(failure)
            case .fileType(let brand, let rest):
                switch brand {
                case Self.motionBrand:
                    return .failed(.unsupported(.jp2, Failure.motionJPEG2000KeepsItsHeaderInATrack))
                case Self.compoundBrand:
                    return .failed(.unsupported(.jp2, Failure.jpmCompoundImagesKeepTheirHeadersInPages))
                default:
                    guard !options.runsPastInput(from: offset &+ 16, count: rest) else {
                        return .failed(.malformed(.jp2, .boxOrChunkRunsPastTheEndOfTheInput))
                    }
                    boxes = 2
                    phase = .boxHeader
                    return .skipThenRead(rest, 8)
                }
            }
        case .boxHeader:
            guard BoxWalker.count(&boxes, limit: options.entryLimit) else { return .failed(.limit(.jp2, .moreBoxesThanMaxEntries)) }
            let type = field.tag(4)
            switch BoxWalker.size(field.be32(0)) {
            case .toEnd:
                return box(type, payloadStart: offset &+ 8, end: nil, options: options)
            case .large:
                largeType = type
                phase = .largeSize
                return .read(8)
            case .tooSmall:
                return .failed(.malformed(.jp2, .boxSmallerThanItsHeader))
            case .payload(let payload):
                return box(type, payloadStart: offset &+ 8, end: offset &+ 8 &+ payload, options: options)
            }
        case .largeSize:
            guard let payload = BoxWalker.largePayload(field.be64(0)) else {
                return .failed(.malformed(.jp2, .boxSmallerThanItsHeader))
            }
            // The payload follows the 64-bit size.
            let payloadStart = offset &+ 8
            let (end, overflow) = payloadStart.addingReportingOverflow(payload)
            guard !overflow else { return .failed(.malformed(.jp2, Failure.boxEndsBeyond2To64)) }
            return box(largeType, payloadStart: payloadStart, end: end, options: options)
        case .imageHeader:
            let height = field.be32(0)
            let width = field.be32(4)
            guard width != 0 && height != 0 else { return .failed(.malformed(.jp2, .zeroWidthOrHeight)) }
            if let failure = setSize(width: width, height: height, options) { return .failed(failure) }
            if options.dimensionsOnly { return .done }
            phase = .componentsAndDepth
            return .read(3)
        case .componentsAndDepth:
            // BPC: bit depth minus 1 in the low 7 bits, or 255 when the components differ.
            let bitsPerComponent = field.u8(2)
            if bitsPerComponent != 0xFF { facts.bitDepth = Int(bitsPerComponent & 0x7F) + 1 }
            return .done
        }
    }

    mutating func setSize(width: UInt32, height: UInt32, _ options: ScanOptions) -> ScanFailure? {
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .tooLarge(facts.format) }
        facts.width = Int(clamping: width)
        facts.height = Int(clamping: height)
        sizeKnown = true
        return nil
    }

    /// Dispatches on a box whose payload starts at `payloadStart` and which ends at `end`
    /// (nil: at the end of the file, 15444-1 I.4).
    mutating func box(_ type: UInt32, payloadStart: UInt64, end: UInt64?, options: ScanOptions) -> Step {
        if let end, options.runsPastInput(end) { return .failed(.malformed(.jp2, .boxOrChunkRunsPastTheEndOfTheInput)) }
        if inHeaderBox {
            // A box inside jp2h must end within it; one running to the end of the file only
            // fits in a jp2h that does too.
            if let headerBoxEnd {
                guard let end, end <= headerBoxEnd else { return .failed(.malformed(.jp2, Failure.boxRunsPastJp2h)) }
            }
            guard type == Self.imageHeaderBox else {
                guard let end else { return .failed(.malformed(.jp2, Failure.jp2hHasNoIhdr)) }
                return nextBoxInHeader(at: end, from: payloadStart)
            }
            if let end, end &- payloadStart < 14 { return .failed(.malformed(.jp2, Failure.ihdrBoxTooShort)) }
            phase = .imageHeader
            return .read(8)
        }
        switch type {
        case Self.headerBox:
            // A superbox: entering it is one level of nesting.
            guard options.maxDepth >= 1 else { return .failed(.limit(.jp2, .boxesNestedDeeperThanMaxDepth)) }
            inHeaderBox = true
            headerBoxEnd = end
            return nextBoxInHeader(at: payloadStart, from: payloadStart)
        case Self.codestreamBox:
            // The codestream before jp2h breaks 15444-1 Annex I, but its SIZ gives the same size.
            if let end, end &- payloadStart < 24 { return .failed(.malformed(.jp2, Failure.jp2cBoxTooShortForSIZ)) }
            withStartMarker = true
            phase = .imageSize
            return .read(24)
        default:
            guard let end else { return .failed(.malformed(.jp2, Failure.boxRunsToEndBeforeJp2h)) }
            phase = .boxHeader
            return end == payloadStart ? .read(8) : .skipThenRead(end &- payloadStart, 8)
        }
    }

    /// Skips from `position` to `next`, the start of jp2h's next child box, which must have
    /// room for a box header.
    mutating func nextBoxInHeader(at next: UInt64, from position: UInt64) -> Step {
        if let headerBoxEnd, headerBoxEnd < next || headerBoxEnd &- next < 8 {
            return .failed(.malformed(.jp2, Failure.jp2hHasNoIhdr))
        }
        phase = .boxHeader
        return next == position ? .read(8) : .skipThenRead(next &- position, 8)
    }
}

extension JPEG2000Parser {
    /// Why JPEG2000 input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case jp2cBoxDoesNotStartWithSOC
        case sizDoesNotFollowSOC
        case sizSegmentTooShort
        case imageOffsetNotBelowTheGridSize
        case sizLengthDoesNotMatchItsComponentCount
        case boxEndsBeyond2To64
        case boxRunsPastJp2h
        case jp2hHasNoIhdr
        case ihdrBoxTooShort
        case jp2cBoxTooShortForSIZ
        case boxRunsToEndBeforeJp2h
        case motionJPEG2000KeepsItsHeaderInATrack
        case jpmCompoundImagesKeepTheirHeadersInPages

        static var owner: UInt8 { JPEG2000Parser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .jp2cBoxDoesNotStartWithSOC: "jp2c box does not start with SOC"
            case .sizDoesNotFollowSOC: "SIZ does not follow SOC"
            case .sizSegmentTooShort: "SIZ segment too short"
            case .imageOffsetNotBelowTheGridSize: "image offset not below the grid size"
            case .sizLengthDoesNotMatchItsComponentCount: "SIZ length does not match its component count"
            case .boxEndsBeyond2To64: "box ends beyond 2^64"
            case .boxRunsPastJp2h: "box runs past jp2h"
            case .jp2hHasNoIhdr: "jp2h has no ihdr"
            case .ihdrBoxTooShort: "ihdr box too short"
            case .jp2cBoxTooShortForSIZ: "jp2c box too short for SIZ"
            case .boxRunsToEndBeforeJp2h: "box runs to the end of the file before jp2h"
            case .motionJPEG2000KeepsItsHeaderInATrack: "Motion JPEG 2000 keeps its header in a track"
            case .jpmCompoundImagesKeepTheirHeadersInPages: "JPM compound images keep their headers in pages"
            }
        }
    }
}
#endif
