import Foundation

/// How a response body ended.
enum BodyEnd: Sendable {
    /// All of it arrived.
    case complete
    /// The handler asked to stop; the rest was not given to it.
    case stopped
    /// The connection closed before the body's declared end.
    case closed
}

/// Receives one response as it arrives, on the transport's own thread or queue, so the
/// transfer can stop at the very chunk that answers: `head` once (for the final, non-1xx
/// response), then `body` for each run of bytes until it returns false or the body ends.
/// Calls never overlap, and all of them happen before the exchange returns.
protocol ResponseHandler: AnyObject, Sendable {
    /// Whether to read the body.
    func head(_ head: HTTPResponseHead) -> Bool
    /// Takes a run of body bytes; `received` counts every byte of the probe so far (heads
    /// included), these too. False stops the transfer.
    func body(_ bytes: UnsafeRawBufferPointer, received: Int) -> Bool
}

/// One exchange's result.
struct Exchange: Sendable {
    var head: HTTPResponseHead
    var end: BodyEnd
}

/// A probe's use of a transport: its requests go one after another, on one connection where
/// the server allows it (the Range requests of a probe share one, and the next probe to the
/// host takes it over).
protocol ProbeChannel: AnyObject, Sendable {
    /// Bytes received so far, response heads included (URLSession: bodies only).
    var bytesReceived: Int { get }
    /// Requests sent so far.
    var requests: Int { get }
    /// Sends `request` and hands the response to `handler` as it arrives; `completion` is
    /// called once, on the transport's thread or queue, when the exchange has ended. Bytes the
    /// handler didn't want are not kept: the transfer is dropped, or, when at most
    /// `TransportLimits.drainLimit` bytes of a response with a known length are left, read
    /// through and discarded so its connection can carry the next request.
    func start(_ request: HTTPRequest, until deadline: Deadline, _ handler: ResponseHandler,
               completion: @escaping @Sendable (Result<Exchange, FetchError>) -> Void)
    /// Ends the current exchange, and any later one, with `cancelled`, at once.
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
    /// The most bytes read through and discarded after the probe stopped caring about a
    /// response, to keep its connection: more than this, and the connection is dropped.
    static let drainLimit: UInt64 = 64 * 1024
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
