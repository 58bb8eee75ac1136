/// Windows and OS/2 bitmaps: the 14-byte file header, then a DIB header whose size says
/// its layout.
///
/// The 12-byte BITMAPCOREHEADER (OS/2 1.x) has unsigned 16-bit width and height at offsets
/// 18 and 20. Every other header (16 and 64 bytes for OS/2 2.x; 40, 52, 56, 108 and 124 for
/// Windows) has signed 32-bit values at 18 and 22; a negative height means the rows are
/// stored top-down, and the height is its absolute value.
@usableFromInline
struct BMPParser: FormatParser, Sendable {

    @usableFromInline
    enum Phase: Sendable {
        /// Bytes 2...21: file size, reserved, data offset, DIB header size, and four more.
        case fileHeader
        /// Bytes 22...25: the 32-bit height (dimensions-only mode).
        case height
        /// Bytes 22...29: height, planes and bit count (full mode).
        case heightAndDepth
        /// Bytes 22...25 of a core header: planes and bit count.
        case coreDepth
    }

    @usableFromInline var phase: Phase = .fileHeader
    @usableFromInline var facts = ImageFacts(format: .bmp)

    /// Built on demand from the compact facts the parser keeps.

    @inlinable
    init(sniffed: Sniffed) { self.init() }

    @inlinable var firstStep: Step { .read(20) }

    @inlinable
    init() {}

    @inlinable
    var format: ImageFormat? { .bmp }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .coreDepth: info
        case .fileHeader, .height, .heightAndDepth: nil
        }
    }

    @inlinable @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
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
            if case .heightAndDepth = phase { facts.bitDepth = Int(field.le16(6)) }
            return .done
        case .coreDepth:
            facts.bitDepth = Int(field.le16(2))
            return .done
        }
    }
}

extension BMPParser {
    /// Why BMP input can't be read: each failure with its message (SPEC.md §3).
    @usableFromInline
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case unknownDIBHeaderSize
        case widthIsNotPositive
        case badHeight

        @inlinable
        static var owner: UInt8 { BMPParser.kind.rawValue }

        /// The message: a literal, so reading it allocates nothing.
        @inlinable
        var message: String {
            switch self {
            case .unknownDIBHeaderSize: "unknown DIB header size"
            case .widthIsNotPositive: "width is not positive"
            case .badHeight: "bad height"
            }
        }
    }
}
