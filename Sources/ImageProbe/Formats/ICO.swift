/// ICO and CUR: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct ICOParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .ico, width: 0, height: 0)

    @inlinable
    init(isCursor: Bool, count: UInt16) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .ico }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.ico, "not implemented yet"))
    }
}
