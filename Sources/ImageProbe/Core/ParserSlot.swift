/// What the slot holds: nothing yet (the sniffer is running), one of the parsers, or nothing
/// because the scan is over. This is the scanner's state.
@usableFromInline
enum SlotOccupant: Equatable, Sendable {
    /// Nothing: the sniffer (the scanner's own) is classifying the first bytes.
    case sniffer
    /// The parser of this kind, reading its format's header.
    case parser(ParserKind)
    /// The scan is over; the answer is the scanner's `answer`.
    case finished
}

/// The running parser, kept in place in the scanner and reached through a
/// pointer, so that its fields never move while it runs. `occupant` says which type the bytes
/// hold and is checked on every access, so the bytes are never read as a type they don't hold.
///
/// A typed enum of the parsers would be copied in and out whole on every `feed`; this storage
/// is written once when a parser starts, and each step works on it in place.
@usableFromInline
struct ParserSlot: Sendable {
    @usableFromInline var storage: ParserStorage
    @usableFromInline var occupant: SlotOccupant

    @inlinable
    init() {
        storage = ParserStorage()
        occupant = .sniffer
    }

    /// Whether a value of `Value` can live in the slot.
    static func fits<Value>(_ type: Value.Type) -> Bool { ParserStorage.fits(type) }

    /// Puts `parser` in the slot, replacing whatever it held. False when the type doesn't
    /// fit, which leaves the slot's occupant `finished`.
    mutating func store<Parser: FormatParser>(_ parser: Parser) -> Bool {
        guard storage.store(parser) else {
            occupant = .finished
            return false
        }
        occupant = .parser(Parser.kind)
        return true
    }

    /// Runs `body` on the parser the slot holds, in place; nil when it holds another.
    mutating func withParser<Parser: FormatParser, Result>(
        _ type: Parser.Type, _ body: (inout Parser) -> Result
    ) -> Result? {
        guard occupant == .parser(Parser.kind) else { return nil }
        return storage.withValue(Parser.self, body)
    }
}

extension ParserSlot {
    /// Puts `parser` in the slot and returns its first step (a failure when it can't live here).
    mutating func start<Parser: FormatParser>(_ parser: Parser) -> Step {
        guard store(parser) else { return .failed(HeaderScanner.missingParser) }
        return parser.firstStep
    }
}

/// Something done to the parser the slot holds, whatever its type: `ParserSlot.visit`
/// (generated) calls `visit` with the parser in place.
protocol SlotVisitor {
    associatedtype Result
    func visit<Parser: FormatParser>(_ parser: inout Parser) -> Result
    /// The result when the slot holds no parser (defensive: the engine visits only a running one).
    static var withoutParser: Result { get }
}
