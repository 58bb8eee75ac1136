import ImageProbe
import ImageProbeFixtures
import Testing

/// Every limit in `ScanOptions`: its documented default, what it stops, and that stopping is
/// `limitExceeded` (or, once the size is known, a partial answer that says so), never a hang.
@Suite struct LimitsTests {
    @Test func documentedDefaults() {
        let options = ScanOptions()
        #expect(options.maxBytes == 16 << 20)
        #expect(options.maxWidth == 1 << 30 && options.maxHeight == 1 << 30)
        #expect(options.maxEntries == 65_536)
        #expect(options.maxDepth == 16)
        #expect(options.inputLength == nil)
        #expect(options.mode == .full)
    }

    @Test func maxBytesAtItsDefault() {
        // Frame headers after 15 MiB and after 17 MiB of APP2 segments.
        func jpeg(megabytes: Int) -> [UInt8] {
            let segment = JPEGBuilder.segment(0xE2, [UInt8](repeating: 0, count: 65_533))
            var before: [UInt8] = []
            before.reserveCapacity(megabytes << 20)
            for _ in 0..<(megabytes << 20) / segment.count { before += segment }
            return JPEGBuilder.image(before: before, width: 3, height: 2).bytes
        }
        let within = ChunkingVerifier.scanWhole(jpeg(megabytes: 15))
        #expect(info(within)?.size == [3, 2])
        let beyond = ChunkingVerifier.scanWhole(jpeg(megabytes: 17))
        #expect(failureCode(beyond) == .limitExceeded)
        #expect(beyond.bytesConsumed == UInt64(16 << 20))
    }

    @Test(arguments: [1, 2, 23, 24, 100])
    func maxBytesIsExact(limit: Int) {
        // A PNG's size is known at byte 24 in dimensions-only mode.
        var options = ScanOptions(mode: .dimensionsOnly)
        options.maxBytes = limit
        let outcome = verified(PNGBuilder.image(width: 5, height: 6), options)
        if limit >= 24 {
            #expect(info(outcome)?.size == [5, 6])
        } else {
            #expect(failureCode(outcome) == .limitExceeded)
            #expect(outcome.bytesConsumed == UInt64(limit))
        }
    }

    @Test func maxBytesAfterTheSizeEndsOnlyTheMetadataSearch() {
        var options = ScanOptions()
        options.maxBytes = 200
        let exif = WebPBuilder.chunk("EXIF", TIFFBuilder(entries: [.orientation(6)]).build())
        let bytes = WebPBuilder.extended(width: 9, height: 9, flags: WebPBuilder.flagEXIF,
                                         chunks: WebPBuilder.chunk("ICCP", [UInt8](repeating: 7, count: 500)) + exif)
        let found = info(verified(bytes, options))
        #expect(found?.size == [9, 9])
        #expect(found?.partialReason?.code == .limitExceeded)
        #expect(found?.orientation == nil)
        #expect(info(verified(bytes))?.orientation == .rotate90Clockwise)
    }

    @Test func maxEntries() {
        var options = ScanOptions()
        options.maxEntries = 3
        // JPEG segments before the frame header.
        let (jpeg, _) = JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.quantizationTable + JPEGBuilder.quantizationTable, width: 1, height: 1)
        #expect(failureCode(verified(jpeg, options)) == .limitExceeded)
        // TIFF entries before the size.
        let tiff = TIFFBuilder(entries: [.filler(tag: 0x10), .filler(tag: 0x11), .filler(tag: 0x12), .width(1), .height(1)]).build()
        #expect(failureCode(verified(tiff, options)) == .limitExceeded)
        // PNG chunks after the size: a partial answer that names the limit.
        let png = PNGBuilder.image(width: 4, height: 4, beforeData: (0..<5).flatMap { _ in PNGBuilder.chunk("tEXt", ascii("k\0v")) })
        #expect(info(verified(png, options))?.partialReason?.code == .limitExceeded)
        // HEIF boxes.
        #expect(failureCode(verified(ISOBMFFBuilder.phoneStyle(width: 8, height: 8), options)) == .limitExceeded)
    }

    @Test func maxEntriesAtItsDefault() {
        // 70,000 tiny chunks after IHDR: the default stops the walk, not the answer.
        let chunk = PNGBuilder.chunk("tEXt", [0x6B, 0])
        var chunks: [UInt8] = []
        chunks.reserveCapacity(70_000 * chunk.count)
        for _ in 0..<70_000 { chunks += chunk }
        let found = info(ChunkingVerifier.scanWhole(PNGBuilder.image(width: 3, height: 3, beforeData: chunks)))
        #expect(found?.partialReason?.code == .limitExceeded)
        #expect(found?.size == [3, 3])
    }

    @Test(arguments: 1...4)
    func maxDepth(depth: Int) {
        // meta is at depth 1, iprp 2, ipco 3, the properties 4.
        var options = ScanOptions()
        options.maxDepth = depth
        let outcome = verified(ISOBMFFBuilder.phoneStyle(width: 8, height: 8), options)
        if depth >= 4 {
            #expect(info(outcome)?.size == [8, 8])
        } else {
            #expect(failureCode(outcome) == .limitExceeded)
        }
    }

    @Test func maxWidthAndHeightApplyTheMomentTheSizeIsKnown() {
        var options = ScanOptions()
        options.maxWidth = 100
        options.maxHeight = 100
        let cases: [[UInt8]] = [
            JPEGBuilder.image(width: 101, height: 1).bytes, PNGBuilder.image(width: 1, height: 101),
            GIFBuilder.image(width: 101, height: 1), BMPBuilder.image(headerSize: 40, width: 1, height: -101).bytes,
            WebPBuilder.lossless(width: 101, height: 1, alpha: false), TIFFBuilder(entries: [.width(1), .height(101)]).build(),
            ISOBMFFBuilder.phoneStyle(width: 101, height: 1),
        ]
        for bytes in cases {
            let outcome = verified(bytes, options)
            #expect(failureCode(outcome) == .limitExceeded, "\(outcome)")
        }
    }
}
