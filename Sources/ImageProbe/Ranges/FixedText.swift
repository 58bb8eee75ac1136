/// Bytes of text in fixed storage inside the planner: a URL, a header line, a validator. The
/// planner allocates nothing, so each holds at most its capacity; what would not fit is refused
/// by the caller (`append` says so), never cut. The bytes live in a `FixedBytes`, which does
/// the raw access.
struct FixedText<Storage: FixedStorage>: Sendable {
    private var storage = FixedBytes<Storage>()
    /// Bytes held, at most `capacity`.
    private(set) var count = 0

    static var capacity: Int { FixedBytes<Storage>.capacity }

    init() {}

    var isEmpty: Bool { count == 0 }

    mutating func removeAll() { count = 0 }

    /// Appends `bytes`; false (and nothing appended) when they would not fit.
    @discardableResult
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard storage.write(bytes, at: count) else { return false }
        count &+= bytes.count
        return true
    }

    /// Appends one byte; false when full.
    @discardableResult
    mutating func append(_ byte: UInt8) -> Bool {
        guard count < Self.capacity else { return false }
        storage[count] = byte
        count &+= 1
        return true
    }

    /// Appends a static string's bytes; false when they would not fit.
    @discardableResult
    mutating func append(_ text: StaticString) -> Bool { append(text.utf8Bytes) }

    /// Appends `value` in decimal; false (and nothing appended) when it would not fit.
    @discardableResult
    mutating func append(decimal value: UInt64) -> Bool {
        // `unit` is the place of the first digit: at most 10^19, as UInt64.max has 20 digits.
        var unit: UInt64 = 1
        var digits = 1
        while value / unit >= 10 {
            unit &*= 10
            digits &+= 1
        }
        guard digits <= Self.capacity &- count else { return false }
        var rest = value
        while unit > 0 {
            append(UInt8(truncatingIfNeeded: rest / unit) &+ 0x30)
            rest %= unit
            unit /= 10
        }
        return true
    }

    /// The bytes held, writable, for the duration of `body`.
    mutating func withMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        storage.withMutableBytes(count, body)
    }

    /// Drops bytes past `newCount`.
    mutating func truncate(to newCount: Int) { count = max(0, min(count, newCount)) }

    /// The bytes held, for the duration of `body`.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        storage.withBytes(count, body)
    }

    /// Replaces the contents with `other`'s (of any capacity); false when they would not fit.
    @discardableResult
    mutating func set<Other>(_ other: FixedText<Other>) -> Bool {
        removeAll()
        return other.withBytes { append($0) }
    }

    /// FNV-1a of the bytes.
    var hash: UInt64 { withBytes { ResponseFields.hash($0) } }
}

// The sizes, as `FixedStorage` (ByteCursor.swift).

typealias TextWords64 = (Words8, Words8, Words8, Words8, Words8, Words8, Words8, Words8)
private let zero8: Words8 = (0, 0, 0, 0, 0, 0, 0, 0)
private let zero64: TextWords64 = (zero8, zero8, zero8, zero8, zero8, zero8, zero8, zero8)

/// 16 bytes: an IP address being parsed.
struct Bytes16: FixedStorage {
    var words: (UInt64, UInt64)
    static var zero: Bytes16 { Bytes16(words: (0, 0)) }
}

/// 256 bytes: a validator (`ETag`, `Last-Modified`).
struct Bytes256: FixedStorage {
    var words: (Words8, Words8, Words8, Words8)
    static var zero: Bytes256 { Bytes256(words: (zero8, zero8, zero8, zero8)) }
}

/// 4 KiB: a URL.
struct Bytes4K: FixedStorage {
    var words: (TextWords64, TextWords64, TextWords64, TextWords64, TextWords64, TextWords64, TextWords64, TextWords64)
    static var zero: Bytes4K { Bytes4K(words: (zero64, zero64, zero64, zero64, zero64, zero64, zero64, zero64)) }
}

/// 8 KiB: one line of a response head.
struct Bytes8K: FixedStorage {
    var halves: (Bytes4K, Bytes4K)
    static var zero: Bytes8K { Bytes8K(halves: (Bytes4K.zero, Bytes4K.zero)) }
}

typealias ValidatorText = FixedText<Bytes256>
typealias URLText = FixedText<Bytes4K>
typealias LineText = FixedText<Bytes8K>
