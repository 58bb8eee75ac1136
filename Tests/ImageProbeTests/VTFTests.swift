import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct VTFTests {
    @Test(arguments: 0...6)
    func everyMinorVersion(minor: Int) {
        let bytes = VTFBuilder.file(minor: minor, width: 512, height: 4, frames: 3, imageFormat: VTFBuilder.dxt5)
        let quick = verified(bytes, dimensionsOnly)
        #expect(info(quick)?.format == .vtf)
        #expect(info(quick)?.size == [512, 4])
        #expect(quick.bytesConsumed == UInt64(VTFBuilder.dimensionsEnd))
        let full = verified(bytes)
        #expect(info(full)?.frameCount == 3)
        #expect(info(full)?.isAnimated == true)
        #expect(info(full)?.hasAlpha == true)
        #expect(info(full)?.bitDepth == nil)
        #expect(full.bytesConsumed == UInt64(VTFBuilder.headerEnd))
        truncatedBefore(VTFBuilder.dimensionsEnd, bytes)
    }

    @Test(arguments: [
        (VTFBuilder.rgba8888, 0, 8, true), (VTFBuilder.rgb888, 0, 8, false), (VTFBuilder.dxt1, 0, nil, false),
        (VTFBuilder.dxt1, VTFBuilder.eightBitAlpha, nil, true), (VTFBuilder.rgba16161616, 0, 16, true), (99, 0, nil, nil),
    ] as [(Int, Int, Int?, Bool?)])
    func imageFormats(imageFormat: Int, flags: Int, bits: Int?, alpha: Bool?) {
        let found = info(verified(VTFBuilder.file(width: 8, height: 8, flags: flags, imageFormat: imageFormat)))
        #expect(found?.bitDepth == bits)
        #expect(found?.hasAlpha == alpha)
        #expect(found?.frameCount == 1)
        #expect(found?.isAnimated == false)
    }

    @Test func errors() {
        #expect(failureCode(verified(VTFBuilder.file(minor: 7, width: 4, height: 4))) == .unsupportedFeature)
        #expect(failureCode(verified(VTFBuilder.file(width: 4, height: 4, major: 6))) == .unsupportedFeature)
        #expect(failureCode(verified(VTFBuilder.file(width: 4, height: 4, headerSize: 48))) == .malformed)
        #expect(failureCode(verified(VTFBuilder.file(width: 4, height: 0))) == .malformed)
        #expect(failureCode(verified(ascii("VTFX") + VTFBuilder.file(width: 4, height: 4).dropFirst(4))) == .unknownFormat)
        garbageAfter(ascii("VTF\0"), seed: 0x7F, limit: 56, tails: .texture)
    }
}
