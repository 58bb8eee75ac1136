import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct WebPTests {
    @Test func lossy() {
        let bytes = WebPBuilder.lossy(width: 16383, height: 2)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [16383, 2])
        #expect(outcome.bytesConsumed == 30)
        #expect(info(verified(bytes))?.hasAlpha == false)
    }

    @Test func lossyScaleBitsAreNotPartOfTheSize() {
        let bytes = WebPBuilder.riff(WebPBuilder.lossyFrame(width: 100, height: 50, scale: 3))
        #expect(info(verified(bytes))?.size == [100, 50])
    }

    @Test(arguments: [true, false])
    func lossless(alpha: Bool) {
        let bytes = WebPBuilder.lossless(width: 16384, height: 1, alpha: alpha)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [16384, 1])
        #expect(info(outcome)?.hasAlpha == alpha)
        #expect(outcome.bytesConsumed == 25)
    }

    @Test func extendedCanvasAndFlags() {
        let image = WebPBuilder.lossyFrame(width: 10, height: 10)
        let bytes = WebPBuilder.extended(width: 1 << 24, height: 3, flags: WebPBuilder.flagAlpha | WebPBuilder.flagAnimation, chunks: image)
        let outcome = verified(bytes)
        let found = info(outcome)
        #expect(found?.size == [1 << 24, 3])
        #expect(found?.hasAlpha == true)
        #expect(found?.isAnimated == true)
        #expect(found?.orientation == nil)
        // No EXIF flag, but an animation: the walk looks for ANIM, and stops at the first
        // image chunk, since ANIM comes before the frames.
        #expect(found?.loopCount == nil)
        #expect(outcome.bytesConsumed == 38)
    }

    @Test func exifChunkAfterTheImageData() {
        for order in [ByteOrder.littleEndian, .bigEndian] {
            let tiff = TIFFBuilder(byteOrder: order, entries: [.orientation(7)]).build()
            var chunks = WebPBuilder.chunk("ICCP", [UInt8](repeating: 1, count: 13))
            chunks += WebPBuilder.chunk("ANIM", [0, 0, 0, 0, 0, 0])
            chunks += WebPBuilder.lossyFrame(width: 10, height: 10)
            chunks += WebPBuilder.chunk("EXIF", tiff) + WebPBuilder.chunk("XMP ", ascii("<x/>"))
            let bytes = WebPBuilder.extended(width: 640, height: 480, flags: WebPBuilder.flagEXIF, chunks: chunks)
            let found = info(verified(bytes))
            #expect(found?.orientation == .transverse)
            #expect(found?.displayWidth == 480)
            #expect(info(verified(bytes, dimensionsOnly))?.orientation == nil)
        }
    }

    @Test func exifFlagWithoutAnExifChunk() {
        let bytes = WebPBuilder.extended(width: 64, height: 48, flags: WebPBuilder.flagEXIF, chunks: WebPBuilder.lossyFrame(width: 64, height: 48))
        let found = info(verified(bytes))
        #expect(found?.size == [64, 48])
        #expect(found?.orientation == nil)
        #expect(found?.isPartial == false)
    }

    @Test func errors() {
        var notKeyFrame = WebPBuilder.lossy(width: 5, height: 5)
        notKeyFrame[20] |= 1
        #expect(failureCode(verified(notKeyFrame)) == .malformed)
        var noStartCode = WebPBuilder.lossy(width: 5, height: 5)
        noStartCode[23] = 0
        #expect(failureCode(verified(noStartCode)) == .malformed)
        var badVersion = WebPBuilder.lossless(width: 5, height: 5, alpha: false)
        badVersion[24] |= 0x20
        #expect(failureCode(verified(badVersion)) == .unsupportedFeature)
        var wave = WebPBuilder.lossy(width: 5, height: 5)
        wave.replaceSubrange(8..<12, with: ascii("WAVE"))
        #expect(failureCode(verified(wave)) == .unknownFormat)
        let unknownChunk = WebPBuilder.riff(WebPBuilder.chunk("ALPH", [1, 2, 3]))
        #expect(failureCode(verified(unknownChunk)) == .malformed)
    }
}
