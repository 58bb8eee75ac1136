import ImageProbe
import ImageProbeFixtures
import Testing


/// Full mode's extra facts (SPEC.md §2): each from the header structure that states it, every
/// input through the chunking harness, and none of them in dimensions-only mode.
@Suite struct ExtraFactsTests {
    static let full = ScanOptions(mode: .full)
    static let dimensionsOnly = ScanOptions(mode: .dimensionsOnly)

    /// The answer, after the chunking harness has checked every split.
    static func info(_ bytes: [UInt8], _ options: ScanOptions = full, sourceLocation: SourceLocation = #_sourceLocation) -> ImageInfo? {
        let outcome = verified(bytes, options, sourceLocation: sourceLocation)
        guard case .done(let info) = outcome.status else {
            Issue.record("not done: \(outcome.status)", sourceLocation: sourceLocation)
            return nil
        }
        return info
    }

    static func noExtras(_ info: ImageInfo?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(info?.dpi == nil && info?.cicp == nil && info?.hasICCProfile == nil && info?.hasGainMap == nil, sourceLocation: sourceLocation)
        #expect(info?.isInterlaced == nil && info?.isMotionPhoto == nil && info?.isHDR == nil, sourceLocation: sourceLocation)
    }

    // MARK: PNG

    static func png(interlace: UInt8 = 0, before: [[UInt8]] = [], after: [[UInt8]] = []) -> [UInt8] {
        var header: [UInt8] = []
        header.append32(64, .bigEndian)
        header.append32(48, .bigEndian)
        header += [8, 2, 0, 0, interlace]
        var bytes = PNGBuilder.signature + PNGBuilder.chunk("IHDR", header)
        for chunk in before { bytes += chunk }
        bytes += PNGBuilder.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        for chunk in after { bytes += chunk }
        return bytes + PNGBuilder.chunk("IEND", [])
    }

    static func pHYs(_ x: Int, _ y: Int, unit: UInt8) -> [UInt8] {
        var data: [UInt8] = []
        data.append32(x, .bigEndian)
        data.append32(y, .bigEndian)
        return PNGBuilder.chunk("pHYs", data + [unit])
    }

    @Test func pngResolutionInPixelsPerMetre() {
        // Pillow's dpi=(300, 300) writes 11811 per metre; 2835 is 72 dpi; unit 0 is an aspect ratio.
        #expect(Self.info(Self.png(before: [Self.pHYs(11811, 11811, unit: 1)]))?.dpi == Resolution(x: 300, y: 300))
        #expect(Self.info(Self.png(before: [Self.pHYs(2835, 3780, unit: 1)]))?.dpi == Resolution(x: 72, y: 96))
        #expect(Self.info(Self.png(before: [Self.pHYs(1, 1, unit: 0)]))?.dpi == nil)
        #expect(Self.info(Self.png(before: [Self.pHYs(0, 11811, unit: 1)]))?.dpi == nil)
        // pHYs after the image data is out of place: not read.
        #expect(Self.info(Self.png(after: [Self.pHYs(11811, 11811, unit: 1)]))?.dpi == nil)
    }

    @Test func pngColour() {
        let profile = PNGBuilder.chunk("iCCP", Array("sRGB".utf8) + [0, 0, 0x78, 0x9C, 0x03, 0, 0, 0, 0, 1])
        let pq = PNGBuilder.chunk("cICP", [9, 16, 0, 1])
        let withProfile = Self.info(Self.png(before: [profile]))
        #expect(withProfile?.hasICCProfile == true)
        #expect(withProfile?.cicp == nil && withProfile?.isHDR == nil)
        let hdr = Self.info(Self.png(before: [pq]))
        #expect(hdr?.hasICCProfile == false)
        #expect(hdr?.cicp == CICP(colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 0, isFullRange: true))
        #expect(hdr?.isHDR == true)
        let sdr = Self.info(Self.png(before: [PNGBuilder.chunk("cICP", [1, 13, 0, 1])]))
        #expect(sdr?.isHDR == false)
    }

    @Test func pngInterlacing() {
        #expect(Self.info(Self.png(interlace: 1))?.isInterlaced == true)
        #expect(Self.info(Self.png(interlace: 0))?.isInterlaced == false)
        Self.noExtras(Self.info(Self.png(interlace: 1, before: [Self.pHYs(11811, 11811, unit: 1)]), Self.dimensionsOnly))
    }

    // MARK: GIF

