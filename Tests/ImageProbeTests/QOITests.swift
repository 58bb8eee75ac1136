import ImageProbe
import ImageProbeFixtures
import Testing

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
        garbageAfter(ascii("qoif"), seed: 0x901, limit: 14, tails: .raster)
    }
}
