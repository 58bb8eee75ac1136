#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PCX)
/// ZSoft PCX: manufacturer 0x0A, version, encoding, bits per pixel per plane, then the image
/// window xmin, ymin, xmax, ymax (16-bit little-endian, inclusive).
///
/// The size is xmax − xmin + 1 by ymax − ymin + 1, known at byte 12 in both modes; the bits
/// per pixel (per plane) come with it. The sniffer consumed 0x0A, the version and the encoding
/// byte: after `0A 00` that byte is what tells a PCX from a TGA (SPEC.md §3.15).
struct PCXParser: FormatParser, Sendable {

    var facts = ImageFacts(format: .pcx)

    init() {}

    /// Bits per pixel, and the window.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(9) }

    var format: ImageFormat? { .pcx }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch Self.window(field, at: 0, format: .pcx, options: options) {
        case .failed(let failure):
            return .failed(failure)
        case .size(let width, let height, let bitsPerPixel):
            facts.storedWidth = width
            facts.storedHeight = height
            facts.bitDepth = bitsPerPixel
            return .done
        }
    }

    /// What a PCX header's bits per pixel and window say.
    enum Window: Sendable {
        case size(width: UInt32, height: UInt32, bitsPerPixel: Int)
        case failed(ScanFailure)
    }

    /// Reads the bits per pixel (per plane) and the window xmin, ymin, xmax, ymax from the 9
    /// bytes of `field` at `index`: a PCX file's bytes 3–11, or a DCX page's (failures name
    /// `format`).
    static func window(_ field: FieldBytes, at index: Int, format: ImageFormat, options: ScanOptions) -> Window {
        let bitsPerPixel = field.u8(index)
        switch bitsPerPixel {
        case 1, 2, 4, 8: break
        default: return .failed(.malformed(format, Failure.bitsPerPixelIsNot1_2_4Or8))
        }
        let xMin = field.le16(index &+ 1)
        let yMin = field.le16(index &+ 3)
        let xMax = field.le16(index &+ 5)
        let yMax = field.le16(index &+ 7)
        guard xMax >= xMin && yMax >= yMin else { return .failed(.malformed(format, Failure.imageWindowEndsBeforeItStarts)) }
        let width = UInt64(xMax &- xMin) &+ 1
        let height = UInt64(yMax &- yMin) &+ 1
        guard options.admits(width: width, height: height) else { return .failed(.tooLarge(format)) }
        return .size(width: UInt32(truncatingIfNeeded: width), height: UInt32(truncatingIfNeeded: height), bitsPerPixel: Int(bitsPerPixel))  // admitted
    }
}

extension PCXParser {
    /// Why PCX input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case bitsPerPixelIsNot1_2_4Or8
        case imageWindowEndsBeforeItStarts

        static var owner: UInt8 { PCXParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .bitsPerPixelIsNot1_2_4Or8: "bits per pixel is not 1, 2, 4 or 8"
            case .imageWindowEndsBeforeItStarts: "image window ends before it starts"
            }
        }
    }
}
#endif
