import ImageProbe
import ImageProbeFixtures
import Testing

/// The failure reasons no other suite's inputs reach, each from a crafted input: every
/// declared reason is reached by a test or marked defensive (Scripts/failure-reachability.py).
@Suite struct ReachabilityTests {
    /// A failure's code and message, whether it ended the scan or made the answer partial.
    struct Reason: Equatable, CustomStringConvertible {
        var code: ScanFailure.Code
        var message: String

        init(_ code: ScanFailure.Code, _ message: String) {
            self.code = code
            self.message = message
        }

        var description: String { "\(code.name): \(message)" }
    }

    static func reason(_ outcome: ScanOutcome) -> Reason? {
        switch outcome.status {
        case .unsupported(let failure), .refused(_, let failure): Reason(failure.code, failure.message)
        case .done(let info): info.partialReason.map { Reason($0.code, $0.message) }
        case .needMore: nil
        }
    }

    static let png = PNGBuilder.signature

    static func be32(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append32(value, .bigEndian)
        return bytes
    }

    static func le32(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append32(value, .littleEndian)
        return bytes
    }

    // MARK: Identification

    @Test func sniffer() {
        // A small box of a type no image format starts with.
        let box = [0, 0, 0, 0x18] + ascii("free") + [UInt8](repeating: 0, count: 16)
        #expect(Self.reason(verified(box)) == Reason(.unknownFormat, "ISOBMFF-style file of no image type"))
        // An icon directory (type 1) of zero images; a cursor's would be read as a TGA.
        let icon: [UInt8] = [0, 0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        #expect(Self.reason(verified(icon)) == Reason(.malformed, "icon directory lists no images"))
    }

    // MARK: Classic formats

    @Test func png() {
        // CgBI's payload is 4 bytes.
        let shortCgBI = Self.png + Self.be32(2) + ascii("CgBI") + [UInt8](repeating: 0, count: 16)
        #expect(Self.reason(verified(shortCgBI)) == Reason(.malformed, "bad CgBI chunk length"))
        let cgbiThenIDAT = Self.png + PNGBuilder.chunk("CgBI", [0x50, 0x00, 0x20, 0x02]) + PNGBuilder.imageData + PNGBuilder.end
        #expect(Self.reason(verified(cgbiThenIDAT)) == Reason(.malformed, "CgBI is not followed by IHDR"))
        // Full mode reads the chunk after IHDR.
        let huge = Self.png + PNGBuilder.header(width: 1, height: 1) + Self.be32(0x8000_0000) + ascii("tEXt") + [UInt8](repeating: 0, count: 8)
        #expect(Self.reason(verified(huge)) == Reason(.malformed, "chunk length over 2^31-1"))
    }

    @Test func webp() {
        #expect(Self.reason(verified(ascii("RIXX") + [UInt8](repeating: 0, count: 26))) == Reason(.unknownFormat, "not a RIFF file"))
        let lossless = ascii("RIFF") + Self.le32(18) + ascii("WEBPVP8L") + Self.le32(5) + [0x2E, 0, 0, 0, 0, 0]
        #expect(Self.reason(verified(lossless)) == Reason(.malformed, "VP8L signature missing"))
        // Full mode walks the chunks after an animated VP8X, whose payload must hold 10 bytes.
        let extended = ascii("RIFF") + Self.le32(30) + ascii("WEBPVP8X") + Self.le32(8) + [0x02] + [UInt8](repeating: 0, count: 17)
        #expect(Self.reason(verified(extended)) == Reason(.malformed, "VP8X chunk too short"))
    }

    @Test func tiff() {
        // BigTIFF's offset size must be 8.
        let badHeader: [UInt8] = [0x49, 0x49, 0x2B, 0x00, 0x04, 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 8)
        #expect(Self.reason(verified(badHeader)) == Reason(.malformed, "bad BigTIFF header"))
        // A 64-bit IFD0 offset whose entry count would end past 2^64.
        let farIFD: [UInt8] = [0x49, 0x49, 0x2B, 0x00, 0x08, 0x00, 0x00, 0x00] + [UInt8](repeating: 0xFF, count: 8)
        #expect(Self.reason(verified(farIFD)) == Reason(.malformed, "IFD0 lies outside the TIFF data"))
    }

    @Test func jpeg() {
        // Lf 8 holds no component spec.
        let frame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x08, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01] + [UInt8](repeating: 0, count: 8)
        #expect(Self.reason(verified(frame)) == Reason(.malformed, "frame header too short"))
    }

