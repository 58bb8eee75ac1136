#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
extension ISOBMFFParser {
    /// The items of `meta`: which is primary (`pitm`), their types (`iinf`), the properties
    /// (`ipco`) and which item each belongs to (`ipma`). A sub-machine of the parser: the
    /// parser routes these boxes here and walks the rest; each of its phases (`Phase`'s items
    /// group) is a transition here that returns what comes next.
    ///
    /// Properties come in `ipco` before the associations in `ipma`, so the relevant ones
    /// (`ispe`, `irot`, `imir`, `clap`, `pixi`) are kept as records in a journal as `ipco`
    /// streams past. Files that break the order are read too: associations before `ipco` are
    /// kept as pending records, and every item's summary is kept while `pitm` is unknown.
    struct ItemProperties: Sendable {
        enum PropertyKind: UInt8, Sendable {
            case none = 0, ispe, irot, imir, clap, pixi
            /// `colr` (full mode): nclx's code points, or an ICC profile.
            case colr
            /// `auxC` (full mode): an auxiliary image's type, for gain maps.
            case auxC
            /// `av1C`, `hvcC` (full mode): the codec's bit depth, and AV1's colour.
            case av1C, hvcC
        }

        // Declared widest first, so the parser fits the scanner's 256-byte slot without padding.
        /// The relevant properties, early associations and early item summaries, as records.
        /// libheif gives every image of a multi-image file its own `clap` (odd sizes are
        /// padded to the coding block), so a primary can use the third clap or a later one.
        var journal = RecordJournal()
        /// The current `ipma` entry's associations still to read.
        var associationsLeft: UInt8 = 0
        /// Associations of the primary item that arrived before ipco ended, in the journal.
        var pendingCount: UInt8 = 0
        /// Every item's summary while `pitm` is still unknown (it may come after `iprp`), in
        /// the journal.
        var summaryCount: UInt8 = 0
        /// Which property a `property` phase reads.
        var propertyKind = PropertyKind.none
        var flags = PackedFlags<Flag, UInt16>()
        /// The item whose associations are being read, when it matters.
        var current = ItemSummary()
        /// The primary item, once its associations are read.
        var primary = ItemSummary()
        /// The primary item's ID, from `pitm`: `primary`'s, before its associations are read.
        var primaryID: UInt32 {
            get { primary.id }
            set { primary.id = newValue }
        }
        var propertiesSeen: UInt16 = 0
        /// The index of the first relevant property that didn't fit in the journal, or 0.
        var firstDroppedProperty: UInt16 = 0

        enum Flag: UInt8, CaseIterable {
            /// `meta` has been entered (only the first one is read).
            case started
            /// `pitm` has named the primary item.
            case hasPrimary
            case itemInfoDone
            case ipcoDone
            /// `ipma` version 1: 32-bit item IDs.
            case longItemIDs
            /// `ipma` flag 1: 15-bit property indices.
            case wideIndices
            /// The primary item's associations are read and its size checked.
            case primaryResolved
            /// An item's summary before `pitm` didn't fit in the journal.
            case summariesOverflowed
            /// Full mode, a grid primary: `iref` named its first tile, in the journal.
            case hasFirstTile
            /// `iref` version 1: 32-bit item IDs.
            case longReferenceIDs
            /// The first tile's summary is in the journal.
            case firstTileRead
        }

        init() {}

        var started: Bool { get { flags[.started] } set { flags[.started] = newValue } }
        var hasPrimary: Bool { get { flags[.hasPrimary] } set { flags[.hasPrimary] = newValue } }
        var itemInfoDone: Bool { get { flags[.itemInfoDone] } set { flags[.itemInfoDone] = newValue } }
        var ipcoDone: Bool { get { flags[.ipcoDone] } set { flags[.ipcoDone] = newValue } }
        var longItemIDs: Bool { get { flags[.longItemIDs] } set { flags[.longItemIDs] = newValue } }
        var wideIndices: Bool { get { flags[.wideIndices] } set { flags[.wideIndices] = newValue } }
        var primaryResolved: Bool { get { flags[.primaryResolved] } set { flags[.primaryResolved] = newValue } }
        var summariesOverflowed: Bool {
            get { flags[.summariesOverflowed] }
            set { flags[.summariesOverflowed] = newValue }
        }
        var hasFirstTile: Bool { get { flags[.hasFirstTile] } set { flags[.hasFirstTile] = newValue } }
        var longReferenceIDs: Bool { get { flags[.longReferenceIDs] } set { flags[.longReferenceIDs] = newValue } }
        var firstTileRead: Bool { get { flags[.firstTileRead] } set { flags[.firstTileRead] = newValue } }

