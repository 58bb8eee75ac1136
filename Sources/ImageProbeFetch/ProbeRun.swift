import Foundation
import ImageProbe

/// One probe of one URL: the core's `RangePlanner` (SPEC.md §6.1) driven by a transport's
/// callbacks. Each exchange's end asks the planner for the next request and starts it from the
/// transport's own thread or queue. No thread and no task of its own, so a busy dispatch pool
/// or cooperative pool doesn't hold a transfer up; only the final result goes back to the
/// caller. What needs text or a clock stays here: URLs and `Location`, the first response's
/// validators sent back as `If-Range`, and the probe's deadline.
final class ProbeRun: @unchecked Sendable {
    struct Outcome {
        var info: ImageInfo
        var finalURL: URL
    }

    private let configuration: FetchConfiguration
    private let channel: ProbeChannel

    // Touched by one thread at a time: `begin` on the caller's, then each exchange's callbacks
    // and completion on the transport's. `lock` orders the hand-overs.
    private let lock = NSLock()
    private var planner: RangePlanner
    private var current: URL
    /// The first 206 of the resource: its `ETag` or `Last-Modified` is sent as `If-Range`.
    private var firstHead: HTTPResponseHead? = nil
    /// The last response's head (a redirect's `Location`).
    private var lastHead: HTTPResponseHead? = nil
    /// The transport's own error, when an exchange failed there.
    private var transportError: FetchError? = nil
    /// Bytes of the channel already reported to the planner.
    private var counted = 0
    private var probeDeadline = Deadline.now

    private var completion: (@Sendable (Result<Outcome, FetchError>) -> Void)?
    private var cancelled = false
    private var onCancel: (@Sendable () -> Void)? = nil

    init(url: URL, configuration: FetchConfiguration, channel: ProbeChannel) {
        self.configuration = configuration
        self.channel = channel
        current = url
        planner = RangePlanner(configuration: Self.plannerConfiguration(configuration), startHash: Self.hash(url))
    }

    static func plannerConfiguration(_ configuration: FetchConfiguration) -> RangePlanner.Configuration {
        var planned = RangePlanner.Configuration()
        planned.scanOptions = configuration.scanOptions
        planned.maxBytes = UInt64(max(0, configuration.maxBytes))
        planned.maxRequests = configuration.maxRequests
        planned.maxMetadataRequests = configuration.maxMetadataRequests
        planned.maxRedirects = configuration.maxRedirects
        planned.initialRangeLength = UInt64(max(1, configuration.initialRangeLength))
        planned.minimumRequest = UInt64(max(1, configuration.minimumRequest))
        planned.requestGrowth = UInt64(max(0, configuration.requestGrowth))
        planned.jumpThreshold = UInt64(max(0, configuration.jumpThreshold))
        return planned
    }

    /// A URL's identity for the planner's loop check.
    static func hash(_ url: URL) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.absoluteString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    var bytesReceived: Int { channel.bytesReceived }
    var requests: Int { channel.requests }

    /// Starts the probe; `completion` is called once, on the transport's thread (or this one).
    func begin(_ completion: @escaping @Sendable (Result<Outcome, FetchError>) -> Void) {
        let already = lock.locked {
            self.completion = completion
            return cancelled
        }
        if already { return finish(.failure(FetchError(.cancelled, "cancelled"))) }
        probeDeadline = Deadline.now.adding(configuration.probeTimeout)
        step()
    }

    /// Ends the probe with `cancelled` as soon as its transport lets go (at once).
    func cancel() {
        let action: (@Sendable () -> Void)? = lock.locked {
            cancelled = true
            defer { onCancel = nil }
            return onCancel
        }
        channel.cancel()
        action?()
    }

