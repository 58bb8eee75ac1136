/// Up to eight bytes the sniffer consumed before handing over, for parsers of formats
/// without a signature (TGA) whose header starts inside them.
@usableFromInline
struct KnownBytes: Sendable {
    @usableFromInline var storage: UInt64 = 0
    /// How many bytes `storage` holds, from its low byte: 0...8.
    @usableFromInline var held: UInt8 = 0

    /// Bytes already packed.
    init(storage: UInt64, count: Int) {
        self.storage = storage
        self.held = UInt8(min(8, max(0, count)))
    }

    /// How many bytes it holds.
    var count: Int { Int(held) }

    /// Two known bytes. (No variadic initializer: it would allocate an array inside `feed`.)
    init(_ b0: UInt8, _ b1: UInt8) {
        append(b0)
        append(b1)
    }

    init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        self.init(b0, b1)
        append(b2)
        append(b3)
    }

    init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8, _ b5: UInt8) {
        self.init(b0, b1, b2, b3)
        append(b4)
        append(b5)
    }

    mutating func append(_ byte: UInt8) {
        guard held < 8 else { return }
        storage |= UInt64(byte) << UInt64(held &* 8)
        held &+= 1
    }

    /// The byte at `index`, which must be below `count`.
    subscript(index: Int) -> UInt8 {
        assert(index >= 0 && index < count)
        return UInt8(truncatingIfNeeded: storage >> UInt64(index * 8))
    }
}

/// What the sniffer read before it started a parser, for the parser's `init(sniffed:)`. Each
/// case means the same to every parser that receives it.
@usableFromInline
enum Sniffed: Sendable {
    /// The two bytes formats.tsv lists as the format's signature, as read.
    case signature(UInt8, UInt8)
    /// An ISOBMFF-style first box of a type formats.tsv lists for the format: `00 00`, the
    /// rest of its 32-bit size, and its type.
    case box(size: UInt32)
    /// An icon directory's first four bytes (`00 00 01 00`, or `00 00 02 00` for cursors)
    /// and its image count, which is not 0.
    case iconDirectory(isCursor: Bool, count: UInt16)
    /// The bytes read while telling apart formats whose first bytes are alike, for a format
    /// whose header starts with them (a TGA, which has no signature at all).
    case headerStart(KnownBytes)
    /// `/*` and the comment's first bytes.
    case comment(CommentOpening)
    /// Two bytes that can open XML: a byte-order mark, `<`, or white space.
    case markup(UInt8, UInt8)

    /// How a file's opening comment went on.
    @usableFromInline
    enum CommentOpening: Sendable {
        /// ` XPM */`: an XPM 3 file's marker.
        case xpmMarker
        /// Any other comment; `lastByteWasStar` when the byte that ended the match was `*`.
        case other(lastByteWasStar: Bool)
    }

    /// The first byte of a signature; 0 for the other cases.
    var signatureFirst: UInt8 {
        if case .signature(let first, _) = self { return first }
        return 0
    }
}

/// Identifies the format: a classifier over the first bytes, run by the field loop like a
/// parser but holding no answer. When it has decided (`.done`), `decision` says which parser
/// the scanner starts, and with what it read.
///
/// Two bytes decide almost every format: those that formats.tsv lists as a format's
/// signature go straight to its parser, which checks the rest of its signature in its first
/// field. The rules below are for the formats whose first bytes are alike and need more to
/// tell apart: a leading `00 00` (an icon, a cursor, an ISOBMFF-style box, a TGA), `0A` (PCX
/// or TGA), `/*` (XPM or XBM), `34` (a legacy PVR header or a TGA), text (SVG), and bytes that
/// start no signature (a TGA, or Aseprite's magic at byte 4). TGA has no signature at all, so
/// it is tried last: only when nothing else matched and its header can still be valid
/// (SPEC.md §3, "Identification").
@usableFromInline
struct Sniffer: FieldConsumer, Sendable {

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

    /// The parser to start, and what the sniffer read for it.
    @usableFromInline
    struct Decision: Sendable {
        @usableFromInline var kind: ParserKind
        @usableFromInline var sniffed: Sniffed
    }

    @usableFromInline var phase: Phase
    /// The parser to start, once decided.
    @usableFromInline var decision: Decision?

    @usableFromInline static var firstWidth: Int { 2 }

    var firstStep: Step { .read(Self.firstWidth) }

    @inlinable
    init() {
        phase = .firstTwo
        decision = nil
    }

    static let unknown = ScanFailure(.unknownFormat, .noKnownImageSignature)

    /// Aseprite's header: a smaller file size is no Aseprite file.
    static let asepriteHeaderLength: UInt32 = 128

