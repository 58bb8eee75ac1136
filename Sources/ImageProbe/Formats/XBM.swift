#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_XBM)
/// X BitMap: C source whose `#define <name>_width <n>` and `#define <name>_height <n>` lines
/// give the size, in either order, perhaps with `_x_hot`/`_y_hot` lines between.
///
/// As X11's reader (`XReadBitmapFileData`) does, a define counts by the part of its name after
/// the last underscore: `width`, `height`; any other line is skipped. The answer comes at the
/// byte after the second of the two numbers (SPEC.md §3, "XBM").
///
/// A file may open with a C comment (GIMP writes `/* Created with GIMP */`). Until a width or
/// height define follows it, the text is only C source: failures then say `unknownFormat`, so
/// a C file is not called a broken XBM. (The sniffer sends `/* XPM */` to the XPM parser.)
struct XBMParser: FormatParser, Sendable {

    /// Which dimension a `#define` sets.
    enum Dimension: Sendable {
        case width, height, other
    }

    enum Phase: UInt8, Sendable {
        /// The rest of `#define` (`efine` after the first line's `#d`): `matched` bytes so far.
        case directive
        /// The first word of a line, in `word`, to tell `#define` from anything else.
        case lineStart
        /// Blanks before the macro name.
        case nameGap
        /// The macro name; `word` holds what follows its last underscore.
        case name
        /// Blanks before `dimension`'s value.
        case valueGap
        /// The value's digits, in `number`.
        case digits
        /// The rest of a line that says nothing about the size.
        case skipLine
        /// Inside the comment that opens the file (after `/*`); `star` when the last byte was `*`.
        case leadingComment
    }

    /// A plain enum, its data in the fields below it (a payload per case would cost an enum
    /// copy per byte).
    var phase: Phase = .directive
    var matched: UInt8 = 2
    var word = ShortWord()
    var dimension: Dimension = .other
    var number = DecimalInteger()
    var star = false
    /// Width and height are 0 until their defines are read.
    var facts = ImageFacts(format: .xbm)
    /// The file opened with a C comment rather than `#define`.
    var openedWithComment = false

    /// Bytes of text the scanner reads before giving up: the two defines come first in every
    /// writer's output.
    static let headerBudget: UInt64 = 8192

    /// After `#d`, which the sniffer consumed.
    init() {}

    /// Inside the comment the file opens with: the sniffer consumed `/*` and the comment's
    /// first bytes, the last of them `*` when `star` (SPEC.md §3.26).
    init(afterCommentOpening: (), star: Bool) {
        phase = .leadingComment
        self.star = star
        openedWithComment = true
    }

    /// After `/*` and a comment other than ` XPM */`, or the signature `#d`.
    init(sniffed: Sniffed) {
        if case .comment(.other(let lastByteWasStar)) = sniffed {
            self.init(afterCommentOpening: (), star: lastByteWasStar)
        } else {
            self.init()
        }
    }

    var firstStep: Step { .read(1) }

    /// Whether the text is known to be an XBM: it opened with `#define`, or a width or height
    /// define followed the opening comment.
    var isKnownXBM: Bool { !openedWithComment || facts.width != 0 || facts.height != 0 }

    var format: ImageFormat? { isKnownXBM ? .xbm : nil }

