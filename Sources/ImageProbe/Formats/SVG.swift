#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
/// SVG: an XML document whose root element is `svg`.
///
/// The scanner steps over the prolog (byte-order mark, XML declaration, comments, processing
/// instructions, a DOCTYPE with its internal subset) one byte at a time, checks the root
/// element's name, and reads its `width`, `height` and `viewBox` attributes as they stream
/// past, without buffering them. The pixel size is computed from those three
/// (`SVGLengthRules`); the values as written go into `ImageInfo.svg` (SPEC.md §3, "SVG").
struct SVGParser: FormatParser, Sendable {

    /// The root element's attributes that matter, each as its bit in `seen`.
    enum Attribute: UInt8, Sendable {
        case other = 0, width = 1, height = 2, viewBox = 4

        /// `seen` once all three are.
        static var all: UInt8 { width.rawValue | height.rawValue | viewBox.rawValue }
    }

    /// Where the document is: a plain enum, each phase's data in the fields below it (a
    /// payload per case would cost an enum copy per byte).
    enum Phase: UInt8, Sendable {
        /// A failure the sniffer's two bytes already decided (in `rejection`), reported at the
        /// next byte.
        case rejected
        /// After `EF`: the rest of the UTF-8 byte-order mark, `BB BF`; `matched` bytes so far.
        case byteOrderMark
        /// Between prolog items: white space or `<`.
        case prolog
        /// After `<` in the prolog.
        case markup
        /// After `<!`.
        case bang
        /// After `<!-`.
        case commentOpen
        /// Inside `<!-- … -->`, in the prolog or the internal subset; `dashes` counts the `-`
        /// just before (up to 2); `resume` is the phase after it.
        case comment
        /// Inside `<? … ?>`, in the prolog or the internal subset; `question` when the last
        /// byte was `?`; `resume` is the phase after it.
        case instruction
        /// After `<!D`: `matched` bytes of `DOCTYPE`.
        case doctypeKeyword
        /// Inside `<!DOCTYPE … >`, outside the internal subset; `quote` is the open quote or 0.
        case doctype
        /// Inside the internal subset `[ … ]`, `quote` as in `doctype`; `recent` holds the last
        /// bytes, to see `<!--` and `<?`.
        case subset
        /// After the subset's `]`: white space, then `>`.
        case afterSubset
        /// The root element's name; `matched` bytes of `svg` in its local part, or `mismatch`.
        case rootName
        /// Between attributes; `spaced` once white space followed the previous one.
        case attributes
        /// An attribute name, its last bytes in `name`.
        case attributeName
        /// White space before `=`, after `attribute`'s name.
        case beforeEquals
        /// White space after `=`, before `attribute`'s quote.
        case beforeValue
        /// The value of `attribute`, up to `quote`: `width` or `height` in `lengthScanner`,
        /// `viewBox` in `viewBoxScanner`, any other skipped.
        case value
        /// After `/` in the root tag: `>` must follow.
        case emptyElementEnd
    }

    var phase: Phase
    /// Bytes of `EF BB BF`, `DOCTYPE` or `svg` matched.
    var matched: UInt8 = 0
    /// The open quote of a DOCTYPE, subset or attribute value, or 0.
    var quote: UInt8 = 0
    /// The `-` just before, in a comment (up to 2).
    var dashes: UInt8 = 0
    /// Whether the last byte of a processing instruction was `?`.
    var question = false
    /// Whether white space followed the previous attribute.
    var spaced = false
    /// The attribute whose `=` or value is being read.
    var attribute = Attribute.other
    var rootFound = false
    /// Where a comment or processing instruction returns: `prolog` or `subset`.
    var resume = Phase.prolog
    /// The internal subset's last bytes, to see `<!--` and `<?`.
    var recent: UInt32 = 0
    /// The failure the sniffer's two bytes decided.
    var rejection = SVGParser.notXML
    /// The last eight bytes of the attribute name being read, packed big-endian (the last
    /// byte lowest). Name bytes are never 0, so the packed value tells the length too, and a
    /// name longer than eight bytes matches no attribute that matters.
    var name: UInt64 = 0
    /// The `width` or `height` value being read.
    var lengthScanner = LengthScanner()
    /// The `viewBox` value being read.
    var viewBoxScanner = ViewBoxScanner()
    /// The attributes read so far, as written.
    var size = SVGSize()
    /// Which of `width`, `height` and `viewBox` appeared (valid or not), to reject repeats:
    /// their `Attribute` bits.
    var seen: UInt8 = 0
    /// The pixel size, once the attributes settle it.
    var pixelWidth = 0
    var pixelHeight = 0
    var sizeKnown = false

