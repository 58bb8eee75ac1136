/// Identifies the format from the first two bytes and hands over to its parser.
///
/// Two bytes decide every signature this scanner knows; each format's parser then checks
/// the rest of its signature in its first field. Unknown prefixes are rejected after two
/// bytes.
@usableFromInline
struct Sniffer: FormatParser, Sendable {
    @usableFromInline
    enum Detected: Sendable {
        case undecided
        case jpeg, png, gif, bmp, webp
        case tiff(bigEndian: Bool)
    }

    @usableFromInline var detected: Detected = .undecided

    @usableFromInline static let firstWidth = 2

    @inlinable
    init() {}

    @inlinable
    var format: ImageFormat? { nil }

    @inlinable
    var info: ImageInfo { ImageInfo(format: .jpeg, width: 0, height: 0) }  // never asked: no .done

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch field.be16(0) {
        case 0xFFD8: detected = .jpeg
        case 0x8950: detected = .png  // "\x89P"
        case 0x4749: detected = .gif  // "GI"
        case 0x424D: detected = .bmp  // "BM"
        case 0x5249: detected = .webp  // "RI"
        case 0x4949: detected = .tiff(bigEndian: false)  // "II"
        case 0x4D4D: detected = .tiff(bigEndian: true)  // "MM"
        default: return .failed(ScanFailure(.unknownFormat, "no known image signature"))
        }
        return .handoff
    }

    @inlinable
    func handoff() -> Handoff {
        switch detected {
        case .undecided: Handoff(.failed(ScanFailure(.unknownFormat, "no known image signature")), .done)
        case .jpeg: Handoff(.jpeg(JPEGParser()), JPEGParser.firstStep)
        case .png: Handoff(.png(PNGParser()), PNGParser.firstStep)
        case .gif: Handoff(.gif(GIFParser()), GIFParser.firstStep)
        case .bmp: Handoff(.bmp(BMPParser()), BMPParser.firstStep)
        case .webp: Handoff(.webp(WebPParser()), WebPParser.firstStep)
        case .tiff(let bigEndian): Handoff(.tiff(TIFFParser(bigEndian: bigEndian)), TIFFParser.firstStep)
        }
    }
}
