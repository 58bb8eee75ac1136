import ImageProbe
import ImageProbeFixtures
import Testing

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
        garbageAfter([0x0A, 0x05], seed: 0x9C, limit: 12, tails: .raster)
    }
}