    // The size is complete only at the answer.

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard offset < Self.headerBudget else {
            guard isKnownXBM else { return .failed(ScanFailure(.unknownFormat, Failure.noXBMWidthOrHeightInTheFirst8KiB)) }
            return .failed(.limit(.xbm, Failure.noWidthAndHeightInTheFirst8KiB))
        }
        let byte = field.u8(0)
        switch phase {
        case .directive:
            if matched == 7 {
                // "#define" must be followed by white space.
                guard ASCII.isBlank(byte) else { return .failed(ScanFailure(.unknownFormat, Failure.notAnXBMDefine)) }
                phase = .nameGap
                return .read(1)
            }
            guard byte == ASCII.byte(of: "#define", at: Int(matched)) else {
                return .failed(ScanFailure(.unknownFormat, Failure.notAnXBMDefine))
            }
            matched &+= 1
            return .read(1)
        case .lineStart:
            if word.isEmpty && ASCII.isSpace(byte) { return .read(1) }
            if ASCII.isSpace(byte) || byte == 0x7B {  // end of the first word, or "{"
                if word.equals("#define") && ASCII.isBlank(byte) {
                    phase = .nameGap
                    return .read(1)
                }
                return skipLine(byte)
            }
            word.append(byte)
            return .read(1)
        case .nameGap:
            if ASCII.isBlank(byte) { return .read(1) }
            guard !ASCII.isSpace(byte) else { return malformed(Failure.defineWithoutAName) }
            word = ShortWord()
            return name(byte)
        case .name:
            guard ASCII.isSpace(byte) else { return name(byte) }
            dimension = word.equals("width") ? .width : word.equals("height") ? .height : .other
            if dimension == .other { return skipLine(byte) }
            guard ASCII.isBlank(byte) else { return malformed(Failure.defineWithoutAValue) }
            phase = .valueGap
            return .read(1)
        case .valueGap:
            if ASCII.isBlank(byte) { return .read(1) }
            guard ASCII.isDigit(byte) else { return malformed(Failure.widthOrHeightIsNotADecimalNumber) }
            number = DecimalInteger(firstDigit: byte)
            phase = .digits
            return .read(1)
        case .digits:
            if ASCII.isDigit(byte) {
                guard number.append(byte) else { return malformed(Failure.widthOrHeightTooLarge) }
                return .read(1)
            }
            guard ASCII.isSpace(byte) else { return malformed(Failure.widthOrHeightIsNotADecimalNumber) }
            guard number.value != 0 else { return malformed(dimension == .width ? .zeroWidth : .zeroHeight) }
            // A repeated define changes nothing: the size may already have been answered.
            if dimension == .width && facts.storedWidth == 0 { facts.storedWidth = number.value }
            if dimension == .height && facts.storedHeight == 0 { facts.storedHeight = number.value }
            if facts.width != 0 && facts.height != 0 { return size(options: options) }
            return skipLine(byte)
        case .skipLine:
            return skipLine(byte)
        case .leadingComment:
            // The rest of the line after "*/" is skipped, as X11 skips any line that is not
            // a define.
            if star && byte == 0x2F { phase = .skipLine }
            star = byte == 0x2A
            return .read(1)
        }
    }

    func malformed(_ message: Failure) -> Step {
        .failed(.malformed(.xbm, message))
    }

    func malformed(_ message: CommonFailure) -> Step {
        .failed(.malformed(.xbm, message))
    }

    /// A byte of the macro name: `word` keeps what follows its last underscore.
    mutating func name(_ byte: UInt8) -> Step {
        if byte == 0x5F {  // "_": what came before is a prefix
            word = ShortWord()
        } else {
            word.append(byte)
        }
        phase = .name
        return .read(1)
    }

    /// Skips to the end of the line that `byte` belongs to. The bitmap data (`{`) before both
    /// dimensions means they are missing.
    mutating func skipLine(_ byte: UInt8) -> Step {
        if byte == 0x7B {
            guard isKnownXBM else { return .failed(ScanFailure(.unknownFormat, Failure.cSourceWithoutAnXBMWidthOrHeight)) }
            return malformed(Failure.bitmapDataBeforeWidthAndHeight)
        }
        if byte == ASCII.newline {
            word = ShortWord()
            phase = .lineStart
        } else {
            phase = .skipLine
        }
        return .read(1)
    }

    mutating func size(options: ScanOptions) -> Step {
        guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(facts.storedHeight)) else { return .failed(.tooLarge(.xbm)) }
        if !options.dimensionsOnly {
            facts.bitDepth = 1
            facts.hasAlpha = false
        }
        return .done
    }
}

extension XBMParser {
    /// Why XBM input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case noXBMWidthOrHeightInTheFirst8KiB
        case notAnXBMDefine
        case cSourceWithoutAnXBMWidthOrHeight
        case noWidthAndHeightInTheFirst8KiB
        case defineWithoutAName
        case defineWithoutAValue
        case widthOrHeightIsNotADecimalNumber
        case widthOrHeightTooLarge
        case bitmapDataBeforeWidthAndHeight

        static var owner: UInt8 { XBMParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .noXBMWidthOrHeightInTheFirst8KiB: "no XBM width or height in the first 8 KiB"
            case .notAnXBMDefine: "not an XBM #define"
            case .cSourceWithoutAnXBMWidthOrHeight: "C source without an XBM width or height"
            case .noWidthAndHeightInTheFirst8KiB: "no width and height in the first 8 KiB"
            case .defineWithoutAName: "#define without a name"
            case .defineWithoutAValue: "#define without a value"
            case .widthOrHeightIsNotADecimalNumber: "width or height is not a decimal number"
            case .widthOrHeightTooLarge: "width or height too large"
            case .bitmapDataBeforeWidthAndHeight: "bitmap data before width and height"
            }
        }
    }
}
#endif
