import Foundation
import ImageProbe

/// One probe of one URL: the transfer strategy of SPEC.md §6.
///
/// 1. `GET` with `Range: bytes=0-(initialRangeLength−1)`, feeding the scanner as bytes arrive.
/// 2. On 206, ask next for what the scanner still needs (at least `minimumRequest` bytes, and
///    growing). A pending skip of `jumpThreshold` bytes or more is jumped: the next Range
///    starts past it, and the scanner is told with `skip(_:)`.
/// 3. On 200 (Range ignored, or the resource changed: `If-Range`), scan the body from its
///    start and stop reading at the answer.
/// 4. Follow redirects up to `maxRedirects`, refusing loops; fail clearly on HTTP errors,
///    content codings, and a missing or wrong Content-Range.
struct RangeProbe {
    let configuration: FetchConfiguration
    let transport: ProbeTransport
    let cancellation: Cancellation

    struct Outcome {
        var info: ImageInfo
        var finalURL: URL
    }

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
        /// The request count when the scanner first knew the size; the metadata search after
        /// it is bounded by `maxMetadataRequests`.
        var sizeKnownAtRequest: Int? = nil
    }

    static let metadataLimit = ScanFailure(.limitExceeded, .metadataRequestLimit)
    static let transferLimit = ScanFailure(.limitExceeded, .metadataTransferLimit)
    static let timeLimit = ScanFailure(.limitExceeded, .metadataTimeLimit)

    func run(_ url: URL) throws(FetchError) -> Outcome {
        var current = url
        var progress = Progress(want: UInt64(max(1, configuration.initialRangeLength)))
        do throws(FetchError) {
            return try follow(url, &current, &progress)
        } catch {
            // A transfer limit or a timeout after the scanner knew the size ends only the
            // metadata search: the answer is partial, not an error.
            let reason: ScanFailure? = switch error.kind {
            case .limitExceeded where error.scanFailure == nil: Self.transferLimit
            case .timeout: Self.timeLimit
            default: nil
            }
            if let reason, let partial = partialAnswer(progress.scanner, reason, at: current) { return partial }
            throw error
        }
    }

    private func follow(_ url: URL, _ current: inout URL, _ progress: inout Progress) throws(FetchError) -> Outcome {
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        let initialWant = progress.want
        let probeDeadline = ContinuousClock.now + configuration.probeTimeout.clampedForDeadline

        while true {
            if cancellation.isCancelled { throw FetchError(.cancelled, "cancelled") }
            if let total = progress.totalLength, progress.position >= total {
                return try conclude(&progress.scanner, at: current, ended: true)
            }
            if let sizeKnownAt = progress.sizeKnownAtRequest,
               transport.requests - sizeKnownAt >= max(0, configuration.maxMetadataRequests),
               let partial = partialAnswer(progress.scanner, Self.metadataLimit, at: current) {
                return partial
            }
            guard transport.requests < max(1, configuration.maxRequests) else {
                throw FetchError(.limitExceeded, "more than \(configuration.maxRequests) requests without an answer")
            }
            if let total = progress.totalLength { progress.want = min(progress.want, total - progress.position) }
            // Every request is a Range request: a server that ignores Range ends the probe (200).
            // A jump can point anywhere in 2^64 (a crafted TIFF offset): past the end of offsets,
            // the input ends there.
            let (last, overflow) = progress.position.addingReportingOverflow(progress.want - 1)
            if overflow { return try conclude(&progress.scanner, at: current, ended: true) }
            let range = (first: progress.position, last: last)
            let now = ContinuousClock.now
            if now >= probeDeadline { throw FetchError(.timeout, "no answer within the probe's time limit") }
            let deadline = min(probeDeadline, now + configuration.requestTimeout.clampedForDeadline)
            let request = HTTPRequest(url: current, range: range, ifRange: progress.validator, userAgent: configuration.userAgent)
            let head = try transport.send(request, until: deadline)

            switch head.status {
            case 301, 302, 303, 307, 308:
                transport.abandon()
                guard let location = head.header("location"), let next = URL(string: location, relativeTo: current)?.absoluteURL else {
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
                continue
            case 416:
                // Nothing at or after `position`: the resource ends there.
                transport.abandon()
                return try conclude(&progress.scanner, at: current, ended: true)
            case 200:
                try checkCoding(head)
                // The whole resource from byte 0: Range ignored, or If-Range found it changed.
                // What was scanned so far may be another version, so scan afresh.
                progress.scanner = makeScanner(length: head.contentLength)
                let end = try stream(into: &progress.scanner, limit: nil, deadline: deadline)
                return try conclude(&progress.scanner, at: current, ended: end != .stopped)
            case 206:
                try checkCoding(head)
                let received = try checkedRange(head, asked: range, known: progress.totalLength)
                if progress.totalLength == nil { progress.totalLength = head.contentRange?.total }
                if progress.validator == nil { progress.validator = head.rangeValidator }
                if progress.scanner == nil { progress.scanner = makeScanner(length: head.contentRange?.total) }
                let end = try stream(into: &progress.scanner, limit: received, deadline: deadline)
                var active = progress.scanner ?? makeScanner(length: head.contentRange?.total)  // never nil: `stream` sets it
                if progress.sizeKnownAtRequest == nil, partialAnswer(active, Self.metadataLimit, at: current) != nil {
                    progress.sizeKnownAtRequest = transport.requests
                }
                if end == .stopped { return try conclude(&progress.scanner, at: current, ended: false) }
                // Content-Range ends at most at UInt64.max: the next offset may not exist.
                let (after, pastEnd) = range.first.addingReportingOverflow(received)
                guard end == .complete, !pastEnd, active.bytesConsumed == after else {
                    // The connection closed inside the range: the input ends here.
                    return try conclude(&progress.scanner, at: current, ended: true)
                }
                progress.position = after
                var floor = UInt64(max(1, configuration.minimumRequest))
                if active.pendingSkip >= UInt64(max(0, configuration.jumpThreshold)) {
                    let (jumped, overflow) = progress.position.addingReportingOverflow(active.skip(active.pendingSkip))
                    if overflow { return try conclude(&progress.scanner, at: current, ended: true) }
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
                guard case .needMore(let needed) = active.status else { return try conclude(&progress.scanner, at: current, ended: false) }
                progress.want = max(UInt64(needed), floor)
            default:
                transport.abandon()
                if head.status >= 400 {
                    throw FetchError(.httpStatus, "the server answered \(head.status)", status: head.status)
                }
                throw FetchError(.invalidResponse, "unexpected status", status: head.status)
            }
        }
    }

    /// The number of body bytes a 206 response carries, once its Content-Range is checked
    /// against the request, the resource's length seen so far and the Content-Length.
    private func checkedRange(
        _ head: HTTPResponseHead, asked range: (first: UInt64, last: UInt64), known total: UInt64?
    ) throws(FetchError) -> UInt64 {
        func refuse(_ message: String) -> FetchError {
            transport.abandon()
            return FetchError(.badContentRange, message, status: 206)
        }
        guard let contentRange = head.contentRange else { throw refuse("206 response without a valid Content-Range") }
        guard contentRange.first == range.first, contentRange.last <= range.last else {
            throw refuse("Content-Range \(contentRange.first)-\(contentRange.last) answers a request for \(range.first)-\(range.last)")
        }
        if let total, let now = contentRange.total, now != total {
            throw refuse("the resource's length changed from \(total) to \(now) during the probe")
        }
        let received = contentRange.last - contentRange.first + 1
        if let length = head.contentLength, length != received {
            throw refuse("Content-Length \(length) disagrees with Content-Range \(contentRange.first)-\(contentRange.last)")
        }
        return received
    }

    private func makeScanner(length: UInt64?) -> HeaderScanner {
        var options = configuration.scanOptions
        if options.inputLength == nil { options.inputLength = length }
        return HeaderScanner(options: options)
    }

    private func checkCoding(_ head: HTTPResponseHead) throws(FetchError) {
        if let coding = head.contentEncoding {
            transport.abandon()
            throw FetchError(.contentEncoded, "the body is \(coding)-encoded, not the image's bytes", status: head.status)
        }
    }

    /// Feeds the body to the scanner until it answers (then stops reading at once). With a
    /// `limit`, a body longer than it is refused: those bytes are not the range asked for.
    /// The scanner's progress is kept in `slot` even when reading fails, so a limit can still
    /// give the size found so far.
    private func stream(
        into slot: inout HeaderScanner?, limit: UInt64?, deadline: ContinuousClock.Instant
    ) throws(FetchError) -> BodyEnd {
        var scanner = slot ?? HeaderScanner(options: configuration.scanOptions)
        defer { slot = scanner }
        var overLimit = false
        var tooLong = false
        var left = limit ?? .max
        let end = try transport.readBody(until: deadline) { chunk in
            guard UInt64(chunk.count) <= left else {
                tooLong = true
                return false
            }
            left -= UInt64(chunk.count)
            let status = scanner.feed(chunk)
            if transport.bytesReceived > configuration.maxBytes {
                overLimit = true
                return false
            }
            return !status.isTerminal
        }
        if tooLong {
            transport.abandon()
            throw FetchError(.badContentRange, "the body is longer than its Content-Range", status: 206)
        }
        if overLimit, !scanner.status.isTerminal {
            throw FetchError(.limitExceeded, "more than \(configuration.maxBytes) bytes without an answer")
        }
        return end
    }

    /// When a limit ends the probe after the scanner knew the size: the answer the input
    /// ending here would give, marked partial with `reason`. Nil while the size is unknown.
    private func partialAnswer(_ scanner: HeaderScanner?, _ reason: ScanFailure, at url: URL) -> Outcome? {
        guard var copy = scanner, case .needMore = copy.status, case .done(var info) = copy.finish() else { return nil }
        info.partialReason = reason
        return Outcome(info: info, finalURL: url)
    }

    /// The answer: the scanner's terminal status, or what `finish()` makes of the input
    /// ending here.
    private func conclude(_ scanner: inout HeaderScanner?, at url: URL, ended: Bool) throws(FetchError) -> Outcome {
        var scanned = scanner ?? HeaderScanner(options: configuration.scanOptions)
        let status = scanned.status.isTerminal || !ended ? scanned.status : scanned.finish()
        scanner = scanned
        switch status {
        case .done(let info):
            return Outcome(info: info, finalURL: url)
        case .unsupported(let failure) where failure.code == .limitExceeded:
            // The scanner's read limit and the transfer limit are one failure to the caller.
            throw FetchError(.limitExceeded, "\(failure.code.name): \(failure.message)", scanFailure: failure)
        case .unsupported(let failure):
            throw FetchError(.scan, "\(failure.code.name): \(failure.message)", scanFailure: failure)
        case .needMore:
            throw FetchError(.scan, "the response ended before the header", scanFailure: ScanFailure(.truncated, .inputEndedInsideTheHeader))
        }
    }
}
