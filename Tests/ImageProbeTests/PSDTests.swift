import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct PSDTests {
    @Test(arguments: [1, 2])
    func heightComesBeforeWidth(version: Int) {
        let bytes = PSDBuilder.file(version: version, width: 123, height: 456)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.format == .psd)
        #expect(info(outcome)?.size == [123, 456])
        #expect(outcome.bytesConsumed == UInt64(PSDBuilder.dimensionsAnswerEnd))
        #expect(info(outcome)?.bitDepth == nil)
    }

    @Test(arguments: [1, 8, 16, 32])
    func fullModeReadsTheDepth(depth: Int) {
        let bytes = PSDBuilder.file(channels: 4, width: 30_000, height: 1, depth: depth, mode: 4)
        let outcome = verified(bytes)
        #expect(info(outcome)?.bitDepth == depth)
        #expect(info(outcome)?.orientation == nil)
        #expect(info(outcome)?.isPartial == false)
        // Then the colour mode data's length and the image resources' (both empty here).
        #expect(outcome.bytesConsumed == UInt64(PSDBuilder.fullAnswerEnd + 8))
        #expect(info(outcome)?.hasICCProfile == false)
        #expect(info(outcome)?.dpi == nil)
    }

    @Test func sizesBeyondPhotoshopsLimitsAreReportedAsStored() {
        // 30,000 is PSD's maximum and 300,000 PSB's; larger declared sizes are reported.
        for (version, side) in [(1, 30_001), (2, 300_000), (2, 300_001), (1, 1 << 30)] {
            let bytes = PSDBuilder.file(version: version, width: side, height: 2)
            #expect(info(verified(bytes, dimensionsOnly))?.size == [side, 2])
        }
        #expect(failureCode(verified(PSDBuilder.file(width: (1 << 30) + 1, height: 2))) == .limitExceeded)
        #expect(failureCode(verified(PSDBuilder.file(width: 0xFFFF_FFFF, height: 2))) == .limitExceeded)
    }

    @Test func headerErrors() {
        #expect(failureCode(verified(ascii("8BIM") + Array(PSDBuilder.file(width: 1, height: 1).dropFirst(4)))) == .unknownFormat)
        for version in [0, 3] {
            #expect(failureCode(verified(PSDBuilder.file(version: version, width: 1, height: 1))) == .unsupportedFeature)
        }
        for channels in [0, 57] {
            #expect(failureCode(verified(PSDBuilder.file(channels: channels, width: 1, height: 1))) == .malformed)
        }
        for (width, height) in [(0, 1), (1, 0)] {
            #expect(failureCode(verified(PSDBuilder.file(width: width, height: height))) == .malformed)
        }
        // Depth and mode come after the size: a bad one gives a partial answer.
        for (depth, mode) in [(7, 3), (8, 5), (8, 10)] {
            let found = info(verified(PSDBuilder.file(width: 3, height: 4, depth: depth, mode: mode)))
            #expect(found?.size == [3, 4])
            #expect(found?.isPartial == true)
            #expect(found?.bitDepth == nil)
        }
    }

    @Test func truncatedAndRandom() {
        let bytes = PSDBuilder.file(width: 3, height: 4)
        for length in 0..<22 {
            #expect(failureCode(ChunkingVerifier.scanWhole(Array(bytes[0..<length]))) == .truncated)
        }
        #expect(info(verified(Array(bytes[0..<24])))?.isPartial == true)
        var random = SeededRandom(seed: 0x85)
        for length in [0, 2, 10, 30] {
            for _ in 0..<20 {
                let outcome = verified(ascii("8BPS") + random.bytes(length))
                #expect(outcome.bytesConsumed <= 26)
            }
        }
    }

    // MARK: Image resources (full mode): ResolutionInfo (1005) and the ICC profile (1039)

    struct Block {
        var signature = "8BIM"
        var id: Int
        var name = ""
        var data: [UInt8]
    }

    /// A document with `colourModeData` bytes of colour mode data and `blocks` in its image
    /// resources section (`sectionLength` overrides the section's stated length). Returns the
    /// file, where the section ends, and for each block where its size field and its padded
    /// data end.
    static func document(
        version: Int = 1, mode: Int = 3, colourModeData: Int = 0, blocks: [Block], sectionPadding: Int = 0, sectionLength: Int? = nil
    ) -> (bytes: [UInt8], sectionEnd: Int, sizeEnds: [Int], blockEnds: [Int]) {
        var bytes = Array(PSDBuilder.file(version: version, width: 64, height: 48, mode: mode)[0..<26])
        bytes.append32(colourModeData, .bigEndian)
        bytes.appendFiller(colourModeData)
        var section: [UInt8] = []
        var sizeEnds: [Int] = []
        var blockEnds: [Int] = []
        let sectionStart = bytes.count + 4
        for block in blocks {
            section += ascii(block.signature)
            section.append16(block.id, .bigEndian)
            section.append(UInt8(block.name.utf8.count))
            section += ascii(block.name)
            if block.name.utf8.count % 2 == 0 { section.append(0) }  // the Pascal string padded to even
            section.append32(block.data.count, .bigEndian)
            sizeEnds.append(sectionStart + section.count)
            section += block.data
            if block.data.count % 2 == 1 { section.append(0) }
            blockEnds.append(sectionStart + section.count)
        }
        section += [UInt8](repeating: 0, count: sectionPadding)
        bytes.append32(sectionLength ?? section.count, .bigEndian)
        bytes += section
        let sectionEnd = bytes.count
        bytes.append(0, width: version == 2 ? 8 : 4, .bigEndian)  // no layers
        bytes.append16(0, .bigEndian)
        bytes.appendFiller(12)
        return (bytes, sectionEnd, sizeEnds, blockEnds)
    }

    /// ResolutionInfo: hRes (16.16 fixed, pixels per inch), hResUnit, widthUnit, vRes,
    /// vResUnit, heightUnit.
    static func resolutionInfo(_ horizontal: UInt32, _ vertical: UInt32, unit: Int = 1) -> [UInt8] {
        var data: [UInt8] = []
        data.append32(Int(horizontal), .bigEndian)
        data.append16(unit, .bigEndian)
        data.append16(1, .bigEndian)
        data.append32(Int(vertical), .bigEndian)
        data.append16(unit, .bigEndian)
        data.append16(1, .bigEndian)
        return data
    }

    static let thumbnail = Block(id: 1036, data: [UInt8](repeating: 0x5A, count: 301))
    static let xmp = Block(id: 1060, name: "x", data: [UInt8](repeating: 0x3C, count: 120))

    @Test(arguments: [1, 2])
    func resolutionInfoIsPixelsPerInchWhateverTheDisplayUnit(version: Int) {
        for (data, expected) in [
            (Self.resolutionInfo(300 << 16, 300 << 16), Resolution(x: 300, y: 300)),
            // ImageMagick's -units PixelsPerCentimeter -density 118.11: 299.9996 ppi, displayed
            // in cm (a reader taking it as per centimetre would say 762).
            (Self.resolutionInfo(0x012B_FFD9, 0x012B_FFD9, unit: 2), Resolution(x: 300, y: 300)),
            (Self.resolutionInfo(72 << 16, 150 << 16), Resolution(x: 72, y: 150)),
            (Self.resolutionInfo(0x0048_8000, 0x0048_7FFF), Resolution(x: 73, y: 72)),  // 72.5 rounds up
        ] as [([UInt8], Resolution)] {
            let document = Self.document(version: version, blocks: [Self.xmp, Block(id: 1005, data: data), Self.thumbnail])
            let outcome = verified(document.bytes)
            #expect(info(outcome)?.dpi == expected)
            #expect(info(outcome)?.hasICCProfile == false)
            #expect(info(outcome)?.isPartial == false)
            // Without a profile the whole section is walked, to the last block's size (its data
            // is not needed).
            #expect(outcome.bytesConsumed == UInt64(document.sizeEnds[2]))
            let dimensions = verified(document.bytes, dimensionsOnly)
            #expect(dimensions.bytesConsumed == UInt64(PSDBuilder.dimensionsAnswerEnd))
            #expect(info(dimensions)?.dpi == nil)
            #expect(info(dimensions)?.hasICCProfile == nil)
        }
        // A zero resolution states none.
        let zero = Self.document(version: version, blocks: [Block(id: 1005, data: Self.resolutionInfo(0, 300 << 16))])
        #expect(info(verified(zero.bytes))?.dpi == nil)
    }

    @Test func theWalkStopsOnceBothFactsAreKnown() {
        let profile = Block(id: 1039, data: [UInt8](repeating: 0x11, count: 588))
        let resolution = Block(id: 1005, name: "res", data: Self.resolutionInfo(96 << 16, 96 << 16))
        // The profile last: its data is not read, only its size.
        var document = Self.document(blocks: [Self.thumbnail, resolution, profile, Self.xmp])
        var outcome = verified(document.bytes)
        #expect(info(outcome)?.hasICCProfile == true)
        #expect(info(outcome)?.dpi == Resolution(x: 96, y: 96))
        #expect(outcome.bytesConsumed == UInt64(document.sizeEnds[2]))
        // The resolution last: its 16 bytes.
        document = Self.document(blocks: [profile, Self.thumbnail, resolution, Self.xmp])
        outcome = verified(document.bytes)
        #expect(info(outcome)?.hasICCProfile == true)
        #expect(outcome.bytesConsumed == UInt64(document.sizeEnds[2] + 16))
        // A profile alone: the rest of the section is walked for a resolution.
        document = Self.document(blocks: [profile, Self.thumbnail])
        outcome = verified(document.bytes)
        #expect(info(outcome)?.hasICCProfile == true)
        #expect(info(outcome)?.dpi == nil)
        #expect(outcome.bytesConsumed == UInt64(document.sizeEnds[1]))
        // An empty profile block is no profile.
        document = Self.document(blocks: [Block(id: 1039, data: [])])
        #expect(info(verified(document.bytes))?.hasICCProfile == false)
    }

    @Test func namesAndOddSizesArePaddedToEvenLengths() {
        // Names of every parity, odd data sizes, colour mode data (an indexed palette) before.
        for name in ["", "a", "ab", "abc", String(repeating: "n", count: 255)] {
            let blocks = [Block(id: 1000, name: name, data: [1, 2, 3]), Block(id: 1005, name: name, data: Self.resolutionInfo(200 << 16, 200 << 16)),
                          Block(id: 1039, name: name, data: [9])]
            let document = Self.document(mode: 2, colourModeData: 768, blocks: blocks)
            let outcome = verified(document.bytes)
            #expect(info(outcome)?.dpi == Resolution(x: 200, y: 200), "\(name.count)")
            #expect(info(outcome)?.hasICCProfile == true)
            #expect(outcome.bytesConsumed == UInt64(document.sizeEnds[2]))
        }
    }

    @Test func otherSignaturesAreSkippedAndAnUnknownOneEndsTheWalk() {
        // ImageReady's and PhotoDeluxe's blocks: their IDs are not Photoshop's.
        let foreign = Self.document(blocks: [Block(signature: "MeSa", id: 1039, data: [1, 2, 3, 4]),
                                             Block(signature: "PHUT", id: 1005, data: Self.resolutionInfo(300 << 16, 300 << 16))])
        var found = info(verified(foreign.bytes))
        #expect(found?.hasICCProfile == false)
        #expect(found?.dpi == nil)
        #expect(found?.isPartial == false)
        // Anything else is corrupt: the size stands, with what was found before it.
        let broken = Self.document(blocks: [Block(id: 1005, data: Self.resolutionInfo(300 << 16, 300 << 16)), Block(signature: "8BIN", id: 1039, data: [1])])
        found = info(verified(broken.bytes))
        #expect(found?.size == [64, 48])
        #expect(found?.isPartial == true)
        #expect(found?.dpi == Resolution(x: 300, y: 300))
        #expect(found?.hasICCProfile == nil)
    }

    @Test func blocksStayInsideTheirSectionAndTheSectionInsideTheInput() {
        // The thumbnail block takes 314 bytes: 12 of header, 301 of data and a pad byte.
        let blocks = [Self.thumbnail, Block(id: 1039, name: "abc", data: [UInt8](repeating: 0, count: 40))]
        // The section claims less than its blocks take: the second block's data runs past it.
        let short = Self.document(blocks: blocks, sectionLength: 314 + 14 + 20)
        var found = info(verified(short.bytes))
        #expect(found?.isPartial == true)
        #expect(found?.hasICCProfile == nil)
        // A block header (its name and size) cut by the section's end.
        let cutHeader = Self.document(blocks: blocks, sectionLength: 314 + 13)
        #expect(info(verified(cutHeader.bytes))?.isPartial == true)
        // Fewer than 12 bytes left: padding, the walk ends.
        let padded = Self.document(blocks: [Self.thumbnail], sectionPadding: 11)
        found = info(verified(padded.bytes))
        #expect(found?.isPartial == false)
        #expect(found?.hasICCProfile == false)
        // With the input's length known, a section past the end is malformed at once (SPEC
        // "Containers"); unknown, the walk goes on into what follows the blocks, which is no
        // block. Either way a partial answer.
        let long = Self.document(blocks: blocks, sectionLength: 100_000)
        var options = ScanOptions()
        options.inputLength = UInt64(long.bytes.count)
        let known = verified(long.bytes, options)
        #expect(info(known)?.isPartial == true)
        #expect(known.bytesConsumed == 34)
        let unknown = verified(long.bytes)
        #expect(info(unknown)?.isPartial == true)
        #expect(info(unknown)?.hasICCProfile == true)  // seen before the end
        // Colour mode data past the end, likewise.
        var colour = Self.document(blocks: [])
        colour.bytes.replaceSubrange(26..<30, with: [0, 1, 0, 0])
        options.inputLength = UInt64(colour.bytes.count)
        #expect(info(verified(colour.bytes, options))?.isPartial == true)
    }

    @Test func moreBlocksThanMaxEntriesEndTheWalk() {
        var options = ScanOptions()
        options.maxEntries = 5
        let document = Self.document(blocks: Array(repeating: Block(id: 1000, data: [0, 0]), count: 10) + [Block(id: 1039, data: [1])])
        let found = info(verified(document.bytes, options))
        #expect(found?.isPartial == true)
        #expect(found?.hasICCProfile == nil)
        #expect(info(verified(document.bytes))?.hasICCProfile == true)
    }
}
