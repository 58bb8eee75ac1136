/// Up to eight bytes the sniffer consumed before handing over, for parsers of formats
/// without a signature (TGA) whose header starts inside them.
@usableFromInline
struct KnownBytes: Sendable {
    @usableFromInline var storage: UInt64 = 0
    @usableFromInline var count: Int = 0

    /// Bytes already packed, as `Sniffed` carries them.
    @inlinable
    init(storage: UInt64, count: Int) {
        self.storage = storage
        self.count = min(8, max(0, count))
    }

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

/// What the sniffer found: which parser to start, and what the first bytes already told it
/// (`variant` and `value`, whose meaning each parser's `init(sniffed:)` gives: a byte order, a
/// box's size, the bytes a TGA's header starts with...).
@usableFromInline
struct Sniffed: Sendable {
    @usableFromInline var kind: ParserKind
    @usableFromInline var variant: UInt8
    @usableFromInline var value: UInt64

    @inlinable
    init(_ kind: ParserKind, variant: UInt8 = 0, value: UInt64 = 0) {
        self.kind = kind
        self.variant = variant
        self.value = value
    }

    /// The bytes of a TGA header the sniffer consumed.
    @inlinable
    var knownBytes: KnownBytes { KnownBytes(storage: value, count: Int(variant)) }
}

// The variants the sniffer hands particular parsers, declared here rather than by them: the
// sniffer recognises every format, also in a build that leaves the parser out
// (IMAGEPROBE_SELECT_FORMATS), so that the answer names the format left out.
extension Sniffed {
    @usableFromInline static let xbmAfterComment: UInt8 = 1
    @usableFromInline static let pvrLegacy: UInt8 = 1
    @usableFromInline static let jxlContainer: UInt8 = 1
    @usableFromInline static let jpeg2000Boxed: UInt8 = 1
    @usableFromInline static let xpmVersion2: UInt8 = 1
    /// Aseprite's header: a smaller file size is no Aseprite file.
    @usableFromInline static let asepriteHeaderLength: UInt32 = 128
}

/// Identifies the format: a classifier over the first bytes, run by the field loop like a
/// parser but holding no answer. When it has decided (`.done`), `decision` says which parser
/// the scanner starts, directly, through the registry's dispatch.
///
/// Two bytes decide almost every signature; each format's parser then checks the rest of its
/// signature in its first field. A leading `00 00` needs more: an icon, a cursor, an ISOBMFF
/// box (HEIF/AVIF, JPEG 2000, JPEG XL container) or a TGA. TGA has no signature at all, so it
/// is tried last: only when nothing else matched and its header can still be valid (SPEC.md
/// §3, "Identification").
@usableFromInline
struct Sniffer: FieldConsumer, SlotResident, Sendable {
    @inlinable static var occupant: SlotOccupant { .sniffer }

    /// With payloads, unlike the parsers' phases: a fresh sniffer is then not all zero bytes,
    /// and the compiler keeps the scanner's zeroing as stores. A plain enum (tried) let it
    /// merge them into a `memset` call: 35 instructions more per probe on the host.
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
        /// After `/*`: " XPM */", one byte at a time; `matched` bytes so far. Anything else is
        /// a comment before an XBM's defines.
        case commentOpening(matched: UInt8)
        /// After two bytes that start no signature: bytes 2 to 5, for Aseprite's magic at
        /// byte 4. (A TGA, whose second byte is 0 or 1, checks for it itself.)
        case unknownPair(first: UInt8, second: UInt8)
        /// After `34` and 0 or 1: bytes 2 and 3, zero in a legacy PVR header.
        case legacyPVROrTGA(mapType: UInt8)
    }

    @usableFromInline var phase: Phase = .firstTwo
    /// The parser to start, once decided.
    @usableFromInline var decision = Sniffed(.jpeg)

    @usableFromInline static let firstWidth = 2

    @inlinable
    var firstStep: Step {
        if case .unknownPair = phase { return .read(4) }
        return .read(Self.firstWidth)
    }

    @inlinable
    init() {}

