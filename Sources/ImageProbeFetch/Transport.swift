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
    /// Releases everything: connections, sessions. The transport is not used after.
    func close()
}

/// Routes each request by its URL's scheme, so a redirect from http:// to https:// (or back)
/// keeps working: sockets for http:// (unless URLSession is asked for), URLSession otherwise.
final class RoutingTransport: ProbeTransport {
    private let configuration: FetchConfiguration
    private let cancellation: Cancellation
    private var sockets: SocketTransport? = nil
    private var session: URLSessionTransport? = nil
    private var current: ProbeTransport? = nil

    init(configuration: FetchConfiguration, cancellation: Cancellation) {
        self.configuration = configuration
        self.cancellation = cancellation
    }

    var bytesReceived: Int { (sockets?.bytesReceived ?? 0) + (session?.bytesReceived ?? 0) }
    var requests: Int { (sockets?.requests ?? 0) + (session?.requests ?? 0) }

    func send(_ request: HTTPRequest, until deadline: ContinuousClock.Instant) throws(FetchError) -> HTTPResponseHead {
        current?.abandon()
        let transport: ProbeTransport
        if request.url.scheme?.lowercased() == "http" && configuration.transport == .sockets {
            let made = sockets ?? SocketTransport(cancellation: cancellation, byteLimit: configuration.maxBytes)
            sockets = made
            transport = made
        } else {
            let made = session ?? URLSessionTransport(cancellation: cancellation, timeout: configuration.requestTimeout.clampedSeconds)
            session = made
            transport = made
        }
        current = transport
        return try transport.send(request, until: deadline)
    }

    func readBody(until deadline: ContinuousClock.Instant, _ handler: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> BodyEnd {
        guard let current else { return .complete }
        return try current.readBody(until: deadline, handler)
    }

    func abandon() { current?.abandon() }

    func close() {
        sockets?.close()
        session?.close()
        current = nil
    }
}

/// HTTP/1.1 over `SocketConnection`, for http:// URLs: connections are reused between the
/// Range requests of one probe, and dropped the moment the answer is known.
final class SocketTransport: ProbeTransport {
    private(set) var bytesReceived = 0
    private(set) var requests = 0
    private let cancellation: Cancellation
    /// Receiving more than this fails the probe, whatever the bytes are (heads, chunk framing,
    /// bytes passed over).
    private let byteLimit: Int
    private var connection: SocketConnection? = nil
    /// Bytes received past the response head, not yet given to the body handler.
    private var pending: [UInt8] = []
    private var framing = Framing.none
    /// Whether the connection may carry the next request once this body is read.
    private var reusable = false
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// Interim (1xx) responses accepted before the real one.
    static let maximumInterimResponses = 4

    private enum Framing {
        case none
        case length(UInt64)
        case chunked(ChunkedDecoder)
        case untilClose
    }

    init(cancellation: Cancellation, byteLimit: Int) {
        self.cancellation = cancellation
        self.byteLimit = byteLimit
    }