    /// Bytes read before the root element's start tag must have ended.
    static let budget: UInt64 = 65536
    static let mismatch: UInt8 = 0xFF

    /// `first` and `second` are the two bytes the sniffer consumed: `<`, `EF` or white space,
    /// then anything but 0 or 1. They go through the same state machine as every later byte.
    /// Out of line in size builds: the sniffer's `rejects` and the parser's start both make one.
    @inline(__always)
    init(first: UInt8, second: UInt8) {
        phase = .prolog
        // One call of `advance` for both bytes: after `EF`, only the second goes through it.
        var index = 0
        if first == 0xEF {
            matched = 1
            phase = .byteOrderMark
            index = 1
        }
        while index < 2 {
            if case .failed(let failure) = advance(index == 0 ? first : second, options: ScanOptions()) {
                rejection = failure
                phase = .rejected
                return
            }
            index &+= 1
        }
    }

    init(sniffed: Sniffed) {
        guard case .markup(let first, let second) = sniffed else { self.init(first: 0, second: 0); return }  // defensive
        self.init(first: first, second: second)
    }

    /// Whether two first bytes already rule out XML: the input then matched no signature in
    /// its first two bytes (SPEC.md §3, "Identification"), and the sniffer reads on.
    static func rejects(_ first: UInt8, _ second: UInt8) -> Bool {
        SVGParser(first: first, second: second).rejectsItsFirstBytes
    }

    var firstStep: Step { .read(1) }

    /// Whether the two sniffed bytes already rule out XML: the input then matched no
    /// signature in its first two bytes (SPEC.md §3, "Identification").
    var rejectsItsFirstBytes: Bool {
        phase == .rejected
    }

    /// SVG once the root element is known to be `svg`; until then any XML could follow.
    var format: ImageFormat? { rootFound ? .svg : nil }

    /// The facts, from the answer this parser builds its own way.
    var facts: ImageFacts { info.facts }

    var info: ImageInfo {
        var info = ImageInfo(format: .svg, width: pixelWidth, height: pixelHeight)
        info.svg = size
        return info
    }

    func infoAtEndOfInput() -> ImageInfo? { sizeKnown ? info : nil }