        /// The primary item's size is known and checked.
        var hasAnswer: Bool { primaryResolved && primary.hasSize }

        /// Whether more boxes could still change the format decision.
        func formatSettled(_ brands: Brands) -> Bool {
            brands.majorSettlesFormat || brands.primaryCoding != .unknown || itemInfoDone
        }

        /// The answer, once the primary item's properties and the format are known: `final`
        /// at the end of `meta`, when what is known must do. Animation mode waits for the
        /// track the brands promise, until `moov` has been walked (`trackDone`).
        func answerIfReady(final: Bool, _ brands: Brands, options: ScanOptions, trackDone: Bool) -> Step? {
            guard hasAnswer else { return nil }
            if !final && !formatSettled(brands) { return nil }
            // Full mode: a gain map's `tmap` item is in iinf, which may come after ipma; a grid's
            // colour may come from its first tile, whose ipma entry may follow the grid's.
            if !final && brands.fullMode && !itemInfoDone { return nil }
            if !final && hasFirstTile && !firstTileRead { return nil }
            return options.animation && brands.hasSequenceBrand && !trackDone ? nil : .done
        }

        // MARK: Starting boxes (the parser routes them here)

        /// `pitm`, with `room` payload bytes: its version and flags, then its item ID, 16 or
        /// 32 bits.
        static func beginPrimaryItem(room: UInt64) -> BoxStart {
            (.read(Int(truncatingIfNeeded: min(room, 8))), .primaryItem)
        }

        /// `infe`, with `room` payload bytes: its version and flags, then (versions 2 and 3)
        /// item ID, protection index and type.
        static func beginItemInfo(room: UInt64) -> BoxStart {
            (.read(Int(truncatingIfNeeded: min(room, 14))), .itemInfo)
        }

        /// A `dimg` reference box of `iref`, with `room` payload bytes: from_item_ID,
        /// reference_count and the first to_item_ID, 16 or 32 bits each.
        func beginReference(room: UInt64) -> BoxStart? {
            let width = longReferenceIDs ? 10 : 6
            return room >= UInt64(width) ? (.read(width), .reference) : nil
        }

        /// `ipma`: its version and flags, then its entry count.
        static func beginAssociations() -> BoxStart {
            (.read(8), .associationCount)
        }

        /// A child of `ipco` of `type`: the next property index, known or not. False past
        /// 32767 properties (indices are 15 bits).
        mutating func countProperty() -> Bool {
            guard propertiesSeen < 0x7FFF else { return false }
            propertiesSeen &+= 1
            return true
        }

        /// The property just counted, when it is one the scanner keeps and `room` holds it.
        @inline(__always)
        mutating func beginProperty(_ type: UInt32, room: UInt64, fullMode: Bool) -> BoxStart? {
            let (kind, width): (PropertyKind, Int)
            switch type {
            case Box.ispe where room >= 12: (kind, width) = (.ispe, 12)
            case Box.pixi where room >= 6: (kind, width) = (.pixi, 6)
            case Box.irot where room >= 1: (kind, width) = (.irot, 1)
            case Box.imir where room >= 1: (kind, width) = (.imir, 1)
            case Box.clap where room >= 32: (kind, width) = (.clap, 32)
            default:
                guard fullMode, let (fullModeKind, fullModeWidth) = Self.fullModeProperty(type, room: room) else { return nil }
                (kind, width) = (fullModeKind, fullModeWidth)
            }
            propertyKind = kind
            return (.read(width), .property)
        }

        /// The properties only full mode reads, and how much of each: out of line, so that
        /// dimensions-only mode's properties pay one test for them.
        @inline(never)
        static func fullModeProperty(_ type: UInt32, room: UInt64) -> (PropertyKind, Int)? {
            switch type {
            // colour_type, then nclx's three 16-bit code points and the full-range bit.
            case Box.colr where room >= 4: (.colr, Int(truncatingIfNeeded: min(room, 11)))
            // Version and flags, then the type's URN and its NUL.
            case Box.auxC where room >= 8: (.auxC, Int(truncatingIfNeeded: min(room, 46)))
            // The four fixed bytes, then configOBUs, where a sequence header sits.
            case Box.av1C where room >= 4: (.av1C, Int(truncatingIfNeeded: min(room, 64)))
            // Up to bitDepthLumaMinus8.
            case Box.hvcC where room >= 18: (.hvcC, 18)
            default: nil
            }
        }

