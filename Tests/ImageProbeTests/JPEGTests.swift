import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct JPEGTests {
    /// Every SOF marker: baseline, extended, progressive, lossless, differential, arithmetic.
    static let frameMarkers: [UInt8] = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]

    @Test(arguments: frameMarkers)
    func everyFrameMarker(marker: UInt8) {
        let precision = marker == 0xC1 ? 12 : 8
        let (bytes, answerEnd) = JPEGBuilder.image(marker: marker, width: 640 + Int(marker), height: 480, precision: precision)
        for options in [ScanOptions(), dimensionsOnly] {
            let outcome = verified(bytes, options)
            guard let info = info(outcome) else { continue }
            #expect(info.format == .jpeg)
            #expect(info.size == [640 + Int(marker), 480])
            #expect(info.bitDepth == precision)
            #expect(info.isProgressive == [0xC2, 0xC6, 0xCA, 0xCE].contains(marker))
            #expect(info.orientation == nil)
            #expect(outcome.bytesConsumed == UInt64(answerEnd))
        }
    }

    @Test func tablesAndMarkersWithoutFrameDefinitionAreSkipped() {
        // DHT (C4), JPG (C8) and DAC (CC) sit in the SOF range but are not frame headers.
        let before = JPEGBuilder.jfif + JPEGBuilder.segment(0xC4, [0, 1, 2]) + JPEGBuilder.segment(0xC8, [7])
            + JPEGBuilder.segment(0xCC, [0, 0x10])
        let (bytes, answerEnd) = JPEGBuilder.image(before: before, width: 33, height: 44)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [33, 44])
        #expect(outcome.bytesConsumed == UInt64(answerEnd))
    }

    @Test func fillBytesAndStandaloneMarkers() {
        // 0xFF fill before markers, RST0..RST7 and TEM without a length.
        var before = JPEGBuilder.jfif + [0xFF, 0xFF, 0xFF]
        before += [0xFF, 0x01] + (0xD0...0xD7).flatMap { [0xFF, UInt8($0)] }
        before += [0xFF] + JPEGBuilder.quantizationTable
        let (bytes, answerEnd) = JPEGBuilder.image(before: before, width: 1, height: 65535)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [1, 65535])
        #expect(outcome.bytesConsumed == UInt64(answerEnd))
    }

    @Test func strayBytesBetweenSegmentsAreToleratedLikeLibjpeg() {
        // Garbage, including a stuffed FF 00, between segments.
        let before = JPEGBuilder.jfif + [0x00, 0x12, 0xFF, 0x00, 0x34] + JPEGBuilder.quantizationTable
        let (bytes, _) = JPEGBuilder.image(before: before, width: 300, height: 200)
        #expect(info(verified(bytes))?.size == [300, 200])
    }

    @Test func exifOrientationInBothByteOrders() {
        for order in [ByteOrder.littleEndian, .bigEndian] {
            for orientation in 1...8 {
                let tiff = TIFFBuilder(byteOrder: order, entries: [.filler(tag: 0x10F), .orientation(orientation), .filler()]).build()
                let (bytes, _) = JPEGBuilder.image(before: JPEGBuilder.exif(tiff), width: 4032, height: 3024)
                let found = info(verified(bytes))
                #expect(found?.orientation?.rawValue == UInt8(orientation))
                #expect(found?.displayWidth == (orientation >= 5 ? 3024 : 4032))
            }
        }
    }

    @Test func dimensionsOnlySkipsTheExifBlock() {
        let tiff = TIFFBuilder(entries: [.orientation(6)]).build()
        let (bytes, answerEnd) = JPEGBuilder.image(before: JPEGBuilder.exif(tiff), width: 10, height: 20)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.orientation == nil)
        #expect(outcome.bytesConsumed == UInt64(answerEnd))
    }

    @Test func exifLargerThanAnyChunkWithIFD0FarInside() {
        // IFD0 90 KB into a 100 KB Exif segment (64 KiB is the largest APP payload in
        // practice; the parser takes any length the 16-bit field allows).
        let tiff = TIFFBuilder(entries: [.orientation(8)], gapBeforeIFD: 60_000, trailing: [UInt8](repeating: 0x20, count: 5_000)).build()
        let (bytes, answerEnd) = JPEGBuilder.image(before: JPEGBuilder.exif(tiff) + JPEGBuilder.quantizationTable, width: 7, height: 9)
        let outcome = verified(bytes)
        #expect(info(outcome)?.orientation == .rotate90Anticlockwise)
        #expect(outcome.bytesConsumed == UInt64(answerEnd))
    }

    @Test func onlyTheFirstExifSegmentCounts() {
        let first = JPEGBuilder.exif(TIFFBuilder(entries: [.orientation(3)]).build())
        let second = JPEGBuilder.exif(TIFFBuilder(entries: [.orientation(6)]).build())
        let (bytes, _) = JPEGBuilder.image(before: first + second, width: 5, height: 5)
        #expect(info(verified(bytes))?.orientation == .rotate180)

        // A first Exif segment without an orientation still settles it: absent.
        let bare = JPEGBuilder.exif(TIFFBuilder(entries: [.filler()]).build())
        let (later, _) = JPEGBuilder.image(before: bare + second, width: 5, height: 5)
        #expect(info(verified(later))?.orientation == nil)

        // XMP is APP1 too, but not Exif: it doesn't use up the first Exif slot.
        let (xmpFirst, _) = JPEGBuilder.image(before: JPEGBuilder.xmp + second, width: 5, height: 5)
        #expect(info(verified(xmpFirst))?.orientation == .rotate90Clockwise)
    }

    @Test func orientationOnlyInIFD1IsIgnored() {
        let tiff = TIFFBuilder(entries: [.filler()], ifd1Entries: [.orientation(6)]).build()
        let (bytes, _) = JPEGBuilder.image(before: JPEGBuilder.exif(tiff), width: 5, height: 5)
        #expect(info(verified(bytes))?.orientation == nil)
    }

    @Test func thumbnailFrameInsideExifIsNotTheImage() {
        let (thumbnail, _) = JPEGBuilder.image(width: 160, height: 120)
        let tiff = TIFFBuilder(
            entries: [.orientation(6)], ifd1Entries: [TIFFEntry(tag: 0x201, type: 4, value: 100)], trailing: thumbnail
        ).build()
        let (bytes, _) = JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.exif(tiff), width: 4000, height: 3000)
        for options in [ScanOptions(), dimensionsOnly] {
            #expect(info(verified(bytes, options))?.size == [4000, 3000])
        }
    }

    @Test func exifWhoseIFD0PointsOutsideTheSegmentGivesNoOrientation() {
        var tiff = TIFFBuilder(entries: [.orientation(6)]).build()
        tiff[4] = 0xF0  // IFD0 offset 0x0F0 + ..., past the segment
        let (bytes, _) = JPEGBuilder.image(before: JPEGBuilder.exif(tiff), width: 5, height: 6)
        let found = info(verified(bytes))
        #expect(found?.size == [5, 6])
        #expect(found?.orientation == nil)
    }

    @Test func outOfRangeOrientationIsAbsent() {
        for value in [0, 9, 255] {
            let (bytes, _) = JPEGBuilder.image(before: JPEGBuilder.exif(TIFFBuilder(entries: [.orientation(value)]).build()), width: 5, height: 6)
            #expect(info(verified(bytes))?.orientation == nil)
        }
    }

    @Test func heightFromDNLIsUnsupported() {
        let (bytes, _) = JPEGBuilder.image(width: 100, height: 0)
        let outcome = verified(bytes)
        #expect(failureCode(outcome) == .unsupportedFeature)
    }

    @Test func jpegLSIsAnotherCodec() {
        // SOF55, as ITU-T T.87 encoders write it after SOI (and here after an APP segment).
        let frame = JPEGBuilder.segment(0xF7, [8, 0, 6, 0, 5, 1, 1, 0x11, 0])
        for bytes in [[0xFF, 0xD8] + frame, [0xFF, 0xD8] + JPEGBuilder.jfif + frame] {
            let outcome = verified(bytes)
            #expect(failureCode(outcome) == .unsupportedFeature)
            guard case .unsupported(let failure) = outcome.status else { continue }
            #expect(failure.format == .jpeg)
        }
    }

    @Test func structuralErrors() {
        // EOI or a scan before any frame header, a zero width, a table segment's length below 2
        // (APPn and COM tolerate one: see below).
        let cases: [[UInt8]] = [
            [0xFF, 0xD8] + JPEGBuilder.jfif + [0xFF, 0xD9],
            [0xFF, 0xD8] + JPEGBuilder.segment(0xDA, [1, 1, 0, 0, 63, 0]),
            JPEGBuilder.image(width: 0, height: 5).bytes,
            [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x01, 0, 0],
            [0xFF, 0xD8, 0xFF, 0xD8],
        ]
        for bytes in cases {
            #expect(failureCode(verified(bytes)) == .malformed)
        }
    }

    /// libjpeg-turbo reads COM and APPn lengths below 2 as no payload (skip_variable,
    /// get_interesting_appn): the next marker follows the two length bytes.
    @Test(arguments: [UInt8(0xFE), 0xE0, 0xE1, 0xE2, 0xED], [UInt16(0), 1])
    func applicationAndCommentLengthsBelow2AreEmpty(marker: UInt8, length: UInt16) {
        for mode in [ScanOptions.Mode.dimensionsOnly, .full] {
            let empty: [UInt8] = [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
            let (bytes, _) = JPEGBuilder.image(before: empty + JPEGBuilder.jfif, width: 64, height: 48)
            let outcome = verified(bytes, ScanOptions(mode: mode))
            guard case .done(let info) = outcome.status else {
                Issue.record("\(outcome.status)")
                continue
            }
            #expect(info.width == 64 && info.height == 48)
        }
    }

    @Test func truncatedAtEveryByteIsTruncated() {
        let tiff = TIFFBuilder(entries: [.orientation(6)]).build()
        let (bytes, answerEnd) = JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.exif(tiff), width: 64, height: 48)
        for length in 0..<answerEnd {
            let outcome = ChunkingVerifier.scanWhole(Array(bytes[0..<length]))
            #expect(failureCode(outcome) == .truncated, "prefix \(length)")
        }
    }
}
