import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct AsepriteTests {
    @Test(arguments: [(32, 1, true), (16, 3, true), (8, 2, nil)] as [(Int, Int, Bool?)])
    func header(depth: Int, frames: Int, alpha: Bool?) {
        // 144 + 16 per frame, and 2,000 more bytes: the size's second byte is then above 1.
        for padding in [0, 2000] {
            let bytes = AsepriteBuilder.file(width: 65_535, height: 37, depth: depth, frames: frames, padding: padding)
            for options in [dimensionsOnly, ScanOptions()] {
                let outcome = verified(bytes, options)
                #expect(info(outcome)?.format == .aseprite)
                #expect(info(outcome)?.size == [65_535, 37])
                #expect(info(outcome)?.bitDepth == depth)
                #expect(info(outcome)?.hasAlpha == alpha)
                #expect(info(outcome)?.frameCount == frames)
                #expect(info(outcome)?.isAnimated == (frames > 1))
                let tgaLike = bytes[1] <= 1
                #expect(outcome.bytesConsumed == UInt64(tgaLike ? AsepriteBuilder.answerEndAfterATGALikeStart : AsepriteBuilder.answerEnd))
            }
        }
    }

    @Test func theMagicIsFoundAfterAnyFirstTwoBytesThatStartNoSignature() {
        // The file size's low half comes first: a TGA's colour-map type (second byte 0 or 1),
        // bytes that can't open XML after "<" or a blank, or bytes no format starts with.
        for size in [0xE0, 0x1FF, 0x2F8, 0x1A3C, 0xC820, 0x1_0020] {
            let bytes = AsepriteBuilder.file(width: 9, height: 4, padding: size - 144)
            #expect(info(verified(bytes))?.format == .aseprite, "\(size)")
        }
    }

    @Test func errors() {
        #expect(failureCode(verified(AsepriteBuilder.file(width: 4, height: 4, depth: 24))) == .unknownFormat)
        #expect(failureCode(verified(AsepriteBuilder.file(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(AsepriteBuilder.file(width: 4, height: 4, frames: 0))) == .malformed)
        // A file size below the 128-byte header is no Aseprite file.
        var small = AsepriteBuilder.file(width: 4, height: 4)
        small[0] = 100
        small[1] = 0
        #expect(failureCode(verified(small)) == .unknownFormat)
    }
}
