import Foundation
import ImageProbe

/// A request the probe sends, as the planner made it: GET `url` with `headerLines` (Range,
/// If-Range, Accept-Encoding) and the fetcher's User-Agent.
struct HTTPRequest: Sendable {
    var url: String
    var headerLines: [(name: String, value: String)]
    var userAgent: String
    /// The most bytes the probe may receive in all (`FetchConfiguration.maxBytes`): a second
    /// bound, on the socket, below the HTTP stack's framing (TLS records, HTTP/2).
    var byteBudget: Int = .max

    init(_ planner: RangePlanner, userAgent: String, byteBudget: Int) {
        url = planner.requestURL
        headerLines = planner.requestHeaderLines.split(separator: "\r\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        self.userAgent = userAgent
        self.byteBudget = byteBudget
    }
}

/// A transport's failure: its class, for the planner, which gives it its code, and the
/// stack's own words, kept for the message.
struct TransportError: Error, Sendable {
    var kind: RangePlanner.TransportFailure
    var detail: String
}

/// Receives one exchange as it arrives, on the transport's own thread or queue, and answers
/// for the planner: whether to read on. Calls never overlap, and all of them happen before the
/// exchange's completion.
protocol ResponseHandler: AnyObject, Sendable {
    /// Bytes off the connection (status lines, heads, framing, bodies): false past the budget.
    func received(_ count: Int) -> Bool
    /// One head line with its line ending, as an HTTP stack hands them over (libcurl): false
    /// to stop.
    func headLine(_ line: UnsafeRawBufferPointer) -> Bool
    /// A head parsed by the HTTP stack (URLSession): false not to read the body.
    func head(status: Int, fields: [(String, String)]) -> Bool
    /// A run of body bytes: false to stop.
    func body(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Whether the rest of a response the handler stopped reading is short enough to read
    /// through, for its connection's sake.
    var drainable: Bool { get }
}

/// A probe's use of a transport: its requests go one after another, on one connection where
/// the server allows it (the Range requests of a probe share one, and the next probe to the
/// host takes it over).
protocol ProbeChannel: AnyObject, Sendable {
    /// Requests sent so far.
    var requests: Int { get }
    /// Sends `request` and hands the response to `handler` as it arrives; `completion` is
    /// called once, on the transport's thread or queue, with how the body ended or the class
    /// of failure. Bytes the handler didn't want are not kept: the transfer is dropped, or,
    /// when the handler says the rest is short (`drainable`), read through and discarded so
    /// its connection can carry the next request.
    func start(_ request: HTTPRequest, until deadline: Deadline, _ handler: ResponseHandler,
               completion: @escaping @Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void)
    /// Ends the current exchange, and any later one, at once (`cancelled`).
    func cancel()
}

/// A platform HTTP stack, shared by all of a fetcher's probes (its connections, DNS cache
/// and TLS sessions are).
protocol ProbeTransport: AnyObject, Sendable {
    func channel() -> ProbeChannel
    /// Stops every transfer and frees the stack; called when the fetcher goes away.
    func shutdown()
}

enum TransportLimits {
    /// The longest a drain goes on after the answer was delivered; then the connection is
    /// dropped.
    static let drainTime: TimeInterval = 0.1
    /// The socket receive buffer asked for (Linux doubles it): it bounds the TCP window, so a
    /// server ignoring Range cannot have pushed much past the answer when the transfer stops.
    static let receiveBuffer: Int32 = 16 * 1024
}

/// An instant on the monotonic clock. `DispatchTime` is available at every platform floor,
/// where `ContinuousClock` needs macOS 13 / iOS 16.
struct Deadline: Comparable, Sendable {
    /// The longest span a deadline is set ahead: a huge configured timeout must not overflow.
    static let longest: TimeInterval = 365 * 86400

    var uptimeNanoseconds: UInt64

    static var now: Deadline { Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds) }

    /// This instant plus `seconds`, clamped to between 0 and a year (NaN counts as 0).
    func adding(_ seconds: TimeInterval) -> Deadline {
        let span = Deadline.clamped(seconds)
        return Deadline(uptimeNanoseconds: uptimeNanoseconds &+ UInt64(span * 1e9))
    }

    /// Seconds from now until this instant; 0 or less when it has passed.
    var secondsLeft: TimeInterval {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= uptimeNanoseconds ? -Double(now - uptimeNanoseconds) / 1e9 : Double(uptimeNanoseconds - now) / 1e9
    }

    static func clamped(_ seconds: TimeInterval) -> TimeInterval {
        seconds > 0 ? min(seconds, longest) : 0
    }

    static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.uptimeNanoseconds < rhs.uptimeNanoseconds }
}

extension TimeInterval {
    /// Whole milliseconds, at least 1 (0 means "no limit" to libcurl), clamped to a year.
    var wholeMillisecondsForCurl: Int { max(1, Int((Deadline.clamped(self) * 1000).rounded(.up))) }
}

extension NSLock {
    /// `body` with the lock held. (Foundation's `withLock` is newer than the package's Apple
    /// deployment targets.)
    @inline(__always)
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
