#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XPM)
/// X PixMap (Arnaud Le Hors, *XPM Manual*, version 3.4): C source whose first string,
/// the values string, starts with the width, the height, the colour count and the characters
/// per pixel.
///
/// XPM3 opens with the comment `/* XPM */` (the sniffer consumed it), then a declaration
/// such as `static char * name[] = {`, then the strings. XPM2 opens with the line `! XPM2`,
/// and its values line is the next line, unquoted. Comments may come anywhere before the
/// values string. The answer comes at the byte after the height's last digit; full mode
/// also reads the colour count and characters per pixel to validate them. The colours are
/// names or hexadecimal values of any length, so no bit depth or alpha is reported.
struct XPMParser: FormatParser, Sendable {

    /// Where the text is: a plain enum, its data in the fields below it (a payload per case
    /// would cost an enum copy per byte).
    enum Phase: UInt8, Sendable {
        /// The declaration, up to `{`.
        case declaration
        /// After `{`: white space and comments before the values string's opening quote.
        case beforeValues
        /// A `/` outside a string: a comment follows if the next byte is `*`. `inArray` says
        /// which phase to return to.
        case slash
        /// Inside a comment; `star` when the last byte was `*`.
        case comment
        /// "XPM2" and the end of the first line (after the sniffed "! "): `matched` bytes of it.
        case xpm2Tag
        /// Blanks before the values string's `index`-th number.
        case gap
        /// The `index`-th number's digits, in `number`.
        case digits
    }

    var phase: Phase
    /// Whether a comment is inside the array (else in the declaration), and whether its last
    /// byte was `*`.
    var inArray = false
    var star = false
    var matched: UInt8 = 0
    /// Which number of the values string (0...3) is being read or waited for.
    var index: UInt8 = 0
    var number = DecimalInteger()
    var facts = ImageFacts(format: .xpm)
    /// XPM2: the values line is not quoted, and ends at the end of the line.
    var plain = false

    /// Bytes of text read before giving up: the values string comes in the first lines.
    static let headerBudget: UInt64 = 8192

    /// XPM3: after `/* XPM */`, which the sniffer consumed.
    init() {
        phase = .declaration
    }

    /// XPM2: after "! ", which the sniffer consumed.
    init(xpm2: ()) {
        phase = .xpm2Tag
        plain = true
    }

    /// XPM2's signature `! `, or XPM 3's `/* XPM */`.
    init(sniffed: Sniffed) {
        if case .signature = sniffed { self.init(xpm2: ()) } else { self.init() }
    }

    var firstStep: Step { .read(1) }

    /// XPM3 is identified by its comment; XPM2 once its tag is complete.
    var format: ImageFormat? {
        if phase == .xpm2Tag { return nil }
        return .xpm
    }

