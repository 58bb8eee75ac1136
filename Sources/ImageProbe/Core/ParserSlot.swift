/// A value that can live in the slot, and the occupant that says so.
@usableFromInline
protocol SlotResident {
    static var occupant: SlotOccupant { get }
}

/// Sixty-four bytes.
@usableFromInline
typealias Words8 = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

/// Fixed, untyped storage for the running parser, a value of a trivial type, kept in place in
/// the scanner: 256 bytes, which the largest parser (HEIF's, with its journal and its track)
/// fits. Above 256 bytes the compiler zeroes it with a `memset` call, which cost every probe
/// about 35 instructions more (measured at 312).
///
/// A typed enum of the parsers would be built as a template and copied whole each time the
/// scanner is created or its state switched on; this storage is zeroed in place (16 stores)
/// and each parser is reached through a pointer. `occupant` says which type the bytes hold,
/// and is checked on every access, so the bytes are never read as a type they don't hold.
@usableFromInline
struct ParserSlot: Sendable {
    @usableFromInline var words: (Words8, Words8, Words8, Words8)
    @usableFromInline var occupant: SlotOccupant

    // Initialized here rather than by default values: a default value is built by a separate
    // function and copied in, which costs more than these stores.
    @inlinable
    init() {
        let zero: Words8 = (0, 0, 0, 0, 0, 0, 0, 0)
        words = (zero, zero, zero, zero)
        occupant = .sniffer
    }

    /// Whether a value of `Value` can live in the slot: trivial, no larger, no more aligned.
    /// Constant after specialization; `SlotTests` checks every parser.
    @inlinable
    static func fits<Value>(_ type: Value.Type) -> Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<(Words8, Words8, Words8, Words8)>.size
            && MemoryLayout<Value>.alignment <= 8
    }

    /// Puts `parser` in the slot, replacing whatever it held. False when the type doesn't
    /// fit, which leaves the slot's bytes as they were and its occupant `finished`.
    @inlinable
    mutating func store<Parser: SlotResident>(_ parser: Parser) -> Bool {
        guard Self.fits(Parser.self) else {
            occupant = .finished
            return false
        }
        withUnsafeMutableBytes(of: &words) { storage in
            // SAFETY: `fits` checked that the storage is at least as large as Parser and
            // aligned for it (the tuple is 8-byte aligned); Parser is trivial, so overwriting
            // the bytes needs no deinitialization.
            storage.baseAddress.unsafelyUnwrapped.withMemoryRebound(to: Parser.self, capacity: 1) {
                $0.pointee = parser
            }
        }
        occupant = Parser.occupant
        return true
    }

    /// Runs `body` on the parser the slot holds, in place; nil when it holds another.
    @inlinable @inline(__always)
    mutating func withParser<Parser: SlotResident, Result>(
        _ type: Parser.Type, _ body: (inout Parser) -> Result
    ) -> Result? {
        guard occupant == Parser.occupant && Self.fits(Parser.self) else { return nil }
        return withUnsafeMutableBytes(of: &words) { storage in
            // SAFETY: the occupant matches, so the bytes were written by `store` as a Parser
            // (a trivial type that fits, checked there and again here); rebinding them to
            // Parser for the duration of `body` reads exactly what was stored, and the
            // pointer does not escape `body`.
            storage.baseAddress.unsafelyUnwrapped.withMemoryRebound(to: Parser.self, capacity: 1) {
                body(&$0.pointee)
            }
        }
    }
}
