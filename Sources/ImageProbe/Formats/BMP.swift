#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_BMP)
/// Windows and OS/2 bitmaps: the 14-byte file header, then a DIB header whose size says
/// its layout.
///
/// The 12-byte BITMAPCOREHEADER (OS/2 1.x) has unsigned 16-bit width and height at offsets
/// 18 and 20. Every other header (16 and 64 bytes for OS/2 2.x; 40, 52, 56, 108 and 124 for
/// Windows) has signed 32-bit values at 18 and 22; a negative height means the rows are
/// stored top-down, and the height is its absolute value.
///
/// Full mode also reads the resolution (pixels per metre, in every header from the 40-byte
/// BITMAPINFOHEADER on, OS/2 2.x's 64-byte one too) and, in a BITMAPV5HEADER, whether an ICC
/// profile is embedded (`PROFILE_EMBEDDED` with a size); no earlier header can embed one.
struct BMPParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Bytes 2...21: file size, reserved, data offset, DIB header size, and four more.
        case fileHeader
        /// Bytes 22...25: the 32-bit height (dimensions-only mode).
        case height
        /// Bytes 22...29: height, planes and bit count (full mode).
        case heightAndDepth
        /// Bytes 38...45 of a header of 40 bytes or more: the horizontal and vertical pixels
        /// per metre.
        case resolution
        /// Bytes 70...73 of a BITMAPV5HEADER: `bV5CSType`.
        case colourSpace
        /// Bytes 130...133 of a BITMAPV5HEADER: `bV5ProfileSize`.
        case profileSize
        /// Bytes 22...25 of a core header: planes and bit count.
        case coreDepth
    }

    /// `bV5CSType`'s PROFILE_EMBEDDED, 'MBED', as the little-endian word the file stores.
    static let profileEmbedded: UInt32 = 0x4D42_4544

    var phase: Phase = .fileHeader
    /// The DIB header's size (12...124).
    var headerSize: UInt8 = 0
    var facts = ImageFacts(format: .bmp)
    /// Full mode's resolution and ICC profile.
    var extras = ExtraFacts()

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(20) }

    init() {}

    var format: ImageFormat? { .bmp }

    var info: ImageInfo { ImageInfo(facts, extras) }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .coreDepth, .resolution, .colourSpace, .profileSize: info
        case .fileHeader, .height, .heightAndDepth: nil
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        // Full mode's answer ends in the one tail below, once whether a profile is embedded
        // is known.
        var hasProfile = false
        switch phase {
        case .fileHeader:
            let headerSize = field.le32(12)
            if headerSize == 12 {
                let width = field.le16(16)
                let height = field.le16(18)
                guard width != 0 && height != 0 else { return .failed(.malformed(.bmp, .zeroWidthOrHeight)) }
                guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.bmp)) }
                facts.width = Int(width)
                facts.height = Int(height)
                if options.dimensionsOnly { return .done }
                phase = .coreDepth
                return .read(4)
            }
            switch headerSize {
            case 16, 40, 52, 56, 64, 108, 124: break
            default: return .failed(.malformed(.bmp, Failure.unknownDIBHeaderSize))
            }
            let width = Int32(bitPattern: field.le32(16))
            guard width > 0 else { return .failed(.malformed(.bmp, Failure.widthIsNotPositive)) }
            facts.width = Int(width)
            if options.dimensionsOnly {
                phase = .height
                return .read(4)
            }
            self.headerSize = UInt8(truncatingIfNeeded: headerSize)  // one of the sizes above
            phase = .heightAndDepth
            return .read(8)
        case .height, .heightAndDepth:
            let height = Int32(bitPattern: field.le32(0))
            // Negative: top-down rows. Int32.min has no positive counterpart.
            guard height != 0 && height != Int32.min else { return .failed(.malformed(.bmp, Failure.badHeight)) }
            guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(height.magnitude)) else {
                return .failed(.tooLarge(.bmp))
            }
            facts.storedHeight = height.magnitude
            if case .height = phase { return .done }
            facts.bitDepth = Int(field.le16(6))
            // OS/2's 16-byte header has neither fact.
            guard headerSize >= 40 else { break }
            phase = .resolution
            return .skipThenRead(8, 8)  // bytes 30...37: compression and image size
        case .resolution:
            // LONG pixels per metre; 0 (or a negative value) states none.
            let x = Int32(bitPattern: field.le32(0))
            let y = Int32(bitPattern: field.le32(4))
            if x > 0 && y > 0 {
                extras.setResolution(x: UInt32(x), y: UInt32(y), perMicrometres: 1_000_000)
            }
            // No header before BITMAPV5HEADER can embed one.
            guard headerSize == 124 else { break }
            phase = .colourSpace
            return .skipThenRead(24, 4)  // bytes 46...69: colours used and important, the masks
        case .colourSpace:
            // PROFILE_LINKED names a file, not an embedded profile; sRGB and calibrated
            // spaces have none.
            guard field.le32(0) == Self.profileEmbedded else { break }
            phase = .profileSize
            return .skipThenRead(56, 4)  // bytes 74...129: endpoints, gamma, intent, profile offset
        case .profileSize:
            hasProfile = field.le32(0) > 0
        case .coreDepth:
            facts.bitDepth = Int(field.le16(2))
        }
        extras.hasICCProfile = hasProfile
        return .done
    }
}

extension BMPParser {
    /// Why BMP input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case unknownDIBHeaderSize
        case widthIsNotPositive
        case badHeight

        static var owner: UInt8 { BMPParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .unknownDIBHeaderSize: "unknown DIB header size"
            case .widthIsNotPositive: "width is not positive"
            case .badHeight: "bad height"
            }
        }
    }
}
#endif
