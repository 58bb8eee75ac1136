import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct DCXTests {
    @Test(arguments: [1, 3, 1023])
    func firstPageAndPageCount(pages: Int) {
        let pageBytes = (0..<pages).map { DCXBuilder.page(width: 13 + $0 % 5, height: 7, bitsPerPixel: 4) }
        // A full directory of 1024 slots, as ImageMagick writes it, or just one more than the pages.
        for slots in Set([pages + 1, 1024]) {
            let (bytes, firstPage) = DCXBuilder.file(pages: pageBytes, slots: slots)
            let quick = verifiedLong(bytes, dimensionsOnly)
            #expect(info(quick)?.format == .dcx)
            #expect(info(quick)?.size == [13, 7])
            #expect(info(quick)?.bitDepth == 4)
            #expect(quick.bytesConsumed == UInt64(firstPage + 12))
            let full = verifiedLong(bytes)
            #expect(info(full)?.frameCount == pages)
            #expect(full.bytesConsumed == UInt64(firstPage + 12))
        }
    }

    @Test func aDirectoryWithoutItsZeroCostsOnlyTheCount() {
        // Page 1 starts right after two entries, neither of them 0.
        var (bytes, _) = DCXBuilder.file(pages: [DCXBuilder.page(width: 5, height: 6)], slots: 2)
        bytes[8] = 0x40
        let found = info(verified(bytes))
        #expect(found?.size == [5, 6])
        #expect(found?.frameCount == nil)
        #expect(found?.isPartial == false)
        var few = ScanOptions()
        few.maxEntries = 2
        let pages = (0..<4).map { _ in DCXBuilder.page(width: 5, height: 6) }
        #expect(info(verified(DCXBuilder.file(pages: pages).bytes, few))?.frameCount == nil)
    }

    @Test func errors() {
        let page = DCXBuilder.page(width: 5, height: 6)
        var (inside, _) = DCXBuilder.file(pages: [page])
        inside[4] = 8  // the first page would overlap the directory
        #expect(failureCode(verified(inside)) == .malformed)
        var (notPCX, firstPage) = DCXBuilder.file(pages: [page])
        notPCX[firstPage] = 0x0B
        #expect(failureCode(verified(notPCX)) == .malformed)
        let (wide, _) = DCXBuilder.file(pages: [DCXBuilder.page(width: 5, height: 6, bitsPerPixel: 3)])
        #expect(failureCode(verified(wide)) == .malformed)
        // The first page must lie inside a file of known length.
        let cut = Array(DCXBuilder.file(pages: [page]).bytes.prefix(20))
        var seekable = ScanOptions()
        seekable.inputLength = UInt64(cut.count)
        #expect(failureCode(verified(cut, seekable)) == .malformed)
        #expect(failureCode(verified(cut)) == .truncated)
        #expect(failureCode(verified([0xB1, 0x68, 0xDE, 0x3B, 12, 0, 0, 0])) == .unknownFormat)
    }
}
