#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASTC)
/// ASTC texture files (Arm astc-encoder, "The .astc File Format"): the magic `13 AB A1 5C`,
/// the block size (x, y, z: one byte each), then the image size (x, y, z: 24-bit
/// little-endian each), then 16-byte blocks.
///
/// The size is known at byte 13 (through y); full mode also reads z (16 bytes), which must be
/// at least 1. The block size is validated against the footprints the format defines, since
/// the magic is only four bytes. The header says nothing of bit depth, alpha or colour space.
struct ASTCParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Magic bytes 2–3, the block size, x and y.
        case header
        /// z (full mode).
        case depth
    }

    var phase: Phase = .header
    var facts = ImageFacts(format: .astc)

    init() {}

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(11) }

    var format: ImageFormat? { .astc }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .depth: info
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.u8(0) == 0xA1 && field.u8(1) == 0x5C else { return .failed(Sniffer.unknown) }
            guard Self.isFootprint(field.u8(2), field.u8(3), field.u8(4)) else {
                return .failed(.malformed(.astc, Failure.unknownASTCBlockFootprint))
            }
            let width = field.le24(5)
            let height = field.le24(8)
            guard width != 0 && height != 0 else { return .failed(.malformed(.astc, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.astc)) }
            facts.storedWidth = width
            facts.storedHeight = height
            if options.dimensionsOnly { return .done }
            phase = .depth
            return .read(3)
        case .depth:
            // A depth of 0 holds no image; the size is known, so this only ends the scan.
            guard field.le24(0) != 0 else { return .failed(.malformed(.astc, .zeroDepth)) }
            return .done
        }
    }

    /// The block footprints ASTC defines: 14 two-dimensional (z = 1) and 10 three-dimensional.
    static func isFootprint(_ x: UInt8, _ y: UInt8, _ z: UInt8) -> Bool {
        if z == 1 {
            switch (x, y) {
            case (4, 4), (5, 4), (5, 5), (6, 5), (6, 6), (8, 5), (8, 6), (8, 8), (10, 5), (10, 6), (10, 8), (10, 10),
                 (12, 10), (12, 12):
                return true
            default:
                return false
            }
        }
        switch (x, y, z) {
        case (3, 3, 3), (4, 3, 3), (4, 4, 3), (4, 4, 4), (5, 4, 4), (5, 5, 4), (5, 5, 5), (6, 5, 5), (6, 6, 5), (6, 6, 6):
            return true
        default:
            return false
        }
    }
}

extension ASTCParser {
    /// Why ASTC input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case unknownASTCBlockFootprint

        static var owner: UInt8 { ASTCParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .unknownASTCBlockFootprint: "unknown ASTC block footprint"
            }
        }
    }
}
#endif
