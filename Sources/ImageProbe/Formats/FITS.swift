#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FITS)
/// FITS, the Flexible Image Transport System (IAU FITS Working Group, *The FITS Standard*
/// 4.0): a header of 80-byte keyword records ("cards") in 2,880-byte blocks. The primary
/// header's mandatory keywords come first, in order: `SIMPLE = T`, `BITPIX`, `NAXIS`, then
/// `NAXIS1` (the row length, the width) and `NAXIS2` (the rows, the height).
///
/// Each card is a keyword (8 bytes), `=` and a value; the values are read one byte at a time,
/// in free format as Pillow and ImageMagick accept them (the standard's fixed format puts them
/// in columns 11–30). The answer comes at the byte after the last digit of `NAXIS2` (of
/// `NAXIS1` when `NAXIS` is 1: one row), in both modes, with `bitDepth` = |BITPIX|. Axes
/// after the second (a cube's planes) are not read. A primary header with `NAXIS = 0` holds
/// no data: the scanner reads on to the first extension, which must be an `IMAGE`.
struct FITSParser: FormatParser, Sendable {

    /// The mandatory keywords, in their order.
    enum Keyword: UInt8, Sendable {
        case simple, bitpix, naxis, naxis1, naxis2
    }

    enum Phase: UInt8, Sendable {
        /// "MPLE  =" (after the sniffed "SI").
        case simpleKeyword
        /// `keyword`'s card: its keyword and `=` (9 bytes).
        case keyword
        /// Blanks before `keyword`'s value.
        case value
        /// The value's sign (`negative`) has been read.
        case sign
        /// The value's digits, in `number`.
        case digits
        /// `NAXIS = 0`: a card's keyword, looking for `END`.
        case headerCard
        /// The first extension's `XTENSION= 'IMAGE` (17 bytes).
        case extensionCard
    }

    /// A plain enum, its data in the fields below it (a payload per case would cost an enum
    /// copy per byte).
    var phase: Phase = .simpleKeyword
    /// The mandatory keyword whose card is being read.
    var keyword: Keyword = .simple
    var negative = false
    var number = DecimalInteger()
    var facts = ImageFacts(format: .fits)
    /// Where the current card starts.
    var cardStart: UInt64 = 0
    var axes: UInt16 = 0
    var inExtension = false
    var cards = 0

    static let cardLength: UInt64 = 80
    static let blockLength: UInt64 = 2880

