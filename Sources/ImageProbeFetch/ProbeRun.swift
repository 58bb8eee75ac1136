import Foundation
import ImageProbe

/// One probe of one URL, driven by its transport's callbacks: each exchange's end decides the
/// next request (`RangeProbe`'s strategy) and starts it from the transport's own thread or
/// queue. No thread and no task of its own, so a busy dispatch pool or cooperative pool
/// doesn't hold a transfer up; only the final result goes back to the caller.
final class ProbeRun: @unchecked Sendable {
    private let url: URL
    private let strategy: RangeProbe
    private let channel: ProbeChannel
    private var configuration: FetchConfiguration { strategy.configuration }

    // The state below is touched by one thread at a time: `begin` on the caller's, then each
    // exchange's completion on the transport's. The channel's lock orders the hand-overs.
    private var current: URL
    private var progress: Progress
    private var visited: Set<String>
    private var redirects = 0
    /// Fresh starts after the resource changed under the probe (at most one).
    private var restarts = 0
    private let initialWant: UInt64
    private var probeDeadline = Deadline.now

    private let lock = NSLock()
    private var completion: (@Sendable (Result<RangeProbe.Outcome, FetchError>) -> Void)?
    private var cancelled = false
    private var onCancel: (@Sendable () -> Void)? = nil

    /// What has been learnt of the resource so far; reset when a redirect moves the probe.
    private struct Progress {
        var scanner: HeaderScanner? = nil
        /// The offset the next request starts at.
        var position: UInt64 = 0
        var want: UInt64
        /// The length from the first Content-Range, when the server said it.
        var totalLength: UInt64? = nil
        /// The first response's validator, sent as If-Range so ranges of two versions of the
        /// resource are never mixed.
        var validator: String? = nil
        /// The first response's ETag and Last-Modified: a later 206 that states a different
        /// one is from another version, whatever the server did with If-Range.
        var entityTag: String? = nil
        var lastModified: String? = nil
        /// The request count when the scanner first knew the size; the metadata search after
        /// it is bounded by `maxMetadataRequests`.
        var sizeKnownAtRequest: Int? = nil
    }

    init(url: URL, configuration: FetchConfiguration, channel: ProbeChannel) {
        self.url = url
        strategy = RangeProbe(configuration: configuration)
        self.channel = channel
        current = url
        visited = [url.absoluteString]
        initialWant = UInt64(max(1, configuration.initialRangeLength))
        progress = Progress(want: initialWant)
    }

    var bytesReceived: Int { channel.bytesReceived }
    var requests: Int { channel.requests }

