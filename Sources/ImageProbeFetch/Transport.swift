import Foundation

/// How a response body ended.
enum BodyEnd {
    /// All of it arrived.
    case complete
    /// The handler asked to stop; the rest was not read, and the connection was dropped.
    case stopped
    /// The connection closed before the body's declared end.
    case closed
}

/// Sends one request at a time and streams its body to a handler.
protocol ProbeTransport: AnyObject {
    /// Every byte received so far, response heads and framing included.
    var bytesReceived: Int { get }
    /// Requests sent so far.
    var requests: Int { get }
    func send(_ request: HTTPRequest, until deadline: ContinuousClock.Instant) throws(FetchError) -> HTTPResponseHead
    /// Streams the body of the response `send` returned; `handler` returns false to stop.
    func readBody(until deadline: ContinuousClock.Instant, _ handler: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> BodyEnd
    /// Drops the current response without reading the rest of it.
    func abandon()
}

/// HTTP/1.1 over `SocketConnection`, for http:// URLs: connections are reused between the
/// Range requests of one probe, and dropped the moment the answer is known.
final class SocketTransport: ProbeTransport {
    private(set) var bytesReceived = 0
    private(set) var requests = 0
    private let cancellation: Cancellation
    private var connection: SocketConnection? = nil
    /// Bytes received past the response head, not yet given to the body handler.
    private var pending: [UInt8] = []
    private var framing = Framing.none
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    private enum Framing {
        case none
        case length(UInt64)
        case chunked(ChunkedDecoder)
        case untilClose
    }

    init(cancellation: Cancellation) {
        self.cancellation = cancellation
    }

    func send(_ request: HTTPRequest, until deadline: ContinuousClock.Instant) throws(FetchError) -> HTTPResponseHead {
        guard let host = request.url.host, !host.isEmpty else { throw FetchError(.unsupportedURL, "URL without a host") }
        let port = request.url.port ?? 80
        var path = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { path += "?" + query }
        var text = "GET \(path) HTTP/1.1\r\nHost: \(host)\(request.url.port.map { ":\($0)" } ?? "")\r\n"
        text += "User-Agent: \(request.userAgent)\r\nAccept: */*\r\nAccept-Encoding: identity\r\n"
        if let range = request.range { text += "Range: bytes=\(range.first)-\(range.last)\r\n" }
        text += "Connection: keep-alive\r\n\r\n"
        let bytes = Array(text.utf8)
        // A kept connection the server has closed meanwhile fails the first attempt: reconnect once.
        for attempt in 0..<2 {
            let reused = connection != nil && connection?.host == host && connection?.port == port && attempt == 0
            if !reused {
                connection = nil
                connection = try SocketConnection(host: host, port: port, deadline: deadline, cancellation: cancellation)
            }
            do {
                try connection!.send(bytes, until: deadline)
                requests += 1
                return try readHead(until: deadline)
            } catch let error where reused && error.kind == .connection {
                connection = nil
                continue
            }
        }
        throw FetchError(.connection, "connection lost")
    }

    private func readHead(until deadline: ContinuousClock.Instant) throws(FetchError) -> HTTPResponseHead {
        pending.removeAll(keepingCapacity: true)
        while true {
            if let (head, length) = try HTTPHeadParser.parse(pending[...]) {
                pending.removeFirst(length)
                if head.status >= 100 && head.status < 200 { continue }  // 100 Continue and the like
                framing = Self.framing(head)
                return head
            }
            let count = try receive(until: deadline)
            if count == 0 { throw FetchError(.connection, "connection closed before the response head") }
            pending += buffer[0..<count]
        }
    }

    private static func framing(_ head: HTTPResponseHead) -> Framing {
        if head.status == 204 || head.status == 304 { return .length(0) }
        if head.header("transfer-encoding")?.lowercased().contains("chunked") == true { return .chunked(ChunkedDecoder()) }
        if let length = head.contentLength { return .length(length) }
        return .untilClose
    }

    private func receive(until deadline: ContinuousClock.Instant) throws(FetchError) -> Int {
        guard let connection else { return 0 }
        let count = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(FetchError) -> Int in try connection.receive(into: raw, until: deadline) }
        }.get()
        bytesReceived += count
        return count
    }

    func readBody(until deadline: ContinuousClock.Instant, _ handler: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> BodyEnd {
        var incoming = pending
        pending.removeAll()
        while true {
            switch try deliver(incoming, handler) {
            case .some(let end):
                if end != .complete || !keepAliveAllowed { abandon() }
                return end
            case .none:
                break
            }
            let count = try receive(until: deadline)
            if count == 0 {
                if case .untilClose = framing {
                    connection = nil
                    return .complete
                }
                connection = nil
                return .closed
            }
            incoming = Array(buffer[0..<count])
        }
    }

    private var keepAliveAllowed: Bool {
        if case .untilClose = framing { return false }
        return true
    }

    /// Gives `bytes` to the handler as the framing allows; the end, or nil to read on.
    private func deliver(_ bytes: [UInt8], _ handler: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> BodyEnd? {
        switch framing {
        case .none:
            return .complete
        case .length(let left):
            if left == 0 { return .complete }
            let take = Int(min(left, UInt64(bytes.count)))
            let keepGoing = bytes.withUnsafeBytes { handler(UnsafeRawBufferPointer(rebasing: $0[0..<take])) }
            framing = .length(left - UInt64(take))
            if !keepGoing { return .stopped }
            return left == UInt64(take) ? .complete : nil
        case .chunked(var decoder):
            let keepGoing = try bytes.withUnsafeBytes { raw in
                Result { () throws(FetchError) -> Bool in try decoder.decode(raw, handler) }
            }.get()
            framing = .chunked(decoder)
            if !keepGoing { return .stopped }
            return decoder.isFinished ? .complete : nil
        case .untilClose:
            if bytes.isEmpty { return nil }
            return bytes.withUnsafeBytes { handler($0) } ? nil : .stopped
        }
    }

    func abandon() {
        connection = nil
        pending.removeAll()
        framing = .none
    }
}