    @Test func pnm() {
        let tail = ascii("WIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n") + [0]
        #expect(Self.reason(verified(ascii("P7 x\n") + tail)) == Reason(.malformed, "text after P7"))
        let endText = ascii("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nENDHDR x\n") + [0]
        #expect(Self.reason(verified(endText)) == Reason(.malformed, "text after ENDHDR"))
    }

    @Test func fits() {
        // NAXIS1 above 2^31-1.
        var cards = FITSBuilder.primaryCards(bitpix: 8, axes: [5])
        cards[3] = FITSBuilder.card("NAXIS1", "99999999999")
        #expect(Self.reason(verified(FITSBuilder.header(cards))) == Reason(.malformed, "FITS value too large"))
    }

    @Test func gif() {
        var bytes = ascii("GIF89a") + [1, 0, 1, 0, 0, 0, 0]
        for _ in 0..<3 { bytes += [0x21, 0xFE, 0x01, 0x41, 0x00] }  // comments
        bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        var options = ScanOptions()
        options.maxEntries = 2
        #expect(Self.reason(verified(bytes, options)) == Reason(.limitExceeded, "more extension blocks than maxEntries"))
    }

    @Test func exr() {
        // 35 name bytes an attribute ("a"×30, "int" and their NULs): past 64 KiB before dataWindow.
        var bytes: [UInt8] = [0x76, 0x2F, 0x31, 0x01] + Self.le32(2)
        for _ in 0..<2000 { bytes += EXRBuilder.attribute(String(repeating: "a", count: 30), "int", [0, 0, 0, 0]) }
        bytes.append(0)
        #expect(Self.reason(verifiedLong(bytes, dimensionsOnly)) == Reason(.limitExceeded, "names longer than 64 KiB in all"))
    }

    // MARK: ISOBMFF

    static let ftyp = Box.ftyp(major: "heic", compatible: ["mif1", "heic"])
    static let hdlr = Box.fullBox("hdlr", [0, 0, 0, 0] + ascii("pict") + [UInt8](repeating: 0, count: 12) + [0])
    static let pitm = Box.fullBox("pitm", [0, 1])
    static let ipco = Box.box("ipco", Box.Property.ispe(width: 64, height: 48).bytes)

    /// ftyp, then a meta box of `children`, then a little image data.
    static func heif(_ children: [UInt8]) -> [UInt8] {
        ftyp + Box.fullBox("meta", children) + Box.box("mdat", [1, 2, 3, 4])
    }

    @Test func isobmffBoxes() {
        // A 64-bit size smaller than the 16-byte header.
        var large = Self.ftyp + [0, 0, 0, 1] + ascii("free")
        large.append64(8, .bigEndian)
        large += [UInt8](repeating: 0, count: 8)
        #expect(Self.reason(verified(large)) == Reason(.malformed, "bad 64-bit box size"))
        // meta must hold its version and flags.
        let smallMeta = Self.ftyp + Box.box("meta", [0, 0]) + Box.box("mdat", [1, 2, 3, 4])
        #expect(Self.reason(verified(smallMeta)) == Reason(.malformed, "meta box too small"))
        #expect(Self.reason(verified(Self.heif(Self.hdlr))) == Reason(.malformed, "no primary item (pitm)"))
    }

    @Test func isobmffBrands() {
        var options = ScanOptions()
        options.maxEntries = 1
        let ftyp = Box.ftyp(major: "heic", compatible: ["mif1", "heic", "miaf"])
        let bytes = ftyp + Box.fullBox("meta", Self.hdlr + Self.pitm) + Box.box("mdat", [1, 2, 3, 4])
        #expect(Self.reason(verified(bytes, options)) == Reason(.limitExceeded, "more brands than maxEntries"))
    }

