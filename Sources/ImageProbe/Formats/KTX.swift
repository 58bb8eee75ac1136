/// KTX 1 and KTX2: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct KTXParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .ktx, width: 0, height: 0)

    @inlinable
    init() {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .ktx }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.ktx, "not implemented yet"))
    }
}
