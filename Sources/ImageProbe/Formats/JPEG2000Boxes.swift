/// The start JPEG 2000's boxed files (ISO/IEC 15444-1 I.5) and JPEG XL's container (ISO/IEC
/// 18181-2) share: a 12-byte signature box (payload `0D 0A 87 0A`), then `ftyp`. Their boxes
/// are `BoxWalker`'s.
enum JPEG2000Box {
    static let fileType: UInt32 = 0x6674_7970  // "ftyp"

    /// The start of a file, as the parsers read it after the sniffer.
    enum FileStart: Sendable {
        /// The `ftyp` box's major brand, and how much of that box is left to skip.
        case fileType(brand: UInt32, rest: UInt64)
        case failed(ScanFailure)
    }

    /// Checks the 16 bytes after the signature box's header: its payload, then the `ftyp` box's
    /// size, type and major brand. `signatureBoxSize` is what the sniffer read.
    static func fileStart(_ field: FieldBytes, signatureBoxSize: UInt32, format: ImageFormat) -> FileStart {
        guard field.u8(0) == 0x0D && field.u8(1) == 0x0A && field.u8(2) == 0x87 && field.u8(3) == 0x0A else {
            return .failed(ScanFailure(.unknownFormat, CommonFailure.signatureBoxDamaged))
        }
        guard signatureBoxSize == 12 else { return .failed(.malformed(format, CommonFailure.signatureBoxSizeIsNot12)) }
        guard field.tag(8) == fileType else { return .failed(.malformed(format, CommonFailure.secondBoxIsNotFtyp)) }
        // Major brand, minor version and at least one compatible brand (15444-1 I.5.2, 18181-2).
        let size = field.be32(4)
        guard size >= 20 else { return .failed(.malformed(format, .ftypBoxTooSmall)) }
        // The field held the ftyp's size, type and major brand.
        return .fileType(brand: field.tag(12), rest: UInt64(size &- 12))
    }
}
