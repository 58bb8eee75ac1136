import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct FarbfeldTests {
    @Test(arguments: [(1, 1), (70_000, 1), (1, 70_000)])
    func header(width: Int, height: Int) {
        let bytes = FarbfeldBuilder.file(width: width, height: height)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.format == .farbfeld)
            #expect(info(outcome)?.size == [width, height])
            #expect(info(outcome)?.bitDepth == 16)
            #expect(info(outcome)?.hasAlpha == true)
            #expect(outcome.bytesConsumed == UInt64(FarbfeldBuilder.answerEnd))
        }
    }

    @Test func errors() {
        #expect(failureCode(verified(FarbfeldBuilder.file(width: 0, height: 1))) == .malformed)
        #expect(failureCode(verified(ascii("farbfelt") + FarbfeldBuilder.file(width: 1, height: 1).dropFirst(8))) == .unknownFormat)
        var small = ScanOptions()
        small.maxWidth = 10
        #expect(failureCode(verified(FarbfeldBuilder.file(width: 11, height: 1), small)) == .limitExceeded)
    }
}