        // MARK: Reading

        // Each transition reads a field of the box being read, which ends at `walker.boxEnd`.

        /// `pitm`'s version, flags and item ID.
        @inline(__always)
        mutating func primaryItem(_ field: FieldBytes, at offset: UInt64, options: ScanOptions, _ brands: Brands, trackDone: Bool) -> Outcome {
            let position = offset &+ field.span
            let wide = field.u8(0) != 0
            guard field.count >= (wide ? 8 : 6) else { return .boxDone(from: position, in: .meta) }
            primaryID = wide ? field.be32(4) : UInt32(field.be16(4))
            hasPrimary = true
            if summaryCount > 0 || summariesOverflowed {
                if let step = adoptSummary(options: options, brands, trackDone: trackDone) { return .step(step) }
            }
            return .boxDone(from: position, in: .meta)
        }

        /// `infe`'s version, flags, item ID and type: which codings the items use.
        @inline(__always)
        mutating func itemInfo(_ field: FieldBytes, at offset: UInt64, brands: inout Brands) -> Outcome {
            let position = offset &+ field.span
            // Versions 0 and 1 have no item type.
            let version = field.u8(0)
            let wide = version >= 3
            if version >= 2 && field.count >= (wide ? 14 : 12) {
                let id = wide ? field.be32(4) : UInt32(field.be16(4))
                let type = field.tag(wide ? 10 : 8)
                brands.noteCoding(type)
                if type == Box.tmap { brands.sawGainMap = true }
                if hasPrimary && id == primaryID { brands.notePrimary(type) }
            }
            return .boxDone(from: position, in: .iinf)
        }

        /// A `dimg` reference: when it is the primary's, its first input is the grid's first
        /// tile (HEIF §6.6.2.3: the tiles in row-major order), kept in the journal.
        mutating func reference(_ field: FieldBytes) {
            let wide = longReferenceIDs
            let from = wide ? field.be32(0) : UInt32(field.be16(0))
            let count = field.be16(wide ? 4 : 2)
            if from == primaryID && count > 0 {
                let tile = wide ? field.be32(6) : UInt32(field.be16(4))
                let start = Int(journal.count)
                // Best-effort, like colour: without room the grid's colour stays its own.
                if record(.firstTile, tile) {
                    closeRecord(startingAt: start)
                    hasFirstTile = true
                } else {
                    journal.count = UInt8(truncatingIfNeeded: start)
                }
            }
        }

        /// A property's payload: kept in the journal.
        @inline(__always)
        mutating func property(_ field: FieldBytes, at offset: UInt64, brands: inout Brands) -> Outcome {
            if propertyKind == .auxC {
                // A gain map is an auxiliary image of one of these types (HEIF §6.5.8).
                if Self.namesAGainMap(field) { brands.sawGainMap = true }
            } else {
                recordProperty(propertyKind, field)
            }
            return .boxDone(from: offset &+ field.span, in: .ipco)
        }

        /// colr's colour types (ISO/IEC 23008-12 §6.5.5; rICC restricted ICC).
        static let nclx: UInt32 = 0x6E63_6C78  // "nclx"
        static let prof: UInt32 = 0x7072_6F66  // "prof"
        static let rICC: UInt32 = 0x7249_4343  // "rICC"
        /// Whether an `auxC` (version and flags, then the type) names a gain map, as exiftool
        /// does: Apple's type, libavif's test files' (with `hdrgm` XMP), and Samsung's. Each
        /// with its NUL, so a longer type that begins the same way is not taken.
        static func namesAGainMap(_ field: FieldBytes) -> Bool {
            auxiliaryType(field, is: "urn:com:apple:photo:2020:aux:hdrgainmap\0")
                || auxiliaryType(field, is: "urn:com:photo:aux:hdrgainmap\0")
                || auxiliaryType(field, is: "urn:com:samsung:photo:2024:aux:hdrgainmap\0")
        }

        static func auxiliaryType(_ field: FieldBytes, is type: StaticString) -> Bool {
            field.count >= 4 + type.utf8CodeUnitCount && field.matches(type, at: 4)
        }

