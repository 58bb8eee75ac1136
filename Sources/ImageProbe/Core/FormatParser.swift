/// What the field loop drives: an explicit state machine fed one requested field at a time.
/// Every format's parser is one, and so is the sniffer, which only classifies.
protocol FieldConsumer {
    /// Consumes the field requested by the previous step. `offset` is the field's position in
    /// the input.
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step

    /// Whether the consumer reports animation frames (animation mode): false by default,
    /// which takes the frame hook out of the other field loops at compile time.
    static var emitsFrames: Bool { get }

    /// The next frame read and not yet reported; called after every step until nil.
    mutating func takeFrame() -> PendingFrames?
}

extension FieldConsumer {
    static var emitsFrames: Bool { false }

    mutating func takeFrame() -> PendingFrames? { nil }
}

/// One format's header parser. A format file opens with its grammar: the defaults below cover
/// the rest for parsers that keep their answer in `facts`.
protocol FormatParser: FieldConsumer {
    /// Why its input can't be read, each reason with its message, declared in the parser's
    /// file (`CommonFailure` for a parser with none of its own).
    associatedtype Failure: FailureReason = CommonFailure

    /// The parser, started on what the sniffer found (SPEC.md §3, "Identification").
    init(sniffed: Sniffed)

    /// The first step.
    var firstStep: Step { get }

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
    var info: ImageInfo { ImageInfo(facts) }

    func infoAtEndOfInput() -> ImageInfo? { nil }

    var format: ImageFormat? { facts.format }
}

/// A question about a parser's type, answered by a generic function: `ParserKind.visit`
/// (generated) calls `visit` with the type of the kind's parser.
protocol ParserVisitor {
    associatedtype Result
    func visit<Parser: FormatParser>(_ type: Parser.Type) -> Result
}
