// One type in several files, one part of the exchange each:
// - RangePlanner.swift: the knobs, the state, and the cycle (`next`, planning each request, its
//   texts);
// - +Head.swift: the response head, as lines or as fields, and the first 206's validators;
// - +Body.swift: the body, the bytes counted off the wire, how an exchange ends, and how the
//   probe settles on its answer;
// - +Wire.swift: HTTP/1.1 framing, for drivers that read the socket themselves;
// - +Redirect.swift: following a `Location`, and the URLs visited;
// - +Failure.swift: the failure codes and the planner's reasons, and each transport failure's
//   code;
// - +Strings.swift: String forms, for Swift callers.
// Beside it in this folder: `HTTPURL` (URLs), `ResponseFields` (a head's fields), `FixedText`
// (text without allocation), and `AddressClass` (the address rule the drivers apply).

/// The whole HTTP exchange of a URL probe (SPEC.md §6.1) as a state machine without I/O, in the
/// manner of h11 and quinn-proto: it says which request to send (its URL and header lines),
/// takes what a transport reports (the head, body bytes, every byte off the wire, how the
/// exchange ended or which class of failure ended it) and answers. Every rule lives here, so
/// the Swift fetcher (libcurl, URLSession), the C interface, JavaScript and Python behave alike:
/// which response is first, validators and `If-Range`, restarts, redirects (`Location` resolved,
/// percent-encoded, schemes checked, loops and chains refused), the byte and request budgets,
/// the head's limits, chunked framing, the error code of each failure, partial answers.
/// Standard library only, allocation-free, a fixed-size value.
///
/// ```swift
/// var planner = RangePlanner(url: "https://example.com/a.png")
/// while true {
///     switch planner.next() {
///     case .send:
///         // GET planner.requestURL with planner.requestHeaderLines. Then either hand over
///         // parsed parts: headLine(_:) per head line (or field(name:value:) then
///         // head(status:)), body(_:) while it says so, received(_:) with every byte off the
///         // connection, and end(_:) or fail(_:); or hand over the raw bytes: wire(_:) and
///         // wireClosed().
///     case .done(let info): return info
///     case .failed(let failure): throw failure
///     }
/// }
/// ```
///
/// The driver keeps only what needs a clock or a socket: it enforces deadlines and reports a
/// timeout with `fail(.timeout)`, and checks the addresses it connects to (`AddressPolicyRule`).
public struct RangePlanner: Sendable {
    /// The User-Agent every front end sends by default: the package's version, in one place.
    public static let userAgent: StaticString = "ImageProbe/0.2.0"

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

    /// The head's limits (SPEC.md §6.1): longer heads and lines, and more interim responses,
    /// are refused as `invalidResponse`.
    public enum Limits {
        /// A response head, interim heads included.
        public static let headBytes = 32 * 1024
        /// One line of a head (its line ending included).
        public static let lineBytes = LineText.capacity
        /// Interim (1xx) responses before the real one.
        public static let interimResponses = 4
        /// The longest URL the planner keeps (the first one, or a redirect's target).
        public static let urlBytes = URLText.capacity &- 1
        /// The longest validator sent back as `If-Range`; a longer one is not sent.
        public static let validatorBytes = ValidatorText.capacity
        /// A response the planner stopped reading is read through for its connection's sake
        /// only when at most this much of it is left.
        public static let drainBytes: UInt64 = 64 * 1024
        /// The longest `Retry-After` of a 429 or 503 that is waited out, in seconds; a longer
        /// one is the error `httpStatus` at once.
        public static let retryWait: UInt64 = 10
        /// Requests a probe retries after a 429 or 503 with `Retry-After`.
        public static let retries = 2
    }

    /// A request to send: `GET` the planner's `requestURL` with its `requestHeaderLines`.
    public struct Request: Sendable, Hashable {
        /// The first byte asked for.
        public var first: UInt64
        /// The last byte asked for (inclusive).
        public var last: UInt64
        /// Which of the first response's validators goes back as `If-Range`, if any (the
        /// header lines carry it).
        public var ifRange: Validator?
        /// Seconds to wait before sending: the `Retry-After` of the 429 or 503 this request
        /// retries (at most `Limits.retryWait`), else 0. The driver waits (its deadlines
        /// running), then sends.
        public var wait: UInt32 = 0
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
        /// Send this request (to `requestURL`, with `requestHeaderLines`).
        case send(Request)
        /// The answer (partial when a limit ended the metadata search, §1.6).
        case done(ImageInfo)
        /// The resource is the version the caller holds an answer for: its conditional first
        /// request (`revalidate`) was answered `304 Not Modified`. The caller's answer stands;
        /// `withValidators` and `freshness` give what the 304 said.
        case notModified
        /// No answer.
        case failed(Failure)
    }

