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
    /// Start the parser the sniffer decided on, with what the sniffer read, and run it over
    /// the rest of the chunk.
    case start(Sniffed)
    /// Run it over the chunk.
    case run
    /// The input ended: settle what it knows.
    case end
}

extension HeaderScanner {
    /// Feeds a chunk to the sniffer and then to the parser it starts, until the chunk is used
    /// up or the scan ends: the body of `feed`. Returns whether the scan has ended; the answer
    /// is then `answer`, which the caller reads in place.
    @usableFromInline
    mutating func consume(_ bytes: UnsafeRawBufferPointer, _ onFrame: (FrameInfo) -> Void) -> Bool {
        var input = InputCursor(bytes)
        // Bytes beyond maxBytes are hidden from the parsers: the scan stops when it has
        // consumed maxBytes without an answer.
        input.clamp(to: reader.byteBudget(options))
        while true {
            switch slot.occupant {
            case .finished:
                return true
            case .sniffer:
                guard let decision = sniff(&input) else { return hasEnded }
                guard perform(.start(decision.sniffed), on: decision.kind, &input, onFrame) else { return false }
            case .parser(let kind):
                guard perform(.run, on: kind, &input, onFrame) else { return false }
            }
        }
    }

    /// Runs the sniffer over the chunk: the parser to start once it has decided, nil when it
    /// needs more input or the scan ended.
    mutating func sniff(_ input: inout InputCursor) -> Sniffer.Decision? {
        // The sniffer reports no frames: the tally is passed only to satisfy the loop.
        switch reader.run(&sniffer, &input, &carry, options, &frames, { _ in }) {
        case .done:
            if let decision = sniffer.decision { return decision }
            fail(Self.missingParser)  // defensive: `done` comes with a decision
        case .needMore:
            if reader.byteBudget(options) != 0 { return nil }
            fail(FieldReader.byteLimitFailure(nil))
        case .failed(let failure):
            fail(failure)
        }
        return nil
    }

    /// `operation` on the parser of type `Parser`. Returns whether the scan has ended.
    @inline(__always)  // into the registry's switch: one call from `consume` to the parser's run
    mutating func perform<Parser: FormatParser>(
        _ operation: ParserOperation, _ type: Parser.Type, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        switch operation {
        case .start(let sniffed):
            return start(Parser.self, sniffed) || run(Parser.self, &input, onFrame)
        case .run:
            return run(Parser.self, &input, onFrame)
        case .end:
            guard let (info, format) = slot.withParser(Parser.self, { ($0.infoAtEndOfInput(), $0.format) }) else {
                fail(ScanFailure(.truncated, .inputEndedInsideTheHeader))
                return true
            }
            let truncated = ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format)
            guard let info else {
                fail(truncated)
                return true
            }
            slot.occupant = .finished
            answer = ScanStatus.settled(info, truncated, frames, countsFrames: Parser.emitsFrames && options.animation, options)
            return true
        }
    }

    /// Puts the parser in the slot and sets up its first step. A parser may fail before
    /// reading anything: that ends the scan. Returns whether the scan has ended.
    mutating func start<Parser: FormatParser>(_ type: Parser.Type, _ sniffed: Sniffed) -> Bool {
        guard slot.store(Parser(sniffed: sniffed)), let step = slot.withParser(Parser.self, { $0.firstStep }) else {
            fail(Self.missingParser)
            return true
        }
        if case .failed(let failure) = step {
            fail(failure)
            return true
        }
        if let failure = reader.apply(step) {
            fail(failure)
            return true
        }
        return false
    }

    /// Runs the parser in the slot over the chunk. Returns whether the scan has ended.
    mutating func run<Parser: FormatParser>(
        _ type: Parser.Type, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        let options = self.options
        let ended = slot.withParser(Parser.self) { parser -> Bool in
            let failure: ScanFailure?
            switch reader.run(&parser, &input, &carry, options, &frames, onFrame) {
            case .needMore:
                // maxBytes consumed and still no answer: the byte limit ends the scan.
                guard reader.byteBudget(options) == 0 else { return false }
                failure = FieldReader.byteLimitFailure(parser.format)
            case .done:
                failure = nil
            case .failed(let reason):
                // Once the size is known, a later failure only ends the metadata search.
                failure = reason
            }
            let counts = Parser.emitsFrames && options.animation
            if failure == nil {
                answer = ScanStatus.settled(parser.info, nil, frames, countsFrames: counts, options)
            } else if let known = parser.infoAtEndOfInput() {
                answer = ScanStatus.settled(known, failure, frames, countsFrames: counts, options)
            } else {
                answer = .unsupported(failure ?? Self.missingParser)
            }
            return true
        }
        switch ended {
        case true?:
            slot.occupant = .finished
            return true
        case false?:
            return false
        case nil:
            fail(Self.missingParser)
            return true
        }
    }

    /// Ends the scan with `failure`, no size being known.
    mutating func fail(_ failure: ScanFailure) {
        slot.occupant = .finished
        answer = .unsupported(failure)
    }

    /// Ends the scan of a format this build leaves out (`IMAGEPROBE_SELECT_FORMATS`).
    mutating func concludeLeftOut(_ kind: ParserKind) -> Bool {
        fail(ScanFailure(.unsupportedFeature, .formatLeftOutOfThisBuild, format: kind.primaryFormat))
        return true
    }

    static let missingParser = ScanFailure(.malformed, .internalRunningParserMissing)
}
