/// Which parser is running, or the sticky result.
@usableFromInline
enum ParserState: Sendable {
    case sniff(Sniffer)
    case jpeg(JPEGParser)
    case png(PNGParser)
    case gif(GIFParser)
    case bmp(BMPParser)
    case webp(WebPParser)
    case tiff(TIFFParser)
    case isobmff(ISOBMFFParser)
    case jxl(JXLParser)
    case jpeg2000(JPEG2000Parser)
    case icon(ICOParser)
    case tga(TGAParser)
    case psd(PSDParser)
    case pnm(PNMParser)
    case qoi(QOIParser)
    case svg(SVGParser)
    case dds(DDSParser)
    case ktx(KTXParser)
    case icns(ICNSParser)
    case exr(EXRParser)
    case hdr(RadianceParser)
    case pcx(PCXParser)
    case sgi(SGIParser)
    case sun(SunRasterParser)
    case xbm(XBMParser)
    case done(ImageInfo)
    case failed(ScanFailure)

    /// Whether the scan is over. Matches the tag only, so no payload is copied.
    @inlinable
    var isTerminal: Bool {
        if case .done = self { return true }
        if case .failed = self { return true }
        return false
    }

    /// The sticky result, or nil while a parser runs.
    @inlinable
    var terminal: ScanStatus? {
        if case .done(let info) = self { return .done(info) }
        if case .failed(let failure) = self { return .unsupported(failure) }
        return nil
    }
}

/// A push-based scanner that reads an image's format, size and orientation from the first
/// bytes of a file or download, fed in chunks of any size.
///
/// ```swift
/// var scanner = HeaderScanner()
/// for chunk in download {
///     if case .done(let info) = scanner.feed(chunk) { print(info.width, info.height); break }
/// }
/// ```
///
/// The result is the same however the input is split. The scanner never keeps a reference to
/// the caller's bytes: a field that straddles two chunks is copied into a fixed 64-byte carry,
/// and bytes it doesn't need are counted, not copied. `feed` never allocates.
///
/// `done` and `unsupported` are sticky: later calls return them again and consume nothing.
/// Call `finish()` at the end of the input to turn a pending `needMore` into an answer.
public struct HeaderScanner: Sendable {
    /// The mode and limits this scanner was created with.
    public let options: ScanOptions

    /// The widest field the scanner ever copies: fields that straddle chunks go through a
    /// fixed buffer of this size, and nothing else is kept.
    public static let carryCapacity = Carry.capacity
    @usableFromInline var state: ParserState
    @usableFromInline var reader: FieldReader
    /// HEIF's property and item tables. They live outside `state` because every `feed` moves
    /// `state` as a whole: kept there, they would make every format's scan pay for them.
    @usableFromInline var tables = BoxTables()

