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

    /// The request target: the path and query as percent-encoded in the URL. Nil when it holds
    /// a control character or space, which a hostile redirect could use to inject headers.
    var target: String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        return target
    }

    /// The Host header's value: IPv6 literals in brackets, the port when the URL has one.
    var hostHeader: String? {
        guard let host = url.host, !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(name):\($0)" } ?? name
    }
}

/// A response's status line and headers.
struct HTTPResponseHead: Sendable {
    var status: Int
    /// Header names are lowercased; repeated headers are joined with ", " (RFC 9110 §5.3).
    var headers: [String: String]
    /// The minor version of HTTP/1.x.
    var minorVersion = 1

    init(status: Int, headers: [String: String], minorVersion: Int = 1) {
        self.status = status
        self.headers = headers
        self.minorVersion = minorVersion
    }

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Content-Range: bytes first-last/total` (total may be `*`).
    var contentRange: (first: UInt64, last: UInt64, total: UInt64?)? {
        guard let value = header("content-range") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1)
        guard rangeAndTotal.count == 2 else { return nil }
        let bounds = rangeAndTotal[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = UInt64(bounds[0].trimmingCharacters(in: .whitespaces)),
            let last = UInt64(bounds[1].trimmingCharacters(in: .whitespaces)), last >= first
        else { return nil }
        let totalText = rangeAndTotal[1].trimmingCharacters(in: .whitespaces)
        if totalText == "*" { return (first, last, nil) }
        // A total that doesn't extend past the range contradicts it.
        guard let total = UInt64(totalText), total > last else { return nil }
        return (first, last, total)
    }

    /// The Content-Length, validated when the head was parsed.
    var contentLength: UInt64? { header("content-length").flatMap { UInt64($0) } }

    /// A content coding other than identity: the body is not the image's bytes.
    var contentEncoding: String? {
        guard let value = header("content-encoding")?.trimmingCharacters(in: .whitespaces).lowercased(),
            !value.isEmpty, value != "identity"
        else { return nil }
        return value
    }

    /// Whether the body is chunked. Any other transfer coding is refused: its bytes are not
    /// the image's.
    func isChunked() throws(FetchError) -> Bool {
        guard let value = header("transfer-encoding") else { return false }
        let codings = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard codings == ["chunked"] else {
            throw FetchError(.invalidResponse, "unsupported Transfer-Encoding \(value)", status: status)
        }
        return true
    }

    /// Whether the server lets the connection be reused after this response.
    var keepsConnection: Bool {
        guard minorVersion >= 1 else { return header("connection")?.lowercased().contains("keep-alive") == true }
        let tokens = header("connection")?.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        return !tokens.contains("close")
    }

    /// A validator for If-Range: a strong ETag, else Last-Modified (RFC 9110 §13.1.5).
    var rangeValidator: String? {
        if let tag = header("etag"), tag.hasPrefix("\"") { return tag }
        return header("last-modified")
    }
}

/// Parses an HTTP/1.1 response head from the bytes received so far.
enum HTTPHeadParser {
    /// Largest head accepted; longer ones are refused rather than buffered.
    static let maximumLength = 32 * 1024

    /// The head and the number of bytes it took, once "\r\n\r\n" has arrived; nil before.
    /// `scanned` keeps how far the search for the blank line got, so bytes arriving one at a
    /// time are each looked at a bounded number of times.
    static func parse(_ bytes: ArraySlice<UInt8>, scanned: inout Int) throws(FetchError) -> (HTTPResponseHead, Int)? {
        guard let end = terminator(in: bytes, from: &scanned) else {
            if bytes.count > maximumLength { throw FetchError(.invalidResponse, "response head longer than 32 KiB") }
            return nil
        }
        let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { throw FetchError(.invalidResponse, "empty response head") }
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]),
            (100...999).contains(status)
        else { throw FetchError(.invalidResponse, "not an HTTP/1.x status line") }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw FetchError(.invalidResponse, "header line without a colon") }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                // Two different lengths leave the body's end unknowable (RFC 9112 §6.3).
                guard UInt64(value) != nil, headers[name] == nil || headers[name] == value else {
                    throw FetchError(.invalidResponse, "invalid or conflicting Content-Length", status: status)
                }
                headers[name] = value
            } else if let earlier = headers[name] {
                headers[name] = earlier + ", " + value
            } else {
                headers[name] = value
            }
        }
        let minor = statusLine[0] == "HTTP/1.0" ? 0 : 1
        return (HTTPResponseHead(status: status, headers: headers, minorVersion: minor), end - bytes.startIndex + 4)
    }

    /// `parse` from the start, for callers holding the whole head.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(FetchError) -> (HTTPResponseHead, Int)? {
        var scanned = 0
        return try parse(bytes, scanned: &scanned)
    }

    /// The offset of "\r\n\r\n", searching on from `scanned` bytes in.
    static func terminator(in bytes: ArraySlice<UInt8>, from scanned: inout Int) -> Int? {
        var index = bytes.startIndex + max(0, scanned - 3)
        while index + 3 < bytes.endIndex {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        scanned = bytes.count
        return nil
    }
}

/// Undoes chunked transfer coding as bytes arrive, keeping only the state of the current
/// chunk-size line (RFC 9112 §7.1). Extensions and trailers are skipped, up to a bound.
struct ChunkedDecoder {
    /// Longest chunk extension, and longest trailer section, accepted.
    static let maximumExtension = 4096
    static let maximumTrailer = 16 * 1024

    enum State {
        /// `extensionLength` is nil before the extension starts.
        case size(value: UInt64, sawDigit: Bool, extensionLength: Int?)
        case sizeLineEnd(value: UInt64)
        case data(left: UInt64)
        case dataEnd(sawCR: Bool)
        case trailer(lineStart: Bool, sawCR: Bool, length: Int)
        case finished
    }

    var state = State.size(value: 0, sawDigit: false, extensionLength: nil)

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Passes each run of body bytes to `body`; `body` returns false to stop early.
    /// Returns false when `body` stopped. `leftover` is set to the bytes after the last chunk's
    /// trailer in this input (a sloppy server's extra bytes).
    mutating func decode(_ input: UnsafeRawBufferPointer, leftover: inout Int, _ body: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> Bool {
        var index = 0
        leftover = 0
        while index < input.count {
            let byte = input[index]
            switch state {
            case .size(let value, let sawDigit, let extensionLength):
                if let length = extensionLength {
                    guard length < Self.maximumExtension else { throw FetchError(.invalidResponse, "chunk extension too long") }
                    state = byte == 13 ? .sizeLineEnd(value: value) : .size(value: value, sawDigit: true, extensionLength: length + 1)
                } else if let digit = Self.hex(byte) {
                    // Leading zeros are allowed; a value past 2^60 is not a real chunk.
                    guard value >> 60 == 0 else { throw FetchError(.invalidResponse, "chunk size too large") }
                    state = .size(value: value << 4 | UInt64(digit), sawDigit: true, extensionLength: nil)
                } else if byte == 59 || byte == 32 || byte == 9 {  // ";", space, tab: an extension
                    guard sawDigit else { throw FetchError(.invalidResponse, "bad chunk size") }
                    state = .size(value: value, sawDigit: true, extensionLength: 0)
                } else if byte == 13, sawDigit {
                    state = .sizeLineEnd(value: value)
                } else {
                    throw FetchError(.invalidResponse, "bad chunk size")
                }
                index += 1
            case .sizeLineEnd(let value):
                guard byte == 10 else { throw FetchError(.invalidResponse, "bad chunk size line") }
                state = value == 0 ? .trailer(lineStart: true, sawCR: false, length: 0) : .data(left: value)
                index += 1
            case .data(let left):
                let take = Int(min(left, UInt64(input.count - index)))
                if !body(UnsafeRawBufferPointer(rebasing: input[index..<(index + take)])) { return false }
                index += take
                state = left == UInt64(take) ? .dataEnd(sawCR: false) : .data(left: left - UInt64(take))
            case .dataEnd(let sawCR):
                if !sawCR {
                    guard byte == 13 else { throw FetchError(.invalidResponse, "chunk not followed by CRLF") }
                    state = .dataEnd(sawCR: true)
                } else {
                    guard byte == 10 else { throw FetchError(.invalidResponse, "chunk not followed by CRLF") }
                    state = .size(value: 0, sawDigit: false, extensionLength: nil)
                }
                index += 1
            case .trailer(let lineStart, let sawCR, let length):
                guard length < Self.maximumTrailer else { throw FetchError(.invalidResponse, "chunked trailer too long") }
                if byte == 13 {
                    state = .trailer(lineStart: lineStart, sawCR: true, length: length + 1)
                } else if byte == 10 && sawCR {
                    state = lineStart ? .finished : .trailer(lineStart: true, sawCR: false, length: length + 1)
                } else {
                    state = .trailer(lineStart: false, sawCR: false, length: length + 1)
                }
                index += 1
            case .finished:
                leftover = input.count - index
                return true
            }
        }
        return true
    }

    /// `decode` for callers that don't look at leftovers.
    mutating func decode(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> Bool {
        var leftover = 0
        return try decode(input, leftover: &leftover, body)
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}
