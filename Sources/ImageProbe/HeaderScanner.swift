extension FormatParser {
    /// Runs the field loop over `input`. When the scan ends, writes the answer and returns
    /// true; returns false when the chunk is used up and the scan goes on. One function per
    /// format, with the field loop and the parser inlined into it.
    @inlinable @inline(never)
    mutating func drive(
        _ reader: inout FieldReader, _ input: inout InputCursor, _ options: ScanOptions, _ answer: inout ScanStatus,
        _ tally: inout FrameTally, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        switch reader.run(&self, &input, options, &tally, onFrame) {
        case .needMore:
            // maxBytes consumed and still no answer: the byte limit ends the scan.
            guard reader.byteBudget(options) == 0 else { return false }
            answer = ScanStatus.settled(
                Self.counted(infoAtEndOfInput(), tally, options), FieldReader.byteLimitFailure(format), options)
        case .done:
            answer = ScanStatus.settled(Self.counted(info, tally, options), options)
        case .failed(let failure):
            // Once the size is known, a later failure only ends the metadata search.
            answer = ScanStatus.settled(Self.counted(infoAtEndOfInput(), tally, options), failure, options)
        case .handoff:
            // Only the sniffer hands over, and it is not driven through here.
            answer = .unsupported(Sniffer.unknown)
        }
        return true
    }

    /// `info` with what animation mode counted, for parsers that walk frames.
    @inlinable @inline(__always)
    static func counted(_ info: ImageInfo?, _ tally: FrameTally, _ options: ScanOptions) -> ImageInfo? {
        guard emitsFrames && options.animation, var info else { return info }
        tally.apply(to: &info)
        return info
    }

    @inlinable @inline(__always)
    static func counted(_ info: ImageInfo, _ tally: FrameTally, _ options: ScanOptions) -> ImageInfo {
        guard emitsFrames && options.animation else { return info }
        var counted = info
        tally.apply(to: &counted)
        return counted
    }
}

extension ScanStatus {
    /// A complete answer, unless the size is beyond the limits.
    @inlinable
    static func settled(_ info: ImageInfo, _ options: ScanOptions) -> ScanStatus {
        guard options.admits(width: UInt64(info.facts.storedWidth), height: UInt64(info.facts.storedHeight)) else {
            return .unsupported(.tooLarge(info.format))
        }
        return .done(info)  // parsers leave partialReason nil
    }

    /// The answer when `failure` ended the scan: partial if the size is known, else the failure.
    @inlinable
    static func settled(_ info: ImageInfo?, _ failure: ScanFailure, _ options: ScanOptions) -> ScanStatus {
        guard var info else { return .unsupported(failure) }
        info.partialReason = failure
        return settled(info, options)
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
    @usableFromInline var reader: FieldReader
    /// The running parser, in place; its occupant is the scanner's state.
    @usableFromInline var slot: ParserSlot
    /// The sticky answer, once the slot's occupant is `finished`.
    @usableFromInline var answer: ScanStatus
    /// Animation mode: the frames counted so far.
    @usableFromInline var frames: FrameTally

    /// A scanner at the start of an input. Creating one writes its fields once, in place.
    @inlinable
    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
        self.reader = FieldReader(firstWidth: Sniffer.firstWidth)
        self.answer = .needMore(1)
        self.frames = FrameTally()
        self.slot = ParserSlot()
        _ = slot.store(Sniffer())
    }

    /// Consumes `bytes`, the next part of the input, and says what is known.
    ///
    /// Stops consuming at the byte that completes the answer: `bytesConsumed` then tells where
    /// the header ended. After a terminal status it consumes nothing.
    @inlinable @inline(__always)
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> ScanStatus {
        feed(bytes) { _ in }
    }

