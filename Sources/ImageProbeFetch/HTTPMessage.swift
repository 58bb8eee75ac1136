import Foundation

/// A request the probe sends: a GET, optionally for a byte range.
struct HTTPRequest: Sendable {
    var url: URL
    /// First and last byte offsets, inclusive, as in `Range: bytes=first-last`.
    var range: (first: UInt64, last: UInt64)?
    /// The first response's validator (a strong ETag, or Last-Modified): if the resource has
    /// changed since, the server sends it whole (200) instead of a range of the new version.
    var ifRange: String? = nil
    var userAgent: String
    /// The most bytes the probe may receive in all, counted as they come off the connection
    /// (`FetchConfiguration.maxBytes`); the transport stops the exchange past it.
    var byteBudget: Int = .max

    /// `ifRange` when it can go in a header: no control characters, so a server can't use its
    /// own ETag to inject headers into later requests.
    var headerSafeIfRange: String? {
        guard let ifRange, ifRange.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        return ifRange
    }
}

/// A response's status line and headers. `package`: the fuzzer reads it too.
package struct HTTPResponseHead: Sendable {
    package var status: Int
    /// Header names are lowercased; repeated headers are joined with ", " (RFC 9110 §5.3).
    var headers: [String: String]

    init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = headers
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Content-Range: bytes first-last/total` (total may be `*`). Numbers are digits only.
    package var contentRange: (first: UInt64, last: UInt64, total: UInt64?)? {
        guard let value = header("content-range") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard rangeAndTotal.count == 2 else { return nil }
        let bounds = rangeAndTotal[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.decimal(bounds[0].trimmingCharacters(in: .whitespaces)),
            let last = Self.decimal(bounds[1].trimmingCharacters(in: .whitespaces)), last >= first
        else { return nil }
        let totalText = rangeAndTotal[1].trimmingCharacters(in: .whitespaces)
        if totalText == "*" { return (first, last, nil) }
        // A total that doesn't extend past the range contradicts it.
        guard let total = Self.decimal(totalText), total > last else { return nil }
        return (first, last, total)
    }

    /// The Content-Length, validated when the head was parsed.
    package var contentLength: UInt64? { header("content-length").flatMap { Self.decimal($0) } }

    /// A content coding other than identity: the body is not the image's bytes.
    var contentEncoding: String? {
        guard let value = header("content-encoding")?.trimmingCharacters(in: .whitespaces).lowercased(),
            !value.isEmpty, value != "identity"
        else { return nil }
        return value
    }

    /// Refuses a transfer coding other than exactly `chunked` (which the HTTP stack undoes):
    /// the bytes of any other are not the image's.
    package func checkTransferCoding() throws(FetchError) {
        guard let value = header("transfer-encoding") else { return }
        let codings = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard codings == ["chunked"] else {
            throw FetchError(.invalidResponse, "unsupported Transfer-Encoding \(value)", status: status)
        }
    }

    /// A validator for If-Range: a strong ETag, else Last-Modified (RFC 9110 §13.1.5).
    var rangeValidator: String? {
        if let tag = header("etag"), tag.hasPrefix("\"") { return tag }
        return header("last-modified")
    }

    /// 1*DIGIT as RFC 9110 writes numbers: no sign, no spaces, no hex; nil past UInt64.
    /// (`UInt64("+41")` is 41, and `Content-Length: +41` is not a length.)
    static func decimal<S: StringProtocol>(_ text: S) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt64(text)
    }
}

/// Builds a response head from the header lines the HTTP stack hands over one at a time
/// (libcurl's header callback: the status line, each field line, then the blank line), with
/// the checks the probe relies on. Interim (1xx) heads are counted and dropped. The only HTTP
/// parsing in the package: `package`, so the libFuzzer harness (Fuzz/) runs every input
/// through it too.
package struct ResponseHeadParser {
    /// Largest head accepted, interim heads included; longer ones are refused rather than kept.
    static let maximumLength = 32 * 1024
    /// Interim (1xx) responses accepted before the real one.
    static let maximumInterimResponses = 4

    private var status: Int? = nil
    private var headers: [String: String] = [:]
    private var length = 0
    private var interim = 0

    package init() {}

    /// Takes one line, its line ending included. Returns the head at the blank line that ends
    /// a final (non-1xx) response; nil before.
    package mutating func take(_ line: UnsafeRawBufferPointer) throws(FetchError) -> HTTPResponseHead? {
        length += line.count
        guard length <= Self.maximumLength else { throw FetchError(.invalidResponse, "response head longer than 32 KiB") }
        var end = line.count
        if end > 0 && line[end - 1] == 10 { end -= 1 }
        if end > 0 && line[end - 1] == 13 { end -= 1 }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
        guard let status else {
            self.status = try Self.statusCode(text)
            return nil
        }
        if !text.isEmpty {
            try field(text, status: status)
            return nil
        }
        // The blank line.
        if status == 101 { throw FetchError(.invalidResponse, "the server switched protocols", status: 101) }
        if status < 200 {
            interim += 1
            guard interim <= Self.maximumInterimResponses else {
                throw FetchError(.invalidResponse, "too many interim responses", status: status)
            }
            self.status = nil
            headers = [:]
            return nil
        }
        return HTTPResponseHead(status: status, headers: headers)
    }

    /// `HTTP/1.1 206 Partial Content`, `HTTP/2 200`: the status code.
    static func statusCode(_ line: String) throws(FetchError) -> Int {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].utf8.count == 3,
            let code = HTTPResponseHead.decimal(parts[1]), (100...999).contains(code)
        else { throw FetchError(.invalidResponse, "not an HTTP status line") }
        return Int(code)
    }

    private mutating func field(_ line: String, status: Int) throws(FetchError) {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
            throw FetchError(.invalidResponse, "header line without a name and a colon", status: status)
        }
        let rawName = line[..<colon]
        // A field name is a token: no spaces (RFC 9112 §5.1 requires refusing "Name :"), and a
        // line starting with whitespace is obsolete folding, refused too.
        guard rawName.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw FetchError(.invalidResponse, "malformed header field name", status: status)
        }
        let name = rawName.lowercased()
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if name == "content-length" {
            // Digits only, and two different lengths leave the body's end unknowable (RFC 9112 §6.3).
            guard HTTPResponseHead.decimal(value) != nil, headers[name] == nil || headers[name] == value else {
                throw FetchError(.invalidResponse, "invalid or conflicting Content-Length", status: status)
            }
            headers[name] = value
        } else if let earlier = headers[name] {
            headers[name] = earlier + ", " + value
        } else {
            headers[name] = value
        }
    }
}

/// Where a redirect leads: its `Location` resolved against the URL that answered.
enum Redirect {
    /// Servers send `Location` values with bytes a URL may not hold (`/x y.png`, `/café.png`):
    /// browsers and libcurl percent-encode them, and so does this, before parsing, because
    /// `URL(string:relativeTo:)` refuses them before macOS 14 / iOS 17 (SPEC.md §6.1). Bytes
    /// already escaped (`%20`) and the URL's own delimiters are kept.
    static func target(_ location: String, from base: URL) -> URL? {
        URL(string: encoded(location), relativeTo: base)?.absoluteURL
    }

    static func encoded(_ location: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(location.utf8.count)
        for byte in location.utf8 {
            if allowed(byte) {
                bytes.append(byte)
            } else {
                bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986's unreserved and reserved characters, and `%`.
    private static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: Array("-._~:/?#[]@!$&'()*+,;=%".utf8).contains(byte)
        }
    }
}