    func send(_ request: HTTPRequest, until deadline: ContinuousClock.Instant) throws(FetchError) -> HTTPResponseHead {
        guard request.url.scheme?.lowercased() == "http" else { throw FetchError(.unsupportedURL, "the socket transport speaks http:// only") }
        guard let host = request.url.host, let hostHeader = request.hostHeader, let target = request.target else {
            throw FetchError(.unsupportedURL, "URL without a usable host or path")
        }
        let port = request.url.port ?? 80
        guard (1...65535).contains(port) else { throw FetchError(.unsupportedURL, "port \(port) out of range") }
        var text = "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        text += "User-Agent: \(request.userAgent)\r\nAccept: */*\r\nAccept-Encoding: identity\r\n"
        if let range = request.range { text += "Range: bytes=\(range.first)-\(range.last)\r\n" }
        if let validator = request.ifRange, validator.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) {
            text += "If-Range: \(validator)\r\n"
        }
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
        var interim = 0
        var scanned = 0
        while true {
            if let (head, length) = try HTTPHeadParser.parse(pending[...], scanned: &scanned) {
                pending.removeFirst(length)
                scanned = 0
                if head.status == 101 { throw FetchError(.invalidResponse, "the server switched protocols", status: 101) }
                if head.status >= 100 && head.status < 200 {
                    // 100 Continue and the like precede the real response; a few at most.
                    interim += 1
                    guard interim <= Self.maximumInterimResponses else {
                        throw FetchError(.invalidResponse, "too many interim responses", status: head.status)
                    }
                    continue
                }
                let chunked = try head.isChunked()
                framing = Self.framing(head, chunked: chunked)
                // Both framings at once is a smuggling pattern: read this body, then drop the connection.
                reusable = head.keepsConnection && !(chunked && head.header("content-length") != nil)
                return head
            }
            let count = try receive(until: deadline)
            if count == 0 { throw FetchError(.connection, "connection closed before the response head") }
            pending += buffer[0..<count]
        }
    }

    private static func framing(_ head: HTTPResponseHead, chunked: Bool) -> Framing {
        if head.status == 204 || head.status == 304 { return .length(0) }
        if chunked { return .chunked(ChunkedDecoder()) }
        if let length = head.contentLength { return .length(length) }
        return .untilClose
    }

    private func receive(until deadline: ContinuousClock.Instant) throws(FetchError) -> Int {
        guard let connection else { return 0 }
        let count = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(FetchError) -> Int in try connection.receive(into: raw, until: deadline) }
        }.get()
        bytesReceived += count
        if bytesReceived > byteLimit {
            throw FetchError(.limitExceeded, "more than \(byteLimit) bytes received without an answer")
        }
        return count
    }

    func readBody(until deadline: ContinuousClock.Instant, _ handler: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> BodyEnd {
        var incoming = pending
        pending.removeAll()
        while true {
            switch try deliver(incoming, handler) {
            case .some(let end):
                if end != .complete || !reusable { abandon() }
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

    /// Gives `bytes` to the handler as the framing allows; the end, or nil to read on.
    /// Bytes after the body's end mean a sloppy server: the connection isn't reused.
    private func deliver(_ bytes: [UInt8], _ handler: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> BodyEnd? {
        switch framing {
        case .none:
            if !bytes.isEmpty { reusable = false }
            return .complete
        case .length(let left):
            if left == 0 {
                if !bytes.isEmpty { reusable = false }
                return .complete
            }
            let take = Int(min(left, UInt64(bytes.count)))
            let keepGoing = bytes.withUnsafeBytes { handler(UnsafeRawBufferPointer(rebasing: $0[0..<take])) }
            framing = .length(left - UInt64(take))
            if !keepGoing { return .stopped }
            if left == UInt64(take) {
                if bytes.count > take { reusable = false }
                return .complete
            }
            return nil
        case .chunked(var decoder):
            var leftover = 0
            let keepGoing = try bytes.withUnsafeBytes { raw in
                Result { () throws(FetchError) -> Bool in try decoder.decode(raw, leftover: &leftover, handler) }
            }.get()
            framing = .chunked(decoder)
            if !keepGoing { return .stopped }
            if leftover > 0 { reusable = false }
            return decoder.isFinished ? .complete : nil
        case .untilClose:
            reusable = false
            if bytes.isEmpty { return nil }
            return bytes.withUnsafeBytes { handler($0) } ? nil : .stopped
        }
    }

    func abandon() {
        connection = nil
        pending.removeAll()
        framing = .none
    }

    func close() { abandon() }
}

extension Duration {
    /// Seconds as a Double, clamped to a year: a huge configured timeout must not overflow
    /// deadline arithmetic.
    var clampedSeconds: Double {
        let (seconds, attoseconds) = components
        return min(365 * 86400, max(0, Double(seconds) + Double(attoseconds) / 1e18))
    }

    /// The duration clamped to a year, for adding to an instant.
    var clampedForDeadline: Duration { self > .seconds(365 * 86400) ? .seconds(365 * 86400) : (self < .zero ? .zero : self) }
}