        /// `ipma`'s version, flags and entry count.
        @inline(__always)
        mutating func associationCount(_ field: FieldBytes, at offset: UInt64, options: ScanOptions, walker: inout BoxWalker, _ brands: Brands) -> Outcome {
            longItemIDs = field.u8(0) >= 1
            wideIndices = field.be32(0) & 1 == 1
            walker.entriesLeft = field.be32(4)
            return nextEntry(at: offset &+ field.span, end: walker.boxEnd, options: options, walker: &walker, brands)
        }

        /// An `ipma` entry's item ID and association count.
        @inline(__always)
        mutating func associationEntry(
            _ field: FieldBytes, at offset: UInt64, options: ScanOptions, walker: inout BoxWalker, _ brands: Brands, trackDone: Bool
        ) -> Outcome {
            let position = offset &+ field.span
            let end = walker.boxEnd
            let id = longItemIDs ? field.be32(0) : UInt32(field.be16(0))
            let count = field.u8(longItemIDs ? 4 : 2)
            walker.entriesLeft &-= 1
            let entryBytes = UInt64(count) &* (wideIndices ? 2 : 1)
            guard entryBytes <= end &- position else {
                return .step(.failed(.malformed(brands.format, Failure.ipmaEntryOverrunsItsBox)))
            }
            let relevant = hasPrimary ? id == primaryID || isFirstTile(id) : true
            if !relevant || count == 0 {
                if relevant, let step = resolveEntry(ItemSummary(id: id), options: options, brands, trackDone: trackDone) {
                    return .step(step)
                }
                return nextEntry(at: position &+ entryBytes, skipFrom: position, end: end, options: options, walker: &walker, brands)
            }
            current = ItemSummary(id: id)
            associationsLeft = count
            pendingCount = 0
            return associationRun(options: options)
        }

        /// A run of the current entry's associations.
        @inline(__always)
        mutating func associations(
            _ field: FieldBytes, at offset: UInt64, options: ScanOptions, walker: inout BoxWalker, _ brands: Brands, trackDone: Bool
        ) -> Outcome {
            let position = offset &+ field.span
            let width = wideIndices ? 2 : 1
            var index = 0
            while index < field.count {
                let raw = wideIndices ? field.be16(index) : UInt16(field.u8(index))
                let property = raw & (wideIndices ? 0x7FFF : 0x7F)  // the top bit is "essential"
                // A tile's colour is best-effort: only the primary's associations can fail.
                if let failure = associate(property, brands), current.id == primaryID || !hasPrimary {
                    return .step(.failed(failure))
                }
                index &+= width
                associationsLeft &-= 1
            }
            // Dimensions only: the primary's ispe settles the answer; later associations
            // can't change the size (the first ispe wins). Otherwise the entry's end does.
            if associationsLeft == 0 || (options.dimensionsOnly && ipcoDone && hasPrimary && current.hasSize) {
                if let step = resolveEntry(current, options: options, brands, trackDone: trackDone) { return .step(step) }
            }
            if associationsLeft > 0 { return associationRun(options: options) }
            return nextEntry(at: position, end: walker.boxEnd, options: options, walker: &walker, brands)
        }

        /// `ipco` has ended: the primary's associations that came first (see `associate`)
        /// are resolved now.
        mutating func propertiesEnded(options: ScanOptions, _ brands: Brands, trackDone: Bool) -> Step? {
            ipcoDone = true
            guard pendingCount > 0 else { return nil }
            var summary = current
            var offset = 0
            while offset < Int(journal.count) {
                let start = offset
                let kind = journal.byte(at: offset)
                offset = skipRecord(at: offset)
                guard kind == RecordKind.pending.rawValue else { continue }
                var cursor = start &+ 2
                let index = UInt16(truncatingIfNeeded: journal.varint(at: &cursor))
                if let failure = apply(index, to: &summary, brands) { return .failed(failure) }
            }
            pendingCount = 0
            return resolveEntry(summary, options: options, brands, trackDone: trackDone)
        }

        // MARK: Associations

        /// One association of the item being read.
        mutating func associate(_ index: UInt16, _ brands: Brands) -> ScanFailure? {
            guard index != 0 else { return nil }
            if ipcoDone {
                var summary = current
                defer { current = summary }
                return apply(index, to: &summary, brands)
            }
            // Associations before the properties (against the specification's order): keep them.
            guard hasPrimary && current.id == primaryID else {
                return ScanFailure(.unsupportedFeature, Failure.ipmaBeforeIpcoAndPitmAfterBoth, format: brands.format)
            }
            let start = Int(journal.count)
            guard record(.pending, index) else {
                journal.count = UInt8(truncatingIfNeeded: start)
                return .limit(brands.format, Failure.tooManyAssociationsBeforeIpco)
            }
            closeRecord(startingAt: start)
            pendingCount &+= 1
            return nil
        }

