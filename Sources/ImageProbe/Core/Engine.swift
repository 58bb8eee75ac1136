// The scanner's engine: how a chunk reaches the running parser, and how a parser's run ends
// the scan. The path of every byte, from `feed` to a format's grammar:
//
//   HeaderScanner.feed                 (HeaderScanner.swift, the public entry)
//   → HeaderScanner.consume            (below: the sniffer, then the parser it starts)
//   → HeaderScanner.perform(_:on:)     (Registry.generated.swift: one switch over parsers)
//   → HeaderScanner.run(_:)            (below, compiled for each parser)
//   → FieldReader.run                  (FieldReader.swift: the one field loop)
//   → the parser's `parse`             (Formats/: the format's grammar)

/// What the engine does with the running parser, through the registry's switch.
enum ParserOperation {
    /// Start the parser the sniffer decided on, with what the sniffer read.
    case start(Sniffed)
    /// Run it over the chunk.
    case run
    /// The input ended: settle what it knows.
    case end
}

extension HeaderScanner {
    /// Feeds a chunk to the sniffer and then to the parser it starts, until the chunk is used
    /// up or the scan ends: the body of `feed`.
    @usableFromInline
    mutating func consume(_ bytes: UnsafeRawBufferPointer, _ onFrame: (FrameInfo) -> Void) -> ScanStatus {
        var input = InputCursor(bytes)
        // Bytes beyond maxBytes are hidden from the parsers: the scan stops when it has
        // consumed maxBytes without an answer.
        input.clamp(to: reader.byteBudget(options))
        while true {
            switch slot.occupant {
            case .finished:
                return answer
            case .sniffer:
                guard let decision = sniff(&input) else { return status }
                _ = perform(.start(decision.sniffed), on: decision.kind, &input, onFrame)
            case .parser(let kind):
                guard perform(.run, on: kind, &input, onFrame) else { return status }
            }
        }
    }

    /// Runs the sniffer over the chunk: the parser to start once it has decided, nil when it
    /// needs more input or the scan ended.
    mutating func sniff(_ input: inout InputCursor) -> Sniffer.Decision? {
        let options = self.options
        var noFrames = FrameTally()
        let result = slot.withParser(Sniffer.self) { sniffer in
            reader.run(&sniffer, &input, options, &noFrames) { _ in }
        }
        switch result {
        case .done?:
            if let decision = slot.withParser(Sniffer.self, { $0.decision }) { return decision }
            conclude(nil, Self.missingParser)
        case .needMore?:
            if reader.byteBudget(options) != 0 { return nil }
            conclude(nil, FieldReader.byteLimitFailure(nil))
        case .failed(let failure)?:
            conclude(nil, failure)
        case nil:
            conclude(nil, Self.missingParser)
        }
        return nil
    }

    /// `operation` on the parser of type `Parser`. Returns whether the scan has ended.
    mutating func perform<Parser: FormatParser>(
        _ operation: ParserOperation, _ type: Parser.Type, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        switch operation {
        case .start(let sniffed):
            return start(Parser(sniffed: sniffed))
        case .run:
            return run(Parser.self, &input, onFrame)
        case .end:
            guard let (info, format) = slot.withParser(Parser.self, { ($0.infoAtEndOfInput(), $0.format) }) else {
                conclude(nil, ScanFailure(.truncated, .inputEndedInsideTheHeader))
                return true
            }
            conclude(counted(Parser.self, info), ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format))
            return true
        }
    }

    /// Puts `parser` in the slot, where the sniffer was, and sets up its first step. A parser
    /// may fail before reading anything: that ends the scan.
    mutating func start<Parser: FormatParser>(_ parser: Parser) -> Bool {
        guard slot.store(parser) else {
            conclude(nil, Self.missingParser)
            return true
        }
        let step = parser.firstStep
        if case .failed(let failure) = step {
            conclude(nil, failure)
            return true
        }
        if let failure = reader.apply(step) {
            conclude(nil, failure)
            return true
        }
        return false
    }

    /// Runs the parser in the slot over the chunk. Returns whether the scan has ended.
    mutating func run<Parser: FormatParser>(
        _ type: Parser.Type, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        let options = self.options
        let ended = slot.withParser(Parser.self) { parser -> (ImageInfo?, ScanFailure?)? in
            switch reader.run(&parser, &input, options, &frames, onFrame) {
            case .needMore:
                // maxBytes consumed and still no answer: the byte limit ends the scan.
                guard reader.byteBudget(options) == 0 else { return nil }
                return (parser.infoAtEndOfInput(), FieldReader.byteLimitFailure(parser.format))
            case .done:
                return (parser.info, nil)
            case .failed(let failure):
                // Once the size is known, a later failure only ends the metadata search.
                return (parser.infoAtEndOfInput(), failure)
            }
        }
        guard let ended else {
            conclude(nil, Self.missingParser)
            return true
        }
        guard let (info, failure) = ended else { return false }
        conclude(counted(Parser.self, info), failure)
        return true
    }

    /// `info` with what animation mode counted, for parsers that walk frames.
    func counted<Parser: FormatParser>(_ type: Parser.Type, _ info: ImageInfo?) -> ImageInfo? {
        guard Parser.emitsFrames && options.animation, var info else { return info }
        frames.apply(to: &info)
        return info
    }

    /// Ends the scan: with `info` (complete when `failure` is nil, else partial), or with
    /// `failure` alone when no size is known.
    mutating func conclude(_ info: ImageInfo?, _ failure: ScanFailure?) {
        slot.occupant = .finished
        answer = ScanStatus.settled(info, failure, options)
    }

    /// Ends the scan of a format this build leaves out (`IMAGEPROBE_SELECT_FORMATS`).
    mutating func concludeLeftOut(_ kind: ParserKind) -> Bool {
        conclude(nil, ScanFailure(.unsupportedFeature, .formatLeftOutOfThisBuild, format: kind.primaryFormat))
        return true
    }

    static let missingParser = ScanFailure(.malformed, .internalRunningParserMissing)
}
