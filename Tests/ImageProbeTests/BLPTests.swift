import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct BLPTests {
    @Test(arguments: [(0, 0, 1, 8, false), (1, 1, 1, 8, true), (1, 0, 0, nil, false), (1, 4, 1, 8, true)] as [(Int, Int, Int, Int?, Bool)])
    func version1(version: Int, alphaBits: Int, compression: Int, bits: Int?, alpha: Bool) {
        let bytes = BLPBuilder.blp1(version: version, width: 1000, height: 3, compression: compression, alphaBits: alphaBits)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.format == .blp)
            #expect(info(outcome)?.size == [1000, 3])
            #expect(info(outcome)?.bitDepth == bits)
            #expect(info(outcome)?.hasAlpha == alpha)
            #expect(outcome.bytesConsumed == UInt64(BLPBuilder.answerEnd))
        }
        truncatedBefore(BLPBuilder.answerEnd, bytes)
    }

    @Test(arguments: [(1, 0, 8, false), (2, 8, nil, true), (3, 1, 8, true)] as [(Int, Int, Int?, Bool)])
    func version2(encoding: Int, alphaDepth: Int, bits: Int?, alpha: Bool) {
        let bytes = BLPBuilder.blp2(width: 13, height: 7, encoding: encoding, alphaDepth: alphaDepth)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [13, 7])
        #expect(info(outcome)?.bitDepth == bits)
        #expect(info(outcome)?.hasAlpha == alpha)
        #expect(outcome.bytesConsumed == UInt64(BLPBuilder.answerEnd))
    }

    @Test func errors() {
        #expect(failureCode(verified(BLPBuilder.blp1(width: 0, height: 3))) == .malformed)
        #expect(failureCode(verified(BLPBuilder.blp1(width: 4, height: 3, compression: 2))) == .malformed)
        #expect(failureCode(verified(BLPBuilder.blp1(width: 4, height: 3, alphaBits: 2))) == .malformed)
        #expect(failureCode(verified(BLPBuilder.blp2(width: 4, height: 3, encoding: 4))) == .malformed)
        #expect(failureCode(verified(BLPBuilder.blp2(width: 4, height: 3, type: 0))) == .unsupportedFeature)
        #expect(failureCode(verified(BLPBuilder.blp1(version: 3, width: 4, height: 3))) == .unsupportedFeature)
        #expect(failureCode(verified(ascii("BLX1") + BLPBuilder.blp1(width: 4, height: 3).dropFirst(4))) == .unknownFormat)
        garbageAfter(ascii("BLP2"), seed: 0xB1, limit: 20, tails: .texture)
    }
}
