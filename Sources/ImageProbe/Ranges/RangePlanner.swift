/// The strategy for probing a URL with HTTP Range requests (SPEC.md §6.1), as a state machine
/// without I/O: it says which request to send next, takes the response's facts and body bytes
/// as a transport hands them over, and answers. Any HTTP stack drives it the same way, so the
/// jumps, validators, budgets and limits are exactly the same for `ImageProbeFetch` (libcurl,
/// URLSession), the C interface, the WebAssembly module over `fetch()`, and Python over
/// `http.client`. Standard library only, allocation-free, a fixed-size value.
///
/// ```swift
/// var planner = RangePlanner()
/// while true {
///     switch planner.next() {
///     case .send(let request):          // GET with Range: bytes=first-last (and If-Range)
///         // planner.head(status:fields:), then planner.body(_:) per chunk while it says so,
///         // and planner.received(_:) with every byte off the connection; at the end
///         // planner.end(_:), or planner.fail(_:) if the exchange failed.
///     case .followRedirect:             // resolve the last response's Location, then
///         // planner.redirect(to: hash of the new URL, isHTTP: scheme is http or https)
///     case .done(let info): return info
///     case .failed(let failure): throw failure
///     }
/// }
/// ```
///
/// The driver keeps what needs text or a clock: it resolves `Location` against the URL, sends
/// the first response's `ETag` or `Last-Modified` back as `If-Range` when a request asks for
/// it, enforces deadlines, and reports a timeout with `fail(.timeout)`.
public struct RangePlanner: Sendable {
    /// The strategy's knobs, with SPEC.md §6.1's measured defaults.
    public struct Configuration: Sendable {
        /// The scanner's mode and limits. `inputLength` is filled in from the server's answer.
        public var scanOptions = ScanOptions()
        /// Most bytes one probe may receive, every byte off the connection counted (heads,
        /// framing), as the driver reports them with `received(_:)`.
        public var maxBytes: UInt64 = 16 << 20
        /// Most requests one probe may send, redirects included.
        public var maxRequests = 32
        /// Most requests once the size is known, searching for metadata (§6.1).
        public var maxMetadataRequests = 16
        /// Most redirects followed (at most 15).
        public var maxRedirects = 5
        /// The first request's length: bytes 0 to this − 1.
        public var initialRangeLength: UInt64 = 1024
        /// The smallest later request.
        public var minimumRequest: UInt64 = 1024
        /// Requests that read on where the previous one ended grow by this factor (0: off).
        public var requestGrowth: UInt64 = 2
        /// A pending skip at least this long is jumped with a new range.
        public var jumpThreshold: UInt64 = 16 * 1024

        /// The defaults.
        public init() {}
    }

    /// A request to send: `GET` with `Range: bytes=first-last`.
    public struct Request: Sendable, Hashable {
        /// The first byte asked for.
        public var first: UInt64
        /// The last byte asked for (inclusive).
        public var last: UInt64
        /// Which of the first response's validators to send back as `If-Range`, if any.
        public var ifRange: Validator?
    }

    /// A validator of the first response, sent back as `If-Range`.
    public enum Validator: Sendable, Hashable {
        /// Its strong `ETag`.
        case entityTag
        /// Its `Last-Modified`.
        case lastModified
    }

    /// What to do next.
    public enum Action: Sendable {
        /// Send this request.
        case send(Request)
        /// The last response was a redirect: resolve its `Location` against the URL that
        /// answered and call `redirect(to:isHTTP:)`, or `fail(.invalidResponse)` if it
        /// can't be resolved.
        case followRedirect
        /// The answer (partial when a limit ended the metadata search, §1.6).
        case done(ImageInfo)
        /// No answer.
        case failed(Failure)
    }

    /// How an exchange ended, as the driver saw it.
    public enum BodyEnd: Sendable {
        /// All of the body arrived.
        case complete
        /// The driver stopped reading because `head` or `body` said so.
        case stopped
        /// The connection ended before the body's end.
        case closed
    }

    /// A transport's failure, for `fail(_:)`.
    public enum TransportFailure: Sendable {
        /// A deadline passed.
        case timeout
        /// The transport's own byte budget ran out.
        case limitExceeded
        /// Anything else (connection, TLS, cancelled, refused address, a broken head): the
        /// probe fails with the driver's own error.
        case other
    }

