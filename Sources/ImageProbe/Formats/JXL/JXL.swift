#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
/// JPEG XL (ISO/IEC 18181): a bare codestream (`FF 0A`), or the ISOBMFF-style container of
/// ISO/IEC 18181-2 whose `jxlc` box, or `jxlp` boxes, hold the codestream.
///
/// The size is in the codestream's SizeHeader, a few bit-packed fields right after the
/// signature; the orientation, bit depth, extra channels, animation header and colour
/// encoding follow in ImageMetadata, and animation mode walks the frame headers after them.
/// `JXLHeaderReader` decodes the codestream. In a container this parser walks the boxes,
/// skipping the others by their size, and hands the reader the codestream bytes wherever
/// they lie: `jxlp` boxes may split the codestream at any byte, with other boxes in between,
/// and a skip the reader asks for (a frame's sections) is counted in codestream bytes across
/// them.
struct JXLParser: FormatParser, Sendable {

    enum Phase: UInt8, Sendable {
        /// The signature box's payload `0D 0A 87 0A`, then the `ftyp` box's size, type and
        /// major brand (16 bytes).
        case signatureAndFileType
        /// A box's 32-bit size and type.
        case boxHeader
        /// A box's 64-bit size (after a 32-bit size of 1); the type is in `boxType`.
        case largeSize
        /// A `jxlp` box's 4-byte index; what follows it is in `codestreamLeft`.
        case partIndex
        /// Codestream bytes for the header reader.
        case codestream
    }

    var phase: Phase
    /// Whether the codestream comes in `jxlp` boxes, and whether the current one is the last.
    var inParts = false
    var lastPart = false
    var header: JXLHeaderReader
    var facts = ImageFacts(format: .jxl)
    /// The size of the container's first box, as the sniffer read it (it must be 12).
    var signatureBoxSize: UInt32 = 12
    /// Boxes read, which `maxEntries` bounds.
    var boxes: UInt32 = 0
    /// The type of the box whose 64-bit size is being read.
    var boxType: UInt32 = 0
    /// Codestream bytes left in the current `jxlc`/`jxlp` box; `toEnd` when it runs to the end
    /// of the file (no payload is that long: a box's size counts its header too).
    var codestreamLeft: UInt64 = Self.toEnd
    static var toEnd: UInt64 { .max }
    /// Codestream bytes still to pass over, in this box and the next parts.
    var codestreamSkip: UInt64 = 0

    /// The colour facts (full mode's extras) come from the reader's decoded colour encoding.
    var info: ImageInfo {
        var info = ImageInfo(facts)
        if header.flags[.colourKnown] {
            info.hasICCProfile = header.hasICCProfile
            info.cicp = header.cicp
        }
        return info
    }

    static var emitsFrames: Bool { true }

    mutating func takeFrame() -> PendingFrames? { header.takeFrame() }

    static let brand: UInt32 = 0x6A78_6C20  // "jxl "
    static let codestreamBox: UInt32 = 0x6A78_6C63  // "jxlc"
    static let partialCodestreamBox: UInt32 = 0x6A78_6C70  // "jxlp"

    /// A bare codestream: the sniffer consumed `FF 0A`; the SizeHeader starts at offset 2.
    init(codestream: ()) {
        phase = .codestream
        header = JXLHeaderReader(expectsSignature: false)
    }

    /// A container: the sniffer consumed the first box's size and type `JXL `.
    init(signatureBoxSize: UInt32) {
        phase = .signatureAndFileType
        header = JXLHeaderReader(expectsSignature: true)
        self.signatureBoxSize = signatureBoxSize
    }

