/// JPEG 2000: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct JPEG2000Parser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .jp2, width: 0, height: 0)

    @inlinable
    init(codestream: ()) {}

    @inlinable
    init(signatureBoxSize: UInt32) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .jp2 }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.jp2, "not implemented yet"))
    }
}
