/// Why the scanner could not report an image's size.
///
/// A code from a small extensible set, a short static message for people, and the format
/// when it had been identified before the failure.
public struct ScanFailure: Sendable, Hashable {
    /// The kind of failure. Extensible: new codes are new static members.
    public struct Code: Hashable, Sendable {
        @usableFromInline
        enum Kind: UInt8, Sendable {
            case unknownFormat = 1, malformed, truncated, limitExceeded, unsupportedFeature
        }

        @usableFromInline let kind: Kind

        @inlinable
        init(_ kind: Kind) { self.kind = kind }

        /// No supported format's signature matches the input.
        public static let unknownFormat = Code(.unknownFormat)
        /// The format was identified but its header breaks the specification.
        public static let malformed = Code(.malformed)
        /// The input ended before the header was complete.
        public static let truncated = Code(.truncated)
        /// A limit in `ScanOptions` was reached (bytes, dimensions, entries, nesting).
        public static let limitExceeded = Code(.limitExceeded)
        /// A valid file uses a feature the scanner does not handle.
        public static let unsupportedFeature = Code(.unsupportedFeature)

        /// The code's name as used in SPEC.md and the CLI's JSON (`"truncated"`).
        public var name: StaticString {
            switch kind {
            case .unknownFormat: "unknownFormat"
            case .malformed: "malformed"
            case .truncated: "truncated"
            case .limitExceeded: "limitExceeded"
            case .unsupportedFeature: "unsupportedFeature"
            }
        }
    }

    /// The kind of failure.
    public var code: Code
    /// A short explanation, fixed at compile time (no allocation).
    public var message: StaticString
    /// The format, when it was identified before the failure.
    public var format: ImageFormat?

    /// Creates a failure.
    @inlinable
    public init(_ code: Code, _ message: StaticString, format: ImageFormat? = nil) {
        self.code = code
        self.message = message
        self.format = format
    }

    // StaticString has no Equatable conformance; compare the message text.
    public static func == (lhs: ScanFailure, rhs: ScanFailure) -> Bool {
        lhs.code == rhs.code && lhs.format == rhs.format && sameText(lhs.message, rhs.message)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(format)
        hasher.combine(message.utf8CodeUnitCount)
    }

    @usableFromInline
    static func sameText(_ a: StaticString, _ b: StaticString) -> Bool {
        guard a.utf8CodeUnitCount == b.utf8CodeUnitCount else { return false }
        var index = 0
        while index < a.utf8CodeUnitCount {
            if a.utf8Start[index] != b.utf8Start[index] { return false }
            index += 1
        }
        return true
    }
}

extension ScanFailure {
    @inlinable
    static func malformed(_ format: ImageFormat, _ message: StaticString) -> ScanFailure {
        ScanFailure(.malformed, message, format: format)
    }

    @inlinable
    static func unsupported(_ format: ImageFormat, _ message: StaticString) -> ScanFailure {
        ScanFailure(.unsupportedFeature, message, format: format)
    }

    @inlinable
    static func limit(_ format: ImageFormat?, _ message: StaticString) -> ScanFailure {
        ScanFailure(.limitExceeded, message, format: format)
    }

    @inlinable
    static func tooLarge(_ format: ImageFormat) -> ScanFailure {
        ScanFailure(.limitExceeded, "image larger than maxWidth or maxHeight", format: format)
    }
}

#if !hasFeature(Embedded)
extension ScanFailure: Error, CustomStringConvertible {
    public var description: String {
        if let format {
            return "\(code.name) (\(format.name)): \(message)"
        }
        return "\(code.name): \(message)"
    }
}
#endif
