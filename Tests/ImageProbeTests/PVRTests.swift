import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct PVRTests {
    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func version3InBothByteOrders(order: ByteOrder) {
        let bytes = PVRBuilder.v3(width: 70_000, height: 3, surfaces: 4, byteOrder: order, metadata: 8)
        let quick = verified(bytes, dimensionsOnly)
        #expect(info(quick)?.format == .pvr)
        #expect(info(quick)?.size == [70_000, 3])
        #expect(info(quick)?.bitDepth == 8)
        #expect(info(quick)?.hasAlpha == true)
        #expect(quick.bytesConsumed == UInt64(PVRBuilder.v3DimensionsEnd))
        let full = verified(bytes)
        #expect(info(full)?.frameCount == 4)
        #expect(full.bytesConsumed == UInt64(PVRBuilder.v3HeaderEnd))
        truncatedBefore(PVRBuilder.v3DimensionsEnd, bytes)
    }

    @Test(arguments: [
        (PVRBuilder.channels("rgb", [5, 6, 5]), 6, false),
        (PVRBuilder.channels("bgra", [8, 8, 8, 8]), 8, true),
        (PVRBuilder.channels("la", [16, 16]), 16, true),
        (PVRBuilder.pvrtc4RGBA, nil, true),
        (PVRBuilder.etc1, nil, false),
        (PVRBuilder.dxt1, nil, nil),
    ] as [(UInt64, Int?, Bool?)])
    func version3PixelFormats(pixelFormat: UInt64, bits: Int?, alpha: Bool?) {
        let found = info(verified(PVRBuilder.v3(width: 8, height: 8, pixelFormat: pixelFormat)))
        #expect(found?.bitDepth == bits)
        #expect(found?.hasAlpha == alpha)
    }

    @Test func legacyVersion2() {
        let bytes = PVRBuilder.legacy(width: 64, height: 70_000, surfaces: 2)
        let quick = verified(bytes, dimensionsOnly)
        #expect(info(quick)?.format == .pvr)
        #expect(info(quick)?.size == [64, 70_000])
        #expect(info(quick)?.bitDepth == 8)
        #expect(info(quick)?.hasAlpha == true)
        #expect(quick.bytesConsumed == UInt64(PVRBuilder.legacyDimensionsEnd))
        let full = verified(bytes)
        #expect(info(full)?.frameCount == 2)
        #expect(full.bytesConsumed == UInt64(PVRBuilder.legacyHeaderEnd))
        // PVRTC: no masks; the alpha flag alone says so.
        let pvrtc = PVRBuilder.legacy(width: 8, height: 8, pixelType: PVRBuilder.legacyPVRTC4 | PVRBuilder.legacyAlphaFlag,
                                      bitsPerPixel: 4, masks: [0, 0, 0, 0])
        #expect(info(verified(pvrtc))?.hasAlpha == true)
        #expect(info(verified(pvrtc))?.bitDepth == nil)
    }

    @Test func legacyWithoutItsTagIsNoPVRAndNotATGA() {
        // `34 00 00 00` could only be a TGA with image type 0, which is no image: without
        // "PVR!" nothing is recognised, and the message says so rather than blaming TGA.
        for tag in ["PVR?", "\0\0\0\0"] {
            let outcome = verified(PVRBuilder.legacy(width: 8, height: 8, tag: tag))
            guard case .unsupported(let failure) = outcome.status else {
                Issue.record("expected a failure, got \(outcome)")
                continue
            }
            #expect(failure.code == .unknownFormat)
            #expect(failure.message.description == "no known image signature")
        }
        // Version 1 (a 44-byte header without the tag) is not recognised either.
        var version1 = PVRBuilder.legacy(width: 10, height: 6)
        version1[0] = 44
        #expect(failureCode(verified(version1)) == .unknownFormat)
    }

    @Test func errors() {
        #expect(failureCode(verified(PVRBuilder.v3(width: 0, height: 3))) == .malformed)
        #expect(failureCode(verified(PVRBuilder.legacy(width: 3, height: 0))) == .malformed)
        var small = ScanOptions()
        small.maxHeight = 2
        #expect(failureCode(verified(PVRBuilder.v3(width: 1, height: 3), small)) == .limitExceeded)
        garbageAfter(ascii("PVR\u{3}"), seed: 0x9F, limit: 52, tails: .texture)
        garbageAfter([3] + ascii("RVP"), seed: 0x9E, limit: 52, tails: .texture)
        garbageAfter([0x34, 0, 0, 0], seed: 0x9D, limit: 52, tails: .texture)
    }
}
