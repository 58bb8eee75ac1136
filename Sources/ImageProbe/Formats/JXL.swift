/// JPEG XL: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct JXLParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .jxl, width: 0, height: 0)

    @inlinable
    init(codestream: ()) {}

    @inlinable
    init(signatureBoxSize: UInt32) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .jxl }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.jxl, "not implemented yet"))
    }
}
