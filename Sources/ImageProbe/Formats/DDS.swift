#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DDS)
/// DirectDraw Surface (Microsoft DDS_HEADER): the magic `DDS `, then a 124-byte header whose
/// fourth and fifth 32-bit little-endian fields are the height and the width.
///
/// The DDSD_HEIGHT and DDSD_WIDTH flags are not required: Microsoft warns readers that writers
/// leave header flags clear, and the size fields are at fixed offsets anyway (SPEC: DDS). Full
/// mode also reads the pixel format (offsets 76...107) for the bit count and alpha.
struct DDSParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Bytes 2...19: "S ", dwSize, dwFlags, dwHeight, dwWidth.
        case header
        /// Bytes 76...107: the DDS_PIXELFORMAT structure (full mode).
        case pixelFormat
    }

    var phase: Phase = .header
    var facts = ImageFacts(format: .dds)

    init() {}

    /// After the sniffed "DD".
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(18) }

    var format: ImageFormat? { .dds }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .pixelFormat: info
        }
    }

    /// DDS_PIXELFORMAT flags.
    static let alphaPixels: UInt32 = 0x1
    static let alphaOnly: UInt32 = 0x2
    static let fourCC: UInt32 = 0x4
    static let rgb: UInt32 = 0x40
    static let yuv: UInt32 = 0x200
    static let luminance: UInt32 = 0x2_0000

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.matches("S ", at: 0) else { return .failed(ScanFailure(.unknownFormat, Failure.ddsMagicDamaged)) }
            guard field.le32(2) == 124 else { return .failed(.malformed(.dds, Failure.ddsHeaderSizeIsNot124)) }
            let height = field.le32(10)
            let width = field.le32(14)
            guard width != 0 && height != 0 else { return .failed(.malformed(.dds, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.dds)) }
            facts.width = Int(clamping: width)
            facts.height = Int(clamping: height)
            if options.dimensionsOnly { return .done }
            phase = .pixelFormat
            // Pitch, depth, mipmap count and the 44 reserved bytes come first.
            return .skipThenRead(56, 32)
        case .pixelFormat:
            // A pixel format of the wrong size is unreadable, not fatal: the size stands.
            guard field.le32(0) == 32 else { return .done }
            describe(flags: field.le32(4), fourCC: field.tag(8), bitCount: field.le32(12))
            return .done
        }
    }

    /// Bit count and alpha from DDS_PIXELFORMAT. Compressed formats state no bit count; of
    /// them only the ones whose alpha is certain say so (DXT1 may or may not use its 1-bit
    /// alpha, a DX10 header names its format later).
    mutating func describe(flags: UInt32, fourCC code: UInt32, bitCount: UInt32) {
        if flags & Self.fourCC != 0 {
            switch code {
            case 0x4458_5432, 0x4458_5433, 0x4458_5434, 0x4458_5435:  // "DXT2"..."DXT5"
                facts.hasAlpha = true
            case 0x4154_4931, 0x4154_4932, 0x4243_3455, 0x4243_3453, 0x4243_3555, 0x4243_3553:
                // "ATI1", "ATI2", "BC4U", "BC4S", "BC5U", "BC5S": one or two colour channels.
                facts.hasAlpha = false
            default:
                break
            }
            return
        }
        guard flags & (Self.rgb | Self.yuv | Self.luminance | Self.alphaOnly) != 0 else { return }
        if bitCount != 0 && bitCount <= 128 { facts.bitDepth = Int(truncatingIfNeeded: bitCount) }
        facts.hasAlpha = flags & (Self.alphaPixels | Self.alphaOnly) != 0
    }
}

extension DDSParser {
    /// Why DDS input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case ddsMagicDamaged
        case ddsHeaderSizeIsNot124

        static var owner: UInt8 { DDSParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .ddsMagicDamaged: "DDS magic damaged"
            case .ddsHeaderSizeIsNot124: "DDS header size is not 124"
            }
        }
    }
}
#endif
