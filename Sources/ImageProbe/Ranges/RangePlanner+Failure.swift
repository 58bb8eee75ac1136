// How a probe fails: the codes every front end shares, the planner's own reasons (one literal
// each, as `String` for Swift and as `StaticString` bytes for the C interface), and the one
// code each class of transport failure gets.
extension RangePlanner {
    /// Why a probe failed.
    public struct Failure: Error, Sendable {
        /// The code; its `name` is `FetchError`'s and the CLI's JSON `error`.
        public var code: Code
        /// A sentence for people: the planner's own, or the scanner's message when the
        /// scanner's failure explains it. A literal: reading it allocates nothing.
        public var message: String {
            if let reason { return reason.spelled() }
            return scanFailure?.message ?? ""
        }

        /// The planner's own message as a literal of either type, empty when the scanner's
        /// failure explains it: a StaticString for the C interface, which copies its bytes.
        package func spelledReason<Text: ExpressibleByStringLiteral>() -> Text { reason?.spelled() ?? "" }

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

            /// The code's name, as `FetchError.Code.name`. A literal: reading it allocates
            /// nothing.
            public var name: String { spelled() }

            /// The name as a literal of either type: a String for `name`, a StaticString for
            /// the C interface, which copies its bytes without building a String.
            package func spelled<Text: ExpressibleByStringLiteral>() -> Text {
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
            case addressRefused, cancelled, retryAfterTooLong

            /// The message, as a literal of either type.
            func spelled<Text: ExpressibleByStringLiteral>() -> Text {
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
                case .retryAfterTooLong: "the server asks to retry later: a Retry-After over 10 s, or a third time"
                }
            }
        }
    }

    // MARK: - Transport failures

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

    /// The byte budget is spent: after the size is known, that ends only the metadata search.
    /// Before, it is the network's limit, not the scanner's.
    mutating func overBudgetFailure() {
        if settlePartial(Self.transferLimit) { return }
        settleFailed(.limitExceeded, .moreThanMaxBytes)
    }

    // MARK: - Settling on a failure

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
