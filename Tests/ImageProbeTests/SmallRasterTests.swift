import ImageProbe
import ImageProbeFixtures
import Testing

/// Signature followed by random bytes: never a crash, never a read past `limit`.
private func garbageAfter(_ signature: [UInt8], seed: UInt64, limit: UInt64) {
    var random = SeededRandom(seed: seed)
    for length in [0, 1, 6, 10, 14, 40] {
        for _ in 0..<20 {
            for options in [ScanOptions(), dimensionsOnly] {
                #expect(verified(signature + random.bytes(length), options).bytesConsumed <= limit)
            }
        }
    }
}

/// Every prefix shorter than `answerEnd` in dimensions-only mode is truncated.
private func truncatedBefore(_ answerEnd: Int, _ bytes: [UInt8], _ format: ImageFormat) {
    for length in 0..<answerEnd {
        let outcome = ChunkingVerifier.scanWhole(Array(bytes[0..<length]), options: dimensionsOnly)
        #expect(failureCode(outcome) == .truncated)
    }
    #expect(info(ChunkingVerifier.scanWhole(Array(bytes[0..<answerEnd]), options: dimensionsOnly))?.format == format)
}

@Suite struct QOITests {
    @Test(arguments: [3, 4])
    func header(channels: Int) {
        let bytes = QOIBuilder.file(width: 800, height: 600, channels: channels, colourSpace: 1)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.format == .qoi)
        #expect(info(outcome)?.size == [800, 600])
        #expect(outcome.bytesConsumed == UInt64(QOIBuilder.dimensionsAnswerEnd))
        let full = verified(bytes)
        #expect(info(full)?.hasAlpha == (channels == 4))
        #expect(info(full)?.bitDepth == 8)
        #expect(full.bytesConsumed == UInt64(QOIBuilder.fullAnswerEnd))
        truncatedBefore(QOIBuilder.dimensionsAnswerEnd, bytes, .qoi)
    }

    @Test func errors() {
        #expect(failureCode(verified(ascii("qoix") + Array(QOIBuilder.file(width: 1, height: 1).dropFirst(4)))) == .unknownFormat)
        #expect(failureCode(verified(QOIBuilder.file(width: 0, height: 1))) == .malformed)
        #expect(failureCode(verified(QOIBuilder.file(width: 1 << 31, height: 1))) == .limitExceeded)
        for (channels, colourSpace) in [(2, 0), (5, 0), (3, 2)] {
            let found = info(verified(QOIBuilder.file(width: 2, height: 2, channels: channels, colourSpace: colourSpace)))
            #expect(found?.isPartial == true)
            #expect(found?.hasAlpha == nil)
        }
        garbageAfter(ascii("qoif"), seed: 0x901, limit: 14)
    }
}

@Suite struct PCXTests {
    @Test(arguments: [0, 2, 3, 4, 5])
    func windowGivesTheSize(version: Int) {
        let bytes = PCXBuilder.file(version: version, bitsPerPixel: 1, xMin: 10, yMin: 5, xMax: 649, yMax: 484, planes: 4)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.format == .pcx)
        #expect(info(outcome)?.size == [640, 480])
        #expect(outcome.bytesConsumed == UInt64(PCXBuilder.answerEnd))
        #expect(verified(bytes).bytesConsumed == UInt64(PCXBuilder.answerEnd))
        #expect(info(verified(bytes))?.bitDepth == 1)
        truncatedBefore(PCXBuilder.answerEnd, bytes, .pcx)
    }

    @Test func extremes() {
        #expect(info(verified(PCXBuilder.file(xMax: 0, yMax: 0)))?.size == [1, 1])
        #expect(info(verified(PCXBuilder.file(xMax: 65535, yMax: 65535)))?.size == [65536, 65536])
        #expect(info(verified(PCXBuilder.file(encoding: 0, xMin: 7, yMin: 7, xMax: 7, yMax: 8)))?.size == [1, 2])
    }

    @Test func errors() {
        #expect(failureCode(verified(PCXBuilder.file(xMin: 5, xMax: 4, yMax: 1))) == .malformed)
        #expect(failureCode(verified(PCXBuilder.file(yMin: 2, xMax: 4, yMax: 1))) == .malformed)
        for bits in [0, 3, 16, 24] {
            #expect(failureCode(verified(PCXBuilder.file(bitsPerPixel: bits, xMax: 4, yMax: 4))) == .malformed)
        }
        // Encodings other than 0 and 1 are read as Pillow and ImageMagick read them (§3.15).
        #expect(info(verified(PCXBuilder.file(encoding: 2, xMax: 4, yMax: 4)))?.size == [5, 5])
        var options = ScanOptions()
        options.maxWidth = 100
        #expect(failureCode(verified(PCXBuilder.file(xMax: 100, yMax: 4), options)) == .limitExceeded)
        #expect(info(verified(PCXBuilder.file(xMax: 99, yMax: 4), options))?.size == [100, 5])
        garbageAfter([0x0A, 0x05], seed: 0x9C, limit: 12)
    }
}

