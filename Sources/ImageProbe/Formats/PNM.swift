#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PNM)
/// Netpbm PBM, PGM and PPM (P1–P6), PAM (P7), and PFM (`PF`, `Pf`).
///
/// The headers are decimal numbers in text, read one byte at a time. P1–P6: width, height and
/// (except for bitmaps) maxval, separated by white space and `#` comments. PAM: keyword lines
/// up to `ENDHDR`. PFM: width, height and a scale factor. A number is known to have ended only
/// at the byte after its last digit, so that byte is the answer point (SPEC.md §3, "PNM").
struct PNMParser: FormatParser, Sendable {

    /// The numbers of a P1–P6 or PFM header, in order.
    enum Token: Sendable {
        case width, height, maxval
    }

    /// The PAM header lines that carry a number.
    enum PAMField: Sendable {
        case width, height, depth, maxval
    }

    /// Where the header is: a plain enum, the numbers and words being read in the fields below
    /// it (a payload per case would cost an enum copy per byte).
    enum Phase: UInt8, Sendable {
        /// The byte after the magic number, which must be white space (or a comment).
        case afterMagic
        /// White space and comments before `token`.
        case gap
        /// A `#` comment before `token`, up to the end of its line.
        case comment
        /// The digits of `token`, in `number`.
        case digits
        /// PFM: white space, then the scale factor (in `scale`).
        case scaleGap
        case scale
        /// PAM: the rest of the `P7` line.
        case pamMagicLine
        /// PAM: the start of a header line (blank lines and leading blanks are skipped).
        case pamLineStart
        /// PAM: a header line's keyword, in `word`.
        case pamKeyword
        /// PAM: blanks before the number of `pamField`.
        case pamGap
        /// PAM: the digits of `pamField`'s number, in `number`.
        case pamDigits
        /// PAM: blanks after a value, up to the newline.
        case pamLineTail
        /// PAM: a `TUPLTYPE` value, up to the newline: its last bytes (`word`) and those up to
        /// the last non-blank (`trimmed`), to tell whether it ends in `_ALPHA`.
        case pamTupleType
        /// PAM: a `#` comment line.
        case pamComment
        /// PAM: blanks after `ENDHDR`, up to the newline.
        case pamEnd
    }

    let magic: UInt8
    var phase: Phase
    /// The P1–P6 or PFM number being read or waited for; the PAM line's number.
    var token: Token = .width
    var pamField: PAMField = .width
    var number = DecimalInteger()
    var scale = DecimalNumber()
    var word = ShortWord()
    var trimmed = ShortWord()
    var facts: ImageFacts

    /// Set once width and height are both read (PAM fills them in one at a time).
    var sizeKnown = false

    /// Bytes of header text the scanner reads before giving up. Real headers are well under
    /// 100 bytes; GIMP's comment line is the longest seen in practice.
    static let headerBudget: UInt64 = 8192

    /// `magic` is the byte after `P`: `1`…`7`, `F` or `f`.
    init(magic: UInt8) {
        self.magic = magic
        self.phase = .afterMagic
        let float = magic == 0x46 || magic == 0x66
        self.facts = ImageFacts(format: float ? .pfm : .pnm, width: 0, height: 0)
    }

    /// After `P` and the magic byte, which the sniffer consumed.
    init(sniffed: Sniffed) {
        guard case .signature(_, let magic) = sniffed else { self.init(magic: 0); return }  // defensive
        self.init(magic: magic)
    }

    var firstStep: Step { .read(1) }

    func infoAtEndOfInput() -> ImageInfo? { sizeKnown ? info : nil }

    var isFloat: Bool { facts.format == .pfm }

    /// P1 and P4 (bitmaps) have no maxval.
    var isBitmap: Bool { magic == 0x31 || magic == 0x34 }

