import ImageProbe
import ImageProbeFixtures
import Testing

/// Signature followed by random bytes: never a crash, never a read past `limit`.
private func garbageAfter(_ signature: [UInt8], seed: UInt64, limit: UInt64) {
    var random = SeededRandom(seed: seed)
    for length in [0, 1, 6, 14, 40, 70] {
        for _ in 0..<10 {
            for options in [ScanOptions(), dimensionsOnly] {
                #expect(verified(signature + random.bytes(length), options).bytesConsumed <= limit)
            }
        }
    }
}

/// Every prefix shorter than `answerEnd` in dimensions-only mode is truncated.
private func truncatedBefore(_ answerEnd: Int, _ bytes: [UInt8]) {
    for length in 0..<answerEnd {
        let outcome = ChunkingVerifier.scanWhole(Array(bytes[0..<length]), options: dimensionsOnly)
        #expect(failureCode(outcome) == .truncated, "\(length)")
    }
}

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
        garbageAfter(ascii("BLP2"), seed: 0xB1, limit: 20)
    }
}

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
        garbageAfter(ascii("PVR\u{3}"), seed: 0x9F, limit: 52)
        garbageAfter([3] + ascii("RVP"), seed: 0x9E, limit: 52)
        garbageAfter([0x34, 0, 0, 0], seed: 0x9D, limit: 52)
    }
}

@Suite struct PKMTests {
    @Test(arguments: [("10", 0, false), ("20", 1, false), ("20", 3, true), ("20", 4, true), ("20", 5, false), ("20", 11, true)])
    func header(version: String, type: Int, alpha: Bool) {
        let bytes = PKMBuilder.file(version: version, type: type, width: 13, height: 7)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.format == .pkm)
            #expect(info(outcome)?.size == [13, 7])
            #expect(info(outcome)?.hasAlpha == alpha)
            #expect(outcome.bytesConsumed == UInt64(PKMBuilder.answerEnd))
        }
        truncatedBefore(PKMBuilder.answerEnd, bytes)
    }

    @Test func errors() {
        // The extended size must cover the image by less than one block.
        #expect(failureCode(verified(PKMBuilder.file(width: 10, height: 10, extendedWidth: 8))) == .malformed)
        #expect(failureCode(verified(PKMBuilder.file(width: 10, height: 10, extendedHeight: 16))) == .malformed)
        #expect(failureCode(verified(PKMBuilder.file(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(PKMBuilder.file(version: "10", type: 1, width: 4, height: 4))) == .malformed)
        #expect(failureCode(verified(PKMBuilder.file(version: "20", type: 12, width: 4, height: 4))) == .malformed)
        #expect(failureCode(verified(PKMBuilder.file(version: "30", width: 4, height: 4))) == .unsupportedFeature)
        // A ZIP archive ("PK\3\4") is not mistaken for one.
        #expect(failureCode(verified([0x50, 0x4B, 3, 4] + [UInt8](repeating: 0, count: 30))) == .unknownFormat)
        garbageAfter(ascii("PKM 20"), seed: 0x9B, limit: 16)
    }
}

@Suite struct ASTCTests {
    @Test(arguments: [(4, 4, 1), (12, 12, 1), (10, 5, 1), (3, 3, 3), (6, 6, 6)])
    func footprints(x: Int, y: Int, z: Int) {
        let bytes = ASTCBuilder.file(block: (x, y, z), width: 16_777_215, height: 3, depth: z == 1 ? 1 : 4)
        let quick = verified(bytes, dimensionsOnly)
        #expect(info(quick)?.format == .astc)
        #expect(info(quick)?.mimeType.description == "image/astc")
        #expect(info(quick)?.size == [16_777_215, 3])
        #expect(quick.bytesConsumed == UInt64(ASTCBuilder.dimensionsEnd))
        let full = verified(bytes)
        #expect(info(full)?.isPartial == false)
        #expect(full.bytesConsumed == UInt64(ASTCBuilder.headerEnd))
        truncatedBefore(ASTCBuilder.dimensionsEnd, bytes)
    }

    @Test func errors() {
        for block in [(4, 4, 2), (7, 7, 1), (4, 5, 1), (0, 0, 0), (3, 3, 1)] {
            #expect(failureCode(verified(ASTCBuilder.file(block: block, width: 4, height: 4))) == .malformed)
        }
        #expect(failureCode(verified(ASTCBuilder.file(width: 4, height: 0))) == .malformed)
        let flat = info(verified(ASTCBuilder.file(width: 4, height: 4, depth: 0)))
        #expect(flat?.isPartial == true)
        #expect(info(verified(ASTCBuilder.file(width: 4, height: 4, depth: 0), dimensionsOnly))?.isPartial == false)
        garbageAfter([0x13, 0xAB, 0xA1, 0x5C], seed: 0xA5, limit: 16)
    }
}

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
        garbageAfter(ascii("VTF\0"), seed: 0x7F, limit: 56)
    }
}
