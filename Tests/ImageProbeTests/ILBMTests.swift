import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct ILBMTests {
    @Test(arguments: ["ILBM", "PBM ", "ACBM"])
    func bitmapHeaderFirst(type: String) {
        let bytes = IFFBuilder.ilbm(type: type, width: 320, height: 200, planes: 5, masking: 2)
        let quick = verified(bytes, dimensionsOnly)
        #expect(info(quick)?.format == .ilbm)
        #expect(info(quick)?.mimeType.description == "image/x-ilbm")
        #expect(info(quick)?.size == [320, 200])
        #expect(quick.bytesConsumed == UInt64(IFFBuilder.dimensionsEnd))
        let full = verified(bytes)
        #expect(info(full)?.bitDepth == 5)
        #expect(info(full)?.hasAlpha == true)
        #expect(full.bytesConsumed == UInt64(IFFBuilder.headerEnd))
    }

    @Test func chunksBeforeTheBitmapHeaderAreSkipped() {
        // An odd-length chunk is followed by a pad byte.
        let before = [IFFBuilder.chunk("ANNO", ascii("odd")), IFFBuilder.chunk("CMAP", [UInt8](repeating: 7, count: 48))]
        let bytes = IFFBuilder.ilbm(width: 13, height: 7, before: before)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [13, 7])
        let skipped = before.reduce(0) { $0 + $1.count }
        #expect(outcome.bytesConsumed == UInt64(IFFBuilder.dimensionsEnd + skipped))
        for masking in [0, 3] {
            #expect(info(verified(IFFBuilder.ilbm(width: 2, height: 2, masking: masking)))?.hasAlpha == false)
        }
    }

    @Test func errors() {
        let bitmap = IFFBuilder.bitmapHeader(width: 4, height: 4)
        #expect(failureCode(verified(IFFBuilder.form("ILBM", [IFFBuilder.chunk("BODY", [0, 0]), bitmap]))) == .malformed)
        #expect(failureCode(verified(IFFBuilder.form("ILBM", [IFFBuilder.chunk("CMAP", [1, 2, 3])]))) == .malformed)
        #expect(failureCode(verified(IFFBuilder.form("ILBM", [IFFBuilder.bitmapHeader(width: 4, height: 4, length: 12)]))) == .malformed)
        #expect(failureCode(verified(IFFBuilder.form("ILBM", [IFFBuilder.bitmapHeader(width: 0, height: 4)]))) == .malformed)
        // A chunk that runs past its FORM.
        let long = IFFBuilder.form("ILBM", [IFFBuilder.chunk("ANNO", [1, 2], declaredLength: 200), bitmap])
        #expect(failureCode(verified(long)) == .malformed)
        // Other FORM types are not images of this kind.
        for type in ["AIFF", "8SVX", "ANIM"] {
            #expect(failureCode(verified(IFFBuilder.form(type, [bitmap]))) == .unknownFormat)
        }
        #expect(failureCode(verified(ascii("FOXM") + IFFBuilder.ilbm(width: 1, height: 1).dropFirst(4))) == .unknownFormat)
        var few = ScanOptions()
        few.maxEntries = 1
        let annotated = IFFBuilder.ilbm(width: 3, height: 3, before: [IFFBuilder.chunk("ANNO", [1, 2])])
        #expect(failureCode(verified(annotated, few)) == .limitExceeded)
        var random = SeededRandom(seed: 0x1B)
        for _ in 0..<30 { _ = verified(ascii("FORM") + [0, 0, 1, 0] + ascii("ILBM") + random.bytes(60)) }
    }
}
