import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct ScannerContractTests {
    @Test func resultsAreStickyAndConsumeNothingMore() {
        let bytes = PNGBuilder.image(width: 8, height: 9)
        var scanner = HeaderScanner(options: dimensionsOnly)
        let first = scanner.feed(bytes)
        #expect(scanner.bytesConsumed == 24)
        #expect(scanner.feed(bytes) == first)
        #expect(scanner.finish() == first)
        #expect(scanner.status == first)
        #expect(scanner.bytesConsumed == 24)
        #expect(scanner.pendingSkip == 0)

        var failed = HeaderScanner()
        let failure = failed.feed(ascii("not an image"))
        #expect(failureCode(ChunkingVerifier.scanWhole(ascii("not an image"))) == .unknownFormat)
        #expect(failed.feed(bytes) == failure)
        #expect(failed.finish() == failure)
    }

    @Test func needMoreCountsAdditionalBytes() {
        let bytes = PNGBuilder.image(width: 8, height: 9)
        var scanner = HeaderScanner(options: dimensionsOnly)
        #expect(scanner.status == .needMore(2))
        #expect(scanner.feed(Array(bytes[0..<5])) == .needMore(19))
        #expect(scanner.feed(Array(bytes[5..<23])) == .needMore(1))
        #expect(scanner.feed(Array(bytes[23..<24])).isTerminal)
    }

    @Test func needMoreIncludesThePendingSkip() {
        let builder = TIFFBuilder(entries: [.width(1), .height(1)], gapBeforeIFD: 1000)
        var scanner = HeaderScanner(options: dimensionsOnly)
        let status = scanner.feed(Array(builder.build()[0..<8]))
        #expect(status == .needMore(1000 + 2))
        #expect(scanner.pendingSkip == 1000)
        #expect(scanner.skip(400) == 400)
        #expect(scanner.status == .needMore(600 + 2))
        #expect(scanner.bytesConsumed == 408)
    }

    @Test func skipNeverPassesBytesTheScannerNeeds() {
        var scanner = HeaderScanner()
        #expect(scanner.skip(100) == 0)
        _ = scanner.feed(PNGBuilder.signature)
        #expect(scanner.skip(5) == 0)
        #expect(scanner.bytesConsumed == 8)
    }

    @Test func emptyInputAndTinyInputsAreTruncated() {
        #expect(failureCode(verified([])) == .truncated)
        #expect(failureCode(verified([0xFF])) == .truncated)
        var scanner = HeaderScanner()
        #expect(scanner.feed([]) == .needMore(2))
        #expect(scanner.bytesConsumed == 0)
    }

    @Test func randomBytesNeverCrashAndNeverLoop() {
        var random = SeededRandom(seed: 42)
        for length in [2, 3, 17, 100, 1000] {
            for _ in 0..<20 {
                let outcome = verified(random.bytes(length))
                #expect(outcome.bytesConsumed <= UInt64(length))
            }
        }
    }

    @Test func everySignatureFollowedByGarbage() {
        var random = SeededRandom(seed: 7)
        let signatures: [[UInt8]] = [
            [0xFF, 0xD8], [0xFF, 0xD8, 0xFF], PNGBuilder.signature, ascii("GIF89a"), ascii("BM"), ascii("RIFF"),
            ascii("RIFF") + [1, 0, 0, 0] + ascii("WEBPVP8X"), ascii("II*\0"), ascii("MM\0*"), ascii("II+\0\u{8}\0\0\0"),
            // Every other format's signature, or for TGA the start of a plausible header.
            [0, 0, 0, 0x18] + ascii("ftypheic"), [0, 0, 0, 0x18] + ascii("ftypavif"), [0, 0, 0, 0x14] + ascii("ftypmif1"),
            [0xFF, 0x0A], [0, 0, 0, 0x0C] + ascii("JXL ") + [0x0D, 0x0A, 0x87, 0x0A],
            [0, 0, 0, 0x0C] + ascii("jP  ") + [0x0D, 0x0A, 0x87, 0x0A], [0xFF, 0x4F, 0xFF, 0x51],
            [0, 0, 1, 0], [0, 0, 2, 0], [0, 0, 2, 0, 0, 0, 0, 0], [0, 0, 10, 0, 0, 0, 0, 0],
            ascii("8BPS\0\u{1}"), ascii("8BPS\0\u{2}"), ascii("qoif"), ascii("DDS "), ascii("icns"),
            [0xAB] + ascii("KTX 11") + [0xBB, 0x0D, 0x0A, 0x1A, 0x0A], [0xAB] + ascii("KTX 20") + [0xBB, 0x0D, 0x0A, 0x1A, 0x0A],
            [0x76, 0x2F, 0x31, 0x01], ascii("#?RADIANCE\n"), ascii("#?RGBE\n"), ascii("#define "),
            ascii("P1\n"), ascii("P4 "), ascii("P6\n"), ascii("P7\n"), ascii("PF\n"), ascii("Pf\n"),
            ascii("<svg "), ascii("<?xml "), [0xEF, 0xBB, 0xBF] + ascii("<svg"),
            [0x0A, 0x05, 0x01], [0x01, 0xDA], [0x59, 0xA6, 0x6A, 0x95],
            // SPEC.md §3.27–§3.39.
            ascii("%!PS-Adobe-3.0 EPSF-3.0\n"), ascii("%!PS-Adobe-3.0\n%%BoundingBox: "), [0xC5, 0xD0, 0xD3, 0xC6],
            [0xC5, 0xD0, 0xD3, 0xC6, 30, 0, 0, 0, 0x40, 0, 0, 0], ascii("/* XPM */"), ascii("/* XPM */\nstatic char * x[] = {\n\""),
            ascii("! XPM2\n"), ascii("SIMPLE  =                    T"), [0xB1, 0x68, 0xDE, 0x3A], [0xB1, 0x68, 0xDE, 0x3A, 12, 0, 0, 0],
            ascii("DanM"), ascii("LinS"), ascii("BLP0"), ascii("BLP1"), ascii("BLP2"), ascii("PVR\u{3}"), [0x03] + ascii("RVP"),
            [0x34, 0, 0, 0], ascii("PKM 10"), ascii("PKM 20"), [0x13, 0xAB, 0xA1, 0x5C], ascii("farbfeld"), ascii("VTF\0"),
            ascii("FORM\0\0\u{1}\0ILBM"), ascii("FORM\0\0\u{1}\0PBM "), ascii("FORM\0\0\u{1}\0ACBM"), ascii("FORM\0\0\u{1}\0ILBMBMHD"),
            [0x90, 0, 0, 0, 0xE0, 0xA5], [0xF8, 0x02, 0, 0, 0xE0, 0xA5],
        ]
        for signature in signatures {
            for (length, repeats) in [(0, 1), (1, 10), (5, 10), (40, 10), (400, 3)] {
                for _ in 0..<repeats {
                    verified(signature + random.bytes(length))
                }
            }
            // Longer garbage reaches deeper states; a sample of chunkings keeps it quick.
            let report = ChunkingVerifier().verify(signature + random.bytes(3000), coverage: .sampled(seed: random.next()))
            #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
        }
    }

    @Test func byteLimitStopsALongSearch() {
        var options = ScanOptions()
        options.maxBytes = 1000
        // A JPEG whose frame header sits after 5000 bytes of segments.
        let before = JPEGBuilder.segment(0xE2, [UInt8](repeating: 0, count: 5000))
        let (bytes, _) = JPEGBuilder.image(before: before, width: 5, height: 5)
        let outcome = verified(bytes, options)
        #expect(failureCode(outcome) == .limitExceeded)
        #expect(outcome.bytesConsumed == 1000)
        #expect(info(verified(bytes))?.size == [5, 5])

        // Once the size is known, the limit only ends the metadata search.
        let png = PNGBuilder.image(width: 9, height: 9, beforeData: PNGBuilder.chunk("zTXt", [UInt8](repeating: 1, count: 3000)))
        let found = info(verified(png, options))
        #expect(found?.size == [9, 9])
        #expect(found?.isPartial == true)
    }

    @Test func bytesASeekingReaderJumpsDontCountAgainstTheLimit() {
        var options = ScanOptions(mode: .dimensionsOnly)
        options.maxBytes = 100
        let bytes = TIFFBuilder(entries: [.width(3), .height(4)], gapBeforeIFD: 50_000).build()
        var scanner = HeaderScanner(options: options)
        _ = scanner.feed(Array(bytes[0..<8]))
        scanner.skip(scanner.pendingSkip)
        let status = scanner.feed(Array(bytes[50_008...]))
        #expect(status == .done(ImageInfo(format: .tiff, width: 3, height: 4)))
    }

    @Test func dimensionLimits() {
        var options = ScanOptions()
        options.maxWidth = 1000
        options.maxHeight = 500
        #expect(failureCode(verified(PNGBuilder.image(width: 1001, height: 10), options)) == .limitExceeded)
        #expect(failureCode(verified(PNGBuilder.image(width: 10, height: 501), options)) == .limitExceeded)
        #expect(info(verified(PNGBuilder.image(width: 1000, height: 500), options))?.size == [1000, 500])
        // The default admits JPEG XL's maximum and rejects larger values.
        #expect(ScanOptions.defaultMaxDimension == 1 << 30)
        #expect(failureCode(verified(PNGBuilder.image(width: (1 << 30) + 1, height: 1))) == .limitExceeded)
    }

    @Test func scannerIsSmallAndFixedSize() {
        // The carry is 64 bytes; the rest is parser state, HEIF's tables and counters.
        #expect(MemoryLayout<HeaderScanner>.size <= 1024, "\(MemoryLayout<HeaderScanner>.size)")
    }

    @Test func feedingSequencesStopsAtTheAnswer() {
        let bytes = PNGBuilder.image(width: 8, height: 9)
        var scanner = HeaderScanner(options: dimensionsOnly)
        // A non-contiguous sequence (a lazy map) goes through the stack buffer.
        var consumed = 0
        let sequence = bytes.lazy.map { byte -> UInt8 in consumed += 1; return byte }
        let status = scanner.feed(contentsOf: sequence)
        #expect(status == .done(ImageInfo(format: .png, width: 8, height: 9)))
        #expect(consumed == 24)
        #expect(HeaderScanner.scan(ArraySlice(bytes).map { $0 }, options: dimensionsOnly) == status)
        var sliced = HeaderScanner(options: dimensionsOnly)
        #expect(sliced.feed(bytes[0...]) == status)
    }

    @Test func orientationHelpers() {
        for value in UInt8(1)...8 {
            let orientation = Orientation(rawValue: value)
            #expect(orientation?.swapsWidthAndHeight == (value >= 5))
        }
        #expect(Orientation(rawValue: 0) == nil)
        #expect(Orientation(rawValue: 9) == nil)
        var info = ImageInfo(format: .jpeg, width: 4, height: 3, orientation: .rotate90Clockwise)
        #expect([info.displayWidth, info.displayHeight] == [3, 4])
        info.orientation = .mirrorHorizontal
        #expect([info.displayWidth, info.displayHeight] == [4, 3])
        #expect(info.mimeType.description == "image/jpeg")
    }

    @Test func formatNamesAreLowercaseAndDistinct() {
        let names = ImageFormat.all.map { $0.name.description }
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0 == $0.lowercased() })
        #expect(ImageFormat.all.allSatisfy { $0.mimeType.description.hasPrefix("image/") })
    }
}
