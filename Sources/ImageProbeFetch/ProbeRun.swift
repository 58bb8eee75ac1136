import Foundation
import ImageProbe

/// One probe of one URL: the core's `RangePlanner` (SPEC.md §6.1), which owns every rule of the
/// exchange, driven through a transport. This is only the transport's glue: it sends the
/// request the planner makes, passes on what the transport reports, enforces the deadlines,
/// and turns the planner's failure into a `FetchError`. No thread or task of its own: each
/// exchange's end starts the next from the transport's thread or queue.
final class ProbeRun: ResponseHandler, @unchecked Sendable {
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
    /// The transport's words for its last failure, for the message.
    private var detail: String? = nil
    private var probeDeadline = Deadline.now
    private var completion: (@Sendable (Result<Outcome, FetchError>) -> Void)?
    private var cancelled = false
    private var onCancel: (@Sendable () -> Void)? = nil
    /// The request (by the planner's count) whose `Retry-After` wait has been served.
    private var waitServed = 0

    init(url: URL, configuration: FetchConfiguration, channel: ProbeChannel) {
        self.configuration = configuration
        self.channel = channel
        planner = RangePlanner(configuration: Self.plannerConfiguration(configuration), url: url.absoluteString)
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

    var bytesReceived: Int { lock.locked { Int(clamping: planner.bytesReceived) } }
    var requests: Int { channel.requests }

    /// Starts the probe; `completion` is called once, on the transport's thread (or this one).
    func begin(_ completion: @escaping @Sendable (Result<Outcome, FetchError>) -> Void) {
        lock.locked {
            self.completion = completion
            probeDeadline = Deadline.now.adding(configuration.probeTimeout)
        }
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
        step()
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

    /// What `step` does next.
    private enum Next {
        case send(HTTPRequest, until: Deadline)
        /// Wait this many seconds first: a 429 or 503's `Retry-After`.
        case wait(UInt32)
        case finish
    }

    /// Asks the planner what's next and does it: a request (after its wait), or the end.
    private func step() {
        let next: Next = lock.locked {
            guard completion != nil else { return .finish }
            if cancelled { planner.fail(.cancelled) }
            let now = Deadline.now
            // A wait not yet served must end before the probe's deadline too.
            if case .send(let planned) = planner.next(),
               now.adding(TimeInterval(waitServed == planner.requestCount ? 0 : planned.wait)) >= probeDeadline {
                detail = nil
                planner.fail(.timeout)
            }
            guard case .send(let planned) = planner.next() else { return .finish }
            if planned.wait > 0 && waitServed != planner.requestCount {
                waitServed = planner.requestCount
                return .wait(planned.wait)
            }
            let request = HTTPRequest(planner, userAgent: configuration.userAgent, byteBudget: max(0, configuration.maxBytes))
            return .send(request, until: min(probeDeadline, now.adding(configuration.requestTimeout)))
        }
        let (request, deadline): (HTTPRequest, Deadline)
        switch next {
        case .finish:
            return finish()
        case .wait(let seconds):
            // A cancel meanwhile ends the probe at once (`cancel` steps); this step then finds
            // it finished.
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(seconds))) { [self] in step() }
            return
        case .send(let planned, let until):
            (request, deadline) = (planned, until)
        }
        channel.start(request, until: deadline, self) { [self] result in
            lock.locked {
                switch result {
                case .success(let end): planner.end(end)
                case .failure(let error):
                    detail = error.detail
                    planner.fail(error.kind)
                }
            }
            step()
        }
    }

    /// Calls the completion with the planner's answer or failure (once).
    private func finish() {
        let (completion, result): ((@Sendable (Result<Outcome, FetchError>) -> Void)?, Result<Outcome, FetchError>) = lock.locked {
            defer {
                self.completion = nil
                onCancel = nil
            }
            let finalURL = URL(string: planner.requestURL) ?? URL(fileURLWithPath: "/")
            // A cancel can end a read as if the body ended; never report (or cache) that.
            if cancelled { return (self.completion, .failure(FetchError(.cancelled, "cancelled"))) }
            switch planner.next() {
            case .done(let info): return (self.completion, .success(Outcome(info: info, finalURL: finalURL)))
            case .failed(let failure): return (self.completion, .failure(fetchError(failure)))
            case .notModified:
                // Defensive: this fetcher never makes a probe conditional (`revalidate`).
                return (self.completion, .failure(FetchError(.invalidResponse, "not modified, and no answer held")))
            case .send: return (nil, .failure(FetchError(.cancelled, "cancelled")))
            }
        }
        completion?(result)
    }

    /// The planner's failure as a `FetchError`, with the transport's words where it failed there.
    private func fetchError(_ failure: RangePlanner.Failure) -> FetchError {
        var message = failure.message
        switch failure.code {
        case .connection, .forbiddenAddress, .invalidResponse, .timeout:
            if failure.scanFailure == nil, let detail, !detail.isEmpty { message += ": " + detail }
        default: break
        }
        var error = FetchError(FetchError.Code(failure.code.name), message, status: failure.status, scanFailure: failure.scanFailure)
        error.refusedImage = failure.refusedImage
        return error
    }

    // The handler's calls, on the transport's thread.

    func received(_ count: Int) -> Bool { lock.locked { planner.received(UInt64(max(0, count))) } }
    func headLine(_ line: UnsafeRawBufferPointer) -> Bool { lock.locked { planner.headLine(line) } }
    func body(_ bytes: UnsafeRawBufferPointer) -> Bool { lock.locked { planner.body(bytes) } }
    var drainable: Bool { lock.locked { planner.drainable } }

    func head(status: Int, fields: [(String, String)]) -> Bool {
        lock.locked {
            for (name, value) in fields { planner.field(name: name, value: value) }
            return planner.head(status: status)
        }
    }
}
