/// JPEG XL (ISO/IEC 18181): a bare codestream (`FF 0A`), or the ISOBMFF-style container of
/// ISO/IEC 18181-2 whose `jxlc` box, or `jxlp` boxes, hold the codestream.
///
/// The size is in the codestream's SizeHeader, a few bit-packed fields right after the
/// signature; the orientation follows in ImageMetadata. `JXLHeaderReader` decodes both. In a
/// container this parser walks the boxes, skipping the others by their size, and hands the
/// reader the codestream bytes wherever they lie: `jxlp` boxes may split the codestream at
/// any byte, with other boxes in between.
@usableFromInline
struct JXLParser: FormatParser, Sendable {

    @usableFromInline
    enum Phase: Sendable {
        /// The signature box's payload `0D 0A 87 0A`, then the `ftyp` box's size, type and
        /// major brand (16 bytes).
        case signatureAndFileType
        /// A box's 32-bit size and type.
        case boxHeader
        /// A box's 64-bit size (after a 32-bit size of 1).
        case largeSize(type: UInt32)
        /// A `jxlp` box's 4-byte index; `payload` is what follows it (nil: to the end).
        case partIndex(payload: UInt64?)
        /// Codestream bytes for the header reader.
        case codestream
    }

    @usableFromInline var phase: Phase
    @usableFromInline var header: JXLHeaderReader
    @usableFromInline var facts = ImageFacts(format: .jxl)
    /// The AnimationHeader's `num_loops`, when `have_animation` is set (0: forever).
    @usableFromInline var loops: UInt32? = nil

    /// Built on demand from the compact facts the parser keeps.
    @inlinable
    var info: ImageInfo {
        var info = ImageInfo(facts)
        if let loops { info.facts.storedLoopCount = loops }
        return info
    }
    /// The size of the container's first box, as the sniffer read it (it must be 12).
    @usableFromInline var signatureBoxSize: UInt32 = 12
    /// Codestream bytes left in the current `jxlc`/`jxlp` box; nil when it runs to the end.
    @usableFromInline var codestreamLeft: UInt64? = nil
    /// Whether the codestream comes in `jxlp` boxes, and whether the current one is the last.
    @usableFromInline var inParts = false
    @usableFromInline var lastPart = false
    /// Boxes read, which `maxEntries` bounds.
    @usableFromInline var boxes: UInt32 = 0

    @usableFromInline static let brand: UInt32 = 0x6A78_6C20  // "jxl "
    @usableFromInline static let codestreamBox: UInt32 = 0x6A78_6C63  // "jxlc"
    @usableFromInline static let partialCodestreamBox: UInt32 = 0x6A78_6C70  // "jxlp"

    /// A bare codestream: the sniffer consumed `FF 0A`; the SizeHeader starts at offset 2.
    @inlinable @inline(__always)
    init(codestream: ()) {
        phase = .codestream
        header = JXLHeaderReader(expectsSignature: false)
    }

    /// A container: the sniffer consumed the first box's size and type `JXL `.
    @inlinable @inline(__always)
    init(signatureBoxSize: UInt32) {
        phase = .signatureAndFileType
        header = JXLHeaderReader(expectsSignature: true)
        self.signatureBoxSize = signatureBoxSize
    }

    /// `Sniffed.variant` for a container (its first box's size in `value`); 0 for a bare codestream.
    @usableFromInline static let container: UInt8 = 1

    @inlinable @inline(__always)
    init(sniffed: Sniffed) {
        if sniffed.variant == Self.container {
            self.init(signatureBoxSize: UInt32(truncatingIfNeeded: sniffed.value))
        } else {
            self.init(codestream: ())
        }
    }

    @inlinable
    var firstStep: Step {
        switch phase {
        case .signatureAndFileType: .read(16)
        // Two bytes in either mode: the shortest SizeHeader (9 bits) plus `all_default`.
        case .codestream, .boxHeader, .largeSize, .partIndex: .read(header.bytesWanted(dimensionsOnly: true))
        }
    }

    @inlinable
    var format: ImageFormat? { .jxl }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { header.sizeKnown ? info : nil }

