import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct BMPTests {
    @Test(arguments: BMPBuilder.headerSizes)
    func everyHeaderSize(headerSize: Int) {
        let (bytes, answerEnd) = BMPBuilder.image(headerSize: headerSize, width: 1234, height: 567, bitCount: 8)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [1234, 567])
        #expect(outcome.bytesConsumed == UInt64(answerEnd))
        let full = verified(bytes)
        #expect(info(full)?.bitDepth == 8)
        #expect(full.bytesConsumed == UInt64(answerEnd + 4))
    }

    @Test(arguments: BMPBuilder.headerSizes.filter { $0 != 12 })
    func topDownHeightIsItsAbsoluteValue(headerSize: Int) {
        let (bytes, _) = BMPBuilder.image(headerSize: headerSize, width: 16, height: -9)
        #expect(info(verified(bytes))?.size == [16, 9])
    }

    @Test func coreHeaderReadsSixteenBitFieldsAtEighteenAndTwenty() {
        // Width and height differ, so reading both from one offset would show.
        let (bytes, _) = BMPBuilder.image(headerSize: 12, width: 0xFFFF, height: 0x1234)
        #expect(info(verified(bytes))?.size == [0xFFFF, 0x1234])
    }

    @Test func malformedHeaders() {
        for (headerSize, width, height) in [(40, 0, 5), (40, -5, 5), (40, 5, 0), (40, 5, Int(Int32.min)), (12, 0, 5), (41, 5, 5), (20, 5, 5), (200, 5, 5)] {
            let (bytes, _) = BMPBuilder.image(headerSize: headerSize, width: width, height: height)
            #expect(failureCode(verified(bytes)) == .malformed, "\(headerSize) \(width)x\(height)")
        }
    }
}
