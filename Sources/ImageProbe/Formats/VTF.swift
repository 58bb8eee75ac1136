#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_VTF)
/// Valve Texture Format, versions 7.0 to 7.6 (Valve Developer Community, "VTF"; VTFLib's
/// `SVTFHeader`): "VTF\0", the version (two 32-bit little-endian numbers), the header size,
/// then the width and height (16-bit), flags, frame count, … the high-resolution image format.
///
/// The size is known at byte 20. Full mode reads on to the image format (56 bytes): frames,
/// alpha and bits per channel. The console variants (`VTFX`, `VTF3`) have other layouts and
/// are not read.
struct VTFParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// "F\0" (after the sniffed "VT"), version, header size, width, height.
        case header
        /// Flags, frames, first frame, reflectivity, bump-map scale and the image format.
        case details
    }

    var phase: Phase = .header
    var facts = ImageFacts(format: .vtf)

    init() {}

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(18) }

    var format: ImageFormat? { .vtf }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .details: info
        }
    }

    /// VTF flags: a one-bit or an eight-bit alpha channel.
    static let alphaFlags: UInt32 = 0x1000 | 0x2000

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.u8(0) == 0x46 && field.u8(1) == 0 else { return .failed(Sniffer.unknown) }
            // Version 7.0 (2003) to 7.6 (Strata Source); the header grew, never moved.
            guard field.le32(2) == 7 && field.le32(6) <= 6 else { return .failed(.unsupported(.vtf, Failure.unknownVTFVersion)) }
            guard field.le32(10) >= 64 else { return .failed(.malformed(.vtf, Failure.vtfHeaderSizeBelow64)) }
            let width = field.le16(14)
            let height = field.le16(16)
            guard width != 0 && height != 0 else { return .failed(.malformed(.vtf, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.vtf)) }
            facts.width = Int(width)
            facts.height = Int(height)
            if options.dimensionsOnly { return .done }
            phase = .details
            return .read(36)
        case .details:
            let flags = field.le32(0)
            let frames = field.le16(4)
            if frames != 0 {
                facts.frameCount = Int(frames)
                facts.isAnimated = frames > 1
            }
            let imageFormat = field.le32(32)
            facts.bitDepth = Self.bitsPerChannel(imageFormat)
            facts.hasAlpha = flags & Self.alphaFlags != 0 ? true : Self.hasAlpha(imageFormat)
            return .done
        }
    }

    /// Bits per channel of the formats that store whole channels: 8 for the 8-bit ones, 16 for
    /// RGBA16161616 and its float form; nil for packed and block-compressed formats.
    static func bitsPerChannel(_ format: UInt32) -> Int? {
        switch format {
        case 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 16, 22, 23, 26: 8
        case 24, 25: 16
        default: nil
        }
    }

    /// Whether an image format carries alpha; nil for formats the table does not know.
    static func hasAlpha(_ format: UInt32) -> Bool? {
        switch format {
        // RGBA8888, ABGR8888, IA88, A8, ARGB8888, BGRA8888, DXT3, DXT5, BGRA4444,
        // DXT1_ONEBITALPHA, BGRA5551, RGBA16161616F, RGBA16161616.
        case 0, 1, 6, 8, 11, 12, 14, 15, 19, 20, 21, 24, 25: true
        // RGB888, BGR888, RGB565, I8, P8, the blue-screen RGB/BGR888, DXT1, BGRX8888, BGR565,
        // BGRX5551, UV88, UVWQ8888, UVLX8888.
        case 2, 3, 4, 5, 7, 9, 10, 13, 16, 17, 18, 22, 23, 26: false
        default: nil
        }
    }
}

extension VTFParser {
    /// Why VTF input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case unknownVTFVersion
        case vtfHeaderSizeBelow64

        static var owner: UInt8 { VTFParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .unknownVTFVersion: "unknown VTF version"
            case .vtfHeaderSizeBelow64: "VTF header size below 64"
            }
        }
    }
}
#endif
