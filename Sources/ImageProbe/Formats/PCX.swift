/// ZSoft PCX: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct PCXParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .pcx, width: 0, height: 0)

    @inlinable
    init(version: UInt8) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .pcx }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.pcx, "not implemented yet"))
    }
}