    // MARK: - State

    /// Where the planner is in the exchange cycle.
    enum Phase: UInt8, Sendable {
        case idle, awaitingHead, readingBody, bodyIgnored, finished
    }

    let configuration: Configuration
    var phase = Phase.idle
    /// The answer or failure, once settled (`.done` or `.failed`); returned by every later
    /// `next()`.
    package internal(set) var settled: Action? = nil

    /// The URL requests go to: the first, or the last redirect's target. Absolute, checked.
    var url = URLText()

    // What has been learnt of the resource; reset by a redirect or a fresh start.
    /// The scan of the resource, valid while `scanning`: kept in place rather than as an
    /// optional, which cost a copy of the whole scanner at each unwrapping.
    var scanner: HeaderScanner
    var scanning = false
    var position: UInt64 = 0
    var want: UInt64
    var totalLength: UInt64? = nil
    var ifRange: Validator? = nil
    /// The text sent back as `If-Range` (the first 206's strong ETag or Last-Modified).
    var validator = ValidatorText()
    var firstEntityTag: UInt64? = nil
    var firstLastModified: UInt64? = nil
    var sizeKnownAtRequest: Int? = nil
    /// The resource's validators and freshness as its first response (or a 304) gave them, for
    /// the caller's cache (`withValidators`, `freshness`).
    var resourceEntityTag = ValidatorText()
    var resourceLastModified = ValidatorText()
    var resourceFreshness: UInt64? = nil

    /// The validators of the version the caller holds an answer for, sent with the first
    /// request (`revalidate`).
    var heldEntityTag = ValidatorText()
    var heldLastModified = ValidatorText()

    // Counts over the whole probe.
    var requests = 0
    var redirects = 0
    var restarts = 0
    var retries = 0
    /// The wait the next request carries (`Request.wait`): a retry's `Retry-After`.
    var retryWait: UInt32 = 0
    /// Every byte received, as `received(_:)` reported them.
    public internal(set) var bytesReceived: UInt64 = 0
    /// URLs visited (hashes of `url`), for loops.
    var visited = VisitedURLs()

    // The exchange in flight.
    var asked = Request(first: 0, last: 0, ifRange: nil, wait: 0)
    var status = 0
    var rangeLength: UInt64 = 0
    /// Body bytes still allowed (a 206's range); nil for no bound (a 200).
    var left: UInt64? = nil
    /// Body bytes handed over for this exchange.
    var bodyBytes: UInt64 = 0
    /// The refusal of the exchange in flight, which `end` turns into the answer.
    var refusal: (code: Failure.Code, reason: Failure.Reason, status: Int)? = nil
    /// The head in flight: its fields, its bytes so far, the interim heads before it, and the
    /// status line's code (0 until a head line gave one).
    var fields = ResponseFields()
    var headBytes = 0
    var interimResponses = 0
    var headStatus = 0
    /// The head's `Location`, `ETag` and `Last-Modified` text (a longer `Location` than a URL
    /// may be sets `locationTooLong`).
    var location = URLText()
    var locationTooLong = false
    var entityTagText = ValidatorText()
    var lastModifiedText = ValidatorText()
    /// A head line being assembled from raw bytes (`wire`), and scratch space for resolving a
    /// redirect.
    var line = LineText()
    /// The raw response's framing (`wire`).
    var wire = WireState.head
    var wireLeft: UInt64 = 0
    var wireDigits = 0
    var keepAlive = true
    /// Bytes of a response the planner stopped reading that a socket-level driver may read
    /// through (`drainable`, `wire`), to keep its connection.
    var discardLeft: UInt64 = 0

    /// A planner for the URL in `urlBytes` (UTF-8). A URL that isn't http or https, or can't be
    /// requested, makes a planner whose `next()` fails (`unsupportedURL`).
    public init(configuration: Configuration = Configuration(), url urlBytes: UnsafeRawBufferPointer) {
        self.configuration = configuration
        scanner = HeaderScanner(options: Self.scanOptions(configuration))
        want = max(1, configuration.initialRangeLength)
        var resolved = URLText()
        switch HTTPURL.resolve(urlBytes, base: nil, scratch: &line, into: &resolved) {
        case .resolved:
            url = resolved
            visited.insert(url.hash)
        case .notHTTP:
            settleFailed(.unsupportedURL, .notHTTPURL)
        case .unusable:
            settleFailed(.unsupportedURL, .unusableURL)
        }
        line.removeAll()
    }

