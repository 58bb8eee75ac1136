/// The facts of an HTTP response head that the range strategy uses (SPEC.md §6.1), taken one
/// header field at a time as bytes, so any HTTP stack can hand them over: libcurl's header
/// lines, URLSession's dictionary, `fetch()`'s `Headers`, the planner's own head parser. Parsing is
/// strict and allocation-free: numbers are digits only (RFC 9110), validators are kept as
/// hashes, so two responses can be compared without keeping their text.
public struct ResponseFields: Sendable {
    /// `Content-Range: bytes first-last/total` (total nil for `*`), when present and valid.
    public var contentRange: (first: UInt64, last: UInt64, total: UInt64?)? {
        guard rangeState == .valid else { return nil }
        return (rangeFirst, rangeLast, rangeTotal)
    }

    /// The `Content-Length`, when present and digits only.
    public var contentLength: UInt64? { lengthState == .valid ? length : nil }

    /// Whether a field broke the rules (a `Content-Length` that isn't digits, two different
    /// lengths): the response can't be used.
    public private(set) var isMalformed = false

    /// Whether the body has a content coding other than `identity`: not the image's bytes.
    public private(set) var isContentEncoded = false

    /// Whether the body is chunked (`Transfer-Encoding` ending in `chunked`).
    public private(set) var isChunked = false

    /// Whether a `Transfer-Encoding` other than exactly `chunked` came: its bytes are not the
    /// image's (RFC 9112 §6.1), and the response is refused.
    public private(set) var hasOtherTransferCoding = false

    /// Whether the server will close the connection after this response (`Connection: close`).
    public private(set) var closesConnection = false

    /// Whether there is a `Location` field (the planner resolves it).
    public private(set) var hasLocation = false

    /// Hash of the `ETag` value, when present; `entityTagIsStrong` says whether it may be sent
    /// as `If-Range` (RFC 9110 §13.1.5: strong validators only).
    public private(set) var entityTag: UInt64? = nil
    /// Whether the `ETag` is a strong validator (no `W/` prefix).
    public private(set) var entityTagIsStrong = false

    /// Hash of the `Last-Modified` value, when present.
    public private(set) var lastModified: UInt64? = nil

    /// How long the response may be used without asking again, in seconds, from
    /// `Cache-Control` (RFC 9111 §5.2.2): its `max-age`, or 0 for `no-cache` or `no-store`
    /// (which win over any `max-age`); nil when it says neither.
    public var freshness: UInt64? { mustRevalidate ? 0 : maxAge }

    private var maxAge: UInt64? = nil
    private var mustRevalidate = false

    /// `Retry-After` in seconds (RFC 9110 §10.2.3), when it is delta-seconds; an HTTP-date
    /// would need the time now, which the planner doesn't keep, and is nil like a bad value.
    public private(set) var retryAfter: UInt64? = nil

    private enum FieldState: UInt8, Sendable { case absent, valid, invalid }
    private var rangeState = FieldState.absent
    private var rangeFirst: UInt64 = 0
    private var rangeLast: UInt64 = 0
    private var rangeTotal: UInt64? = nil
    private var lengthState = FieldState.absent
    private var length: UInt64 = 0

    /// No fields yet.
    public init() {}

    /// Takes one header field. The name matches in any case; the value is trimmed of spaces
    /// and tabs. Fields the strategy doesn't use are ignored.
    public mutating func take(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        let value = Self.trimmed(value)
        if Self.equals(name, "content-length") {
            guard let number = Self.decimal(value, from: 0, to: value.count) else {
                isMalformed = true
                lengthState = .invalid
                return
            }
            // The same length twice is one length; two different ones leave the body's end
            // unknowable (RFC 9112 §6.3).
            if lengthState == .valid && length != number { isMalformed = true }
            if lengthState == .absent { (lengthState, length) = (.valid, number) }
        } else if Self.equals(name, "content-range") {
            if rangeState != .absent {
                rangeState = .invalid
                return
            }
            rangeState = .invalid
            guard let (first, last, total) = Self.contentRange(value) else { return }
            (rangeFirst, rangeLast, rangeTotal, rangeState) = (first, last, total, .valid)
        } else if Self.equals(name, "content-encoding") {
            if value.count > 0 && !Self.equals(value, "identity") { isContentEncoded = true }
        } else if Self.equals(name, "etag") {
            entityTag = Self.hash(value)
            entityTagIsStrong = value.count > 0 && value[0] == 0x22  // a weak one starts W/
        } else if Self.equals(name, "last-modified") {
            lastModified = Self.hash(value)
        } else if Self.equals(name, "location") {
            hasLocation = true
        } else if Self.equals(name, "transfer-encoding") {
            // Codings are listed in order, each field adding to the list: only `chunked`, alone
            // and once, is the image's bytes.
            if Self.equals(value, "chunked") && !isChunked && !hasOtherTransferCoding {
                isChunked = true
            } else {
                hasOtherTransferCoding = true
            }
        } else if Self.equals(name, "retry-after") {
            retryAfter = Self.decimal(value, from: 0, to: value.count)
        } else if Self.equals(name, "cache-control") {
            takeCacheDirectives(value)
        } else if Self.equals(name, "connection") {
            // Anything but plain keep-alive ("close", or a list) ends the connection after this
            // response: reusing it is only an optimisation.
            if !Self.equals(value, "keep-alive") { closesConnection = true }
        }
    }

