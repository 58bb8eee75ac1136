import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct GIFTests {
    @Test(arguments: ["87a", "89a"])
    func logicalScreenSize(version: String) {
        let bytes = GIFBuilder.image(version: version, width: 500, height: 65535, colourTableBits: 4)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [500, 65535])
        #expect(outcome.bytesConsumed == 10)
        let full = verified(bytes)
        #expect(info(full)?.bitDepth == 4)
        // Full mode walks to the first image descriptor for a loop extension: header and
        // screen descriptor (13), the 16-entry colour table (48), the descriptor (10). With
        // none, whether a second image follows is left open.
        #expect(full.bytesConsumed == 13 + 48 + 10)
        #expect(info(full)?.isAnimated == nil)
        #expect(info(full)?.loopCount == nil)
    }

    @Test func noGlobalColourTableMeansNoDepth() {
        #expect(info(verified(GIFBuilder.image(width: 2, height: 3, colourTableBits: nil)))?.bitDepth == nil)
    }

    @Test func badSignatureAndZeroSize() {
        #expect(failureCode(verified(GIFBuilder.image(version: "88a", width: 1, height: 1))) == .unknownFormat)
        #expect(failureCode(verified(GIFBuilder.image(width: 0, height: 1))) == .malformed)
    }
}
