#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
/// SVG: an XML document whose root element is `svg`.
///
/// The scanner steps over the prolog (byte-order mark, XML declaration, comments, processing
/// instructions, a DOCTYPE with its internal subset) one byte at a time, checks the root
/// element's name, and reads its `width`, `height` and `viewBox` attributes as they stream
/// past, without buffering them. The pixel size is computed from those three
/// (`SVGLengthRules`, in SVGAttributes.swift); the values as written go into `ImageInfo.svg`
/// (SPEC.md §3, "SVG").
struct SVGParser: FormatParser, Sendable {

    /// The root element's attributes, as far as the size goes.
    enum Attribute: Sendable {
        case width, height, viewBox, other
    }

    /// An attribute's name as far as it has been read: `matched` bytes of `candidate`'s
    /// name, `candidate` being `other` once the bytes can name none of the three.
    struct AttributeName: Sendable {
        var candidate: Attribute
        var matched: UInt8 = 1

        init(first byte: UInt8) {
            switch byte {
            case 0x77: candidate = .width  // w
            case 0x68: candidate = .height  // h
            case 0x76: candidate = .viewBox  // v
            default: candidate = .other
            }
        }

        mutating func append(_ byte: UInt8) {
            let expected: UInt8
            switch candidate {
            case .width: expected = ASCII.byte(of: "width", at: Int(matched))
            case .height: expected = ASCII.byte(of: "height", at: Int(matched))
            case .viewBox: expected = ASCII.byte(of: "viewBox", at: Int(matched))
            case .other: return
            }
            if byte == expected {
                matched &+= 1
            } else {
                candidate = .other
            }
        }

        /// The attribute the whole name names.
        var attribute: Attribute {
            let length: UInt8
            switch candidate {
            case .width: length = 5
            case .height: length = 6
            case .viewBox: length = 7
            case .other: return .other
            }
            return matched == length ? candidate : .other
        }
    }

    /// The two lengths among them.
    enum Dimension: Sendable {
        case width, height
    }

    /// Where a comment or processing instruction returns once it ends.
    enum Context: Sendable {
        case prolog
        /// The DOCTYPE's internal subset.
        case subset
    }

    /// Where the document is. The payloads are a few bytes each, so that every byte's
    /// dispatch reads one word: a size value's scanner is kept beside the phase, and updated
    /// in place.
    enum Phase: Sendable {
        /// A failure the sniffer's two bytes already decided, reported at the next byte.
        case rejected(ScanFailure)
        /// After `EF`: the rest of the UTF-8 byte-order mark, `BB BF`.
        case byteOrderMark(matched: UInt8)
        /// Between prolog items: white space or `<`.
        case prolog
        /// After `<` in the prolog.
        case markup
        /// After `<!`.
        case bang
        /// After `<!-`.
        case commentOpen
        /// Inside `<!-- … -->`; `dashes` counts the `-` just before (up to 2).
        case comment(Context, dashes: UInt8)
        /// Inside `<? … ?>`; `question` when the last byte was `?`.
        case instruction(Context, question: Bool)
        /// After `<!D`: `matched` bytes of `DOCTYPE`.
        case doctypeKeyword(matched: UInt8)
        /// Inside `<!DOCTYPE … >`, outside the internal subset; `quote` is the open quote or 0.
        case doctype(quote: UInt8)
        /// Inside the internal subset `[ … ]`, `quote` as in `doctype`; `recent` holds the
        /// last bytes, to see `<!--` and `<?`.
        case subset(quote: UInt8, recent: UInt32)
        /// After the subset's `]`: white space, then `>`.
        case afterSubset
        /// The root element's name; `matched` bytes of `svg` in its local part, or `mismatch`.
        case rootName(matched: UInt8)
        /// Between attributes; `spaced` once white space followed the previous one.
        case attributes(spaced: Bool)
        /// An attribute's name.
        case attributeName(AttributeName)
        /// White space before `=`.
        case beforeEquals(Attribute)
        /// White space after `=`, before the quote.
        case beforeValue(Attribute)
        /// The value of an attribute that does not matter, up to `quote`.
        case skippedValue(quote: UInt8)
        /// The value of `width` or `height`, up to `quote`, read by `lengthScanner`.
        case length(quote: UInt8, Dimension)
        /// The value of `viewBox`, up to `quote`, read by `viewBoxScanner`.
        case viewBox(quote: UInt8)
        /// After `/` in the root tag: `>` must follow.
        case emptyElementEnd
    }

