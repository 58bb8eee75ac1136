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

    /// A transport's failure, by class, for `fail(_:)`: the planner gives each its code.
    public enum TransportFailure: UInt8, Sendable {
        /// A deadline passed: `timeout` (or a partial answer once the size is known).
        case timeout
        /// The driver stopped at the byte budget (`received` said so): `limitExceeded` (or a
        /// partial answer once the size is known).
        case limitExceeded
        /// No connection (name resolution, refused, TLS), or it closed before a response
        /// head: `connection`.
        case connection
        /// The bytes broke HTTP where the driver's own parser saw it (a status line, a head
        /// field, chunk framing, HTTP/0.9): `invalidResponse`.
        case invalidResponse
        /// Every address the host resolved to is refused by the address policy:
        /// `forbiddenAddress`.
        case forbiddenAddress
        /// The caller cancelled: `cancelled`.
        case cancelled
    }

    /// Why a probe failed.
    public struct Failure: Error, Sendable {
        /// The code; its `name` is `FetchError`'s and the CLI's JSON `error`.
        public var code: Code
        /// A sentence for people: the scanner's message when the scanner failed, else the
        /// planner's own.
        public var message: String {
            if let reason { return String(decoding: reason.text.utf8Bytes, as: UTF8.self) }
            return scanFailure?.message ?? ""
        }

        /// The planner's own message's UTF-8, in static memory (empty when the scanner's
        /// failure explains it): what the C interface copies.
        package var reasonUTF8: UnsafeRawBufferPointer { reason?.text.utf8Bytes ?? UnsafeRawBufferPointer(start: nil, count: 0) }
        /// The planner's own explanation; nil when the scanner's failure explains it.
        let reason: Reason?
        /// The HTTP status, for `httpStatus` (and where a response caused the failure).
        public var status: Int?
        /// The scanner's failure, for `scan` and the scanner's own `limitExceeded`.
        public var scanFailure: ScanFailure?
        /// The image a limit refused (`ScanFailure.Code.tooManyPixels`): its format and size.
        public var refusedImage: ImageInfo?

        /// The failure codes (`FetchError.Code` has the same names).
        public enum Code: UInt8, Sendable, Hashable, CaseIterable {
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
            /// A response that breaks HTTP or that the planner can't use: a bad status line,
            /// head field or chunk framing, a head too long, a conflicting `Content-Length`, a
            /// redirect without a usable `Location`, an unexpected status, no body.
            case invalidResponse
            /// A byte or time budget ran out before the answer.
            case limitExceeded
            /// The resource changed between ranges (its validator differs).
            case resourceChanged
            /// Not an http or https URL (the first one, or a redirect's).
            case unsupportedURL
            /// The scanner failed on the bytes (`scanFailure` says why).
            case scan
            /// A deadline passed.
            case timeout
            /// No connection, or it closed before a response.
            case connection
            /// The address policy refused every address of the host.
            case forbiddenAddress
            /// The caller cancelled.
            case cancelled

            /// The code's name, as `FetchError.Code.name`.
            public var name: String { String(decoding: text.utf8Bytes, as: UTF8.self) }

            /// The name as a literal (what the C interface copies).
            public var text: StaticString {
                switch self {
                case .httpStatus: "httpStatus"
                case .tooManyRedirects: "tooManyRedirects"
                case .redirectLoop: "redirectLoop"
                case .badContentRange: "badContentRange"
                case .contentEncoded: "contentEncoded"
                case .invalidResponse: "invalidResponse"
                case .limitExceeded: "limitExceeded"
                case .resourceChanged: "resourceChanged"
                case .unsupportedURL: "unsupportedURL"
                case .scan: "scan"
                case .timeout: "timeout"
                case .connection: "connection"
                case .forbiddenAddress: "forbiddenAddress"
                case .cancelled: "cancelled"
                }
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

        /// The planner's explanations.
        enum Reason: UInt8, Sendable, CaseIterable {
            case moreRequestsThanMaxRequests, invalidContentLength, redirectWithoutLocation, contentEncoded
            case resourceChanged, noContentRange, contentRangeMismatch, lengthChanged, contentLengthDisagrees
            case bodyLongerThanRange, resourceChangedTwice, errorStatus, unexpectedStatus, noBody
            case responseEndedBeforeHeader, moreThanMaxBytes, timeLimit, redirectLoop, moreRedirectsThanMaxRedirects
            case redirectToNonHTTP, redirectToUnusableURL, notHTTPURL, unusableURL
            case headTooLong, headLineTooLong, notAStatusLine, malformedField, tooManyInterimResponses, switchedProtocols
            case unsupportedTransferCoding, invalidFraming, invalidResponse, closedBeforeHead, connectionFailed
            case addressRefused, cancelled

            var text: StaticString {
                switch self {
                case .moreRequestsThanMaxRequests: "more requests than maxRequests without an answer"
                case .invalidContentLength: "invalid or conflicting Content-Length"
                case .redirectWithoutLocation: "redirect without a Location"
                case .contentEncoded: "the body is content-encoded, not the image's bytes"
                case .resourceChanged: "the resource changed during the probe (ETag or Last-Modified differs)"
                case .noContentRange: "206 response without a valid Content-Range"
                case .contentRangeMismatch: "the Content-Range doesn't answer the request"
                case .lengthChanged: "the resource's length changed during the probe"
                case .contentLengthDisagrees: "Content-Length disagrees with Content-Range"
                case .bodyLongerThanRange: "the body is longer than its Content-Range"
                case .resourceChangedTwice: "the resource changed twice during the probe (ETag or Last-Modified differs)"
                case .errorStatus: "the server answered with an error status"
                case .unexpectedStatus: "unexpected status"
                case .noBody: "no body"
                case .responseEndedBeforeHeader: "the response ended before the header"
                case .moreThanMaxBytes: "more than maxBytes off the network without an answer"
                case .timeLimit: "no answer within the time limit"
                case .redirectLoop: "redirect loop"
                case .moreRedirectsThanMaxRedirects: "more redirects than maxRedirects"
                case .redirectToNonHTTP: "redirect to a non-HTTP URL"
                case .redirectToUnusableURL: "redirect to an unusable URL"
                case .notHTTPURL: "not an http or https URL"
                case .unusableURL: "an unusable URL"
                case .headTooLong: "a head over 32 KiB"
                case .headLineTooLong: "a head line over 8 KiB"
                case .notAStatusLine: "not an HTTP status line"
                case .malformedField: "malformed header field"
                case .tooManyInterimResponses: "too many 1xx responses"
                case .switchedProtocols: "the server switched protocols"
                case .unsupportedTransferCoding: "Transfer-Encoding not chunked"
                case .invalidFraming: "invalid chunked framing"
                case .invalidResponse: "the response breaks HTTP"
                case .closedBeforeHead: "closed before the response head"
                case .connectionFailed: "the connection failed"
                case .addressRefused: "address refused by the policy"
                case .cancelled: "cancelled"
                }
            }
        }
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

    // Counts over the whole probe.
    var requests = 0
    var redirects = 0
    var restarts = 0
    /// Every byte received, as `received(_:)` reported them.
    public private(set) var bytesReceived: UInt64 = 0
    /// URLs visited (hashes of `url`), for loops.
    var visited = VisitedURLs()

    // The exchange in flight.
    var asked = Request(first: 0, last: 0, ifRange: nil)
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
        scanner = HeaderScanner(options: configuration.scanOptions)
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

    /// Requests sent so far.
    public var requestCount: Int { requests }

    /// The URL of the request to send (and, once settled, the last one requested), for the
    /// duration of `body`.
    public func withRequestURL<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result { url.withBytes(body) }

    /// The request's header lines, each `Name: value` and CRLF, for the duration of `body`:
    /// `Range`, `If-Range` when the first response had a strong validator (never one with
    /// control characters), and `Accept-Encoding: identity`. A driver sends them as they are,
    /// and adds its `User-Agent`.
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
        if asked.ifRange != nil && !validator.isEmpty {
            text.append("If-Range: ")
            validator.withBytes { _ = text.append($0) }
            text.append("\r\n")
        }
        text.append("Accept-Encoding: identity\r\n")
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
    /// 0 the URL, 1 the header lines, 2 the request head, 3 the host to connect to.
    package mutating func withText<Result>(_ which: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if which == 1 || which == 2 {
            var text = LineText()
            if which == 2 { writeRequestLine(into: &text) }
            writeHeaderLines(into: &text)
            return text.withBytes(body)
        }
        return url.withBytes { bytes in
            guard which == 0 || which == 3 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            guard which == 3, let origin = HTTPURL.origin(bytes) else { return body(which == 0 ? bytes : UnsafeRawBufferPointer(start: nil, count: 0)) }
            return body(UnsafeRawBufferPointer(rebasing: bytes[origin.host]))
        }
    }

    /// The request's port and scheme.
    package var origin: (port: UInt16, secure: Bool)? {
        url.withBytes { bytes in HTTPURL.origin(bytes).map { ($0.port, $0.secure) } }
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
        asked = Request(first: position, last: last, ifRange: ifRange)
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

    /// One header field of the response in flight, parsed by the driver's HTTP stack (name in
    /// any case, value trimmed here). Counted against the head's limits.
    public mutating func field(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard phase == .awaitingHead else { return }
        headBytes &+= name.count &+ value.count &+ 4
        if headBytes > Limits.headBytes { return failInvalid(.headTooLong) }
        if name.count &+ value.count &+ 4 > Limits.lineBytes { return failInvalid(.headLineTooLong) }
        takeField(name: name, value: ResponseFields.trimmed(value))
    }

    /// A field, checked and counted: kept in `fields`, with the text the planner sends back or
    /// resolves.
    mutating func takeField(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        fields.take(name: name, value: value)
        if ResponseFields.equals(name, "location") {
            location.removeAll()
            locationTooLong = !location.append(value)
        } else if ResponseFields.equals(name, "etag") {
            entityTagText.removeAll()
            if !entityTagText.append(value) { entityTagText.removeAll() }
        } else if ResponseFields.equals(name, "last-modified") {
            lastModifiedText.removeAll()
            if !lastModifiedText.append(value) { lastModifiedText.removeAll() }
        }
    }

    /// The response head is complete (its fields given with `field` or `headLine`). Returns
    /// whether to read the body; when not, the driver stops the transfer (or reads it through
    /// for the connection's sake) and calls `end(.stopped)`. An interim (1xx) head returns
    /// true: the real head follows.
    public mutating func head(status: Int) -> Bool {
        guard phase == .awaitingHead else { return false }
        if status < 200 {
            if status == 101 { failInvalid(.switchedProtocols); return false }
            interimResponses &+= 1
            if interimResponses > Limits.interimResponses { failInvalid(.tooManyInterimResponses); return false }
            fields = ResponseFields()
            location.removeAll()
            locationTooLong = false
            entityTagText.removeAll()
            lastModifiedText.removeAll()
            headStatus = 0
            return true
        }
        self.status = status
        phase = .bodyIgnored
        if fields.isMalformed {
            refuse(.invalidResponse, .invalidContentLength, status: status)
            return false
        }
        if fields.hasOtherTransferCoding {
            refuse(.invalidResponse, .unsupportedTransferCoding, status: status)
            return false
        }
        switch status {
        case 200, 206: break
        case 301, 302, 303, 307, 308:
            if !fields.hasLocation || location.isEmpty { refuse(.invalidResponse, .redirectWithoutLocation, status: status) }
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
            // The resource's first 206: its validators name the version later ranges must be.
            firstEntityTag = fields.entityTag
            firstLastModified = fields.lastModified
            ifRange = nil
            validator.removeAll()
            if fields.entityTag != nil && fields.entityTagIsStrong && Self.sendable(entityTagText) {
                ifRange = .entityTag
                validator.set(entityTagText)
            } else if fields.lastModified != nil && Self.sendable(lastModifiedText) {
                ifRange = .lastModified
                validator.set(lastModifiedText)
            }
        }
        left = rangeLength
        if !scanning { startScan(length: range.total) }
        phase = .readingBody
        return true
    }

    /// Whether a validator can go back in a header: not empty, no control characters (a
    /// server can't use its own ETag to inject headers into later requests).
    static func sendable(_ text: ValidatorText) -> Bool {
        !text.isEmpty && text.withBytes { bytes in !bytes.contains { $0 < 0x20 || $0 == 0x7F } }
    }

    /// A run of body bytes. Returns whether to go on reading: false at the answer, at a body
    /// longer than its range, or past the byte budget.
    public mutating func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard phase == .readingBody else { return false }
        let count = UInt64(bytes.count)
        bodyBytes &+= count
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

    /// Bytes received off the connection (status lines, heads, interim responses, framing,
    /// chunk extensions, trailers, bodies), as the transport counts them. Returns whether the
    /// probe is still within `maxBytes`; when not, the driver stops the exchange and calls
    /// `end(.stopped)` or `fail(.limitExceeded)`.
    public mutating func received(_ count: UInt64) -> Bool {
        let (sum, overflow) = bytesReceived.addingReportingOverflow(count)
        bytesReceived = overflow ? .max : sum
        return bytesReceived <= configuration.maxBytes
    }

    /// Whether the rest of the response in flight is short enough (a known length, at most
    /// `Limits.drainBytes` left) to read through for its connection's sake. A socket-level
    /// driver asks after `wire` ended the exchange, and hands the rest to `wire` (with a short
    /// deadline) until it ends again, reusable or not.
    public var drainable: Bool {
        if discardLeft > 0 { return true }
        guard phase != .finished, let length = fields.contentLength, length >= bodyBytes else { return false }
        return length &- bodyBytes <= Limits.drainBytes
    }

    /// The exchange ended.
    public mutating func end(_ how: BodyEnd) {
        guard phase == .readingBody || phase == .bodyIgnored else {
            // Ended before a head: the connection closed.
            if phase == .awaitingHead { settleFailed(.connection, .closedBeforeHead) }
            return
        }
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
            return followRedirect()
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

    /// The exchange failed in the transport, by class. Once the size is known, a timeout or
    /// the byte budget ends only the metadata search (§6.1): `next()` gives a partial answer;
    /// every other class, and those before the size, is the probe's failure, one code per
    /// class.
    public mutating func fail(_ failure: TransportFailure) {
        guard phase != .finished else { return }  // finished exactly when settled
        switch failure {
        case .timeout:
            if settlePartial(Self.timeLimit) { return }
            settleFailed(.timeout, .timeLimit)
        case .limitExceeded:
            overBudgetFailure()
        case .connection:
            settleFailed(.connection, phase == .awaitingHead && headBytes > 0 ? .closedBeforeHead : .connectionFailed)
        case .invalidResponse:
            settleFailed(.invalidResponse, phase == .readingBody ? .invalidFraming : .invalidResponse, status: status == 0 ? nil : status)
        case .forbiddenAddress:
            settleFailed(.forbiddenAddress, .addressRefused)
        case .cancelled:
            settleFailed(.cancelled, .cancelled)
        }
    }

    /// The last response redirected: its `Location` resolved against `url`, then checked for
    /// loops, the redirect limit and the scheme; followed by starting over there.
    mutating func followRedirect() {
        redirects &+= 1
        var target = URLText()
        let outcome = locationTooLong ? .unusable
            : location.withBytes { HTTPURL.resolve($0, base: url, scratch: &line, into: &target) }
        line.removeAll()
        if case .resolved = outcome, visited.contains(target.hash) {
            return settleFailed(.redirectLoop, .redirectLoop, status: status)
        }
        guard redirects <= min(15, max(0, configuration.maxRedirects)) else {
            return settleFailed(.tooManyRedirects, .moreRedirectsThanMaxRedirects, status: status)
        }
        switch outcome {
        case .notHTTP: return settleFailed(.unsupportedURL, .redirectToNonHTTP, status: status)
        case .unusable: return settleFailed(.invalidResponse, .redirectToUnusableURL, status: status)
        case .resolved: break
        }
        url = target
        visited.insert(url.hash)
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
        validator.removeAll()
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
    /// `reason`; false (nothing settled) while the size is unknown.
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
    /// Before, it is the network's limit, not the scanner's.
    mutating func overBudgetFailure() {
        if settlePartial(Self.transferLimit) { return }
        settleFailed(.limitExceeded, .moreThanMaxBytes)
    }

    mutating func settle(_ action: Action) {
        settled = action
        phase = .finished
    }

    /// Ends the probe with the planner's own failure.
    mutating func settleFailed(_ code: Failure.Code, _ reason: Failure.Reason, status: Int? = nil) {
        settle(.failed(Failure(code, reason, status: status)))
    }

    /// Ends the probe with `invalidResponse`: the head or framing broke HTTP.
    mutating func failInvalid(_ reason: Failure.Reason) {
        guard phase != .finished else { return }
        settleFailed(.invalidResponse, reason, status: status == 0 ? (headStatus == 0 ? nil : headStatus) : status)
    }

    /// Refuses the response in flight: `end` turns the refusal into the answer.
    mutating func refuse(_ code: Failure.Code, _ reason: Failure.Reason, status: Int) {
        refusal = (code, reason, status)
    }
}

/// The URLs a probe has visited, by hash: the first and up to 15 redirects. Fixed storage, so
/// the planner allocates nothing.
struct VisitedURLs: Sendable {
    private var hashes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                         UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    static let capacity = 16

    /// Adds `hash`; past the capacity the new one is dropped (the redirect limit ends the probe
    /// before that).
    mutating func insert(_ hash: UInt64) {
        guard count < Self.capacity else { return }
        self[count] = hash
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

    /// The hash at `index`, 0...15 (past the last, the last).
    private subscript(index: Int) -> UInt64 {
        get {
            switch index {
            case 0: hashes.0
            case 1: hashes.1
            case 2: hashes.2
            case 3: hashes.3
            case 4: hashes.4
            case 5: hashes.5
            case 6: hashes.6
            case 7: hashes.7
            case 8: hashes.8
            case 9: hashes.9
            case 10: hashes.10
            case 11: hashes.11
            case 12: hashes.12
            case 13: hashes.13
            case 14: hashes.14
            default: hashes.15
            }
        }
        set {
            switch index {
            case 0: hashes.0 = newValue
            case 1: hashes.1 = newValue
            case 2: hashes.2 = newValue
            case 3: hashes.3 = newValue
            case 4: hashes.4 = newValue
            case 5: hashes.5 = newValue
            case 6: hashes.6 = newValue
            case 7: hashes.7 = newValue
            case 8: hashes.8 = newValue
            case 9: hashes.9 = newValue
            case 10: hashes.10 = newValue
            case 11: hashes.11 = newValue
            case 12: hashes.12 = newValue
            case 13: hashes.13 = newValue
            case 14: hashes.14 = newValue
            case 15: hashes.15 = newValue
            default: break
            }
        }
    }
}
