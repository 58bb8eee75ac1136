/// Why the scanner could not report an image's size.
///
/// A code from a small extensible set, a short static message for people, and the format
/// when it had been identified before the failure. The message is not stored: the reason
/// names it (its owner and its case), so a failure, which every parser step may carry, stays
/// a few bytes.
public struct ScanFailure: Sendable, Hashable {
    /// The kind of failure. Extensible: new codes are new static members.
    public struct Code: Hashable, Sendable {
        enum Kind: UInt8, Sendable {
            case unknownFormat = 1, malformed, truncated, limitExceeded, unsupportedFeature, tooManyPixels
        }

        let kind: Kind

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
        /// The image has more pixels than `ScanOptions.maxPixels` allows: a possible
        /// decompression bomb, not a broken file. Comes with the image's size
        /// (`ScanStatus.refused`).
        public static let tooManyPixels = Code(.tooManyPixels)

        /// The code's name as used in SPEC.md and the CLI's JSON (`"truncated"`). A literal:
        /// reading it allocates nothing.
        public var name: String { spelled() }

        /// The name as a literal of either type: a String for `name`, a StaticString for the
        /// C interface, which copies its bytes without building a String.
        package func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch kind {
            case .unknownFormat: "unknownFormat"
            case .malformed: "malformed"
            case .truncated: "truncated"
            case .limitExceeded: "limitExceeded"
            case .unsupportedFeature: "unsupportedFeature"
            case .tooManyPixels: "tooManyPixels"
            }
        }

        /// The message of a failure built from the code alone.
        var genericReason: CommonFailure {
            switch kind {
            case .unknownFormat: .genericUnknownFormat
            case .malformed: .genericMalformed
            case .truncated: .genericTruncated
            case .limitExceeded: .genericLimitExceeded
            case .unsupportedFeature: .genericUnsupportedFeature
            case .tooManyPixels: .imageHasMorePixelsThanMaxPixels
            }
        }
    }

    /// Which message explains the failure: its owner (a parser's `ParserKind`, or
    /// `CommonFailure.owner`) in the high byte, its case in the owner's `Failure` in the low one.
    var reason: UInt16
    /// The kind of failure.
    public var code: Code
    /// The format, when it was identified before the failure.
    public var format: ImageFormat?

    /// A short explanation, fixed at compile time: a literal, so reading it allocates nothing.
    public var message: String { spelledMessage() }

    /// The message as a literal of either type, from the reason's owner: the common reasons,
    /// or the owning parser's, through the registry's `visit`.
    package func spelledMessage<Text: ExpressibleByStringLiteral>() -> Text {
        let owner = UInt8(truncatingIfNeeded: reason >> 8)
        let index = UInt8(truncatingIfNeeded: reason)
        if owner == CommonFailure.owner { return CommonFailure(rawValue: index)?.spelled() ?? "" }
        return ParserKind(rawValue: owner)?.visit(FailureMessage<Text>(index: index)) ?? ""
    }

    /// Creates a failure with the general message for `code`, for callers that report their
    /// own failures in the scanner's vocabulary (or stand in for a scanner in tests).
    public init(_ code: Code, format: ImageFormat? = nil) {
        self.init(code, code.genericReason, format: format)
    }

    /// Creates a failure with one of the scanner's messages.
    package init(_ code: Code, _ reason: CommonFailure, format: ImageFormat? = nil) {
        self.init(code, reason as CommonFailure, owner: CommonFailure.owner, format: format)
    }

    /// Creates a failure with one of a parser's messages.
    init<Reason: FailureReason>(_ code: Code, _ reason: Reason, format: ImageFormat? = nil) {
        self.init(code, reason, owner: Reason.owner, format: format)
    }

    init<Reason: FailureReason>(_ code: Code, _ reason: Reason, owner: UInt8, format: ImageFormat?) {
        self.reason = UInt16(owner) << 8 | UInt16(reason.rawValue)
        self.code = code
        self.format = format
    }
}

/// Why a parser (or the scanner) fails: an enumeration declared with the code that raises it,
/// each case with its message beside it.
package protocol FailureReason: RawRepresentable, CaseIterable where RawValue == UInt8 {
    /// Who declares these reasons: a `ParserKind`'s raw value, or `CommonFailure.owner`.
    static var owner: UInt8 { get }
    /// The message, as a literal of either type.
    func spelled<Text: ExpressibleByStringLiteral>() -> Text
}

extension FailureReason {
    /// The message. A literal: reading it allocates nothing.
    package var message: String { spelled() }
}

/// A parser's message for a reason's index.
struct FailureMessage<Text: ExpressibleByStringLiteral>: ParserVisitor {
    let index: UInt8

    func visit<Parser: FormatParser>(_ type: Parser.Type) -> Text {
        Parser.Failure(rawValue: index)?.spelled() ?? ""
    }
}

extension ScanFailure {
    static func malformed(_ format: ImageFormat, _ reason: CommonFailure) -> ScanFailure {
        ScanFailure(.malformed, reason, format: format)
    }

    static func malformed<Reason: FailureReason>(_ format: ImageFormat, _ reason: Reason) -> ScanFailure {
        ScanFailure(.malformed, reason, format: format)
    }

    static func unsupported(_ format: ImageFormat, _ reason: CommonFailure) -> ScanFailure {
        ScanFailure(.unsupportedFeature, reason, format: format)
    }

    static func unsupported<Reason: FailureReason>(_ format: ImageFormat, _ reason: Reason) -> ScanFailure {
        ScanFailure(.unsupportedFeature, reason, format: format)
    }

    static func limit(_ format: ImageFormat?, _ reason: CommonFailure) -> ScanFailure {
        ScanFailure(.limitExceeded, reason, format: format)
    }

    static func limit<Reason: FailureReason>(_ format: ImageFormat?, _ reason: Reason) -> ScanFailure {
        ScanFailure(.limitExceeded, reason, format: format)
    }

    static func tooLarge(_ format: ImageFormat) -> ScanFailure {
        ScanFailure(.limitExceeded, CommonFailure.imageLargerThanMaxWidthOrMaxHeight, format: format)
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
