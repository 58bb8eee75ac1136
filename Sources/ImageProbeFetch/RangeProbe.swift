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
///
/// Each response is read by a `ResponseReader` on the transport's own thread, so the scanner
/// sees the bytes as they arrive and the transfer stops at the chunk that answers.
struct RangeProbe {
    let configuration: FetchConfiguration

    struct Outcome {
        var info: ImageInfo
        var finalURL: URL
    }

    static let metadataLimit = ScanFailure(.limitExceeded, .metadataRequestLimit)
    static let transferLimit = ScanFailure(.limitExceeded, .metadataTransferLimit)
    static let timeLimit = ScanFailure(.limitExceeded, .metadataTimeLimit)

    /// The number of body bytes a 206 response carries, once its Content-Range is checked
    /// against the request, the resource's length seen so far and the Content-Length.
    func checkedRange(
        _ head: HTTPResponseHead, asked range: (first: UInt64, last: UInt64), known total: UInt64?
    ) throws(FetchError) -> UInt64 {
        func refuse(_ message: String) -> FetchError {
            FetchError(.badContentRange, message, status: 206)
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

    func makeScanner(length: UInt64?) -> HeaderScanner {
        var options = configuration.scanOptions
        if options.inputLength == nil { options.inputLength = length }
        return HeaderScanner(options: options)
    }

    /// When a limit ends the probe after the scanner knew the size: the answer the input
    /// ending here would give, marked partial with `reason`. Nil while the size is unknown.
    func partialAnswer(_ scanner: HeaderScanner?, _ reason: ScanFailure, at url: URL) -> Outcome? {
        guard var copy = scanner, case .needMore = copy.status, case .done(var info) = copy.finish() else { return nil }
        info.partialReason = reason
        return Outcome(info: info, finalURL: url)
    }

    /// The answer: the scanner's terminal status, or what `finish()` makes of the input
    /// ending here.
    func conclude(_ scanner: inout HeaderScanner?, at url: URL, ended: Bool) throws(FetchError) -> Outcome {
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

/// Reads one response for the probe, on the transport's thread: checks the head, feeds the
/// body to the scanner, and stops at the answer, at a body longer than its range, or past
/// `maxBytes`. Its state is read by the probe once the exchange has ended.
final class ResponseReader: ResponseHandler, @unchecked Sendable {
    struct State {
        var scanner: HeaderScanner?
        /// Why the response can't be used, found in its head.
        var refusal: FetchError? = nil
        /// A 206's length, from its Content-Range.
        var rangeLength: UInt64 = 0
        /// Body bytes still allowed (a 206's range); nil for no bound.
        var left: UInt64? = nil
        var tooLong = false
        var overLimit = false

        /// The refusals found while the body streamed.
        func checkLimits(_ configuration: FetchConfiguration) throws(FetchError) {
            if tooLong { throw FetchError(.badContentRange, "the body is longer than its Content-Range", status: 206) }
            if overLimit, !(scanner?.status.isTerminal ?? false) {
                throw FetchError(.limitExceeded, "more than \(configuration.maxBytes) bytes without an answer")
            }
        }
    }

    private let lock = NSLock()
    private var state: State
    private let probe: RangeProbe
    private let asked: (first: UInt64, last: UInt64)
    private let known: UInt64?

    init(probe: RangeProbe, asked: (first: UInt64, last: UInt64), known: UInt64?, scanner: HeaderScanner?) {
        self.probe = probe
        self.asked = asked
        self.known = known
        state = State(scanner: scanner)
    }

    var result: State { lock.locked { state } }

    func head(_ head: HTTPResponseHead) -> Bool {
        lock.locked {
            guard head.status == 200 || head.status == 206 else { return false }
            if let coding = head.contentEncoding {
                state.refusal = FetchError(.contentEncoded, "the body is \(coding)-encoded, not the image's bytes", status: head.status)
                return false
            }
            if head.status == 200 {
                state.scanner = probe.makeScanner(length: head.contentLength)
                return true
            }
            do throws(FetchError) {
                state.rangeLength = try probe.checkedRange(head, asked: asked, known: known)
            } catch {
                state.refusal = error
                return false
            }
            state.left = state.rangeLength
            if state.scanner == nil { state.scanner = probe.makeScanner(length: head.contentRange?.total) }
            return true
        }
    }

    func body(_ bytes: UnsafeRawBufferPointer, received: Int) -> Bool {
        lock.locked {
            if let left = state.left {
                guard UInt64(bytes.count) <= left else {
                    state.tooLong = true
                    return false
                }
                state.left = left - UInt64(bytes.count)
            }
            guard let status = state.scanner?.feed(bytes) else { return false }
            if received > probe.configuration.maxBytes {
                state.overLimit = true
                return false
            }
            return !status.isTerminal
        }
    }
}
