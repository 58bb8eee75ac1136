import ImageProbe
import ImageProbeFixtures
import Testing

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
        garbageAfter([0x59, 0xA6, 0x6A, 0x95], seed: 0x5D, limit: 16, tails: .raster)
    }
}
