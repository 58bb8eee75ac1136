/// Bytes of text in fixed storage inside the planner: a URL, a header line, a validator. The
/// planner allocates nothing, so each holds at most its capacity; what would not fit is refused
/// by the caller (`append` says so), never cut.
struct FixedText<Storage: FixedStorage>: Sendable {
    private var storage = Storage.zero
    /// Bytes held, at most `capacity`.
    private(set) var count = 0

    static var capacity: Int { MemoryLayout<Storage>.size }

    init() {}

    var isEmpty: Bool { count == 0 }

    mutating func removeAll() { count = 0 }

    /// Appends `bytes`; false (and nothing appended) when they would not fit.
    @discardableResult
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= Self.capacity &- count else { return false }
        guard bytes.count > 0, let source = bytes.baseAddress else { return true }
        let at = count
        withUnsafeMutableBytes(of: &storage) { target in
            // SAFETY: at + bytes.count <= capacity, checked above.
            (target.baseAddress.unsafelyUnwrapped + at).copyMemory(from: source, byteCount: bytes.count)
        }
        count &+= bytes.count
        return true
    }

    /// Appends one byte; false when full.
    @discardableResult
    mutating func append(_ byte: UInt8) -> Bool {
        guard count < Self.capacity else { return false }
        let at = count
        // SAFETY: at < capacity.
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: byte, toByteOffset: at, as: UInt8.self) }
        count &+= 1
        return true
    }

    /// Appends a static string's bytes; false when they would not fit.
    @discardableResult
    mutating func append(_ text: StaticString) -> Bool { append(text.utf8Bytes) }

    /// Appends `value` in decimal; false when it would not fit.
    @discardableResult
    mutating func append(decimal value: UInt64) -> Bool {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        return withUnsafeMutableBytes(of: &digits) { digits in
            var value = value
            var at = digits.count
            repeat {
                at &-= 1
                digits[at] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                value /= 10
            } while value > 0
            return append(UnsafeRawBufferPointer(rebasing: digits[at...]))
        }
    }

    /// The bytes held, writable, for the duration of `body`.
    mutating func withMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        let count = self.count
        return withUnsafeMutableBytes(of: &storage) { all in body(UnsafeMutableRawBufferPointer(rebasing: all[0..<count])) }
    }

    /// Drops bytes past `newCount`.
    mutating func truncate(to newCount: Int) { count = max(0, min(count, newCount)) }

    subscript(index: Int) -> UInt8 {
        // SAFETY: the index is clamped into the storage; callers keep it under `count`.
        withUnsafeBytes(of: storage) { $0[max(0, min(index, Self.capacity &- 1))] }
    }

    /// The bytes held, for the duration of `body`.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: storage) { all in body(UnsafeRawBufferPointer(rebasing: all[0..<count])) }
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

/// Zeroed fixed storage of one size: a homogeneous tuple of words, so its bytes are contiguous.
protocol FixedStorage: Sendable {
    static var zero: Self { get }
}

typealias TextWords8 = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
typealias TextWords64 = (TextWords8, TextWords8, TextWords8, TextWords8, TextWords8, TextWords8, TextWords8, TextWords8)
private let zero8: TextWords8 = (0, 0, 0, 0, 0, 0, 0, 0)
private let zero64: TextWords64 = (zero8, zero8, zero8, zero8, zero8, zero8, zero8, zero8)

/// 256 bytes: a validator (`ETag`, `Last-Modified`).
struct Bytes256: FixedStorage {
    var words: (TextWords8, TextWords8, TextWords8, TextWords8)
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