    /// Something to do on cancellation (leave a queue); at once if already cancelled.
    func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        let now: Bool = lock.locked {
            if cancelled { return true }
            onCancel = action
            return false
        }
        if now { action() }
    }

    private func finish(_ result: Result<Outcome, FetchError>) {
        let (completion, wasCancelled) = lock.locked {
            defer {
                self.completion = nil
                onCancel = nil  // nothing to leave once ended
            }
            return (self.completion, cancelled)
        }
        // A cancel can end a read as if the body ended; never report (or cache) that.
        completion?(wasCancelled ? .failure(FetchError(.cancelled, "cancelled")) : result)
    }

    /// Asks the planner what's next and does it: a request, a redirect, or the end.
    private func step() {
        while true {
            if lock.locked({ cancelled }) { return finish(.failure(FetchError(.cancelled, "cancelled"))) }
            let action = lock.locked { planner.next() }
            switch action {
            case .done(let info):
                return finish(.success(Outcome(info: info, finalURL: current)))
            case .failed(let failure):
                return finish(.failure(fetchError(failure)))
            case .followRedirect:
                let (location, status) = lock.locked { (lastHead?.header("location"), lastHead?.status) }
                guard let location, let next = Redirect.target(location, from: current) else {
                    lock.locked { planner.fail(.other) }
                    transportError = FetchError(.invalidResponse, "redirect without a usable Location", status: status)
                    continue
                }
                let scheme = next.scheme?.lowercased()
                lock.locked {
                    planner.redirect(to: Self.hash(next), isHTTP: scheme == "http" || scheme == "https")
                    current = next
                    firstHead = nil
                }
            case .send(let request):
                let now = Deadline.now
                if now >= probeDeadline {
                    lock.locked { planner.fail(.timeout) }
                    continue
                }
                return send(request, until: min(probeDeadline, now.adding(configuration.requestTimeout)))
            }
        }
    }

    private func send(_ request: RangePlanner.Request, until deadline: Deadline) {
        let validator: String? = lock.locked {
            switch request.ifRange {
            case .entityTag: firstHead?.header("etag")
            case .lastModified: firstHead?.header("last-modified")
            case nil: nil
            }
        }
        let http = HTTPRequest(url: current, range: (request.first, request.last), ifRange: validator,
                               userAgent: configuration.userAgent, byteBudget: max(0, configuration.maxBytes))
        let reader = PlannerReader(run: self, asked: request)
        channel.start(http, until: deadline, reader) { [self] result in
            lock.locked {
                count(channel.bytesReceived)
                switch result {
                case .success(let exchange):
                    switch exchange.end {
                    case .complete: planner.end(.complete)
                    case .stopped: planner.end(.stopped)
                    case .closed: planner.end(.closed)
                    }
                case .failure(let error):
                    transportError = error
                    switch error.code {
                    case .timeout: planner.fail(.timeout)
                    case .limitExceeded: planner.fail(.limitExceeded)
                    default: planner.fail(.other)
                    }
                }
            }
            step()
        }
    }

    /// Reports the channel's bytes since the last report to the planner. With `lock` held.
    private func count(_ total: Int) {
        if total > counted {
            _ = planner.received(UInt64(total - counted))
            counted = total
        }
    }

    // The reader's calls, on the transport's thread.

    fileprivate func head(_ head: HTTPResponseHead, asked: RangePlanner.Request) -> Bool {
        var fields = ResponseFields()
        for (name, value) in head.headers { fields.take(name: name, value: value) }
        return lock.locked {
            lastHead = head
            if head.status == 206 && asked.first == 0 { firstHead = head }
            count(channel.bytesReceived)
            return planner.head(status: head.status, fields: fields)
        }
    }

    fileprivate func body(_ bytes: UnsafeRawBufferPointer, received: Int) -> Bool {
        lock.locked {
            count(received)
            return planner.body(bytes)
        }
    }

    /// The planner's failure as a `FetchError`; the transport's own error where it failed there.
    private func fetchError(_ failure: RangePlanner.Failure) -> FetchError {
        if failure.code == .transport || (failure.code == .timeout && transportError?.code == .timeout),
           let transportError, failure.scanFailure == nil {
            return transportError
        }
        var error = FetchError(FetchError.Code(failure.code.name), failure.message, status: failure.status, scanFailure: failure.scanFailure)
        error.refusedImage = failure.refusedImage
        return error
    }
}

/// Hands one response's head and body to the probe's planner, on the transport's thread.
final class PlannerReader: ResponseHandler, @unchecked Sendable {
    private weak var run: ProbeRun?
    private let asked: RangePlanner.Request

    init(run: ProbeRun, asked: RangePlanner.Request) {
        self.run = run
        self.asked = asked
    }

    func head(_ head: HTTPResponseHead) -> Bool { run?.head(head, asked: asked) ?? false }

    func body(_ bytes: UnsafeRawBufferPointer, received: Int) -> Bool { run?.body(bytes, received: received) ?? false }
}
