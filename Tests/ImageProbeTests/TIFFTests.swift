import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct TIFFTests {
    @Test(arguments: [ByteOrder.littleEndian, .bigEndian], [TIFFEntry.short, TIFFEntry.long])
    func classicTIFF(order: ByteOrder, type: Int) {
        let builder = TIFFBuilder(byteOrder: order, entries: [
            .width(3000, type: type), .height(2000, type: type), .bitsPerSample(16), .filler(), .orientation(5),
        ])
        let bytes = builder.build()
        let dimensions = verified(bytes, dimensionsOnly)
        #expect(info(dimensions)?.size == [3000, 2000])
        #expect(dimensions.bytesConsumed == UInt64(builder.endOfEntry(1)))
        let full = verified(bytes)
        #expect(info(full)?.orientation == .transpose)
        #expect(info(full)?.bitDepth == 16)
        #expect(full.bytesConsumed == UInt64(builder.endOfEntry(4)))
    }

    @Test func fullModeReadsAllOfIFD0WhenThereIsNoOrientation() {
        let builder = TIFFBuilder(entries: [.width(10), .height(20), .filler()])
        let outcome = verified(builder.build())
        #expect(info(outcome)?.orientation == nil)
        #expect(outcome.bytesConsumed == UInt64(builder.ifd0End))
    }

    @Test func ifd0AfterALargeGapIsSkippedAndCanBeJumped() {
        let builder = TIFFBuilder(entries: [.width(7), .height(8)], gapBeforeIFD: 300_000)
        let bytes = builder.build()
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [7, 8])
        #expect(outcome.bytesConsumed == UInt64(builder.endOfEntry(1)))

        // A seeking reader jumps the gap: it reads the header and the entries only.
        var scanner = HeaderScanner(options: dimensionsOnly)
        _ = bytes.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[0..<8])) }
        #expect(scanner.pendingSkip == 300_000)
        #expect(scanner.skip(1_000_000) == 300_000)
        let status = bytes.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[300_008...])) }
        #expect(status == outcome.status)
        #expect(scanner.bytesRead == UInt64(8 + 2 + 24))
        #expect(scanner.bytesSkipped == 300_000)
    }

    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func bigTIFF(order: ByteOrder) {
        let builder = TIFFBuilder(byteOrder: order, bigTIFF: true, entries: [
            .width(70_000, type: TIFFEntry.long8), .height(5, type: TIFFEntry.short), .orientation(2),
        ], gapBeforeIFD: 10)
        let outcome = verified(builder.build())
        #expect(info(outcome)?.size == [70_000, 5])
        #expect(info(outcome)?.orientation == .mirrorHorizontal)
        #expect(outcome.bytesConsumed == UInt64(builder.endOfEntry(2)))
    }

    @Test func aRepeatedTagKeepsItsFirstValueInBothModes() {
        // Found by the fuzzer: a second ImageLength made full mode disagree with a shorter read.
        let bytes = TIFFBuilder(entries: [
            .width(3000), .height(17872), .height(17808), .orientation(3), .orientation(6),
        ]).build()
        for options in [ScanOptions(), dimensionsOnly] {
            #expect(info(verified(bytes, options))?.size == [3000, 17872])
        }
        #expect(info(verified(bytes))?.orientation == .rotate180)
    }

    @Test func errors() {
        let noSize = TIFFBuilder(entries: [.filler(), .orientation(1)]).build()
        #expect(failureCode(verified(noSize)) == .malformed)
        var backwards = TIFFBuilder(entries: [.width(1), .height(1)]).build()
        backwards[4] = 4  // IFD0 at offset 4, inside the header
        #expect(failureCode(verified(backwards)) == .malformed)
        var notTIFF = TIFFBuilder(entries: [.width(1), .height(1)]).build()
        notTIFF[2] = 41
        #expect(failureCode(verified(notTIFF)) == .unknownFormat)
        let zero = TIFFBuilder(entries: [.width(0), .height(1)]).build()
        #expect(failureCode(verified(zero)) == .malformed)
    }

    @Test func tooManyEntriesHitsTheLimit() {
        var options = ScanOptions()
        options.maxEntries = 10
        let builder = TIFFBuilder(entries: (0..<20).map { .filler(tag: 0x200 + $0) } + [.width(1), .height(1)])
        #expect(failureCode(verified(builder.build(), options)) == .limitExceeded)
        #expect(info(verified(builder.build()))?.size == [1, 1])
    }

    /// TIFF 6.0 §2 asks readers to take BYTE, SHORT or LONG for unsigned fields; libtiff and
    /// exiftool also take the signed types. UNDEFINED and out-of-range values are no orientation.
    @Test(arguments: [(1, 6, 6), (3, 6, 6), (4, 6, 6), (6, 6, 6), (8, 6, 6), (9, 6, 6), (8, -3, nil), (9, -3, nil),
                      (6, 9, nil), (7, 6, nil), (11, 6, nil)] as [(Int, Int, UInt8?)])
    func orientationOfAnyIntegerType(type: Int, value: Int, expected: UInt8?) {
        for order in [ByteOrder.littleEndian, .bigEndian] {
            let entries: [TIFFEntry] = [.width(4), .height(3), .orientation(value, type: type)]
            let tiff = verified(TIFFBuilder(byteOrder: order, entries: entries).build())
            #expect(info(tiff)?.orientation?.rawValue == expected, "type \(type), \(order)")
            let big = verified(TIFFBuilder(byteOrder: order, bigTIFF: true, entries: entries).build())
            #expect(info(big)?.orientation?.rawValue == expected, "BigTIFF type \(type), \(order)")
            let exif = TIFFBuilder(byteOrder: order, entries: [.orientation(value, type: type)]).build()
            let jpeg = verified(JPEGBuilder.image(before: JPEGBuilder.exif(exif), width: 8, height: 8).bytes)
            #expect(info(jpeg)?.orientation?.rawValue == expected, "EXIF type \(type), \(order)")
        }
        // SLONG8 exists in BigTIFF only.
        let slong8 = verified(TIFFBuilder(bigTIFF: true, entries: [.width(4), .height(3), .orientation(7, type: 17)]).build())
        #expect(info(slong8)?.orientation == .transverse)
    }

    @Test func truncatedInsideIFD0() {
        let builder = TIFFBuilder(entries: [.width(10), .height(20), .filler(), .orientation(6)])
        let bytes = Array(builder.build()[0..<builder.endOfEntry(2)])
        let found = info(verified(bytes))
        #expect(found?.size == [10, 20])
        #expect(found?.isPartial == true)
        #expect(failureCode(verified(Array(bytes[0..<builder.endOfEntry(0)]))) == .truncated)
    }
}