    @Test func gifFirstImageInterlaced() {
        for interlaced in [false, true] {
            var bytes = Array("GIF89a".utf8) + [64, 0, 48, 0, 0, 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, 64, 0, 48, 0, interlaced ? 0x40 : 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
            #expect(Self.info(bytes)?.isInterlaced == interlaced)
            Self.noExtras(Self.info(bytes, Self.dimensionsOnly))
        }
    }

    // MARK: JPEG

    static func app(_ marker: UInt8, _ identifier: String, _ rest: [UInt8]) -> [UInt8] {
        JPEGBuilder.segment(marker, Array(identifier.utf8) + rest)
    }

    static func jfif(units: UInt8, x: Int, y: Int) -> [UInt8] {
        JPEGBuilder.segment(0xE0, Array("JFIF".utf8) + [0, 1, 2, units, UInt8(x >> 8), UInt8(x & 0xFF), UInt8(y >> 8), UInt8(y & 0xFF), 0, 0])
    }

    static func xmp(_ packet: String) -> [UInt8] {
        JPEGBuilder.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8))
    }

    static let motionPacket = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MotionPhoto="1" \
        GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0"/></rdf:RDF></x:xmpmeta>
        """
    static let ultraHDRPacket = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"/></rdf:RDF></x:xmpmeta>
        """

    static func jpeg(_ segments: [[UInt8]]) -> [UInt8] {
        JPEGBuilder.image(before: segments.flatMap { $0 }, width: 64, height: 48).bytes
    }

    @Test func jpegDensity() {
        #expect(Self.info(Self.jpeg([Self.jfif(units: 1, x: 300, y: 300)]))?.dpi == Resolution(x: 300, y: 300))
        // Dots per centimetre: 118 is 299.72 dpi.
        #expect(Self.info(Self.jpeg([Self.jfif(units: 2, x: 118, y: 118)]))?.dpi == Resolution(x: 300, y: 300))
        #expect(Self.info(Self.jpeg([Self.jfif(units: 0, x: 1, y: 1)]))?.dpi == nil)
    }

    @Test func jpegExifResolutionWinsOverJFIF() {
        // IFD0 with XResolution and YResolution 240/1, unit inch, stored after the entries.
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 3]
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) {
            tiff.append16(tag, .bigEndian)
            tiff.append16(type, .bigEndian)
            tiff.append32(count, .bigEndian)
            tiff.append32(value, .bigEndian)
        }
        entry(282, 5, 1, 50)
        entry(283, 5, 1, 58)
        entry(296, 3, 1, 2 << 16)
        tiff.append32(0, .bigEndian)
        for _ in 0..<2 {
            tiff.append32(240, .bigEndian)
            tiff.append32(1, .bigEndian)
        }
        let file = Self.jpeg([Self.jfif(units: 1, x: 72, y: 72), JPEGBuilder.exif(tiff)])
        #expect(Self.info(file)?.dpi == Resolution(x: 240, y: 240))
    }

    @Test func jpegColourAndGainMaps() {
        let icc = Self.app(0xE2, "ICC_PROFILE", [0, 1, 1] + [UInt8](repeating: 7, count: 40))
        let iso = Self.app(0xE2, "urn:iso:std:iso:ts:21496:-1", [0, 0, 0, 0, 0])
        let plain = Self.info(Self.jpeg([JPEGBuilder.jfif]))
        #expect(plain?.hasICCProfile == false && plain?.hasGainMap == false && plain?.isMotionPhoto == false)
        #expect(plain?.isHDR == false)
        #expect(Self.info(Self.jpeg([JPEGBuilder.jfif, icc]))?.hasICCProfile == true)
        let gainMapped = Self.info(Self.jpeg([JPEGBuilder.jfif, iso]))
        #expect(gainMapped?.hasGainMap == true && gainMapped?.isHDR == true)
        let ultra = Self.info(Self.jpeg([JPEGBuilder.jfif, Self.xmp(Self.ultraHDRPacket)]))
        #expect(ultra?.hasGainMap == true)
        let motion = Self.info(Self.jpeg([JPEGBuilder.jfif, Self.xmp(Self.motionPacket)]))
        #expect(motion?.isMotionPhoto == true && motion?.hasGainMap == false)
        // A packet longer than a field, and an Exif block before it: both read.
        let long = Self.xmp(String(repeating: " ", count: 300) + Self.motionPacket)
        #expect(Self.info(Self.jpeg([JPEGBuilder.exif(TIFFBuilder(entries: [.orientation(6)]).build()), long]))?.isMotionPhoto == true)
        Self.noExtras(Self.info(Self.jpeg([JPEGBuilder.jfif, icc, iso, Self.xmp(Self.motionPacket)]), Self.dimensionsOnly))
    }

    /// A primary JPEG with an MPF index whose second image (type `type`) follows it, carrying
    /// `secondSegments`; the primary carries `primarySegments`.
    static func multiPicture(type: UInt32 = 0, primarySegments: [[UInt8]] = [], secondSegments: [[UInt8]], bigEndian: Bool = true) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func u32(_ value: Int) -> [UInt8] {
            let bytes = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
        let second = JPEGBuilder.image(before: secondSegments.flatMap { $0 }, width: 16, height: 12).bytes
        // The MPF segment: "MPF\0", the TIFF header, an IFD of three entries, then two MP entries.
        func mpf(secondOffset: Int) -> [UInt8] {
            var tiff: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
            tiff += u16(3)
            tiff += u16(0xB000) + u16(7) + u32(4) + Array("0100".utf8)
            tiff += u16(0xB001) + u16(4) + u32(1) + u32(2)
            tiff += u16(0xB002) + u16(7) + u32(32) + u32(8 + 2 + 36 + 4)
            tiff += u32(0)  // no next IFD
            tiff += u32(0x0003_0000) + u32(1000) + u32(0) + u16(0) + u16(0)
            tiff += u32(Int(type)) + u32(second.count) + u32(secondOffset) + u16(0) + u16(0)
            return JPEGBuilder.segment(0xE2, Array("MPF".utf8) + [0] + tiff)
        }
        let before = primarySegments.flatMap { $0 }
        // The second image's offset counts from the MPF TIFF header: after SOI, JFIF, `before`,
        // the APP2 marker, length and "MPF\0".
        let probe = JPEGBuilder.image(before: JPEGBuilder.jfif + before + mpf(secondOffset: 0), width: 64, height: 48).bytes
        let base = 2 + JPEGBuilder.jfif.count + before.count + 4 + 4
        let primary = JPEGBuilder.image(before: JPEGBuilder.jfif + before + mpf(secondOffset: probe.count - base), width: 64, height: 48).bytes
        return primary + second
    }

    static let appleAuxiliaryPacket = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:apdi="http://ns.apple.com/pixeldatainfo/1.0/" \
        apdi:AuxiliaryImageType="urn:com:apple:photo:2020:aux:hdrgainmap"/></rdf:RDF></x:xmpmeta>
        """

    @Test func jpegGainMapInTheSecondImage() {
        // Apple's HDR JPEGs: the gain map's XMP is in the MPF second image, after the primary.
        for bigEndian in [true, false] {
            let apple = Self.multiPicture(secondSegments: [Self.xmp(Self.appleAuxiliaryPacket)], bigEndian: bigEndian)
            let info = Self.info(apple)
            #expect(info?.hasGainMap == true && info?.width == 64 && info?.height == 48)
        }
        let iso = Self.app(0xE2, "urn:iso:std:iso:ts:21496:-1", [0, 0, 0, 0, 0])
        #expect(Self.info(Self.multiPicture(secondSegments: [iso]))?.hasGainMap == true)
        // A second image that is no gain map, and one of a type other than Undefined (a
        // disparity view), which isn't followed.
        #expect(Self.info(Self.multiPicture(secondSegments: [JPEGBuilder.jfif]))?.hasGainMap == false)
        #expect(Self.info(Self.multiPicture(type: 0x0002_0002, secondSegments: [Self.xmp(Self.appleAuxiliaryPacket)]))?.hasGainMap == false)
        // Dimensions only: the answer at the primary's frame header, nothing followed.
        let dimensions = Self.info(Self.multiPicture(secondSegments: [Self.xmp(Self.appleAuxiliaryPacket)]), Self.dimensionsOnly)
        Self.noExtras(dimensions)
    }

    // MARK: HEIF and AVIF

    static func colr(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) -> Box.Property {
        var payload = Array("nclx".utf8)
        for value in [primaries, transfer, matrix] { payload.append16(value, .bigEndian) }
        return .other("colr", payload + [fullRange ? 0x80 : 0])
    }

    static func heif(_ extra: [Box.Property], type: String = "av01", major: String = "avif", items: [Box.Item] = []) -> [UInt8] {
        let properties: [Box.Property] = [.ispe(width: 64, height: 48)] + extra
        let primary = Box.Item(id: 1, type: type, properties: Array(1...properties.count))
        return Box.file(major: major, compatible: ["mif1", major],
                        meta: Box.meta(primary: 1, items: [primary] + items, properties: properties))
    }

    @Test func heifColourOfThePrimaryItem() {
        let pq = Self.info(Self.heif([Self.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: false)]))
        #expect(pq?.cicp == CICP(colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 9, isFullRange: false))
        #expect(pq?.isHDR == true && pq?.hasICCProfile == false && pq?.hasGainMap == false)
        let sdr = Self.info(Self.heif([Self.colr(primaries: 1, transfer: 13, matrix: 6, fullRange: true)]))
        #expect(sdr?.isHDR == false && sdr?.cicp?.isFullRange == true)
        let profiled = Self.info(Self.heif([.other("colr", Array("prof".utf8) + [1, 2, 3, 4])]))
        #expect(profiled?.hasICCProfile == true && profiled?.cicp == nil)
        // Another item's colr (here a gain map's) is not the primary's.
        let file = Box.file(
            major: "avif", compatible: ["mif1", "avif"],
            meta: Box.meta(
                primary: 1, items: [Box.Item(id: 1, type: "av01", properties: [1]), Box.Item(id: 2, type: "av01", properties: [1, 2])],
                properties: [.ispe(width: 64, height: 48), Self.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: true)]))
        #expect(Self.info(file)?.cicp == nil)
        Self.noExtras(Self.info(Self.heif([Self.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: false)]), Self.dimensionsOnly))
    }

    @Test func heifGainMaps() {
        // An ISO 21496-1 tone-map item (AVIF, libavif), or Apple's auxiliary gain map.
        let tmap = Box.Item(id: 2, type: "tmap", properties: [])
        #expect(Self.info(Self.heif([], items: [tmap]))?.hasGainMap == true)
        let apple = Box.Property.other("auxC", [0, 0, 0, 0] + Array("urn:com:apple:photo:2020:aux:hdrgainmap".utf8) + [0])
        let auxiliary = Box.Item(id: 2, type: "hvc1", properties: [2])
        let heic = Self.heif([apple], type: "hvc1", major: "heic", items: [auxiliary])
        #expect(Self.info(heic)?.hasGainMap == true)
        let alpha = Box.Property.other("auxC", [0, 0, 0, 0] + Array("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha".utf8) + [0])
        #expect(Self.info(Self.heif([alpha], type: "hvc1", major: "heic", items: [auxiliary]))?.hasGainMap == false)
    }

    // MARK: WebP

    @Test func webpICCFlag() {
        for flags in [UInt8(0x20), 0x00] {
            var payload: [UInt8] = [flags, 0, 0, 0]
            payload.append24(63, .littleEndian)
            payload.append24(47, .littleEndian)
            var bytes = Array("RIFF".utf8)
            bytes.append32(4 + 8 + payload.count, .littleEndian)
            bytes += Array("WEBPVP8X".utf8)
            bytes.append32(payload.count, .littleEndian)
            bytes += payload
            #expect(Self.info(bytes)?.hasICCProfile == (flags != 0))
        }
    }

    // MARK: maxPixels

    @Test func tooManyPixelsIsRefusedWithTheSize() {
        var options = Self.full
        options.maxPixels = 1000
        let outcome = verified(Self.png(), options)
        guard case .refused(let info, let failure) = outcome.status else {
            Issue.record("\(outcome.status)")
            return
        }
        #expect(failure.code == .tooManyPixels && failure.format == .png)
        #expect(info.width == 64 && info.height == 48)
        // At the limit, and without one, the answer stands.
        options.maxPixels = 64 * 48
        #expect(Self.info(Self.png(), options)?.width == 64)
        options.maxPixels = nil
        #expect(Self.info(Self.png(), options)?.width == 64)
    }

    @Test func animationModeCountsEveryFrame() {
        // Three 16x16 frames: 768 pixels in all, 256 each.
        let frame = AnimatedGIFBuilder.Block.image(centiseconds: 10, x: 0, y: 0, width: 16, height: 16)
        let bytes = AnimatedGIFBuilder.file(width: 16, height: 16, blocks: [.loop(0), frame, frame, frame])
        var options = ScanOptions(mode: .animation)
        options.maxPixels = 700
        #expect(failureCodeOrRefusal(verified(bytes, options)) == .tooManyPixels)
        options.mode = .full
        #expect(failureCodeOrRefusal(verified(bytes, options)) == nil)
    }

    func failureCodeOrRefusal(_ outcome: ScanOutcome) -> ScanFailure.Code? {
        outcome.status.failure?.code
    }
}