    /// Takes one header field given as text.
    public mutating func take(name: String, value: String) {
        var name = name
        var value = value
        name.withUTF8 { name in value.withUTF8 { value in take(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value)) } }
    }

    // MARK: - Parsing

    /// `Cache-Control`'s comma-separated directives: `max-age=N` (digits, or a quoted string
    /// of them; the first one counts, RFC 9111 §4.2.1), `no-cache` and `no-store`. Others are
    /// ignored, as a malformed `max-age` is.
    mutating func takeCacheDirectives(_ value: UnsafeRawBufferPointer) {
        var start = 0
        while start < value.count {
            let end = Self.index(of: 0x2C, in: value, from: start)
            let directive = Self.trimmed(UnsafeRawBufferPointer(rebasing: value[start..<end]))
            let equal = Self.index(of: 0x3D, in: directive, from: 0)
            let name = Self.trimmed(UnsafeRawBufferPointer(rebasing: directive[0..<equal]))
            if Self.equals(name, "no-cache") || Self.equals(name, "no-store") {
                mustRevalidate = true
            } else if Self.equals(name, "max-age"), equal < directive.count, maxAge == nil {
                var from = equal &+ 1
                var to = directive.count
                if to &- from >= 2 && directive[from] == 0x22 && directive[to &- 1] == 0x22 { (from, to) = (from &+ 1, to &- 1) }
                maxAge = Self.decimal(directive, from: from, to: to)
            }
            start = end &+ 1
        }
    }

    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start &+= 1 }
        while end > start && (bytes[end &- 1] == 0x20 || bytes[end &- 1] == 0x09) { end &-= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Whether `bytes` spell `lowercase` in any case (ASCII).
    static func equals(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Bytes
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard folded == expected[index] else { return false }
            index &+= 1
        }
        return true
    }

    /// The number in `bytes[start..<end]`: 1*DIGIT, as RFC 9110 writes numbers (no sign), with
    /// spaces and tabs around it; nil past UInt64. Read by index, with no slice made.
    static func decimal(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UInt64? {
        var start = start
        var end = end
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start &+= 1 }
        while end > start && (bytes[end &- 1] == 0x20 || bytes[end &- 1] == 0x09) { end &-= 1 }
        guard start < end else { return nil }
        var value: UInt64 = 0
        while start < end {
            let byte = bytes[start]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            // Exact without a 128-bit product: value × 10 fits while value ≤ max / 10.
            guard value <= UInt64.max / 10 else { return nil }
            let (sum, overflow) = (value &* 10).addingReportingOverflow(UInt64(byte &- 0x30))
            guard !overflow else { return nil }
            value = sum
            start &+= 1
        }
        return value
    }

    /// The index of the first `byte` in `bytes` at or after `start`; past the end when none.
    static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count && bytes[index] != byte { index &+= 1 }
        return index
    }

    /// `bytes first-last/total`, total `*` allowed; a total that doesn't extend past the range
    /// contradicts it.
    static func contentRange(_ value: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64?)? {
        guard value.count > 6, equals(UnsafeRawBufferPointer(rebasing: value[0..<6]), "bytes ") else { return nil }
        let dash = index(of: 0x2D, in: value, from: 6)
        let slash = index(of: 0x2F, in: value, from: dash &+ 1)
        guard slash < value.count, let first = decimal(value, from: 6, to: dash),
              let last = decimal(value, from: dash &+ 1, to: slash), last >= first
        else { return nil }
        if let total = decimal(value, from: slash &+ 1, to: value.count) { return total > last ? (first, last, total) : nil }
        guard equals(trimmed(UnsafeRawBufferPointer(rebasing: value[(slash &+ 1)..<value.count])), "*") else { return nil }
        return (first, last, nil)
    }

    /// FNV-1a: validators are compared, never sent back from here (the driver keeps the
    /// first response's text for `If-Range`).
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}
