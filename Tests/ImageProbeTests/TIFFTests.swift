@testable import ImageProbe
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

    /// The walk tests `maxEntries` and the structure's end once, at IFD0's count, for all the
    /// entries that pass both: the limit must still fall right after the `limit`th entry.
    @Test(arguments: 2...7)
    func theEntryLimitFallsOnItsEntry(limit: Int) {
        var options = ScanOptions(mode: .dimensionsOnly)
        options.maxEntries = limit
        let fillers = (0..<limit).map { TIFFEntry.filler(tag: 0x10 + $0) }
        let within = TIFFBuilder(entries: fillers.dropLast(2) + [.width(3), .height(2)])
        #expect(info(verified(within.build(), options))?.size == [3, 2])
        let past = TIFFBuilder(entries: fillers.dropLast(1) + [.width(3), .height(2)])
        let outcome = verified(past.build(), options)
        #expect(failureCode(outcome) == .limitExceeded)
        #expect(outcome.bytesConsumed == UInt64(past.endOfEntry(limit - 1)))
    }

    /// An Exif block that ends inside IFD0 (its count promises more entries than it holds):
    /// the entries that fit are read, the last one too when the block ends exactly at its end.
    @Test(arguments: [0, 1, 4])
    func anExifBlockEndingInsideIFD0(slack: Int) {
        let builder = TIFFBuilder(entries: [.filler(tag: 0x10F), .orientation(6)])
        var tiff = Array(builder.build()[..<(builder.endOfEntry(1) + slack)])
        tiff[builder.ifd0Offset] = 9  // nine entries promised, two there
        let (bytes, _) = JPEGBuilder.image(before: JPEGBuilder.exif(tiff), width: 40, height: 30)
        #expect(info(verified(bytes))?.orientation?.rawValue == 6)
        var short = tiff
        short.removeLast(slack + 1)  // the orientation entry no longer fits
        let (cut, _) = JPEGBuilder.image(before: JPEGBuilder.exif(short), width: 40, height: 30)
        #expect(info(verified(cut))?.orientation == nil)
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

    // MARK: Resolution and ICC profile (full mode)

    /// ImageMagick's and Pillow's layout: XResolution and YResolution's RATIONALs right after
    /// IFD0, ResolutionUnit inline. 300 dpi, and 118.11 dots per cm (300 dpi).
    @Test(arguments: [ByteOrder.littleEndian, .bigEndian], [false, true])
    func resolutionInInchesCentimetresAndNone(order: ByteOrder, bigTIFF: Bool) {
        for (unit, x, expected) in [
            (nil, (300, 1), 300), (2, (300, 1), 300), (3, (11811, 100), 300), (3, (1, 1), 3), (1, (300, 1), nil), (4, (300, 1), nil),
        ] as [(Int?, (UInt32, UInt32), Int?)] {
            let tiff = LaidOutTIFF.resolution(order: order, bigTIFF: bigTIFF, x: x, y: x, unit: unit)
            let bytes = tiff.build()
            let full = verified(bytes)
            #expect(info(full)?.dpi == expected.map { Resolution(x: $0, y: $0) }, "unit \(String(describing: unit)) \(order) big \(bigTIFF)")
            #expect(info(full)?.hasICCProfile == false)
            #expect(info(full)?.isPartial == false)
            // BigTIFF keeps a RATIONAL in its entry; classic TIFF reads both after IFD0 in one field,
            // unless the unit says there is nothing to read.
            let valuesRead = !bigTIFF && unit != 1 && unit != 4
            #expect(full.bytesConsumed == UInt64(valuesRead ? tiff.dataEnd : tiff.entriesEnd))
            // Dimensions-only mode reads not one byte more and sets nothing new.
            let dimensions = verified(bytes, dimensionsOnly)
            #expect(dimensions.bytesConsumed == UInt64(tiff.endOfEntry(1)))
            #expect(info(dimensions)?.dpi == nil)
            #expect(info(dimensions)?.hasICCProfile == nil)
        }
    }

    @Test func eachAxisKeepsItsOwnResolution() {
        // 72 and 150 dpi; 7199/100 rounds to 72; a wrong reader that took X for both would show.
        for (x, y, expected) in [((72, 1), (150, 1), Resolution(x: 72, y: 150)), ((7199, 100), (2, 3), Resolution(x: 72, y: 1))]
            as [((UInt32, UInt32), (UInt32, UInt32), Resolution)]
        {
            for order in [ByteOrder.littleEndian, .bigEndian] {
                let bytes = LaidOutTIFF.resolution(order: order, x: x, y: y, unit: 2).build()
                #expect(info(verified(bytes))?.dpi == expected)
            }
        }
    }

    @Test func aZeroTermOrAMissingAxisStatesNoResolution() {
        for (x, y) in [((300, 0), (300, 1)), ((300, 1), (0, 1)), ((0, 0), (0, 0))] as [((UInt32, UInt32), (UInt32, UInt32))] {
            let found = info(verified(LaidOutTIFF.resolution(x: x, y: y, unit: 2).build()))
            #expect(found?.dpi == nil)
            #expect(found?.isPartial == false)
        }
        // XResolution alone: nothing, and its value is not read.
        var onlyX = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        onlyX.entries.removeAll { $0.tag == 0x11B }
        let outcome = verified(onlyX.build())
        #expect(info(outcome)?.dpi == nil)
        #expect(outcome.bytesConsumed == UInt64(onlyX.entriesEnd))
    }

    @Test func shortAndLongResolutionsAreWholeNumbers() {
        // libtiff reads XResolution of an integer type as that number.
        var tiff = LaidOutTIFF.resolution(x: (1, 1), y: (1, 1), unit: 2)
        tiff.entries = tiff.entries.map { entry in
            switch entry.tag {
            case 0x11A: LaidOutTIFF.Entry(tag: 0x11A, type: TIFFEntry.short, value: .inline(96))
            case 0x11B: LaidOutTIFF.Entry(tag: 0x11B, type: TIFFEntry.long, value: .inline(120))
            default: entry
            }
        }
        let outcome = verified(tiff.build())
        #expect(info(outcome)?.dpi == Resolution(x: 96, y: 120))
        #expect(outcome.bytesConsumed == UInt64(tiff.entriesEnd))
    }

    @Test func valuesAreReadForwardInFileOrder() {
        // Y's value before X's, 100 bytes apart (two fields), or sharing one offset.
        for gap in [0, 100, 2000] {
            var tiff = LaidOutTIFF.resolution(x: (300, 1), y: (150, 1), unit: 2)
            tiff.dataOrder = [1, 0]
            tiff.gapBetweenData = gap
            let outcome = verified(tiff.build())
            #expect(info(outcome)?.dpi == Resolution(x: 300, y: 150), "gap \(gap)")
            #expect(outcome.bytesConsumed == UInt64(tiff.dataEnd))
        }
        var shared = LaidOutTIFF.resolution(x: (200, 1), y: (200, 1), unit: 2)
        shared.entries = shared.entries.map { $0.tag == 0x11B ? LaidOutTIFF.Entry(tag: 0x11B, type: 5, value: .sameAs(0x11A)) : $0 }
        let outcome = verified(shared.build())
        #expect(info(outcome)?.dpi == Resolution(x: 200, y: 200))
        #expect(outcome.bytesConsumed == UInt64(shared.dataEnd))
    }

    @Test func valuesTheWalkCannotReachGiveNoResolution() {
        // Behind the walk (in the gap before IFD0): a stream can't go back, and nothing is buffered.
        var behind = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        behind.gapBeforeIFD = 40
        behind.entries = behind.entries.map { entry in
            entry.tag == 0x11A ? LaidOutTIFF.Entry(tag: 0x11A, type: 5, value: .offset(16)) : entry
        }
        behind.entries.insert(LaidOutTIFF.Entry(tag: 0x102, type: TIFFEntry.short, count: 3, value: .offset(32)), at: 2)
        var outcome = verified(behind.build())
        #expect(info(outcome)?.dpi == nil)
        #expect(info(outcome)?.bitDepth == nil)
        #expect(info(outcome)?.isPartial == false)
        #expect(outcome.bytesConsumed == UInt64(behind.entriesEnd))

        // Past the end of the input when its length is known: not followed. Unknown, the input's
        // end comes first: a partial answer with the size.
        let whole = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        let cut = Array(whole.build()[0..<whole.dataEnd - 4])
        var known = ScanOptions()
        known.inputLength = UInt64(cut.count)
        outcome = verified(cut, known)
        #expect(info(outcome)?.dpi == nil)
        #expect(info(outcome)?.isPartial == false)
        let unknown = info(verified(cut))
        #expect(unknown?.size == [40, 30])
        #expect(unknown?.isPartial == true)
        #expect(unknown?.dpi == nil)
        #expect(unknown?.hasICCProfile == false)  // IFD0 was read whole
    }

    @Test(arguments: [ByteOrder.littleEndian, .bigEndian], [false, true])
    func iccProfilePresentOrAbsent(order: ByteOrder, bigTIFF: Bool) {
        for (profileLength, expected) in [(588, true), (0, false), (nil, false)] as [(Int?, Bool)] {
            var tiff = LaidOutTIFF.resolution(order: order, bigTIFF: bigTIFF, x: (72, 1), y: (72, 1), unit: 2)
            if let profileLength {
                tiff.entries.append(LaidOutTIFF.Entry(tag: 34675, type: 7, count: profileLength, value: .data([UInt8](repeating: 0x2A, count: profileLength))))
            }
            let bytes = tiff.build()
            let found = info(verified(bytes))
            #expect(found?.hasICCProfile == expected, "\(String(describing: profileLength))")
            #expect(found?.dpi == Resolution(x: 72, y: 72))
            #expect(info(verified(bytes, dimensionsOnly))?.hasICCProfile == nil)
        }
    }

    @Test func theProfileIsUnknownUntilIFD0EndsAndKnownOnceSeen() {
        var tiff = LaidOutTIFF.resolution(x: (72, 1), y: (72, 1), unit: 2)
        tiff.entries.append(LaidOutTIFF.Entry(tag: 0x131, type: 2, count: 2, value: .inline(0x41)))
        var bytes = tiff.build()
        // Cut inside IFD0 after the size: partial, the profile unknown, no resolution yet.
        let inside = info(verified(Array(bytes[0..<tiff.endOfEntry(2)])))
        #expect(inside?.isPartial == true)
        #expect(inside?.hasICCProfile == nil)
        #expect(inside?.dpi == nil)
        // A profile among the first entries is known even when the input ends early.
        // (Out of tag order: the walk does not assume IFD0 sorted.)
        tiff.entries.insert(LaidOutTIFF.Entry(tag: 34675, type: 7, count: 4, value: .inline(0)), at: 2)
        bytes = tiff.build()
        let iccIndex = tiff.entries.firstIndex { $0.tag == 34675 }!
        let early = info(verified(Array(bytes[0..<tiff.endOfEntry(iccIndex)])))
        #expect(early?.hasICCProfile == true)
        #expect(early?.isPartial == true)
    }

    @Test func theLimitAfterWhatTheWalkUsedToFindKeepsTheAnswer() {
        // Width, height and orientation first, then more entries than maxEntries: the answer is
        // the complete one the walk gave before it read resolutions, with the extras unknown.
        var options = ScanOptions()
        options.maxEntries = 8
        let builder = TIFFBuilder(entries: [.width(5), .height(6), .orientation(3)] + (0..<20).map { .filler(tag: 0x200 + $0) })
        let found = info(verified(builder.build(), options))
        #expect(found?.orientation == .rotate180)
        #expect(found?.isPartial == false)
        #expect(found?.hasICCProfile == nil)
        // Without an orientation, the limit ends the scan as before: a partial answer.
        let noOrientation = TIFFBuilder(entries: [.width(5), .height(6)] + (0..<20).map { .filler(tag: 0x200 + $0) })
        #expect(info(verified(noOrientation.build(), options))?.isPartial == true)
    }

    @Test func ifd0AtTheEndOfTheFileWithItsValuesAfterIt() {
        // libtiff's layout: pixel data first, IFD0 after it, then the values.
        var tiff = LaidOutTIFF.resolution(order: .bigEndian, x: (600, 1), y: (600, 1), unit: 2)
        tiff.gapBeforeIFD = 5000
        let outcome = verified(tiff.build())
        #expect(info(outcome)?.dpi == Resolution(x: 600, y: 600))
        #expect(outcome.bytesConsumed == UInt64(tiff.dataEnd))
    }

    // MARK: Values after the entries: BitsPerSample, far values, maxBytes

    /// An RGB file's BitsPerSample: three SHORTs don't fit a classic entry (four bytes), so they
    /// sit at an offset, here before the resolution values (libtiff's and Pillow's layout): the
    /// first value and both rationals are read in one field. BigTIFF's entry holds eight bytes:
    /// five SHORTs, three LONGs or two LONG8s don't fit, and its rationals do. The first sample's
    /// bits are the answer, as libtiff and exiftool give; the other values are not read.
    @Test(arguments: [ByteOrder.littleEndian, .bigEndian], [false, true])
    func bitsPerSampleStoredAfterTheEntries(order: ByteOrder, bigTIFF: Bool) {
        let layouts: [(count: Int, type: Int)] =
            bigTIFF ? [(5, TIFFEntry.short), (3, TIFFEntry.long), (2, TIFFEntry.long8)] : [(3, TIFFEntry.short), (2, TIFFEntry.long)]
        for (count, type) in layouts {
            var tiff = LaidOutTIFF.resolution(order: order, bigTIFF: bigTIFF, x: (300, 1), y: (300, 1), unit: 2)
            let values = [16] + Array(repeating: 8, count: count - 1)
            tiff.entries.insert(LaidOutTIFF.bitsPerSample(values, type: type, order: order), at: 2)
            let bytes = tiff.build()
            let full = verified(bytes)
            #expect(info(full)?.bitDepth == 16, "\(count) of type \(type)")
            #expect(info(full)?.dpi == Resolution(x: 300, y: 300))
            let firstValueEnd = tiff.data(of: 0x102).offset + [3: 2, 4: 4, 16: 8][type]!
            #expect(full.bytesConsumed == UInt64(bigTIFF ? firstValueEnd : tiff.dataEnd))
            // Dimensions-only mode reads not one byte more and sets nothing new.
            let dimensions = verified(bytes, dimensionsOnly)
            #expect(dimensions.bytesConsumed == UInt64(tiff.endOfEntry(1)))
            #expect(info(dimensions)?.bitDepth == nil)
        }
    }

    @Test func bitsPerSampleIsReadWithoutAResolution() {
        // No resolution entries, or a unit that states none: the depth's value alone is read.
        for unit in [nil, 1] as [Int?] {
            var tiff = LaidOutTIFF.resolution(order: .bigEndian, x: (72, 1), y: (72, 1), unit: unit)
            if unit == nil { tiff.entries.removeAll { $0.tag == 0x11A || $0.tag == 0x11B } }
            tiff.entries.insert(LaidOutTIFF.bitsPerSample([8, 8, 8, 8], order: .bigEndian), at: 2)
            let outcome = verified(tiff.build())
            #expect(info(outcome)?.bitDepth == 8)
            #expect(info(outcome)?.dpi == nil)
            #expect(outcome.bytesConsumed == UInt64(tiff.data(of: 0x102).offset + 2))  // the first SHORT
        }
    }

    /// EXIF blocks share the walker, but the container states the depth (JPEG's frame header,
    /// PNG's IHDR): BitsPerSample at an offset is not read there, and no answer point moves.
    @Test func anExifBitsPerSampleIsNotRead() {
        var tiff = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        tiff.entries.removeAll { $0.tag == 0x100 || $0.tag == 0x101 }
        tiff.entries.insert(LaidOutTIFF.bitsPerSample([16, 16, 16], order: .littleEndian), at: 0)
        tiff.dataOrder = [1, 2, 0]  // XResolution's, YResolution's, then BitsPerSample's values last
        let exif = tiff.build()
        let jpeg = JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.exif(exif), width: 8, height: 8, precision: 12)
        let outcome = verified(jpeg.bytes)
        #expect(info(outcome)?.bitDepth == 12)
        #expect(outcome.bytesConsumed == UInt64(jpeg.answerEnd))
        let png = PNGBuilder.image(width: 4, height: 4, bitDepth: 16, afterData: PNGBuilder.exif(exif))
        #expect(info(verified(png))?.bitDepth == 16)
        // The walk itself stops after YResolution's value.
        let run = runExif(exif, requiresIdentifier: false)
        #expect(run.reader.walker.bitsPerSample == 0)
        #expect(run.end == UInt64(tiff.data(of: 0x11B).end))
        #expect(run.reader.facts.dpiX == 300)
    }

    /// A ResolutionUnit of a type libtiff can't read as a SHORT is ignored ("Incompatible type
    /// ... tag ignored"), and the default unit, inch, applies: a fax encoder's RATIONAL 2/1 gives
    /// 150 dpi with XResolution 150/1, as libtiff, Pillow and exiftool agree. A RATIONAL 3/1 gives
    /// 150 dpi too (libtiff); Pillow and exiftool would read centimetres. Integer types are read.
    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func aMistypedResolutionUnit(order: ByteOrder) {
        func rational(_ numerator: Int, _ denominator: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.append32(numerator, order)
            bytes.append32(denominator, order)
            return bytes
        }
        typealias Entry = LaidOutTIFF.Entry
        for (unit, expected) in [
            (Entry(tag: 0x128, type: 5, value: .data(rational(2, 1))), 150),  // RATIONAL
            (Entry(tag: 0x128, type: 5, value: .data(rational(3, 1))), 150),
            (Entry(tag: 0x128, type: 10, value: .data(rational(3, 1))), 150),  // SRATIONAL
            (Entry(tag: 0x128, type: 11, value: .inline(0x4040_0000)), 150),  // FLOAT 3.0
            (Entry(tag: 0x128, type: 2, count: 2, value: .inline(0x33)), 150),  // ASCII "3"
            (Entry(tag: 0x128, type: 1, value: .inline(3)), 381),  // BYTE: centimetres
            (Entry(tag: 0x128, type: 8, value: .inline(3)), 381),  // SSHORT
            (Entry(tag: 0x128, type: 1, value: .inline(1)), nil),  // BYTE: no absolute unit
        ] as [(Entry, Int?)] {
            var tiff = LaidOutTIFF.resolution(order: order, x: (150, 1), y: (150, 1), unit: nil)
            tiff.entries.append(unit)
            let outcome = verified(tiff.build())
            #expect(info(outcome)?.dpi == expected.map { Resolution(x: $0, y: $0) }, "type \(unit.type) \(order)")
            // An ignored RATIONAL's value is not read: the walk ends with YResolution's (or,
            // with no unit, the entries).
            #expect(outcome.bytesConsumed == UInt64(expected == nil ? tiff.entriesEnd : tiff.data(of: 0x11B).end))
        }
        // The same in an EXIF block.
        var exif = LaidOutTIFF.resolution(order: order, x: (150, 1), y: (150, 1), unit: nil)
        exif.entries.append(Entry(tag: 0x128, type: 5, value: .data(rational(2, 1))))
        #expect(readExif(exif.build(), requiresIdentifier: false).extras.dpiX == 150)
    }

    /// Values 100 KiB after the entries (strip offsets and byte counts between, say) are read:
    /// a reader that doesn't seek counts through the gap, a seeking reader jumps it.
    @Test func valuesFarAfterTheEntriesAreReached() {
        var tiff = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        tiff.entries.insert(LaidOutTIFF.bitsPerSample([8, 8, 8], order: .littleEndian), at: 2)
        tiff.gapBeforeData = 100 * 1024
        let bytes = tiff.build()
        let outcome = verified(bytes)
        #expect(info(outcome)?.dpi == Resolution(x: 300, y: 300))
        #expect(info(outcome)?.bitDepth == 8)
        #expect(outcome.bytesConsumed == UInt64(tiff.dataEnd))

        // A seeking reader reads the header and IFD0, jumps, and reads the values in one field.
        var scanner = HeaderScanner()
        let valuesAt = tiff.data(of: 0x102).offset
        _ = bytes.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[0..<tiff.entriesEnd])) }
        #expect(scanner.skip(UInt64(bytes.count)) == UInt64(valuesAt - tiff.entriesEnd))
        let status = bytes.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[valuesAt...])) }
        #expect(status == outcome.status)
        #expect(scanner.bytesRead == UInt64(tiff.entriesEnd + tiff.dataEnd - valuesAt))
    }

    /// maxBytes ends the search for a value, never the answer: a value ending past it is not
    /// read, whatever the reader (one that doesn't seek would have to consume the bytes before
    /// it), and the answer is otherwise the same, and complete.
    @Test func valuesPastMaxBytesAreNotRead() {
        var tiff = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        tiff.entries.insert(LaidOutTIFF.bitsPerSample([8, 8, 8], order: .littleEndian), at: 2)
        tiff.gapBeforeData = 10_000
        let bytes = tiff.build()
        let bitsEnd = tiff.data(of: 0x102).offset + 2  // the first SHORT
        for (limit, bits, dpi, answerPoint) in [
            (5_000, nil, nil, tiff.entriesEnd), (bitsEnd - 1, nil, nil, tiff.entriesEnd),
            (tiff.dataEnd - 1, 8, nil, bitsEnd), (tiff.dataEnd, 8, 300, tiff.dataEnd),
        ] as [(Int, Int?, Int?, Int)] {
            var options = ScanOptions()
            options.maxBytes = limit
            let outcome = verified(bytes, options)
            let found = info(outcome)
            #expect(found?.size == [40, 30], "maxBytes \(limit)")
            #expect(found?.isPartial == false)
            #expect(found?.bitDepth == bits)
            #expect(found?.dpi == dpi.map { Resolution(x: $0, y: $0) })
            #expect(outcome.bytesConsumed == UInt64(answerPoint))
        }
    }

    /// IFD0 past maxBytes: only a seeking reader gets there (its jumps don't count against
    /// maxBytes, SPEC §1), and it reads the values after the entries as well.
    @Test func aSeekingReaderPastMaxBytesReadsTheValues() {
        var tiff = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        tiff.entries.insert(LaidOutTIFF.bitsPerSample([8, 8, 8], order: .littleEndian), at: 2)
        tiff.gapBeforeIFD = 30_000
        tiff.gapBeforeData = 10_000
        let bytes = tiff.build()
        var options = ScanOptions()
        options.maxBytes = 5_000
        #expect(failureCode(verified(bytes, options)) == .limitExceeded)
        var scanner = HeaderScanner(options: options)
        var index = 0
        var status = scanner.status
        while !status.isTerminal && index < bytes.count {
            index += Int(scanner.skip(UInt64(bytes.count - index)))
            let end = min(bytes.count, index + 7)
            status = bytes.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[index..<end])) }
            index = end
        }
        guard case .done(let found) = status else {
            Issue.record("expected done, got \(status)")
            return
        }
        #expect(found.bitDepth == 8)
        #expect(found.dpi == Resolution(x: 300, y: 300))
        #expect(scanner.bytesConsumed == UInt64(tiff.dataEnd))
    }

    /// A BitsPerSample offset past the file's end: with the input's length known it is not
    /// followed; unknown, the input ends first, and the answer is partial, with the size and the
    /// resolution read before it. One past maxBytes, or near 2^32 or 2^64, is never followed.
    @Test func aBitsPerSampleOffsetOutsideTheFile() {
        var tiff = LaidOutTIFF.resolution(x: (300, 1), y: (300, 1), unit: 2)
        tiff.entries.insert(LaidOutTIFF.Entry(tag: 0x102, type: TIFFEntry.short, count: 3, value: .offset(5000)), at: 2)
        var bytes = tiff.build()
        var known = ScanOptions()
        known.inputLength = UInt64(bytes.count)
        let outcome = verified(bytes, known)
        #expect(info(outcome)?.bitDepth == nil)
        #expect(info(outcome)?.dpi == Resolution(x: 300, y: 300))
        #expect(info(outcome)?.isPartial == false)
        #expect(outcome.bytesConsumed == UInt64(tiff.dataEnd))
        let unknown = info(verified(bytes))
        #expect(unknown?.isPartial == true)
        #expect(unknown?.size == [40, 30])
        #expect(unknown?.bitDepth == nil)
        #expect(unknown?.dpi == Resolution(x: 300, y: 300))

        for offset in [0xFFFF_FFF0, 20 << 20] {
            tiff.entries[2].value = .offset(offset)
            let far = verified(tiff.build())
            #expect(info(far)?.bitDepth == nil)
            #expect(info(far)?.isPartial == false)
            #expect(far.bytesConsumed == UInt64(tiff.dataEnd))
        }
        // BigTIFF: an offset 16 bytes short of 2^64.
        var big = LaidOutTIFF.resolution(bigTIFF: true, x: (300, 1), y: (300, 1), unit: 2)
        big.entries.insert(LaidOutTIFF.Entry(tag: 0x102, type: TIFFEntry.short, count: 5, value: .offset(0)), at: 2)
        bytes = big.build()
        let offsetField = big.endOfEntry(2) - 8
        bytes.replaceSubrange(offsetField..<(offsetField + 8), with: [UInt8](repeating: 0xFF, count: 7) + [0xF0])
        let huge = verified(bytes)
        #expect(info(huge)?.bitDepth == nil)
        #expect(info(huge)?.dpi == Resolution(x: 300, y: 300))
        #expect(huge.bytesConsumed == UInt64(big.entriesEnd))
    }

    // MARK: EXIF resolution

    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func exifResolutionInAJPEG(order: ByteOrder) {
        var tiff = LaidOutTIFF.resolution(order: order, x: (300, 1), y: (300, 1), unit: 2)
        tiff.entries = tiff.entries.filter { $0.tag != 0x100 && $0.tag != 0x101 }
        tiff.entries.insert(LaidOutTIFF.Entry(tag: 0x112, type: TIFFEntry.short, value: .inline(6)), at: 0)
        let exif = tiff.build()
        let jpeg = JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.exif(exif), width: 8, height: 8)
        let outcome = verified(jpeg.bytes)
        // The caller decides how EXIF's resolution meets JFIF's: the orientation and the answer
        // point stay as they were.
        #expect(info(outcome)?.orientation == .rotate90Clockwise)
        #expect(outcome.bytesConsumed == UInt64(jpeg.answerEnd))

        let (orientation, extras) = readExif(ascii("Exif") + [0, 0] + exif, requiresIdentifier: true)
        #expect(orientation == .rotate90Clockwise)
        #expect(extras.dpiX == 300 && extras.dpiY == 300)
        #expect(extras.hasICCProfile == nil)  // the container's business
        // In centimetres, and without the identifier (PNG eXIf, WebP EXIF).
        let cmTIFF = LaidOutTIFF.resolution(order: order, x: (11811, 100), y: (11811, 100), unit: 3)
        let cm = cmTIFF.build()
        #expect(readExif(cm, requiresIdentifier: false).extras.dpiX == 300)
        // A value past the block's end is not read: the block bounds the walk.
        let cut = Array(cm[0..<cmTIFF.dataEnd - 4])
        #expect(readExif(cut, requiresIdentifier: false).extras.dpiX == 0)
    }

    /// Runs `ExifReader` over `block` (one field at a time, as the scanner hands them) and
    /// returns what it finished with.
    func readExif(_ block: [UInt8], requiresIdentifier: Bool) -> (orientation: Orientation?, extras: ExtraFacts) {
        let run = runExif(block, requiresIdentifier: requiresIdentifier)
        return (run.reader.orientation, run.reader.facts)
    }

    /// `readExif`'s run: the finished reader, and the end of the last field it read.
    func runExif(_ block: [UInt8], requiresIdentifier: Bool) -> (reader: ExifReader, end: UInt64) {
        var reader = ExifReader(start: 0, end: UInt64(block.count), requiresIdentifier: requiresIdentifier)
        guard var step = reader.firstStep else { return (reader, 0) }
        var position: UInt64 = 0
        for _ in 0..<10_000 {
            let skip: UInt64
            let width: Int
            switch step {
            case .read(let count): (skip, width) = (0, count)
            case .skipThenRead(let count, let next): (skip, width) = (count, next)
            default: return (reader, position)
            }
            position += skip
            guard position + UInt64(width) <= UInt64(block.count) else {
                Issue.record("ExifReader read past its block")
                return (reader, position)
            }
            let at = position
            let outcome = block.withUnsafeBytes { raw in
                reader.parse(FieldBytes(base: raw.baseAddress! + Int(at), count: width), at: at, options: ScanOptions())
            }
            position += UInt64(width)
            switch outcome {
            case .step(let next): step = next
            case .finished: return (reader, position)
            }
        }
        Issue.record("ExifReader did not finish")
        return (reader, position)
    }
}

