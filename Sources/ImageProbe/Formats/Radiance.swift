#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_RADIANCE)
/// Radiance RGBE pictures (`.hdr`, `.pic`).
///
/// A `#?RADIANCE` (or `#?RGBE`) line, header lines up to an empty line, then the resolution
/// string, such as `-Y 480 +X 640`. Its first axis is the scanline order: the first number
/// counts the scanlines (the stored height) and the second is their length (the stored
/// width). The signs and the axis order say how the stored raster maps onto the picture, which
/// full mode reports as an EXIF orientation (SPEC.md §3, "Radiance").
struct RadianceParser: FormatParser, Sendable {

    /// Where the header is: a plain enum, the word or number being read in the fields below it
    /// (a payload per case would cost an enum copy per byte).
    enum Phase: UInt8, Sendable {
        /// The rest of the first line, in `word`: `RADIANCE` or `RGBE`.
        case programName
        /// The start of a header line: a newline here ends the header.
        case lineStart
        /// A carriage return at the start of a line: `\r\n` is an empty line too.
        case lineStartCarriageReturn
        /// The first bytes of a header line, in `word`, until they can no longer be `FORMAT=`.
        case keyword
        /// The value of a `FORMAT=` line, in `word` (blanks dropped).
        case formatValue
        /// Any other header line, up to its newline.
        case skipLine
        /// The resolution string's first byte: the sign of its first axis.
        case firstSign
        /// The letter of axis `index` (0 or 1), after its sign (`negative`).
        case axis
        /// Blanks before axis `index`'s number.
        case numberGap
        /// Axis `index`'s number's digits, in `number`.
        case digits
        /// Blanks between the first number and the second axis's sign.
        case axisGap
    }

    /// How the resolution string orders the raster, from its two axes.
    struct Axes: Sendable {
        var firstIsY = false
        var firstNegative = false
        var secondNegative = false

        init() {}

        /// The EXIF orientation that turns the stored raster into the picture Radiance
        /// defines (origin at the lower left, X to the right, Y up); nil for the standard
        /// `-Y +X`, whose raster is already upright.
        var orientation: Orientation? {
            switch (firstIsY, firstNegative, secondNegative) {
            case (true, true, false): nil  // -Y +X: rows top to bottom, left to right
            case (true, true, true): .mirrorHorizontal  // -Y -X
            case (true, false, true): .rotate180  // +Y -X
            case (true, false, false): .mirrorVertical  // +Y +X
            case (false, false, true): .transpose  // +X -Y: rows are columns from the left, top down
            case (false, true, true): .rotate90Clockwise  // -X -Y
            case (false, true, false): .transverse  // -X +Y
            case (false, false, false): .rotate90Anticlockwise  // +X +Y
            }
        }
    }

    var phase: Phase = .programName
    var word = ShortWord()
    /// The resolution string's axis being read (0 or 1), its sign, and its number.
    var index: UInt8 = 0
    var negative = false
    var number = DecimalInteger()
    var facts = ImageFacts(format: .hdr)

    var axes = Axes()
    var sawFormat = false

    /// Bytes of header the scanner reads before giving up. Radiance's own headers hold the
    /// command lines that made the picture; a few hundred bytes is usual.
    static let headerBudget: UInt64 = 8192

    init() {}

    /// After `#?`, which the sniffer consumed.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(1) }

    var format: ImageFormat? { .hdr }

