// Every raw-memory access of the scanner lives in this file: the cursors over the caller's
// bytes, the carry, the parser slot's storage, the journal's bytes, and the range planner's
// fixed texts and address scratch (`FixedBytes`). Parsers never touch a
// pointer: they receive a `FieldBytes` whose length the field loop guarantees, and read it
// through the accessors below. Each unsafe access carries a SAFETY comment on why it stays in
// bounds.

/// A borrowed view of exactly the bytes one parser step asked for.
///
/// Valid only for the duration of the `parse` call it is passed to: it points either into the
/// caller's chunk or into the scanner's carry, and neither outlives that call.
struct FieldBytes {
    let base: UnsafeRawPointer
    /// Exactly the width the parser requested (1...Carry.capacity).
    let count: Int

    init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// `count` as a 64-bit offset increment (`offset &+ field.span` is where the field ends):
    /// exact, since `count` is 1...64, and without the sign test `UInt64(count)` costs each
    /// field.
    var span: UInt64 { UInt64(truncatingIfNeeded: count) }

    // SAFETY (all readers below): parsers request a field of `count` bytes and read it only at
    // constant offsets below that width; the assertion catches a parser that breaks this in
    // debug builds, tests and the fuzzer. `loadUnaligned` because fields start at any offset.

    func u8(_ offset: Int) -> UInt8 {
        assert(offset >= 0 && offset < count, "field read out of bounds")
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    func be16(_ offset: Int) -> UInt16 {
        assert(offset >= 0 && offset + 2 <= count, "field read out of bounds")
        return UInt16(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func le16(_ offset: Int) -> UInt16 {
        assert(offset >= 0 && offset + 2 <= count, "field read out of bounds")
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func be32(_ offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= count, "field read out of bounds")
        return UInt32(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func le32(_ offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= count, "field read out of bounds")
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func be64(_ offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "field read out of bounds")
        return UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    func le64(_ offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "field read out of bounds")
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    func u16(_ offset: Int, bigEndian: Bool) -> UInt16 {
        bigEndian ? be16(offset) : le16(offset)
    }

    func u32(_ offset: Int, bigEndian: Bool) -> UInt32 {
        bigEndian ? be32(offset) : le32(offset)
    }

    func u64(_ offset: Int, bigEndian: Bool) -> UInt64 {
        bigEndian ? be64(offset) : le64(offset)
    }

    /// Little-endian 24-bit integer (WebP VP8X canvas size).
    func le24(_ offset: Int) -> UInt32 {
        UInt32(u8(offset)) | UInt32(u8(offset + 1)) << 8 | UInt32(u8(offset + 2)) << 16
    }

    /// Four bytes as a big-endian code, for comparing chunk and box types with `fourCC("IHDR")`.
    func tag(_ offset: Int) -> UInt32 { be32(offset) }

    /// Whether the bytes at `offset` equal the ASCII text `literal`.
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
struct InputCursor {
    let base: UnsafeRawPointer?
    var end: Int
    var index: Int = 0

    init(_ buffer: UnsafeRawBufferPointer) {
        self.base = buffer.baseAddress
        self.end = buffer.count
    }

    /// Hides every byte past the first `budget` remaining ones. Shrinking `end` only ever
    /// narrows the valid range.
    mutating func clamp(to budget: UInt64) {
        if UInt64(truncatingIfNeeded: remaining) > budget { end = index &+ Int(truncatingIfNeeded: budget) }  // remaining >= 0
    }

    var remaining: Int { end &- index }

    /// The next `count` bytes, in place. The caller checked `count <= remaining`.
    mutating func take(_ count: Int) -> FieldBytes {
        assert(count > 0 && count <= remaining)
        // SAFETY: count <= remaining, so [index, index + count) lies inside the caller's
        // buffer; a non-empty buffer has a base address.
        let field = FieldBytes(base: base.unsafelyUnwrapped + index, count: count)
        index &+= count
        return field
    }

    /// Passes over up to `count` bytes without looking at them; returns how many.
    mutating func skip(upTo count: UInt64) -> Int {
        let taken = count < UInt64(truncatingIfNeeded: remaining) ? Int(truncatingIfNeeded: count) : remaining  // remaining >= 0
        index &+= taken
        return taken
    }

    /// Copies `count` bytes (count <= remaining) to `destination`.
    mutating func copy(_ count: Int, to destination: UnsafeMutableRawPointer) {
        assert(count > 0 && count <= remaining)
        // SAFETY: count <= remaining keeps the source inside the caller's buffer; the caller
        // (`Carry.Gathering`) checked the destination's room.
        let source = base.unsafelyUnwrapped + index
        if count < 8 {
            // A few bytes (a chunk of one byte, say) cost less copied in line than through a
            // call to memcpy.
            var byte = 0
            while byte < count {
                destination.storeBytes(of: source.load(fromByteOffset: byte, as: UInt8.self), toByteOffset: byte, as: UInt8.self)
                byte &+= 1
            }
        } else {
            destination.copyMemory(from: source, byteCount: count)
        }
        index &+= count
    }
}

/// The fixed buffer that holds a field which straddles two chunks. Nothing else is ever kept.
@usableFromInline
struct Carry: Sendable {
    /// The widest field any parser may request.
    static let capacity = 64

    @usableFromInline var storage: Words8
    /// How many bytes of the field being gathered it holds.
    @usableFromInline var count: UInt8

    @inlinable
    init() {
        storage = (0, 0, 0, 0, 0, 0, 0, 0)
        count = 0
    }

    /// The carry during one run of the field loop: its bytes through one pointer, so that a
    /// field is a `FieldBytes` whether it lies in the chunk or in the carry.
    struct Gathering {
        let bytes: UnsafeMutableRawPointer
        var count: Int

        /// Copies bytes of `input` into the carry until it holds `width`: then the gathered
        /// field (and the carry is empty again), else nil (the chunk is used up). `width` is
        /// 1...capacity and more than `count`. `copied` is how many bytes it took.
        mutating func gather(_ width: Int, from input: inout InputCursor, copied: inout Int) -> FieldBytes? {
            assert(width <= Carry.capacity && count < width)
            copied = min(width &- count, input.remaining)
            if copied > 0 {
                // SAFETY: count + copied <= width <= capacity, the storage's size.
                input.copy(copied, to: bytes + count)
            }
            count &+= copied
            guard count == width else { return nil }
            count = 0
            return FieldBytes(base: UnsafeRawPointer(bytes), count: width)
        }
    }

    /// Runs `body` with the carry's bytes reachable through one pointer, which does not
    /// escape `body`.
    mutating func gathering<Result>(_ body: (inout Gathering) -> Result) -> Result {
        var held = Int(count)
        let result = withUnsafeMutableBytes(of: &storage) { storage in
            // SAFETY: the 64-byte storage outlives `body`, and `Gathering` writes only below
            // its capacity.
            var gathering = Gathering(bytes: storage.baseAddress.unsafelyUnwrapped, count: held)
            let result = body(&gathering)
            held = gathering.count
            return result
        }
        count = UInt8(truncatingIfNeeded: held)
        return result
    }
}

/// Fixed, untyped storage for one value of a trivial type: the parser slot's. 256 bytes,
/// which the largest parser (HEIF's, with its journal and its track) fits; `SlotTests` checks
/// every parser.
@usableFromInline
struct ParserStorage: Sendable {
    @usableFromInline var words: (Words8, Words8, Words8, Words8)

    @inlinable
    init() {
        let zero: Words8 = (0, 0, 0, 0, 0, 0, 0, 0)
        words = (zero, zero, zero, zero)
    }

    /// Whether a value of `Value` can live here: trivial, no larger, no more aligned.
    static func fits<Value>(_ type: Value.Type) -> Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<(Words8, Words8, Words8, Words8)>.size
            && MemoryLayout<Value>.alignment <= 8
    }

    /// Writes `value` over the storage; false, writing nothing, when its type doesn't fit.
    mutating func store<Value>(_ value: Value) -> Bool {
        guard Self.fits(Value.self) else { return false }
        withUnsafeMutableBytes(of: &words) { storage in
            // SAFETY: `fits` checked that the storage is at least as large as Value and
            // aligned for it (the tuple is 8-byte aligned); Value is trivial, so overwriting
            // the bytes needs no deinitialization.
            storage.baseAddress.unsafelyUnwrapped.withMemoryRebound(to: Value.self, capacity: 1) {
                $0.pointee = value
            }
        }
        return true
    }

    /// Runs `body` on the stored value, in place. The caller knows the storage holds a
    /// `Value` (the slot's occupant says so); nil when the type can't fit.
    mutating func withValue<Value, Result>(_ type: Value.Type, _ body: (inout Value) -> Result) -> Result? {
        guard Self.fits(Value.self) else { return nil }
        return withUnsafeMutableBytes(of: &words) { storage in
            // SAFETY: the caller checked that the bytes were written by `store` as a Value (a
            // trivial type that fits, checked there and again here); rebinding them for the
            // duration of `body` reads exactly what was stored, and the pointer does not
            // escape `body`.
            storage.baseAddress.unsafelyUnwrapped.withMemoryRebound(to: Value.self, capacity: 1) {
                body(&$0.pointee)
            }
        }
    }
}

/// Sixty-four bytes.
@usableFromInline
typealias Words8 = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

/// 120 bytes, read and written by offset: `RecordJournal`'s storage. In 4-byte words, so that
/// a parser holding it needs no 8-byte alignment.
struct JournalBytes: Sendable {
    static var capacity: Int { 120 }
    private var words: (Words15, Words15)

    init() {
        let zero: Words15 = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        words = (zero, zero)
    }

    /// The byte at `offset`; 0 outside the storage.
    subscript(offset: Int) -> UInt8 {
        mutating get {
            guard offset >= 0 && offset < Self.capacity else { return 0 }
            // SAFETY: 0 <= offset < capacity, the storage's size.
            return withUnsafeMutableBytes(of: &words) { $0.load(fromByteOffset: offset, as: UInt8.self) }
        }
        set {
            guard offset >= 0 && offset < Self.capacity else { return }
            // SAFETY: as in `get`.
            withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: newValue, toByteOffset: offset, as: UInt8.self) }
        }
    }
}

/// Sixty bytes.
typealias Words15 = (
    UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
)

extension StaticString {
    /// The literal's UTF-8, in static memory: what the C interface copies without a String.
    package var utf8Bytes: UnsafeRawBufferPointer {
        // SAFETY: a StaticString's bytes are immortal, utf8CodeUnitCount of them.
        UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
    }
}

/// A four-character code as the big-endian integer `FieldBytes.tag(_:)` returns.
func fourCC(_ text: StaticString) -> UInt32 {
    assert(text.utf8CodeUnitCount == 4)
    // SAFETY: a four-character code literal has exactly four bytes.
    let bytes = UnsafeRawPointer(text.utf8Start)
    return UInt32(bytes.load(fromByteOffset: 0, as: UInt8.self)) << 24
        | UInt32(bytes.load(fromByteOffset: 1, as: UInt8.self)) << 16
        | UInt32(bytes.load(fromByteOffset: 2, as: UInt8.self)) << 8
        | UInt32(bytes.load(fromByteOffset: 3, as: UInt8.self))
}

/// A 256-byte stack buffer that stages bytes from a sequence that isn't contiguous, so that
/// `HeaderScanner.feed(contentsOf:)` can feed them as a chunk.
struct StagingBuffer {
    let storage: UnsafeMutableBufferPointer<UInt8>

    init(_ storage: UnsafeMutableBufferPointer<UInt8>) { self.storage = storage }

    /// Runs `body` with a buffer on the stack, valid only during the call.
    static func with<Result>(_ body: (inout StagingBuffer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { storage in
            var staging = StagingBuffer(storage)
            return body(&staging)
        }
    }

    /// Copies up to `wanted` bytes (at most the buffer's size) from `iterator` to the buffer's
    /// start; returns how many it copied.
    mutating func fill<Bytes: IteratorProtocol>(from iterator: inout Bytes, upTo wanted: Int) -> Int
    where Bytes.Element == UInt8 {
        let limit = min(wanted, storage.count)
        var filled = 0
        while filled < limit, let byte = iterator.next() {
            // SAFETY: 0 <= filled < limit <= storage.count, and release builds don't check an
            // unsafe buffer's subscript.
            storage[filled] = byte
            filled += 1
        }
        return filled
    }

    /// The first `count` bytes (0...the buffer's size), for the duration of the buffer.
    func bytes(_ count: Int) -> UnsafeRawBufferPointer {
        let count = max(0, min(count, storage.count))
        // SAFETY: 0 <= count <= storage.count, so the slice lies in the allocation, which
        // outlives every use `with`'s body makes of it.
        return UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: storage[0..<count]))
    }
}

/// Zeroed fixed storage of one size: a homogeneous tuple of words, so its bytes are contiguous.
protocol FixedStorage: Sendable {
    static var zero: Self { get }
}

/// Bytes held in a value, read and written by offset within its size: the range planner's text
/// buffers (`FixedText`) and its address scratch. Every access is checked against the storage
/// here, so its users hold no pointer beyond the closures it runs.
struct FixedBytes<Storage: FixedStorage>: Sendable {
    private var storage = Storage.zero

    static var capacity: Int { MemoryLayout<Storage>.size }

    init() {}

    /// Writes `bytes` at `offset`; false, writing nothing, when they would not fit.
    mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard offset >= 0, offset <= Self.capacity, bytes.count <= Self.capacity &- offset else { return false }
        guard bytes.count > 0, let source = bytes.baseAddress else { return true }
        withUnsafeMutableBytes(of: &storage) { target in
            // SAFETY: 0 <= offset and offset + bytes.count <= capacity, the storage's size.
            (target.baseAddress.unsafelyUnwrapped + offset).copyMemory(from: source, byteCount: bytes.count)
        }
        return true
    }

    /// The byte at `offset`; 0 outside the storage, where a write does nothing.
    subscript(offset: Int) -> UInt8 {
        get {
            guard offset >= 0 && offset < Self.capacity else { return 0 }
            // SAFETY: 0 <= offset < capacity, the storage's size.
            return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: offset, as: UInt8.self) }
        }
        set {
            guard offset >= 0 && offset < Self.capacity else { return }
            // SAFETY: as in `get`.
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: offset, as: UInt8.self) }
        }
    }

    /// The first `count` bytes (at most the storage's), for the duration of `body`.
    func withBytes<Result>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let count = max(0, min(count, Self.capacity))
        // SAFETY: 0 <= count <= capacity, and the pointer doesn't escape `body`.
        return withUnsafeBytes(of: storage) { all in body(UnsafeRawBufferPointer(start: all.baseAddress, count: count)) }
    }

    /// The first `count` bytes (at most the storage's), writable, for the duration of `body`.
    mutating func withMutableBytes<Result>(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        let count = max(0, min(count, Self.capacity))
        // SAFETY: as in `withBytes`.
        return withUnsafeMutableBytes(of: &storage) { all in body(UnsafeMutableRawBufferPointer(start: all.baseAddress, count: count)) }
    }
}
