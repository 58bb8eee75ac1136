import ImageProbe
import ImageProbeFixtures
import Testing

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
        garbageAfter([0x13, 0xAB, 0xA1, 0x5C], seed: 0xA5, limit: 16, tails: .texture)
    }
}
