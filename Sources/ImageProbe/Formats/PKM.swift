#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PKM)
/// PKM, the ETC1/ETC2 texture container (Android `etc1_utils`, Ericsson ETCPACK): "PKM ",
/// the version "10" (ETC1) or "20" (ETC2), then big-endian 16-bit values: data type, the
/// extended (block-padded) width and height, and the image's width and height.
///
/// The size is the image's (bytes 12–15), known at byte 16 in both modes; the extended size
/// only validates it, as Android's `etc1_pkm_is_valid` does.
struct PKMParser: FormatParser, Sendable {

    var facts = ImageFacts(format: .pkm)

    init() {}

    /// "M " (after the sniffed "PK"), version, data type, extended size, size.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(14) }

    var format: ImageFormat? { .pkm }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard field.matches("M ", at: 0) else { return .failed(Sniffer.unknown) }
        let etc2: Bool
        if field.matches("10", at: 2) {
            etc2 = false
        } else if field.matches("20", at: 2) {
            etc2 = true
        } else {
            return .failed(.unsupported(.pkm, Failure.unknownPKMVersion))
        }
        let type = field.be16(4)
        // PKM 10 holds ETC1 only (type 0), as Android checks. PKM 20 numbers ETCPACK's formats
        // 0...11, but other writers store other codes there (OpenGL enums such as 0x1602,
        // 0x160A, 0x8C92): the size fields sit at the same offsets whatever the type, so a
        // PKM 20 of an unknown type is still sized (the Rust `imagesize` crate reads it too),
        // with `hasAlpha` unknown.
        guard etc2 || type == 0 else { return .failed(.malformed(.pkm, Failure.unknownPKMDataType)) }
        let extendedWidth = field.be16(6)
        let extendedHeight = field.be16(8)
        let width = field.be16(10)
        let height = field.be16(12)
        guard width != 0 && height != 0 else { return .failed(.malformed(.pkm, .zeroWidthOrHeight)) }
        // The stored blocks cover the image, padded by fewer than one 4-pixel block.
        guard extendedWidth >= width && extendedWidth - width < 4 && extendedHeight >= height && extendedHeight - height < 4 else {
            return .failed(.malformed(.pkm, Failure.extendedSizeDoesNotCoverTheImage))
        }
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.pkm)) }
        facts.width = Int(width)
        facts.height = Int(height)
        // ETCPACK's alpha types: RGBA (2, old), RGBA8 (3), RGBA1 (4), sRGBA8 (10), sRGBA1 (11).
        switch type {
        case 2, 3, 4, 10, 11: facts.hasAlpha = true
        case 0, 1, 5, 6, 7, 8, 9: facts.hasAlpha = false
        default: break  // a type outside ETCPACK's table: unknown
        }
        return .done
    }
}

extension PKMParser {
    /// Why PKM input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case unknownPKMVersion
        case unknownPKMDataType
        case extendedSizeDoesNotCoverTheImage

        static var owner: UInt8 { PKMParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .unknownPKMVersion: "unknown PKM version"
            case .unknownPKMDataType: "unknown PKM data type"
            case .extendedSizeDoesNotCoverTheImage: "PKM extended size does not cover the image"
            }
        }
    }
}
#endif