    /// Starts the probe; `completion` is called once, on the transport's thread (or this one).
    func begin(_ completion: @escaping @Sendable (Result<RangeProbe.Outcome, FetchError>) -> Void) {
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

    private func finish(_ result: Result<RangeProbe.Outcome, FetchError>) {
        var result = result
        if case .failure(let error) = result {
            // A transfer limit or a timeout after the scanner knew the size ends only the
            // metadata search: the answer is partial, not an error.
            let reason: ScanFailure? = switch error.code {
            case .limitExceeded where error.scanFailure == nil: RangeProbe.transferLimit
            case .timeout: RangeProbe.timeLimit
            default: nil
            }
            if let reason, let partial = strategy.partialAnswer(progress.scanner, reason, at: current) {
                result = .success(partial)
            } else if error.code == .limitExceeded && error.scanFailure == nil {
                // The transfer's budget spent without an answer is the scanner's own limit to
                // the caller, whichever tripped first (they count nearly the same bytes): one
                // code and one exit status, on every protocol (SPEC.md §4, §6.1).
                var limited = error
                limited.scanFailure = ScanFailure(.limitExceeded, .headerNotFoundWithinMaxBytes)
                result = .failure(limited)
            }
        }
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

    /// Sends the next request, or ends the probe.
    private func step() {
        do throws(FetchError) {
            if let outcome = try next() { finish(.success(outcome)) }
        } catch {
            finish(.failure(error))
        }
    }

    /// The next request, sent; or the outcome when no request is needed.
    private func next() throws(FetchError) -> RangeProbe.Outcome? {
        if lock.locked({ cancelled }) { throw FetchError(.cancelled, "cancelled") }
        if let total = progress.totalLength, progress.position >= total {
            return try strategy.conclude(&progress.scanner, at: current, ended: true)
        }
        if let sizeKnownAt = progress.sizeKnownAtRequest,
           channel.requests - sizeKnownAt >= max(0, configuration.maxMetadataRequests),
           let partial = strategy.partialAnswer(progress.scanner, RangeProbe.metadataLimit, at: current) {
            return partial
        }
        guard channel.requests < max(1, configuration.maxRequests) else {
            throw FetchError(.limitExceeded, "more than \(configuration.maxRequests) requests without an answer")
        }
        if let total = progress.totalLength { progress.want = min(progress.want, total - progress.position) }
        // Every request is a Range request: a server that ignores Range ends the probe (200).
        // A jump can point anywhere in 2^64 (a crafted TIFF offset): past the end of offsets,
        // the input ends there.
        let (last, overflow) = progress.position.addingReportingOverflow(progress.want - 1)
        if overflow { return try strategy.conclude(&progress.scanner, at: current, ended: true) }
        let range = (first: progress.position, last: last)
        let now = Deadline.now
        if now >= probeDeadline { throw FetchError(.timeout, "no answer within the probe's time limit") }
        let deadline = min(probeDeadline, now.adding(configuration.requestTimeout))
        let request = HTTPRequest(url: current, range: range, ifRange: progress.validator, userAgent: configuration.userAgent,
                                  byteBudget: max(0, configuration.maxBytes))
        let reader = ResponseReader(probe: strategy, asked: range, known: progress.totalLength, scanner: progress.scanner)
        channel.start(request, until: deadline, reader) { [self] result in
            do throws(FetchError) {
                if let outcome = try received(result, reader, range) {
                    finish(.success(outcome))
                } else {
                    step()
                }
            } catch {
                finish(.failure(error))
            }
        }
        return nil
    }

    /// Whether a 206 after the first states another version of the resource: an ETag or a
    /// Last-Modified that differs from the first response's. A validator the first response
    /// stated and this one leaves out is no evidence (some CDNs drop them on ranges).
    private func changed(_ head: HTTPResponseHead) -> Bool {
        guard progress.position > 0 || progress.scanner != nil else { return false }
        if let first = progress.entityTag, let now = head.header("etag"), now != first { return true }
        if let first = progress.lastModified, let now = head.header("last-modified"), now != first { return true }
        return false
    }

    /// One exchange's end: the outcome, or nil to send the next request.
    private func received(
        _ result: Result<Exchange, FetchError>, _ reader: ResponseReader, _ range: (first: UInt64, last: UInt64)
    ) throws(FetchError) -> RangeProbe.Outcome? {
        let read = reader.result
        let exchange: Exchange
        switch result {
        case .success(let value):
            exchange = value
        case .failure(let error):
            // The scanner's progress is kept, so a limit can still give the size found so far.
            if let scanner = read.scanner { progress.scanner = scanner }
            throw error
        }
        if let refusal = read.refusal { throw refusal }
        let head = exchange.head

        switch head.status {
        case 301, 302, 303, 307, 308:
            guard let location = head.header("location"), let next = Redirect.target(location, from: current) else {
                throw FetchError(.invalidResponse, "redirect without a usable Location", status: head.status)
            }
            redirects += 1
            if visited.contains(next.absoluteString) {
                throw FetchError(.redirectLoop, "redirect loop at \(next.absoluteString)", status: head.status)
            }
            guard redirects <= configuration.maxRedirects else {
                throw FetchError(.tooManyRedirects, "more than \(configuration.maxRedirects) redirects", status: head.status)
            }
            guard next.scheme?.lowercased() == "http" || next.scheme?.lowercased() == "https" else {
                throw FetchError(.unsupportedURL, "redirect to a non-HTTP URL", status: head.status)
            }
            visited.insert(next.absoluteString)
            current = next
            // Another URL may be another resource: start over there.
            progress = Progress(want: initialWant)
            return nil
        case 416:
            // Nothing at or after `position`: the resource ends there.
            return try strategy.conclude(&progress.scanner, at: current, ended: true)
        case 200:
            // The whole resource from byte 0: Range ignored, or If-Range found it changed.
            // What was scanned so far may be another version: the reader scanned afresh.
            progress.scanner = read.scanner
            try read.checkLimits(configuration)
            return try strategy.conclude(&progress.scanner, at: current, ended: exchange.end != .stopped)
        case 206:
            if changed(head) {
                // Another version's bytes: never combined with the first's (SPEC.md §6.1).
                guard restarts == 0 else {
                    throw FetchError(.resourceChanged, "the resource changed twice during the probe (its ETag or Last-Modified differs between ranges)", status: 206)
                }
                restarts += 1
                progress = Progress(want: initialWant)
                return nil
            }
            let received = read.rangeLength
            if progress.totalLength == nil { progress.totalLength = head.contentRange?.total }
            if progress.validator == nil { progress.validator = head.rangeValidator }
            if progress.position == 0 {
                progress.entityTag = head.header("etag")
                progress.lastModified = head.header("last-modified")
            }
            progress.scanner = read.scanner
            try read.checkLimits(configuration)
            var active = progress.scanner ?? strategy.makeScanner(length: head.contentRange?.total)  // never nil: the reader sets it
            if progress.sizeKnownAtRequest == nil, strategy.partialAnswer(active, RangeProbe.metadataLimit, at: current) != nil {
                progress.sizeKnownAtRequest = channel.requests
            }
            if exchange.end == .stopped { return try strategy.conclude(&progress.scanner, at: current, ended: false) }
            // Content-Range ends at most at UInt64.max: the next offset may not exist.
            let (after, pastEnd) = range.first.addingReportingOverflow(received)
            guard exchange.end == .complete, !pastEnd, active.bytesConsumed == after else {
                // The connection closed inside the range: the input ends here.
                return try strategy.conclude(&progress.scanner, at: current, ended: true)
            }
            progress.position = after
            var floor = UInt64(max(1, configuration.minimumRequest))
            if active.pendingSkip >= UInt64(max(0, configuration.jumpThreshold)) {
                let (jumped, overflow) = progress.position.addingReportingOverflow(active.skip(active.pendingSkip))
                if overflow { return try strategy.conclude(&progress.scanner, at: current, ended: true) }
                progress.position = jumped
            } else if configuration.requestGrowth > 0 && progress.sizeKnownAtRequest == nil {
                // Reading on where the last request ended: the header is longer than it
                // looked, so grow the requests, to bound the round trips. Not once the
                // size is known: the metadata search is bounded by request count instead,
                // and growth would read a PNG's pixel data through.
                let (grown, overflow) = received.multipliedReportingOverflow(by: UInt64(configuration.requestGrowth))
                floor = max(floor, overflow ? UInt64.max >> 1 : grown)
            }
            progress.scanner = active
            // Asked after the jump: `needMore` counts the skip and is capped by `maxBytes`.
            guard case .needMore(let needed) = active.status else { return try strategy.conclude(&progress.scanner, at: current, ended: false) }
            progress.want = max(UInt64(needed), floor)
            return nil
        default:
            if head.status >= 400 {
                throw FetchError(.httpStatus, "the server answered \(head.status)", status: head.status)
            }
            throw FetchError(.invalidResponse, "unexpected status", status: head.status)
        }
    }
}
