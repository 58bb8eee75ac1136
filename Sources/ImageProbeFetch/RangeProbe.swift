import Foundation
import ImageProbe

/// One probe of one URL: the transfer strategy of SPEC.md §6.
///
/// 1. `GET` with `Range: bytes=0-(initialRangeLength−1)`, feeding the scanner as bytes arrive.
/// 2. On 206, ask next for what the scanner still needs (at least `minimumRequest` bytes, to
///    save round trips). A pending skip of `jumpThreshold` bytes or more is jumped: the next
///    Range starts past it, and the scanner is told with `skip(_:)`.
/// 3. On 200 (Range ignored), stream the body and stop reading at the answer.
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

    func run(_ url: URL) throws(FetchError) -> Outcome {
        var current = url
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        var scanner: HeaderScanner? = nil
        var position: UInt64 = 0
        var want = UInt64(max(1, configuration.initialRangeLength))
        var totalLength: UInt64? = nil

        while true {
            if cancellation.isCancelled { throw FetchError(.cancelled, "cancelled") }
            if let total = totalLength, position >= total {
                return try conclude(&scanner, at: current, ended: true)
            }
            if let total = totalLength { want = min(want, total - position) }
            // Every request is a Range request: a server that ignores Range ends the probe (200).
            // A jump can point anywhere in 2^64 (a crafted TIFF offset): past the end of offsets,
            // the input ends there.
            let (last, overflow) = position.addingReportingOverflow(want - 1)
            if overflow { return try conclude(&scanner, at: current, ended: true) }
            let range = (first: position, last: last)
            let deadline = ContinuousClock.now + configuration.requestTimeout
            let head = try transport.send(HTTPRequest(url: current, range: range, userAgent: configuration.userAgent), until: deadline)

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
                guard next.scheme == "http" || next.scheme == "https" else {
                    throw FetchError(.unsupportedURL, "redirect to a non-HTTP URL", status: head.status)
                }
                visited.insert(next.absoluteString)
                current = next
                continue
            case 416:
                // Nothing at or after `position`: the resource ends there.
                transport.abandon()
                return try conclude(&scanner, at: current, ended: true)
            case 200:
                try checkCoding(head)
                // The server ignores Range and sends the whole resource from byte 0.
                var active = scanner ?? makeScanner(length: head.contentLength)
                var discard = position
                let end = try stream(into: &active, deadline: deadline, discard: &discard)
                scanner = active
                return try conclude(&scanner, at: current, ended: end != .stopped)
            case 206:
                try checkCoding(head)
                guard let contentRange = head.contentRange else {
                    transport.abandon()
                    throw FetchError(.badContentRange, "206 response without a Content-Range", status: 206)
                }
                guard contentRange.first == range.first, contentRange.last <= range.last else {
                    transport.abandon()
                    throw FetchError(.badContentRange, "Content-Range \(contentRange.first)-\(contentRange.last) answers a request for \(range.first)-\(range.last)", status: 206)
                }
                if totalLength == nil { totalLength = contentRange.total }
                var active = scanner ?? makeScanner(length: contentRange.total)
                var discard: UInt64 = 0
                let end = try stream(into: &active, deadline: deadline, discard: &discard)
                scanner = active
                if end == .stopped { return try conclude(&scanner, at: current, ended: false) }
                let received = contentRange.last - contentRange.first + 1
                guard end == .complete, let scanned = scanner, scanned.bytesConsumed == position + received else {
                    // The connection closed inside the range: the input ends here.
                    return try conclude(&scanner, at: current, ended: true)
                }
                position += received
                var next = scanned
                var floor = UInt64(max(1, configuration.minimumRequest))
                if next.pendingSkip >= UInt64(configuration.jumpThreshold) {
                    position += next.skip(next.pendingSkip)
                } else if configuration.requestGrowth > 0 {
                    // Reading on where the last request ended: the header is longer than it
                    // looked, so grow the requests, to bound the round trips.
                    let (grown, overflow) = received.multipliedReportingOverflow(by: UInt64(configuration.requestGrowth))
                    floor = max(floor, overflow ? UInt64.max >> 1 : grown)
                }
                scanner = next
                // Asked after the jump: `needMore` counts the skip and is capped by `maxBytes`.
                guard case .needMore(let needed) = next.status else { return try conclude(&scanner, at: current, ended: false) }
                want = max(UInt64(needed), floor)
            default:
                transport.abandon()
                if head.status >= 400 {
                    throw FetchError(.httpStatus, "the server answered \(head.status)", status: head.status)
                }
                throw FetchError(.invalidResponse, "unexpected status", status: head.status)
            }
        }
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

    /// Feeds the body to the scanner until it answers (then stops reading at once), after
    /// passing over `discard` bytes already scanned.
    private func stream(
        into scanner: inout HeaderScanner, deadline: ContinuousClock.Instant, discard: inout UInt64
    ) throws(FetchError) -> BodyEnd {
        var overLimit = false
        let end = try transport.readBody(until: deadline) { bytes in
            var chunk = bytes
            if discard > 0 {
                let drop = Int(min(discard, UInt64(chunk.count)))
                discard -= UInt64(drop)
                chunk = UnsafeRawBufferPointer(rebasing: chunk[drop...])
                if chunk.isEmpty { return true }
            }
            let status = scanner.feed(chunk)
            if transport.bytesReceived > configuration.maxBytes {
                overLimit = true
                return false
            }
            return !status.isTerminal
        }
        if overLimit, !scanner.status.isTerminal {
            throw FetchError(.limitExceeded, "more than \(configuration.maxBytes) bytes without an answer")
        }
        return end
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
            throw FetchError(.scan, "the response ended before the header", scanFailure: ScanFailure(.truncated, "input ended inside the header"))
        }
    }
}
