import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct EPSTests {
    /// The input's length, as a file's size gives it.
    static func seekable(_ bytes: [UInt8], _ mode: ScanOptions.Mode = .full) -> ScanOptions {
        var options = ScanOptions(mode: mode)
        options.inputLength = UInt64(bytes.count)
        return options
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func boundingBoxInPoints(lineEnd: String) {
        let document = EPSBuilder.document(box: "-10 20 290 220", lineEnd: lineEnd)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(document.bytes, options)
            let found = info(outcome)
            #expect(found?.format == .eps)
            #expect(found?.mimeType.description == "image/x-eps")
            #expect(found?.size == [300, 200])
            #expect(found?.epsPreview == nil)
            #expect(outcome.bytesConsumed == UInt64(document.sizeEnd))
        }
    }

    @Test func coordinatesAreTruncatedTowardZeroBeforeSubtracting() {
        // Pillow's int(float(v)), on each coordinate.
        for (box, size) in [("0 0 100.6 50.4", [100, 50]), ("-50.7 -20 30 40.9", [80, 60]), ("+1 .5 11. 3", [10, 3]),
                            ("0\t0   7\t  9", [7, 9])] {
            let document = EPSBuilder.document(box: box)
            let outcome = verified(document.bytes, dimensionsOnly)
            #expect(info(outcome)?.size == size, "\(box)")
            #expect(outcome.bytesConsumed == UInt64(document.sizeEnd), "\(box)")
        }
        let noSpace = EPSBuilder.document(["%!PS-Adobe-3.0 EPSF-3.0", "%%BoundingBox:0 0 12 34", "%%EndComments"], answer: "%%BoundingBox:0 0 12 34")
        #expect(info(verified(noSpace.bytes))?.size == [12, 34])
    }

    @Test func theFirstHeaderBoxOfFourNumbersWins() {
        let lines = ["%!PS-Adobe-3.0 EPSF-3.0", "%%Title: (two boxes)", "", "%%HiResBoundingBox: 0 0 99.5 99.5",
                     "%%BoundingBox: 1 2", "%%BoundingBox: 0 0 1e2 5", "%%BoundingBox: a b c d",
                     "%%BoundingBox: 0 0 100 100", "%%BoundingBox: 0 0 10 10", "%%EndComments"]
        let document = EPSBuilder.document(lines, answer: "%%BoundingBox: 0 0 100 100")
        let outcome = verified(document.bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [100, 100])
        #expect(outcome.bytesConsumed == UInt64(document.sizeEnd))
        // PostScript that is not EPSF but keeps the DSC comments is read the same way.
        let plain = EPSBuilder.document(["%!PS-Adobe-3.0", "%%BoundingBox: 0 0 5 6"], answer: "%%BoundingBox: 0 0 5 6")
        #expect(info(verified(plain.bytes))?.size == [5, 6])
    }

    @Test func deferredBoxesAreReadFromTheTrailer() {
        let document = EPSBuilder.deferred(box: "0 0 64 48")
        for options in [ScanOptions(), dimensionsOnly, Self.seekable(document.bytes)] {
            let outcome = verified(document.bytes, options)
            #expect(info(outcome)?.size == [64, 48])
            #expect(outcome.bytesConsumed == UInt64(document.sizeEnd))
        }
        // A long body: a reader that knows the length jumps to the last 16 KiB.
        let long = EPSBuilder.deferred(box: "0 0 640 480", bodyLines: 1000)
        let jumped = verifiedLong(long.bytes, Self.seekable(long.bytes, .dimensionsOnly))
        #expect(info(jumped)?.size == [640, 480])
        #expect(jumped.bytesConsumed == UInt64(long.sizeEnd))
        var scanner = HeaderScanner(options: Self.seekable(long.bytes, .dimensionsOnly))
        _ = scanner.feed(Array(long.bytes.prefix(100)))
        #expect(scanner.pendingSkip > 0)
        #expect(UInt64(long.bytes.count - 100) - scanner.pendingSkip <= 16385)
        let streamed = verifiedLong(long.bytes, dimensionsOnly)
        #expect(info(streamed)?.size == [640, 480])
        #expect(streamed.bytesConsumed == UInt64(long.sizeEnd))
    }

    @Test func deferredBoxesThatNeverCome() {
        let noTrailerBox = EPSBuilder.document(["%!PS-Adobe-3.0 EPSF-3.0", "%%BoundingBox: (atend)", "%%EndComments", "showpage",
                                                "%%Trailer", "%%BoundingBox: (atend)", "%%EOF", "more"])
        #expect(failureCode(verified(noTrailerBox.bytes)) == .malformed)
        let noTrailer = EPSBuilder.document(["%!PS-Adobe-3.0 EPSF-3.0", "%%BoundingBox: (atend)", "%%EndComments", "showpage"])
        #expect(failureCode(verified(noTrailer.bytes)) == .truncated)
        // With the input's length known, its end is the section's: the box is missing.
        #expect(failureCode(verified(noTrailer.bytes, Self.seekable(noTrailer.bytes))) == .malformed)
        let noBox = EPSBuilder.document(["%!PS-Adobe-3.0 EPSF-3.0", "%%Title: none"])
        #expect(failureCode(verified(noBox.bytes)) == .truncated)
        #expect(failureCode(verified(noBox.bytes, Self.seekable(noBox.bytes))) == .malformed)
        // A file that ends right after the box's last digit.
        let atTheEnd = ascii("%!PS-Adobe-3.0\n%%BoundingBox: 0 0 8 9")
        #expect(failureCode(verified(atTheEnd)) == .truncated)
        #expect(info(verified(atTheEnd, Self.seekable(atTheEnd)))?.size == [8, 9])
    }

    @Test(arguments: [EPSBuilder.Preview.tiff, .windowsMetafile, .none])
    func dosBinaryHeader(preview: EPSBuilder.Preview) {
        let postScript = EPSBuilder.document(box: "0 0 120 90", lineEnd: "\r")
        let dos = EPSBuilder.dos(postScript: postScript.bytes, preview: preview)
        for options in [dimensionsOnly, ScanOptions(), Self.seekable(dos.bytes)] {
            let outcome = verified(dos.bytes, options)
            let found = info(outcome)
            #expect(found?.format == .eps)
            #expect(found?.size == [120, 90])
            #expect(outcome.bytesConsumed == UInt64(dos.postScriptStart + postScript.sizeEnd))
            switch preview {
            case .tiff: #expect(found?.epsPreview == .tiff)
            case .windowsMetafile: #expect(found?.epsPreview == .windowsMetafile)
            case .none: #expect(found?.epsPreview == nil)
            }
        }
        // A deferred box is looked for before the preview, at the section's end.
        let deferred = EPSBuilder.deferred(box: "0 0 7 8")
        let withPreview = EPSBuilder.dos(postScript: deferred.bytes, preview: preview, previewBytes: 20_000)
        #expect(info(verifiedLong(withPreview.bytes))?.size == [7, 8])
    }

    @Test func dosHeaderErrors() {
        let postScript = EPSBuilder.document(box: "0 0 1 1").bytes
        var notDSC = EPSBuilder.dos(postScript: ascii("%!PS-Adobe") + [0x2E] + Array(postScript.dropFirst(11))).bytes
        #expect(failureCode(verified(notDSC)) == .malformed)
        notDSC = EPSBuilder.dos(postScript: postScript).bytes
        notDSC[4] = 20  // the section would start inside the header
        #expect(failureCode(verified(notDSC)) == .malformed)
        // The section must lie inside a file of known length.
        let cut = Array(EPSBuilder.dos(postScript: postScript, preview: .none).bytes.dropLast(3))
        #expect(failureCode(verified(cut, Self.seekable(cut))) == .malformed)
        #expect(info(verified(cut))?.size == [1, 1])
        // The section's end ends its last line: a box without a line end there is complete.
        let tight = EPSBuilder.dos(postScript: ascii("%!PS-Adobe-3.0\n%%BoundingBox: 0 0 3 4"), preview: .tiff)
        let outcome = verified(tight.bytes)
        #expect(info(outcome)?.size == [3, 4])
        #expect(outcome.bytesConsumed == UInt64(tight.bytes.count - 64))
        let short = EPSBuilder.dos(postScript: ascii("%!PS-Adobe-3.0\n%%BoundingBox: 0 0 3"), preview: .tiff).bytes
        #expect(failureCode(verified(short)) == .malformed)
    }

    @Test func errors() {
        let header = "%!PS-Adobe-3.0 EPSF-3.0"
        for lines in [[header, "%%EndComments", "%%BoundingBox: 0 0 1 1"], [header, "showpage", "%%BoundingBox: 0 0 1 1"],
                      [header, "%%BoundingBox: 0 0 0 1", "%%EndComments"], [header, "%%BoundingBox: 5 5 1 9"]] {
            #expect(failureCode(verified(EPSBuilder.document(lines).bytes)) == .malformed, "\(lines)")
        }
        for text in ["%!PS\n%%BoundingBox: 0 0 1 1\n", "%!FontType1-1.0\n", "%!"] {
            let code = failureCode(verified(ascii(text)))
            #expect(code == .unknownFormat || code == .truncated, "\(text)")
        }
        let long = EPSBuilder.document([header] + [String](repeating: "%%Comment: " + String(repeating: "z", count: 200), count: 400))
        #expect(failureCode(verifiedLong(long.bytes)) == .limitExceeded)
        var small = ScanOptions()
        small.maxWidth = 99
        #expect(failureCode(verified(EPSBuilder.document(box: "0 0 100 1").bytes, small)) == .limitExceeded)
        var random = SeededRandom(seed: 0xE95)
        for _ in 0..<30 {
            _ = verified(ascii(header + "\n%%BoundingBox: ") + random.bytes(60))
            _ = verified([0xC5, 0xD0, 0xD3, 0xC6] + random.bytes(80))
        }
    }
}