    /// Consumes `bytes` as `feed(_:)` does, and in animation mode passes each frame the scan
    /// reads to `onFrame`, in file order, as soon as the bytes that describe it are consumed.
    ///
    /// The frames come out the same, in the same order, however the input is split: a frame
    /// is reported during the `feed` call that completes its description. Nothing is kept:
    /// a caller that wants the frames stores them itself.
    @inlinable @inline(__always)
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onFrame: (FrameInfo) -> Void) -> ScanStatus {
        // Most small chunks only count down a skip or fill the carry: no parser is involved,
        // and this short path, inlined into the caller, is all they cost.
        if slot.occupant != .finished && reader.absorbWhole(bytes, limit: options.byteLimit) {
            return .needMore(neededCount)
        }
        return feedParsers(bytes, onFrame)
    }

    /// `feed` for chunks that reach a parser.
    @usableFromInline @inline(never)
    mutating func feedParsers(_ bytes: UnsafeRawBufferPointer, _ onFrame: (FrameInfo) -> Void) -> ScanStatus {
        if slot.occupant == .finished { return answer }
        var input = InputCursor(bytes)
        // Bytes beyond maxBytes are hidden from the parsers: the scan stops when it has
        // consumed maxBytes without an answer.
        input.clamp(to: reader.byteBudget(options))
        // Most small chunks only count down a skip or fill the carry: no parser is involved.
        if reader.absorb(&input) && reader.byteBudget(options) != 0 { return .needMore(neededCount) }
        while true {
            let ended: Bool
            switch slot.occupant {
            case .sniffer:
                // The first two bytes decide almost every format: when they are both in the
                // first chunk, the sniffer's first step runs here, straight to the parser.
                if reader.fed == 0 && reader.jumped == 0 && input.remaining >= Sniffer.firstWidth {
                    switch Self.sniffFirstField(&slot, &reader, &input, options) {
                    case .handoff(let detected)?:
                        start(detected)
                        continue
                    case .failed(let failure)?, .unreachable(let failure)?:
                        conclude(nil, failure)
                        return answer
                    case .running?:
                        break  // on in the general loop below
                    case nil:
                        conclude(nil, Self.missingParser)
                        return answer
                    }
                }
                let outcome = Self.sniff(&slot, &reader, &input, options)
                switch outcome {
                case (.handoff, let detected)?:
                    start(detected)
                    continue
                case (.needMore, _)?:
                    if reader.byteBudget(options) != 0 { return .needMore(neededCount) }
                    answer = .unsupported(FieldReader.byteLimitFailure(nil))
                case (.failed(let failure), _)?:
                    answer = .unsupported(failure)
                case (.done, _)?, nil:
                    answer = .unsupported(Sniffer.unknown)  // the sniffer only hands over or fails
                }
                ended = true
            case .jpeg: ended = Self.drive(JPEGParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .png: ended = Self.drive(PNGParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .gif: ended = Self.drive(GIFParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .bmp: ended = Self.drive(BMPParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .webp: ended = Self.drive(WebPParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .tiff: ended = Self.drive(TIFFParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .icon: ended = Self.drive(ICOParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .psd: ended = Self.drive(PSDParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .qoi: ended = Self.drive(QOIParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .dds: ended = Self.drive(DDSParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .ktx: ended = Self.drive(KTXParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .pcx: ended = Self.drive(PCXParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .sgi: ended = Self.drive(SGIParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .sun: ended = Self.drive(SunRasterParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .isobmff: ended = Self.drive(ISOBMFFParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .jxl: ended = Self.drive(JXLParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .jpeg2000: ended = Self.drive(JPEG2000Parser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .tga: ended = Self.drive(TGAParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .pnm: ended = Self.drive(PNMParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .svg: ended = Self.drive(SVGParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .icns: ended = Self.drive(ICNSParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .exr: ended = Self.drive(EXRParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .hdr: ended = Self.drive(RadianceParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .xbm: ended = Self.drive(XBMParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .eps: ended = Self.drive(EPSParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .xpm: ended = Self.drive(XPMParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .fits: ended = Self.drive(FITSParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .dcx: ended = Self.drive(DCXParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .msp: ended = Self.drive(MSPParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .blp: ended = Self.drive(BLPParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .pvr: ended = Self.drive(PVRParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .pkm: ended = Self.drive(PKMParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .astc: ended = Self.drive(ASTCParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .farbfeld: ended = Self.drive(FarbfeldParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .vtf: ended = Self.drive(VTFParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .ilbm: ended = Self.drive(ILBMParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .aseprite: ended = Self.drive(AsepriteParser.self, &slot, &reader, &input, options, &answer, &frames, onFrame)
            case .finished:
                return answer
            }
            guard ended else { return .needMore(neededCount) }
            slot.occupant = .finished
            return answer
        }
    }

    /// How the sniffer's first step ended.
    @usableFromInline
    enum FirstField {
        case handoff(Sniffer.Detected)
        case failed(ScanFailure)
        /// The sniffer reads on; its next step is set up.
        case running
        /// A step the sniffer never takes (done).
        case unreachable(ScanFailure)
    }

    /// The sniffer's first step, on the first two bytes of the first chunk: `parse`'s first
    /// phase, called directly.
    @inlinable @inline(__always)
    static func sniffFirstField(
        _ slot: inout ParserSlot, _ reader: inout FieldReader, _ input: inout InputCursor, _ options: ScanOptions
    ) -> FirstField? {
        let field = input.take(Sniffer.firstWidth)
        reader.fed = UInt64(Sniffer.firstWidth)
        return slot.withParser(Sniffer.self) { sniffer -> FirstField in
            // The first step of a fresh sniffer: its phase is `firstTwo`.
            let step = sniffer.firstTwo(field.u8(0), field.u8(1))
            switch step {
            case .handoff:
                return .handoff(sniffer.detected)
            case .read(let width) where width >= 1 && width <= 4:
                // The first step reads 1, 2 or 4 more bytes: no skip, well inside the carry.
                reader.width = width
                return .running
            case .read, .skipThenRead:
                if let failure = reader.apply(step) { return .failed(failure) }
                return .running
            case .failed(let failure):
                return .failed(failure)
            case .done:
                return .unreachable(Sniffer.unknown)
            }
        }
    }

    /// Runs the sniffer the slot holds, in place: how its run ended, and what it detected.
    @inlinable @inline(__always)
    static func sniff(
        _ slot: inout ParserSlot, _ reader: inout FieldReader, _ input: inout InputCursor, _ options: ScanOptions
    ) -> (RunResult, Sniffer.Detected)? {
        slot.withParser(Sniffer.self) { sniffer in
            (reader.run(&sniffer, &input, options), sniffer.detected)
        }
    }

    /// Runs the parser the slot holds, in place.
    @inlinable @inline(__always)
    static func drive<Parser: FormatParser>(
        _ type: Parser.Type, _ slot: inout ParserSlot, _ reader: inout FieldReader,
        _ input: inout InputCursor, _ options: ScanOptions, _ answer: inout ScanStatus,
        _ tally: inout FrameTally, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        let ended = slot.withParser(Parser.self) { parser in
            parser.drive(&reader, &input, options, &answer, &tally, onFrame)
        }
        guard let ended else {
            answer = .unsupported(missingParser)
            return true
        }
        return ended
    }

    /// What the parser in the slot knows when the input ends.
    @inlinable
    mutating func ending<Parser: FormatParser>(_ type: Parser.Type) -> (ImageInfo?, ImageFormat?) {
        guard let (info, format) = slot.withParser(Parser.self, { ($0.infoAtEndOfInput(), $0.format) }) else {
            return (nil, nil)
        }
        return (Parser.counted(info, frames, options), format)
    }

    /// Signals the end of the input and returns the final answer.
    ///
    /// A scan still waiting for bytes becomes `truncated`, unless the size is already known:
    /// then the answer is `done` with `ImageInfo.isPartial` set, because metadata that full
    /// mode was still looking for (an orientation after the image data, say) never came.
    public mutating func finish() -> ScanStatus {
        let partial: ImageInfo?
        let format: ImageFormat?
        switch slot.occupant {
        case .finished: return answer
        case .sniffer: (partial, format) = ending(Sniffer.self)
        case .jpeg: (partial, format) = ending(JPEGParser.self)
        case .png: (partial, format) = ending(PNGParser.self)
        case .gif: (partial, format) = ending(GIFParser.self)
        case .bmp: (partial, format) = ending(BMPParser.self)
        case .webp: (partial, format) = ending(WebPParser.self)
        case .tiff: (partial, format) = ending(TIFFParser.self)
        case .icon: (partial, format) = ending(ICOParser.self)
        case .psd: (partial, format) = ending(PSDParser.self)
        case .qoi: (partial, format) = ending(QOIParser.self)
        case .dds: (partial, format) = ending(DDSParser.self)
        case .ktx: (partial, format) = ending(KTXParser.self)
        case .pcx: (partial, format) = ending(PCXParser.self)
        case .sgi: (partial, format) = ending(SGIParser.self)
        case .sun: (partial, format) = ending(SunRasterParser.self)
        case .isobmff: (partial, format) = ending(ISOBMFFParser.self)
        case .jxl: (partial, format) = ending(JXLParser.self)
        case .jpeg2000: (partial, format) = ending(JPEG2000Parser.self)
        case .tga: (partial, format) = ending(TGAParser.self)
        case .pnm: (partial, format) = ending(PNMParser.self)
        case .svg: (partial, format) = ending(SVGParser.self)
        case .icns: (partial, format) = ending(ICNSParser.self)
        case .exr: (partial, format) = ending(EXRParser.self)
        case .hdr: (partial, format) = ending(RadianceParser.self)
        case .xbm: (partial, format) = ending(XBMParser.self)
        case .eps: (partial, format) = ending(EPSParser.self)
        case .xpm: (partial, format) = ending(XPMParser.self)
        case .fits: (partial, format) = ending(FITSParser.self)
        case .dcx: (partial, format) = ending(DCXParser.self)
        case .msp: (partial, format) = ending(MSPParser.self)
        case .blp: (partial, format) = ending(BLPParser.self)
        case .pvr: (partial, format) = ending(PVRParser.self)
        case .pkm: (partial, format) = ending(PKMParser.self)
        case .astc: (partial, format) = ending(ASTCParser.self)
        case .farbfeld: (partial, format) = ending(FarbfeldParser.self)
        case .vtf: (partial, format) = ending(VTFParser.self)
        case .ilbm: (partial, format) = ending(ILBMParser.self)
        case .aseprite: (partial, format) = ending(AsepriteParser.self)
        }
        conclude(partial, ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format))
        return answer
    }

    /// The current status without feeding anything.
    public var status: ScanStatus {
        if slot.occupant == .finished { return answer }
        return .needMore(neededCount)
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
        if slot.occupant == .finished { return 0 }
        return reader.skipRemaining
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
    static let missingParser = ScanFailure(.malformed, .internalRunningParserMissing)

    /// Starts the parser the sniffer detected, in the slot, and sets up its first step. A
    /// parser may fail before reading anything: that ends the scan.
    @inlinable
    mutating func start(_ detected: Sniffer.Detected) {
        let step: Step
        switch detected {
        case .undecided:
            conclude(nil, Sniffer.unknown)
            return
        case .jpeg: step = begin(JPEGParser())
        case .png: step = begin(PNGParser())
        case .gif: step = begin(GIFParser())
        case .bmp: step = begin(BMPParser())
        case .webp: step = begin(WebPParser())
        case .tiff(let bigEndian): step = begin(TIFFParser(bigEndian: bigEndian))
        case .icon(let cursor, let count): step = begin(ICOParser(isCursor: cursor, count: count))
        case .psd: step = begin(PSDParser())
        case .qoi: step = begin(QOIParser())
        case .dds: step = begin(DDSParser())
        case .ktx: step = begin(KTXParser())
        case .pcx: step = begin(PCXParser())
        case .sgi: step = begin(SGIParser())
        case .sun: step = begin(SunRasterParser())
        case .isobmff(let size): step = begin(ISOBMFFParser(firstBoxSize: size))
        case .jxlCodestream: step = begin(JXLParser(codestream: ()))
        case .jxlContainer(let size): step = begin(JXLParser(signatureBoxSize: size))
        case .j2kCodestream: step = begin(JPEG2000Parser(codestream: ()))
        case .jp2(let size): step = begin(JPEG2000Parser(signatureBoxSize: size))
        case .tga(let known): step = begin(TGAParser(known: known))
        case .pnm(let magic): step = begin(PNMParser(magic: magic))
        case .svg(let first, let second):
            let parser = SVGParser(first: first, second: second)
            // Bytes that can't open XML start no signature: on to the checks after two bytes.
            step = parser.rejectsItsFirstBytes ? begin(Sniffer(unknownPair: first, second)) : begin(parser)
        case .icns: step = begin(ICNSParser())
        case .exr: step = begin(EXRParser())
        case .hdr: step = begin(RadianceParser())
        case .xbm: step = begin(XBMParser())
        case .xbmAfterComment(let star): step = begin(XBMParser(afterCommentOpening: (), star: star))
        case .eps(let dos): step = begin(EPSParser(dos: dos))
        case .xpm: step = begin(XPMParser())
        case .xpm2: step = begin(XPMParser(xpm2: ()))
        case .fits: step = begin(FITSParser())
        case .dcx: step = begin(DCXParser())
        case .msp(let version2): step = begin(MSPParser(version2: version2))
        case .blp: step = begin(BLPParser())
        case .pvr(let bigEndian): step = begin(PVRParser(bigEndian: bigEndian))
        case .pvrLegacy: step = begin(PVRParser(legacy: ()))
        case .pkm: step = begin(PKMParser())
        case .astc: step = begin(ASTCParser())
        case .farbfeld: step = begin(FarbfeldParser())
        case .vtf: step = begin(VTFParser())
        case .iff: step = begin(ILBMParser())
        case .aseprite: step = begin(AsepriteParser())
        }
        switch step {
        case .read, .skipThenRead:
            if let failure = reader.apply(step) { conclude(nil, failure) }
        case .failed(let failure):
            conclude(nil, failure)
        case .done, .handoff:
            break
        }
    }

    /// Puts `parser` in the slot and returns its first step.
    @inlinable
    mutating func begin<Parser: FormatParser>(_ parser: Parser) -> Step {
        guard slot.store(parser) else { return .failed(Self.missingParser) }
        return parser.firstStep
    }

    /// `needMore`'s count: the rest of the current step, but never past the byte at which
    /// `maxBytes` stops the scan.
    @inlinable
    var neededCount: Int {
        let needed = min(reader.needed, reader.byteBudget(options))
        return Int(clamping: max(1, needed))
    }

    /// Ends the scan with `info`, made partial by `failure`, or with `failure` alone when no
    /// size is known.
    @inlinable
    mutating func conclude(_ info: ImageInfo?, _ failure: ScanFailure) {
        slot.occupant = .finished
        answer = ScanStatus.settled(info, failure, options)
    }
}