    /// After two bytes that a later check showed start no signature (SVG's first bytes that
    /// are no XML): on to the Aseprite check.
    @inlinable
    init(unknownPair first: UInt8, _ second: UInt8) {
        phase = .unknownPair(first: first, second: second)
    }

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
            if let decision = Self.box(type: field.tag(0), size: size) { return decide(decision) }
            return .failed(ScanFailure(.unknownFormat, .isobmffStyleFileOfNoImageType))
        case .boxOrTGA(let third, let fourth):
            if let decision = Self.box(type: field.tag(0), size: UInt32(third) << 8 | UInt32(fourth)) {
                return decide(decision)
            }
            // ID length 0, no colour map, image type `third`: a TGA, if anything.
            var known = KnownBytes(0, 0, third, fourth)
            known.append(field.u8(0))
            known.append(field.u8(1))
            known.append(field.u8(2))
            known.append(field.u8(3))
            return decide(Self.tga(known))
        case .iconCount(let cursor):
            let count = field.le16(0)
            if count != 0 { return decide(Sniffed(.ico, variant: cursor ? 1 : 0, value: UInt64(count))) }
            // `00 00 02 00 00 00` is a cursor with no images, or the start of an uncompressed
            // true-colour TGA: only the TGA can be valid.
            if cursor { return decide(Self.tga(KnownBytes(0, 0, 2, 0, 0, 0))) }
            return .failed(.malformed(.ico, .iconDirectoryListsNoImages))
        case .pcxEncoding(let version):
            let encoding = field.u8(0)
            // After `0A 00` the byte is also a TGA's image type (ID length 10, colour-map type
            // 0), which can then only be 2, 3, 10 or 11: those go to the TGA parser. Any other
            // value is a PCX encoding, read as Pillow and ImageMagick read it (SPEC.md §3.15).
            switch (version, encoding) {
            case (0, 2), (0, 3), (0, 10), (0, 11):
                var known = KnownBytes(0x0A, 0x00)
                known.append(encoding)
                return decide(Self.tga(known))
            default:
                return decide(Sniffed(.pcx))
            }
        case .commentOpening(let matched):
            let byte = field.u8(0)
            guard byte == ASCII.byte(of: " XPM */", at: Int(matched)) else {
                // The comment goes on; only "*/" ends it, and the byte before was no "*" but
                // at the last position, where "/" would have matched.
                return decide(Sniffed(.xbm, variant: Sniffed.xbmAfterComment, value: byte == 0x2A ? 1 : 0))
            }
            if matched == 6 { return decide(Sniffed(.xpm)) }
            phase = .commentOpening(matched: matched &+ 1)
            return .read(1)
        case .unknownPair(let first, let second):
            // Aseprite: the file size (at least the 128-byte header), then the magic A5E0.
            let size = UInt32(first) | UInt32(second) << 8 | UInt32(field.le16(0)) << 16
            if field.u8(2) == 0xE0 && field.u8(3) == 0xA5 && size >= Sniffed.asepriteHeaderLength { return decide(Sniffed(.aseprite)) }
            return .failed(Self.unknown)
        case .legacyPVROrTGA(let mapType):
            // `34 00 00 00` could only be a TGA of image type 0, which holds no image.
            if mapType == 0 && field.u8(0) == 0 && field.u8(1) == 0 { return decide(Sniffed(.pvr, variant: Sniffed.pvrLegacy)) }
            return decide(Self.tga(KnownBytes(0x34, mapType, field.u8(0), field.u8(1))))
        }
    }

    /// Whether two first bytes already rule out XML, so no SVG: SVGParser's own first two steps.
    @inlinable
    static func rejectsXML(_ first: UInt8, _ second: UInt8) -> Bool {
        #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SVG)
        SVGParser.rejects(first, second)
        #else
        // A build without SVG still names the format it leaves out: the same rule, coarser
        // (a byte-order mark, `<?`, `<!`, `<name`, or white space then `<` or more of it).
        switch first {
        case 0xEF: second != 0xBB
        case 0x3C: !(second == 0x3F || second == 0x21 || ASCII.isLetter(second) || second == 0x5F || second == 0x3A || second >= 0x80)
        default: !(second == 0x3C || ASCII.isXMLSpace(second))
        }
        #endif
    }

    /// The image formats whose first box has type `type`.
    @inlinable
    static func box(type: UInt32, size: UInt32) -> Sniffed? {
        switch type {
        case 0x6674_7970: Sniffed(.isobmff, value: UInt64(size))  // "ftyp": HEIF, AVIF
        case 0x4A58_4C20: Sniffed(.jxl, variant: Sniffed.jxlContainer, value: UInt64(size))  // "JXL "
        case 0x6A50_2020: Sniffed(.jpeg2000, variant: Sniffed.jpeg2000Boxed, value: UInt64(size))  // "jP  "
        default: nil
        }
    }

    /// The first two bytes. Out of line in size builds: the scanner's first-chunk path and the
    /// sniffer's own step both call it.
    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable @inline(__always)
    #endif
    mutating func firstTwo(_ first: UInt8, _ second: UInt8) -> Step {
        switch (first, second) {
        case (0xFF, 0xD8): return decide(Sniffed(.jpeg))
        case (0xFF, 0x0A): return decide(Sniffed(.jxl))
        case (0xFF, 0x4F): return decide(Sniffed(.jpeg2000))
        case (0x89, 0x50): return decide(Sniffed(.png))  // "\x89P"
        case (0x47, 0x49): return decide(Sniffed(.gif))  // "GI"
        case (0x42, 0x4D): return decide(Sniffed(.bmp))  // "BM"
        case (0x52, 0x49): return decide(Sniffed(.webp))  // "RI"
        case (0x49, 0x49): return decide(Sniffed(.tiff, value: 0))  // "II"
        case (0x4D, 0x4D): return decide(Sniffed(.tiff, value: 1))  // "MM"
        case (0x38, 0x42): return decide(Sniffed(.psd))  // "8B"
        case (0x71, 0x6F): return decide(Sniffed(.qoi))  // "qo"
        case (0x44, 0x44): return decide(Sniffed(.dds))  // "DD"
        case (0xAB, 0x4B): return decide(Sniffed(.ktx))  // "«K"
        case (0x69, 0x63): return decide(Sniffed(.icns))  // "ic"
        case (0x76, 0x2F): return decide(Sniffed(.exr))
        case (0x23, 0x3F): return decide(Sniffed(.radiance))  // "#?"
        case (0x23, 0x64): return decide(Sniffed(.xbm))  // "#d"
        case (0x2F, 0x2A):  // "/*": XPM's comment, or a comment before an XBM's defines
            phase = .commentOpening(matched: 0)
            return .read(1)
        case (0x01, 0xDA): return decide(Sniffed(.sgi))
        case (0x59, 0xA6): return decide(Sniffed(.sunRaster))
        case (0x50, 0x31...0x37), (0x50, 0x46), (0x50, 0x66): return decide(Sniffed(.pnm, variant: second))  // "P1"…"P7", "PF", "Pf"
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
        if startsText && second > 1 {
            // Bytes that can't open XML start no signature: on to the checks after two bytes.
            if Self.rejectsXML(first, second) {
                phase = .unknownPair(first: first, second: second)
                return .read(4)
            }
            return decide(Sniffed(.svg, variant: first, value: UInt64(second)))
        }
        if second <= 1 && first != 0x34 { return decide(Self.tga(KnownBytes(first, second))) }
        return laterSignature(first, second)
    }

    /// The signatures of SPEC.md §3.27–§3.39, which no earlier format's first two bytes
    /// match: kept out of `firstTwo`, so that every earlier format's sniffing costs what it
    /// did. Also the legacy PVR header (`34 00 00 00`) against a TGA, and the bytes that
    /// start no signature at all.
    @inlinable @inline(never)
    mutating func laterSignature(_ first: UInt8, _ second: UInt8) -> Step {
        switch (first, second) {
        case (0x25, 0x21): return decide(Sniffed(.eps, variant: 0))  // "%!"
        case (0xC5, 0xD0): return decide(Sniffed(.eps, variant: 1))
        case (0x21, 0x20): return decide(Sniffed(.xpm, variant: Sniffed.xpmVersion2))  // "! "
        case (0x53, 0x49): return decide(Sniffed(.fits))  // "SI"
        case (0xB1, 0x68): return decide(Sniffed(.dcx))
        case (0x44, 0x61): return decide(Sniffed(.msp, variant: 0))  // "Da"
        case (0x4C, 0x69): return decide(Sniffed(.msp, variant: 1))  // "Li"
        case (0x42, 0x4C): return decide(Sniffed(.blp))  // "BL"
        case (0x50, 0x56): return decide(Sniffed(.pvr, value: 0))  // "PV"
        case (0x03, 0x52): return decide(Sniffed(.pvr, value: 1))
        case (0x50, 0x4B): return decide(Sniffed(.pkm))  // "PK"
        case (0x13, 0xAB): return decide(Sniffed(.astc))
        case (0x66, 0x61): return decide(Sniffed(.farbfeld))  // "fa"
        case (0x56, 0x54): return decide(Sniffed(.vtf))  // "VT"
        case (0x46, 0x4F): return decide(Sniffed(.ilbm))  // "FO"
        case (0x34, 0x00), (0x34, 0x01):
            // A legacy PVR header's size, 52, or a TGA with a 52-byte image ID.
            phase = .legacyPVROrTGA(mapType: second)
            return .read(2)
        default:
            // A signature the registry declares (formats.tsv), for formats added there.
            if let kind = Self.registeredSignature(first, second) { return decide(Sniffed(kind)) }
            // No signature in two bytes: Aseprite's magic is at byte 4.
            phase = .unknownPair(first: first, second: second)
            return .read(4)
        }
    }

    /// The sniffer has decided: `.done`, and the scanner starts the parser.
    @inlinable
    mutating func decide(_ decision: Sniffed) -> Step {
        self.decision = decision
        return .done
    }

    /// A TGA, from the header bytes the sniffer consumed.
    @inlinable
    static func tga(_ known: KnownBytes) -> Sniffed {
        Sniffed(.tga, variant: UInt8(truncatingIfNeeded: known.count), value: known.storage)
    }

}