    @inline(__always)  // into the field loop, its one caller
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
            if let kind = ParserKind.box(type: field.tag(0)) { return decide(kind, .box(size: size)) }
            return .failed(ScanFailure(.unknownFormat, .isobmffStyleFileOfNoImageType))
        case .boxOrTGA(let third, let fourth):
            if let kind = ParserKind.box(type: field.tag(0)) {
                return decide(kind, .box(size: UInt32(third) << 8 | UInt32(fourth)))
            }
            // ID length 0, no colour map, image type `third`: a TGA, if anything.
            var known = KnownBytes(0, 0, third, fourth)
            known.append(field.u8(0))
            known.append(field.u8(1))
            known.append(field.u8(2))
            known.append(field.u8(3))
            return decide(.tga, .headerStart(known))
        case .iconCount(let cursor):
            let count = field.le16(0)
            if count != 0 { return decide(.ico, .iconDirectory(isCursor: cursor, count: count)) }
            // `00 00 02 00 00 00` is a cursor with no images, or the start of an uncompressed
            // true-colour TGA: only the TGA can be valid.
            if cursor { return decide(.tga, .headerStart(KnownBytes(0, 0, 2, 0, 0, 0))) }
            return .failed(.malformed(.ico, .iconDirectoryListsNoImages))
        case .pcxEncoding(let version):
            let encoding = field.u8(0)
            // After `0A 00` the byte is also a TGA's image type (ID length 10, colour-map type
            // 0), which can then only be 2, 3, 10 or 11: those go to the TGA parser. Any other
            // value is a PCX encoding, read as Pillow and ImageMagick read it (SPEC.md §3.15).
            var known = KnownBytes(0x0A, version)
            known.append(encoding)
            switch (version, encoding) {
            case (0, 2), (0, 3), (0, 10), (0, 11):
                return decide(.tga, .headerStart(known))
            default:
                return decide(.pcx, .headerStart(known))
            }
        case .commentOpening(let matched):
            let byte = field.u8(0)
            guard byte == ASCII.byte(of: " XPM */", at: Int(matched)) else {
                // The comment goes on; only "*/" ends it, and the byte before was no "*" but
                // at the last position, where "/" would have matched.
                return decide(.xbm, .comment(.other(lastByteWasStar: byte == 0x2A)))
            }
            if matched == 6 { return decide(.xpm, .comment(.xpmMarker)) }
            phase = .commentOpening(matched: matched &+ 1)
            return .read(1)
        case .unknownPair(let first, let second):
            // Aseprite: the file size (at least the 128-byte header), then the magic A5E0.
            let size = UInt32(first) | UInt32(second) << 8 | UInt32(field.le16(0)) << 16
            if field.u8(2) == 0xE0 && field.u8(3) == 0xA5 && size >= Self.asepriteHeaderLength {
                var known = KnownBytes(first, second)
                for index in 0..<4 { known.append(field.u8(index)) }
                return decide(.aseprite, .headerStart(known))
            }
            return .failed(Self.unknown)
        case .legacyPVROrTGA(let mapType):
            let known = KnownBytes(0x34, mapType, field.u8(0), field.u8(1))
            // `34 00 00 00` could only be a TGA of image type 0, which holds no image.
            if mapType == 0 && field.u8(0) == 0 && field.u8(1) == 0 { return decide(.pvr, .headerStart(known)) }
            return decide(.tga, .headerStart(known))
        }
    }

    /// Whether two first bytes already rule out XML, so no SVG: SVGParser's own first two steps.
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

    /// The first two bytes: a registered signature, or one of the rules above.
    mutating func firstTwo(_ first: UInt8, _ second: UInt8) -> Step {
        // formats.tsv's signatures never start with the bytes the rules look at
        // (Scripts/registry.py refuses them), so the order doesn't matter.
        if let kind = ParserKind.signature(first, second) { return decide(kind, .signature(first, second)) }
        return rules(first, second)
    }

    /// The first two bytes when they are no registered signature.
    mutating func rules(_ first: UInt8, _ second: UInt8) -> Step {
        switch (first, second) {
        case (0x2F, 0x2A):  // "/*": XPM's comment, or a comment before an XBM's defines
            phase = .commentOpening(matched: 0)
            return .read(1)
        case (0x0A, 0x00), (0x0A, 0x02...0x05):
            phase = .pcxEncoding(version: second)
            return .read(1)
        case (0x00, 0x00):
            phase = .zeroPrefix
            return .read(2)
        case (0x34, 0x00), (0x34, 0x01):
            // A legacy PVR header's size, 52, or a TGA with a 52-byte image ID.
            phase = .legacyPVROrTGA(mapType: second)
            return .read(2)
        default:
            break
        }
        // Text: an XML root, perhaps after a byte-order mark or white space. A TGA could start
        // with the same byte, but then its second byte (the colour map type) is 0 or 1.
        let startsText = first == 0x3C || first == 0xEF || first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D
        if startsText && second > 1 && !Self.rejectsXML(first, second) {
            return decide(.svg, .markup(first, second))
        }
        if second <= 1 { return decide(.tga, .headerStart(KnownBytes(first, second))) }
        // No signature in two bytes: Aseprite's magic is at byte 4.
        phase = .unknownPair(first: first, second: second)
        return .read(4)
    }

    /// The sniffer has decided: `.done`, and the scanner starts the parser.
    mutating func decide(_ kind: ParserKind, _ sniffed: Sniffed) -> Step {
        decision = Decision(kind: kind, sniffed: sniffed)
        return .done
    }
}
