import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct DDSTests {
    @Test(arguments: [(690, 298), (1, 1), (16384, 3), (3, 16384)])
    func sizeAt20BytesHeightFirst(width: Int, height: Int) {
        let bytes = DDSBuilder.image(width: width, height: height)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.format == .dds)
        #expect(info(outcome)?.size == [width, height])
        #expect(outcome.bytesConsumed == 20)
        #expect(info(outcome)?.bitDepth == nil)
    }

    @Test func fullModeReadsThePixelFormat() {
        let bytes = DDSBuilder.image(width: 64, height: 32)
        let outcome = verified(bytes)
        let found = info(outcome)
        #expect(found?.size == [64, 32])
        #expect(found?.isPartial == false)
        #expect(found?.orientation == nil)
        #expect(outcome.bytesConsumed == 108)  // magic, header fields, DDS_PIXELFORMAT
    }

    @Test(arguments: [
        ("DXT1", nil), ("DXT2", true), ("DXT3", true), ("DXT4", true), ("DXT5", true), ("ATI1", false),
        ("ATI2", false), ("BC4U", false), ("BC5S", false), ("DX10", nil), ("RGBG", nil),
    ] as [(String, Bool?)])
    func compressedFormatsStateAlphaOnlyWhenCertain(code: String, alpha: Bool?) {
        let bytes = DDSBuilder.image(width: 8, height: 8, pixelFormatFlags: DDSBuilder.fourCC, fourCCCode: code)
        let found = info(verified(bytes))
        #expect(found?.hasAlpha == alpha)
        #expect(found?.bitDepth == nil)
    }

    @Test(arguments: [
        (DDSBuilder.rgb, 24, false), (DDSBuilder.rgb | DDSBuilder.alphaPixels, 32, true),
        (DDSBuilder.luminance, 8, false), (DDSBuilder.luminance | DDSBuilder.alphaPixels, 16, true),
        (DDSBuilder.alphaOnly, 8, true), (DDSBuilder.rgb, 16, false),
    ])
    func uncompressedFormatsGiveBitCountAndAlpha(flags: Int, bitCount: Int, alpha: Bool) {
        let bytes = DDSBuilder.image(width: 5, height: 7, pixelFormatFlags: flags, bitCount: bitCount)
        let found = info(verified(bytes))
        #expect(found?.bitDepth == bitCount)
        #expect(found?.hasAlpha == alpha)
        #expect(info(verified(bytes, dimensionsOnly))?.bitDepth == nil)
    }

    @Test func aPixelFormatOfTheWrongSizeCostsOnlyTheFacts() {
        let bytes = DDSBuilder.image(width: 5, height: 7, pixelFormatSize: 24, pixelFormatFlags: DDSBuilder.rgb, bitCount: 24)
        let found = info(verified(bytes))
        #expect(found?.size == [5, 7])
        #expect(found?.bitDepth == nil)
        #expect(found?.hasAlpha == nil)
        #expect(found?.isPartial == false)
    }

    @Test(arguments: [0, 0x1000, 0x1001, DDSBuilder.requiredFlags])
    func sizeFlagsAreNotRequired(flags: Int) {
        // Microsoft: readers should not rely on the header flags.
        let bytes = DDSBuilder.image(width: 100, height: 67, flags: flags)
        #expect(info(verified(bytes, dimensionsOnly))?.size == [100, 67])
    }

    @Test func truncatedAfterTheSizeIsAPartialAnswerInFullMode() {
        let bytes = Array(DDSBuilder.image(width: 30, height: 20)[0..<60])
        let found = info(verified(bytes))
        #expect(found?.size == [30, 20])
        #expect(found?.isPartial == true)
        #expect(failureCode(verified(Array(bytes[0..<19]))) == .truncated)
    }

    @Test func errors() {
        var magic = DDSBuilder.image(width: 4, height: 4)
        magic[3] = 0x21  // "DDS!"
        #expect(failureCode(verified(magic)) == .unknownFormat)
        var lowercase = DDSBuilder.image(width: 4, height: 4)
        lowercase[2] = 0x73  // "DDs "
        #expect(failureCode(verified(lowercase)) == .unknownFormat)
        for size in [0, 32, 123, 125, 128] {
            #expect(failureCode(verified(DDSBuilder.image(width: 4, height: 4, headerSize: size))) == .malformed)
        }
        #expect(failureCode(verified(DDSBuilder.image(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(DDSBuilder.image(width: 4, height: 0), dimensionsOnly)) == .malformed)
    }

    @Test func dimensionLimits() {
        let huge = DDSBuilder.image(width: 0xFFFF_FFFF, height: 1)
        #expect(failureCode(verified(huge, dimensionsOnly)) == .limitExceeded)
        #expect(failureCode(verified(DDSBuilder.image(width: 1, height: (1 << 30) + 1))) == .limitExceeded)
        var options = ScanOptions()
        options.maxHeight = 99
        #expect(failureCode(verified(DDSBuilder.image(width: 1, height: 100), options)) == .limitExceeded)
        #expect(info(verified(DDSBuilder.image(width: 1, height: 99), options))?.size == [1, 99])
    }

    @Test func signatureFollowedByRandomBytes() {
        var random = SeededRandom(seed: 0xDD5)
        for length in [0, 1, 15, 16, 40, 104, 300] {
            for _ in 0..<8 {
                let bytes = ascii("DDS ") + random.bytes(length)
                let outcome = verified(bytes)
                #expect(outcome.bytesConsumed <= UInt64(bytes.count))
                verified(bytes, dimensionsOnly)
            }
        }
        // With a valid size field, random sizes either answer or fail cleanly.
        for _ in 0..<16 {
            var bytes = ascii("DDS ")
            bytes.append32(124, .littleEndian)
            bytes += random.bytes(120)
            let outcome = verified(bytes)
            if let code = failureCode(outcome) {
                #expect(code == .malformed || code == .limitExceeded)
            } else {
                #expect(info(outcome)?.format == .dds)
            }
        }
    }
}