    /// Why a probe failed.
    public struct Failure: Error, Sendable {
        /// The code; its `name` is `FetchError`'s and the CLI's JSON `error`.
        public var code: Code
        /// A sentence for people: the scanner's message when the scanner failed, else the
        /// planner's own. Kept as a reason code, so a failure (and every `Action`) is a
        /// trivial value: copied as bytes, with nothing to retain or release.
        public var message: String { reason.map { String(decoding: $0.textUTF8, as: UTF8.self) } ?? scanFailure?.message ?? "" }

        /// The planner's own message's UTF-8, in static memory (empty when the scanner's failure
        /// explains it): what the C interface copies, with no String built, where it has no
        /// `scanFailure` to fill in.
        package var reasonUTF8: UnsafeRawBufferPointer { reason?.textUTF8 ?? UnsafeRawBufferPointer(start: nil, count: 0) }
        /// The planner's own explanation; nil when the scanner's failure explains it.
        let reason: Reason?
        /// The HTTP status, for `httpStatus` (and where a response caused the failure).
        public var status: Int?
        /// The scanner's failure, for `scan` and `limitExceeded`.
        public var scanFailure: ScanFailure?
        /// The image a limit refused (`ScanFailure.Code.tooManyPixels`): its format and size.
        public var refusedImage: ImageInfo?

        /// The failure codes (`FetchError.Code` has the same names), in `nameUTF8`'s order.
        public enum Code: UInt8, Sendable, Hashable {
            /// The server answered with an error status (4xx, 5xx).
            case httpStatus
            /// More redirects than `maxRedirects`.
            case tooManyRedirects
            /// A redirect back to a URL already visited.
            case redirectLoop
            /// A 206 whose `Content-Range` doesn't match the range asked for.
            case badContentRange
            /// The body has a content coding other than `identity`.
            case contentEncoded
            /// A response the planner can't use: a conflicting `Content-Length`, a redirect without
            /// `Location`, an unexpected status, no body.
            case invalidResponse
            /// A byte or time budget ran out before the answer.
            case limitExceeded
            /// The resource changed between ranges (its validator differs).
            case resourceChanged
            /// A redirect to a URL that isn't HTTP or HTTPS.
            case unsupportedURL
            /// The scanner failed on the bytes (`scanFailure` says why).
            case scan
            /// The transport's deadline passed.
            case timeout
            /// The transport failed (connection, TLS, DNS).
            case transport

            /// The code's name, as `FetchError.Code.name`.
            public var name: String { String(decoding: nameUTF8, as: UTF8.self) }

            /// `name`'s UTF-8 in static memory, for the C interface: line `rawValue` of one
            /// literal, the names in the cases' order (a table, not a switch).
            package var nameUTF8: UnsafeRawBufferPointer {
                StaticLines("""
                    httpStatus
                    tooManyRedirects
                    redirectLoop
                    badContentRange
                    contentEncoded
                    invalidResponse
                    limitExceeded
                    resourceChanged
                    unsupportedURL
                    scan
                    timeout
                    transport
                    """).line(Int(rawValue))
            }
        }

        init(_ code: Code, _ reason: Reason, status: Int? = nil, scanFailure: ScanFailure? = nil) {
            self.code = code
            self.reason = reason
            self.status = status
            self.scanFailure = scanFailure
        }

        /// A failure the scanner's failure explains (`scan`, and its byte limit as
        /// `limitExceeded`).
        init(_ code: Code, scanFailure: ScanFailure) {
            self.code = code
            self.reason = nil
            self.scanFailure = scanFailure
        }

        /// The planner's explanations, in `textUTF8`'s order.
        enum Reason: UInt8, Sendable {
            case moreRequestsThanMaxRequests
            case invalidContentLength
            case redirectWithoutLocation
            case contentEncoded
            case resourceChanged
            case noContentRange
            case contentRangeMismatch
            case lengthChanged
            case contentLengthDisagrees
            case bodyLongerThanRange
            case resourceChangedTwice
            case errorStatus
            case unexpectedStatus
            case noBody
            case responseEndedBeforeHeader
            case moreThanMaxBytes
            case timeLimit
            case transferFailed
            case redirectLoop
            case moreRedirectsThanMaxRedirects
            case redirectToNonHTTP