    // MARK: - The cycle

    /// The next thing to do. Call it to start, and after each exchange ended (`end`, `fail`,
    /// or `wire` saying so).
    public mutating func next() -> Action {
        if let request = nextRequest() { return .send(request) }
        return settled ?? .failed(Failure(.invalidResponse, .invalidResponse))  // settled exactly when finished
    }

    /// `next()`'s work, for the C interface, which reads `settled` in place rather than an
    /// `Action` copied out: plans from `.idle`, then gives the request to send, or nil when
    /// the planner has settled.
    package mutating func nextRequest() -> Request? {
        if phase == .idle { plan() }
        switch phase {
        case .finished: return nil
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
        asked = Request(first: position, last: last, ifRange: ifRange, wait: retryWait)
        retryWait = 0
        requests &+= 1
        phase = .awaitingHead
        status = 0
        rangeLength = 0
        left = nil
        bodyBytes = 0
        refusal = nil
        fields = ResponseFields()
        headBytes = 0
        interimResponses = 0
        headStatus = 0
        location.removeAll()
        locationTooLong = false
        entityTagText.removeAll()
        lastModifiedText.removeAll()
        line.removeAll()
        wire = .head
        wireLeft = 0
        wireDigits = 0
        keepAlive = true
        discardLeft = 0
    }

    // MARK: - The request to send

    /// Requests sent so far.
    public var requestCount: Int { requests }

    /// The URL of the request to send (and, once settled, the last one requested), for the
    /// duration of `body`.
    public func withRequestURL<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result { url.withBytes(body) }

    /// The request's header lines, each `Name: value` and CRLF, for the duration of `body`:
    /// `Range`, `If-Range` when the first response had a strong validator (never one with
    /// control characters), `If-None-Match` and `If-Modified-Since` on a revalidating probe's
    /// first request (`revalidate`), and `Accept-Encoding: identity`. A driver sends them as
    /// they are, and adds its `User-Agent`.
    public func withRequestHeaderLines<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var text = LineText()
        writeHeaderLines(into: &text)
        return text.withBytes(body)
    }

    /// The header lines into `text`.
    func writeHeaderLines<Storage>(into text: inout FixedText<Storage>) {
        text.append("Range: bytes=")
        text.append(decimal: asked.first)
        text.append(0x2D)
        text.append(decimal: asked.last)
        text.append("\r\n")
        if asked.ifRange != nil { Self.appendField("If-Range: ", validator, to: &text) }
        if isConditional {
            Self.appendField("If-None-Match: ", heldEntityTag, to: &text)
            Self.appendField("If-Modified-Since: ", heldLastModified, to: &text)
        }
        text.append("Accept-Encoding: identity\r\n")
    }

    /// `name` (with its colon and space), `value` and CRLF, unless `value` is empty.
    static func appendField<Storage>(_ name: StaticString, _ value: ValidatorText, to text: inout FixedText<Storage>) {
        guard !value.isEmpty else { return }
        text.append(name)
        value.withBytes { _ = text.append($0) }
        text.append("\r\n")
    }

    // MARK: - Revalidation

    /// Makes the probe's first request conditional on the version the caller holds an answer
    /// for: `If-None-Match` with `entityTag`, `If-Modified-Since` with `lastModified` (either
    /// may be empty), as the caller kept them from `withValidators` (SPEC.md §6.5,
    /// "Revalidation"). A `304 Not Modified` then settles the probe as `.notModified`; any other
    /// answer is probed as usual. Only the first request carries them: a redirect's target is
    /// another resource. Call it before the first `next()`. Returns false, changing nothing,
    /// when called later, when both are empty, or when a text is longer than
    /// `Limits.validatorBytes` or holds a control character.
    public mutating func revalidate(entityTag: UnsafeRawBufferPointer, lastModified: UnsafeRawBufferPointer) -> Bool {
        guard phase == .idle, requests == 0, settled == nil, entityTag.count > 0 || lastModified.count > 0 else { return false }
        var tag = ValidatorText()
        var date = ValidatorText()
        guard tag.append(entityTag), date.append(lastModified),
              entityTag.isEmpty || Self.sendable(tag), lastModified.isEmpty || Self.sendable(date)
        else { return false }
        heldEntityTag = tag
        heldLastModified = date
        return true
    }

    /// Whether the request in flight is the conditional first one (or its retry after a 429).
    var isConditional: Bool {
        requests &- retries == 1 && redirects == 0 && restarts == 0 && (!heldEntityTag.isEmpty || !heldLastModified.isEmpty)
    }

