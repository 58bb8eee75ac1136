import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct FITSTests {
    @Test(arguments: [8, 16, 32, 64, -32, -64])
    func mandatoryKeywordsGiveSizeAndDepth(bitpix: Int) {
        let image = FITSBuilder.image(bitpix: bitpix, axes: [257, 129])
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(image.bytes, options)
            let found = info(outcome)
            #expect(found?.format == .fits)
            #expect(found?.mimeType.description == "image/fits")
            #expect(found?.size == [257, 129])
            #expect(found?.bitDepth == abs(bitpix))
            #expect(outcome.bytesConsumed == UInt64(image.sizeEnd))
        }
    }

    @Test func axesBeyondTwoAndOneAxis() {
        // A cube reports its first two axes; a single axis is one row.
        let cube = FITSBuilder.image(bitpix: 8, axes: [6, 4, 3, 2])
        #expect(info(verified(cube.bytes))?.size == [6, 4])
        let row = FITSBuilder.image(bitpix: 8, axes: [17])
        let outcome = verified(row.bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [17, 1])
        #expect(outcome.bytesConsumed == UInt64(row.sizeEnd))
    }

    @Test func freeFormatValuesAndComments() {
        let free = FITSBuilder.image(bitpix: 16, axes: [100_000, 1], free: true)
        let outcome = verified(free.bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [100_000, 1])
        #expect(outcome.bytesConsumed == UInt64(free.sizeEnd))
        // A value whose last digit is in column 80 ends with its card.
        var cards = FITSBuilder.primaryCards(bitpix: 8, axes: [5])
        cards.append(ascii("NAXIS2  = " + String(repeating: " ", count: 69) + "7"))
        cards[3] = FITSBuilder.card("NAXIS1", "5", comment: "width")
        cards[2] = FITSBuilder.card("NAXIS", "2")
        let lastColumn = FITSBuilder.header(cards)
        let end = verified(lastColumn, dimensionsOnly)
        #expect(info(end)?.size == [5, 7])
        #expect(end.bytesConsumed == 400)
    }

    @Test func dataInTheFirstImageExtension() {
        let image = FITSBuilder.withExtension(axes: [11, 5])
        let outcome = verified(image.bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [11, 5])
        #expect(info(outcome)?.bitDepth == 16)
        #expect(outcome.bytesConsumed == UInt64(image.sizeEnd))
        let table = FITSBuilder.withExtension("BINTABLE", axes: [8, 2])
        #expect(failureCode(verified(table.bytes)) == .unsupportedFeature)
        let empty = FITSBuilder.withExtension(axes: [])
        #expect(failureCode(verified(empty.bytes)) == .unsupportedFeature)
        var many = ScanOptions()
        many.maxEntries = 3
        #expect(failureCode(verified(image.bytes, many)) == .limitExceeded)
        // A primary without data and nothing after it.
        let alone = FITSBuilder.header(FITSBuilder.primaryCards(bitpix: 8, axes: [])) + ascii(String(repeating: " ", count: 80))
        #expect(failureCode(verified(alone)) == .malformed)
    }

    @Test func errors() {
        func file(_ cards: [[UInt8]]) -> [UInt8] { FITSBuilder.header(cards) }
        let good = FITSBuilder.primaryCards(bitpix: 8, axes: [4, 4])
        var outOfOrder = good
        outOfOrder.swapAt(1, 2)
        var badDepth = good
        badDepth[1] = FITSBuilder.card("BITPIX", "12")
        var zero = good
        zero[4] = FITSBuilder.card("NAXIS2", "0")
        var notInteger = good
        notInteger[3] = FITSBuilder.card("NAXIS1", "4.0")
        var tooMany = good
        tooMany[2] = FITSBuilder.card("NAXIS", "1000")
        var blank = good
        blank[3] = FITSBuilder.card("NAXIS1", "")
        for cards in [outOfOrder, badDepth, zero, notInteger, tooMany, blank] {
            #expect(failureCode(verified(file(cards))) == .malformed)
        }
        var notSimple = good
        notSimple[0] = FITSBuilder.card("SIMPLE", "F")
        #expect(failureCode(verified(file(notSimple))) == .unsupportedFeature)
        for text in ["SIMPLE  = X", "SIMPLY  =", "SIMPLE = T"] {
            #expect(failureCode(verified(ascii(text.padding80()))) == .unknownFormat, "\(text)")
        }
        var small = ScanOptions()
        small.maxWidth = 3
        #expect(failureCode(verified(file(good), small)) == .limitExceeded)
        var random = SeededRandom(seed: 0xF175)
        for _ in 0..<20 { _ = verified(Array(file(good).prefix(160)) + random.bytes(300)) }
    }
}

extension String {
    /// Padded with blanks to one 80-byte card.
    func padding80() -> String { self + String(repeating: " ", count: max(0, 80 - count)) }
}