/// A TIFF structure whose entries may keep their values after IFD0, where libtiff, Pillow
/// and cameras put them; entries are written in the order given.
struct LaidOutTIFF {
    enum Value {
        /// Left-justified in the entry's value field.
        case inline(UInt64)
        /// Bytes laid out after IFD0 (in `dataOrder`), the entry pointing at them.
        case data([UInt8])
        /// An explicit offset from the TIFF header.
        case offset(Int)
        /// The same offset as the entry with that tag.
        case sameAs(Int)
    }

    struct Entry {
        var tag: Int
        var type: Int
        var count = 1
        var value: Value
    }

    var order: ByteOrder = .littleEndian
    var bigTIFF = false
    var entries: [Entry]
    var gapBeforeIFD = 0
    /// Filler between IFD0 (its next-IFD offset) and the first data block.
    var gapBeforeData = 0
    /// Filler before each data block after the first.
    var gapBetweenData = 0
    /// The order in which data blocks are laid out, by their index among the data entries.
    var dataOrder: [Int]? = nil

    var ifd0Offset: Int { (bigTIFF ? 16 : 8) + gapBeforeIFD }
    var entryWidth: Int { bigTIFF ? 20 : 12 }
    var entriesEnd: Int { ifd0Offset + (bigTIFF ? 8 : 2) + entries.count * entryWidth }
    func endOfEntry(_ index: Int) -> Int { ifd0Offset + (bigTIFF ? 8 : 2) + (index + 1) * entryWidth }
    /// The end of the last data block.
    var dataEnd: Int { layout().end }

