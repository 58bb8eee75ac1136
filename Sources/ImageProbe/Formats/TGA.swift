/// Truevision TGA: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct TGAParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .tga, width: 0, height: 0)

    @inlinable
    init(known: KnownBytes) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .tga }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.tga, "not implemented yet"))
    }
}