    @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        if phase == .rejected { return .failed(rejection) }
        guard offset < Self.budget else {
            return .failed(.limit(format, Failure.svgStartTagLongerThan64KiB))
        }
        return advance(field.u8(0), options: options)
    }

    static let notXML = ScanFailure(.unknownFormat, Failure.notAnXMLDocument)

    /// Consumes one byte.
    mutating func advance(_ byte: UInt8, options: ScanOptions) -> Step {
        switch phase {
        case .rejected:
            return .failed(rejection)
        case .byteOrderMark:
            guard byte == (matched == 1 ? 0xBB : 0xBF) else { return .failed(Self.notXML) }
            if matched == 1 {
                matched = 2
            } else {
                phase = .prolog
            }
        case .prolog:
            if byte == 0x3C {
                phase = .markup
            } else if !ASCII.isXMLSpace(byte) {
                return .failed(Self.notXML)
            }
        case .markup:
            switch byte {
            case 0x3F:  // <?
                question = false
                resume = .prolog
                phase = .instruction
            case 0x21: phase = .bang  // <!
            default:
                guard Self.isNameStart(byte) else { return .failed(Self.notXML) }
                matched = Self.matchRoot(0, byte)
                phase = .rootName
            }
        case .bang:
            switch byte {
            case 0x2D: phase = .commentOpen
            case 0x44:  // D
                matched = 1
                phase = .doctypeKeyword
            default: return .failed(Self.notXML)  // CDATA and the like cannot precede the root
            }
        case .commentOpen:
            guard byte == 0x2D else { return .failed(Self.notXML) }
            dashes = 0
            resume = .prolog
            phase = .comment
        case .comment:
            // In the subset, `quote` is 0 here: a comment starts only outside quotes.
            if let next = Self.commentStep(dashes, byte) {
                dashes = next
            } else {
                recent = 0
                phase = resume
            }
        case .instruction:
            if question && byte == 0x3E {
                recent = 0
                phase = resume
            } else {
                question = byte == 0x3F
            }
        case .doctypeKeyword:
            if matched == 7 {
                guard ASCII.isXMLSpace(byte) else { return .failed(Self.notXML) }
                quote = 0
                phase = .doctype
            } else {
                guard byte == ASCII.byte(of: "DOCTYPE", at: Int(matched)) else { return .failed(Self.notXML) }
                matched &+= 1
            }
        case .doctype:
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B {  // [
                recent = 0
                phase = .subset
            } else if byte == 0x3E {
                phase = .prolog
            }
        case .subset:
            if quote != 0 {
                if byte == quote { quote = 0 }
                recent = 0
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
                recent = 0
            } else if byte == 0x5D {  // ]
                phase = .afterSubset
            } else {
                let shifted = recent << 8 | UInt32(byte)
                if shifted == 0x3C21_2D2D {  // "<!--"
                    dashes = 0
                    resume = .subset
                    phase = .comment
                } else if shifted & 0xFFFF == 0x3C3F {  // "<?"
                    question = false
                    resume = .subset
                    phase = .instruction
                } else {
                    recent = shifted
                }
            }
        case .afterSubset:
            if byte == 0x3E {
                phase = .prolog
            } else if !ASCII.isXMLSpace(byte) {
                return .failed(Self.notXML)
            }
        case .rootName:
            if Self.isNameChar(byte) {
                // A prefix ends at the colon: `svg:svg` is an svg element in the prefix's namespace.
                matched = byte == 0x3A ? 0 : Self.matchRoot(matched, byte)
                return .read(1)
            }
            guard matched == 3 else { return .failed(ScanFailure(.unknownFormat, Failure.xmlRootElementIsNotSvg)) }
            rootFound = true
            return afterValue(byte, spaced: false, options: options)
        case .attributes:
            return afterValue(byte, spaced: spaced, options: options)
        case .attributeName:
            if Self.isNameChar(byte) {
                name = name << 8 | UInt64(byte)
                return .read(1)
            }
            switch name {
            case 0x77_6964_7468: attribute = .width  // "width"
            case 0x6865_6967_6874: attribute = .height  // "height"
            case 0x76_6965_7742_6F78: attribute = .viewBox  // "viewBox"
            default: attribute = .other
            }
            phase = .beforeEquals
            return beforeEquals(byte)
        case .beforeEquals:
            return beforeEquals(byte)
        case .beforeValue:
            if ASCII.isXMLSpace(byte) { return .read(1) }
            guard byte == 0x22 || byte == 0x27 else { return malformed(Failure.attributeValueWithoutQuotes) }
            // `other` is no bit: never a repeat.
            guard seen & attribute.rawValue == 0 else { return malformed(Failure.repeatedAttribute) }
            seen |= attribute.rawValue
            lengthScanner = LengthScanner()
            viewBoxScanner = ViewBoxScanner()
            quote = byte
            phase = .value
        case .value:
            if byte == quote {
                spaced = false
                phase = .attributes
                switch attribute {
                case .other: return .read(1)
                case .width, .height:
                    let length = lengthScanner.finish()
                    if attribute == .width { size.width = length } else { size.height = length }
                case .viewBox: viewBoxScanner.finish(into: &size)
                }
                return settle(atEnd: false, options: options)
            }
            // `<` cannot appear in an attribute value; a reference (`&…;`) in a size attribute
            // would need the DOCTYPE's entities.
            if byte == 0x3C { return malformed(Failure.lessThanInAttributeValue) }
            switch attribute {
            case .other: break
            case .width, .height, .viewBox:
                guard byte != 0x26 else {
                    return .failed(.unsupported(.svg, Failure.entityReferenceInWidthHeightOrViewBox))
                }
                if attribute == .viewBox { viewBoxScanner.feed(byte) } else { lengthScanner.feed(byte) }
            }
        case .emptyElementEnd:
            guard byte == 0x3E else { return malformed(Failure.slashNotFollowedByGreaterThan) }
            return settle(atEnd: true, options: options)
        }
        return .read(1)
    }

    func malformed(_ message: Failure) -> Step {
        .failed(.malformed(.svg, message))
    }

    func malformed(_ message: CommonFailure) -> Step {
        .failed(.malformed(.svg, message))
    }

    /// The root tag after its name or an attribute value: white space, another attribute
    /// (only after white space), `>` or `/>`.
    mutating func afterValue(_ byte: UInt8, spaced: Bool, options: ScanOptions) -> Step {
        if ASCII.isXMLSpace(byte) {
            self.spaced = true
            phase = .attributes
        } else if byte == 0x3E {
            return settle(atEnd: true, options: options)
        } else if byte == 0x2F {
            phase = .emptyElementEnd
        } else if Self.isNameStart(byte) {
            guard spaced else { return malformed(Failure.attributesNotSeparatedByWhiteSpace) }
            name = UInt64(byte)
            phase = .attributeName
        } else {
            return malformed(Failure.unexpectedByteInTheSvgStartTag)
        }
        return .read(1)
    }

    mutating func beforeEquals(_ byte: UInt8) -> Step {
        if byte == 0x3D {
            phase = .beforeValue
        } else if !ASCII.isXMLSpace(byte) {
            return malformed(Failure.attributeWithoutEquals)
        }
        return .read(1)
    }

    /// At the end of the start tag (`atEnd`), the pixel size and the answer; after an
    /// attribute that matters, the same once no later attribute can change the size, the
    /// answer only in dimensions-only mode. One function for both: each has few callers, and
    /// wasm-opt would copy a function left with one into it.
    mutating func settle(atEnd: Bool, options: ScanOptions) -> Step {
        if !sizeKnown {
            let rules = SVGLengthRules(size)
            // Both absolute, or all three present: a later attribute cannot change the size (a
            // repeated one is an error).
            guard atEnd || rules.bothAbsolute || seen == Attribute.all else { return .read(1) }
            if let failure = settle(rules, options: options) { return .failed(failure) }
        } else if !atEnd {
            return .read(1)
        }
        return atEnd || options.dimensionsOnly ? .done : .read(1)
    }

    /// Computes the pixel size; a failure when there is none.
    mutating func settle(_ rules: SVGLengthRules, options: ScanOptions) -> ScanFailure? {
        if let failure = rules.pixelSize(options: options, width: &pixelWidth, height: &pixelHeight) { return failure }
        sizeKnown = true
        return nil
    }

    // MARK: - XML names

    /// XML NameStartChar, with every non-ASCII byte allowed (a UTF-8 sequence's bytes):
    /// letters, `_` and `:`.
    static func isNameStart(_ byte: UInt8) -> Bool {
        isNameByte(byte, (0x0400_0000_0000_0000, 0x07FF_FFFE_87FF_FFFE))
    }

    /// XML NameChar, with every non-ASCII byte allowed: NameStartChar, digits, `-` and `.`.
    static func isNameChar(_ byte: UInt8) -> Bool {
        isNameByte(byte, (0x07FF_6000_0000_0000, 0x07FF_FFFE_87FF_FFFE))
    }

    /// Whether `byte` is non-ASCII or in the set whose bytes 0–63 and 64–127 are the bits
    /// of `set`: one shift rather than a comparison per range.
    static func isNameByte(_ byte: UInt8, _ set: (UInt64, UInt64)) -> Bool {
        byte >= 0x80 || ((byte < 0x40 ? set.0 : set.1) >> UInt64(byte & 0x3F)) & 1 != 0
    }

    /// Advances the match of a local name against `svg`.
    static func matchRoot(_ matched: UInt8, _ byte: UInt8) -> UInt8 {
        matched < 3 && byte == ASCII.byte(of: "svg", at: Int(matched)) ? matched &+ 1 : mismatch
    }

    /// A comment's next `dashes` count, or nil when `byte` closes it (`-->`).
    static func commentStep(_ dashes: UInt8, _ byte: UInt8) -> UInt8? {
        if byte == 0x2D { return dashes < 2 ? dashes &+ 1 : 2 }
        if byte == 0x3E && dashes == 2 { return nil }
        return 0
    }
}

