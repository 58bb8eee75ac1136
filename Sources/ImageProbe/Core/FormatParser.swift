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
            #if IMAGEPROBE_COMPACT
            answer = ScanStatus.settled(Self.counted(info, tally, options), options)
            #else
            // The common answer is built once, straight into `answer`; one a limit may refuse
            // is built again out of line, so this path keeps no second copy of it.
            let counted = Self.counted(info, tally, options)
            if options.pixelLimit == UInt64.max
                && options.admits(width: UInt64(counted.facts.storedWidth), height: UInt64(counted.facts.storedHeight)) {
                answer = .done(counted)
            } else {
                answer = settledAgainstLimits(tally, options)
            }
            #endif
        case .failed(let failure):
            // Once the size is known, a later failure only ends the metadata search.
            answer = ScanStatus.settled(Self.counted(infoAtEndOfInput(), tally, options), failure, options)
        }
        return true
    }

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