    /// Which of `width`, `height` and `viewBox` appeared, valid or not: a repeat is an error.
    struct Seen: Sendable {
        var width = false
        var height = false
        var viewBox = false

        init() {}

        var all: Bool { width && height && viewBox }

        /// Notes `attribute`; false when it appeared before.
        mutating func insert(_ attribute: Attribute) -> Bool {
            let repeated: Bool
            switch attribute {
            case .width: (repeated, width) = (width, true)
            case .height: (repeated, height) = (height, true)
            case .viewBox: (repeated, viewBox) = (viewBox, true)
            case .other: repeated = false
            }
            return !repeated
        }
    }

    var phase: Phase
    /// The root's `width`, `height` and `viewBox`, as written.
    var written = SVGSize()
    var seen = Seen()
    /// The value being read in phase `length`, and in phase `viewBox`.
    var lengthScanner = LengthScanner()
    var viewBoxScanner = ViewBoxScanner()
    /// The pixel size, once the attributes settle it.
    var pixelSize: (width: Int, height: Int)? = nil

    /// Bytes read before the root element's start tag must have ended.
    static let budget: UInt64 = 65536
    static let mismatch: UInt8 = 0xFF

    /// `first` and `second` are the two bytes the sniffer consumed: `<`, `EF` or white space,
    /// then anything but 0 or 1. They go through the same state machine as every later byte.
    init(first: UInt8, second: UInt8) {
        phase = .prolog
        if first == 0xEF {
            phase = .byteOrderMark(matched: 1)
        } else if case .failed(let failure) = advance(first, options: ScanOptions()) {
            phase = .rejected(failure)
            return
        }
        if case .failed(let failure) = advance(second, options: ScanOptions()) {
            phase = .rejected(failure)
        }
    }

    init(sniffed: Sniffed) {
        guard case .markup(let first, let second) = sniffed else { self.init(first: 0, second: 0); return }  // defensive
        self.init(first: first, second: second)
    }

    /// Whether two first bytes already rule out XML: the input then matched no signature in
    /// its first two bytes (SPEC.md §3, "Identification"), and the sniffer reads on.
    static func rejects(_ first: UInt8, _ second: UInt8) -> Bool {
        guard case .rejected = SVGParser(first: first, second: second).phase else { return false }
        return true
    }

    var firstStep: Step { .read(1) }

    /// SVG once the root element is known to be `svg`: its start tag is being read. Until
    /// then any XML could follow.
    var format: ImageFormat? {
        switch phase {
        case .attributes, .attributeName, .beforeEquals, .beforeValue, .skippedValue, .length,
            .viewBox, .emptyElementEnd:
            .svg
        case .rejected, .byteOrderMark, .prolog, .markup, .bang, .commentOpen, .comment, .instruction,
            .doctypeKeyword, .doctype, .subset, .afterSubset, .rootName:
            nil
        }
    }

    /// The facts, from the answer this parser builds its own way.
    var facts: ImageFacts { info.facts }

    var info: ImageInfo {
        var info = ImageInfo(format: .svg, width: pixelSize?.width ?? 0, height: pixelSize?.height ?? 0)
        info.svg = written
        return info
    }