    /// The `ETag` and `Last-Modified` texts (each empty when absent) of the version the probe
    /// read, as its first response gave them, or as a `304` restated them: what a cache keeps
    /// beside the answer and passes to `revalidate` next time. Valid once the planner has
    /// settled on `.done` or `.notModified`.
    public func withValidators<Result>(
        _ body: (_ entityTag: UnsafeRawBufferPointer, _ lastModified: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        resourceEntityTag.withBytes { tag in resourceLastModified.withBytes { date in body(tag, date) } }
    }

    /// How long, in seconds, that response said it may be used without asking again
    /// (`Cache-Control`: `max-age`, or 0 for `no-cache`/`no-store`); nil when it said neither,
    /// and the cache's own freshness applies.
    public var freshness: UInt64? { resourceFreshness }

    /// Keeps the validators and freshness of the response in flight as the resource's.
    mutating func keepValidators() {
        resourceEntityTag.removeAll()
        resourceLastModified.removeAll()
        if fields.entityTag != nil && Self.sendable(entityTagText) { resourceEntityTag.set(entityTagText) }
        if fields.lastModified != nil && Self.sendable(lastModifiedText) { resourceLastModified.set(lastModifiedText) }
        resourceFreshness = fields.freshness
    }

    /// The request line and `Host`, for a driver that writes to the socket itself: the header
    /// lines follow, then the driver's `User-Agent` and its own fields, then the blank line.
    func writeRequestLine<Storage>(into text: inout FixedText<Storage>) {
        url.withBytes { bytes in
            guard let origin = HTTPURL.origin(bytes) else { return }
            text.append("GET ")
            _ = text.append(UnsafeRawBufferPointer(rebasing: bytes[origin.target]))
            text.append(" HTTP/1.1\r\nHost: ")
            _ = text.append(UnsafeRawBufferPointer(rebasing: bytes[origin.authority]))
            text.append("\r\n")
        }
    }

    /// The texts of the request to send, by the C interface's numbers (`IMAGEPROBE_TEXT_*`):
    /// 0 the URL, 1 the header lines, 2 the request head, 3 the host to connect to; and the
    /// resource's validators (`withValidators`): 5 its `ETag`, 6 its `Last-Modified`.
    package mutating func withText<Result>(_ which: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        switch which {
        case 0:
            return url.withBytes(body)
        case 1, 2:
            var text = LineText()
            if which == 2 { writeRequestLine(into: &text) }
            writeHeaderLines(into: &text)
            return text.withBytes(body)
        case 3:
            return url.withBytes { bytes in
                guard let origin = HTTPURL.origin(bytes) else { return body(none) }
                return body(UnsafeRawBufferPointer(rebasing: bytes[origin.host]))
            }
        case 5:
            return resourceEntityTag.withBytes(body)
        case 6:
            return resourceLastModified.withBytes(body)
        default:
            return body(none)
        }
    }

    /// The request's port and scheme.
    package var origin: (port: UInt16, secure: Bool)? {
        url.withBytes { bytes in HTTPURL.origin(bytes).map { ($0.port, $0.secure) } }
    }

    // MARK: - The resource and the budget

    /// Whether more than `maxBytes` came off the wire.
    var overBudget: Bool { bytesReceived > configuration.maxBytes }

    /// Whether the scanner has its answer (a terminal status), read without copying it.
    var scanEnded: Bool { scanning && scanner.hasEnded }

    /// Forgets what was learnt of the resource: a redirect's target, or the first one's new
    /// version, is scanned from byte 0.
    mutating func resetResource() {
        scanning = false
        position = 0
        want = max(1, configuration.initialRangeLength)
        totalLength = nil
        ifRange = nil
        validator.removeAll()
        firstEntityTag = nil
        firstLastModified = nil
        sizeKnownAtRequest = nil
        resourceEntityTag.removeAll()
        resourceLastModified.removeAll()
        resourceFreshness = nil
    }

    /// A fresh scan of the resource, whose length may be known.
    mutating func startScan(length: UInt64?) {
        var options = Self.scanOptions(configuration)
        if options.inputLength == nil { options.inputLength = length }
        scanner = HeaderScanner(options: options)
        scanning = true
    }

    /// The scanner's options over HTTP: full mode stops at the image data, as browsers do,
    /// rather than spend a request on each jump towards metadata behind it (SPEC.md §6.1).
    static func scanOptions(_ configuration: Configuration) -> ScanOptions {
        var options = configuration.scanOptions
        options.metadataAfterImageData = false
        return options
    }
}
