import ImageProbe
import ImageProbeFixtures
import Testing

typealias Box = ISOBMFFBuilder

/// An independent oracle for orientations: real pixel grids, transformed.
enum Grid {
    typealias Pixels = [[Int]]

    static let sample: Pixels = [[1, 2, 3], [4, 5, 6]]  // 3 wide, 2 high

    static func rotateAnticlockwise(_ p: Pixels) -> Pixels {
        let height = p.count, width = p[0].count
        return (0..<width).map { row in (0..<height).map { column in p[column][width - 1 - row] } }
    }

    static func exchangeLeftRight(_ p: Pixels) -> Pixels { p.map { Array($0.reversed()) } }
    static func exchangeTopBottom(_ p: Pixels) -> Pixels { Array(p.reversed()) }
    static func transpose(_ p: Pixels) -> Pixels { (0..<p[0].count).map { column in p.map { $0[column] } } }

    /// What EXIF orientation `n` tells a viewer to do to the stored pixels (CIPA DC-008).
    static func exif(_ n: Int, _ p: Pixels) -> Pixels {
        switch n {
        case 1: return p
        case 2: return exchangeLeftRight(p)
        case 3: return rotateAnticlockwise(rotateAnticlockwise(p))
        case 4: return exchangeTopBottom(p)
        case 5: return transpose(p)
        case 6: return rotateAnticlockwise(rotateAnticlockwise(rotateAnticlockwise(p)))
        case 7: return rotateAnticlockwise(rotateAnticlockwise(transpose(p)))
        default: return rotateAnticlockwise(p)
        }
    }

    /// The EXIF value equal to applying `steps` in order.
    static func orientation(of steps: [Box.Property]) -> Int {
        var pixels = sample
        for step in steps {
            switch step {
            case .irot(let angle): for _ in 0..<angle { pixels = rotateAnticlockwise(pixels) }
            // ISO/IEC 23008-12:2022 §6.5.12: 0 exchanges top and bottom, 1 left and right.
            case .imir(let axis): pixels = axis == 0 ? exchangeTopBottom(pixels) : exchangeLeftRight(pixels)
            default: break
            }
        }
        return (1...8).first { exif($0, sample) == pixels }!
    }
}

@Suite struct HEIFTests {
    static func single(
        _ properties: [Box.Property], type: String = "hvc1", major: String = "heic", compatible: [String] = ["mif1", "heic"],
        versions: Box.Versions = Box.Versions(), order: Box.Order = .standard
    ) -> [UInt8] {
        let item = Box.Item(id: 1, type: type, properties: Array(1...properties.count))
        return Box.file(major: major, compatible: compatible,
                        meta: Box.meta(primary: 1, items: [item], properties: properties, versions: versions, order: order))
    }

    @Test func sizeComesFromThePrimaryItemNotTheFirstOrLargestIspe() {
        // Thumbnail ispe first, tile ispe next, the grid's own ispe last.
        let bytes = Box.phoneStyle(width: 4032, height: 3024)
        let found = info(verified(bytes))
        #expect(found?.format == .heif)
        #expect(found?.size == [4032, 3024])
        #expect(found?.orientation == .rotate90Clockwise)  // irot 3: 270° anticlockwise
        #expect(found?.displayWidth == 3024)
        #expect(found?.bitDepth == 8)

        // The primary is the smallest image: still its size, not the largest.
        let properties: [Box.Property] = [.ispe(width: 8000, height: 6000), .ispe(width: 64, height: 48)]
        let items = [Box.Item(id: 1, type: "hvc1", properties: [1]), Box.Item(id: 2, type: "hvc1", properties: [2])]
        let small = Box.file(major: "heic", compatible: ["mif1"], meta: Box.meta(primary: 2, items: items, properties: properties))
        #expect(info(verified(small))?.size == [64, 48])
    }