    func infoAtEndOfInput() -> ImageInfo? { pixelSize == nil ? nil : info }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        // A rejected parser fails at its first byte, well within the budget.
        guard offset < Self.budget else {
            return .failed(.limit(format, Failure.svgStartTagLongerThan64KiB))
        }
        return advance(field.u8(0), options: options)
    }

    static let notXML = ScanFailure(.unknownFormat, Failure.notAnXMLDocument)

    /// Consumes one byte.
    mutating func advance(_ byte: UInt8, options: ScanOptions) -> Step {
        switch phase {
        case .rejected(let failure):
            return .failed(failure)
        case .byteOrderMark(let matched):
            guard byte == (matched == 1 ? 0xBB : 0xBF) else { return .failed(Self.notXML) }
            phase = matched == 1 ? .byteOrderMark(matched: 2) : .prolog
        case .prolog:
            if byte == 0x3C {
                phase = .markup
            } else if !ASCII.isXMLSpace(byte) {
                return .failed(Self.notXML)
            }
        case .markup:
            switch byte {
            case 0x3F: phase = .instruction(.prolog, question: false)  // <?
            case 0x21: phase = .bang  // <!
            default:
                guard Self.isNameStart(byte) else { return .failed(Self.notXML) }
                phase = .rootName(matched: Self.matchRoot(0, byte))
            }
        case .bang:
            switch byte {
            case 0x2D: phase = .commentOpen
            case 0x44: phase = .doctypeKeyword(matched: 1)  // D
            default: return .failed(Self.notXML)  // CDATA and the like cannot precede the root
            }
        case .commentOpen:
            guard byte == 0x2D else { return .failed(Self.notXML) }
            phase = .comment(.prolog, dashes: 0)
        case .comment(let context, let dashes):
            if let next = Self.commentStep(dashes, byte) {
                phase = .comment(context, dashes: next)
            } else {
                phase = Self.resume(context)
            }
        case .instruction(let context, let question):
            if question && byte == 0x3E {
                phase = Self.resume(context)
            } else {
                phase = .instruction(context, question: byte == 0x3F)
            }
        case .doctypeKeyword(let matched):
            if matched == 7 {
                guard ASCII.isXMLSpace(byte) else { return .failed(Self.notXML) }
                phase = .doctype(quote: 0)
            } else {
                guard byte == ASCII.byte(of: "DOCTYPE", at: Int(matched)) else { return .failed(Self.notXML) }
                phase = .doctypeKeyword(matched: matched &+ 1)
            }
        case .doctype(let quote):
            if quote != 0 {
                if byte == quote { phase = .doctype(quote: 0) }
            } else if byte == 0x22 || byte == 0x27 {
                phase = .doctype(quote: byte)
            } else if byte == 0x5B {  // [
                phase = .subset(quote: 0, recent: 0)
            } else if byte == 0x3E {
                phase = .prolog
            }
        case .subset(let quote, let recent):
            if quote != 0 {
                phase = .subset(quote: byte == quote ? 0 : quote, recent: 0)
            } else if byte == 0x22 || byte == 0x27 {
                phase = .subset(quote: byte, recent: 0)
            } else if byte == 0x5D {  // ]
                phase = .afterSubset
            } else {
                let shifted = recent << 8 | UInt32(byte)
                if shifted == 0x3C21_2D2D {  // "<!--"
                    phase = .comment(.subset, dashes: 0)
                } else if shifted & 0xFFFF == 0x3C3F {  // "<?"
                    phase = .instruction(.subset, question: false)
                } else {
                    phase = .subset(quote: 0, recent: shifted)
                }
            }
        case .afterSubset:
            if byte == 0x3E {
                phase = .prolog
            } else if !ASCII.isXMLSpace(byte) {
                return .failed(Self.notXML)
            }
        case .rootName(let matched):
            if Self.isNameChar(byte) {
                // A prefix ends at the colon: `svg:svg` is an svg element in the prefix's namespace.
                phase = .rootName(matched: byte == 0x3A ? 0 : Self.matchRoot(matched, byte))
                return .read(1)
            }
            guard matched == 3 else { return .failed(ScanFailure(.unknownFormat, Failure.xmlRootElementIsNotSvg)) }
            return afterValue(byte, spaced: false, options: options)
        case .attributes(let spaced):
            return afterValue(byte, spaced: spaced, options: options)
        case .attributeName(var name):
            if Self.isNameChar(byte) {
                name.append(byte)
                phase = .attributeName(name)
                return .read(1)
            }
            phase = .beforeEquals(name.attribute)
            return beforeEquals(name.attribute, byte)
        case .beforeEquals(let attribute):
            return beforeEquals(attribute, byte)
        case .beforeValue(let attribute):
            if ASCII.isXMLSpace(byte) { return .read(1) }
            guard byte == 0x22 || byte == 0x27 else { return malformed(Failure.attributeValueWithoutQuotes) }
            guard seen.insert(attribute) else { return malformed(Failure.repeatedAttribute) }
            switch attribute {
            case .width, .height:
                lengthScanner = LengthScanner()
                phase = .length(quote: byte, attribute == .width ? .width : .height)
            case .viewBox:
                viewBoxScanner = ViewBoxScanner()
                phase = .viewBox(quote: byte)
            case .other:
                phase = .skippedValue(quote: byte)
            }
        case .skippedValue(let quote):
            if byte == quote {
                phase = .attributes(spaced: false)
            } else if byte == 0x3C {
                return malformed(Failure.lessThanInAttributeValue)
            }
        case .length(let quote, let dimension):
            if byte == quote {
                switch dimension {
                case .width: written.width = lengthScanner.finish()
                case .height: written.height = lengthScanner.finish()
                }
                phase = .attributes(spaced: false)
                return settleEarly(options: options)
            }
            if let failure = Self.checkValueByte(byte) { return .failed(failure) }
            lengthScanner.feed(byte)
        case .viewBox(let quote):
            if byte == quote {
                written.viewBox = viewBoxScanner.finish()
                phase = .attributes(spaced: false)
                return settleEarly(options: options)
            }
            if let failure = Self.checkValueByte(byte) { return .failed(failure) }
            viewBoxScanner.feed(byte)
        case .emptyElementEnd:
            guard byte == 0x3E else { return malformed(Failure.slashNotFollowedByGreaterThan) }
            return endOfStartTag(options: options)
        }
        return .read(1)
    }

    func malformed(_ message: Failure) -> Step {
        .failed(.malformed(.svg, message))
    }

    /// The phase a comment or processing instruction returns to.
    static func resume(_ context: Context) -> Phase {
        switch context {
        case .prolog: .prolog
        // A comment starts only outside quotes.
        case .subset: .subset(quote: 0, recent: 0)
        }
    }

    /// `<` cannot appear in an attribute value; a reference (`&…;`) in a size attribute
    /// would need the DOCTYPE's entities.
    static func checkValueByte(_ byte: UInt8) -> ScanFailure? {
        if byte == 0x3C { return .malformed(.svg, Failure.lessThanInAttributeValue) }
        if byte == 0x26 { return .unsupported(.svg, Failure.entityReferenceInWidthHeightOrViewBox) }
        return nil
    }

    /// The root tag after its name or an attribute value: white space, another attribute
    /// (only after white space), `>` or `/>`.
    mutating func afterValue(_ byte: UInt8, spaced: Bool, options: ScanOptions) -> Step {
        if ASCII.isXMLSpace(byte) {
            phase = .attributes(spaced: true)
        } else if byte == 0x3E {
            return endOfStartTag(options: options)
        } else if byte == 0x2F {
            phase = .emptyElementEnd
        } else if Self.isNameStart(byte) {
            guard spaced else { return malformed(Failure.attributesNotSeparatedByWhiteSpace) }
            phase = .attributeName(AttributeName(first: byte))
        } else {
            return malformed(Failure.unexpectedByteInTheSvgStartTag)
        }
        return .read(1)
    }

    mutating func beforeEquals(_ attribute: Attribute, _ byte: UInt8) -> Step {
        if byte == 0x3D {
            phase = .beforeValue(attribute)
        } else if !ASCII.isXMLSpace(byte) {
            return malformed(Failure.attributeWithoutEquals)
        }
        return .read(1)
    }

    /// After a `width`, `height` or `viewBox` value: the pixel size once no later attribute
    /// can change it, and in dimensions-only mode the answer.
    mutating func settleEarly(options: ScanOptions) -> Step {
        guard pixelSize == nil else { return .read(1) }
        let rules = SVGLengthRules(written)
        // Both absolute, or all three present: a later attribute cannot change the size (a
        // repeated one is an error).
        guard rules.bothAbsolute || seen.all else { return .read(1) }
        if let failure = settle(rules, options: options) { return .failed(failure) }
        return options.dimensionsOnly ? .done : .read(1)
    }

    /// The start tag has ended: the answer.
    mutating func endOfStartTag(options: ScanOptions) -> Step {
        if pixelSize == nil, let failure = settle(SVGLengthRules(written), options: options) { return .failed(failure) }
        return .done
    }

    /// Computes the pixel size; a failure when there is none.
    mutating func settle(_ rules: SVGLengthRules, options: ScanOptions) -> ScanFailure? {
        switch rules.pixelSize(maxWidth: options.maxWidth, maxHeight: options.maxHeight) {
        case .size(let width, let height):
            pixelSize = (width, height)
            return nil
        case .tooLarge:
            return .tooLarge(.svg)
        case .empty:
            return .unsupported(.svg, Failure.zeroWidthOrHeightNothingIsRendered)
        case .noIntrinsicSize:
            return .unsupported(.svg, Failure.noIntrinsicSize)
        }
    }

    // MARK: - XML names

    /// XML NameStartChar, with every non-ASCII byte allowed (a UTF-8 sequence's bytes):
    /// letters, `_` and `:`.
    static func isNameStart(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    /// XML NameChar, with every non-ASCII byte allowed: NameStartChar, digits, `-` and `.`.
    static func isNameChar(_ byte: UInt8) -> Bool {
        isNameStart(byte) || ASCII.isDigit(byte) || byte == 0x2D || byte == 0x2E
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