    init() {}

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(7) }

    var format: ImageFormat? {
        switch phase {
        case .simpleKeyword: nil
        case .value where keyword == .simple: nil
        default: .fits
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        let position = offset &+ field.span
        switch phase {
        case .simpleKeyword:
            guard field.matches("MPLE  =", at: 0) else { return .failed(Sniffer.unknown) }
            keyword = .simple
            phase = .value
            return .read(1)
        case .keyword:
            guard field.matches(Self.name(keyword), at: 0) && field.u8(8) == 0x3D else {  // "="
                return malformed(Failure.mandatoryFITSKeywordMissingOrOutOfOrder)
            }
            phase = .value
            return .read(1)
        case .value:
            let byte = field.u8(0)
            if byte == 0x20 {
                guard offset &- cardStart < Self.cardLength &- 1 else { return malformed(Failure.fitsKeywordWithoutAValue) }
                return .read(1)
            }
            if keyword == .simple {
                // A logical: T conforms to the standard; F says the file does not.
                guard byte == 0x54 else {
                    guard byte == 0x46 else { return .failed(Sniffer.unknown) }
                    return .failed(.unsupported(.fits, Failure.fitsSimpleIsFalse))
                }
                return nextCard(.bitpix, from: position)
            }
            if byte == 0x2B || byte == 0x2D {  // "+", "-"
                negative = byte == 0x2D
                phase = .sign
                return .read(1)
            }
            negative = false
            number = DecimalInteger()
            return digit(byte, at: offset, options: options)
        case .sign:
            number = DecimalInteger()
            return digit(field.u8(0), at: offset, options: options)
        case .digits:
            let byte = field.u8(0)
            if ASCII.isDigit(byte) { return digit(byte, at: offset, options: options) }
            // A value ends at a blank or at the "/" of a comment.
            guard byte == 0x20 || byte == 0x2F else { return malformed(Failure.fitsValueIsNotAnInteger) }
            return value(negative ? -Int64(number.value) : Int64(number.value), of: keyword, at: position, options: options)
        case .headerCard:
            cards &+= 1
            guard cards <= options.maxEntries else { return .failed(.limit(.fits, Failure.moreFITSCardsThanMaxEntries)) }
            cardStart = offset
            guard field.matches("END     ", at: 0) else { return .skipThenRead(Self.cardLength &- 8, 8) }
            // The data of a primary header without axes is empty: the extension starts at
            // the next block.
            let headerEnd = offset &+ Self.cardLength
            let nextBlock = (headerEnd &+ Self.blockLength &- 1) / Self.blockLength &* Self.blockLength
            phase = .extensionCard
            return .skipThenRead(nextBlock &- position, 17)
        case .extensionCard:
            cardStart = offset
            guard field.matches("XTENSION=", at: 0) else { return malformed(Failure.fitsPrimaryWithoutDataAndNoExtension) }
            guard field.matches("'IMAGE", at: 10) && (field.u8(16) == 0x20 || field.u8(16) == 0x27) else {
                return .failed(.unsupported(.fits, Failure.firstFITSExtensionIsNotAnImage))
            }
            inExtension = true
            return nextCard(.bitpix, from: position)
        }
    }

    /// The keyword as it is written in its 8 columns.
    static func name(_ keyword: Keyword) -> StaticString {
        switch keyword {
        case .simple: "SIMPLE  "
        case .bitpix: "BITPIX  "
        case .naxis: "NAXIS   "
        case .naxis1: "NAXIS1  "
        case .naxis2: "NAXIS2  "
        }
    }

    /// A byte where a number's next digit is expected. A digit in the card's last column ends
    /// the number with the card.
    mutating func digit(_ byte: UInt8, at offset: UInt64, options: ScanOptions) -> Step {
        guard ASCII.isDigit(byte) else { return malformed(Failure.fitsValueIsNotAnInteger) }
        guard number.append(byte) else { return malformed(Failure.fitsValueTooLarge) }
        if offset &- cardStart == Self.cardLength &- 1 {
            return value(negative ? -Int64(number.value) : Int64(number.value), of: keyword, at: offset &+ 1, options: options)
        }
        phase = .digits
        return .read(1)
    }

    /// A mandatory keyword's integer value, read up to `position`.
    mutating func value(_ value: Int64, of keyword: Keyword, at position: UInt64, options: ScanOptions) -> Step {
        switch keyword {
        case .simple:
            return malformed(Failure.fitsValueIsNotAnInteger)  // not reached: SIMPLE's value is a logical
        case .bitpix:
            switch value {
            case 8, 16, 32, 64, -32, -64: facts.bitDepth = Int(truncatingIfNeeded: value.magnitude)  // ≤ 64
            default: return malformed(Failure.bitpixIsNot8_16_32_64OrAFloat)
            }
            return nextCard(.naxis, from: position)
        case .naxis:
            guard value >= 0 && value <= 999 else { return malformed(Failure.naxisOutside0To999) }
            axes = UInt16(value)
            if axes == 0 {
                guard !inExtension else { return .failed(.unsupported(.fits, Failure.fitsImageExtensionWithoutData)) }
                phase = .headerCard
                return .skipThenRead(cardStart &+ Self.cardLength &- position, 8)
            }
            return nextCard(.naxis1, from: position)
        case .naxis1:
            guard value > 0 else { return malformed(.zeroWidth) }
            // No limit admits more than 2^32 − 1; the rest is checked with the height.
            guard value <= UInt32.max else { return .failed(.tooLarge(.fits)) }
            facts.storedWidth = UInt32(truncatingIfNeeded: value)
            // A one-dimensional array is one row.
            guard axes >= 2 else { return size(height: 1, options: options) }
            return nextCard(.naxis2, from: position)
        case .naxis2:
            guard value > 0 else { return malformed(.zeroHeight) }
            return size(height: value, options: options)
        }
    }

    mutating func size(height: Int64, options: ScanOptions) -> Step {
        guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(height)) else { return .failed(.tooLarge(.fits)) }
        facts.storedHeight = UInt32(truncatingIfNeeded: height)
        return .done
    }

    /// Skips the rest of the current card and reads the next one's keyword.
    mutating func nextCard(_ keyword: Keyword, from position: UInt64) -> Step {
        cardStart &+= Self.cardLength
        self.keyword = keyword
        phase = .keyword
        return cardStart == position ? .read(9) : .skipThenRead(cardStart &- position, 9)
    }

    func malformed(_ reason: Failure) -> Step {
        .failed(.malformed(.fits, reason))
    }

    func malformed(_ reason: CommonFailure) -> Step {
        .failed(.malformed(.fits, reason))
    }
}

extension FITSParser {
    /// Why FITS input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case mandatoryFITSKeywordMissingOrOutOfOrder
        case fitsKeywordWithoutAValue
        case fitsSimpleIsFalse
        case fitsValueIsNotAnInteger
        case fitsValueTooLarge
        case bitpixIsNot8_16_32_64OrAFloat
        case naxisOutside0To999
        case moreFITSCardsThanMaxEntries
        case fitsPrimaryWithoutDataAndNoExtension
        case firstFITSExtensionIsNotAnImage
        case fitsImageExtensionWithoutData

        static var owner: UInt8 { FITSParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .mandatoryFITSKeywordMissingOrOutOfOrder: "mandatory FITS keyword missing or out of order"
            case .fitsKeywordWithoutAValue: "FITS keyword without a value"
            case .fitsSimpleIsFalse: "SIMPLE = F: the file does not conform to FITS"
            case .fitsValueIsNotAnInteger: "FITS value is not an integer"
            case .fitsValueTooLarge: "FITS value too large"
            case .bitpixIsNot8_16_32_64OrAFloat: "BITPIX is not 8, 16, 32, 64, -32 or -64"
            case .naxisOutside0To999: "NAXIS outside 0...999"
            case .moreFITSCardsThanMaxEntries: "more FITS header cards than maxEntries"
            case .fitsPrimaryWithoutDataAndNoExtension: "FITS primary header without data, and no extension after it"
            case .firstFITSExtensionIsNotAnImage: "first FITS extension is not an IMAGE"
            case .fitsImageExtensionWithoutData: "FITS IMAGE extension without data"
            }
        }
    }
}
#endif
