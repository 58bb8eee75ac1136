/// The size attributes of an SVG root element, as written. (Filled in with the SVG parser.)
public struct SVGSize: Hashable, Sendable {
    public init() {}
}
