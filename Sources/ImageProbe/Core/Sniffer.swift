/// Up to eight bytes the sniffer consumed before handing over, for parsers of formats
/// without a signature (TGA) whose header starts inside them.
@usableFromInline
struct KnownBytes: Sendable {
    @usableFromInline var storage: UInt64 = 0
    @usableFromInline var count: Int = 0

    /// Two known bytes. (No variadic initializer: it would allocate an array inside `feed`.)
    @inlinable
    init(_ b0: UInt8, _ b1: UInt8) {
        append(b0)
        append(b1)
    }

    @inlinable
    init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        self.init(b0, b1)
        append(b2)
        append(b3)
    }

    @inlinable
    init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8, _ b5: UInt8) {
        self.init(b0, b1, b2, b3)
        append(b4)
        append(b5)
    }

    @inlinable
    mutating func append(_ byte: UInt8) {
        guard count < 8 else { return }
        storage |= UInt64(byte) << UInt64(count * 8)
        count += 1
    }

    /// The byte at `index`, which must be below `count`.
    @inlinable
    subscript(index: Int) -> UInt8 {
        assert(index >= 0 && index < count)
        return UInt8(truncatingIfNeeded: storage >> UInt64(index * 8))
    }
}

/// Identifies the format and hands over to its parser.
///
/// Two bytes decide almost every signature; each format's parser then checks the rest of its
/// signature in its first field. A leading `00 00` needs more: an icon, a cursor, an ISOBMFF
/// box (HEIF/AVIF, JPEG 2000, JPEG XL container) or a TGA. TGA has no signature at all, so it
/// is tried last: only when nothing else matched and its header can still be valid (SPEC.md
/// §3, "Identification").
@usableFromInline
struct Sniffer: FormatParser, Sendable {
    @inlinable static var occupant: SlotOccupant { .sniffer }

    @usableFromInline
    enum Phase: Sendable {
        case firstTwo
        /// After `00 00`: bytes 2 and 3.
        case zeroPrefix
        /// After a 32-bit box size below 2^16: the box type.
        case boxType(size: UInt32)
        /// After `00 00 b2 b3` that is neither an icon nor a small box: bytes 4 to 7 tell an
        /// ISOBMFF box of 256 bytes or more from a TGA header.
        case boxOrTGA(third: UInt8, fourth: UInt8)
        /// After `00 00 01 00` (icon) or `00 00 02 00` (cursor, or a TGA): the image count.
        case iconCount(cursor: Bool)
        /// After `0A` and a PCX version: the encoding byte. After `0A 00` it is also a TGA's
        /// image type (a TGA whose image ID is 10 bytes long, without a colour map).
        case pcxEncoding(version: UInt8)
    }

    @usableFromInline
    enum Detected: Sendable {
        case undecided
        case jpeg, png, gif, bmp, webp, psd, qoi, dds, ktx, icns, exr, hdr, sgi, sun
        case xbm, xbmAfterComment
        case tiff(bigEndian: Bool)
        case jxlCodestream, j2kCodestream
        case isobmff(boxSize: UInt32), jxlContainer(boxSize: UInt32), jp2(boxSize: UInt32)
        case icon(cursor: Bool, count: UInt16)
        case pnm(magic: UInt8)
        case pcx
        case svg(first: UInt8, second: UInt8)
        case tga(KnownBytes)
    }

    @usableFromInline var phase: Phase = .firstTwo
    @usableFromInline var detected: Detected = .undecided

    @usableFromInline static let firstWidth = 2

    @inlinable
    var firstStep: Step { .read(Self.firstWidth) }

    @inlinable
    init() {}

    @inlinable
    var format: ImageFormat? { nil }

    @inlinable
    var info: ImageInfo { ImageInfo(format: .jpeg, width: 0, height: 0) }  // never asked: no .done

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? { nil }

    @usableFromInline static let unknown = ScanFailure(.unknownFormat, .noKnownImageSignature)