    /// A scanner at the start of an input.
    @inlinable
    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
        self.state = .sniff(Sniffer())
        self.reader = FieldReader(firstWidth: Sniffer.firstWidth)
    }

    /// Consumes `bytes`, the next part of the input, and says what is known.
    ///
    /// Stops consuming at the byte that completes the answer: `bytesConsumed` then tells where
    /// the header ended. After a terminal status it consumes nothing.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> ScanStatus {
        if state.isTerminal, let terminal = state.terminal { return terminal }
        var input = InputCursor(bytes)
        // Bytes beyond maxBytes are hidden from the parsers: the scan stops when it has
        // consumed maxBytes without an answer.
        input.clamp(to: reader.byteBudget(options))
        // Most small chunks only count down a skip or fill the carry: no parser is involved.
        if reader.absorb(&input) && reader.byteBudget(options) != 0 { return .needMore(neededCount) }
        while true {
            let outcome: Outcome
            switch state {
            case .sniff(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .sniff(parser) }
            case .jpeg(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .jpeg(parser) }
            case .png(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .png(parser) }
            case .gif(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .gif(parser) }
            case .bmp(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .bmp(parser) }
            case .webp(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .webp(parser) }
            case .tiff(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .tiff(parser) }
            case .isobmff(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .isobmff(parser) }
            case .jxl(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .jxl(parser) }
            case .jpeg2000(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .jpeg2000(parser) }
            case .icon(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .icon(parser) }
            case .tga(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .tga(parser) }
            case .psd(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .psd(parser) }
            case .pnm(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .pnm(parser) }
            case .qoi(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .qoi(parser) }
            case .svg(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .svg(parser) }
            case .dds(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .dds(parser) }
            case .ktx(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .ktx(parser) }
            case .icns(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .icns(parser) }
            case .exr(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .exr(parser) }
            case .hdr(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .hdr(parser) }
            case .pcx(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .pcx(parser) }
            case .sgi(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .sgi(parser) }
            case .sun(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .sun(parser) }
            case .xbm(var parser):
                outcome = run(&parser, &input)
                if outcome.isRunning { state = .xbm(parser) }
            case .done(let info):
                return .done(info)
            case .failed(let failure):
                return .unsupported(failure)
            }
            switch outcome {
            case .needMore:
                return .needMore(neededCount)
            case .finished:
                switch state {
                case .done(let info): return .done(info)
                case .failed(let failure): return .unsupported(failure)
                default: return .unsupported(Sniffer.unknown)  // unreachable: run ended the scan
                }
            case .handoff(let detected):
                start(detected)
            }
        }
    }

    /// Signals the end of the input and returns the final answer.
    ///
    /// A scan still waiting for bytes becomes `truncated`, unless the size is already known:
    /// then the answer is `done` with `ImageInfo.isPartial` set, because metadata that full
    /// mode was still looking for (an orientation after the image data, say) never came.
    public mutating func finish() -> ScanStatus {
        let partial: ImageInfo?
        let format: ImageFormat?
        switch state {
        case .done(let info):
            return .done(info)
        case .failed(let failure):
            return .unsupported(failure)
        case .sniff(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .jpeg(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .png(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .gif(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .bmp(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .webp(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .tiff(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .isobmff(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .jxl(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .jpeg2000(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .icon(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .tga(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .psd(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .pnm(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .qoi(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .svg(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .dds(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .ktx(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .icns(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .exr(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .hdr(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .pcx(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .sgi(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .sun(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        case .xbm(let parser): (partial, format) = (parser.infoAtEndOfInput(), parser.format)
        }
        conclude(partial, orFail: ScanFailure(.truncated, "input ended inside the header", format: format))
        return status
    }

    /// The current status without feeding anything.
    public var status: ScanStatus {
        state.terminal ?? .needMore(neededCount)
    }

    /// Bytes of the input accounted for so far: fed through `feed` or passed over with `skip`.
    /// After `done`, the offset just past the last header byte the answer needed.
    public var bytesConsumed: UInt64 { reader.position }

    /// Bytes consumed through `feed`, including those the scanner discarded by counting.
    /// This is what a reader had to read; `bytesConsumed - bytesRead` it jumped over.
    public var bytesRead: UInt64 { reader.fed }

    /// Bytes passed over with `skip(_:)`.
    public var bytesSkipped: UInt64 { reader.jumped }

    /// How many of the upcoming bytes the scanner will discard without looking at them.
    ///
    /// A reader that can seek (a file, an HTTP range request) can jump over them and call
    /// `skip(_:)` instead of reading them. Zero once the scan is over.
    public var pendingSkip: UInt64 {
        state.isTerminal ? 0 : reader.skipRemaining
    }

    /// Tells the scanner that the caller jumped over up to `count` upcoming bytes instead of
    /// feeding them. Only bytes in `pendingSkip` can be skipped; returns how many were, so the
    /// caller knows how far to seek. Skipped bytes don't count against `maxBytes`.
    @discardableResult
    public mutating func skip(_ count: UInt64) -> UInt64 {
        let skipped = min(count, pendingSkip)
        reader.skipRemaining &-= skipped
        reader.jumped &+= skipped
        return skipped
    }

    // MARK: - Driving the parsers

    @usableFromInline
    enum Outcome: Sendable {
        case needMore
        /// The scan ended; `state` holds the answer.
        case finished
        case handoff(Sniffer.Detected)

        /// Whether the parser runs on, so its state must be kept.
        @inlinable
        var isRunning: Bool {
            switch self {
            case .needMore: true
            case .finished, .handoff: false
            }
        }
    }

    /// Starts the parser the sniffer detected, built in place, and sets up its first step. A
    /// parser may fail before reading anything: that ends the scan.
    @inlinable
    mutating func start(_ detected: Sniffer.Detected) {
        let step: Step
        switch detected {
        case .undecided: state = .failed(Sniffer.unknown); return
        case .jpeg: step = begin(JPEGParser(), ParserState.jpeg)
        case .png: step = begin(PNGParser(), ParserState.png)
        case .gif: step = begin(GIFParser(), ParserState.gif)
        case .bmp: step = begin(BMPParser(), ParserState.bmp)
        case .webp: step = begin(WebPParser(), ParserState.webp)
        case .tiff(let bigEndian): step = begin(TIFFParser(bigEndian: bigEndian), ParserState.tiff)
        case .isobmff(let size): step = begin(ISOBMFFParser(firstBoxSize: size), ParserState.isobmff)
        case .jxlCodestream: step = begin(JXLParser(codestream: ()), ParserState.jxl)
        case .jxlContainer(let size): step = begin(JXLParser(signatureBoxSize: size), ParserState.jxl)
        case .j2kCodestream: step = begin(JPEG2000Parser(codestream: ()), ParserState.jpeg2000)
        case .jp2(let size): step = begin(JPEG2000Parser(signatureBoxSize: size), ParserState.jpeg2000)
        case .icon(let cursor, let count): step = begin(ICOParser(isCursor: cursor, count: count), ParserState.icon)
        case .tga(let known): step = begin(TGAParser(known: known), ParserState.tga)
        case .psd: step = begin(PSDParser(), ParserState.psd)
        case .pnm(let magic): step = begin(PNMParser(magic: magic), ParserState.pnm)
        case .qoi: step = begin(QOIParser(), ParserState.qoi)
        case .svg(let first, let second): step = begin(SVGParser(first: first, second: second), ParserState.svg)
        case .dds: step = begin(DDSParser(), ParserState.dds)
        case .ktx: step = begin(KTXParser(), ParserState.ktx)
        case .icns: step = begin(ICNSParser(), ParserState.icns)
        case .exr: step = begin(EXRParser(), ParserState.exr)
        case .hdr: step = begin(RadianceParser(), ParserState.hdr)
        case .pcx: step = begin(PCXParser(), ParserState.pcx)
        case .sgi: step = begin(SGIParser(), ParserState.sgi)
        case .sun: step = begin(SunRasterParser(), ParserState.sun)
        case .xbm: step = begin(XBMParser(), ParserState.xbm)
        case .xbmAfterComment: step = begin(XBMParser(afterCommentOpening: ()), ParserState.xbm)
        }
        switch step {
        case .read, .skipThenRead:
            if let failure = reader.apply(step) { state = .failed(failure) }
        case .failed(let failure):
            state = .failed(failure)
        case .done, .handoff:
            break
        }
    }

    @inlinable
    mutating func begin<Parser: FormatParser>(_ parser: Parser, _ wrap: (Parser) -> ParserState) -> Step {
        state = wrap(parser)
        return parser.firstStep
    }


    /// `needMore`'s count: the rest of the current step, but never past the byte at which
    /// `maxBytes` stops the scan.
    @inlinable
    var neededCount: Int {
        let needed = min(reader.needed, reader.byteBudget(options))
        return Int(clamping: max(1, needed))
    }

    @inlinable
    mutating func run<Parser: FormatParser>(
        _ parser: inout Parser, _ input: inout InputCursor
    ) -> Outcome {
        // A terminal answer goes straight into `state`: `feed` returns it from there, so the
        // (large) ImageInfo is copied as few times as possible.
        switch reader.run(&parser, &input, options, &tables) {
        case .needMore:
            // maxBytes consumed and still no answer: the byte limit ends the scan.
            guard reader.byteBudget(options) == 0 else { return .needMore }
            conclude(parser.infoAtEndOfInput(), orFail: FieldReader.byteLimitFailure(parser.format))
        case .done:
            conclude(parser.info, partialReason: nil)
        case .failed(let failure):
            // Once the size is known, a later failure only ends the metadata search.
            conclude(parser.infoAtEndOfInput(), orFail: failure)
        case .handoff:
            // Only the sniffer hands over.
            guard let sniffer = parser as? Sniffer else {
                state = .failed(Sniffer.unknown)
                return .finished
            }
            return .handoff(sniffer.detected)
        }
        return .finished
    }

    /// Ends the scan with `info`, made partial by `failure`, if there is one; else `failure`.
    @inlinable
    mutating func conclude(_ info: ImageInfo?, orFail failure: ScanFailure) {
        guard let info else {
            state = .failed(failure)
            return
        }
        conclude(info, partialReason: failure)
    }

    /// Ends the scan with `info`, unless it is larger than the limits allow.
    @inlinable
    mutating func conclude(_ info: ImageInfo, partialReason: ScanFailure?) {
        guard info.width <= options.maxWidth && info.height <= options.maxHeight else {
            state = .failed(.tooLarge(info.format))
            return
        }
        guard let partialReason else {
            state = .done(info)  // parsers leave partialReason nil
            return
        }
        var partial = info
        partial.partialReason = partialReason
        state = .done(partial)
    }
}
