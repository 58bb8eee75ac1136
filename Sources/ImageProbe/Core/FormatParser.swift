/// What the field loop drives: an explicit state machine fed one requested field at a time.
/// Every format's parser is one, and so is the sniffer, which only classifies.
@usableFromInline
protocol FieldConsumer {
    /// Consumes the field requested by the previous step. `offset` is the field's position in
    /// the input.
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step

    /// The first step.
    var firstStep: Step { get }

    /// Whether the consumer reports animation frames (animation mode): false by default,
    /// which takes the frame hook out of the other field loops at compile time.
    static var emitsFrames: Bool { get }

    /// The next frame read and not yet reported; called after every step until nil.
    mutating func takeFrame() -> PendingFrames?
}

extension FieldConsumer {
    @inlinable
    static var emitsFrames: Bool { false }

    @inlinable @inline(__always)
    mutating func takeFrame() -> PendingFrames? { nil }
}

/// One format's header parser. A format file opens with its grammar: the defaults below cover
/// the rest for parsers that keep their answer in `facts`.
@usableFromInline
protocol FormatParser: FieldConsumer, SlotResident {
    /// Why its input can't be read, each reason with its message, declared in the parser's
    /// file (`CommonFailure` for a parser with none of its own).
    associatedtype Failure: FailureReason = CommonFailure

    /// The parser, started on what the sniffer found (SPEC.md §3, "Identification").
    init(sniffed: Sniffed)

    /// Which parser this is (the registry's `ParserKind`, generated).
    static var kind: ParserKind { get }

    /// The facts found so far.
    var facts: ImageFacts { get }

    /// The answer, valid once `parse` has returned `.done`. Default: `facts`.
    var info: ImageInfo { get }

    /// What `finish()` reports when the input ends early: the info if the size is known,
    /// otherwise nil (a `truncated` failure). Default: nil.
    func infoAtEndOfInput() -> ImageInfo?

    /// The format, once identified; named in `truncated` failures. Default: `facts.format`.
    var format: ImageFormat? { get }
}

extension FormatParser {
    @inlinable
    var info: ImageInfo { ImageInfo(facts) }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    var format: ImageFormat? { facts.format }
}

#if IMAGEPROBE_COMPACT
extension FormatParser {
    /// Runs the field loop over `input`, as below, with the loop compiled once
    /// (`FieldReader.runSteps`) and the answer settled by one function for every format:
    /// what stays per format is its step and the reading of its answer.
    @inlinable @inline(never)
    mutating func drive(
        _ reader: inout FieldReader, _ input: inout InputCursor, _ options: ScanOptions, _ answer: inout ScanStatus,
        _ tally: inout FrameTally, _ onFrame: (FrameInfo) -> Void
    ) -> Bool {
        // Frames a step read are reported as soon as it ends, whatever the chunking.
        let result = reader.runSteps(
            &input, walksFrames: Self.emitsFrames && options.animation,
            { field, offset in self.parse(field, at: offset, options: options) },
            { Self.emitsFrames ? FieldReader.reportFrames(&self, &tally, options, onFrame) : nil })
        // maxBytes consumed and still no answer: the byte limit ends the scan.
        if case .needMore = result, reader.byteBudget(options) != 0 { return false }
        answer = settle(result, tally, options)
        return true
    }

    /// The answer once a run has ended (`result`), or when the input ended (nil): the one
    /// function per format that reads its answer, for `drive` and `Ending`.
    /// (`mutating` only so that the parser is passed in place, not copied.)
    @inlinable @inline(never)
    mutating func settle(_ result: RunResult?, _ tally: FrameTally, _ options: ScanOptions) -> ScanStatus {
        let info: ImageInfo?
        if case .done? = result { info = self.info } else { info = infoAtEndOfInput() }
        return ScanStatus.settled(result, info, format, Self.emitsFrames, tally, options)
    }
}
#else
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
            // The common answer is built once, straight into `answer`; one a limit may refuse
            // is built again out of line, so this path keeps no second copy of it.
            let counted = Self.counted(info, tally, options)
            if options.pixelLimit == UInt64.max
                && options.admits(width: UInt64(counted.facts.storedWidth), height: UInt64(counted.facts.storedHeight)) {
                answer = .done(counted)
            } else {
                answer = settledAgainstLimits(tally, options)
            }
        case .failed(let failure):
            // Once the size is known, a later failure only ends the metadata search.
            answer = ScanStatus.settled(Self.counted(infoAtEndOfInput(), tally, options), failure, options)
        }
        return true
    }

}
#endif

extension FormatParser {
    /// The answer when `maxPixels` is set or a size may be beyond the limits (`drive`).
    @inlinable @inline(never)
    func settledAgainstLimits(_ tally: FrameTally, _ options: ScanOptions) -> ScanStatus {
        ScanStatus.settled(Self.counted(info, tally, options), options)
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

#if IMAGEPROBE_COMPACT
extension ScanStatus {
    /// `settle`'s answer, for every format: `info` is the parser's answer (`done`) or what it
    /// knows so far, counted in animation mode by parsers that walk frames; a nil `result` is
    /// the end of the input.
    @usableFromInline @inline(never)
    static func settled(
        _ result: RunResult?, _ info: ImageInfo?, _ format: ImageFormat?, _ emitsFrames: Bool, _ tally: FrameTally,
        _ options: ScanOptions
    ) -> ScanStatus {
        var info = info
        if emitsFrames && options.animation, var counted = info {
            tally.apply(to: &counted)
            info = counted
        }
        switch result {
        case .needMore?:
            return settled(info, FieldReader.byteLimitFailure(format), options)
        case .done?:
            guard let info else { return .unsupported(HeaderScanner.missingParser) }  // defensive: done has an answer
            return settled(info, options)
        case .failed(let failure)?:
            return settled(info, failure, options)
        case nil:
            return settled(info, ScanFailure(.truncated, .inputEndedInsideTheHeader, format: format), options)
        }
    }
}
#endif