    var isArbitraryMap: Bool { magic == 0x37 }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard offset < Self.headerBudget else {
            return .failed(.limit(facts.format, .headerLongerThan8KiB))
        }
        let byte = field.u8(0)
        switch phase {
        case .afterMagic:
            if isArbitraryMap {
                // PAM: "P7" and a newline. Blanks before the newline are tolerated.
                if byte == ASCII.newline {
                    phase = .pamLineStart
                    return .read(1)
                }
                guard ASCII.isSpace(byte) else { return malformed(Failure.noWhiteSpaceAfterTheMagicNumber) }
                phase = .pamMagicLine
                return .read(1)
            }
            if ASCII.isSpace(byte) {
                phase = .gap
                return .read(1)
            }
            // A comment stands for white space anywhere in a Netpbm header (pm_getc), even
            // here. PFM has no comments.
            if byte == ASCII.hash && !isFloat {
                phase = .comment
                return .read(1)
            }
            return malformed(Failure.noWhiteSpaceAfterTheMagicNumber)
        case .gap:
            if ASCII.isSpace(byte) { return .read(1) }
            if byte == ASCII.hash && !isFloat {
                phase = .comment
                return .read(1)
            }
            guard ASCII.isDigit(byte) else { return malformed(Failure.expectedADecimalNumber) }
            number = DecimalInteger(firstDigit: byte)
            phase = .digits
            return .read(1)
        case .comment:
            if byte == ASCII.newline || byte == ASCII.carriageReturn { phase = .gap }
            return .read(1)
        case .digits:
            if ASCII.isDigit(byte) {
                guard number.append(byte) else { return malformed(Failure.numberTooLarge) }
                return .read(1)
            }
            let ended = ASCII.isSpace(byte) || (byte == ASCII.hash && !isFloat)
            guard ended else { return malformed(Failure.aNumberMustEndWithWhiteSpace) }
            return finish(token, number.value, terminator: byte, options: options)
        case .scaleGap:
            if ASCII.isSpace(byte) { return .read(1) }
            guard case .accepted = scale.feed(byte) else { return malformed(Failure.pfmScaleIsNotANumber) }
            phase = .scale
            return .read(1)
        case .scale:
            switch scale.feed(byte) {
            case .accepted:
                return .read(1)
            case .ended:
                // "A nonzero decimal number": its sign gives the byte order, so zero says nothing.
                guard ASCII.isSpace(byte) && scale.isComplete && scale.value != 0 else {
                    return malformed(Failure.pfmScaleMustBeANonzeroNumber)
                }
                return .done
            case .endedBeforeExponentMark, .invalid:
                return malformed(Failure.pfmScaleMustBeANonzeroNumber)
            }
        case .pamMagicLine:
            if byte == ASCII.newline {
                phase = .pamLineStart
                return .read(1)
            }
            if ASCII.isSpace(byte) { return .read(1) }
            // "P7 332": an XV thumbnail, an unrelated format that took PAM's magic first.
            if ASCII.isDigit(byte) { return .failed(.unsupported(.pnm, Failure.xvThumbnailP7332NotPAM)) }
            return malformed(Failure.textAfterP7)
        case .pamLineStart:
            if ASCII.isSpace(byte) { return .read(1) }
            if byte == ASCII.hash {
                phase = .pamComment
                return .read(1)
            }
            word = ShortWord()
            word.append(byte)
            phase = .pamKeyword
            return .read(1)
        case .pamKeyword:
            guard ASCII.isSpace(byte) else {
                word.append(byte)
                return .read(1)
            }
            return pamKeyword(word, terminator: byte)
        case .pamGap:
            if ASCII.isBlank(byte) || byte == ASCII.carriageReturn { return .read(1) }
            guard ASCII.isDigit(byte) else { return malformed(Failure.pamValueIsNotADecimalNumber) }
            number = DecimalInteger(firstDigit: byte)
            phase = .pamDigits
            return .read(1)
        case .pamDigits:
            if ASCII.isDigit(byte) {
                guard number.append(byte) else { return malformed(Failure.numberTooLarge) }
                return .read(1)
            }
            guard ASCII.isSpace(byte) else { return malformed(Failure.pamValueIsNotADecimalNumber) }
            return pamValue(pamField, number.value, terminator: byte, options: options)
        case .pamLineTail:
            if byte == ASCII.newline {
                phase = .pamLineStart
                return .read(1)
            }
            guard ASCII.isSpace(byte) else { return malformed(Failure.moreThanOneValueOnAPAMHeaderLine) }
            return .read(1)
        case .pamTupleType:
            guard byte != ASCII.newline else {
                // Several TUPLTYPE lines are joined with spaces: the last one decides.
                facts.hasAlpha = trimmed.hasSuffix("_ALPHA")
                phase = .pamLineStart
                return .read(1)
            }
            word.append(byte)
            if !ASCII.isSpace(byte) { trimmed = word }
            return .read(1)
        case .pamComment:
            if byte == ASCII.newline { phase = .pamLineStart }
            return .read(1)
        case .pamEnd:
            if byte == ASCII.newline { return .done }
            guard ASCII.isSpace(byte) else { return malformed(Failure.textAfterENDHDR) }
            return .read(1)
        }
    }

    func malformed(_ message: Failure) -> Step {
        .failed(.malformed(facts.format, message))
    }

    func malformed(_ message: CommonFailure) -> Step {
        .failed(.malformed(facts.format, message))
    }

    /// A P1–P6 or PFM number has ended at `terminator` (white space or `#`).
    mutating func finish(_ token: Token, _ value: UInt32, terminator: UInt8, options: ScanOptions) -> Step {
        let next: Token
        switch token {
        case .width:
            guard value != 0 else { return malformed(.zeroWidth) }
            facts.storedWidth = value
            next = .height
        case .height:
            guard value != 0 else { return malformed(.zeroHeight) }
            facts.storedHeight = value
            guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(value)) else {
                return .failed(.tooLarge(facts.format))
            }
            sizeKnown = true
            if options.dimensionsOnly { return .done }
            if isFloat {
                facts.bitDepth = 32  // IEEE single-precision samples
                facts.hasAlpha = false
                phase = .scaleGap
                return .read(1)
            }
            facts.hasAlpha = false  // only PAM can carry alpha
            if isBitmap {
                facts.bitDepth = 1
                return .done
            }
            next = .maxval
        case .maxval:
            // Netpbm: "greater than zero and less than 65536".
            guard value != 0 && value <= 65535 else { return malformed(Failure.maxvalOutOfRange) }
            facts.bitDepth = Self.bits(for: value)
            return .done
        }
        self.token = next
        phase = terminator == ASCII.hash ? .comment : .gap
        return .read(1)
    }

    /// Bits needed to hold `maxval`: 255 → 8, 1023 → 10, 15 → 4.
    static func bits(for maxval: UInt32) -> Int {
        32 &- maxval.leadingZeroBitCount
    }

    /// A PAM header line's keyword has ended at `terminator`.
    mutating func pamKeyword(_ keyword: ShortWord, terminator: UInt8) -> Step {
        let field: PAMField
        if keyword.equals("WIDTH") {
            field = .width
        } else if keyword.equals("HEIGHT") {
            field = .height
        } else if keyword.equals("DEPTH") {
            field = .depth
        } else if keyword.equals("MAXVAL") {
            field = .maxval
        } else if keyword.equals("TUPLTYPE") {
            guard terminator != ASCII.newline else {
                phase = .pamLineStart  // an empty tuple type adds nothing
                return .read(1)
            }
            word = ShortWord()
            trimmed = ShortWord()
            phase = .pamTupleType
            return .read(1)
        } else if keyword.equals("ENDHDR") {
            guard sizeKnown else { return malformed(Failure.endhdrBeforeWIDTHAndHEIGHT) }
            if terminator == ASCII.newline { return .done }
            phase = .pamEnd
            return .read(1)
        } else {
            return malformed(Failure.unknownPAMHeaderKeyword)
        }
        guard terminator != ASCII.newline else { return malformed(Failure.pamHeaderLineWithoutAValue) }
        pamField = field
        phase = .pamGap
        return .read(1)
    }

    /// A PAM header number has ended at `terminator` (white space).
    mutating func pamValue(_ field: PAMField, _ value: UInt32, terminator: UInt8, options: ScanOptions) -> Step {
        switch field {
        case .width, .height:
            guard value != 0 else { return malformed(field == .width ? .zeroWidth : .zeroHeight) }
            // A repeated line changes nothing: the size may already have been answered.
            if field == .width && facts.storedWidth == 0 { facts.storedWidth = value }
            if field == .height && facts.storedHeight == 0 { facts.storedHeight = value }
            if !sizeKnown && facts.width != 0 && facts.height != 0 {
                guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(facts.storedHeight)) else {
                    return .failed(.tooLarge(.pnm))
                }
                sizeKnown = true
                if options.dimensionsOnly { return .done }
            }
        case .depth:
            guard value != 0 else { return malformed(.zeroDepth) }
        case .maxval:
            guard value <= 65535 && value != 0 else { return malformed(Failure.maxvalOutOfRange) }
            facts.bitDepth = Self.bits(for: value)
        }
        phase = terminator == ASCII.newline ? .pamLineStart : .pamLineTail
        return .read(1)
    }
}

