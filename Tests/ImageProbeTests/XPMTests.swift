import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct XPMTests {
    @Test(arguments: [(1, 1), (13, 7), (70_000, 1)])
    func valuesStringGivesTheSize(width: Int, height: Int) {
        let image = XPMBuilder.xpm3(width: width, height: height)
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.format == .xpm)
        #expect(info(quick)?.mimeType.description == "image/x-xpixmap")
        #expect(info(quick)?.size == [width, height])
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
        let full = verified(image.bytes)
        #expect(info(full)?.size == [width, height])
        #expect(info(full)?.bitDepth == nil)
        #expect(full.bytesConsumed == UInt64(image.headerEnd))
    }

    @Test func declarationsCommentsAndSpacing() {
        let variants = [
            XPMBuilder.xpm3(width: 9, height: 5, declaration: "static const char *icon[]={\n"),
            XPMBuilder.xpm3(width: 9, height: 5, beforeValues: "/* columns rows colors chars-per-pixel */\n"),
            XPMBuilder.xpm3(width: 9, height: 5, declaration: "static char * /* \"{\" */ name[] = /**/ {", beforeValues: " /*\"*/ "),
            XPMBuilder.xpm3(width: 9, height: 5, separator: " \t  ", extra: " 3 4 XPMEXT"),
            XPMBuilder.xpm3(width: 9, height: 5, charsPerPixel: 0),
        ]
        for image in variants {
            let outcome = verified(image.bytes, dimensionsOnly)
            #expect(info(outcome)?.size == [9, 5], "\(String(decoding: image.bytes, as: UTF8.self))")
            #expect(outcome.bytesConsumed == UInt64(image.sizeEnd))
            #expect(verified(image.bytes).bytesConsumed == UInt64(image.headerEnd))
        }
    }

    @Test(arguments: ["\n", "\r\n"])
    func xpm2(lineEnd: String) {
        let image = XPMBuilder.xpm2(width: 11, height: 3, lineEnd: lineEnd)
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.format == .xpm)
        #expect(info(quick)?.size == [11, 3])
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
        #expect(verified(image.bytes).bytesConsumed == UInt64(image.headerEnd))
        #expect(failureCode(verified(ascii("! XPM3\n1 1 1 1\n"))) == .unknownFormat)
    }

    @Test func errors() {
        let malformed = [
            "/* XPM */\nstatic char *x[] = {\n\"0 5 2 1\"",
            "/* XPM */\nstatic char *x[] = {\n\"5 0 2 1\"",
            "/* XPM */\nstatic char *x[] = {\n\"5 x 2 1\"",
            "/* XPM */\nstatic char *x[] = {\n\"5\"",
            "/* XPM */\nstatic char *x[] = {\n\"99999999999 5 2 1\"",
            "/* XPM */\nstatic char *x[] = {\n 5 5 2 1",
            "/* XPM */\nstatic char *x[] = \"5 5 2 1\"",
        ]
        for text in malformed {
            #expect(failureCode(verified(ascii(text))) == .malformed, "\(text)")
        }
        // After the size, a bad colour count or character count ends full mode with the size.
        for values in ["5 6 0 1", "5 6 2\"", "5 6 2 x"] {
            let text = "/* XPM */\nstatic char *x[] = {\n\"\(values)\",\n"
            let found = info(verified(ascii(text)))
            #expect(found?.size == [5, 6], "\(values)")
            #expect(found?.isPartial == true, "\(values)")
            #expect(info(verified(ascii(text), dimensionsOnly))?.isPartial == false)
        }
        let long = "/* XPM */\nstatic char *x[] = {\n/* " + String(repeating: "z", count: 8200) + " */\n\"1 1 1 1\""
        #expect(failureCode(verifiedLong(ascii(long))) == .limitExceeded)
        var small = ScanOptions()
        small.maxHeight = 4
        #expect(failureCode(verified(XPMBuilder.xpm3(width: 1, height: 5).bytes, small)) == .limitExceeded)
        var random = SeededRandom(seed: 0x59)
        for _ in 0..<30 { _ = verified(ascii("/* XPM */\n") + random.bytes(50)) }
    }
}