            /// The message's UTF-8, in static memory: line `rawValue` of one literal, the
            /// messages in the cases' order, so a size build carries a table, not a switch.
            var textUTF8: UnsafeRawBufferPointer {
                StaticLines("""
                    more requests than maxRequests without an answer
                    invalid or conflicting Content-Length
                    redirect without a Location
                    the body is content-encoded, not the image's bytes
                    the resource changed during the probe (ETag or Last-Modified differs)
                    206 response without a valid Content-Range
                    the Content-Range doesn't answer the request
                    the resource's length changed during the probe
                    Content-Length disagrees with Content-Range
                    the body is longer than its Content-Range
                    the resource changed twice during the probe (ETag or Last-Modified differs)
                    the server answered with an error status
                    unexpected status
                    no body
                    the response ended before the header
                    more than maxBytes received without an answer
                    no answer within the time limit
                    the transfer failed
                    redirect loop
                    more redirects than maxRedirects
                    redirect to a non-HTTP URL
                    """).line(Int(rawValue))
            }
        }
    }

    // MARK: - State

    /// Where the planner is in the exchange cycle.
    enum Phase: UInt8, Sendable {
        case idle, awaitingHead, readingBody, bodyIgnored, redirecting, finished
    }

    let configuration: Configuration
    var phase = Phase.idle
    /// The answer or failure, once settled (`.done` or `.failed`); returned by every later
    /// `next()`.
    package internal(set) var settled: Action? = nil

    // What has been learnt of the resource; reset by a redirect or a fresh start.
    /// The scan of the resource, valid while `scanning`: kept in place rather than as an
    /// optional, which cost a copy of the whole scanner at each unwrapping.
    var scanner: HeaderScanner
    var scanning = false
    var position: UInt64 = 0
    var want: UInt64
    var totalLength: UInt64? = nil
    var ifRange: Validator? = nil
    var firstEntityTag: UInt64? = nil
    var firstLastModified: UInt64? = nil
    var sizeKnownAtRequest: Int? = nil

    // Counts over the whole probe.
    var requests = 0
    var redirects = 0
    var restarts = 0
    /// Every byte received, as `received(_:)` reported them.
    public private(set) var bytesReceived: UInt64 = 0
    /// URLs visited (hashes given to `redirect(to:)`), for loops.
    var visited = VisitedURLs()

    // The exchange in flight.
    var asked = Request(first: 0, last: 0, ifRange: nil)
    var status = 0
    var rangeLength: UInt64 = 0
    /// Body bytes still allowed (a 206's range); nil for no bound (a 200).
    var left: UInt64? = nil
    /// The refusal of the exchange in flight, which `end` turns into the answer: three small
    /// values rather than a `Failure`, whose optional image made each test of it a copy.
    var refusal: (code: Failure.Code, reason: Failure.Reason, status: Int)? = nil

    /// A planner with `configuration`; `startHash` names the first URL, for loop detection.
    public init(configuration: Configuration = Configuration(), startHash: UInt64 = 0) {
        self.configuration = configuration
        scanner = HeaderScanner(options: configuration.scanOptions)
        want = max(1, configuration.initialRangeLength)
        visited.insert(startHash)
    }

    /// Requests sent so far.
    public var requestCount: Int { requests }

    // MARK: - The cycle

    /// The next thing to do. Call it to start, and after each `end`, `fail` or `redirect`.
    public mutating func next() -> Action {
        // One tail: planning only changes the state, and the answer is read from it once,
        // rather than each settling branch returning (and copying) its own action.
        if let request = nextRequest() { return .send(request) }
        return settled ?? .followRedirect  // settled exactly when finished
    }

    /// `next()`'s work, for the C interface, which reads `settled` in place rather than an
    /// `Action` copied out: plans from `.idle`, then gives the request to send, or nil when
    /// the planner awaits a redirect or has settled.
    package mutating func nextRequest() -> Request? {
        if phase == .idle { plan() }
        switch phase {
        case .redirecting, .finished: return nil
        case .idle, .awaitingHead, .readingBody, .bodyIgnored: return asked  // in flight (or just planned)
        }
    }

    /// Plans the next request from `.idle`: either settles or sets `asked` and awaits its head.
    mutating func plan() {
        // A redirect or a restart after a spent budget (a driver may end the exchange rather
        // than fail it): nothing more is sent.
        if overBudget { return overBudgetFailure() }
        if let total = totalLength, position >= total { return conclude(ended: true) }
        if let sizeKnownAt = sizeKnownAtRequest, requests - sizeKnownAt >= max(0, configuration.maxMetadataRequests),
           settlePartial(Self.metadataLimit) {
            return
        }
        guard requests < max(1, configuration.maxRequests) else {
            if settlePartial(Self.transferLimit) { return }
            return settleFailed(.limitExceeded, .moreRequestsThanMaxRequests)
        }
        if let total = totalLength { want = min(want, total &- position) }
        // A jump can point anywhere in 2^64 (a crafted TIFF offset): past the end of offsets,
        // the input ends there.
        let (last, overflow) = position.addingReportingOverflow(max(1, want) &- 1)
        if overflow { return conclude(ended: true) }
        asked = Request(first: position, last: last, ifRange: ifRange)
        requests &+= 1
        phase = .awaitingHead
        status = 0
        rangeLength = 0
        left = nil
        refusal = nil
    }

