@testable import ImageProbe
import ImageProbeFixtures
import Testing

/// The compact layouts behind the scanner's cost: each must keep every value it is given, and
/// every parser must fit the slot it runs in.
@Suite struct LayoutTests {
    /// Whether a parser type fits the slot, for every kind the registry lists.
    struct Fits: ParserVisitor {
        func visit<Parser: FormatParser>(_ type: Parser.Type) -> Bool { ParserSlot.fits(Parser.self) }
    }

    @Test func everyParserFitsTheSlot() {
        #expect(ParserSlot.fits(Sniffer.self))
        for kind in ParserKind.allCases {
            #expect(kind.visit(Fits()) == true, "\(kind)")
        }
        // A value too large for the slot is refused, never written past its end.
        struct TooLarge { var words: (Words8, Words8, Words8, Words8, UInt8) }
        #expect(!ParserSlot.fits(TooLarge.self))
    }

    @Test func aSlotIsNeverReadAsAnotherParser() {
        var slot = ParserSlot()
        let stored = slot.store(GIFParser())
        #expect(stored)
        #expect(slot.occupant == .parser(.gif))
        let asGIF = slot.withParser(GIFParser.self) { $0.facts.format }
        let asPNG = slot.withParser(PNGParser.self) { $0.facts.format }
        #expect(asGIF == .gif && asPNG == nil)
        slot.occupant = .finished
        let afterTheEnd = slot.withParser(GIFParser.self) { _ in true }
        #expect(afterTheEnd == nil)
    }

    @Test func theScannerStaysSmall() {
        // Created per probe: a few hundred bytes written in place, not a kilobyte copied: the
        // 256-byte slot, the carry, the sniffer, the field reader, the answer and the frame
        // tally. (On wasm32 the same scanner is under 640 bytes: Tests/wasm32/replay.mjs.)
        #expect(MemoryLayout<HeaderScanner>.size <= 624, "\(MemoryLayout<HeaderScanner>.size)")
        #expect(MemoryLayout<ScanOptions>.size <= 56, "\(MemoryLayout<ScanOptions>.size)")
        #expect(MemoryLayout<ScanFailure>.size <= 4)
        #expect(MemoryLayout<ImageFacts>.size <= 32)
        #expect(MemoryLayout<ImageInfo>.size <= 112, "\(MemoryLayout<ImageInfo>.size)")
        #expect(MemoryLayout<FrameTally>.size <= 40)
    }

    /// `PackedFlags` shifts by a flag's raw value, masked: a flag past its bits would share
    /// another's bit silently.
    @Test func everyPackedFlagHasABitOfItsOwn() {
        #expect(ISOBMFFParser.Brands.Flag.allCases.allSatisfy { Int($0.rawValue) < UInt16.bitWidth })
        #expect(ISOBMFFParser.ItemProperties.Flag.allCases.allSatisfy { Int($0.rawValue) < UInt16.bitWidth })
        #expect(ISOBMFFParser.PrimaryTrack.Flag.allCases.allSatisfy { Int($0.rawValue) < UInt8.bitWidth })
    }