    @Test(arguments: 0..<4, [-1, 0, 1])
    func rotationAndMirrorInEXIFNumbering(angle: Int, axis: Int) {
        var steps: [Box.Property] = [.irot(angle: angle)]
        if axis >= 0 { steps.append(.imir(axis: axis)) }
        let bytes = Self.single([.ispe(width: 300, height: 200)] + steps, type: "av01", major: "avif", compatible: ["mif1", "avif"])
        let found = info(verified(bytes))
        let expected = Grid.orientation(of: steps)
        #expect(found.flatMap { $0.orientation.map { Int($0.rawValue) } } == expected)
        #expect(found?.format == .avif)
        #expect(found?.displayWidth == (expected >= 5 ? 200 : 300))
    }

    @Test func transformsComposeInAssociationOrder() {
        // Mirror before rotation breaks MIAF's order, but the transform is still exact.
        for steps: [Box.Property] in [[.imir(axis: 1), .irot(angle: 1)], [.imir(axis: 0), .irot(angle: 3), .imir(axis: 1)]] {
            let bytes = Self.single([.ispe(width: 30, height: 20)] + steps)
            #expect(info(verified(bytes)).flatMap { $0.orientation.map { Int($0.rawValue) } } == Grid.orientation(of: steps))
        }
        // No transform property: no orientation.
        #expect(info(verified(Self.single([.ispe(width: 30, height: 20)])))?.orientation == nil)
    }

    @Test func cleanApertureIsReportedAndCropsTheDisplayedSize() {
        // 385×330 in 722×1024, centre offset (207/2, −616/2), as in Link-U's kimono.crop.avif:
        // left = 207/2 + (722 − 385)/2 = 272, top = −308 + (1024 − 330)/2 = 39.
        let clap = Box.Property.clap(widthN: 385, widthD: 1, heightN: 330, heightD: 1, horizontalN: 207, horizontalD: 2, verticalN: -616, verticalD: 2)
        let found = info(verified(Self.single([.ispe(width: 722, height: 1024), clap, .irot(angle: 1)])))
        #expect(found?.cleanAperture?.rectangle == CleanAperture.Rectangle(x: 272, y: 39, width: 385, height: 330))
        #expect(found?.size == [722, 1024])
        #expect([found?.displayWidth, found?.displayHeight] == [330, 385])

        // An off-centre crop with a fractional offset that lands on whole pixels: left 2, top 0.
        let offset = Box.Property.clap(widthN: 6, widthD: 1, heightN: 4, heightD: 1, horizontalN: 1, horizontalD: 1, verticalN: -2, verticalD: 2)
        #expect(info(verified(Self.single([.ispe(width: 8, height: 6), offset])))?.cleanAperture?.rectangle
                == CleanAperture.Rectangle(x: 2, y: 0, width: 6, height: 4))

        // A whole size centred on a half pixel: the size is known, the origin is not.
        let centred = Box.Property.clap(widthN: 5, widthD: 1, heightN: 4, heightD: 1, horizontalN: 0, horizontalD: 1, verticalN: 0, verticalD: 1)
        let centredInfo = info(verified(Self.single([.ispe(width: 8, height: 6), centred])))
        #expect(centredInfo?.cleanAperture?.rectangle == nil)
        #expect([centredInfo?.displayWidth, centredInfo?.displayHeight] == [5, 4])