/// Reads a `width` or `height` value: optional white space, a number, an optional unit or
/// `%`, optional white space (the CSS syntax SVG 2's geometry properties use).
struct LengthScanner: Sendable {
    enum State: UInt8, Sendable {
        case leading, number, unit, trailing, invalid
    }

    var state = State.leading
    var number = DecimalNumber()
    /// The unit's (lowercased) letters so far, packed big-endian (the last letter lowest),
    /// the oldest shifted out past eight: letters are never 0, so the packed value tells the
    /// length too.
    var unit: UInt64 = 0
    var percent = false

    @inline(__always)
    init() {}

    /// Each byte passes through the states in order, so that the number's first byte and
    /// the byte that ends it are handled by the code of the state they start.
    mutating func feed(_ byte: UInt8) {
        if state == .leading {
            if ASCII.isXMLSpace(byte) { return }
            state = .number
        }
        if state == .number {
            switch number.feed(byte) {
            case .accepted:
                return
            case .ended:
                if byte == 0x25 {  // %
                    percent = true
                    state = .trailing
                    return
                }
            case .endedBeforeExponentMark:
                // "1em": the `e` was a unit's first letter, not an exponent.
                unit = 0x65
            case .invalid:
                state = .invalid
                return
            }
            state = .unit
        }
        switch state {
        case .unit:
            if ASCII.isLetter(byte) {
                unit = unit << 8 | UInt64(ASCII.lowercased(byte))
            } else {
                state = ASCII.isXMLSpace(byte) ? .trailing : .invalid
            }
        case .trailing:
            if !ASCII.isXMLSpace(byte) { state = .invalid }
        case .leading, .number, .invalid:
            break
        }
    }

