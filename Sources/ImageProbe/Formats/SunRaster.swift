#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SUNRASTER)
/// Sun raster files: magic 0x59A66A95, then width, height and depth as 32-bit big-endian
/// values (the rest of the 32-byte header is length, type and colour map).
///
/// The size is known at byte 12; full mode reads the depth (16 bytes).
struct SunRasterParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Magic bytes 2-3 (after the sniffed 59 A6), width, height.
        case header
        /// The depth (full mode).
        case depth
    }

    var phase: Phase = .header
    var facts = ImageFacts(format: .sun)

    init() {}

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(10) }

    var format: ImageFormat? { .sun }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .depth: info
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.u8(0) == 0x6A && field.u8(1) == 0x95 else {
                return .failed(ScanFailure(.unknownFormat, Failure.notASunRasterSignature))
            }
            let width = field.be32(2)
            let height = field.be32(6)
            guard width != 0 && height != 0 else { return .failed(.malformed(.sun, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.sun)) }
            facts.storedWidth = width
            facts.storedHeight = height
            if options.dimensionsOnly { return .done }
            phase = .depth
            return .read(4)
        case .depth:
            let depth = field.be32(0)
            switch depth {
            case 1, 8, 24, 32: facts.bitDepth = Int(truncatingIfNeeded: depth)
            default: return .failed(.malformed(.sun, Failure.depthIsNot1_8_24Or32))
            }
            return .done
        }
    }
}

extension SunRasterParser {
    /// Why SunRaster input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case notASunRasterSignature
        case depthIsNot1_8_24Or32

        static var owner: UInt8 { SunRasterParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .notASunRasterSignature: "not a Sun raster signature"
            case .depthIsNot1_8_24Or32: "depth is not 1, 8, 24 or 32"
            }
        }
    }
}
#endif
