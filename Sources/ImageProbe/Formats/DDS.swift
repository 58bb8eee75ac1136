/// DirectDraw Surface: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct DDSParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .dds, width: 0, height: 0)

    @inlinable
    init() {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .dds }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.dds, "not implemented yet"))
    }
}
