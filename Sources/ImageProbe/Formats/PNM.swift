/// Netpbm PNM, PAM and PFM: not implemented yet (placeholder so the sniffer can hand over).
@usableFromInline
struct PNMParser: FormatParser, Sendable {
    @usableFromInline var info = ImageInfo(format: .pnm, width: 0, height: 0)

    @inlinable
    init(magic: UInt8) {}

    @inlinable
    var firstStep: Step { .read(1) }

    @inlinable
    var format: ImageFormat? { .pnm }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        .failed(.unsupported(.pnm, "not implemented yet"))
    }
}
