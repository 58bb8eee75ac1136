import ImageProbe
import ImageProbeFixtures
import Testing

/// HEIF and AVIF facts where the reference readers find them (SPEC.md §3.8, "Extra facts"):
/// an AV1 sequence header's colour, the codecs' bit depths, a grid's first tile's colour and
/// the gain maps' other auxiliary types. Every input goes through the chunking harness.
@Suite struct HEIFReferenceFactsTests {
    typealias Box = ISOBMFFBuilder
    static let full = ExtraFactsTests.full
    static let dimensionsOnly = ExtraFactsTests.dimensionsOnly

    static func info(_ bytes: [UInt8], _ options: ScanOptions = full, sourceLocation: SourceLocation = #_sourceLocation) -> ImageInfo? {
        ExtraFactsTests.info(bytes, options, sourceLocation: sourceLocation)
    }

    static func avif(_ extra: [Box.Property]) -> [UInt8] { ExtraFactsTests.heif(extra) }

    static func sequenceHeader(_ change: (inout AV1SequenceHeaderBuilder) -> Void = { _ in }) -> [UInt8] {
        var header = AV1SequenceHeaderBuilder()
        change(&header)
        return header.obu
    }

    // MARK: AV1 colour from av1C's sequence header

    @Test func av1SequenceHeaderColourWithoutNclx() {
        let pq = Self.info(Self.avif([Box.av1C(bitDepth: 10, configOBUs: Self.sequenceHeader {
            $0.highBitDepth = true
            $0.colour = (9, 16, 9)
        })]))
        #expect(pq?.cicp == CICP(colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 9, isFullRange: false))
        #expect(pq?.isHDR == true && pq?.bitDepth == 10)
        // The long form: timing and decoder model information, two operating points, frame ids,
        // order hints and screen content tools, all walked past.
        let long = Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: Self.sequenceHeader {
            $0.reducedStillPictureHeader = false
            $0.timingAndOperatingPoints = true
            $0.colour = (1, 13, 6)
            $0.fullRange = true
        })]))
        #expect(long?.cicp == CICP(colourPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 6, isFullRange: true))
        let shortLong = Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: Self.sequenceHeader {
            $0.reducedStillPictureHeader = false
            $0.colour = (12, 18, 6)
        })]))
        #expect(shortLong?.cicp?.transferCharacteristics == 18 && shortLong?.isHDR == true)
        // sRGB with the identity matrix is full range without a range bit.
        let identity = Self.info(Self.avif([Box.av1C(bitDepth: 8, profile: 1, configOBUs: Self.sequenceHeader {
            $0.profile = 1
            $0.colour = (1, 13, 0)
        })]))
        #expect(identity?.cicp == CICP(colourPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 0, isFullRange: true))
        let twelve = Self.info(Self.avif([Box.av1C(bitDepth: 12, profile: 2, configOBUs: Self.sequenceHeader {
            $0.profile = 2
            $0.highBitDepth = true
            $0.twelveBit = true
            $0.monochrome = true
            $0.colour = (9, 14, 9)
            $0.fullRange = true
        })]))
        #expect(twelve?.cicp == CICP(colourPrimaries: 9, transferCharacteristics: 14, matrixCoefficients: 9, isFullRange: true))
        #expect(twelve?.bitDepth == 12)
    }

    @Test func av1SequenceHeaderWithoutAColourDescriptionGivesNone() {
        let plain = Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: Self.sequenceHeader { $0.colour = nil })]))
        #expect(plain?.cicp == nil && plain?.isHDR == false && plain?.bitDepth == 8)
        // No configOBUs, a header cut short, another OBU type, a forbidden bit: no colour.
        let header = Self.sequenceHeader { $0.colour = (9, 16, 9) }
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 8)]))?.cicp == nil)
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: Array(header.prefix(9)))]))?.cicp == nil)
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: [0x7A] + header.dropFirst())]))?.cicp == nil)
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: [0x8A] + header.dropFirst())]))?.cicp == nil)
        // The sequence header comes first in configOBUs (AV1-ISOBMFF §2.3.3), or not at all.
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: [0x2A, 2, 0, 0] + header)]))?.cicp == nil)
        // A size field of two bytes, and an extension byte.
        var long = header
        long.replaceSubrange(1...1, with: [0x80 | long[1], 0])
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: long)]))?.cicp?.transferCharacteristics == 16)
        let extended = [0x0E, 0] + header.dropFirst()
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 8, configOBUs: Array(extended))]))?.cicp?.transferCharacteristics == 16)
    }

    @Test func nclxWinsOverTheSequenceHeaderInEitherOrder() {
        let header = Box.av1C(bitDepth: 10, configOBUs: Self.sequenceHeader {
            $0.highBitDepth = true
            $0.colour = (9, 16, 9)
        })
        let nclx = ExtraFactsTests.colr(primaries: 1, transfer: 13, matrix: 6, fullRange: true)
        for properties in [[header, nclx], [nclx, header]] {
            let info = Self.info(Self.avif(properties))
            #expect(info?.cicp == CICP(colourPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 6, isFullRange: true))
            #expect(info?.isHDR == false)
        }
        // An ICC profile leaves the sequence header's code points standing, as in libavif.
        let profiled = Self.info(Self.avif([header, .other("colr", Array("prof".utf8) + [1, 2, 3, 4])]))
        #expect(profiled?.hasICCProfile == true && profiled?.cicp?.colourPrimaries == 9)
    }

    // MARK: Bit depth from the codec

    @Test func bitDepthFromTheCodecWhenPixiIsMissing() {
        for depth in [8, 10, 12] {
            #expect(Self.info(Self.avif([Box.av1C(bitDepth: depth)]))?.bitDepth == depth)
            let heic = ExtraFactsTests.heif([Box.hvcC(bitDepth: depth)], type: "hvc1", major: "heic")
            #expect(Self.info(heic)?.bitDepth == depth)
        }
        // pixi wins, before or after the codec's configuration.
        #expect(Self.info(Self.avif([Box.av1C(bitDepth: 10), .pixi(bits: [8, 8, 8])]))?.bitDepth == 8)
        #expect(Self.info(Self.avif([.pixi(bits: [12, 12, 12]), Box.av1C(bitDepth: 10)]))?.bitDepth == 12)
        // A configuration too short to state a depth states none.
        #expect(Self.info(ExtraFactsTests.heif([.other("hvcC", [1, 2, 3])], type: "hvc1", major: "heic"))?.bitDepth == nil)
        // Dimensions-only mode reads no codec configuration.
        let dimensions = Self.info(Self.avif([Box.av1C(bitDepth: 10, configOBUs: Self.sequenceHeader())]), Self.dimensionsOnly)
        #expect(dimensions?.bitDepth == nil && dimensions?.cicp == nil)
    }

    // MARK: A grid's colour from its first tile

    /// A grid (item 3) of two tiles (items 1 and 2), each with `tileProperties` after its
    /// codec configuration and size; the grid has its size and `gridProperties`.
    static func grid(
        tileProperties: [Box.Property], gridProperties: [Box.Property] = [], referencesFirst: Bool = true,
        gridEntryFirst: Bool = false, referenceVersion: UInt8 = 0, firstTile: UInt32 = 1
    ) -> [UInt8] {
        let properties: [Box.Property] =
            [Box.hvcC(bitDepth: 10), .ispe(width: 512, height: 512), .ispe(width: 1024, height: 512)] + tileProperties + gridProperties
        let tileIndices = [1, 2] + Array(4..<(4 + tileProperties.count))
        let gridIndices = [3] + Array((4 + tileProperties.count)..<(4 + tileProperties.count + gridProperties.count))
        let tiles = [Box.Item(id: 1, type: "hvc1", properties: tileIndices), Box.Item(id: 2, type: "hvc1", properties: tileIndices)]
        let grid = Box.Item(id: 3, type: "grid", properties: gridIndices)
        let references = Box.iref(version: referenceVersion, [
            (type: "thmb", from: 2, to: [3]), (type: "dimg", from: 3, to: [firstTile, firstTile == 1 ? 2 : 1]),
        ])
        let meta = Box.meta(
            primary: 3, items: gridEntryFirst ? [grid] + tiles : tiles + [grid], properties: properties,
            extra: referencesFirst ? [] : references, references: referencesFirst ? references : [])
        return Box.file(major: "heic", compatible: ["mif1", "heic"], meta: meta)
    }

    @Test func aGridTakesItsFirstTilesColour() {
        let pq = ExtraFactsTests.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: false)
        for (gridEntryFirst, version) in [(false, UInt8(0)), (true, 0), (false, 1)] {
            let info = Self.info(Self.grid(tileProperties: [pq], gridEntryFirst: gridEntryFirst, referenceVersion: version))
            #expect(info?.cicp == CICP(colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 9, isFullRange: false))
            #expect(info?.isHDR == true && info?.hasICCProfile == false && info?.bitDepth == 10)
            #expect(info?.width == 1024 && info?.height == 512)
        }
        let profile = Box.Property.other("colr", Array("prof".utf8) + [1, 2, 3, 4])
        let profiled = Self.info(Self.grid(tileProperties: [profile]))
        #expect(profiled?.hasICCProfile == true && profiled?.cicp == nil)
        // Each kind apart: the grid's own nclx stands, and the tile's profile is added.
        let own = ExtraFactsTests.colr(primaries: 1, transfer: 13, matrix: 6, fullRange: true)
        let both = Self.info(Self.grid(tileProperties: [profile, pq], gridProperties: [own]))
        #expect(both?.cicp?.transferCharacteristics == 13 && both?.hasICCProfile == true)
        // The first tile is the dimg's first input, whichever item that is.
        let second = Self.info(Self.grid(tileProperties: [pq], firstTile: 2))
        #expect(second?.cicp?.transferCharacteristics == 16)
    }

    @Test func aGridWithoutReadableTilesKeepsItsOwnColour() {
        let pq = ExtraFactsTests.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: false)
        // iref after iprp: the tiles' associations have streamed past (SPEC.md §3.8).
        let late = Self.info(Self.grid(tileProperties: [pq], referencesFirst: false))
        #expect(late?.cicp == nil && late?.isHDR == false && late?.width == 1024)
        // Dimensions-only mode reads no iref and no tile.
        let dimensions = Self.info(Self.grid(tileProperties: [pq]), Self.dimensionsOnly)
        #expect(dimensions?.cicp == nil && dimensions?.width == 1024)
        // A tile that isn't the grid's first doesn't lend its colour.
        let properties: [Box.Property] = [.ispe(width: 512, height: 512), .ispe(width: 1024, height: 512), pq]
        let meta = Box.meta(
            primary: 3,
            items: [Box.Item(id: 1, type: "hvc1", properties: [1]), Box.Item(id: 2, type: "hvc1", properties: [1, 3]),
                    Box.Item(id: 3, type: "grid", properties: [2])],
            properties: properties, references: Box.iref([(type: "dimg", from: 3, to: [1, 2])]))
        #expect(Self.info(Box.file(major: "heic", compatible: ["mif1", "heic"], meta: meta))?.cicp == nil)
    }

    /// A grid whose `iref` holds `references` (raw reference boxes) before iprp.
    static func grid(references: [UInt8]) -> [UInt8] {
        let pq = ExtraFactsTests.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: false)
        let meta = Box.meta(
            primary: 3,
            items: [Box.Item(id: 1, type: "hvc1", properties: [1, 3]), Box.Item(id: 3, type: "grid", properties: [2])],
            properties: [.ispe(width: 512, height: 512), .ispe(width: 1024, height: 512), pq],
            references: Box.fullBox("iref", references))
        return Box.file(major: "heic", compatible: ["mif1", "heic"], meta: meta)
    }

    @Test func aBrokenIrefIsLeftAsIfUnread() {
        let dimg = Box.box("dimg", [0, 3, 0, 1, 0, 1])
        // A reference box too small for its header, one with a bad 64-bit size, one past iref's
        // end: the rest of iref is left, the tile unknown, and the answer stands.
        let tooSmall: [UInt8] = [0, 0, 0, 4] + Array("thmb".utf8)
        let badLarge: [UInt8] = [0, 0, 0, 1] + Array("thmb".utf8) + [0, 0, 0, 0, 0, 0, 0, 8]
        let overrun: [UInt8] = [0, 0, 0x10, 0] + Array("thmb".utf8)
        for broken in [tooSmall, badLarge, overrun] {
            let info = Self.info(Self.grid(references: broken + dimg))
            #expect(info?.width == 1024 && info?.cicp == nil)
        }
        // Once the grid's dimg is read, the rest of iref is not: a broken box after it changes
        // nothing.
        for broken in [tooSmall, badLarge, overrun] {
            let info = Self.info(Self.grid(references: dimg + broken))
            #expect(info?.cicp?.transferCharacteristics == 16)
        }
        // Another item's dimg first, then the grid's.
        let other = Box.box("dimg", [0, 7, 0, 1, 0, 9])
        #expect(Self.info(Self.grid(references: other + dimg))?.cicp?.transferCharacteristics == 16)
    }

    // MARK: Gain maps

    @Test func gainMapsUnderEveryAuxiliaryType() {
        let auxiliary = Box.Item(id: 2, type: "hvc1", properties: [2])
        func auxC(_ type: String) -> Box.Property { .other("auxC", [0, 0, 0, 0] + Array(type.utf8) + [0]) }
        for type in ["urn:com:photo:aux:hdrgainmap", "urn:com:samsung:photo:2024:aux:hdrgainmap", "urn:com:apple:photo:2020:aux:hdrgainmap"] {
            let heic = ExtraFactsTests.heif([auxC(type)], type: "hvc1", major: "heic", items: [auxiliary])
            #expect(Self.info(heic)?.hasGainMap == true, "\(type)")
            #expect(Self.info(heic)?.isHDR == true, "\(type)")
        }
        // A type that only begins like one is not a gain map.
        for type in ["urn:com:photo:aux:hdrgainmapx", "urn:com:samsung:photo:2024:aux:hdr"] {
            let heic = ExtraFactsTests.heif([auxC(type)], type: "hvc1", major: "heic", items: [auxiliary])
            #expect(Self.info(heic)?.hasGainMap == false, "\(type)")
        }
    }
}
