import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct JPEG2000Tests {
    // MARK: Raw codestream

    @Test func codestreamSizeIsTheGridMinusItsOffset() {
        for (width, height, x, y) in [(640, 480, 0, 0), (1, 1, 0, 0), (123, 456, 7, 9), (1 << 30, 3, 5, 0), (2, 1 << 30, 0, (1 << 31) - 1)] {
            let bytes = JPEG2000Builder.codestream(width: width, height: height, xOffset: x, yOffset: y)
            let dimensions = verified(bytes, dimensionsOnly)
            let found = info(dimensions)
            #expect(found?.format == .j2k)
            #expect(found?.size == [width, height])
            // SOC, SIZ marker, Lsiz, Rsiz, Xsiz, Ysiz, XOsiz, YOsiz.
            #expect(dimensions.bytesConsumed == 24)
        }
    }

    @Test(arguments: [1, 8, 12, 16, 38])
    func fullModeReadsTheFirstComponentsDepth(bitDepth: Int) {
        for (components, signed) in [(1, false), (3, true), (4, false)] {
            let bytes = JPEG2000Builder.codestream(width: 64, height: 32, components: components, bitDepth: bitDepth, signed: signed)
            let outcome = verified(bytes)
            let found = info(outcome)
            #expect(found?.size == [64, 32])
            #expect(found?.bitDepth == bitDepth)
            #expect(found?.orientation == nil)
            #expect(found?.isPartial == false)
            #expect(outcome.bytesConsumed == 43)  // ... XTsiz to YTOsiz, Csiz, Ssiz
        }
    }

    @Test func malformedCodestreams() {
        let good = JPEG2000Builder.codestream(width: 10, height: 10, xOffset: 3, yOffset: 3)
        var noSIZ = good
        noSIZ[3] = 0x52  // COD first
        #expect(failureCode(verified(noSIZ)) == .malformed)
        // Offsets not below the grid size: an empty image.
        for (x, y) in [(13, 0), (0, 13), (14, 14)] {
            var bytes = good
            bytes.replaceSubrange(16..<24, with: [0, 0, 0, UInt8(x), 0, 0, 0, UInt8(y)])
            #expect(failureCode(verified(bytes)) == .malformed)
        }
        let short = JPEG2000Builder.codestream(width: 10, height: 10, sizeLength: 40)
        #expect(failureCode(verified(short)) == .malformed)
        // A length that disagrees with Csiz comes after the size: a partial answer.
        let mismatched = JPEG2000Builder.codestream(width: 10, height: 10, components: 3, sizeLength: 44)
        #expect(info(verified(mismatched))?.isPartial == true)
        #expect(info(verified(mismatched, dimensionsOnly))?.isPartial == false)
    }

    @Test func codestreamLimitsAndTruncation() {
        let bytes = JPEG2000Builder.codestream(width: 5000, height: 10)
        var options = ScanOptions()
        options.maxWidth = 4999
        #expect(failureCode(verified(bytes, options)) == .limitExceeded)
        #expect(failureCode(verified(Array(bytes.prefix(23)))) == .truncated)
        #expect(info(verified(Array(bytes.prefix(30))))?.isPartial == true)
    }

    @Test func randomBytesAfterTheStartMarker() {
        var random = SeededRandom(seed: 0x2B)
        for _ in 0..<40 {
            var bytes: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x29]
            bytes += random.bytes(40)
            if case .done(let found) = verified(bytes).status { #expect(found.width >= 1 && found.height >= 1) }
            verified([0xFF, 0x4F] + random.bytes(30))
            verified(JPEGBox.signature("jP  ") + JPEGBox.fileType("jp2 ", compatible: ["jp2 "]) + random.bytes(40))
        }
    }

    // MARK: JP2

    @Test func imageHeaderGivesTheSize() {
        let file = JPEG2000Builder.jp2(width: 123, height: 456)
        let dimensions = verified(file.bytes, dimensionsOnly)
        let found = info(dimensions)
        #expect(found?.format == .jp2)
        #expect(found?.size == [123, 456])
        #expect(dimensions.bytesConsumed == UInt64(file.sizeEnd))
        #expect(file.sizeEnd == 56)  // signature 12, ftyp 20, jp2h header 8, ihdr header 8, HEIGHT, WIDTH
        let full = verified(file.bytes)
        #expect(info(full)?.bitDepth == 8)
        #expect(info(full)?.orientation == nil)
        #expect(full.bytesConsumed == UInt64(file.bitDepthEnd))
    }

    @Test func bitsPerComponent() {
        for (bpc, depth) in [(UInt8(0), 1), (15, 16), (0x8B, 12), (37, 38)] {
            #expect(info(verified(JPEG2000Builder.jp2(width: 1, height: 1, bitsPerComponent: bpc).bytes))?.bitDepth == depth)
        }
        // 255: the components differ (a bpcc box says how).
        let mixed = JPEG2000Builder.jp2(width: 1, height: 1, bitsPerComponent: 255).bytes
        #expect(info(verified(mixed))?.bitDepth == nil)
    }

    @Test func boxesBeforeJP2HeaderAreSkipped() {
        let before = [
            JPEGBox.box("rreq", [1, 0x80, 0x80, 0, 1, 0, 5, 0x80, 0, 0]),
            JPEGBox.box("xml ", ascii("<x/>"), length: .large),
            JPEGBox.box("uuid", [UInt8](repeating: 7, count: 16)),
            JPEGBox.box("jp2i", []),
        ]
        let file = JPEG2000Builder.jp2(width: 800, height: 600, brand: "jpx ", before: before)
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [800, 600])
        #expect(dimensions.bytesConsumed == UInt64(file.sizeEnd))
    }

    @Test(arguments: [JPEGBox.Length.exact, .large, .toEnd])
    func headerBoxLengths(length: JPEGBox.Length) {
        let file = JPEG2000Builder.jp2(width: 77, height: 88, headerBefore: [JPEGBox.box("bpcc", [7, 7, 7])], headerLength: length)
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [77, 88])
        #expect(dimensions.bytesConsumed == UInt64(file.sizeEnd))
        #expect(verified(file.bytes).bytesConsumed == UInt64(file.bitDepthEnd))
    }

    @Test func imageHeaderBoxLengths() {
        for length in [JPEGBox.Length.large, .exact] {
            let file = JPEG2000Builder.jp2(width: 5, height: 6, imageHeaderLength: length)
            #expect(info(verified(file.bytes))?.size == [5, 6])
        }
        // An ihdr running to the end of the file fits only in a jp2h that does too.
        let open = JPEG2000Builder.jp2(width: 5, height: 6, headerLength: .toEnd, imageHeaderLength: .toEnd)
        #expect(info(verified(open.bytes))?.size == [5, 6])
        let closed = JPEG2000Builder.jp2(width: 5, height: 6, imageHeaderLength: .toEnd)
        #expect(failureCode(verified(closed.bytes)) == .malformed)
    }

    @Test func codestreamBeforeTheHeaderBox() {
        // Out of order (15444-1 Annex I wants jp2h first), but the SIZ segment gives the size.
        var bytes = JPEGBox.signature("jP  ") + JPEGBox.fileType("jp2 ", compatible: ["jp2 "])
        let codestreamStart = bytes.count + 8
        bytes += JPEGBox.box("jp2c", JPEG2000Builder.codestream(width: 300, height: 200, xOffset: 1, bitDepth: 10))
        let dimensions = verified(bytes, dimensionsOnly)
        #expect(info(dimensions)?.format == .jp2)
        #expect(info(dimensions)?.size == [300, 200])
        #expect(dimensions.bytesConsumed == UInt64(codestreamStart + 24))
        #expect(info(verified(bytes))?.bitDepth == 10)
        let notACodestream = JPEGBox.signature("jP  ") + JPEGBox.fileType("jp2 ", compatible: ["jp2 "]) + JPEGBox.box("jp2c", [UInt8](repeating: 0, count: 30))
        #expect(failureCode(verified(notACodestream)) == .malformed)
        let tooShort = JPEGBox.signature("jP  ") + JPEGBox.fileType("jp2 ", compatible: ["jp2 "]) + JPEGBox.box("jp2c", [0xFF, 0x4F, 0xFF, 0x51])
        #expect(failureCode(verified(tooShort)) == .malformed)
    }

    @Test func malformedBoxes() {
        let signature = JPEGBox.signature("jP  ")
        let fileType = JPEGBox.fileType("jp2 ", compatible: ["jp2 "])
        let imageHeader = JPEG2000Builder.imageHeader(width: 4, height: 4)
        let cases: [[UInt8]] = [
            signature + JPEGBox.box("jp2h", imageHeader),  // no ftyp
            signature + JPEGBox.fileType("jp2 ", compatible: []) + JPEGBox.box("jp2h", imageHeader),  // ftyp too small
            signature + fileType + JPEGBox.box("xml ", [1], length: .declared(5)) + JPEGBox.box("jp2h", imageHeader),
            signature + fileType + JPEGBox.box("xml ", [1], length: .declaredLarge(9)) + JPEGBox.box("jp2h", imageHeader),
            signature + fileType + JPEGBox.box("xml ", [1], length: .toEnd) + JPEGBox.box("jp2h", imageHeader),
            signature + fileType + JPEGBox.box("jp2h", JPEG2000Builder.colour),  // no ihdr
            signature + fileType + JPEGBox.box("jp2h", []),
            signature + fileType + JPEGBox.box("jp2h", JPEGBox.box("colr", [1, 0, 0], length: .declared(200)) + imageHeader),
            signature + fileType + JPEGBox.box("jp2h", JPEGBox.box("ihdr", [0, 0, 0, 4, 0, 0, 0, 4])),  // ihdr too short
            signature + fileType + JPEGBox.box("jp2h", JPEG2000Builder.imageHeader(width: 0, height: 4)),
            signature + fileType + JPEGBox.box("jp2h", JPEG2000Builder.imageHeader(width: 4, height: 0)),
        ]
        for bytes in cases {
            #expect(failureCode(verified(bytes)) == .malformed)
        }
        var damaged = JPEG2000Builder.jp2(width: 4, height: 4).bytes
        damaged[10] = 0x88
        #expect(failureCode(verified(damaged)) == .unknownFormat)
        var longSignature = JPEG2000Builder.jp2(width: 4, height: 4).bytes
        longSignature[3] = 16
        #expect(failureCode(verified(longSignature)) == .malformed)
    }

    @Test func otherBrands() {
        for brand in ["mjp2", "jpm "] {
            #expect(failureCode(verified(JPEG2000Builder.jp2(width: 4, height: 4, brand: brand).bytes)) == .unsupportedFeature)
        }
        #expect(info(verified(JPEG2000Builder.jp2(width: 4, height: 4, brand: "jpx ").bytes))?.size == [4, 4])
    }

    @Test func hugeDeclaredLengths() {
        // Skipping a box that claims 4 GiB passes jp2h: the input ends first.
        let huge = JPEG2000Builder.jp2(width: 4, height: 4, before: [JPEGBox.box("xml ", [1], length: .declared(0xFFFF_FFFF))])
        #expect(failureCode(verified(huge.bytes)) == .truncated)
        let beyond = JPEG2000Builder.jp2(width: 4, height: 4, before: [JPEGBox.box("xml ", [1], length: .declaredLarge(UInt64.max - 10))])
        #expect(failureCode(verified(beyond.bytes)) == .malformed)
        // jp2h may claim more than the file holds; ihdr is at its start.
        let long = JPEG2000Builder.jp2(width: 4, height: 4, headerLength: .declared(0xFFFF_FFFF))
        #expect(info(verified(long.bytes))?.size == [4, 4])
    }

    @Test func limits() {
        let file = JPEG2000Builder.jp2(width: 4, height: 4, before: [[UInt8]](repeating: JPEGBox.box("xml ", []), count: 10))
        var options = ScanOptions()
        options.maxEntries = 12
        #expect(failureCode(verified(file.bytes, options)) == .limitExceeded)
        options.maxEntries = 14  // signature, ftyp, 10 boxes, jp2h, ihdr
        #expect(info(verified(file.bytes, options))?.size == [4, 4])
        options.maxDepth = 0
        #expect(failureCode(verified(file.bytes, options)) == .limitExceeded)
        var small = ScanOptions()
        small.maxHeight = 3
        #expect(failureCode(verified(file.bytes, small)) == .limitExceeded)
    }

    @Test func truncation() {
        let file = JPEG2000Builder.jp2(width: 9, height: 9)
        #expect(failureCode(verified(Array(file.bytes.prefix(file.sizeEnd - 1)))) == .truncated)
        let partial = info(verified(Array(file.bytes.prefix(file.sizeEnd))))
        #expect(partial?.size == [9, 9])
        #expect(partial?.isPartial == true)
    }
}
