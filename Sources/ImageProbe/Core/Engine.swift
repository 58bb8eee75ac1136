// The scanner's engine: how a chunk reaches the running parser, and how a parser's run ends
// the scan. The path of every byte, from `feed` to a format's grammar:
//
//   HeaderScanner.feed              (HeaderScanner.swift: the public entry)
//   → HeaderScanner.consume         (below: the sniffer first, then the parser it started)
//   → HeaderScanner.run(_:_:_:)     (Registry.generated.swift: one switch over the parsers)
//   → HeaderScanner.run<Parser>     (below: compiled for each parser)
//   → FieldReader.run               (FieldReader.swift: the one field loop)
//   → the parser's `parse`          (Formats/: the format's grammar)
//
// Everything else about the running parser (its start, its answer, its format) goes through
// the registry's other switches, `ParserSlot.start` and `ParserSlot.visit`, and is settled
// here once for every parser.

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
        if slot.occupant == .sniffer {
            guard let decision = sniff(&input) else { return hasEnded }
            guard start(decision) else { return true }
        }
        guard slot.occupant != .finished else { return true }
        return runParser(&input, onFrame)
    }

    /// Runs the sniffer over the chunk: the parser to start once it has decided, nil when it
    /// needs more input or the scan ended.
    @inline(__always)  // into `consume`, its one caller
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

    /// Puts the parser the sniffer decided on in the slot and sets up its first step. A parser
    /// may fail before reading anything. Returns whether the scan goes on.
    @inline(__always)  // into `consume`, its one caller
    mutating func start(_ decision: Sniffer.Decision) -> Bool {
        guard let step = slot.start(decision.kind, decision.sniffed) else {
            fail(ScanFailure(.unsupportedFeature, .formatLeftOutOfThisBuild, format: decision.kind.primaryFormat))
            return false
        }
        if case .failed(let failure) = step {
            fail(failure)
            return false
        }
        if let failure = reader.apply(step) {
            fail(failure)
            return false
        }
        return true
    }

    /// Runs the parser in the slot over the chunk. Returns whether the scan has ended.
    mutating func runParser(_ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void) -> Bool {
        guard case .parser(let kind) = slot.occupant else { return true }
        switch run(kind, &input, onFrame) {
        case .needMore?:
            // maxBytes consumed and still no answer: the byte limit ends the scan.
            guard reader.byteBudget(options) == 0 else { return false }
            conclude(FieldReader.byteLimitFailure(slot.visit(ParserFormat())))
        case .done?:
            conclude(nil)
        case .failed(let failure)?:
            // Once the size is known, a later failure only ends the metadata search.
            conclude(failure)
        case nil:
            fail(ScanFailure(.unsupportedFeature, .formatLeftOutOfThisBuild, format: kind.primaryFormat))
        }
        return true
    }

    /// The field loop over the parser in the slot, compiled for its type: one per parser.
    mutating func run<Parser: FormatParser>(
        _ type: Parser.Type, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void
    ) -> RunResult {
        let options = self.options
        return slot.withParser(Parser.self) { parser in
            reader.run(&parser, &input, &carry, options, &frames, onFrame)
        } ?? .failed(Self.missingParser)
    }

    /// The input ended: what the parser in the slot knows then.
    mutating func endParser() {
        let format = slot.visit(ParserFormat())
        conclude(ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format))
    }

    /// Ends the scan with the running parser's answer: complete when `failure` is nil, else
    /// what it knows, made partial by `failure` (the failure alone when no size is known).
    mutating func conclude(_ failure: ScanFailure?) {
        let info = slot.visit(ParserAnswer(complete: failure == nil))
        slot.occupant = .finished
        guard let info else {
            answer = .unsupported(failure ?? Self.missingParser)
            return
        }
        answer = ScanStatus.settled(info, failure, frames, countsFrames: options.animation && frames.frames > 0, options)
    }

    /// Ends the scan with `failure`, no size being known.
    mutating func fail(_ failure: ScanFailure) {
        slot.occupant = .finished
        answer = .unsupported(failure)
    }

    static let missingParser = ScanFailure(.malformed, .internalRunningParserMissing)
}

/// The running parser's answer: complete (`info`), or what it knows when its run ended early.
struct ParserAnswer: SlotVisitor {
    let complete: Bool

    static var withoutParser: ImageInfo? { nil }

    @inline(__always)
    func visit<Parser: FormatParser>(_ parser: inout Parser) -> ImageInfo? {
        complete ? parser.info : parser.infoAtEndOfInput()
    }
}

/// The running parser's format, once it knows it.
struct ParserFormat: SlotVisitor {
    static var withoutParser: ImageFormat? { nil }

    func visit<Parser: FormatParser>(_ parser: inout Parser) -> ImageFormat? { parser.format }
}