    /// Width, height, XResolution, YResolution and ResolutionUnit (nil: absent), sorted by tag.
    /// BigTIFF keeps a single RATIONAL inline, as its writers do.
    static func resolution(
        order: ByteOrder = .littleEndian, bigTIFF: Bool = false, x: (UInt32, UInt32), y: (UInt32, UInt32), unit: Int?
    ) -> LaidOutTIFF {
        func rational(_ value: (UInt32, UInt32)) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.append32(Int(value.0), order)
            bytes.append32(Int(value.1), order)
            return bytes
        }
        var entries = [
            Entry(tag: 0x100, type: TIFFEntry.short, value: .inline(40)), Entry(tag: 0x101, type: TIFFEntry.short, value: .inline(30)),
            Entry(tag: 0x11A, type: 5, value: .data(rational(x))), Entry(tag: 0x11B, type: 5, value: .data(rational(y))),
        ]
        if let unit { entries.append(Entry(tag: 0x128, type: TIFFEntry.short, value: .inline(UInt64(unit)))) }
        return LaidOutTIFF(order: order, bigTIFF: bigTIFF, entries: entries)
    }

    /// BitsPerSample with one value per sample, as SHORT, LONG or LONG8.
    static func bitsPerSample(_ values: [Int], type: Int = TIFFEntry.short, order: ByteOrder) -> Entry {
        let width = type == TIFFEntry.short ? 2 : type == TIFFEntry.long ? 4 : 8
        var bytes: [UInt8] = []
        for value in values { bytes.append(UInt64(value), width: width, order) }
        return Entry(tag: 0x102, type: type, count: values.count, value: .data(bytes))
    }

    /// The offset of the data of the entry with `tag`, and the end of that data.
    func data(of tag: Int) -> (offset: Int, end: Int) {
        let index = entries.firstIndex { $0.tag == tag }!
        guard case .data(let bytes) = entries[index].value, let offset = layout().offsets[index] else { return (0, 0) }
        return (offset, offset + bytes.count)
    }

    /// Where each data entry's bytes go, and the end of the last.
    func layout() -> (offsets: [Int: Int], end: Int) {
        let dataEntries = entries.indices.filter { index in
            if case .data(let bytes) = entries[index].value { return bytes.count > (bigTIFF ? 8 : 4) }
            return false
        }
        var offsets: [Int: Int] = [:]
        var position = entriesEnd + (bigTIFF ? 8 : 4) + gapBeforeData
        var end = entriesEnd
        for (rank, which) in (dataOrder ?? Array(dataEntries.indices)).enumerated() where which < dataEntries.count {
            let index = dataEntries[which]
            if rank > 0 { position += gapBetweenData }
            guard case .data(let bytes) = entries[index].value else { continue }
            offsets[index] = position
            position += bytes.count
            end = position
        }
        return (offsets, end)
    }

    func build() -> [UInt8] {
        let (offsets, end) = layout()
        var bytes: [UInt8] = order == .littleEndian ? ascii("II") : ascii("MM")
        if bigTIFF {
            bytes.append16(43, order)
            bytes.append16(8, order)
            bytes.append16(0, order)
            bytes.append64(UInt64(ifd0Offset), order)
        } else {
            bytes.append16(42, order)
            bytes.append32(ifd0Offset, order)
        }
        bytes.appendFiller(gapBeforeIFD)
        if bigTIFF { bytes.append64(UInt64(entries.count), order) } else { bytes.append16(entries.count, order) }
        let fieldWidth = bigTIFF ? 8 : 4
        for (index, entry) in entries.enumerated() {
            bytes.append16(entry.tag, order)
            bytes.append16(entry.type, order)
            if bigTIFF { bytes.append64(UInt64(entry.count), order) } else { bytes.append32(entry.count, order) }
            var field: [UInt8] = []
            switch entry.value {
            case .inline(let value):
                let width = entry.type == TIFFEntry.short || entry.type == 8 ? 2 : entry.type == 1 || entry.type == 7 ? 1 : 4
                field.append(value, width: min(width, fieldWidth), order)
            case .data(let data) where offsets[index] == nil:
                field = data  // fits the entry
            case .data:
                field.append(UInt64(offsets[index]!), width: fieldWidth, order)
            case .offset(let offset):
                field.append(UInt64(offset), width: fieldWidth, order)
            case .sameAs(let tag):
                let other = entries.firstIndex { $0.tag == tag }!
                field.append(UInt64(offsets[other] ?? 0), width: fieldWidth, order)
            }
            while field.count < fieldWidth { field.append(0) }
            bytes += field
        }
        bytes.append(0, width: fieldWidth, order)  // no IFD1
        // The data blocks, in layout order, with filler between.
        let placed = offsets.sorted { $0.value < $1.value }
        for (index, offset) in placed {
            if bytes.count < offset { bytes.appendFiller(offset - bytes.count) }
            guard case .data(let data) = entries[index].value else { continue }
            bytes += data
        }
        assert(bytes.count == max(end, entriesEnd + fieldWidth))
        bytes.appendFiller(16)  // pixel data
        return bytes
    }
}