    /// A container (its signature box), or a bare codestream (its signature `FF 0A`).
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
        // Two bytes in either mode: the shortest SizeHeader (9 bits), what the reader's
        // `bytesWanted` asks for at its start.
        case .codestream, .boxHeader, .largeSize, .partIndex: .read(2)
        }
    }

    var format: ImageFormat? { .jxl }

    func infoAtEndOfInput() -> ImageInfo? { header.sizeKnown ? info : nil }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        // A box header's type and payload length (nil: to the end of the file), for `box`.
        let type: UInt32
        var payload: UInt64?
        switch phase {
        case .signatureAndFileType:
            switch JPEG2000Box.fileStart(field, signatureBoxSize: signatureBoxSize, format: .jxl) {
            case .failed(let failure):
                return .failed(failure)
            case .fileType(let brand, let rest):
                guard brand == Self.brand else { return .failed(.malformed(.jxl, Failure.ftypMajorBrandIsNotJxl)) }
                guard !options.runsPastInput(from: offset &+ 16, count: rest) else {
                    return .failed(.malformed(.jxl, .boxOrChunkRunsPastTheEndOfTheInput))
                }
                boxes = 2
                phase = .boxHeader
                return .skipThenRead(rest, 8)
            }
        case .boxHeader:
            guard BoxWalker.count(&boxes, limit: options.entryLimit) else { return .failed(.limit(.jxl, .moreBoxesThanMaxEntries)) }
            type = field.tag(4)
            switch BoxWalker.size(field.be32(0)) {
            case .toEnd:
                break
            case .large:
                boxType = type
                phase = .largeSize
                return .read(8)
            case .tooSmall:
                return .failed(.malformed(.jxl, .boxSmallerThanItsHeader))
            case .payload(let length):
                payload = length
            }
        case .largeSize:
            guard let length = BoxWalker.largePayload(field.be64(0)) else {
                return .failed(.malformed(.jxl, .boxSmallerThanItsHeader))
            }
            type = boxType
            payload = length
        case .partIndex:
            lastPart = field.be32(0) & 0x8000_0000 != 0
            inParts = true
            phase = .codestream
            return nextCodestreamStep(options)
        case .codestream:
            if codestreamLeft != Self.toEnd { codestreamLeft &-= field.span }
            let progress = header.consume(field, options: options)
            if header.sizeKnown {
                facts.storedWidth = header.width
                facts.storedHeight = header.height
                if !options.dimensionsOnly { noteMetadata() }
            }
            switch progress {
            case .finished:
                return .done
            case .failed(let failure):
                return .failed(failure)
            case .skip:
                codestreamSkip = header.takeSkippedBytes()
                fallthrough
            case .needBytes:
                return nextCodestreamStep(options)
            }
        }
        return box(type, payload: payload, at: offset &+ 8, options: options)
    }

    /// Copies what the reader has decoded of ImageMetadata into the answer: each fact as soon
    /// as it is known, so that a partial answer keeps what came before the point it stopped.
    mutating func noteMetadata() {
        if header.orientation != 0 { facts.orientation = Orientation(rawValue: header.orientation) }
        if let animated = header.animated {
            facts.isAnimated = animated
            if animated && header.flags[.loopsKnown] { facts.storedLoopCount = header.loops }
        }
        if header.bitDepth != 0 { facts.bitDepth = Int(header.bitDepth) }
        if header.flags[.channelsKnown] { facts.hasAlpha = header.flags[.hasAlpha] }
    }

    /// The next codestream step: pass over `codestreamSkip` bytes, then read what the header
    /// reader wants, within the current box; a skip or read past its end goes on in the next
    /// `jxlp` box.
    mutating func nextCodestreamStep(_ options: ScanOptions) -> Step {
        var width = header.bytesWanted(dimensionsOnly: options.dimensionsOnly)
        let skip = codestreamSkip
        let left = codestreamLeft
        if left != Self.toEnd {
            guard skip < left else {
                // The box ends within the skip, or at the byte the reader wants next.
                codestreamSkip = skip &- left
                codestreamLeft = 0
                return codestreamBoxEnded(skipping: left)
            }
            let rest = left &- skip
            codestreamLeft = rest
            // rest < width ≤ 64 in the conversion.
            if rest < UInt64(width) { width = Int(truncatingIfNeeded: rest) }
        }
        codestreamSkip = 0
        return skip == 0 ? .read(width) : .skipThenRead(skip, width)
    }

    /// Dispatches on a box type once its payload length is known (nil: to the end of the file);
    /// the payload starts at `payloadStart`.
    mutating func box(_ type: UInt32, payload: UInt64?, at payloadStart: UInt64, options: ScanOptions) -> Step {
        if let payload, options.runsPastInput(from: payloadStart, count: payload) {
            return .failed(.malformed(.jxl, .boxOrChunkRunsPastTheEndOfTheInput))
        }
        switch type {
        case Self.codestreamBox:
            // One jxlc, or jxlp boxes, never both (18181-2).
            guard !inParts else { return .failed(.malformed(.jxl, Failure.jxlcBoxAfterJxlpBoxes)) }
            guard payload != 0 else { return .failed(.malformed(.jxl, Failure.emptyJxlcBox)) }
            codestreamLeft = payload ?? Self.toEnd
            phase = .codestream
            return nextCodestreamStep(options)
        case Self.partialCodestreamBox:
            codestreamLeft = Self.toEnd
            if let payload {
                guard payload >= 4 else { return .failed(.malformed(.jxl, Failure.jxlpBoxTooSmallForItsIndex)) }
                codestreamLeft = payload &- 4
            }
            phase = .partIndex
            return .read(4)
        case JPEG2000Box.fileType:
            return .failed(.malformed(.jxl, Failure.ftypBoxAfterTheSecondBox))
        default:
            // Exif, xml, jumb, brob, jxll, jbrd, ...: not needed for the size or orientation.
            guard let payload else {
                return .failed(.malformed(.jxl, Failure.boxRunsToEndBeforeCodestream))
            }
            phase = .boxHeader
            return payload == 0 ? .read(8) : .skipThenRead(payload, 8)
        }
    }

    /// The current codestream box ends after `count` more bytes, which are passed over: the
    /// codestream continues in the next `jxlp` box, unless this was the last one.
    mutating func codestreamBoxEnded(skipping count: UInt64) -> Step {
        guard inParts && !lastPart else {
            return .failed(.malformed(.jxl, header.walkingFrames ? Failure.codestreamEndsBeforeItsLastFrame : Failure.codestreamEndsInsideItsHeader))
        }
        phase = .boxHeader
        return count == 0 ? .read(8) : .skipThenRead(count, 8)
    }
}