    @Test func journalVarintsRoundTripAtEveryWidth() {
        let values: [UInt32] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000, 0xFFF_FFFF, 0x1000_0000, .max]
        var journal = RecordJournal()
        for value in values {
            let appended = journal.appendVarint(value)
            #expect(appended)
        }
        // 1, 1, 1, 2, 2, 3, 3, 4, 4, 5 and 5 bytes.
        #expect(Int(journal.count) == 31)
        var offset = 0
        for value in values {
            let read = journal.varint(at: &offset)
            #expect(read == value)
        }
        #expect(offset == Int(journal.count))
        // Past the written bytes reads as zero, and a read never runs away.
        let past = journal.varint(at: &offset)
        let (before, after) = (journal.byte(at: -1), journal.byte(at: 10_000))
        #expect(past == 0 && before == 0 && after == 0)
    }

    @Test func aFullJournalRefusesMore() {
        var journal = RecordJournal()
        for _ in 0..<RecordJournal.capacity {
            let appended = journal.append(7)
            #expect(appended)
        }
        let (oneMore, varintMore) = (journal.append(7), journal.appendVarint(1))
        #expect(!oneMore && !varintMore)
        #expect(Int(journal.count) == RecordJournal.capacity)
        let last = journal.byte(at: RecordJournal.capacity - 1)
        #expect(last == 7)
    }

    @Test func zigzagKeepsSignedNumbers() {
        for value in [Int32.min, -1_000_000, -43, -1, 0, 1, 43, 1_000_000, .max] {
            let raw = UInt32(bitPattern: value)
            #expect(ISOBMFFParser.unzigzag(ISOBMFFParser.zigzag(raw)) == value)
        }
        #expect(ISOBMFFParser.zigzag(UInt32(bitPattern: -43)) < 0x80)  // one journal byte
    }

    @Test func factsKeepEveryField() {
        var facts = ImageFacts(format: .webp, width: 0xFFFF_FFFF, height: 1)
        facts.orientation = .rotate90Clockwise
        facts.bitDepth = 65_535
        facts.hasAlpha = true
        facts.isProgressive = false
        facts.isAnimated = nil
        facts.frameCount = 0xFFFF_FFFF
        #expect(facts.width == 0xFFFF_FFFF && facts.height == 1)
        #expect(facts.orientation == .rotate90Clockwise && facts.bitDepth == 65_535)
        #expect(facts.hasAlpha == true && facts.isProgressive == false && facts.isAnimated == nil)
        #expect(facts.frameCount == 0xFFFF_FFFF)
        facts.frameCount = nil
        facts.orientation = nil
        facts.bitDepth = nil
        #expect(facts.frameCount == nil && facts.orientation == nil && facts.bitDepth == nil)
        #expect(facts.width == 0xFFFF_FFFF && facts.hasAlpha == true && facts.format == .webp)
    }

    @Test func optionsKeepWhatTheyAreGivenWithinTheirWidths() {
        var options = ScanOptions()
        #expect(options.mode == .full && options.maxBytes == 16 << 20 && options.maxWidth == 1 << 30)
        #expect(options.maxHeight == 1 << 30 && options.maxEntries == 1 << 16 && options.maxDepth == 16)
        #expect(options.inputLength == nil)
        options.inputLength = 0
        #expect(options.inputLength == 0)
        options.inputLength = .max
        options.mode = .dimensionsOnly
        options.maxBytes = Int.max
        options.maxWidth = 12
        options.maxHeight = 34
        options.maxEntries = 56
        options.maxDepth = 78
        #expect(options.inputLength == .max && options.mode == .dimensionsOnly && options.maxBytes == Int.max)
        #expect(options.maxWidth == 12 && options.maxHeight == 34 && options.maxEntries == 56 && options.maxDepth == 78)
        // Beyond a stored width, a limit clamps; negative limits act as zero.
        options.maxWidth = Int.max
        options.maxEntries = -5
        options.maxDepth = 1 << 40
        options.maxBytes = -1
        #expect(options.maxWidth == Int(UInt32.max) && options.maxEntries == 0 && options.maxDepth == 65_535)
        #expect(options.maxBytes == 0 && options.maxHeight == 34 && options.mode == .dimensionsOnly)
        options.inputLength = nil
        #expect(options.inputLength == nil && options.mode == .dimensionsOnly)
    }

    /// Every parser's failures, as (packed reason, message).
    struct Failures: ParserVisitor {
        func visit<Parser: FormatParser>(_ type: Parser.Type) -> [ScanFailure] {
            // A parser without failures of its own has the common ones, counted once.
            guard Parser.Failure.owner != CommonFailure.owner else { return [] }
            return Parser.Failure.allCases.map { ScanFailure(.malformed, $0, format: nil) }
        }
    }

    @Test func everyFailureHasItsOwnMessage() {
        var seen = Set<String>()
        var failures = CommonFailure.allCases.map { ScanFailure(.malformed, $0) }
        for kind in ParserKind.allCases { failures += kind.visit(Failures()) ?? [] }
        #expect(failures.count > 200)
        for failure in failures {
            // The message comes back through the registry's dispatch from the packed reason.
            let text = failure.message.description
            #expect(!text.isEmpty, "\(failure.reason)")
            #expect(seen.insert(text).inserted, "\(failure.reason) repeats \(text)")
        }
        #expect(ScanFailure(.truncated).message.description == "the input ended inside the header")
        #expect(ScanFailure(.malformed, format: .png).format == .png)
    }
}
