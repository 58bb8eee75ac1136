import ImageProbe

/// Why a probe over the network failed.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. A struct with static members, so kinds can be added.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The server answered with an error status (`FetchError.status` holds it).
        public static let httpStatus = Kind("httpStatus")
        /// More redirects than `FetchConfiguration.maxRedirects`.
        public static let tooManyRedirects = Kind("tooManyRedirects")
        /// A redirect back to a URL already visited.
        public static let redirectLoop = Kind("redirectLoop")
        /// A 206 response whose Content-Range is missing or doesn't match the request.
        public static let badContentRange = Kind("badContentRange")
        /// The body is content-coded (gzip, br...), so it is not the image's bytes.
        public static let contentEncoded = Kind("contentEncoded")
        /// No response within `FetchConfiguration.requestTimeout`.
        public static let timeout = Kind("timeout")
        /// The connection could not be made, or failed.
        public static let connection = Kind("connection")
        /// The response broke HTTP.
        public static let invalidResponse = Kind("invalidResponse")
        /// More than `FetchConfiguration.maxBytes` would have to be transferred, or the scanner
        /// reached its own `ScanOptions.maxBytes` (then `scanFailure` holds its failure).
        public static let limitExceeded = Kind("limitExceeded")
        /// The task was cancelled.
        public static let cancelled = Kind("cancelled")
        /// Not an http or https URL.
        public static let unsupportedURL = Kind("unsupportedURL")
        /// The address the host name (or a redirect's) resolved to is refused by
        /// `FetchConfiguration.addressPolicy`; nothing was sent to it.
        public static let forbiddenAddress = Kind("forbiddenAddress")
        /// The bytes arrived, but the scanner gave no answer (`FetchError.scanFailure` says why,
        /// `truncated` when the body ended inside the header).
        public static let scan = Kind("scan")
    }

    public var kind: Kind
    public var message: String
    /// The HTTP status, for `.httpStatus`.
    public var status: Int?
    /// The scanner's failure, for `.scan`.
    public var scanFailure: ScanFailure?
    /// What the probe had cost when it failed: bytes received and requests sent.
    public var bytesTransferred = 0
    public var requests = 0

    public init(_ kind: Kind, _ message: String, status: Int? = nil, scanFailure: ScanFailure? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.scanFailure = scanFailure
    }

    public var description: String {
        if let status { return "\(kind) \(status): \(message)" }
        return "\(kind): \(message)"
    }
}
