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
        // Full mode reads through the resolution (bytes 38...45) in headers of 40 bytes and
        // more, and a V5 header's colour space type (70...73).
        let fullEnd = switch headerSize {
        case 12, 16: answerEnd + 4
        case 124: 74
        default: 46
        }
        #expect(full.bytesConsumed == UInt64(fullEnd))
        #expect(info(full)?.hasICCProfile == false)
        #expect(info(full)?.dpi == nil)  // the builder writes 0 pixels per metre
        #expect(info(outcome)?.hasICCProfile == nil)
    }

    // MARK: Resolution and ICC profile (full mode)

    /// `BMPBuilder`'s file with the pixels per metre at 38 and 42, and for V5 headers the
    /// colour space type at 70 and the profile size at 130.
    static func facts(headerSize: Int, ppm: (Int, Int), csType: String? = nil, profileSize: Int = 0) -> [UInt8] {
        var bytes = BMPBuilder.image(headerSize: headerSize, width: 20, height: 10).bytes
        func put(_ value: Int, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        put(ppm.0, at: 38)
        put(ppm.1, at: 42)
        if let csType {
            // The type is a little-endian word spelling the name backwards: 'MBED' is "DEBM".
            bytes.replaceSubrange(70..<74, with: Array(csType.utf8.reversed()))
            put(profileSize, at: 130)
        }
        return bytes
    }

    @Test(arguments: [40, 52, 56, 64, 108, 124])
    func pixelsPerMetreAreDotsPerInch(headerSize: Int) {
        // Pillow's 72 dpi is 2,835 ppm (72.009 dpi), its 300 dpi 11,811 (299.999), 96 dpi 3,780.
        for (ppm, expected) in [((2835, 2835), Resolution(x: 72, y: 72)), ((11811, 11811), Resolution(x: 300, y: 300)),
                                ((3780, 3780), Resolution(x: 96, y: 96)), ((2835, 11811), Resolution(x: 72, y: 300)),
                                ((39, 40), Resolution(x: 1, y: 1))]
        {
            let bytes = Self.facts(headerSize: headerSize, ppm: ppm)
            #expect(info(verified(bytes))?.dpi == expected, "\(headerSize) \(ppm)")
            let dimensions = verified(bytes, dimensionsOnly)
            #expect(info(dimensions)?.dpi == nil)
            #expect(dimensions.bytesConsumed == 26)
        }
        // 0 states none; so does a negative value (the fields are signed).
        for ppm in [(0, 0), (0, 2835), (2835, 0), (-2835, 2835)] {
            #expect(info(verified(Self.facts(headerSize: headerSize, ppm: ppm)))?.dpi == nil, "\(headerSize) \(ppm)")
        }
    }

    @Test func coreAndShortOS2HeadersHaveNoResolution() {
        for headerSize in [12, 16] {
            let found = info(verified(BMPBuilder.image(headerSize: headerSize, width: 20, height: 10).bytes))
            #expect(found?.dpi == nil)
            #expect(found?.hasICCProfile == false)
        }
    }

    @Test func aV5HeaderEmbedsAProfileOnlyWithPROFILE_EMBEDDEDAndASize() {
        for (csType, size, expected, end) in [
            ("MBED", 588, true, 134), ("MBED", 0, false, 134), ("LINK", 40, false, 74), ("sRGB", 0, false, 74), ("Win ", 0, false, 74),
        ] as [(String, Int, Bool, Int)] {
            let bytes = Self.facts(headerSize: 124, ppm: (2835, 2835), csType: csType, profileSize: size)
            let outcome = verified(bytes)
            #expect(info(outcome)?.hasICCProfile == expected, "\(csType) \(size)")
            #expect(info(outcome)?.dpi == Resolution(x: 72, y: 72))
            #expect(outcome.bytesConsumed == UInt64(end), "\(csType)")
            #expect(info(verified(bytes, dimensionsOnly))?.hasICCProfile == nil)
        }
        // A V4 header has a colour space type but no profile fields: never a profile.
        let v4 = Self.facts(headerSize: 108, ppm: (2835, 2835), csType: "MBED", profileSize: 588)
        let found = verified(v4)
        #expect(info(found)?.hasICCProfile == false)
        #expect(found.bytesConsumed == 46)
    }

    @Test func aV5HeaderCutShortIsPartialWithTheProfileUnknown() {
        let bytes = Self.facts(headerSize: 124, ppm: (3780, 3780), csType: "MBED", profileSize: 588)
        for length in [50, 74, 100, 133] {
            let found = info(verified(Array(bytes[0..<length])))
            #expect(found?.size == [20, 10])
            #expect(found?.isPartial == true)
            #expect(found?.hasICCProfile == nil)
            #expect(found?.dpi == Resolution(x: 96, y: 96))
        }
        // Cut before the resolution: partial with the size and depth, as before the header grew.
        let early = info(verified(Array(bytes[0..<45])))
        #expect(early?.isPartial == true)
        #expect(early?.bitDepth == 24)
        #expect(early?.dpi == nil)
        #expect(failureCode(verified(Array(bytes[0..<29]))) == .truncated)
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