extension PNMParser {
    /// Why PNM input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case xvThumbnailP7332NotPAM
        case noWhiteSpaceAfterTheMagicNumber
        case expectedADecimalNumber
        case numberTooLarge
        case aNumberMustEndWithWhiteSpace
        case pfmScaleIsNotANumber
        case pfmScaleMustBeANonzeroNumber
        case textAfterP7
        case pamValueIsNotADecimalNumber
        case moreThanOneValueOnAPAMHeaderLine
        case textAfterENDHDR
        case maxvalOutOfRange
        case endhdrBeforeWIDTHAndHEIGHT
        case unknownPAMHeaderKeyword
        case pamHeaderLineWithoutAValue

        static var owner: UInt8 { PNMParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .xvThumbnailP7332NotPAM: "XV thumbnail (P7 332), not PAM"
            case .noWhiteSpaceAfterTheMagicNumber: "no white space after the magic number"
            case .expectedADecimalNumber: "expected a decimal number"
            case .numberTooLarge: "number too large"
            case .aNumberMustEndWithWhiteSpace: "a number must end with white space"
            case .pfmScaleIsNotANumber: "PFM scale is not a number"
            case .pfmScaleMustBeANonzeroNumber: "PFM scale must be a nonzero number"
            case .textAfterP7: "text after P7"
            case .pamValueIsNotADecimalNumber: "PAM value is not a decimal number"
            case .moreThanOneValueOnAPAMHeaderLine: "more than one value on a PAM header line"
            case .textAfterENDHDR: "text after ENDHDR"
            case .maxvalOutOfRange: "maxval outside 1...65535"
            case .endhdrBeforeWIDTHAndHEIGHT: "ENDHDR before WIDTH and HEIGHT"
            case .unknownPAMHeaderKeyword: "unknown PAM header keyword"
            case .pamHeaderLineWithoutAValue: "PAM header line without a value"
            }
        }
    }
}
#endif