    /// The length, or nil when the value is empty or not a valid non-negative length (CSS
    /// ignores an invalid declaration, so it counts as absent).
    func finish() -> SVGSize.Length? {
        let unit: SVGSize.Unit
        switch state {
        case .leading, .invalid:
            return nil
        case .number:
            guard number.isComplete else { return nil }
            unit = .none
        case .unit, .trailing:
            if percent {
                unit = .percent
            } else if self.unit == 0 {
                unit = .none
            } else {
                guard let known = Self.unit(self.unit) else { return nil }
                unit = known
            }
        }
        let value = number.value
        // "A negative value is an error" (SVG 1.1 §5.1.2, the svg element); NaN cannot arise.
        guard value >= 0 else { return nil }
        return SVGSize.Length(value: value, unit: unit)
    }

    /// The unit that (lowercased) letters packed as in `unit` name. Units are one to three
    /// letters; a longer word packs to 2^24 or more and matches none.
    static func unit(_ letters: UInt64) -> SVGSize.Unit? {
        switch letters {
        case 0x7078: return .px  // "px"
        case 0x696E: return .inch  // "in"
        case 0x636D: return .cm  // "cm"
        case 0x6D6D: return .mm  // "mm"
        case 0x71: return .q  // "q"
        case 0x7074: return .pt  // "pt"
        case 0x7063: return .pc  // "pc"
        case 0x656D: return .em  // "em"
        case 0x6578: return .ex  // "ex"
        case 0x72656D: return .rem  // "rem"
        case 0x6368: return .ch  // "ch"
        default: return nil
        }
    }
}

/// Reads a `viewBox` value: four numbers separated by white space and/or a comma.
struct ViewBoxScanner: Sendable {
    var number = DecimalNumber()
    var inNumber = false
    var commaPending = false
    var invalid = false
    var count: UInt8 = 0
    var values: (Double, Double, Double, Double) = (0, 0, 0, 0)

    @inline(__always)
    init() {}

    mutating func feed(_ byte: UInt8) {
        guard !invalid else { return }
        if inNumber {
            switch number.feed(byte) {
            case .accepted:
                return
            case .ended:
                store()
            case .endedBeforeExponentMark, .invalid:
                invalid = true
                return
            }
        }
        if ASCII.isXMLSpace(byte) { return }
        if byte == 0x2C {  // a comma: at most one between two numbers
            invalid = count == 0 || commaPending
            commaPending = true
            return
        }
        // A new number; "0-5" needs no separator, as in SVG's path grammar.
        number = DecimalNumber()
        guard case .accepted = number.feed(byte) else {
            invalid = true
            return
        }
        inNumber = true
        commaPending = false
    }

    mutating func store() {
        inNumber = false
        let value = number.value
        switch count {
        case 0: values.0 = value
        case 1: values.1 = value
        case 2: values.2 = value
        case 3: values.3 = value
        default: invalid = true
        }
        count &+= 1
    }

    /// Sets `size.viewBox` to the rectangle, or to nil when the value is not four numbers or
    /// has a negative size ("a negative value for width or height is an error", SVG 1.1 §7.7).
    mutating func finish(into size: inout SVGSize) {
        if inNumber && !invalid {
            if number.isComplete { store() } else { invalid = true }
        }
        let valid = !invalid && !commaPending && count == 4 && values.2 >= 0 && values.3 >= 0
        size.setViewBox(valid ? values : (0, 0, 0, 0), present: valid)
    }
}

