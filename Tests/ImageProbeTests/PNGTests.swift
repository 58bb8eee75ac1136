import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct PNGTests {
    @Test func headerGivesSizeAt24Bytes() {
        let bytes = PNGBuilder.image(width: 1920, height: 1080)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [1920, 1080])
        #expect(outcome.bytesConsumed == 24)
    }

    @Test(arguments: [(0, 1), (0, 16), (2, 8), (3, 4), (4, 8), (6, 16)])
    func fullModeReportsDepthAlphaAndInterlace(colourType: Int, bitDepth: Int) {
        for interlace in [0, 1] {
            let bytes = PNGBuilder.image(width: 3, height: 2, bitDepth: bitDepth, colourType: colourType, interlace: interlace)
            let outcome = verified(bytes)
            guard let info = info(outcome) else { continue }
            #expect(info.bitDepth == bitDepth)
            #expect(info.hasAlpha == (colourType == 4 || colourType == 6))
            #expect(info.isProgressive == (interlace == 1))
            #expect(info.isAnimated == false)  // image data without acTL before it
            #expect(info.loopCount == nil)
            #expect(info.orientation == nil)
            #expect(!info.isPartial)
            #expect(outcome.bytesConsumed == UInt64(bytes.count - 4))  // walked to IEND (not its CRC)
        }
    }

    @Test func transparencyChunkAddsAlpha() {
        let bytes = PNGBuilder.image(width: 3, height: 2, colourType: 2, beforeData: PNGBuilder.chunk("tRNS", [0, 1, 0, 2, 0, 3]))
        #expect(info(verified(bytes))?.hasAlpha == true)
    }

    @Test func appleCgBIVariant() {
        let bytes = PNGBuilder.image(width: 57, height: 58, colourType: 6, apple: true)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [57, 58])
        #expect(outcome.bytesConsumed == 40)
        #expect(info(verified(bytes))?.hasAlpha == true)
    }

    @Test func animatedPNG() {
        let bytes = PNGBuilder.image(width: 100, height: 100, beforeData: PNGBuilder.animationControl(frames: 12))
        let found = info(verified(bytes))
        #expect(found?.isAnimated == true)
        #expect(found?.frameCount == 12)
        #expect(found?.loopCount == 0)
        // acTL after the image data is not APNG: the image data came first, so it is still.
        let late = PNGBuilder.image(width: 100, height: 100, afterData: PNGBuilder.animationControl(frames: 12))
        #expect(info(verified(late))?.isAnimated == false)
        #expect(info(verified(late))?.loopCount == nil)
    }

    @Test func exifOrientationBeforeOrAfterImageData() {
        for order in [ByteOrder.littleEndian, .bigEndian] {
            let exif = PNGBuilder.exif(TIFFBuilder(byteOrder: order, entries: [.filler(), .orientation(6)]).build())
            let before = PNGBuilder.image(width: 30, height: 20, beforeData: exif)
            let after = PNGBuilder.image(width: 30, height: 20, afterData: exif)
            for bytes in [before, after] {
                let found = info(verified(bytes))
                #expect(found?.orientation == .rotate90Clockwise)
                #expect(found?.displayWidth == 20)
            }
            #expect(info(verified(before, dimensionsOnly))?.orientation == nil)
        }
    }

    /// As the range planner scans (SPEC.md §6.1): full mode ends at IDAT's chunk header, so an
    /// eXIf after it is not read; one before it still is. Animation mode walks on to IEND.
    @Test func withoutMetadataAfterImageDataTheScanEndsAtIDAT() throws {
        var options = ScanOptions()
        options.metadataAfterImageData = false
        let exif = PNGBuilder.exif(TIFFBuilder(entries: [.orientation(6)]).build())
        let after = PNGBuilder.image(width: 30, height: 20, afterData: exif)
        let outcome = verified(after, options)
        #expect(info(outcome)?.orientation == nil && info(outcome)?.isPartial == false)
        let idat = try #require(after.indices.first { Array(after[$0..<min($0 + 4, after.count)]) == ascii("IDAT") })
        #expect(outcome.bytesConsumed == UInt64(idat + 4))
        #expect(info(verified(PNGBuilder.image(width: 30, height: 20, beforeData: exif), options))?.orientation == .rotate90Clockwise)
        options.mode = .animation
        #expect(info(verified(after, options))?.orientation == .rotate90Clockwise)
    }

    @Test func chunksAfterAnEarlyExifStillCount() throws {
        // Pillow writes eXIf before acTL; acTL and tRNS are only required before IDAT.
        let exif = PNGBuilder.exif(TIFFBuilder(entries: [.orientation(6)]).build())
        let later = PNGBuilder.exif(TIFFBuilder(entries: [.orientation(3)]).build())
        let tiny = PNGBuilder.chunk("eXIf", [0x4D, 0x4D])
        let transparency = PNGBuilder.chunk("tRNS", [0, 1, 0, 2, 0, 3])
        for first in [exif, tiny] {
            let bytes = PNGBuilder.image(width: 30, height: 20, colourType: 2,
                                         beforeData: first + PNGBuilder.animationControl(frames: 7) + later + transparency)
            let outcome = verified(bytes)
            let found = info(outcome)
            // The first eXIf settles the orientation; a second is skipped.
            #expect(found?.orientation == (first == exif ? .rotate90Clockwise : nil))
            #expect(found?.isAnimated == true && found?.frameCount == 7)
            #expect(found?.hasAlpha == true)
            #expect(found?.isPartial == false)
            // The answer comes at IDAT's chunk header, not at IEND.
            let idat = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + 4, bytes.count)]) == ascii("IDAT") })
            #expect(outcome.bytesConsumed == UInt64(idat + 4))
        }
    }

    @Test func exifWithTheJPEGIdentifierCopiedIn() {
        let tiff = TIFFBuilder(entries: [.orientation(3)]).build()
        let bytes = PNGBuilder.image(width: 30, height: 20, beforeData: PNGBuilder.chunk("eXIf", ascii("Exif") + [0, 0] + tiff))
        #expect(info(verified(bytes))?.orientation == .rotate180)
    }

    @Test func truncatedAfterHeaderIsAPartialAnswerInFullMode() {
        let exif = PNGBuilder.exif(TIFFBuilder(entries: [.orientation(6)]).build())
        let whole = PNGBuilder.image(width: 30, height: 20, afterData: exif)
        let cut = Array(whole[0..<60])
        let outcome = verified(cut)
        let found = info(outcome)
        #expect(found?.size == [30, 20])
        #expect(found?.isPartial == true)
        #expect(found?.orientation == nil)
    }

    @Test func hugeChunkThenEndOfFileStillGivesTheSize() {
        // libpng's "crashers": a valid IHDR, then a chunk claiming 1 GiB, then the end.
        var bytes = PNGBuilder.signature + PNGBuilder.header(width: 1, height: 1)
        bytes.append32(0x3FFF_FFFF, .bigEndian)
        bytes += ascii("tEXt") + ascii("Comment") + [0] + ascii("abc")
        let found = info(verified(bytes))
        #expect(found?.size == [1, 1])
        #expect(found?.isPartial == true)
    }

    @Test func signatureAndHeaderErrors() {
        var damaged = PNGBuilder.image(width: 1, height: 1)
        damaged[4] = 0x0D  // "\r" where "\r\n" should start: a text-mode transfer
        damaged.insert(0x0D, at: 5)
        #expect(failureCode(verified(damaged)) == .unknownFormat)

        let noHeader = PNGBuilder.signature + PNGBuilder.chunk("gAMA", [0, 0, 0, 1]) + PNGBuilder.end
        #expect(failureCode(verified(noHeader)) == .malformed)

        for (width, height) in [(0, 1), (1, 0), (0x8000_0000, 1)] {
            #expect(failureCode(verified(PNGBuilder.image(width: width, height: height))) == .malformed)
        }
        var badLength = PNGBuilder.image(width: 1, height: 1)
        badLength[11] = 14
        #expect(failureCode(verified(badLength)) == .malformed)
    }

    @Test func truncatedBeforeTheSize() {
        let bytes = PNGBuilder.image(width: 4, height: 4)
        for length in 0..<24 {
            #expect(failureCode(ChunkingVerifier.scanWhole(Array(bytes[0..<length]))) == .truncated)
        }
    }
}
