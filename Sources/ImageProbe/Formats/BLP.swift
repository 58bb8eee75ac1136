#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BLP)
/// Blizzard texture files (wowdev.wiki "BLP"; Pillow's `BlpImagePlugin`): "BLP0", "BLP1"
/// (Warcraft III) or "BLP2" (World of Warcraft), a few header fields, then the width and
/// height as 32-bit little-endian values at bytes 12 and 16 in every version.
///
/// BLP0/BLP1: compression (0 JPEG, 1 palette) and alpha bits (0, 1, 4, 8) before the size.
/// BLP2: type (1), colour encoding (1 palette, 2 DXT, 3 ARGB8888), alpha depth (0, 1, 4, 8),
/// alpha encoding and a mipmap flag. The size, alpha and depth are known at byte 20 in both
/// modes.
struct BLPParser: FormatParser, Sendable {

    var facts = ImageFacts(format: .blp)

    init() {}

    /// "P" and the version digit (after the sniffed "BL"), the header through the height.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(18) }

    var format: ImageFormat? { .blp }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard field.u8(0) == 0x50 else { return .failed(Sniffer.unknown) }  // "P"
        let alphaBits: UInt32
        switch field.u8(1) {
        case 0x30, 0x31:  // "0", "1": BLP0 keeps its mipmaps in other files; the header is BLP1's.
            let compression = field.le32(2)
            alphaBits = field.le32(6)
            guard compression <= 1 else { return .failed(.malformed(.blp, Failure.unknownBLPEncoding)) }
            // A palette's indices are 8 bits; JPEG data states no depth here.
            facts.bitDepth = compression == 1 ? 8 : nil
        case 0x32:  // "2"
            guard field.le32(2) == 1 else { return .failed(.unsupported(.blp, Failure.unknownBLPVersion)) }
            let encoding = field.u8(6)
            alphaBits = UInt32(field.u8(7))
            switch encoding {
            case 1, 3: facts.bitDepth = 8  // palette indices; ARGB8888
            case 2: facts.bitDepth = nil  // DXT blocks
            default: return .failed(.malformed(.blp, Failure.unknownBLPEncoding))
            }
        default:
            return .failed(.unsupported(.blp, Failure.unknownBLPVersion))
        }
        switch alphaBits {
        case 0, 1, 4, 8: facts.hasAlpha = alphaBits != 0
        default: return .failed(.malformed(.blp, Failure.alphaBitsIsNot0_1_4Or8))
        }
        let width = field.le32(10)
        let height = field.le32(14)
        guard width != 0 && height != 0 else { return .failed(.malformed(.blp, .zeroWidthOrHeight)) }
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.blp)) }
        facts.width = Int(truncatingIfNeeded: width)
        facts.height = Int(truncatingIfNeeded: height)
        return .done
    }
}

extension BLPParser {
    /// Why BLP input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case unknownBLPVersion
        case unknownBLPEncoding
        case alphaBitsIsNot0_1_4Or8

        static var owner: UInt8 { BLPParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .unknownBLPVersion: "unknown BLP version"
            case .unknownBLPEncoding: "unknown BLP compression or colour encoding"
            case .alphaBitsIsNot0_1_4Or8: "alpha bits is not 0, 1, 4 or 8"
            }
        }
    }
}
#endif