/// How the root's `width`, `height` and `viewBox` become a pixel size (SPEC.md §3, "SVG").
struct SVGLengthRules: Sendable {
    let size: SVGSize
    let width: Double?
    let height: Double?

    @inline(__always)
    init(_ size: SVGSize) {
        self.size = size
        width = size.width?.pixels
        height = size.height?.pixels
    }

    var bothAbsolute: Bool { width != nil && height != nil }

    /// A percentage's fraction; 1 (the initial `auto`, which is 100%) when absent.
    static func fraction(_ length: SVGSize.Length?) -> Double {
        guard let length, length.unit == .percent else { return 1 }
        return length.value / 100
    }

    /// Stores the pixel size in `pixelWidth` and `pixelHeight`; a failure, and nothing
    /// stored, when there is none: a zero width or height renders nothing, and relative or
    /// missing dimensions need a usable viewBox.
    func pixelSize(options: ScanOptions, width pixelWidth: inout Int, height pixelHeight: inout Int) -> ScanFailure? {
        let empty = ScanFailure.unsupported(.svg, SVGParser.Failure.zeroWidthOrHeightNothingIsRendered)
        let pixels: (Double, Double)
        if let width, let height {
            pixels = (width, height)
        } else if let box = size.viewBox {
            if box.width == 0 || box.height == 0 { return empty }
            if let width {
                pixels = (width, width * box.height / box.width)
            } else if let height {
                pixels = (height * box.width / box.height, height)
            } else {
                // Percentages of the viewBox, as librsvg's natural size does.
                pixels = (box.width * Self.fraction(size.width), box.height * Self.fraction(size.height))
            }
        } else {
            return .unsupported(.svg, SVGParser.Failure.noIntrinsicSize)
        }
        guard let roundedWidth = Self.round(pixels.0), let roundedHeight = Self.round(pixels.1) else {
            return .tooLarge(.svg)
        }
        if roundedWidth == 0 || roundedHeight == 0 { return empty }
        guard roundedWidth <= options.maxWidth && roundedHeight <= options.maxHeight else { return .tooLarge(.svg) }
        pixelWidth = roundedWidth
        pixelHeight = roundedHeight
        return nil
    }

    /// Rounds half up, but never a positive length down to 0; nil when the result is 2^32 or
    /// more (no limit admits it) or infinite.
    static func round(_ pixels: Double) -> Int? {
        guard pixels.isFinite && pixels + 0.5 < 4_294_967_296 else { return nil }
        guard pixels > 0 else { return 0 }
        // Conversion truncates, which is floor for positive values (and needs no libm). Below
        // 2^32, so UInt32 holds it; Int(clamping:) then saturates where Int is 32 bits, and the
        // limits (never above Int.max there) refuse it.
        return max(1, Int(clamping: UInt32(pixels + 0.5)))
    }
}

extension SVGParser {
    /// Why SVG input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case notAnXMLDocument
        case xmlRootElementIsNotSvg
        case lessThanInAttributeValue
        case entityReferenceInWidthHeightOrViewBox
        case zeroWidthOrHeightNothingIsRendered
        case noIntrinsicSize
        case svgStartTagLongerThan64KiB
        case attributeValueWithoutQuotes
        case repeatedAttribute
        case slashNotFollowedByGreaterThan
        case attributesNotSeparatedByWhiteSpace
        case unexpectedByteInTheSvgStartTag
        case attributeWithoutEquals

        static var owner: UInt8 { SVGParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .notAnXMLDocument: "not an XML document"
            case .xmlRootElementIsNotSvg: "XML root element is not svg"
            case .lessThanInAttributeValue: "< in an attribute value"
            case .entityReferenceInWidthHeightOrViewBox: "entity reference in width, height or viewBox"
            case .zeroWidthOrHeightNothingIsRendered: "zero width or height: nothing is rendered"
            case .noIntrinsicSize: "no intrinsic size: width or height missing or relative, and no viewBox"
            case .svgStartTagLongerThan64KiB: "no end of the svg start tag in the first 64 KiB"
            case .attributeValueWithoutQuotes: "attribute value without quotes"
            case .repeatedAttribute: "repeated attribute"
            case .slashNotFollowedByGreaterThan: "/ not followed by > in the svg start tag"
            case .attributesNotSeparatedByWhiteSpace: "attributes not separated by white space"
            case .unexpectedByteInTheSvgStartTag: "unexpected byte in the svg start tag"
            case .attributeWithoutEquals: "attribute without ="
            }
        }
    }
}
#endif
