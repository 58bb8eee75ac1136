/// Adobe Photoshop documents: PSD (version 1) and PSB, the large-document format (version 2).
///
/// The file header is "8BPS", version, 6 reserved bytes, channels, then the height and the
/// width as 32-bit big-endian values, depth and colour mode. Both versions are reported as
/// `psd`. The size is known at byte 22; full mode reads depth and colour mode (26 bytes).
/// The EXIF block in the image resources is not read: manifests and peers report no
/// orientation for PSD, and Photoshop applies none on opening.
@usableFromInline
struct PSDParser: FormatParser, Sendable {

    @usableFromInline
    enum Phase: Sendable {
        /// "PS" (after the sniffed "8B"), version, reserved, channels, height, width.
        case header
        /// Depth and colour mode (full mode).
        case depthAndMode
    }

    @usableFromInline var phase: Phase = .header
    @usableFromInline var facts = ImageFacts(format: .psd)

    /// Built on demand from the compact facts the parser keeps.

    @inlinable
    init(sniffed: Sniffed) { self.init() }

    @inlinable var firstStep: Step { .read(20) }

    @inlinable
    init() {}

    @inlinable
    var format: ImageFormat? { .psd }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .depthAndMode: info
        }
    }

    @inlinable @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.matches("PS", at: 0) else { return .failed(ScanFailure(.unknownFormat, Failure.notAPhotoshopSignature)) }
            let version = field.be16(2)
            guard version == 1 || version == 2 else { return .failed(.unsupported(.psd, Failure.unknownPhotoshopFileVersion)) }
            let channels = field.be16(10)
            guard channels >= 1 && channels <= 56 else { return .failed(.malformed(.psd, Failure.channelCountOutOfRange)) }
            let height = field.be32(12)
            let width = field.be32(16)
            // The 30,000 (PSD) and 300,000 (PSB) maximums are Photoshop's own, not enforced (SPEC).
            // The reserved bytes are not checked: they say nothing about the size.
            guard width != 0 && height != 0 else { return .failed(.malformed(.psd, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.psd)) }
            facts.width = Int(truncatingIfNeeded: width)
            facts.height = Int(truncatingIfNeeded: height)
            if options.dimensionsOnly { return .done }
            phase = .depthAndMode
            return .read(4)
        case .depthAndMode:
            let depth = field.be16(0)
            let mode = field.be16(2)
            guard depth == 1 || depth == 8 || depth == 16 || depth == 32 else {
                return .failed(.malformed(.psd, Failure.depthIsNot1_8_16Or32))
            }
            // Bitmap, greyscale, indexed, RGB, CMYK, multichannel, duotone, Lab.
            switch mode {
            case 0, 1, 2, 3, 4, 7, 8, 9: break
            default: return .failed(.malformed(.psd, Failure.unknownColourMode))
            }
            facts.bitDepth = Int(depth)
            return .done
        }
    }
}

extension PSDParser {
    /// Why PSD input can't be read: each failure with its message (SPEC.md §3).
    @usableFromInline
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case notAPhotoshopSignature
        case channelCountOutOfRange
        case depthIsNot1_8_16Or32
        case unknownColourMode
        case unknownPhotoshopFileVersion

        @inlinable
        static var owner: UInt8 { PSDParser.kind.rawValue }

        /// The message: a literal, so reading it allocates nothing.
        @inlinable
        var message: String {
            switch self {
            case .notAPhotoshopSignature: "not a Photoshop signature"
            case .channelCountOutOfRange: "channel count outside 1...56"
            case .depthIsNot1_8_16Or32: "depth is not 1, 8, 16 or 32"
            case .unknownColourMode: "unknown colour mode"
            case .unknownPhotoshopFileVersion: "unknown Photoshop file version"
            }
        }
    }
}
