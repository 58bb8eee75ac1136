#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TIFF)
/// TIFF 6.0 (little- and big-endian) and BigTIFF: ImageWidth, ImageLength and Orientation
/// from the first image file directory (IFD0); in full mode also BitsPerSample, the resolution
/// (XResolution, YResolution, ResolutionUnit) and whether an ICC profile (34675) is embedded.
///
/// IFD0 may sit anywhere after the header, often after the pixel data. The scanner skips to
/// it by counting, and `HeaderScanner.pendingSkip` lets a seeking reader jump there instead.
struct TIFFParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Bytes 2...7: the magic number and, for classic TIFF, IFD0's 32-bit offset.
        case header
        /// BigTIFF bytes 8...15: IFD0's 64-bit offset.
        case bigTIFFOffset
        /// IFD0, walked by `walker`.
        case directory
    }

    /// IFD0's walker; until the header is read it only holds the byte order.
    var walker: TIFFDirectoryReader
    var phase: Phase = .header
    var bigEndian: Bool { walker.bigEndian }
    var facts = ImageFacts(format: .tiff)
    /// Full mode's extras, set with `facts` when the walk ends.
    var extras = ExtraFacts()

    init(sniffed: Sniffed) { self.init(bigEndian: sniffed.signatureFirst == 0x4D) }  // "MM"

    var firstStep: Step { .read(6) }

    init(bigEndian: Bool) {
        walker = TIFFDirectoryReader(bigEndian: bigEndian, isBigTIFF: false, base: 0, end: 0, wanted: [])
    }

    var format: ImageFormat? { .tiff }

    func infoAtEndOfInput() -> ImageInfo? {
        guard case .directory = phase, walker.found.isSuperset(of: [.width, .height]),
            walker.width != 0 && walker.height != 0
        else { return nil }
        var partial = self
        partial.settle()
        return partial.info
    }

    /// The facts, with full mode's extras (dimensions-only mode wants none, so none are set).
    var info: ImageInfo { ImageInfo(facts, extras) }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        let next = offset &+ field.span
        switch phase {
        case .header:
            switch field.u16(0, bigEndian: bigEndian) {
            case 42:
                return begin(ifdOffset: UInt64(field.u32(2, bigEndian: bigEndian)), bigTIFF: false, at: next, options)
            case 43:
                // BigTIFF: offsets are 8 bytes wide, and the next two bytes must be zero.
                guard field.u16(2, bigEndian: bigEndian) == 8 && field.u16(4, bigEndian: bigEndian) == 0 else {
                    return .failed(.malformed(.tiff, Failure.badBigTIFFHeader))
                }
                phase = .bigTIFFOffset
                return .read(8)
            default:
                return .failed(ScanFailure(.unknownFormat, Failure.byteOrderMarkWithoutTheTIFFMagicNumber))
            }
        case .bigTIFFOffset:
            return begin(ifdOffset: field.u64(0, bigEndian: bigEndian), bigTIFF: true, at: next, options)
        case .directory:
            let outcome = walker.parse(field, at: offset, options: options)
            return directory(outcome, options)
        }
    }

    mutating func begin(ifdOffset: UInt64, bigTIFF: Bool, at position: UInt64, _ options: ScanOptions) -> Step {
        let wanted: TIFFTags =
            options.dimensionsOnly ? [.width, .height] : [.width, .height, .orientation, .extras, .bitDepth]
        walker = TIFFDirectoryReader(bigEndian: bigEndian, isBigTIFF: bigTIFF, base: 0, end: UInt64.max, wanted: wanted)
        phase = .directory  // set once: every later step is the walker's
        return directory(walker.begin(ifdOffset: ifdOffset, position: position), options)
    }

    mutating func directory(
        _ outcome: TIFFDirectoryReader.Outcome, _ options: ScanOptions
    ) -> Step {
        if walker.found.isSuperset(of: [.width, .height]) && !options.admits(width: walker.width, height: walker.height) {
            return .failed(.tooLarge(.tiff))
        }
        switch outcome {
        case .step(let step):
            return step
        case .finished:
            guard walker.found.isSuperset(of: [.width, .height]) else {
                return .failed(.malformed(.tiff, Failure.ifd0LacksImageWidthOrImageLength))
            }
            guard walker.width != 0 && walker.height != 0 else {
                return .failed(.malformed(.tiff, .zeroWidthOrHeight))
            }
            settle()
            return .done
        case .invalid(let message):
            return .failed(.malformed(.tiff, message))
        case .limitExceeded:
            return .failed(.limit(.tiff, Failure.moreIFDEntriesThanMaxEntries))
        }
    }

    /// The walk's findings into `facts` and `extras`, read in place (a copy of the walker
    /// costs more than the rest of a small TIFF's answer).
    mutating func settle() {
        // Values past Int.max only exist on 32-bit targets; maxWidth rejects them anyway.
        facts.width = Int(clamping: walker.width)
        facts.height = Int(clamping: walker.height)
        if walker.orientation != 0 { facts.orientation = Orientation(unchecked: walker.orientation) }
        if walker.bitsPerSample != 0 { facts.bitDepth = Int(walker.bitsPerSample) }
        // Tested here, not in `walker.apply`: passing `&extras` beside `walker` made the
        // compiler copy the whole walker to test one bit.
        if walker.wanted.contains(.extras) {
            var found = ExtraFacts()
            walker.applyExtras(to: &found, icc: true)
            extras = found
        }
    }
}

extension TIFFParser {
    /// Why TIFF input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case byteOrderMarkWithoutTheTIFFMagicNumber
        case badBigTIFFHeader
        case ifd0LacksImageWidthOrImageLength
        case moreIFDEntriesThanMaxEntries

        static var owner: UInt8 { TIFFParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .byteOrderMarkWithoutTheTIFFMagicNumber: "byte-order mark without the TIFF magic number"
            case .badBigTIFFHeader: "bad BigTIFF header"
            case .ifd0LacksImageWidthOrImageLength: "IFD0 lacks ImageWidth or ImageLength"
            case .moreIFDEntriesThanMaxEntries: "more IFD entries than maxEntries"
            }
        }
    }
}
#endif
