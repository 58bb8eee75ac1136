/// QOI: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct QOIParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .qoi, width: 0, height: 0)

    @inlinable
    init() {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .qoi }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.qoi, "not implemented yet"))
    }
}