extension JXLParser {
    /// Why JXL input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case ftypMajorBrandIsNotJxl
        case jxlcBoxAfterJxlpBoxes
        case emptyJxlcBox
        case jxlpBoxTooSmallForItsIndex
        case ftypBoxAfterTheSecondBox
        case boxRunsToEndBeforeCodestream
        case codestreamEndsInsideItsHeader
        case codestreamSignatureMissing
        case codestreamEndsBeforeItsLastFrame
        case invalidImageMetadata
        case invalidColourEncoding
        case invalidFrameHeader
        case f16InfinityOrNaN
        case nonZeroPaddingBits
        case extensionSizesOverflow
        case moreThan65536TOCEntries
        case moreTOCEntriesThanMaxEntries
        case iccProfileBeforeTheFrames
        case permutedTOC

        static var owner: UInt8 { JXLParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .ftypMajorBrandIsNotJxl: "ftyp major brand is not jxl"
            case .jxlcBoxAfterJxlpBoxes: "jxlc box after jxlp boxes"
            case .emptyJxlcBox: "empty jxlc box"
            case .jxlpBoxTooSmallForItsIndex: "jxlp box too small for its index"
            case .ftypBoxAfterTheSecondBox: "ftyp box after the second box"
            case .boxRunsToEndBeforeCodestream: "box runs to the end of the file before the codestream"
            case .codestreamEndsInsideItsHeader: "codestream ends inside its header"
            case .codestreamSignatureMissing: "codestream signature missing"
            case .codestreamEndsBeforeItsLastFrame: "codestream ends before its last frame"
            case .invalidImageMetadata: "ImageMetadata field out of range"
            case .invalidColourEncoding: "colour encoding field out of range"
            case .invalidFrameHeader: "frame header field out of range"
            case .f16InfinityOrNaN: "F16 field is infinite or NaN"
            case .nonZeroPaddingBits: "nonzero padding bits"
            case .extensionSizesOverflow: "extension sizes overflow 64 bits"
            case .moreThan65536TOCEntries: "frame TOC has more than 65,536 entries"
            case .moreTOCEntriesThanMaxEntries: "frame TOC has more entries than maxEntries"
            case .iccProfileBeforeTheFrames: "frames not walked: an entropy-coded ICC profile comes before them"
            case .permutedTOC: "frames not walked past a permuted TOC (entropy coded)"
            }
        }
    }
}
#endif
