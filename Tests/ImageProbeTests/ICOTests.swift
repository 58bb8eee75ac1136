import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct ICOTests {
    typealias Entry = ICOBuilder.Entry

    @Test func singleEntryAnswersAfterEightBytes() {
        // Header (6), then the only entry's width and height.
        let bytes = ICOBuilder.file(entries: [Entry(width: 32, height: 16)])
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.format == .ico)
        #expect(info(outcome)?.size == [32, 16])
        #expect(outcome.bytesConsumed == 8)
        let full = verified(bytes)
        #expect(info(full)?.frameCount == 1)
        #expect(info(full)?.bitDepth == 32)
        #expect(info(full)?.orientation == nil)
        #expect(full.bytesConsumed == 22)  // the whole directory
    }

    @Test func largestAreaWinsWhereverItIs() {
        let sides = [16, 48, 32, 24]
        for position in sides.indices {
            var order = sides.filter { $0 != 48 }
            order.insert(48, at: position)
            let entries = order.enumerated().map { Entry(width: $1, height: $1, bitCount: 4 + $0) }
            let bytes = ICOBuilder.file(entries: entries)
            let outcome = verified(bytes, dimensionsOnly)
            #expect(info(outcome)?.size == [48, 48])
            #expect(outcome.bytesConsumed == UInt64(ICOBuilder.dimensionsAnswerEnd(entriesExamined: entries.count)))
            let full = info(verified(bytes))
            #expect(full?.size == [48, 48])
            #expect(full?.bitDepth == 4 + position)
            #expect(full?.frameCount == entries.count)
        }
    }

    @Test func bitDepthFromTheColourCountWhenTheBitCountIsZero() {
        for (colours, bits) in [(2, 1), (16, 4), (0, nil), (3, nil)] as [(Int, Int?)] {
            let bytes = ICOBuilder.file(entries: [Entry(width: 32, height: 32, colours: colours, planes: 0, bitCount: 0)])
            #expect(info(verified(bytes))?.bitDepth == bits)
        }
    }

    @Test func areaNotWidthDecides() {
        let bytes = ICOBuilder.file(entries: [Entry(width: 200, height: 10), Entry(width: 50, height: 50)])
        #expect(info(verified(bytes))?.size == [50, 50])
    }

    @Test func tiesGoToTheFirstEntry() {
        // Same area, different shapes; then same size, different depths.
        let shapes = ICOBuilder.file(entries: [Entry(width: 16, height: 64, bitCount: 8), Entry(width: 32, height: 32, bitCount: 32)])
        let found = info(verified(shapes))
        #expect(found?.size == [16, 64])
        #expect(found?.bitDepth == 8)
        let depths = ICOBuilder.file(entries: [Entry(width: 32, height: 32, bitCount: 4), Entry(width: 32, height: 32, bitCount: 32)])
        #expect(info(verified(depths))?.bitDepth == 4)
    }

    @Test func zeroMeans256() {
        for (width, height) in [(256, 256), (256, 255), (1, 256)] {
            let bytes = ICOBuilder.file(entries: [Entry(width: 8, height: 8), Entry(width: width, height: height)])
            #expect(bytes[22] == UInt8(width & 0xFF))
            #expect(info(verified(bytes, dimensionsOnly))?.size == [width, height])
        }
    }

    @Test func a256SquareEntryEndsTheSearchInDimensionsOnlyMode() {
        let entries = [Entry(width: 48, height: 48), Entry(width: 256, height: 256)] + (0..<7).map { Entry(width: 16 + $0, height: 16) }
        let bytes = ICOBuilder.file(entries: entries)
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [256, 256])
        #expect(outcome.bytesConsumed == UInt64(ICOBuilder.dimensionsAnswerEnd(entriesExamined: 2)))
        let full = verified(bytes)
        #expect(info(full)?.size == [256, 256])
        #expect(info(full)?.frameCount == 9)
        #expect(full.bytesConsumed == UInt64(6 + 16 * entries.count))
    }

    @Test func manyEntries() {
        let entries = (0..<300).map { Entry(width: 1 + $0 % 200, height: 1 + ($0 * 7) % 250) }
        var best = entries[0]
        for entry in entries where entry.width * entry.height > best.width * best.height { best = entry }  // first of equals
        let bytes = ICOBuilder.file(entries: entries)
        let outcome = ChunkingVerifier.scanWhole(bytes, options: dimensionsOnly)
        #expect(info(outcome)?.size == [best.width, best.height])
        #expect(outcome.bytesConsumed == UInt64(ICOBuilder.dimensionsAnswerEnd(entriesExamined: 300)))
        #expect(info(ChunkingVerifier.scanWhole(bytes))?.frameCount == 300)
    }

    @Test func cursor() {
        // Planes and bit count hold the hotspot: no bit depth.
        let bytes = ICOBuilder.file(cursor: true, entries: [Entry(width: 32, height: 32, planes: 3, bitCount: 9)])
        let outcome = verified(bytes)
        #expect(info(outcome)?.format == .cur)
        #expect(info(outcome)?.size == [32, 32])
        #expect(info(outcome)?.bitDepth == nil)
        #expect(verified(bytes, dimensionsOnly).bytesConsumed == 8)
    }

    @Test func cursorPrefixWithoutImagesIsATGA() {
        // `00 00 02 00` then a count of 0: only an uncompressed true-colour TGA fits.
        let tga = TGABuilder.file(TGABuilder.Header(width: 7, height: 5))
        #expect(Array(tga[0..<6]) == [0, 0, 2, 0, 0, 0])
        let found = info(verified(tga))
        #expect(found?.format == .tga)
        #expect(found?.size == [7, 5])
        // The same four bytes with a count of 1 are a cursor.
        let cursor = ICOBuilder.file(cursor: true, entries: [Entry(width: 7, height: 5)])
        #expect(Array(cursor[0..<4]) == Array(tga[0..<4]))
        #expect(info(verified(cursor))?.format == .cur)
    }

    @Test func entryCountLimit() {
        let bytes = ICOBuilder.file(entries: (1...5).map { Entry(width: $0, height: $0) })
        for (limit, allowed) in [(4, false), (5, true)] {
            var options = ScanOptions()
            options.maxEntries = limit
            let outcome = verified(bytes, options)
            if allowed {
                #expect(info(outcome)?.size == [5, 5])
            } else {
                #expect(failureCode(outcome) == .limitExceeded)
                #expect(outcome.bytesConsumed == 8)
            }
        }
    }

    @Test func dimensionLimit() {
        var options = ScanOptions()
        options.maxWidth = 100
        // A wide entry that is not the answer doesn't hit the limit; the answer does.
        let narrowAnswer = ICOBuilder.file(entries: [Entry(width: 200, height: 1), Entry(width: 64, height: 64)])
        #expect(info(verified(narrowAnswer, options))?.size == [64, 64])
        let wideAnswer = ICOBuilder.file(entries: [Entry(width: 200, height: 100), Entry(width: 64, height: 64)])
        #expect(failureCode(verified(wideAnswer, options)) == .limitExceeded)
    }

    @Test func reservedByteZeroOr255() {
        for (reserved, valid) in [(0, true), (255, true), (1, false), (0x80, false)] {
            let bytes = ICOBuilder.file(entries: [Entry(width: 16, height: 16, reserved: reserved), Entry(width: 32, height: 32)])
            let outcome = verified(bytes)
            #expect(valid ? info(outcome)?.size == [32, 32] : failureCode(outcome) == .malformed)
        }
    }

    @Test func brokenEntriesBeforeAndAfterTheSizeIsKnown() {
        let overlapping = ICOBuilder.file(entries: [Entry(width: 16, height: 16, dataOffset: 20), Entry(width: 32, height: 32)])
        #expect(failureCode(verified(overlapping)) == .malformed)
        let empty = ICOBuilder.file(entries: [Entry(width: 16, height: 16, dataSize: 0), Entry(width: 32, height: 32)])
        #expect(failureCode(verified(empty)) == .malformed)
        // The 256 x 256 entry settles the size; a broken entry after it costs only full mode's
        // facts (a partial answer), and dimensions-only mode never reads it.
        let late = ICOBuilder.file(entries: [Entry(width: 256, height: 256), Entry(width: 16, height: 16, reserved: 7)])
        let found = info(verified(late))
        #expect(found?.size == [256, 256])
        #expect(found?.isPartial == true)
        #expect(info(verified(late, dimensionsOnly))?.isPartial == false)
    }

    @Test func truncatedDirectory() {
        let bytes = ICOBuilder.file(entries: [Entry(width: 16, height: 16), Entry(width: 32, height: 32)])
        for length in 0..<24 {
            #expect(failureCode(ChunkingVerifier.scanWhole(Array(bytes[0..<length]))) == .truncated)
        }
        // Full mode, cut inside the last entry after its size: a partial answer.
        let cut = info(verified(Array(bytes[0..<30])))
        #expect(cut?.size == [32, 32])
        #expect(cut?.isPartial == true)
        // A count larger than the directory.
        let short = ICOBuilder.file(count: 40, entries: [Entry(width: 16, height: 16, dataOffset: 6 + 16 * 40)])
        #expect(failureCode(verified(short)) == .truncated)
    }

    @Test func headerFollowedByRandomBytes() {
        var random = SeededRandom(seed: 0x1C0)
        for cursor in [false, true] {
            for count in [1, 2, 9, 400] {
                for length in [0, 5, 16, 40, 200] {
                    var bytes: [UInt8] = [0, 0, cursor ? 2 : 1, 0]
                    bytes.append16(count, .littleEndian)
                    let outcome = verified(bytes + random.bytes(length))
                    if case .done(let found) = outcome.status {
                        #expect(found.format == (cursor ? .cur : .ico))
                        #expect((1...256).contains(found.width) && (1...256).contains(found.height))
                    }
                    #expect(outcome.bytesConsumed <= UInt64(6 + 16 * count))
                }
            }
        }
    }
}