    // The size is the last thing the header holds: known only at the answer.

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard offset < Self.headerBudget else { return .failed(.limit(.hdr, .headerLongerThan8KiB)) }
        let byte = field.u8(0)
        switch phase {
        case .programName:
            if byte == ASCII.newline {
                guard word.equals("RADIANCE") || word.equals("RGBE") else {
                    return .failed(ScanFailure(.unknownFormat, Failure.programLineIsNotRadianceOrRGBE))
                }
                phase = .lineStart
                return .read(1)
            }
            // Trailing blanks and a CR before the newline are tolerated.
            if ASCII.isSpace(byte) { return .read(1) }
            // Longer than either name: not a Radiance picture.
            guard word.count < 8 else { return .failed(ScanFailure(.unknownFormat, Failure.programLineIsNotRadianceOrRGBE)) }
            word.append(byte)
            return .read(1)
        case .lineStart:
            if byte == ASCII.newline { return endOfHeader() }
            if byte == ASCII.carriageReturn {
                phase = .lineStartCarriageReturn
                return .read(1)
            }
            word = ShortWord()
            return keyword(byte)
        case .lineStartCarriageReturn:
            if byte == ASCII.newline { return endOfHeader() }
            word = ShortWord()
            return keyword(byte)
        case .keyword:
            return keyword(byte)
        case .formatValue:
            guard byte == ASCII.newline else {
                if !ASCII.isSpace(byte) { word.append(byte) }
                return .read(1)
            }
            // RGB or CIE XYZ primaries, both with shared-exponent 8-bit mantissas.
            guard word.equals("32-bit_rle_rgbe") || word.equals("32-bit_rle_xyze") else {
                return .failed(.unsupported(.hdr, Failure.formatIsNotRGBEOrXYZE))
            }
            sawFormat = true
            phase = .lineStart
            return .read(1)
        case .skipLine:
            if byte == ASCII.newline { phase = .lineStart }
            return .read(1)
        case .firstSign:
            guard byte == 0x2B || byte == 0x2D else { return malformed(Failure.resolutionStringExpected) }
            index = 0
            negative = byte == 0x2D
            phase = .axis
            return .read(1)
        case .axis:
            let isY = byte == 0x59
            guard isY || byte == 0x58 else { return malformed(Failure.resolutionAxisIsNotXOrY) }
            if index == 0 {
                axes.firstIsY = isY
                axes.firstNegative = negative
            } else {
                guard isY != axes.firstIsY else { return malformed(Failure.resolutionStringNamesOneAxisTwice) }
                axes.secondNegative = negative
            }
            phase = .numberGap
            return .read(1)
        case .numberGap:
            if ASCII.isBlank(byte) { return .read(1) }
            guard ASCII.isDigit(byte) else { return malformed(Failure.resolutionIsNotADecimalNumber) }
            number = DecimalInteger(firstDigit: byte)
            phase = .digits
            return .read(1)
        case .digits:
            if ASCII.isDigit(byte) {
                guard number.append(byte) else { return malformed(Failure.resolutionTooLarge) }
                return .read(1)
            }
            guard ASCII.isSpace(byte) else { return malformed(Failure.resolutionIsNotADecimalNumber) }
            guard number.value != 0 else { return malformed(Failure.zeroResolution) }
            if index == 0 {
                facts.storedHeight = number.value  // the number of scanlines
                guard byte != ASCII.newline else { return malformed(Failure.resolutionStringHasOneAxis) }
                phase = .axisGap
                return .read(1)
            }
            return size(scanlineLength: number.value, options: options)
        case .axisGap:
            if ASCII.isBlank(byte) { return .read(1) }
            guard byte == 0x2B || byte == 0x2D else { return malformed(Failure.resolutionStringHasOneAxis) }
            index = 1
            negative = byte == 0x2D
            phase = .axis
            return .read(1)
        }
    }

    func malformed(_ message: Failure) -> Step {
        .failed(.malformed(.hdr, message))
    }

    func malformed(_ message: CommonFailure) -> Step {
        .failed(.malformed(.hdr, message))
    }

    /// Reads the first bytes of a header line into `word`, which matter only if they spell
    /// `FORMAT=`.
    mutating func keyword(_ byte: UInt8) -> Step {
        if byte == ASCII.newline {
            phase = .lineStart
            return .read(1)
        }
        word.append(byte)
        if word.count == 7 {
            let isFormat = word.equals("FORMAT=")
            word = ShortWord()
            phase = isFormat ? .formatValue : .skipLine
        } else {
            phase = .keyword
        }
        return .read(1)
    }

    mutating func endOfHeader() -> Step {
        phase = .firstSign
        return .read(1)
    }

    /// The second number has ended: the size is known.
    mutating func size(scanlineLength: UInt32, options: ScanOptions) -> Step {
        guard options.admits(width: UInt64(scanlineLength), height: UInt64(facts.storedHeight)) else {
            return .failed(.tooLarge(.hdr))
        }
        facts.storedWidth = scanlineLength
        if !options.dimensionsOnly {
            facts.orientation = axes.orientation
            facts.hasAlpha = false
            if sawFormat { facts.bitDepth = 32 }  // "32-bit": three mantissas and an exponent
        }
        return .done
    }
}

extension RadianceParser {
    /// Why Radiance input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case programLineIsNotRadianceOrRGBE
        case formatIsNotRGBEOrXYZE
        case resolutionStringExpected
        case resolutionAxisIsNotXOrY
        case resolutionStringNamesOneAxisTwice
        case resolutionIsNotADecimalNumber
        case resolutionTooLarge
        case zeroResolution
        case resolutionStringHasOneAxis

        static var owner: UInt8 { RadianceParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .programLineIsNotRadianceOrRGBE: "#? line is not RADIANCE or RGBE"
            case .formatIsNotRGBEOrXYZE: "FORMAT is not 32-bit_rle_rgbe or 32-bit_rle_xyze"
            case .resolutionStringExpected: "resolution string expected, as in -Y 480 +X 640"
            case .resolutionAxisIsNotXOrY: "resolution axis is not X or Y"
            case .resolutionStringNamesOneAxisTwice: "resolution string names one axis twice"
            case .resolutionIsNotADecimalNumber: "resolution is not a decimal number"
            case .resolutionTooLarge: "resolution too large"
            case .zeroResolution: "zero resolution"
            case .resolutionStringHasOneAxis: "resolution string has one axis"
            }
        }
    }
}
#endif