    /// The response head: its status and fields. Returns whether to read the body; when not,
    /// the driver stops the transfer (or reads it through for the connection's sake) and calls
    /// `end(.stopped)`.
    public mutating func head(status: Int, fields: ResponseFields) -> Bool {
        guard phase == .awaitingHead else { return false }
        self.status = status
        phase = .bodyIgnored
        if fields.isMalformed {
            refuse(.invalidResponse, .invalidContentLength, status: status)
            return false
        }
        switch status {
        case 200, 206: break
        case 301, 302, 303, 307, 308:
            if !fields.hasLocation { refuse(.invalidResponse, .redirectWithoutLocation, status: status) }
            return false
        default:
            return false
        }
        if fields.isContentEncoded {
            refuse(.contentEncoded, .contentEncoded, status: status)
            return false
        }
        if status == 200 {
            // The whole resource from byte 0: Range ignored, or If-Range found it changed.
            // What was scanned so far may be another version: scan afresh.
            startScan(length: fields.contentLength)
            left = nil
            phase = .readingBody
            return true
        }
        // 206: another version's bytes are never combined with the first's (§6.1).
        if position > 0 || scanning {
            let changedTag = firstEntityTag != nil && fields.entityTag != nil && fields.entityTag != firstEntityTag
            let changedDate = firstLastModified != nil && fields.lastModified != nil && fields.lastModified != firstLastModified
            if changedTag || changedDate {
                refuse(.resourceChanged, .resourceChanged, status: 206)
                return false
            }
        }
        guard let range = fields.contentRange else {
            refuse(.badContentRange, .noContentRange, status: 206)
            return false
        }
        guard range.first == asked.first, range.last <= asked.last else {
            refuse(.badContentRange, .contentRangeMismatch, status: 206)
            return false
        }
        if let total = totalLength, let now = range.total, now != total {
            refuse(.badContentRange, .lengthChanged, status: 206)
            return false
        }
        rangeLength = range.last &- range.first &+ 1
        if let length = fields.contentLength, length != rangeLength {
            refuse(.badContentRange, .contentLengthDisagrees, status: 206)
            return false
        }
        if totalLength == nil { totalLength = range.total }
        if position == 0 && !scanning {
            firstEntityTag = fields.entityTag
            firstLastModified = fields.lastModified
            ifRange = fields.entityTag != nil && fields.entityTagIsStrong ? .entityTag : fields.lastModified != nil ? .lastModified : nil
        }
        left = rangeLength
        if !scanning { startScan(length: range.total) }
        phase = .readingBody
        return true
    }

