import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct XBMTests {
    @Test(arguments: [false, true])
    func widthAndHeightInEitherOrder(heightFirst: Bool) {
        let image = XBMBuilder.image(width: 16, height: 7, heightFirst: heightFirst, hotSpot: (3, 4))
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.format == .xbm)
        #expect(info(quick)?.size == [16, 7])
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
        let full = verified(image.bytes)
        #expect(info(full)?.bitDepth == 1)
        #expect(full.bytesConsumed == UInt64(image.headerEnd))
    }

    @Test func namesCountByTheirLastPart() {
        // X11 looks at what follows the last underscore, or at the whole name.
        let bare = ascii("#define width 8\n#define height 2\nstatic char bits[] = {0, 0};\n")
        #expect(info(verified(bare))?.size == [8, 2])
        let nested = XBMBuilder.image(name: "my_icon_2", width: "9", height: "5")
        #expect(info(verified(nested.bytes))?.size == [9, 5])
        let tabs = XBMBuilder.image(width: "9", height: "5", separator: "\t ")
        #expect(info(verified(tabs.bytes))?.size == [9, 5])
        let padded = XBMBuilder.image(width: "0009", height: "05")
        #expect(info(verified(padded.bytes))?.size == [9, 5])
    }

    @Test func otherLinesAreSkipped() {
        let between = ["", "   ", "/* An X bitmap */", "#define test_depth 3", "#define test_widths 99", "#ifndef WIDTH",
                       "#define test_x_hot 1", "#endif", "#defined_width 77"]
        let image = XBMBuilder.image(width: "31", height: "17", between: between)
        let outcome = verified(image.bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [31, 17])
        #expect(outcome.bytesConsumed == UInt64(image.sizeEnd))
    }

    @Test func anOpeningCommentIsSkipped() {
        // GIMP opens with a comment. It may span lines and hold anything, "{" and "#define"
        // included; the rest of its last line is skipped, as X11 skips any non-define line.
        let preambles = [
            "/* Created with GIMP */\n",
            "/**/\n",
            "/*/ still open */\n",
            "/***\n * { not data }\n#define test_width 999\n **/ #define test_height 999\n",
            "/* a */ trailing text\n\n",
        ]
        for preamble in preambles {
            let image = XBMBuilder.image(width: "13", height: "6", preamble: preamble)
            let quick = verified(image.bytes, dimensionsOnly)
            #expect(info(quick)?.size == [13, 6], "\(preamble)")
            #expect(info(quick)?.format == .xbm)
            #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
        }
    }

    @Test func commentsThatStartLikeXPMsStayXBMComments() {
        // The sniffer reads `/*` and then " XPM */" one byte at a time; any other comment is an
        // XBM's, whichever byte differs, and is read exactly as before.
        let signature = Array(" XPM */")
        for length in 0..<signature.count {
            for next in ["x", "*", "*/", "**/"] {
                let comment = "/*" + String(signature.prefix(length)) + next + (next.hasSuffix("/") ? "" : " */")
                if comment.hasPrefix("/* XPM */") { continue }  // that one is the XPM signature
                let image = XBMBuilder.image(width: "12", height: "5", preamble: comment + "\n")
                let outcome = verified(image.bytes, dimensionsOnly)
                #expect(info(outcome)?.format == .xbm, "\(comment)")
                #expect(info(outcome)?.size == [12, 5], "\(comment)")
                #expect(outcome.bytesConsumed == UInt64(image.sizeEnd), "\(comment)")
            }
        }
    }

    @Test func cSourceAfterACommentIsNotCalledABrokenXBM() {
        // Until a width or height define, a file that opens with a comment is only C source.
        // (An XPM's `/* XPM */` goes to the XPM parser: XPMTests.)
        let notXBM = [
            "/* XPM  */\nstatic char * icon_xpm[] = {\n\"16 16 2 1\",\n",
            "/* a C file */\nint main(void) { return 0; }\n",
            "/* " + String(repeating: "z", count: 8200) + " */\n#define a_width 1\n#define a_height 1\n",
        ]
        for text in notXBM {
            let outcome = verifiedLong(ascii(text))
            #expect(failureCode(outcome) == .unknownFormat, "\(outcome)")
            guard case .unsupported(let failure) = outcome.status else { continue }
            #expect(failure.format == nil)
        }
        // Once a dimension is known it is an XBM, and the usual errors apply.
        #expect(failureCode(verified(ascii("/* c */\n#define a_width 4\nstatic char a_bits[] = {0};\n"))) == .malformed)
        let longTail = "/* c */\n#define a_width 4\n/* " + String(repeating: "z", count: 8200) + " */\n"
        #expect(failureCode(verifiedLong(ascii(longTail))) == .limitExceeded)
        // Input that ends in or after the comment, before any define, is truncated.
        for text in ["/*", "/* open", "/* closed */\n", "/* c */\n#define a_depth 2\n"] {
            let outcome = verified(ascii(text))
            #expect(failureCode(outcome) == .truncated, "\(text)")
            guard case .unsupported(let failure) = outcome.status else { continue }
            #expect(failure.format == nil)
        }
        // Two bytes that start no signature are followed by four more (Aseprite's magic is at
        // byte 4) before the answer.
        #expect(failureCode(verified(ascii("/x"))) == .truncated)
        #expect(failureCode(verified(ascii("/xyzab"))) == .unknownFormat)
    }

    @Test func errors() {
        let malformed = [
            XBMBuilder.image(width: "0", height: "1").bytes,
            XBMBuilder.image(width: "1", height: "0").bytes,
            XBMBuilder.image(width: "2147483648", height: "1").bytes,
            XBMBuilder.image(width: "abc", height: "1").bytes,
            XBMBuilder.image(width: "-4", height: "1").bytes,
            XBMBuilder.image(width: "4x", height: "1").bytes,
            ascii("#define test_width 8\nstatic unsigned char test_bits[] = {\n0x00 };\n"),  // no height before the data
            ascii("#define test_width\n#define test_height 8\n"),
        ]
        for bytes in malformed {
            #expect(failureCode(verified(bytes)) == .malformed, "\(String(decoding: bytes, as: UTF8.self))")
        }
        for text in ["#dfine a_width 1\n", "#define_width 1\n", "#define\n", "#defin", "#d"] {
            let code = failureCode(verified(ascii(text)))
            #expect(code == .unknownFormat || code == .truncated, "\(text)")
        }
        #expect(failureCode(verified(ascii("#define a_width 5\n"))) == .truncated)
    }

    @Test func limitsAndNoise() {
        let long = XBMBuilder.image(width: "8", height: "8", between: ["/* " + String(repeating: "z", count: 8200) + " */"])
        #expect(failureCode(verifiedLong(long.bytes)) == .limitExceeded)
        var small = ScanOptions()
        small.maxWidth = 15
        #expect(failureCode(verified(XBMBuilder.image(width: 16, height: 7).bytes, small)) == .limitExceeded)
        for seed in UInt64(1)...8 {
            var random = SeededRandom(seed: seed)
            let noise = random.bytes(300)
            #expect(failureCode(verified(ascii("#dx") + noise)) == .unknownFormat)
            #expect(failureCode(verified(ascii("#define ") + noise)) != nil)
        }
    }
}