    @inlinable @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
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
            let type = field.tag(4)
            switch BoxWalker.size(field.be32(0)) {
            case .toEnd:
                return box(type, payload: nil, at: offset &+ 8, options: options)
            case .large:
                phase = .largeSize(type: type)
                return .read(8)
            case .tooSmall:
                return .failed(.malformed(.jxl, .boxSmallerThanItsHeader))
            case .payload(let payload):
                return box(type, payload: payload, at: offset &+ 8, options: options)
            }
        case .largeSize(let type):
            guard let payload = BoxWalker.largePayload(field.be64(0)) else {
                return .failed(.malformed(.jxl, .boxSmallerThanItsHeader))
            }
            return box(type, payload: payload, at: offset &+ 8, options: options)
        case .partIndex(let payload):
            lastPart = field.be32(0) & 0x8000_0000 != 0
            inParts = true
            codestreamLeft = payload
            if payload == 0 { return codestreamBoxEnded() }
            phase = .codestream
            return readCodestream(options)
        case .codestream:
            if let left = codestreamLeft { codestreamLeft = left &- UInt64(field.count) }
            let progress = header.consume(field, options: options)
            if header.sizeKnown {
                facts.width = Int(clamping: header.width)
                facts.height = Int(clamping: header.height)
            }
            switch progress {
            case .finished:
                if !options.dimensionsOnly {
                    facts.orientation = Orientation(rawValue: header.orientation)
                    facts.isAnimated = header.animated
                    if header.animated == true { loops = header.loops }
                    if header.metadataAllDefault {
                        facts.bitDepth = 8
                        facts.hasAlpha = false
                    }
                }
                return .done
            case .failed(let failure):
                return .failed(failure)
            case .needBytes:
                if codestreamLeft == 0 { return codestreamBoxEnded() }
                return readCodestream(options)
            }
        }
    }

    /// The next codestream field: what the header reader wants, within the current box.
    @inlinable
    func readCodestream(_ options: ScanOptions) -> Step {
        let wanted = header.bytesWanted(dimensionsOnly: options.dimensionsOnly)
        guard let left = codestreamLeft, left < UInt64(wanted) else { return .read(wanted) }
        return .read(Int(truncatingIfNeeded: left))
    }

    /// Dispatches on a box type once its payload length is known (nil: to the end of the file);
    /// the payload starts at `payloadStart`.
    @inlinable
    mutating func box(_ type: UInt32, payload: UInt64?, at payloadStart: UInt64, options: ScanOptions) -> Step {
        if let payload, options.runsPastInput(from: payloadStart, count: payload) {
            return .failed(.malformed(.jxl, .boxOrChunkRunsPastTheEndOfTheInput))
        }
        switch type {
        case Self.codestreamBox:
            // One jxlc, or jxlp boxes, never both (18181-2).
            guard !inParts else { return .failed(.malformed(.jxl, Failure.jxlcBoxAfterJxlpBoxes)) }
            guard payload != 0 else { return .failed(.malformed(.jxl, Failure.emptyJxlcBox)) }
            codestreamLeft = payload
            phase = .codestream
            return readCodestream(options)
        case Self.partialCodestreamBox:
            var rest: UInt64? = nil
            if let payload {
                guard payload >= 4 else { return .failed(.malformed(.jxl, Failure.jxlpBoxTooSmallForItsIndex)) }
                rest = payload &- 4
            }
            phase = .partIndex(payload: rest)
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

    /// The current codestream box ended inside the header: the codestream continues in the
    /// next `jxlp` box, unless this was the last one.
    @inlinable
    mutating func codestreamBoxEnded() -> Step {
        guard inParts && !lastPart else {
            return .failed(.malformed(.jxl, Failure.codestreamEndsInsideItsHeader))
        }
        phase = .boxHeader
        return .read(8)
    }
}

extension JXLParser {
    /// Why JXL input can't be read: each failure with its message (SPEC.md §3).
    @usableFromInline
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case ftypMajorBrandIsNotJxl
        case jxlcBoxAfterJxlpBoxes
        case emptyJxlcBox
        case jxlpBoxTooSmallForItsIndex
        case ftypBoxAfterTheSecondBox
        case boxRunsToEndBeforeCodestream
        case codestreamEndsInsideItsHeader
        case codestreamSignatureMissing

        @inlinable
        static var owner: UInt8 { JXLParser.kind.rawValue }

        /// The message: a literal, so reading it allocates nothing.
        @inlinable
        var message: String {
            switch self {
            case .ftypMajorBrandIsNotJxl: "ftyp major brand is not jxl"
            case .jxlcBoxAfterJxlpBoxes: "jxlc box after jxlp boxes"
            case .emptyJxlcBox: "empty jxlc box"
            case .jxlpBoxTooSmallForItsIndex: "jxlp box too small for its index"
            case .ftypBoxAfterTheSecondBox: "ftyp box after the second box"
            case .boxRunsToEndBeforeCodestream: "box runs to the end of the file before the codestream"
            case .codestreamEndsInsideItsHeader: "codestream ends inside its header"
            case .codestreamSignatureMissing: "codestream signature missing"
            }
        }
    }
}
