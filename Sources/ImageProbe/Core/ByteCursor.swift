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

    /// `count` as a 64-bit offset increment (`offset &+ field.span` is where the field ends):
    /// exact, since `count` is 1...64, and without the sign test `UInt64(count)` costs each
    /// field.
    @inlinable
    var span: UInt64 { UInt64(truncatingIfNeeded: count) }

    // SAFETY (all readers below): parsers request a field of `count` bytes and read it only at
    // constant offsets below that width; the assertion catches a parser that breaks this in
    // debug builds, tests and the fuzzer. `loadUnaligned` because fields start at any offset.
    //
    // In a size-optimised build (`IMAGEPROBE_COMPACT`, the WebAssembly module) the big-endian
    // and either-order readers are calls: WebAssembly has no byte swap, so each read inline was
    // about 25 bytes of shifts and masks (882 bytes less gzipped in the full module).

    @inlinable
    func u8(_ offset: Int) -> UInt8 {
        assert(offset >= 0 && offset < count, "field read out of bounds")
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    func be16(_ offset: Int) -> UInt16 {
        assert(offset >= 0 && offset + 2 <= count, "field read out of bounds")
        return UInt16(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inlinable
    func le16(_ offset: Int) -> UInt16 {
        assert(offset >= 0 && offset + 2 <= count, "field read out of bounds")
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    func be32(_ offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= count, "field read out of bounds")
        return UInt32(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inlinable
    func le32(_ offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= count, "field read out of bounds")
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    func be64(_ offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "field read out of bounds")
        return UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inlinable
    func le64(_ offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "field read out of bounds")
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    func u16(_ offset: Int, bigEndian: Bool) -> UInt16 {
        bigEndian ? be16(offset) : le16(offset)
    }

    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    func u32(_ offset: Int, bigEndian: Bool) -> UInt32 {
        bigEndian ? be32(offset) : le32(offset)
    }

    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
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
        if UInt64(truncatingIfNeeded: remaining) > budget { end = index &+ Int(truncatingIfNeeded: budget) }  // remaining >= 0
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
        let taken = count < UInt64(truncatingIfNeeded: remaining) ? Int(truncatingIfNeeded: count) : remaining  // remaining >= 0
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

/// Lines of text in one static string, a generated table (`ScanFailure.messageTable`): one is
/// read as UTF-8 in place, in static memory, with no String built (the C interface's copies).
@usableFromInline
struct StaticLines {
    @usableFromInline let text: StaticString

    @inlinable
    init(_ text: StaticString) { self.text = text }

    /// The UTF-8 of line `index` (0 is the first), without its line break; empty past the last.
    /// Valid for the program's lifetime.
    @usableFromInline
    func line(_ index: Int) -> UnsafeRawBufferPointer {
        // SAFETY: a StaticString's bytes are immortal, and every read below is at an offset
        // under utf8CodeUnitCount.
        let bytes = UnsafeRawPointer(text.utf8Start)
        let count = text.utf8CodeUnitCount
        var start = 0
        var skipped = 0
        var offset = 0
        while offset <= count {
            if offset == count || bytes.load(fromByteOffset: offset, as: UInt8.self) == 0x0A {
                if skipped == index { return UnsafeRawBufferPointer(start: bytes + start, count: offset &- start) }
                skipped &+= 1
                start = offset &+ 1
            }
            offset &+= 1
        }
        return UnsafeRawBufferPointer(start: nil, count: 0)
    }
}

extension StaticString {
    /// The literal's UTF-8, in static memory: what the C interface copies without a String.
    package var utf8Bytes: UnsafeRawBufferPointer {
        // SAFETY: a StaticString's bytes are immortal, utf8CodeUnitCount of them.
        UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
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

/// A 256-byte stack buffer that stages bytes from a sequence that isn't contiguous, so that
/// `HeaderScanner.feed(contentsOf:)` can feed them as a chunk.
@usableFromInline
struct StagingBuffer {
    @usableFromInline let storage: UnsafeMutableBufferPointer<UInt8>

    @inlinable
    init(_ storage: UnsafeMutableBufferPointer<UInt8>) { self.storage = storage }

    /// Runs `body` with a buffer on the stack, valid only during the call.
    @inlinable
    static func with<Result>(_ body: (inout StagingBuffer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { storage in
            var staging = StagingBuffer(storage)
            return body(&staging)
        }
    }

    /// Copies up to `wanted` bytes (at most the buffer's size) from `iterator` to the buffer's
    /// start; returns how many it copied.
    @inlinable
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
    @inlinable
    func bytes(_ count: Int) -> UnsafeRawBufferPointer {
        let count = max(0, min(count, storage.count))
        // SAFETY: 0 <= count <= storage.count, so the slice lies in the allocation, which
        // outlives every use `with`'s body makes of it.
        return UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: storage[0..<count]))
    }
}


/// Sixteen 64-bit words in fixed storage, read and written by index through one pointer rather
/// than a case per element (the range planner's visited URLs). An index past the last reads and
/// writes the last word.
struct WordTable: Sendable {
    static let count = 16
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// The byte offset of word `index`, clamped to the last word.
    private static func offset(_ index: Int) -> Int {
        (index >= 0 && index < count ? index : count &- 1) &* 8
    }

    subscript(index: Int) -> UInt64 {
        get {
            // SAFETY: a homogeneous tuple of `count` words; the offset is that of one of them.
            withUnsafeBytes(of: words) { $0.load(fromByteOffset: Self.offset(index), as: UInt64.self) }
        }
        set {
            // SAFETY: as in `get`.
            withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: newValue, toByteOffset: Self.offset(index), as: UInt64.self) }
        }
    }
}