    /// Full mode's answer comes after the size: the size then stands.
    func infoAtEndOfInput() -> ImageInfo? { facts.height != 0 ? info : nil }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard offset < Self.headerBudget else {
            guard phase == .xpm2Tag else { return .failed(.limit(.xpm, Failure.noXPMValuesInTheFirst8KiB)) }
            return .failed(Sniffer.unknown)
        }
        let byte = field.u8(0)
        switch phase {
        case .declaration:
            if let step = declaration(byte) { return step }
        case .beforeValues:
            switch byte {
            case 0x22: phase = .gap  // the values string opens (index is 0)
            case 0x2F:
                inArray = true
                phase = .slash
            default:
                guard ASCII.isSpace(byte) else { return malformed(Failure.xpmArrayDoesNotStartWithTheValues) }
            }
        case .slash:
            if byte == 0x2A {
                star = false
                phase = .comment
            } else if inArray {
                return malformed(Failure.xpmArrayDoesNotStartWithTheValues)
            } else {
                // Not a comment: the byte belongs to the declaration.
                phase = .declaration
                if let step = declaration(byte) { return step }
            }
        case .comment:
            if star && byte == 0x2F {
                phase = inArray ? .beforeValues : .declaration
            } else {
                star = byte == 0x2A
            }
        case .xpm2Tag:
            if matched < 4 {
                guard byte == ASCII.byte(of: "XPM2", at: Int(matched)) else { return .failed(Sniffer.unknown) }
                matched &+= 1
            } else if byte == ASCII.newline {
                phase = .gap  // index is 0
            } else if !ASCII.isBlank(byte) && byte != ASCII.carriageReturn {
                return .failed(Sniffer.unknown)
            }
        case .gap:
            if ASCII.isBlank(byte) { break }
            guard ASCII.isDigit(byte) else {
                guard !endsValues(byte) else { return malformed(Failure.xpmValuesStringHasFewerThan4Numbers) }
                return malformed(Failure.xpmValueIsNotADecimalNumber)
            }
            number = DecimalInteger(firstDigit: byte)
            phase = .digits
        case .digits:
            if ASCII.isDigit(byte) {
                guard number.append(byte) else { return malformed(Failure.xpmValueTooLarge) }
                break
            }
            // A number ends at a blank, or at the end of the values string (or XPM2 line).
            let last = endsValues(byte)
            guard ASCII.isBlank(byte) || last else { return malformed(Failure.xpmValueIsNotADecimalNumber) }
            return record(number.value, index: index, endsValues: last, options: options)
        }
        return .read(1)
    }

    /// A byte of the declaration before `{`; nil when the scan reads on.
    mutating func declaration(_ byte: UInt8) -> Step? {
        switch byte {
        case 0x7B: phase = .beforeValues  // "{"
        case 0x2F:
            inArray = false
            phase = .slash
        case 0x22: return malformed(Failure.stringBeforeTheXPMArray)  // a quote before "{"
        default: break
        }
        return nil
    }

    /// Whether `byte` ends the values: the closing quote, or for XPM2 the end of the line.
    func endsValues(_ byte: UInt8) -> Bool {
        plain ? byte == ASCII.newline || byte == ASCII.carriageReturn : byte == 0x22
    }

    /// Records the values string's `index`-th number.
    mutating func record(_ value: UInt32, index: UInt8, endsValues: Bool, options: ScanOptions) -> Step {
        switch index {
        case 0:
            guard value != 0 else { return malformed(.zeroWidth) }
            facts.storedWidth = value
        case 1:
            guard value != 0 else { return malformed(.zeroHeight) }
            guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(value)) else { return .failed(.tooLarge(.xpm)) }
            facts.storedHeight = value
            if options.dimensionsOnly { return .done }
        case 2:
            guard value != 0 else { return malformed(Failure.xpmColourCountIsZero) }
        default:
            // The characters per pixel: 0 is accepted, as netpbm writes it for one colour.
            return .done
        }
        // Width, height, colours and characters per pixel are all required.
        guard !endsValues else { return malformed(Failure.xpmValuesStringHasFewerThan4Numbers) }
        self.index = index &+ 1
        phase = .gap
        return .read(1)
    }

    func malformed(_ reason: Failure) -> Step {
        .failed(.malformed(.xpm, reason))
    }

    func malformed(_ reason: CommonFailure) -> Step {
        .failed(.malformed(.xpm, reason))
    }
}

extension XPMParser {
    /// Why XPM input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case noXPMValuesInTheFirst8KiB
        case stringBeforeTheXPMArray
        case xpmArrayDoesNotStartWithTheValues
        case xpmValueIsNotADecimalNumber
        case xpmValueTooLarge
        case xpmColourCountIsZero
        case xpmValuesStringHasFewerThan4Numbers

        static var owner: UInt8 { XPMParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .noXPMValuesInTheFirst8KiB: "no XPM values string in the first 8 KiB"
            case .stringBeforeTheXPMArray: "a string before the XPM array's {"
            case .xpmArrayDoesNotStartWithTheValues: "XPM array does not start with the values string"
            case .xpmValueIsNotADecimalNumber: "XPM value is not a decimal number"
            case .xpmValueTooLarge: "XPM value too large"
            case .xpmColourCountIsZero: "XPM colour count is zero"
            case .xpmValuesStringHasFewerThan4Numbers: "XPM values string has fewer than 4 numbers"
            }
        }
    }
}
#endif
