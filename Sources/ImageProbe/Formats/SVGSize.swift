/// The size attributes of an SVG root element as written: `width`, `height` and `viewBox`.
///
/// `ImageInfo.width` and `height` are computed from these (SPEC.md §3, "SVG"): lengths are
/// converted to CSS pixels at 96 per inch, a missing or percentage dimension comes from the
/// `viewBox`, and the result is rounded to whole pixels. This value keeps what was written, so
/// a caller can apply its own rules (another DPI or font size, a container for percentages).
///
/// An attribute that is absent, or whose value is not a valid length (`auto`, an empty
/// string, a negative length), is nil. In dimensions-only mode the scan may stop before a
/// later attribute: then only the attributes before the answer are filled in.
public struct SVGSize: Hashable, Sendable {
    /// A CSS length unit, or none (user units, which are CSS pixels).
    ///
    /// A struct with static members rather than an enum, so that more units can be added
    /// without breaking code that switches over them.
    public struct Unit: Hashable, Sendable {
        enum Kind: UInt8, Sendable {
            case none, px, inch, cm, mm, q, pt, pc, em, ex, rem, ch, percent
        }

        let kind: Kind

        init(_ kind: Kind) { self.kind = kind }

        /// A number with no unit: user units, which are CSS pixels at the root.
        public static let none = Unit(.none)
        /// CSS pixels: 1/96 in.
        public static let px = Unit(.px)
        /// Inches: 96 px.
        public static let inch = Unit(.inch)
        /// Centimetres: 96/2.54 px.
        public static let cm = Unit(.cm)
        /// Millimetres: 96/25.4 px.
        public static let mm = Unit(.mm)
        /// Quarter-millimetres: 96/101.6 px.
        public static let q = Unit(.q)
        /// Points: 1/72 in, 4/3 px.
        public static let pt = Unit(.pt)
        /// Picas: 12 pt, 16 px.
        public static let pc = Unit(.pc)
        /// The font size: 16 px here, CSS's initial `medium`.
        public static let em = Unit(.em)
        /// The x-height: 8 px here, CSS's 0.5em fallback.
        public static let ex = Unit(.ex)
        /// The root font size: 16 px, as `em`.
        public static let rem = Unit(.rem)
        /// The advance of "0": 8 px here, CSS's 0.5em fallback.
        public static let ch = Unit(.ch)
        /// A percentage of the viewport the SVG is drawn in.
        public static let percent = Unit(.percent)

        /// The unit as written in CSS (`px`, `in`, `%`), empty for `none`. A literal: reading
        /// it allocates nothing.
        public var name: String {
            switch kind {
            case .none: ""
            case .px: "px"
            case .inch: "in"
            case .cm: "cm"
            case .mm: "mm"
            case .q: "q"
            case .pt: "pt"
            case .pc: "pc"
            case .em: "em"
            case .ex: "ex"
            case .rem: "rem"
            case .ch: "ch"
            case .percent: "%"
            }
        }

        /// CSS pixels per unit as a fraction (exact, so that `2.54cm` is exactly 96 px), or
        /// nil for a percentage, which needs a viewport.
        var pixelsPerUnit: (numerator: Double, denominator: Double)? {
            switch kind {
            case .none, .px: (1, 1)
            case .inch: (96, 1)
            case .cm: (9600, 254)
            case .mm: (960, 254)
            case .q: (960, 1016)
            case .pt: (4, 3)
            case .pc: (16, 1)
            case .em, .rem: (16, 1)
            case .ex, .ch: (8, 1)
            case .percent: nil
            }
        }
    }

    /// A length as written: a number and its unit.
    public struct Length: Hashable, Sendable {
        /// The number as written (`1.5e2` is 150).
        public var value: Double
        /// The unit after the number.
        public var unit: Unit

        /// A length of `value` `unit`s.
        public init(value: Double, unit: Unit) {
            self.value = value
            self.unit = unit
        }

        /// The length in CSS pixels (96 per inch; `em` 16 px, `ex` 8 px), or nil for a
        /// percentage.
        public var pixels: Double? {
            guard let factor = unit.pixelsPerUnit else { return nil }
            // Multiplying first keeps whole results exact: 2.54 × 9600 / 254 is 96.
            return value * factor.numerator / factor.denominator
        }
    }

    /// The `viewBox` rectangle in user units.
    public struct ViewBox: Hashable, Sendable {
        /// The left edge.
        public var minX: Double
        /// The top edge.
        public var minY: Double
        /// The width; zero disables rendering.
        public var width: Double
        /// The height; zero disables rendering.
        public var height: Double

        /// A rectangle with the given edges and size.
        public init(minX: Double, minY: Double, width: Double, height: Double) {
            self.minX = minX
            self.minY = minY
            self.width = width
            self.height = height
        }
    }

    /// The `width` attribute, or nil when absent or not a valid length.
    public var width: Length? {
        get { widthUnit.map { Length(value: widthValue, unit: $0) } }
        set {
            widthValue = newValue?.value ?? 0
            widthUnit = newValue?.unit
        }
    }

    /// The `height` attribute, or nil when absent or not a valid length.
    public var height: Length? {
        get { heightUnit.map { Length(value: heightValue, unit: $0) } }
        set {
            heightValue = newValue?.value ?? 0
            heightUnit = newValue?.unit
        }
    }

    /// The `viewBox` attribute, or nil when absent or invalid (not four numbers, or a
    /// negative width or height).
    public var viewBox: ViewBox? {
        get { hasViewBox ? ViewBox(minX: boxMinX, minY: boxMinY, width: boxWidth, height: boxHeight) : nil }
        set {
            hasViewBox = newValue != nil
            boxMinX = newValue?.minX ?? 0
            boxMinY = newValue?.minY ?? 0
            boxWidth = newValue?.width ?? 0
            boxHeight = newValue?.height ?? 0
        }
    }

    // Stored flat, with the units' spare values marking absence rather than three optionals:
    // every answer carries a value of this type's size, and is copied per probe.
    var widthValue: Double = 0
    var heightValue: Double = 0
    var boxMinX: Double = 0
    var boxMinY: Double = 0
    var boxWidth: Double = 0
    var boxHeight: Double = 0
    var widthUnit: Unit? = nil
    var heightUnit: Unit? = nil
    var hasViewBox = false

    /// A value with the given attributes.
    public init(width: Length? = nil, height: Length? = nil, viewBox: ViewBox? = nil) {
        self.width = width
        self.height = height
        self.viewBox = viewBox
    }
}
