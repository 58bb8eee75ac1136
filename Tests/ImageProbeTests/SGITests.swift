import ImageProbe
import ImageProbeFixtures
import Testing

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
        garbageAfter([0x01, 0xDA], seed: 0x5A1, limit: 12, tails: .raster)
    }
}
