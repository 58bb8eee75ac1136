/// SVG: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct SVGParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .svg, width: 0, height: 0)

    @inlinable
    init(first: UInt8, second: UInt8) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .svg }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.svg, "not implemented yet"))
    }
}
