import ImageProbe
import ImageProbeFixtures
import Testing

/// SPEC.md §1.10: counts and sizes a file states in 32 bits, past `Int.max` where `Int` is 32
/// bits. Here (64 bits) the values come through exactly; the same inputs go through the
/// wasm32 build in Scripts/check-32bit.sh (exported by `verified`), which must not trap.
@Suite struct WordSizeTests {
    static func apng(frames: UInt32, plays: UInt32) -> [UInt8] {
        var control: [UInt8] = []
        control.append32(Int(frames), .bigEndian)
        control.append32(Int(plays), .bigEndian)
        return PNGBuilder.image(width: 3, height: 2, beforeData: PNGBuilder.chunk("acTL", control))
    }

    @Test(arguments: [(UInt32(0x8000_0000), UInt32(0)), (2, 0x8000_0000), (0xFFFF_FFFF, 0xFFFF_FFFF), (0x7FFF_FFFF, 0x7FFF_FFFF)])
    func apngCountsPastInt32(frames: UInt32, plays: UInt32) throws {
        let found = try #require(info(verified(Self.apng(frames: frames, plays: plays))))
        #expect(found.exactFrameCount == frames)
        #expect(found.exactLoopCount == plays)
        #expect(found.frameCount == Int(clamping: frames))
        #expect(found.loopCount == Int(clamping: plays))
        #expect(found.isAnimated == true)
    }

    @Test func limitsAboveInt32AreClampedToTheStoredWidth() {
        var options = ScanOptions()
        options.maxWidth = Int(clamping: UInt64(1) << 40)
        options.maxEntries = -5
        #expect(options.maxWidth == Int(clamping: UInt32.max))
        #expect(options.maxEntries == 0)
        #expect(options.maxWidth <= Int.max)
    }

    /// PNG's largest size (2^31 − 1) fits an Int everywhere; a raised limit lets it through.
    @Test func largestPNGSizeIsInt32Max() throws {
        var options = ScanOptions(mode: .dimensionsOnly)
        options.maxWidth = Int(clamping: UInt32.max)
        options.maxHeight = Int(clamping: UInt32.max)
        let file = PNGBuilder.image(width: 0x7FFF_FFFF, height: 1)
        let found = try #require(info(verified(file, options)))
        #expect(found.width == 0x7FFF_FFFF)
    }
}
