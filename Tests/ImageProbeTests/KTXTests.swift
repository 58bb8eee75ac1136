import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct KTXTests {
    /// The failure's format, for checking what a truncated scan names.
    func failureFormat(_ outcome: ScanOutcome) -> ImageFormat?? {
        guard case .unsupported(let failure) = outcome.status else { return .none }
        return .some(failure.format)
    }

    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func version1InBothByteOrders(order: ByteOrder) {
        let bytes = KTXBuilder.ktx1(width: 1000, height: 70_000, byteOrder: order)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            let found = info(outcome)
            #expect(found?.format == .ktx)
            #expect(found?.mimeType.description == "image/ktx")
            #expect(found?.size == [1000, 70_000])
            #expect(found?.bitDepth == 8)
            #expect(found?.hasAlpha == true)
            #expect(found?.isPartial == false)
            #expect(outcome.bytesConsumed == 44)  // identifier, six enums, width, height
        }
    }

    @Test func version2() {
        let bytes = KTXBuilder.ktx2(width: 2048, height: 1024)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            let found = info(outcome)
            #expect(found?.format == .ktx2)
            #expect(found?.mimeType.description == "image/ktx2")
            #expect(found?.size == [2048, 1024])
            #expect(outcome.bytesConsumed == 28)  // identifier, vkFormat, typeSize, width, height
        }
    }

    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func oneDimensionalTexturesAreOneRowHigh(order: ByteOrder) {
        #expect(info(verified(KTXBuilder.ktx1(width: 256, height: 0, byteOrder: order)))?.size == [256, 1])
        #expect(info(verified(KTXBuilder.ktx2(width: 300, height: 0), dimensionsOnly))?.size == [300, 1])
    }

    @Test func threeDimensionalTexturesReportWidthAndHeight() {
        #expect(info(verified(KTXBuilder.ktx1(width: 8, height: 4, depth: 16)))?.size == [8, 4])
        #expect(info(verified(KTXBuilder.ktx2(width: 8, height: 4, depth: 16)))?.size == [8, 4])
    }

    @Test(arguments: [
        (KTXBuilder.glUnsignedByte, KTXBuilder.glRGB, 8, false),
        (KTXBuilder.glUnsignedShort, KTXBuilder.glRed, 16, false),
        (KTXBuilder.glHalfFloat, KTXBuilder.glRGBA, 16, true),
        (KTXBuilder.glFloat, KTXBuilder.glLuminanceAlpha, 32, true),
        (KTXBuilder.glUnsignedShort565, KTXBuilder.glRGB, nil, false),
        (KTXBuilder.glUnsignedByte, 0x9999, 8, nil),
    ] as [(Int, Int, Int?, Bool?)])
    func version1FactsFromTheOpenGLEnums(glType: Int, base: Int, bits: Int?, alpha: Bool?) {
        for order in [ByteOrder.littleEndian, .bigEndian] {
            let bytes = KTXBuilder.ktx1(width: 4, height: 4, byteOrder: order, glType: glType, glFormat: base, glBaseInternalFormat: base)
            let found = info(verified(bytes))
            #expect(found?.bitDepth == bits)
            #expect(found?.hasAlpha == alpha)
        }
    }

    @Test func version1CompressedTexture() {
        let bytes = KTXBuilder.ktx1(
            width: 512, height: 256, glType: 0, glFormat: 0, glInternalFormat: KTXBuilder.glCompressedRGBAS3TCDXT5,
            glBaseInternalFormat: KTXBuilder.glRGBA)
        let found = info(verified(bytes))
        #expect(found?.size == [512, 256])
        #expect(found?.bitDepth == nil)
        #expect(found?.hasAlpha == true)
    }

    @Test(arguments: [
        (KTXBuilder.vkR8G8B8A8Unorm, 8, true), (KTXBuilder.vkR8G8B8Srgb, 8, false),
        (KTXBuilder.vkR16G16B16A16Sfloat, 16, true), (KTXBuilder.vkR32Sfloat, 32, false),
        (KTXBuilder.vkBC1RGBUnorm, nil, false), (KTXBuilder.vkBC3Unorm, nil, true),
        (KTXBuilder.vkBC7Unorm, nil, nil), (KTXBuilder.vkUndefined, nil, nil),
    ] as [(Int, Int?, Bool?)])
    func version2FactsFromTheVulkanFormat(vkFormat: Int, bits: Int?, alpha: Bool?) {
        let found = info(verified(KTXBuilder.ktx2(width: 4, height: 4, vkFormat: vkFormat)))
        #expect(found?.bitDepth == bits)
        #expect(found?.hasAlpha == alpha)
    }

    @Test func damagedIdentifiers() {
        for version in [KTXBuilder.ktx1(width: 4, height: 4), KTXBuilder.ktx2(width: 4, height: 4)] {
            for index in 2..<12 {
                var bytes = version
                bytes[index] ^= 0x20
                #expect(failureCode(verified(bytes)) == .unknownFormat, "byte \(index)")
            }
        }
        var version12 = KTXBuilder.ktx1(width: 4, height: 4)
        version12[6] = 0x32  // "KTX 12"
        #expect(failureCode(verified(version12)) == .unknownFormat)
        var version21 = KTXBuilder.ktx2(width: 4, height: 4)
        version21[5] = 0x31
        version21[6] = 0x32  // "KTX 12"
        #expect(failureCode(verified(version21)) == .unknownFormat)
    }

    @Test func truncationNamesTheVersionOnceKnown() {
        let version1 = KTXBuilder.ktx1(width: 4, height: 4)
        let version2 = KTXBuilder.ktx2(width: 4, height: 4)
        #expect(failureFormat(verified(Array(version1[0..<11]))) == .some(nil))
        #expect(failureFormat(verified(Array(version2[0..<11]))) == .some(nil))
        #expect(failureFormat(verified(Array(version1[0..<43]))) == .some(.ktx))
        #expect(failureFormat(verified(Array(version2[0..<27]))) == .some(.ktx2))
        #expect(failureCode(verified(Array(version2[0..<27]))) == .truncated)
    }

    @Test func errors() {
        for endianness in [0, 0x0201_0403, 0x0403_0201 + 1] {
            let bytes = KTXBuilder.ktx1(width: 4, height: 4, endianness: endianness)
            #expect(failureCode(verified(bytes)) == .malformed)
        }
        // Only one of glType and glFormat zero.
        #expect(failureCode(verified(KTXBuilder.ktx1(width: 4, height: 4, glType: 0))) == .malformed)
        #expect(failureCode(verified(KTXBuilder.ktx1(width: 4, height: 4, glFormat: 0))) == .malformed)
        #expect(failureCode(verified(KTXBuilder.ktx1(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(KTXBuilder.ktx1(width: 0, height: 4, byteOrder: .bigEndian))) == .malformed)
        #expect(failureCode(verified(KTXBuilder.ktx2(width: 0, height: 4), dimensionsOnly)) == .malformed)
    }

    @Test func dimensionLimits() {
        #expect(failureCode(verified(KTXBuilder.ktx1(width: 0xFFFF_FFFF, height: 1, byteOrder: .bigEndian))) == .limitExceeded)
        #expect(failureCode(verified(KTXBuilder.ktx2(width: 1, height: (1 << 30) + 1))) == .limitExceeded)
        var options = ScanOptions()
        options.maxWidth = 10
        #expect(failureCode(verified(KTXBuilder.ktx2(width: 11, height: 0), options)) == .limitExceeded)
        #expect(info(verified(KTXBuilder.ktx2(width: 10, height: 0), options))?.size == [10, 1])
    }

    @Test func identifierFollowedByRandomBytes() {
        var random = SeededRandom(seed: 0x4B54)
        for identifier in [KTXBuilder.identifier1, KTXBuilder.identifier2, [0xAB, 0x4B]] {
            for length in [0, 1, 3, 4, 20, 40, 100] {
                for _ in 0..<8 {
                    let bytes = identifier + random.bytes(length)
                    verified(bytes)
                    verified(bytes, dimensionsOnly)
                }
            }
        }
        // A valid endianness field in either order, then random values.
        for order in [ByteOrder.littleEndian, .bigEndian] {
            for _ in 0..<16 {
                var bytes = KTXBuilder.identifier1
                bytes.append32(0x0403_0201, order)
                bytes += random.bytes(40)
                let outcome = verified(bytes)
                if failureCode(outcome) == nil { #expect(info(outcome)?.format == .ktx) }
            }
        }
    }
}
