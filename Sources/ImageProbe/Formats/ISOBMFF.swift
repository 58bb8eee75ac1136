/// HEIF and AVIF (ISOBMFF): not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct ISOBMFFParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .heif, width: 0, height: 0)

    @inlinable
    init(firstBoxSize: UInt32) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .heif }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.heif, "not implemented yet"))
    }
}
