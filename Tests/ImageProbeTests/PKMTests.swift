import ImageProbe
import ImageProbeFixtures
import Testing

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
        #expect(failureCode(verified(PKMBuilder.file(version: "30", width: 4, height: 4))) == .unsupportedFeature)
        // A ZIP archive ("PK\3\4") is not mistaken for one.
        #expect(failureCode(verified([0x50, 0x4B, 3, 4] + [UInt8](repeating: 0, count: 30))) == .unknownFormat)
        garbageAfter(ascii("PKM 20"), seed: 0x9B, limit: 16, tails: .texture)
    }

    /// PKM 20 is a signature: a data type outside ETCPACK's table (OpenGL enums, as in the
    /// `imagesize` crate's EAC and ATC test files) is still sized, its alpha unknown. PKM 10
    /// keeps Android's check (ETC1 only).
    @Test(arguments: [12, 0x1602, 0x160A, 0x160B, 0x87EE, 0x8C92, 0xFFFF])
    func version20OfAnUnknownTypeIsSized(type: Int) {
        let bytes = PKMBuilder.file(version: "20", type: type, width: 13, height: 7)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.size == [13, 7])
            #expect(info(outcome)?.hasAlpha == nil)
            #expect(outcome.bytesConsumed == UInt64(PKMBuilder.answerEnd))
        }
        // The extended size still validates it.
        #expect(failureCode(verified(PKMBuilder.file(version: "20", type: type, width: 10, height: 10, extendedWidth: 8))) == .malformed)
        #expect(failureCode(verified(PKMBuilder.file(version: "10", type: type, width: 4, height: 4))) == .malformed)
    }
}
