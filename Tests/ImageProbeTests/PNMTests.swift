import ImageProbe
import ImageProbeFixtures
import Testing

/// The chunking verifier's sampled coverage (a random chunking, a one-byte drip, prefixes
/// around the answer, a seeking reader), for inputs of many KiB (header budgets) that
/// every-split-point coverage would make slow.
@discardableResult
func verifiedLong(
    _ bytes: [UInt8], _ options: ScanOptions = ScanOptions(), sourceLocation: SourceLocation = #_sourceLocation
) -> ScanOutcome {
    let report = ChunkingVerifier(options: options).verify(bytes, coverage: .sampled(seed: UInt64(bytes.count)))
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))", sourceLocation: sourceLocation)
    ReplayExport.record(bytes, options, report.reference)
    return report.reference
}

@Suite struct PNMTests {
    @Test(arguments: 1...6)
    func everyMagicNumber(magic: Int) {
        let image = PNMBuilder.image(magic: magic, width: 123, height: 456, maxval: 1023, comment: "Created by GIMP")
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.size == [123, 456])
        #expect(info(quick)?.format == .pnm)
        #expect(info(quick)?.bitDepth == nil)
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))

        let full = verified(image.bytes)
        let bitmap = magic == 1 || magic == 4
        #expect(info(full)?.bitDepth == (bitmap ? 1 : 10))
        #expect(info(full)?.hasAlpha == false)
        #expect(info(full)?.orientation == nil)
        #expect(full.bytesConsumed == UInt64(bitmap ? image.sizeEnd : image.headerEnd))
    }

    @Test func answerComesAtTheByteAfterTheHeight() {
        // "P5\n24 7\n": the newline after 7 is the eighth byte.
        let image = PNMBuilder.netpbm(magic: "5", tokens: ["24", "7", "15"], gaps: ["\n", " ", "\n"])
        let outcome = verified(image.bytes, dimensionsOnly)
        #expect(outcome.bytesConsumed == 8)
        #expect(image.sizeEnd == 8)
        // Without that byte the height could still grow: 7, 70, 700...
        let cut = Array(image.bytes[0..<7])
        #expect(failureCode(ChunkingVerifier.scanWhole(cut, options: dimensionsOnly)) == .truncated)
    }

    static let gaps = [" ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "   \t\n  ", "#comment\n", "# a\r", " # x\n # y\n ", "#\n"]

    @Test(arguments: gaps)
    func whiteSpaceAndCommentsAtEveryPosition(gap: String) {
        for position in 0..<3 {
            var gaps = ["\n", " ", "\n"]
            gaps[position] = gap
            let image = PNMBuilder.netpbm(magic: "6", tokens: ["17", "9", "255"], gaps: gaps, raster: [1, 2, 3])
            let quick = verified(image.bytes, dimensionsOnly)
            #expect(info(quick)?.size == [17, 9])
            #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
            let full = verified(image.bytes)
            #expect(info(full)?.bitDepth == 8)
            #expect(full.bytesConsumed == UInt64(image.headerEnd))
        }
    }

    @Test func commentRightAfterANumberEndsIt() {
        // Netpbm's pm_getc turns a comment into white space, wherever it is.
        let image = PNMBuilder.netpbm(magic: "2", tokens: ["12", "34", "255"], gaps: ["#c\n", "#c\n", "#c\n"], end: "#c\n")
        #expect(info(verified(image.bytes))?.size == [12, 34])
        #expect(verified(image.bytes, dimensionsOnly).bytesConsumed == UInt64(image.sizeEnd))
        #expect(image.bytes[image.sizeEnd - 1] == UInt8(ascii: "#"))
    }

    @Test func leadingZerosAndTheLargestNumbers() {
        let padded = PNMBuilder.netpbm(magic: "5", tokens: ["000000000000000000012", "0003", "00255"], gaps: [" ", " ", " "])
        #expect(info(verified(padded.bytes))?.size == [12, 3])

        var wide = ScanOptions()
        wide.maxWidth = Int(Int32.max)
        let largest = PNMBuilder.netpbm(magic: "4", tokens: ["2147483647", "1"], gaps: [" ", " "])
        #expect(info(verified(largest.bytes, wide))?.width == 2_147_483_647)
        // Within 31 bits, but over the default maxWidth of 2^30.
        #expect(failureCode(verified(largest.bytes)) == .limitExceeded)
    }

    @Test(arguments: ["2147483648", "4294967296", "99999999999999999999999999999999"])
    func numbersThatOverflow(number: String) {
        for position in 0..<3 {
            var tokens = ["5", "5", "255"]
            tokens[position] = number
            let image = PNMBuilder.netpbm(magic: "6", tokens: tokens, gaps: [" ", " ", " "])
            if position < 2 {
                #expect(failureCode(verified(image.bytes)) == .malformed)
            } else {
                #expect(info(verified(image.bytes))?.isPartial == true)  // maxval comes after the size
            }
        }
    }

    @Test func malformedHeaders() {
        let cases: [String] = [
            "P612 3 255\n",  // no white space after the magic number
            "P6 x 3 255\n",  // not a number
            "P6 12x3 255\n",  // a number ending in a letter
            "P6 12 -3 255\n",  // a sign
            "P6 0 3 255\n",  // zero width
            "P6 3 0 255\n",  // zero height
            "P1\n\n\n4\u{0}4\n",
        ]
        for text in cases {
            #expect(failureCode(verified(ascii(text))) == .malformed, "\(text)")
        }
        // A bad maxval: zero, over 16 bits, not an integer. It comes after the size, so full
        // mode's answer is partial, and dimensions-only mode never reads it.
        for text in ["P6 3 3 0\n", "P6 3 3 65536\n", "P6 3 3 2.5\n"] {
            let partial = info(verified(ascii(text)))
            #expect(partial?.size == [3, 3])
            #expect(partial?.isPartial == true)
            #expect(partial?.bitDepth == nil)
            #expect(info(verified(ascii(text), dimensionsOnly))?.isPartial == false)
        }
    }

    @Test func maxvalSetsTheBitDepth() {
        for maxval in [1, 2, 255, 256, 1023, 65535] {
            let image = PNMBuilder.image(magic: 5, width: 2, height: 2, maxval: maxval)
            #expect(info(verified(image.bytes))?.bitDepth == PNMBuilder.bits(for: maxval))
        }
    }

    @Test func limits() {
        var small = ScanOptions()
        small.maxWidth = 100
        let image = PNMBuilder.image(magic: 6, width: 101, height: 1)
        let outcome = verified(image.bytes, small)
        #expect(failureCode(outcome) == .limitExceeded)
        #expect(outcome.bytesConsumed == UInt64(image.sizeEnd))

        let longComment = PNMBuilder.netpbm(magic: "6", tokens: ["1", "1", "255"],
                                            gaps: ["\n#" + String(repeating: "x", count: 9000) + "\n", " ", " "])
        #expect(failureCode(verifiedLong(longComment.bytes)) == .limitExceeded)
        let justFits = PNMBuilder.netpbm(magic: "6", tokens: ["1", "1", "255"],
                                         gaps: ["\n#" + String(repeating: "x", count: 8000) + "\n", " ", " "])
        #expect(info(verifiedLong(justFits.bytes))?.size == [1, 1])
    }

    @Test func signatureThenRandomBytes() {
        for seed in UInt64(1)...8 {
            var random = SeededRandom(seed: seed)
            let noise = random.bytes(300)
            for magic in ["1", "4", "6", "7", "F"] {
                let bytes = ascii("P" + magic + "x") + noise
                #expect(failureCode(verified(bytes)) == .malformed)
            }
            // A valid header followed by noise: the raster is never looked at.
            let header = ascii("P5 3 2 255\n") + noise
            #expect(info(verified(header))?.size == [3, 2])
            // Noise where the header should be never answers.
            #expect(failureCode(verified(ascii("P3 ") + noise)) != nil)
        }
    }

    @Test func emptyAndTruncatedInputs() {
        #expect(failureCode(verified(ascii("P6"))) == .truncated)
        #expect(failureCode(verified(ascii("P6 "))) == .truncated)
        #expect(failureCode(verified(ascii("P6 12 34"))) == .truncated)
        // The size is known once the height's terminator arrives; full mode then ends early.
        let partial = info(verified(ascii("P6 12 34 25")))
        #expect(partial?.size == [12, 34])
        #expect(partial?.isPartial == true)
    }

    // MARK: - PAM

    @Test func arbitraryMap() {
        let image = PNMBuilder.pam(PNMBuilder.pamLines(width: 123, height: 456))
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.size == [123, 456])
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
        #expect(quick.bytesConsumed == 24)  // "P7\nWIDTH 123\nHEIGHT 456\n"
        let full = verified(image.bytes)
        #expect(info(full)?.bitDepth == 8)
        #expect(info(full)?.hasAlpha == true)
        #expect(full.bytesConsumed == UInt64(image.headerEnd))
    }

    @Test(arguments: [("GRAYSCALE_ALPHA", true), ("RGB_ALPHA", true), ("BLACKANDWHITE_ALPHA", true),
                      ("RGB", false), ("GRAYSCALE", false), ("RGB_ALPHA  ", true), ("_ALPHA_NOT", false)])
    func tupleTypeGivesAlpha(tupleType: String, alpha: Bool) {
        let image = PNMBuilder.pam(PNMBuilder.pamLines(width: 2, height: 2, tupleType: tupleType))
        #expect(info(verified(image.bytes))?.hasAlpha == alpha)
    }

    @Test func pamLinesInAnyOrderWithCommentsAndBlankLines() {
        let lines: [PNMBuilder.PAMLine] = [
            .comment(" first"), .maxval(15), .raw(""), .tupleType("GRAYSCALE"), .height(532), .raw("   "),
            .comment("WIDTH 1"), .depth(2), .raw("  WIDTH\t510  "), .tupleType("ALPHA_ONLY_ALPHA"),
        ]
        let image = PNMBuilder.pam(lines)
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.size == [510, 532])
        // The raw WIDTH line completes the size at the blank after "510".
        let widthLine = ascii("\t510 ")
        let start = (0...(image.bytes.count - widthLine.count)).first { Array(image.bytes[$0..<($0 + widthLine.count)]) == widthLine }
        #expect(quick.bytesConsumed == UInt64((start ?? 0) + widthLine.count))
        let full = info(verified(image.bytes))
        #expect(full?.bitDepth == 4)
        #expect(full?.hasAlpha == true)  // the last TUPLTYPE line decides

        let noTupleType = PNMBuilder.pam([.width(3), .height(4), .depth(3), .maxval(255)])
        #expect(info(verified(noTupleType.bytes))?.hasAlpha == nil)
        let crlf = PNMBuilder.pam(PNMBuilder.pamLines(width: 8, height: 9), newline: "\r\n")
        #expect(info(verified(crlf.bytes))?.size == [8, 9])
        #expect(verified(crlf.bytes, dimensionsOnly).bytesConsumed == UInt64(crlf.sizeEnd))
    }

    @Test func pamErrors() {
        let malformed: [[PNMBuilder.PAMLine]] = [
            [.width(3), .raw("COLOURS 3"), .height(3)],  // unknown keyword
            [.width(0), .height(3)],
            [.width(3), .height(0)],
            [.width(3), .raw("HEIGHT")],  // no value
            [.width(3), .raw("HEIGHT x")],
            [.width(3), .raw("HEIGHT 2147483648")],
            [.depth(3)],  // ENDHDR before WIDTH and HEIGHT
            [.maxval(0), .width(1), .height(1)],
            [.raw("WIDTH 3 4"), .height(1)],
        ]
        for lines in malformed {
            #expect(failureCode(verified(PNMBuilder.pam(lines).bytes)) == .malformed, "\(lines)")
        }
        #expect(failureCode(verified(ascii("P7 332\n#XVVERSION:Version 2.28\n"))) == .unsupportedFeature)
        #expect(failureCode(verified(ascii("P7x\nWIDTH 1\n"))) == .malformed)
        // After the size, full mode's failure leaves a partial answer.
        let late = info(verified(PNMBuilder.pam([.width(3), .height(4), .maxval(70000)]).bytes))
        #expect(late?.size == [3, 4])
        #expect(late?.isPartial == true)
    }

    // MARK: - PFM

    @Test(arguments: [false, true])
    func floatMap(grey: Bool) {
        let image = PNMBuilder.floatMap(grey: grey, width: 123, height: 456)
        let quick = verified(image.bytes, dimensionsOnly)
        #expect(info(quick)?.format == .pfm)
        #expect(info(quick)?.size == [123, 456])
        #expect(quick.bytesConsumed == UInt64(image.sizeEnd))
        let full = verified(image.bytes)
        #expect(info(full)?.bitDepth == 32)
        #expect(full.bytesConsumed == UInt64(image.headerEnd))
    }

    @Test(arguments: ["-1.0", "1", "1.0", "+2.5", "-0.5E-2", "1e0", "-.25", "3."])
    func floatMapScales(scale: String) {
        let image = PNMBuilder.floatMap(grey: false, width: 4, height: 2, scale: scale)
        let outcome = verified(image.bytes)
        #expect(info(outcome)?.isPartial == false)
        #expect(outcome.bytesConsumed == UInt64(image.headerEnd))
    }

    @Test func floatMapErrors() {
        for scale in ["0", "-0.0", "abc", "1e", "-", "1x"] {
            let found = info(verified(PNMBuilder.floatMap(grey: true, width: 4, height: 2, scale: scale).bytes))
            #expect(found?.isPartial == true, "\(scale)")  // the size came first
        }
        // PFM has no comments.
        #expect(failureCode(verified(ascii("PF\n#c\n1 1\n-1\n"))) == .malformed)
        #expect(failureCode(verified(ascii("Pf\n0 1\n-1\n"))) == .malformed)
        let spaced = PNMBuilder.floatMap(grey: false, width: 3, height: 2, separator: " ")
        #expect(info(verified(spaced.bytes))?.size == [3, 2])
    }
}