    @inlinable @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .firstTwo:
            return firstTwo(field.u8(0), field.u8(1))
        case .zeroPrefix:
            let third = field.u8(0)
            let fourth = field.u8(1)
            switch (third, fourth) {
            case (0x00, _):
                // A box smaller than 64 KiB: the first box of every ISOBMFF-style image.
                phase = .boxType(size: UInt32(fourth))
                return .read(4)
            case (0x01, 0x00), (0x02, 0x00):
                phase = .iconCount(cursor: third == 0x02)
                return .read(2)
            default:
                phase = .boxOrTGA(third: third, fourth: fourth)
                return .read(4)
            }
        case .boxType(let size):
            if let detected = Self.box(type: field.tag(0), size: size) { return decide(detected) }
            return .failed(ScanFailure(.unknownFormat, .isobmffStyleFileOfNoImageType))
        case .boxOrTGA(let third, let fourth):
            if let detected = Self.box(type: field.tag(0), size: UInt32(third) << 8 | UInt32(fourth)) {
                return decide(detected)
            }
            // ID length 0, no colour map, image type `third`: a TGA, if anything.
            var known = KnownBytes(0, 0, third, fourth)
            known.append(field.u8(0))
            known.append(field.u8(1))
            known.append(field.u8(2))
            known.append(field.u8(3))
            return decide(.tga(known))
        case .iconCount(let cursor):
            let count = field.le16(0)
            if count != 0 { return decide(.icon(cursor: cursor, count: count)) }
            // `00 00 02 00 00 00` is a cursor with no images, or the start of an uncompressed
            // true-colour TGA: only the TGA can be valid.
            if cursor { return decide(.tga(KnownBytes(0, 0, 2, 0, 0, 0))) }
            return .failed(.malformed(.ico, .iconDirectoryListsNoImages))
        case .pcxEncoding(let version):
            let encoding = field.u8(0)
            // PCX encodings are 0 (none) and 1 (RLE). TGA image types 0 and 1 are impossible
            // after a colour map type of 0 (no image data; colour-mapped without a map), so
            // the byte tells the two apart.
            if encoding <= 1 { return decide(.pcx) }
            if version == 0 {
                var known = KnownBytes(0x0A, 0x00)
                known.append(encoding)
                return decide(.tga(known))
            }
            return .failed(ScanFailure(.unknownFormat, .pcxEncodingIsNot0Or1))
        }
    }

    /// The image formats whose first box has type `type`.
    @inlinable
    static func box(type: UInt32, size: UInt32) -> Detected? {
        switch type {
        case 0x6674_7970: .isobmff(boxSize: size)  // "ftyp": HEIF, AVIF
        case 0x4A58_4C20: .jxlContainer(boxSize: size)  // "JXL "
        case 0x6A50_2020: .jp2(boxSize: size)  // "jP  "
        default: nil
        }
    }

    @inlinable @inline(__always)
    mutating func firstTwo(_ first: UInt8, _ second: UInt8) -> Step {
        switch (first, second) {
        case (0xFF, 0xD8): return decide(.jpeg)
        case (0xFF, 0x0A): return decide(.jxlCodestream)
        case (0xFF, 0x4F): return decide(.j2kCodestream)
        case (0x89, 0x50): return decide(.png)  // "\x89P"
        case (0x47, 0x49): return decide(.gif)  // "GI"
        case (0x42, 0x4D): return decide(.bmp)  // "BM"
        case (0x52, 0x49): return decide(.webp)  // "RI"
        case (0x49, 0x49): return decide(.tiff(bigEndian: false))  // "II"
        case (0x4D, 0x4D): return decide(.tiff(bigEndian: true))  // "MM"
        case (0x38, 0x42): return decide(.psd)  // "8B"
        case (0x71, 0x6F): return decide(.qoi)  // "qo"
        case (0x44, 0x44): return decide(.dds)  // "DD"
        case (0xAB, 0x4B): return decide(.ktx)  // "«K"
        case (0x69, 0x63): return decide(.icns)  // "ic"
        case (0x76, 0x2F): return decide(.exr)
        case (0x23, 0x3F): return decide(.hdr)  // "#?"
        case (0x23, 0x64): return decide(.xbm)  // "#d"
        case (0x2F, 0x2A): return decide(.xbmAfterComment)  // "/*": a comment, then an XBM's defines
        case (0x01, 0xDA): return decide(.sgi)
        case (0x59, 0xA6): return decide(.sun)
        case (0x50, 0x31...0x37), (0x50, 0x46), (0x50, 0x66): return decide(.pnm(magic: second))  // "P1"…"P7", "PF", "Pf"
        case (0x0A, 0x00), (0x0A, 0x02...0x05):
            phase = .pcxEncoding(version: second)
            return .read(1)
        case (0x00, 0x00):
            phase = .zeroPrefix
            return .read(2)
        default:
            break
        }
        // Text: an XML root, perhaps after a byte-order mark or white space. A TGA could start
        // with the same byte, but then its second byte (the colour map type) is 0 or 1.
        let startsText = first == 0x3C || first == 0xEF || first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D
        if startsText && second > 1 { return decide(.svg(first: first, second: second)) }
        if second <= 1 { return decide(.tga(KnownBytes(first, second))) }
        return .failed(Self.unknown)
    }

    @inlinable
    mutating func decide(_ detected: Detected) -> Step {
        self.detected = detected
        return .handoff
    }

}