@Suite struct SGITests {
    @Test(arguments: [1, 2, 3])
    func dimensions(dimension: Int) {
        let bytes = SGIBuilder.file(storage: 1, bytesPerChannel: 2, dimension: dimension, width: 300, height: 200, channels: 4)
        let outcome = verified(bytes, dimensionsOnly)
        // A one-dimensional image is one row, whatever ysize says.
        #expect(info(outcome)?.size == [300, dimension == 1 ? 1 : 200])
        #expect(outcome.bytesConsumed == UInt64(SGIBuilder.dimensionsAnswerEnd(dimension: dimension)))
        let full = verified(bytes)
        #expect(info(full)?.bitDepth == 16)
        #expect(info(full)?.hasAlpha == (dimension == 3))
        #expect(full.bytesConsumed == UInt64(SGIBuilder.fullAnswerEnd(dimension: dimension)))
        truncatedBefore(SGIBuilder.dimensionsAnswerEnd(dimension: dimension), bytes, .sgi)
    }

    @Test func channelCounts() {
        for (channels, alpha) in [(1, false), (3, false), (4, true), (2, nil), (5, nil)] as [(Int, Bool?)] {
            let found = info(verified(SGIBuilder.file(width: 4, height: 4, channels: channels)))
            #expect(found?.hasAlpha == alpha)
            #expect(found?.bitDepth == 8)
        }
    }

    @Test func errors() {
        #expect(failureCode(verified(SGIBuilder.file(storage: 2, width: 4, height: 4))) == .malformed)
        #expect(failureCode(verified(SGIBuilder.file(bytesPerChannel: 3, width: 4, height: 4))) == .malformed)
        for dimension in [0, 4] {
            #expect(failureCode(verified(SGIBuilder.file(dimension: dimension, width: 4, height: 4))) == .malformed)
        }
        #expect(failureCode(verified(SGIBuilder.file(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(SGIBuilder.file(dimension: 2, width: 4, height: 0))) == .malformed)
        // zsize comes after the size: full mode gives a partial answer, dimensions-only mode
        // doesn't read it.
        let noChannels = SGIBuilder.file(width: 4, height: 5, channels: 0)
        #expect(info(verified(noChannels))?.isPartial == true)
        #expect(info(verified(noChannels, dimensionsOnly))?.isPartial == false)
        #expect(info(verified(noChannels))?.size == [4, 5])
        garbageAfter([0x01, 0xDA], seed: 0x5A1, limit: 12)
    }
}

@Suite struct SunRasterTests {
    @Test(arguments: [1, 8, 24, 32])
    func header(depth: Int) {
        let bytes = SunRasterBuilder.file(width: 1152, height: 900, depth: depth)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.format == .sun)
        #expect(info(outcome)?.size == [1152, 900])
        #expect(outcome.bytesConsumed == UInt64(SunRasterBuilder.dimensionsAnswerEnd))
        let full = verified(bytes)
        #expect(info(full)?.bitDepth == depth)
        #expect(full.bytesConsumed == UInt64(SunRasterBuilder.fullAnswerEnd))
        truncatedBefore(SunRasterBuilder.dimensionsAnswerEnd, bytes, .sun)
    }

    @Test func errors() {
        #expect(failureCode(verified([0x59, 0xA6, 0x6A, 0x96] + Array(SunRasterBuilder.file(width: 1, height: 1).dropFirst(4)))) == .unknownFormat)
        #expect(failureCode(verified(SunRasterBuilder.file(width: 0, height: 1))) == .malformed)
        #expect(failureCode(verified(SunRasterBuilder.file(width: 1, height: 0))) == .malformed)
        #expect(failureCode(verified(SunRasterBuilder.file(width: 1, height: 0x8000_0000))) == .limitExceeded)
        let oddDepth = info(verified(SunRasterBuilder.file(width: 2, height: 3, depth: 7)))
        #expect(oddDepth?.isPartial == true)
        #expect(oddDepth?.bitDepth == nil)
        garbageAfter([0x59, 0xA6, 0x6A, 0x95], seed: 0x5D, limit: 16)
    }
}
