// Every raw-memory access of the module lives in this file. Parsers never touch a pointer:
// they receive a `FieldBytes` whose length the driver guarantees, and read it through the
// accessors below. Each `unsafe` access carries the reason it stays in bounds.

/// A borrowed view of exactly the bytes one parser step asked for.
///
/// Valid only for the duration of the `parse` call it is passed to: it points either into the
/// caller's chunk or into the scanner's carry, and neither outlives that call.
@usableFromInline
struct FieldBytes {
    @usableFromInline let base: UnsafeRawPointer
    /// Exactly the width the parser requested (1...Carry.capacity).
    @usableFromInline let count: Int

    @inlinable
    init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    // SAFETY (all readers below): parsers request a field of `count` bytes and read it only at
    // constant offsets below that width; the assertion catches a parser that breaks this in
    // debug builds, tests and the fuzzer. `loadUnaligned` because fields start at any offset.

    @inlinable
    func u8(_ offset: Int) -> UInt8 {
        assert(offset >= 0 && offset < count, "field read out of bounds")
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    @inlinable
    func be16(_ offset: Int) -> UInt16 {
        assert(offset >= 0 && offset + 2 <= count, "field read out of bounds")
        return UInt16(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inlinable
    func le16(_ offset: Int) -> UInt16 {
        assert(offset >= 0 && offset + 2 <= count, "field read out of bounds")
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inlinable
    func be32(_ offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= count, "field read out of bounds")
        return UInt32(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inlinable
    func le32(_ offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= count, "field read out of bounds")
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inlinable
    func be64(_ offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "field read out of bounds")
        return UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inlinable
    func le64(_ offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "field read out of bounds")
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inlinable
    func u16(_ offset: Int, bigEndian: Bool) -> UInt16 {
        bigEndian ? be16(offset) : le16(offset)
    }

    @inlinable
    func u32(_ offset: Int, bigEndian: Bool) -> UInt32 {
        bigEndian ? be32(offset) : le32(offset)
    }

    @inlinable
    func u64(_ offset: Int, bigEndian: Bool) -> UInt64 {
        bigEndian ? be64(offset) : le64(offset)
    }

    /// Little-endian 24-bit integer (WebP VP8X canvas size).
    @inlinable
    func le24(_ offset: Int) -> UInt32 {
        UInt32(u8(offset)) | UInt32(u8(offset + 1)) << 8 | UInt32(u8(offset + 2)) << 16
    }

    /// Four bytes as a big-endian code, for comparing chunk and box types with `fourCC("IHDR")`.
    @inlinable
    func tag(_ offset: Int) -> UInt32 { be32(offset) }

    /// Whether the bytes at `offset` equal the ASCII text `literal`.
    @inlinable
    func matches(_ literal: StaticString, at offset: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        assert(offset >= 0 && offset + length <= count, "field read out of bounds")
        // SAFETY: `literal` is a compile-time string of `length` bytes; the field range was
        // asserted above on the same terms as the other readers.
        let text = UnsafeRawPointer(literal.utf8Start)
        var index = 0
        while index < length {
            if base.load(fromByteOffset: offset + index, as: UInt8.self)
                != text.load(fromByteOffset: index, as: UInt8.self)
            {
                return false
            }
            index += 1
        }
        return true
    }
}

/// The caller's chunk during one `feed` call: a read position that only moves forward.
@usableFromInline
struct InputCursor {
    @usableFromInline let base: UnsafeRawPointer?
    @usableFromInline var end: Int
    @usableFromInline var index: Int = 0

    @inlinable
    init(_ buffer: UnsafeRawBufferPointer) {
        self.base = buffer.baseAddress
        self.end = buffer.count
    }

    /// Hides every byte past the first `budget` remaining ones. Shrinking `end` only ever
    /// narrows the valid range.
    @inlinable
    mutating func clamp(to budget: UInt64) {
        if UInt64(remaining) > budget { end = index &+ Int(truncatingIfNeeded: budget) }
    }

    @inlinable
    var remaining: Int { end &- index }

    /// The next `count` bytes, in place. The caller checked `count <= remaining`.
    @inlinable
    mutating func take(_ count: Int) -> FieldBytes {
        assert(count > 0 && count <= remaining)
        // SAFETY: count <= remaining, so [index, index + count) lies inside the caller's
        // buffer; a non-empty buffer has a base address.
        let field = FieldBytes(base: base.unsafelyUnwrapped + index, count: count)
        index &+= count
        return field
    }

    /// Passes over up to `count` bytes without looking at them; returns how many.
    @inlinable
    mutating func skip(upTo count: UInt64) -> Int {
        let taken = count < UInt64(remaining) ? Int(truncatingIfNeeded: count) : remaining
        index &+= taken
        return taken
    }

    /// Copies `count` bytes (count <= remaining) to the end of the carry.
    @inlinable
    mutating func copy(_ count: Int, into carry: inout Carry) {
        assert(count > 0 && count <= remaining && Int(carry.count) + count <= Carry.capacity)
        let source = base.unsafelyUnwrapped + index
        let offset = Int(carry.count)
        withUnsafeMutableBytes(of: &carry.storage) { storage in
            // SAFETY: count <= remaining keeps the source inside the caller's buffer;
            // offset + count <= capacity (the field width limit, asserted here and checked by
            // the driver) keeps the destination inside the 64-byte storage.
            let destination = storage.baseAddress.unsafelyUnwrapped.advanced(by: offset)
            if count < 8 {
                // A few bytes (a chunk of one byte, say) cost less copied in line than through
                // a call to memcpy.
                var byte = 0
                while byte < count {
                    destination.storeBytes(of: source.load(fromByteOffset: byte, as: UInt8.self), toByteOffset: byte, as: UInt8.self)
                    byte &+= 1
                }
            } else {
                destination.copyMemory(from: source, byteCount: count)
            }
        }
        carry.count &+= UInt8(truncatingIfNeeded: count)
        index &+= count
    }
}

/// The fixed buffer that holds a field which straddles two chunks. Nothing else is ever kept.
@usableFromInline
struct Carry: Sendable {
    /// The widest field any parser may request.
    @usableFromInline static let capacity = 64

    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var count: UInt8 = 0

    @inlinable
    init() {}

    /// Runs `body` with the carried bytes as a field of `width` bytes (width == count).
    @inlinable
    mutating func withField<Result>(width: Int, _ body: (FieldBytes) -> Result) -> Result {
        assert(width == Int(count))
        return withUnsafeBytes(of: &storage) { storage in
            // SAFETY: the storage is 64 bytes and width <= capacity; the pointer does not
            // escape `body`, which is a parser's `parse` call.
            body(FieldBytes(base: storage.baseAddress.unsafelyUnwrapped, count: width))
        }
    }
}

/// A four-character code as the big-endian integer `FieldBytes.tag(_:)` returns.
@inlinable
func fourCC(_ text: StaticString) -> UInt32 {
    assert(text.utf8CodeUnitCount == 4)
    // SAFETY: a four-character code literal has exactly four bytes.
    let bytes = UnsafeRawPointer(text.utf8Start)
    return UInt32(bytes.load(fromByteOffset: 0, as: UInt8.self)) << 24
        | UInt32(bytes.load(fromByteOffset: 1, as: UInt8.self)) << 16
        | UInt32(bytes.load(fromByteOffset: 2, as: UInt8.self)) << 8
        | UInt32(bytes.load(fromByteOffset: 3, as: UInt8.self))
}

// MARK: - The parser slot: untyped storage that holds the running parser in place

/// What the slot holds: the sniffer, one of the parsers (`ParserKind`), or nothing because the
/// scan is over. This is the scanner's state: a parser's own fields never move while it runs,
/// because it is reached through the slot.
@usableFromInline
struct SlotOccupant: Equatable, Sendable {
    @usableFromInline var raw: UInt8

    @inlinable
    init(raw: UInt8) { self.raw = raw }

    @inlinable
    init(_ kind: ParserKind) { raw = kind.rawValue }

    /// The sniffer, classifying the first bytes.
    @inlinable
    static var sniffer: SlotOccupant { SlotOccupant(raw: 0xFE) }
    /// The scan is over; the answer is the scanner's `answer`.
    @inlinable
    static var finished: SlotOccupant { SlotOccupant(raw: 0xFF) }

    /// The parser, when the slot holds one.
    @inlinable @inline(__always)
    var parser: ParserKind? {
        guard raw < ParserKind.count else { return nil }
        // SAFETY: below the number of cases, a raw value is one of ParserKind's: its cases
        // are numbered from 0 without gaps (generated by Scripts/registry.py).
        return unsafeBitCast(raw, to: ParserKind.self)
    }
}

/// A value that can live in the slot, and the occupant that says so.
@usableFromInline
protocol SlotResident {
    static var occupant: SlotOccupant { get }
}

extension FormatParser {
    @inlinable
    static var occupant: SlotOccupant { SlotOccupant(kind) }
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

// MARK: - Record journal: a small byte log for parsers that must remember a few records

/// A fixed byte log of 120 bytes that a parser appends records to and reads back by offset,
/// for facts that come before the data saying which of them matter (HEIF's item properties
/// come before their associations). Numbers are stored as LEB128 varints, so typical records
/// take a few bytes. Every read is bounds-checked: past the end reads as 0. Reads are
/// mutating only so that they work on the journal in place, never on a copy.
@usableFromInline
struct RecordJournal: Sendable {
    @usableFromInline static var capacity: Int { 120 }
    @usableFromInline var storage: (Words8, (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64))
    /// Bytes written so far.
    @usableFromInline var count: UInt8

    @inlinable
    init() {
        storage = ((0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0))
        count = 0
    }

    /// The byte at `offset`, or 0 past the written bytes.
    @inlinable @inline(__always)
    mutating func byte(at offset: Int) -> UInt8 {
        guard offset >= 0 && offset < Int(count) else { return 0 }
        return withUnsafeMutableBytes(of: &storage) { bytes in
            // SAFETY: 0 <= offset < count <= capacity, the storage's size.
            bytes.load(fromByteOffset: offset, as: UInt8.self)
        }
    }

    /// Appends `byte`; false when the journal is full.
    @inlinable
    mutating func append(_ byte: UInt8) -> Bool {
        let offset = Int(count)
        guard offset < Self.capacity else { return false }
        withUnsafeMutableBytes(of: &storage) { bytes in
            // SAFETY: offset < capacity, the storage's size.
            bytes.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
        }
        count &+= 1
        return true
    }

    /// Overwrites the byte at `offset`, which must have been written.
    @inlinable
    mutating func set(_ byte: UInt8, at offset: Int) {
        guard offset >= 0 && offset < Int(count) else { return }
        withUnsafeMutableBytes(of: &storage) { bytes in
            // SAFETY: 0 <= offset < count <= capacity, the storage's size.
            bytes.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
        }
    }

    /// Appends `value` as an unsigned LEB128 varint (1 to 5 bytes); false when full.
    @inlinable
    mutating func appendVarint(_ value: UInt32) -> Bool {
        var rest = value
        while rest >= 0x80 {
            guard append(UInt8(truncatingIfNeeded: rest) | 0x80) else { return false }
            rest >>= 7
        }
        return append(UInt8(truncatingIfNeeded: rest))
    }

    /// The varints from `offset` on, decoded from a copy of the journal: for reads outside the
    /// parser's steps (building the answer), where the journal can't be reached in place.
    @inlinable
    func varints(from offset: Int, count: Int, _ body: (Int, UInt32) -> Void) {
        var copy = self
        var cursor = offset
        for index in 0..<count { body(index, copy.varint(at: &cursor)) }
    }

    /// The varint at `offset`, advancing `offset` past it. At most five bytes are read, so a
    /// damaged journal can't loop; past the end reads as 0.
    @inlinable @inline(__always)
    mutating func varint(at offset: inout Int) -> UInt32 {
        let first = byte(at: offset)
        offset &+= 1
        if first < 0x80 { return UInt32(first) }
        var value = UInt32(first & 0x7F)
        var shift: UInt32 = 7
        while shift < 35 {
            let byte = self.byte(at: offset)
            offset &+= 1
            value |= UInt32(truncatingIfNeeded: UInt64(byte & 0x7F) << UInt64(shift))
            if byte & 0x80 == 0 { break }
            shift &+= 7
        }
        return value
    }
}
