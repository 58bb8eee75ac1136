import Foundation

/// A request the probe sends: a GET, optionally for a byte range.
struct HTTPRequest: Sendable {
    var url: URL
    /// First and last byte offsets, inclusive, as in `Range: bytes=first-last`.
    var range: (first: UInt64, last: UInt64)?
    var userAgent: String
}

/// A response's status line and headers.
struct HTTPResponseHead: Sendable {
    var status: Int
    /// Header names are lowercased; a repeated header keeps its last value.
    var headers: [String: String]

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
        let total = UInt64(rangeAndTotal[1].trimmingCharacters(in: .whitespaces))
        return (first, last, total)
    }

    var contentLength: UInt64? { header("content-length").flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) } }

    /// A content coding other than identity: the body is not the image's bytes.
    var contentEncoding: String? {
        guard let value = header("content-encoding")?.trimmingCharacters(in: .whitespaces).lowercased(),
            !value.isEmpty, value != "identity"
        else { return nil }
        return value
    }
}

/// Parses an HTTP/1.1 response head from the bytes received so far.
enum HTTPHeadParser {
    /// Largest head accepted; longer ones are refused rather than buffered.
    static let maximumLength = 32 * 1024

    /// The head and the number of bytes it took, once "\r\n\r\n" has arrived; nil before.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(FetchError) -> (HTTPResponseHead, Int)? {
        guard let end = terminator(in: bytes) else {
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
            headers[name] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return (HTTPResponseHead(status: status, headers: headers), end - bytes.startIndex + 4)
    }

    static func terminator(in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }
}

/// Undoes chunked transfer coding as bytes arrive, keeping only the state of the current
/// chunk-size line (RFC 9112 §7.1). Extensions and trailers are skipped.
struct ChunkedDecoder {
    enum State {
        case size(value: UInt64, digits: Int, inExtension: Bool)
        case sizeLineEnd(value: UInt64)
        case data(left: UInt64)
        case dataEnd(sawCR: Bool)
        case trailer(lineStart: Bool, sawCR: Bool)
        case finished
    }

    var state = State.size(value: 0, digits: 0, inExtension: false)

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Passes each run of body bytes to `body`; `body` returns false to stop early.
    /// Returns false when `body` stopped.
    mutating func decode(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> Bool {
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch state {
            case .size(let value, let digits, let inExtension):
                if inExtension {
                    if byte == 13 { state = .sizeLineEnd(value: value) }
                } else if let digit = Self.hex(byte) {
                    guard digits < 15 else { throw FetchError(.invalidResponse, "chunk size too large") }
                    state = .size(value: value << 4 | UInt64(digit), digits: digits + 1, inExtension: false)
                } else if byte == 59 || byte == 32 || byte == 9 {  // ";", space, tab: an extension
                    guard digits > 0 else { throw FetchError(.invalidResponse, "bad chunk size") }
                    state = .size(value: value, digits: digits, inExtension: true)
                } else if byte == 13, digits > 0 {
                    state = .sizeLineEnd(value: value)
                } else {
                    throw FetchError(.invalidResponse, "bad chunk size")
                }
                index += 1
            case .sizeLineEnd(let value):
                guard byte == 10 else { throw FetchError(.invalidResponse, "bad chunk size line") }
                state = value == 0 ? .trailer(lineStart: true, sawCR: false) : .data(left: value)
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
                    state = .size(value: 0, digits: 0, inExtension: false)
                }
                index += 1
            case .trailer(let lineStart, let sawCR):
                if byte == 13 {
                    state = .trailer(lineStart: lineStart, sawCR: true)
                } else if byte == 10 && sawCR {
                    state = lineStart ? .finished : .trailer(lineStart: true, sawCR: false)
                } else {
                    state = .trailer(lineStart: false, sawCR: false)
                }
                index += 1
            case .finished:
                return true
            }
        }
        return true
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
