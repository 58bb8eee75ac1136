#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_QOI)
/// QOI, the "Quite OK Image" format: "qoif", width and height (32-bit big-endian), channels
/// (3 or 4) and colour space (0 sRGB with linear alpha, 1 all linear).
///
/// The size is known at byte 12; full mode reads channels and colour space (14 bytes).
struct QOIParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// "if" (after the sniffed "qo"), width, height.
        case header
        /// Channels and colour space (full mode).
        case channels
    }

    var phase: Phase = .header
    var facts = ImageFacts(format: .qoi)

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(10) }

    init() {}

    var format: ImageFormat? { .qoi }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .channels: info
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.matches("if", at: 0) else { return .failed(ScanFailure(.unknownFormat, Failure.notAQOISignature)) }
            let width = field.be32(2)
            let height = field.be32(6)
            guard width != 0 && height != 0 else { return .failed(.malformed(.qoi, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.qoi)) }
            facts.width = Int(truncatingIfNeeded: width)
            facts.height = Int(truncatingIfNeeded: height)
            if options.dimensionsOnly { return .done }
            phase = .channels
            return .read(2)
        case .channels:
            let channels = field.u8(0)
            guard channels == 3 || channels == 4 else { return .failed(.malformed(.qoi, Failure.channelsIsNot3Or4)) }
            guard field.u8(1) <= 1 else { return .failed(.malformed(.qoi, Failure.colourSpaceIsNot0Or1)) }
            facts.hasAlpha = channels == 4
            facts.bitDepth = 8
            return .done
        }
    }
}

extension QOIParser {
    /// Why QOI input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case notAQOISignature
        case channelsIsNot3Or4
        case colourSpaceIsNot0Or1

        static var owner: UInt8 { QOIParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .notAQOISignature: "not a QOI signature"
            case .channelsIsNot3Or4: "channels is not 3 or 4"
            case .colourSpaceIsNot0Or1: "colour space is not 0 or 1"
            }
        }
    }
}
#endif