        // A fractional size: the raw values only.
        let odd = Box.Property.clap(widthN: 7, widthD: 2, heightN: 4, heightD: 1, horizontalN: 0, horizontalD: 1, verticalN: 0, verticalD: 1)
        let oddInfo = info(verified(Self.single([.ispe(width: 8, height: 6), odd])))
        #expect(oddInfo?.cleanAperture?.widthN == 7)
        #expect(oddInfo?.cleanAperture?.width == nil)
        #expect(oddInfo?.cleanAperture?.rectangle == nil)
        #expect(oddInfo?.displayWidth == 8)
    }

    @Test func avifOrHeifFromTheBrandThenThePrimaryItemType() {
        let ispe = Box.Property.ispe(width: 10, height: 10)
        #expect(info(verified(Self.single([ispe], type: "av01", major: "avif", compatible: ["mif1"])))?.format == .avif)
        #expect(info(verified(Self.single([ispe], type: "av01", major: "mif1", compatible: ["mif1", "miaf"])))?.format == .avif)
        #expect(info(verified(Self.single([ispe], type: "hvc1", major: "mif1", compatible: ["mif1", "miaf"])))?.format == .heif)
        #expect(info(verified(Self.single([ispe], type: "hvc1", major: "heic", compatible: ["mif1"])))?.format == .heif)
        // The primary's type arrives after the properties.
        #expect(info(verified(Self.single([ispe], type: "av01", major: "miaf", compatible: ["mif1"], order: .itemInfoLast)))?.format == .avif)
        // A grid of AV1 tiles under a generic brand.
        let items = [Box.Item(id: 1, type: "av01", properties: [1]), Box.Item(id: 2, type: "grid", properties: [2])]
        let grid = Box.file(major: "mif1", compatible: ["mif1"], meta: Box.meta(primary: 2, items: items,
                            properties: [.ispe(width: 5, height: 5), .ispe(width: 10, height: 5)]))
        #expect(info(verified(grid))?.format == .avif)
        // An animated AVIF sequence brand.
        #expect(info(verified(Self.single([ispe], type: "av01", major: "avis", compatible: ["msf1"])))?.isAnimated == true)
        // An MP4 video is ISOBMFF without an image brand.
        let video = Box.ftyp(major: "isom", compatible: ["iso2", "mp41"]) + Box.box("moov", [0, 0, 0, 0])
        #expect(failureCode(verified(video)) == .unknownFormat)
    }

    @Test(arguments: [
        Box.Versions(), Box.Versions(pitm: 1, iinf: 1, infe: 3, ipma: 1), Box.Versions(wideIndices: true),
        Box.Versions(pitm: 1, iinf: 0, infe: 2, ipma: 1, wideIndices: true),
    ])
    func boxVersionsAndWideIndices(versions: Box.Versions) {
        let properties: [Box.Property] = [.other("hvcC", [9]), .ispe(width: 640, height: 480), .irot(angle: 2)]
        // A 32-bit item ID where every box that carries it has the wide form.
        let wideIDs = versions.pitm == 1 && versions.infe >= 3 && versions.ipma == 1
        let item = Box.Item(id: wideIDs ? 70_000 : 3, type: "hvc1", properties: [1, 2, 3])
        let bytes = Box.file(major: "heic", compatible: ["mif1"],
                             meta: Box.meta(primary: item.id, items: [item], properties: properties, versions: versions))
        let found = info(verified(bytes))
        #expect(found?.size == [640, 480])
        #expect(found?.orientation == .rotate180)
    }

    @Test func primaryItemAfterTheProperties() {
        let properties: [Box.Property] = [.ispe(width: 480, height: 270), .ispe(width: 100, height: 100), .irot(angle: 1)]
        let items = [Box.Item(id: 1, type: "av01", properties: [2]), Box.Item(id: 2, type: "av01", properties: [1, 3])]
        let bytes = Box.file(major: "avis", compatible: ["msf1"], meta: Box.meta(primary: 2, items: items, properties: properties, order: .primaryLast))
        let found = info(verified(bytes))
        #expect(found?.size == [480, 270])
        #expect(found?.orientation == .rotate90Anticlockwise)

        // More items than the scanner remembers before pitm (each takes 7 of the journal's 120
        // bytes): a clear limit, not a guess.
        var many = (1...30).map { Box.Item(id: UInt32($0), type: "av01", properties: [2]) }
        many.append(Box.Item(id: 31, type: "av01", properties: [1]))
        let crowded = Box.file(major: "avif", compatible: ["mif1"], meta: Box.meta(primary: 31, items: many, properties: properties, order: .primaryLast))
        #expect(failureCode(verified(crowded)) == .limitExceeded)
    }

    @Test func associationsBeforeProperties() {
        let bytes = Self.single([.other("hvcC", [1]), .ispe(width: 77, height: 66), .imir(axis: 1)], order: .associationsFirst)
        let found = info(verified(bytes))
        #expect(found?.size == [77, 66])
        #expect(found?.orientation == .mirrorHorizontal)
    }

    @Test func everyImageWithACropOfItsOwn() {
        // As libheif writes several images: odd sizes padded to one 64×64 ispe, each image with
        // its own clap, the primary last. The journal's 120 bytes hold the ispe (5 bytes) and
        // 10 of these claps (11 bytes each: kind, length, index, and small numbers take one byte).
        func file(images: Int, primary: Int) -> [UInt8] {
            var properties: [Box.Property] = [.other("hvcC", [1]), .ispe(width: 64, height: 64)]
            var items: [Box.Item] = []
            for image in 1...images {
                properties.append(.clap(widthN: UInt32(20 + image), widthD: 1, heightN: UInt32(40 + image), heightD: 1,
                                        horizontalN: -Int32(44 - image), horizontalD: 2, verticalN: -Int32(24 - image), verticalD: 2))
                items.append(Box.Item(id: UInt32(image), type: "hvc1", properties: [1, 2, properties.count]))
            }
            return Box.file(major: "heic", compatible: ["mif1", "heic"], meta: Box.meta(primary: UInt32(primary), items: items, properties: properties))
        }
        for (images, primary) in [(3, 3), (4, 3), (8, 8), (10, 10), (20, 5)] {
            let found = info(verified(file(images: images, primary: primary)))
            #expect(found?.size == [64, 64])
            #expect([found?.displayWidth, found?.displayHeight] == [20 + primary, 40 + primary], "\(images) images, primary \(primary)")
            #expect(found?.cleanAperture?.rectangle == CleanAperture.Rectangle(x: 0, y: 0, width: 20 + primary, height: 40 + primary))
        }
        // A crop that didn't fit is a clear limit, not a guess.
        #expect(failureCode(verified(file(images: 11, primary: 11))) == .limitExceeded)
    }

    @Test func moreRelevantPropertiesThanTheTableHolds() {
        // 20 ispe properties of 9 journal bytes each (sizes above 2^14 take 3 bytes): 13 fit.
        let properties: [Box.Property] = (1...20).map { .ispe(width: 100_000 + $0, height: 100_000 + $0) }
        for (index, outcome) in [(3, "answer"), (13, "answer"), (14, "limit"), (20, "limit")] {
            let items = [Box.Item(id: 1, type: "hvc1", properties: [index])]
            let bytes = Box.file(major: "heic", compatible: ["mif1"], meta: Box.meta(primary: 1, items: items, properties: properties))
            if outcome == "answer" {
                #expect(info(verified(bytes))?.size == [100_000 + index, 100_000 + index])
            } else {
                #expect(failureCode(verified(bytes)) == .limitExceeded)
            }
        }
    }

    @Test func metaAfterALargeMediaDataBox() {
        let mdat = Box.box("mdat", [UInt8](repeating: 0x55, count: 200_000))
        let meta = Box.meta(primary: 1, items: [Box.Item(id: 1, type: "hvc1", properties: [1])], properties: [.ispe(width: 12, height: 34)])
        let bytes = Box.file(major: "heic", compatible: ["mif1"], before: mdat, meta: meta, after: [])
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [12, 34])

        var scanner = HeaderScanner(options: dimensionsOnly)
        let ftypLength = Box.ftyp(major: "heic", compatible: ["mif1"]).count
        _ = scanner.feed(Array(bytes[0..<(ftypLength + 8)]))
        #expect(scanner.pendingSkip == 200_000)
        scanner.skip(scanner.pendingSkip)
        #expect(scanner.feed(Array(bytes[(ftypLength + 200_008)...])) == outcome.status)
    }

    @Test func boxSizeFormsZeroAndLarge() {
        let meta = Box.meta(primary: 1, items: [Box.Item(id: 1, type: "hvc1", properties: [1])], properties: [.ispe(width: 5, height: 7)])
        // meta in the 64-bit form, after a 64-bit mdat; an mdat of size 0 at the end.
        let large = Box.file(major: "heic", compatible: ["mif1"], before: Box.largeBox("mdat", [1, 2, 3]),
                             meta: Box.largeBox("meta", Array(meta[8...])), after: Box.openBox("mdat", [9, 9, 9]))
        #expect(info(verified(large))?.size == [5, 7])
        // meta running to the end of the file.
        let open = Box.file(major: "heic", compatible: ["mif1"], meta: Box.openBox("meta", Array(meta[8...])), after: [])
        #expect(info(verified(open))?.size == [5, 7])
        // An mdat to the end of the file before any meta: nothing can follow it.
        let lost = Box.file(major: "heic", compatible: ["mif1"], before: Box.openBox("mdat", [1, 2, 3]), meta: [], after: [])
        #expect(failureCode(verified(lost)) == .malformed)
    }

    @Test func brokenBoxes() {
        let good = Box.meta(primary: 1, items: [Box.Item(id: 1, type: "hvc1", properties: [1])], properties: [.ispe(width: 5, height: 7)])
        // A box smaller than its header, a child overrunning meta, no pitm, no ispe, zero size.
        var tiny = Box.file(major: "heic", compatible: ["mif1"], meta: good)
        tiny.replaceSubrange(Box.ftyp(major: "heic", compatible: ["mif1"]).count..<(Box.ftyp(major: "heic", compatible: ["mif1"]).count + 4), with: [0, 0, 0, 4])
        #expect(failureCode(verified(tiny)) == .malformed)
        let overrun = Box.file(major: "heic", compatible: ["mif1"], meta: Box.fullBox("meta", Box.box("iprp", [0, 0, 0, 0xFF] + ascii("ipco"))))
        #expect(failureCode(verified(overrun)) == .malformed)
        let noSize = Self.single([.irot(angle: 1)])
        #expect(failureCode(verified(noSize)) == .malformed)
        let zero = Self.single([.ispe(width: 0, height: 5)])
        #expect(failureCode(verified(zero)) == .malformed)
        let hugeDeclared = Box.ftyp(major: "heic", compatible: ["mif1"]) + [0x7F, 0xFF, 0xFF, 0xFF] + ascii("mdat") + [1, 2, 3]
        #expect(failureCode(verified(hugeDeclared)) == .truncated)
    }

    @Test func limits() {
        let bytes = Box.phoneStyle(width: 100, height: 50)
        var shallow = ScanOptions()
        shallow.maxDepth = 2
        #expect(failureCode(verified(bytes, shallow)) == .limitExceeded)
        var few = ScanOptions()
        few.maxEntries = 5
        #expect(failureCode(verified(bytes, few)) == .limitExceeded)
        var narrow = ScanOptions()
        narrow.maxWidth = 99
        #expect(failureCode(verified(bytes, narrow)) == .limitExceeded)
    }

    @Test func dimensionsOnlyAnswersAtThePrimarysIspeAssociation() {
        let properties: [Box.Property] = [.ispe(width: 9, height: 8), .irot(angle: 1), .pixi(bits: [10])]
        let item = Box.Item(id: 1, type: "av01", properties: [1, 2, 3])
        let bytes = Box.file(major: "avif", compatible: ["mif1"], meta: Box.meta(primary: 1, items: [item], properties: properties))
        let dimensions = verified(bytes, dimensionsOnly)
        let full = verified(bytes)
        #expect(info(dimensions)?.size == [9, 8])
        #expect(info(full)?.bitDepth == 10)
        // Two more one-byte associations follow the ispe one.
        #expect(dimensions.bytesConsumed == full.bytesConsumed - 2)
    }

    @Test func randomBytesAfterTheFileType() {
        var random = SeededRandom(seed: 99)
        for length in [0, 3, 8, 50, 300] {
            for _ in 0..<10 { verified(Box.ftyp(major: "heic", compatible: ["mif1"]) + random.bytes(length)) }
        }
    }
}