    /// A run of body bytes. Returns whether to go on reading: false at the answer, at a body
    /// longer than its range, or past the byte budget.
    public mutating func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard phase == .readingBody else { return false }
        let count = UInt64(bytes.count)
        if let left {
            guard count <= left else {
                refuse(.badContentRange, .bodyLongerThanRange, status: 206)
                phase = .bodyIgnored
                return false
            }
            self.left = left &- count
        }
        // Fed in place: the scanner is not copied out and back for each run of bytes.
        guard scanning else { return false }
        if scanner.feed(bytes).isTerminal { return false }
        return bytesReceived <= configuration.maxBytes
    }

    /// Bytes received off the connection (heads, framing, bodies), as the transport counts
    /// them. Returns whether the probe is still within `maxBytes`; when not, the driver stops
    /// the exchange and calls `end(.stopped)` or `fail(.limitExceeded)`.
    public mutating func received(_ count: UInt64) -> Bool {
        let (sum, overflow) = bytesReceived.addingReportingOverflow(count)
        bytesReceived = overflow ? .max : sum
        return bytesReceived <= configuration.maxBytes
    }

    /// The exchange ended.
    public mutating func end(_ how: BodyEnd) {
        guard phase == .readingBody || phase == .bodyIgnored else { return }
        if let refusal {
            if refusal.code == .resourceChanged {
                // Another version: start afresh from byte 0, once.
                guard restarts == 0 else {
                    settleFailed(.resourceChanged, .resourceChangedTwice, status: 206)
                    return
                }
                restarts &+= 1
                resetResource()
                phase = .idle
                return
            }
            settleFailed(refusal.code, refusal.reason, status: refusal.status)
            return
        }
        switch status {
        case 301, 302, 303, 307, 308:
            phase = .redirecting
            return
        case 416:
            // Nothing at or after `position`: the resource ends there.
            return conclude(ended: true)
        case 200, 206:
            break  // a 200 without a refusal started a scan, as a 206 may have
        case 400...:
            return settleFailed(.httpStatus, .errorStatus, status: status)
        default:
            return settleFailed(.invalidResponse, .unexpectedStatus, status: status)
        }
        guard scanning else { return settleFailed(.invalidResponse, .noBody) }
        if overBudget && !scanEnded { return overBudgetFailure() }
        if how == .stopped { return conclude(ended: false) }
        // Content-Range ends at most at UInt64.max: the next offset may not exist.
        let (after, pastEnd) = asked.first.addingReportingOverflow(rangeLength)
        // A 200 is the whole resource; a 206 whose connection closed inside the range ends
        // the input there too.
        guard status == 206, how == .complete, !pastEnd, scanner.bytesConsumed == after else {
            return conclude(ended: true)
        }
        if sizeKnownAtRequest == nil, hasPartialAnswer() { sizeKnownAtRequest = requests }
        position = after
        var floor = max(1, configuration.minimumRequest)
        let pendingSkip = scanner.pendingSkip
        if pendingSkip >= configuration.jumpThreshold {
            let (jumped, overflow) = position.addingReportingOverflow(scanner.skip(pendingSkip))
            if overflow { return conclude(ended: true) }
            position = jumped
        } else if configuration.requestGrowth > 0 && sizeKnownAtRequest == nil {
            // Reading on where the last request ended: the header is longer than it looked, so
            // grow the requests, to bound the round trips. Not once the size is known: the
            // metadata search is bounded by request count instead.
            // Exact without a 128-bit product: the growth is above 0 here.
            let growth = configuration.requestGrowth
            floor = max(floor, rangeLength > UInt64.max / growth ? UInt64.max >> 1 : rangeLength &* growth)
        }
        // Asked after the jump: `needMore` counts the skip and is capped by `maxBytes`.
        guard !scanEnded else { return conclude(ended: false) }
        want = max(UInt64(scanner.neededCount), floor)
        phase = .idle
    }

    /// The exchange failed in the transport. Once the size is known, a timeout or the byte
    /// budget ends only the metadata search (§6.1): `next()` gives a partial answer; otherwise
    /// it gives a failure, for which the driver reports its own error (`.other`) or this
    /// planner's (`timeout`, `limitExceeded`).
    public mutating func fail(_ failure: TransportFailure) {
        guard phase != .finished else { return }  // finished exactly when settled
        switch failure {
        case .timeout:
            if settlePartial(Self.timeLimit) { return }
            settleFailed(.timeout, .timeLimit)
        case .limitExceeded:
            overBudgetFailure()
        case .other:
            settleFailed(.transport, .transferFailed)
        }
    }

    /// The redirect is followed: `hash` names the new URL (loops are refused), `isHTTP` says
    /// whether its scheme is http or https.
    public mutating func redirect(to hash: UInt64, isHTTP: Bool) {
        guard phase == .redirecting else { return }
        redirects &+= 1
        if visited.contains(hash) { return settleFailed(.redirectLoop, .redirectLoop, status: status) }
        guard redirects <= min(15, max(0, configuration.maxRedirects)) else {
            return settleFailed(.tooManyRedirects, .moreRedirectsThanMaxRedirects, status: status)
        }
        guard isHTTP else { return settleFailed(.unsupportedURL, .redirectToNonHTTP, status: status) }
        visited.insert(hash)
        // Another URL may be another resource: start over there.
        resetResource()
        restarts = 0
        phase = .idle
    }

    // MARK: - Helpers

    static let metadataLimit = ScanFailure(.limitExceeded, .metadataRequestLimit)
    static let transferLimit = ScanFailure(.limitExceeded, .metadataTransferLimit)
    static let timeLimit = ScanFailure(.limitExceeded, .metadataTimeLimit)

    var overBudget: Bool { bytesReceived > configuration.maxBytes }

    /// Whether the scanner has its answer (a terminal status), read without copying it.
    var scanEnded: Bool { scanning && scanner.hasEnded }

    mutating func resetResource() {
        scanning = false
        position = 0
        want = max(1, configuration.initialRangeLength)
        totalLength = nil
        ifRange = nil
        firstEntityTag = nil
        firstLastModified = nil
        sizeKnownAtRequest = nil
    }

    /// A fresh scan of the resource, whose length may be known.
    mutating func startScan(length: UInt64?) {
        var options = configuration.scanOptions
        if options.inputLength == nil { options.inputLength = length }
        scanner = HeaderScanner(options: options)
        scanning = true
    }

    /// Settles with the answer the input ending here would give, marked partial with
    /// `reason`; false (nothing settled) while the size is unknown. Built in place in
    /// `settled` rather than returned, which cost copies of the image. Out of line: three
    /// callers share it.
    @inline(never)
    mutating func settlePartial(_ reason: ScanFailure) -> Bool {
        guard scanning, case .needMore = scanner.status else { return false }
        var copy = scanner
        guard case .done(var info) = copy.finish() else { return false }
        info.partialReason = reason
        settle(.done(info))
        return true
    }

    /// Whether `settlePartial` would settle: the input ending here gives an answer.
    /// Mutating only so the scanner is not copied for the call; it is not changed.
    mutating func hasPartialAnswer() -> Bool {
        guard scanning, case .needMore = scanner.status else { return false }
        var copy = scanner
        guard case .done = copy.finish() else { return false }
        return true
    }

    /// The answer: the scanner's terminal status, or what `finish()` makes of the input ending
    /// here.
    mutating func conclude(ended: Bool) {
        // In place: the scanner is large, and copying it out and back costs code and time.
        if !scanning {
            scanner = HeaderScanner(options: configuration.scanOptions)
            scanning = true
        }
        if ended && !scanEnded { _ = scanner.finish() }
        switch scanner.status {
        case .done(let info):
            settle(.done(info))
        case .unsupported(let failure) where failure.code == .limitExceeded:
            // The scanner's read limit and the transfer limit are one failure to the caller.
            settle(.failed(Failure(.limitExceeded, scanFailure: failure)))
        case .unsupported(let failure):
            settle(.failed(Failure(.scan, scanFailure: failure)))
        case .refused(let info, let failure):
            var refusal = Failure(.scan, scanFailure: failure)
            refusal.refusedImage = info
            settle(.failed(refusal))
        case .needMore:
            settle(.failed(Failure(.scan, .responseEndedBeforeHeader,
                                          scanFailure: ScanFailure(.truncated, .inputEndedInsideTheHeader))))
        }
    }

    /// The byte budget is spent: after the size is known, that ends only the metadata search.
    mutating func overBudgetFailure() {
        if settlePartial(Self.transferLimit) { return }
        settle(.failed(Failure(.limitExceeded, .moreThanMaxBytes,
                               scanFailure: ScanFailure(.limitExceeded, .headerNotFoundWithinMaxBytes))))
    }

    mutating func settle(_ action: Action) {
        settled = action
        phase = .finished
    }

    /// Ends the probe with the planner's own failure. Out of line, as `refuse`: each caller
    /// passes three small values instead of building the failure in place.
    @inline(never)
    mutating func settleFailed(_ code: Failure.Code, _ reason: Failure.Reason, status: Int? = nil) {
        settle(.failed(Failure(code, reason, status: status)))
    }

    /// Refuses the response in flight: `end` turns the refusal into the answer.
    @inline(never)
    mutating func refuse(_ code: Failure.Code, _ reason: Failure.Reason, status: Int) {
        refusal = (code, reason, status)
    }
}

/// The URLs a probe has visited, by hash: the first and up to 15 redirects. Fixed storage, so
/// the planner allocates nothing.
struct VisitedURLs: Sendable {
    /// The hashes, in fixed storage read and written by index (`WordTable`).
    private var hashes = WordTable()
    private(set) var count = 0

    static let capacity = WordTable.count

    /// Adds `hash`; past the capacity the oldest are not forgotten, the new one is dropped
    /// (the redirect limit ends the probe before that).
    mutating func insert(_ hash: UInt64) {
        guard count < Self.capacity else { return }
        hashes[count] = hash
        count &+= 1
    }

    func contains(_ hash: UInt64) -> Bool {
        var index = 0
        while index < count {
            if self[index] == hash { return true }
            index &+= 1
        }
        return false
    }

    subscript(index: Int) -> UInt64 { hashes[index] }
}
