#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
// The SVG root's size attributes: their values read one byte at a time as they stream past,
// and the rules that turn them into a pixel size.

/// Reads a `width` or `height` value: optional white space, a number, an optional unit or
/// `%`, optional white space (the CSS syntax SVG 2's geometry properties use).
struct LengthScanner: Sendable {
    enum State: UInt8, Sendable {
        case leading, number, unit, trailing, invalid
    }

    var state = State.leading
    var number = DecimalNumber()
    /// The unit's letters, lowercased.
    var unit = ShortWord()
    var percent = false

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
                unit.append(0x65)
            case .invalid:
                state = .invalid
                return
            }
            state = .unit
        }
        switch state {
        case .unit:
            if ASCII.isLetter(byte) {
                unit.append(ASCII.lowercased(byte))
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

    /// The unit that (lowercased) `letters` name: none when there are no letters, nil when
    /// they name no unit.
    static func unit(_ letters: ShortWord) -> SVGSize.Unit? {
        if letters.isEmpty { return SVGSize.Unit.none }
        if letters.equals("px") { return .px }
        if letters.equals("in") { return .inch }
        if letters.equals("cm") { return .cm }
        if letters.equals("mm") { return .mm }
        if letters.equals("q") { return .q }
        if letters.equals("pt") { return .pt }
        if letters.equals("pc") { return .pc }
        if letters.equals("em") { return .em }
        if letters.equals("ex") { return .ex }
        if letters.equals("rem") { return .rem }
        if letters.equals("ch") { return .ch }
        return nil
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

    /// The rectangle, or nil when the value is not four numbers or has a negative size ("a
    /// negative value for width or height is an error", SVG 1.1 §7.7).
    mutating func finish() -> SVGSize.ViewBox? {
        if inNumber && !invalid {
            guard number.isComplete else { return nil }
            store()
        }
        guard !invalid && !commaPending && count == 4 && values.2 >= 0 && values.3 >= 0 else { return nil }
        return SVGSize.ViewBox(minX: values.0, minY: values.1, width: values.2, height: values.3)
    }
}

/// How the root's `width`, `height` and `viewBox` become a pixel size (SPEC.md §3, "SVG").
struct SVGLengthRules: Sendable {
    enum Result: Sendable {
        case size(Int, Int)
        /// Larger than the limits allow.
        case tooLarge
        /// A zero width or height: SVG renders nothing.
        case empty
        /// Relative or missing dimensions and no usable viewBox.
        case noIntrinsicSize
    }

    let size: SVGSize
    /// The lengths in CSS pixels, when absolute.
    let width: Double?
    let height: Double?

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

    func pixelSize(maxWidth: Int, maxHeight: Int) -> Result {
        let pixels: (Double, Double)
        if let width, let height {
            pixels = (width, height)
        } else if let box = size.viewBox {
            if box.width == 0 || box.height == 0 { return .empty }
            if let width {
                pixels = (width, width * box.height / box.width)
            } else if let height {
                pixels = (height * box.width / box.height, height)
            } else {
                // Percentages of the viewBox, as librsvg's natural size does.
                pixels = (box.width * Self.fraction(size.width), box.height * Self.fraction(size.height))
            }
        } else {
            return .noIntrinsicSize
        }
        guard let pixelWidth = Self.round(pixels.0), let pixelHeight = Self.round(pixels.1) else { return .tooLarge }
        if pixelWidth == 0 || pixelHeight == 0 { return .empty }
        guard pixelWidth <= maxWidth && pixelHeight <= maxHeight else { return .tooLarge }
        return .size(pixelWidth, pixelHeight)
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
#endif
