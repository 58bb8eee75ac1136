#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ASEPRITE)
/// Aseprite sprites (.ase, .aseprite; Aseprite's *File Format Specifications*): a 128-byte
/// little-endian header of the file size (32-bit), the magic `0xA5E0` at byte 4, the frame
/// count, **width**, **height** and colour depth (16-bit each), then frames.
///
/// The magic sits at byte 4, behind the file size, so the sniffer finds it only after the
/// first two bytes have matched no other signature (SPEC.md §3, "Identification"). It consumed
/// bytes 0–5; the colour depth (32 RGBA, 16 greyscale, 8 indexed) is checked with the size,
/// which settles the answer at byte 14 in both modes. A file whose size's second byte is 0 or
/// 1 starts like a TGA header: the TGA parser reads it (`header(…)`), and answers at byte 17.
struct AsepriteParser: FormatParser, Sendable {

    var facts = ImageFacts(format: .aseprite)

    init() {}

    /// Frames, width, height and colour depth.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(8) }

    var format: ImageFormat? { nil }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch Self.header(frames: field.le16(0), width: field.le16(2), height: field.le16(4), depth: field.le16(6), options: options) {
        case .facts(let header):
            facts = header
            return .done
        case .failed(let failure):
            return .failed(failure)
        case .notAseprite:
            return .failed(ScanFailure(.unknownFormat, Failure.asepriteColourDepthIsNot8_16Or32))
        }
    }

    /// The smallest file size the header can state: the header alone.
    static var headerLength: UInt32 { Sniffer.asepriteHeaderLength }

    /// What the header's frame count, size and colour depth say.
    enum Header: Sendable {
        case facts(ImageFacts)
        case failed(ScanFailure)
        /// The depth is none of Aseprite's: the two-byte magic was a coincidence.
        case notAseprite
    }

    /// Reads the header's bytes 6–13, for this parser and for the TGA parser, which meets
    /// the small files whose size's second byte is 0 or 1 (SPEC.md §3.39).
    static func header(frames: UInt16, width: UInt16, height: UInt16, depth: UInt16, options: ScanOptions) -> Header {
        var facts = ImageFacts(format: .aseprite)
        // With a two-byte magic, the depth is part of the signature.
        switch depth {
        case 32, 16: facts.hasAlpha = true  // RGBA; greyscale with alpha
        case 8: break  // indexed: a transparent index may or may not be used
        default: return .notAseprite
        }
        guard frames != 0 else { return .failed(.malformed(.aseprite, Failure.asepriteFileWithoutFrames)) }
        guard width != 0 && height != 0 else { return .failed(.malformed(.aseprite, .zeroWidthOrHeight)) }
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.aseprite)) }
        facts.width = Int(width)
        facts.height = Int(height)
        facts.bitDepth = Int(depth)
        facts.frameCount = Int(frames)
        facts.isAnimated = frames > 1
        return .facts(facts)
    }
}

extension AsepriteParser {
    /// Why Aseprite input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case asepriteColourDepthIsNot8_16Or32
        case asepriteFileWithoutFrames

        static var owner: UInt8 { AsepriteParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .asepriteColourDepthIsNot8_16Or32: "not an Aseprite file: colour depth is not 8, 16 or 32"
            case .asepriteFileWithoutFrames: "Aseprite file without frames"
            }
        }
    }
}
#endif