        /// The next associations: in runs of up to 64 bytes, or one at a time for the known
        /// primary in dimensions-only mode, so the answer comes right after its ispe.
        func associationRun(options: ScanOptions) -> Outcome {
            let perRead = options.dimensionsOnly && hasPrimary ? 1 : (wideIndices ? 32 : 64)
            let count = min(Int(associationsLeft), perRead)
            return .next(.read(count * (wideIndices ? 2 : 1)), .associations)
        }

        /// The next `ipma` entry at `position`, skipping from `skipFrom` (by default, none).
        @inline(__always)
        mutating func nextEntry(
            at position: UInt64, skipFrom: UInt64? = nil, end: UInt64, options: ScanOptions, walker: inout BoxWalker,
            _ brands: Brands
        ) -> Outcome {
            let from = skipFrom ?? position
            guard walker.entriesLeft > 0 else { return .boxDone(from: from, in: .iprp) }
            let entryWidth: UInt64 = longItemIDs ? 5 : 3
            guard position <= end, end &- position >= entryWidth else {
                return .step(.failed(.malformed(brands.format, Failure.ipmaEntriesOverrunTheirBox)))
            }
            guard walker.count(limit: options.entryLimit) else {
                return .step(.failed(.limit(brands.format, Failure.moreIpmaEntriesThanMaxEntries)))
            }
            let width = Int(truncatingIfNeeded: entryWidth)  // 3 or 5
            return .next(position == from ? .read(width) : .skipThenRead(position &- from, width), .associationEntry)
        }

        // MARK: Items

        /// Whether item `id` is a grid primary's first tile, whose associations are read once
        /// the properties are (full mode; `iref` came before `iprp`).
        func isFirstTile(_ id: UInt32) -> Bool {
            hasFirstTile && ipcoDone && id == firstTileID
        }

        /// The associations of `summary`'s item are all read.
        mutating func resolveEntry(_ summary: ItemSummary, options: ScanOptions, _ brands: Brands, trackDone: Bool) -> Step? {
            if !ipcoDone && hasPrimary && summary.id == primaryID && pendingCount > 0 {
                current = summary
                return nil  // resolved when ipco ends
            }
            if hasPrimary {
                guard summary.id == primaryID else {
                    // The grid's first tile (`isFirstTile`): kept for the grid's colour.
                    guard recordSummary(summary) else { return nil }
                    firstTileRead = true
                    guard primaryResolved else { return nil }
                    return answerIfReady(final: false, brands, options: options, trackDone: trackDone)
                }
                return adopt(summary, options: options, brands, trackDone: trackDone)
            }
            // pitm comes later: remember every item.
            guard recordSummary(summary) else {
                summariesOverflowed = true
                return nil
            }
            summaryCount &+= 1
            return nil
        }

        /// `pitm` arrived after the associations: pick the primary's summary.
        mutating func adoptSummary(options: ScanOptions, _ brands: Brands, trackDone: Bool) -> Step? {
            var offset = 0
            while offset < Int(journal.count) {
                let kind = journal.byte(at: offset)
                var cursor = offset &+ 2
                offset = skipRecord(at: offset)
                guard kind == RecordKind.summary.rawValue, journal.varint(at: &cursor) == primaryID else { continue }
                return adopt(summary(id: primaryID, at: cursor), options: options, brands, trackDone: trackDone)
            }
            if summariesOverflowed { return .failed(.limit(brands.format, Failure.moreItemsThanTheScannerTracksBeforePitm)) }
            return nil
        }

        /// Takes `summary` as the primary item's, once its size passes the checks: only then
        /// does the size count as known (for partial answers too).
        mutating func adopt(_ summary: ItemSummary, options: ScanOptions, _ brands: Brands, trackDone: Bool) -> Step? {
            if summary.hasSize {
                let (width, height) = size(of: summary)
                guard width != 0 && height != 0 else { return .failed(.malformed(brands.format, Failure.ispeSizeIsZero)) }
                guard options.admits(width: UInt64(width), height: UInt64(height)) else {
                    return .failed(.tooLarge(brands.format))
                }
            }
            primary = summary
            primaryResolved = true
            return answerIfReady(final: false, brands, options: options, trackDone: trackDone)
        }
    }
}
#endif
