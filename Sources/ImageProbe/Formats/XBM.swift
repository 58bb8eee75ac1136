/// X BitMap: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct XBMParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .xbm, width: 0, height: 0)

    @inlinable
    init() {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .xbm }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.xbm, "not implemented yet"))
    }
}
