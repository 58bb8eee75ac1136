import ImageProbe

/// Why a probe over the network failed.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: an extensible set of named codes, as `ScanFailure.Code` and
    /// `FileError.Code` are, so the three read alike (`error.code.name`, `error.message`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name (`"timeout"`), as the CLI's JSON `error` field shows it.
        public let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The server answered with an error status (`FetchError.status` holds it).
        public static let httpStatus = Code("httpStatus")
        /// More redirects than `FetchConfiguration.maxRedirects`.
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// A redirect back to a URL already visited.
        public static let redirectLoop = Code("redirectLoop")
        /// A 206 response whose Content-Range is missing or doesn't match the request.
        public static let badContentRange = Code("badContentRange")
        /// The body is content-coded (gzip, br...), so it is not the image's bytes.
        public static let contentEncoded = Code("contentEncoded")
        /// No response within `FetchConfiguration.requestTimeout`.
        public static let timeout = Code("timeout")
        /// The connection could not be made, or failed.
        public static let connection = Code("connection")
        /// The response broke HTTP.
        public static let invalidResponse = Code("invalidResponse")
        /// More than `FetchConfiguration.maxBytes` would have to be transferred, or the scanner
        /// reached its own `ScanOptions.maxBytes` (then `scanFailure` holds its failure).
        public static let limitExceeded = Code("limitExceeded")
        /// The resource changed during the probe, twice: its ranges came from different
        /// versions (their ETag or Last-Modified differ). The first change restarts the probe
        /// from byte 0; a second ends it.
        public static let resourceChanged = Code("resourceChanged")
        /// The task was cancelled.
        public static let cancelled = Code("cancelled")
        /// Not an http or https URL.
        public static let unsupportedURL = Code("unsupportedURL")
        /// The address the host name (or a redirect's) resolved to is refused by
        /// `FetchConfiguration.addressPolicy`; nothing was sent to it.
        public static let forbiddenAddress = Code("forbiddenAddress")
        /// The fetcher's configuration can't be used (an unreadable or empty
        /// `certificateAuthorities` file, or a session whose delegate takes the server-trust
        /// challenges the configured authorities need): found when the fetcher is made, and
        /// reported by `ImageProbeFetcher.configurationError` and by every probe.
        public static let configuration = Code("configuration")
        /// The bytes arrived, but the scanner gave no answer (`FetchError.scanFailure` says why,
        /// `truncated` when the body ended inside the header).
        public static let scan = Code("scan")
    }

    /// What went wrong.
    public var code: Code
    /// A sentence saying why, for people.
    public var message: String
    /// The HTTP status, for `.httpStatus`.
    public var status: Int?
    /// The scanner's failure, for `.scan`.
    public var scanFailure: ScanFailure?
    /// The image a limit refused (`ScanFailure.Code.tooManyPixels`): its format and size.
    public var refusedImage: ImageInfo?
    /// What the probe had cost when it failed: bytes received.
    public var bytesTransferred = 0
    /// What the probe had cost when it failed: requests sent.
    public var requests = 0

    /// An error with the given code and message (for tests and mocks).
    public init(_ code: Code, _ message: String, status: Int? = nil, scanFailure: ScanFailure? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.scanFailure = scanFailure
    }

    public var description: String {
        if let status { return "\(code) \(status): \(message)" }
        return "\(code): \(message)"
    }
}
