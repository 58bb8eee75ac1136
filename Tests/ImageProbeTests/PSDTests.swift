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
        #expect(outcome.bytesConsumed == UInt64(PSDBuilder.fullAnswerEnd))
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
}
