import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct JXLTests {
    typealias Size = JXLBuilder.Size

    /// Checks a bare codestream in both modes: the size, where each answer ends, and the
    /// orientation full mode finds.
    func expectCodestream(_ stream: JXLBuilder.Codestream, width: Int, height: Int, orientation: Int = 1,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        let dimensions = verified(stream.bytes, dimensionsOnly, sourceLocation: sourceLocation)
        #expect(info(dimensions, sourceLocation: sourceLocation)?.size == [width, height], sourceLocation: sourceLocation)
        #expect(info(dimensions, sourceLocation: sourceLocation)?.orientation == nil, sourceLocation: sourceLocation)
        #expect(dimensions.bytesConsumed == UInt64(stream.sizeEnd), sourceLocation: sourceLocation)
        let full = verified(stream.bytes, sourceLocation: sourceLocation)
        let found = info(full, sourceLocation: sourceLocation)
        #expect(found?.format == .jxl, sourceLocation: sourceLocation)
        #expect(found?.size == [width, height], sourceLocation: sourceLocation)
        #expect(found?.orientation?.rawValue == UInt8(orientation), sourceLocation: sourceLocation)
        #expect(found?.isPartial == false, sourceLocation: sourceLocation)
        #expect(full.bytesConsumed == UInt64(stream.fullModeEnd), sourceLocation: sourceLocation)
    }

    // MARK: SizeHeader

    @Test func smallSizes() {
        for height in [8, 16, 248, 256] {
            for width in [8, 136, 256] {
                let stream = JXLBuilder.codestream(Size(height: height, width: width, small: true))
                #expect(stream.sizeHeaderBits == 14)
                expectCodestream(stream, width: width, height: height)
            }
        }
    }

    @Test(arguments: 0..<4)
    func everyDistributionOfTheHeightAndWidth(heightSelector: Int) {
        let heightBits = JXLBuilder.selectorBits[heightSelector]
        for height in [1, 1 << heightBits] {
            for widthSelector in 0..<4 {
                let widthBits = JXLBuilder.selectorBits[widthSelector]
                for width in [1, 1 << widthBits] {
                    let size = Size(height: height, width: width, heightSelector: heightSelector, widthSelector: widthSelector)
                    let stream = JXLBuilder.codestream(size)
                    #expect(stream.sizeHeaderBits == 1 + 2 + heightBits + 3 + 2 + widthBits)
                    expectCodestream(stream, width: width, height: height)
                }
            }
        }
    }

    @Test func sizesAnEncoderWouldWrite() {
        // The corpus's shapes: 2^12, 2^16 and 2^24 wide or tall, 16:9, odd sizes.
        for (width, height) in [(4096, 1), (1, 65536), (1 << 24, 1), (1, 1 << 24), (1920, 1080), (1386, 924), (257, 257), (1, 1)] {
            expectCodestream(JXLBuilder.codestream(width: width, height: height), width: width, height: height)
        }
    }

    @Test(arguments: 1...7)
    func aspectRatioShortcut(code: Int) {
        let (numerator, denominator) = JXLBuilder.ratios[code - 1]
        for (height, selector) in [(1, 0), (7, 0), (9, 0), (100, 0), (1080, 1), (123_457, 2), (99_999_999, 3)] {
            let stream = JXLBuilder.codestream(Size(height: height, width: 0, ratio: code, heightSelector: selector))
            // floor(height × num / den), in integers.
            expectCodestream(stream, width: height * numerator / denominator, height: height)
        }
        for height in stride(from: 8, through: 256, by: 8) {
            let stream = JXLBuilder.codestream(Size(height: height, width: 0, small: true, ratio: code))
            #expect(stream.sizeHeaderBits == 9)
            expectCodestream(stream, width: height * numerator / denominator, height: height)
        }
    }

    @Test func aspectRatioWidthsAreFloored() {
        // 12/10 of 7 is 8.4; 16/9 of 10 is 17.8; 4/3 of 2 is 2.67.
        for (code, height, width) in [(2, 7, 8), (5, 10, 17), (3, 2, 2), (6, 3, 3), (4, 3, 4)] {
            expectCodestream(JXLBuilder.codestream(Size(height: height, width: 0, ratio: code)), width: width, height: height)
        }
    }

    @Test(arguments: 1...7)
    func aspectRatioAtTheLargestHeightDoesNotOverflow(code: Int) {
        let height = 1 << 30
        let bytes = JXLBuilder.codestream(Size(height: height, width: 0, ratio: code, heightSelector: 3)).bytes
        let (numerator, denominator) = JXLBuilder.ratios[code - 1]
        let width = Int(UInt64(height) * UInt64(numerator) / UInt64(denominator))
        var unlimited = dimensionsOnly
        unlimited.maxWidth = Int.max
        #expect(info(verified(bytes, unlimited))?.size == [width, height])
        // The default limit is 2^30 a side.
        if width > 1 << 30 {
            #expect(failureCode(verified(bytes)) == .limitExceeded)
        } else {
            #expect(info(verified(bytes))?.size == [width, height])
        }
    }

    @Test func sizeLimits() {
        var options = ScanOptions()
        options.maxHeight = 999
        let bytes = JXLBuilder.codestream(width: 10, height: 1000).bytes
        #expect(failureCode(verified(bytes, options)) == .limitExceeded)
        options.maxHeight = 1000
        #expect(info(verified(bytes, options))?.size == [10, 1000])
    }

    // MARK: ImageMetadata

    @Test(arguments: 1...8)
    func orientation(_ orientation: Int) {
        let stream = JXLBuilder.codestream(width: 300, height: 200, metadata: .orientation(orientation))
        #expect(stream.headerBits == stream.sizeHeaderBits + 8)  // flags, orientation, three "have" flags
        expectCodestream(stream, width: 300, height: 200, orientation: orientation)
        let found = info(verified(stream.bytes))
        #expect(found?.displayWidth == (orientation >= 5 ? 200 : 300))
        #expect(found?.bitDepth == nil)
    }

    @Test(arguments: [0, 1, 7, 8, 65535, 65536, 4_000_000_000])
    func animationHeaderGivesAnimatedAndTheLoopCount(loops: Int) {
        let stream = JXLBuilder.codestream(width: 300, height: 200, metadata: .animation(loops: loops))
        expectCodestream(stream, width: 300, height: 200)
        let found = info(verified(stream.bytes))
        #expect(found?.isAnimated == true)
        #expect(found?.loopCount == loops)
        // Without the animation header, a definite still image.
        let still = info(verified(JXLBuilder.codestream(width: 300, height: 200, metadata: .orientation(3)).bytes))
        #expect(still?.isAnimated == false)
        #expect(still?.loopCount == nil)
    }

    @Test func defaultMetadata() {
        let stream = JXLBuilder.codestream(width: 64, height: 64, metadata: .allDefault)
        expectCodestream(stream, width: 64, height: 64)
        let found = info(verified(stream.bytes))
        #expect(found?.bitDepth == 8)
        #expect(found?.hasAlpha == false)
        #expect(found?.isAnimated == false)
        // Not all default, but no extra fields: orientation 1, and the rest unknown.
        let plain = JXLBuilder.codestream(width: 64, height: 64, metadata: .noExtraFields)
        expectCodestream(plain, width: 64, height: 64)
        #expect(info(verified(plain.bytes))?.bitDepth == nil)
    }

    @Test func truncatedCodestream() {
        let stream = JXLBuilder.codestream(Size(height: 1 << 30, width: 1 << 30, heightSelector: 3, widthSelector: 3), metadata: .orientation(6))
        let insideSize = Array(stream.bytes.prefix(stream.sizeEnd - 1))
        #expect(failureCode(verified(insideSize)) == .truncated)
        #expect(failureCode(verified(insideSize, dimensionsOnly)) == .truncated)
        // Full mode with the size but not the orientation: a partial answer.
        let sizeOnly = Array(stream.bytes.prefix(stream.sizeEnd))
        #expect(stream.fullModeEnd > stream.sizeEnd)
        let found = info(verified(sizeOnly))
        #expect(found?.size == [1 << 30, 1 << 30])
        #expect(found?.isPartial == true)
        #expect(found?.orientation == nil)
        #expect(failureCode(verified([0xFF, 0x0A])) == .truncated)
    }

    @Test func randomBytesAfterTheSignature() {
        var random = SeededRandom(seed: 0x1A)
        for _ in 0..<40 {
            // Any bits make some SizeHeader; the verifier checks the outcome is consistent.
            let bytes = [0xFF, 0x0A] + random.bytes(12)
            let outcome = verified(bytes)
            if case .done(let found) = outcome.status {
                #expect(found.width >= 1 && found.height >= 1)
                // Full mode reads on through the intrinsic size, preview and animation
                // headers when the bits say they are there: at most the input.
                #expect(outcome.bytesConsumed <= UInt64(bytes.count))
                let dimensions = verified(bytes, dimensionsOnly)
                #expect(dimensions.bytesConsumed <= 11)  // the largest SizeHeader
            }
            let boxed = JPEGBox.signature("JXL ") + JXLBuilder.fileType + random.bytes(40)
            let boxedOutcome = verified(boxed)
            if case .done = boxedOutcome.status { Issue.record("random boxes gave an image: \(boxedOutcome)") }
        }
    }

    // MARK: Container

    @Test(arguments: [JPEGBox.Length.exact, .large, .toEnd])
    func codestreamBox(length: JPEGBox.Length) {
        let stream = JXLBuilder.codestream(width: 4000, height: 3000, metadata: .orientation(8))
        let file = JXLBuilder.container([.whole(stream.bytes, length: length)])
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [4000, 3000])
        #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)))
        let full = verified(file.bytes)
        #expect(info(full)?.orientation == .rotate90Anticlockwise)
        #expect(full.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.fullModeEnd)))
    }

    @Test func otherBoxesBeforeTheCodestreamAreSkipped() {
        let stream = JXLBuilder.codestream(width: 32, height: 48, metadata: .orientation(2))
        let exif = JPEGBox.box("Exif", [0, 0, 0, 0] + TIFFBuilder(entries: [.orientation(6)]).build())
        let pieces: [JXLBuilder.Piece] = [
            .box(JPEGBox.box("jxll", [10])),
            .box(exif),
            .box(JPEGBox.box("xml ", ascii("<x:xmpmeta/>"), length: .large)),
            .box(JPEGBox.box("brob", ascii("Exif") + [0x11, 0x22, 0x33])),
            .box(JPEGBox.box("jumb", [])),
            .box(JPEGBox.box("JXL ", [0x0D, 0x0A, 0x87, 0x0A])),
            .whole(stream.bytes),
        ]
        let file = JXLBuilder.container(pieces)
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [32, 48])
        #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)))
        // The codestream's orientation counts, not the Exif box's.
        #expect(info(verified(file.bytes))?.orientation == .mirrorHorizontal)
    }

    @Test func partsSplitAtEveryByteOfTheHeader() {
        let stream = JXLBuilder.codestream(Size(height: 300_000, width: 5, heightSelector: 3, widthSelector: 1), metadata: .orientation(7))
        let between = JPEGBox.box("jbrd", [9, 9, 9])
        for cut in 0...stream.fullModeEnd + 1 {
            for filler in [nil, between] {
                let file = JXLBuilder.container(JXLBuilder.parts(stream.bytes, cuts: [cut], between: filler))
                let dimensions = verified(file.bytes, dimensionsOnly)
                #expect(info(dimensions)?.size == [5, 300_000], "cut at \(cut)")
                #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)), "cut at \(cut)")
                let full = verified(file.bytes)
                #expect(info(full)?.orientation == .transverse, "cut at \(cut)")
                #expect(full.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.fullModeEnd)), "cut at \(cut)")
            }
        }
    }

    @Test func onePartPerByte() {
        let stream = JXLBuilder.codestream(width: 70_000, height: 3, metadata: .orientation(4))
        let cuts = Array(1..<stream.bytes.count)
        let file = JXLBuilder.container(JXLBuilder.parts(stream.bytes, cuts: cuts, between: JPEGBox.box("xml ", [])))
        let dimensions = verified(file.bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [70_000, 3])
        #expect(dimensions.bytesConsumed == UInt64(file.end(ofCodestreamBytes: stream.sizeEnd)))
        #expect(info(verified(file.bytes))?.orientation == .mirrorVertical)
    }

    @Test func emptyAndUnboundedParts() {
        let stream = JXLBuilder.codestream(width: 1000, height: 1000, metadata: .orientation(5))
        let head = Array(stream.bytes.prefix(3))
        let tail = Array(stream.bytes.dropFirst(3))
        let file = JXLBuilder.container([
            .part(head, index: 0, last: false),
            .part([], index: 1, last: false),
            .part(tail, index: 2, last: true, length: .toEnd),
        ])
        #expect(info(verified(file.bytes))?.orientation == .transpose)
        #expect(info(verified(file.bytes, dimensionsOnly))?.size == [1000, 1000])
        let large = JXLBuilder.container([.part(head, index: 0, last: false, length: .large), .part(tail, index: 1, last: true, length: .large)])
        #expect(info(verified(large.bytes))?.orientation == .transpose)
    }

    @Test func codestreamEndsInsideTheHeader() {
        let stream = JXLBuilder.codestream(Size(height: 1 << 20, width: 1 << 20, heightSelector: 3, widthSelector: 3))
        let head = Array(stream.bytes.prefix(4))
        let tail = Array(stream.bytes.dropFirst(4))
        let cases: [[JXLBuilder.Piece]] = [
            [.whole(head)],  // the only codestream box is too short
            [.part(head, index: 0, last: true), .part(tail, index: 1, last: true)],  // the last part is too short
            [.part(head, index: 0, last: false), .whole(tail)],  // jxlc after jxlp
            [.whole([])],
        ]
        for pieces in cases {
            #expect(failureCode(verified(JXLBuilder.container(pieces).bytes)) == .malformed)
        }
        // A part that is not the last, then the end of the input: truncated.
        let cut = JXLBuilder.container([.part(head, index: 0, last: false)])
        #expect(failureCode(verified(cut.bytes)) == .truncated)
    }

    @Test func damagedSignatures() {
        let stream = JXLBuilder.codestream(width: 8, height: 8).bytes
        var box = JXLBuilder.container([.whole(stream)]).bytes
        box[11] = 0x0B
        #expect(failureCode(verified(box)) == .unknownFormat)
        // A signature box of 13 bytes (the sniffer accepts its size, the parser does not).
        var long = JXLBuilder.container([.whole(stream)]).bytes
        long[3] = 13
        #expect(failureCode(verified(long)) == .malformed)
        // The codestream inside the box must start with FF 0A.
        let wrongMarker: [UInt8] = [0xFF, 0x0B] + stream.dropFirst(2)
        for damaged in [wrongMarker, [0xAA, 0xAA, 0xAA, 0xAA]] {
            #expect(failureCode(verified(JXLBuilder.container([.whole(damaged)]).bytes)) == .malformed)
        }
    }

    @Test func fileTypeBox() {
        let pieces: [JXLBuilder.Piece] = [.whole(JXLBuilder.codestream(width: 8, height: 8).bytes)]
        let heads = [
            JPEGBox.fileType("jxl ", compatible: ["jxl ", "isom"]),  // more brands: fine
            JPEGBox.fileType("avif", compatible: ["jxl "]),
            JPEGBox.fileType("jxl ", compatible: []),
            JPEGBox.box("jxlc", [0, 0, 0, 0, 0, 0, 0, 0]),
        ]
        #expect(info(verified(JXLBuilder.container(pieces, head: heads[0]).bytes))?.size == [8, 8])
        for head in heads.dropFirst() {
            #expect(failureCode(verified(JXLBuilder.container(pieces, head: head).bytes)) == .malformed)
        }
        let twice = JXLBuilder.container([.box(JXLBuilder.fileType)] + pieces)
        #expect(failureCode(verified(twice.bytes)) == .malformed)
    }

    @Test func boxesTooSmallForTheirHeaders() {
        let stream = JXLBuilder.codestream(width: 8, height: 8).bytes
        for size in UInt32(2)...7 {
            let file = JXLBuilder.container([.box(JPEGBox.box("Exif", [], length: .declared(size))), .whole(stream)])
            #expect(failureCode(verified(file.bytes)) == .malformed)
        }
        for size in UInt64(0)...15 {
            let file = JXLBuilder.container([.box(JPEGBox.box("Exif", [], length: .declaredLarge(size))), .whole(stream)])
            #expect(failureCode(verified(file.bytes)) == .malformed)
        }
        // A jxlp box needs room for its 4-byte index.
        for size in UInt32(8)...11 {
            let file = JXLBuilder.container([.box(JPEGBox.box("jxlp", [0, 0, 0], length: .declared(size))), .whole(stream)])
            #expect(failureCode(verified(file.bytes)) == .malformed)
        }
        // A zero-length payload is fine for other boxes.
        let empty = JXLBuilder.container([.box(JPEGBox.box("Exif", [])), .whole(stream)])
        #expect(info(verified(empty.bytes))?.size == [8, 8])
    }

    @Test func boxRunningToTheEndBeforeTheCodestream() {
        let file = JXLBuilder.container([.box(JPEGBox.box("Exif", [1, 2, 3], length: .toEnd)), .whole(JXLBuilder.codestream(width: 8, height: 8).bytes)])
        #expect(failureCode(verified(file.bytes)) == .malformed)
    }

    @Test func hugeDeclaredLengths() {
        let stream = JXLBuilder.codestream(width: 8, height: 8).bytes
        // Skipping a box that claims 4 GiB passes the codestream: the input ends first.
        let huge = JXLBuilder.container([.box(JPEGBox.box("Exif", [1], length: .declared(0xFFFF_FFF0))), .whole(stream)])
        let outcome = verified(huge.bytes)
        #expect(failureCode(outcome) == .truncated)
        let beyond = JXLBuilder.container([.box(JPEGBox.box("xml ", [1], length: .declaredLarge(UInt64.max))), .whole(stream)])
        #expect(failureCode(verified(beyond.bytes)) == .malformed)
        // A codestream box may claim more than the file holds: the header is at its start.
        let long = JXLBuilder.container([.whole(stream, length: .declared(0xFFFF_FFFF))])
        #expect(info(verified(long.bytes))?.size == [8, 8])
        let longer = JXLBuilder.container([.whole(stream, length: .declaredLarge(1 << 62))])
        #expect(info(verified(longer.bytes))?.size == [8, 8])
    }

    @Test func boxCountIsLimited() {
        let boxes = [JXLBuilder.Piece](repeating: .box(JPEGBox.box("xml ", [])), count: 20)
        let file = JXLBuilder.container(boxes + [.whole(JXLBuilder.codestream(width: 8, height: 8).bytes)])
        var options = ScanOptions()
        options.maxEntries = 20
        #expect(failureCode(verified(file.bytes, options)) == .limitExceeded)
        options.maxEntries = 23  // signature, ftyp, 20 boxes, jxlc
        #expect(info(verified(file.bytes, options))?.size == [8, 8])
    }
}
