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

@Suite struct MSPTests {
    @Test(arguments: [false, true])
    func bothVersions(version2: Bool) {
        let bytes = MSPBuilder.file(version2: version2, width: 640, height: 480)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.format == .msp)
            #expect(info(outcome)?.size == [640, 480])
            #expect(info(outcome)?.bitDepth == 1)
            #expect(outcome.bytesConsumed == UInt64(MSPBuilder.answerEnd))
        }
    }

    @Test func theChecksumConfirmsTheKey() {
        for error in [1, 0x100, 0x8000] {
            #expect(failureCode(verified(MSPBuilder.file(width: 4, height: 4, checksumError: error))) == .malformed)
        }
        #expect(failureCode(verified(MSPBuilder.file(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(ascii("DanX") + MSPBuilder.file(width: 4, height: 4).dropFirst(4))) == .unknownFormat)
        // Version 1's key with version 2's second half.
        #expect(failureCode(verified(ascii("DanS") + MSPBuilder.file(width: 4, height: 4).dropFirst(4))) == .unknownFormat)
    }
}

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

@Suite struct AsepriteTests {
    @Test(arguments: [(32, 1, true), (16, 3, true), (8, 2, nil)] as [(Int, Int, Bool?)])
    func header(depth: Int, frames: Int, alpha: Bool?) {
        // 144 + 16 per frame, and 2,000 more bytes: the size's second byte is then above 1.
        for padding in [0, 2000] {
            let bytes = AsepriteBuilder.file(width: 65_535, height: 37, depth: depth, frames: frames, padding: padding)
            for options in [dimensionsOnly, ScanOptions()] {
                let outcome = verified(bytes, options)
                #expect(info(outcome)?.format == .aseprite)
                #expect(info(outcome)?.size == [65_535, 37])
                #expect(info(outcome)?.bitDepth == depth)
                #expect(info(outcome)?.hasAlpha == alpha)
                #expect(info(outcome)?.frameCount == frames)
                #expect(info(outcome)?.isAnimated == (frames > 1))
                let tgaLike = bytes[1] <= 1
                #expect(outcome.bytesConsumed == UInt64(tgaLike ? AsepriteBuilder.answerEndAfterATGALikeStart : AsepriteBuilder.answerEnd))
            }
        }
    }

    @Test func theMagicIsFoundAfterAnyFirstTwoBytesThatStartNoSignature() {
        // The file size's low half comes first: a TGA's colour-map type (second byte 0 or 1),
        // bytes that can't open XML after "<" or a blank, or bytes no format starts with.
        for size in [0xE0, 0x1FF, 0x2F8, 0x1A3C, 0xC820, 0x1_0020] {
            let bytes = AsepriteBuilder.file(width: 9, height: 4, padding: size - 144)
            #expect(info(verified(bytes))?.format == .aseprite, "\(size)")
        }
    }

    @Test func errors() {
        #expect(failureCode(verified(AsepriteBuilder.file(width: 4, height: 4, depth: 24))) == .unknownFormat)
        #expect(failureCode(verified(AsepriteBuilder.file(width: 0, height: 4))) == .malformed)
        #expect(failureCode(verified(AsepriteBuilder.file(width: 4, height: 4, frames: 0))) == .malformed)
        // A file size below the 128-byte header is no Aseprite file.
        var small = AsepriteBuilder.file(width: 4, height: 4)
        small[0] = 100
        small[1] = 0
        #expect(failureCode(verified(small)) == .unknownFormat)
    }
}

@Suite struct FarbfeldTests {
    @Test(arguments: [(1, 1), (70_000, 1), (1, 70_000)])
    func header(width: Int, height: Int) {
        let bytes = FarbfeldBuilder.file(width: width, height: height)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.format == .farbfeld)
            #expect(info(outcome)?.size == [width, height])
            #expect(info(outcome)?.bitDepth == 16)
            #expect(info(outcome)?.hasAlpha == true)
            #expect(outcome.bytesConsumed == UInt64(FarbfeldBuilder.answerEnd))
        }
    }

    @Test func errors() {
        #expect(failureCode(verified(FarbfeldBuilder.file(width: 0, height: 1))) == .malformed)
        #expect(failureCode(verified(ascii("farbfelt") + FarbfeldBuilder.file(width: 1, height: 1).dropFirst(8))) == .unknownFormat)
        var small = ScanOptions()
        small.maxWidth = 10
        #expect(failureCode(verified(FarbfeldBuilder.file(width: 11, height: 1), small)) == .limitExceeded)
    }
}