    @Test func isobmffAssociations() {
        // One entry announced, none there.
        let missing = Self.heif(Self.hdlr + Self.pitm + Box.box("iprp", Self.ipco + Box.fullBox("ipma", Self.be32(1))))
        #expect(Self.reason(verified(missing)) == Reason(.malformed, "ipma entries overrun their box"))
        // Item 1 with five associations, one there.
        let short = Self.heif(Self.hdlr + Self.pitm + Box.box("iprp", Self.ipco + Box.fullBox("ipma", Self.be32(1) + [0, 1, 5, 0x81])))
        #expect(Self.reason(verified(short)) == Reason(.malformed, "ipma entry overruns its box"))
        // A hundred entries of other items, each with no association.
        var entries = Self.be32(100)
        for id in 2..<102 { entries += [0, UInt8(id), 0] }
        var options = ScanOptions()
        options.maxEntries = 30
        let many = Self.heif(Self.hdlr + Self.pitm + Box.box("iprp", Self.ipco + Box.fullBox("ipma", entries)))
        #expect(Self.reason(verified(many, options)) == Reason(.limitExceeded, "more ipma entries than maxEntries"))
    }

    @Test func isobmffAssociationsBeforeProperties() {
        // Without pitm before it, an association ahead of ipco belongs to no known item.
        let ipma = Box.fullBox("ipma", Self.be32(1) + [0, 1, 1, 0x81])
        let late = Self.heif(Self.hdlr + Box.box("iprp", ipma + Self.ipco) + Self.pitm)
        #expect(Self.reason(verified(late)) == Reason(.unsupportedFeature, "ipma before ipco, and pitm after both"))
        // The primary's associations ahead of ipco are kept until it comes, in a bounded journal.
        let sixty = Box.fullBox("ipma", Self.be32(1) + [0, 1, 60] + (1...60).map { 0x80 | UInt8($0) })
        let kept = Self.heif(Self.hdlr + Self.pitm + Box.box("iprp", sixty + Self.ipco))
        #expect(Self.reason(verified(kept)) == Reason(.limitExceeded, "too many associations before ipco"))
    }

    @Test func isobmffPropertyIndicesAreFifteenBits() {
        let properties = [UInt8]((0..<32768).map { _ in Box.box("free", []) }.joined())
        let bytes = Self.heif(Self.hdlr + Self.pitm + Box.box("iprp", Box.box("ipco", properties)))
        #expect(Self.reason(verifiedLong(bytes)) == Reason(.limitExceeded, "more than 32767 properties"))
    }

    @Test func isobmffTrack() {
        // An image sequence whose stts announces five runs and holds none.
        let stbl = Box.box("stbl", Box.fullBox("stts", Self.be32(5)))
        let moov = Box.box("moov", Box.box("trak", Box.box("mdia", Box.box("minf", stbl))))
        let bytes = Box.ftyp(major: "msf1", compatible: ["msf1", "heic"]) + moov + Box.box("mdat", [1, 2, 3, 4])
        #expect(Self.reason(verified(bytes)) == Reason(.malformed, "stts entries overrun their box"))
    }

    // MARK: JPEG XL

    @Test func jxlMetadata() {
        let animation = ScanOptions(mode: .animation)
        // Walking an animation needs every field right: 40 bits per sample is out of range.
        var deep = JXLImage.animation([.shown(10), .shown(10, last: true)])
        deep.bitDepth = 40
        #expect(Self.reason(verified(JXLWriter.write(deep).bytes, animation)) == Reason(.malformed, "ImageMetadata field out of range"))
        // Two metadata extensions of 2^64-1 bits each, written by hand: the writer would
        // write their bits too.
        let image = JXLImage.animation([.shown(10, last: true)])
        var writer = JXLWriter(image: image)
        writer.sizeHeader(image.size)
        writer.metadata()
        writer.bool(true)  // tone mapping all default
        writer.u64(3)  // extensions 0 and 1
        writer.u64(UInt64.max)
        writer.u64(UInt64.max)
        var bytes = [0xFF, 0x0A] + writer.bits.bytes
        bytes.appendFiller(16)
        #expect(Self.reason(verified(bytes, animation)) == Reason(.malformed, "extension sizes overflow 64 bits"))
    }
}
