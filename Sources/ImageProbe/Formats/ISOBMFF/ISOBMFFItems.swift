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
            /// `auxC` (full mode): an auxiliary image's type, for Apple's gain map.
            case auxC
        }

        /// What a journal record holds: a relevant property from `ipco` (its 1-based index,
        /// then its values), an association that came before `ipco`, or an item's summary
        /// that came before `pitm`. A record is its kind, the length of the rest, then the
        /// rest: the index (or item id) as a varint and the values.
        enum RecordKind: UInt8, Sendable {
            /// index, width, height
            case ispe = 1
            /// index, then one byte: irot's angle, imir's axis, pixi's first channel's bits
            case irot, imir, pixi
            /// index, then the eight numbers (offsets' numerators zigzag-encoded)
            case clap
            /// a property index the primary item was associated with before ipco ended
            case pending
            /// an item id, then the summary's five bytes
            case summary
            /// index, then 0 for an ICC profile, or 1 and nclx's primaries, transfer, matrix and
            /// full-range flag, each a varint
            case colour
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
        /// Yes-or-no facts, one bit each (see the accessors below).
        var bits: UInt8 = 0
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

        init() {}

        @inline(__always)
        func bit(_ index: UInt8) -> Bool { bits & (1 << index) != 0 }
        @inline(__always)
        mutating func setBit(_ index: UInt8, _ value: Bool) {
            bits = value ? bits | 1 << index : bits & ~(1 << index)
        }
        /// `meta` has been entered (only the first one is read).
        var started: Bool { get { bit(0) } set { setBit(0, newValue) } }
        var hasPrimary: Bool { get { bit(1) } set { setBit(1, newValue) } }
        var itemInfoDone: Bool { get { bit(2) } set { setBit(2, newValue) } }
        var ipcoDone: Bool { get { bit(3) } set { setBit(3, newValue) } }
        /// `ipma` version 1: 32-bit item IDs.
        var longItemIDs: Bool { get { bit(4) } set { setBit(4, newValue) } }
        /// `ipma` flag 1: 15-bit property indices.
        var wideIndices: Bool { get { bit(5) } set { setBit(5, newValue) } }
        var primaryResolved: Bool { get { bit(6) } set { setBit(6, newValue) } }
        var summariesOverflowed: Bool { get { bit(7) } set { setBit(7, newValue) } }

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
            // Full mode: a gain map's `tmap` item is in iinf, which may come after ipma.
            if !final && brands.fullMode && !itemInfoDone { return nil }
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
            // colour_type, then nclx's three 16-bit code points and the full-range bit.
            case Box.colr where fullMode && room >= 4: (kind, width) = (.colr, Int(truncatingIfNeeded: min(room, 11)))
            // Version and flags, then the type's URN and its NUL.
            case Box.auxC where fullMode && room >= 8: (kind, width) = (.auxC, Int(truncatingIfNeeded: min(room, 44)))
            default: return nil
            }
            propertyKind = kind
            return (.read(width), .property)
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

        /// A property's payload: kept in the journal.
        @inline(__always)
        mutating func property(_ field: FieldBytes, at offset: UInt64, brands: inout Brands) -> Outcome {
            if propertyKind == .auxC {
                // Apple's HDR gain map is an auxiliary image of this type (HEIF §6.5.8).
                if field.count >= 44 && field.matches(Self.appleGainMapType, at: 4) { brands.sawGainMap = true }
            } else {
                recordProperty(propertyKind, field)
            }
            return .boxDone(from: offset &+ field.span, in: .ipco)
        }

        /// colr's colour types (ISO/IEC 23008-12 §6.5.5; rICC restricted ICC).
        static let nclx: UInt32 = 0x6E63_6C78  // "nclx"
        static let prof: UInt32 = 0x7072_6F66  // "prof"
        static let rICC: UInt32 = 0x7249_4343  // "rICC"
        static let appleGainMapType: StaticString = "urn:com:apple:photo:2020:aux:hdrgainmap\0"

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
            let relevant = hasPrimary ? id == primaryID : true
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
                if let failure = associate(property, brands) { return .step(.failed(failure)) }
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
                let index = UInt16(truncatingIfNeeded: Self.varint(&journal, at: &cursor))
                if let failure = apply(index, to: &summary, brands) { return .failed(failure) }
            }
            pendingCount = 0
            return resolveEntry(summary, options: options, brands, trackDone: trackDone)
        }

        // MARK: Properties

        mutating func recordProperty(_ kind: PropertyKind, _ field: FieldBytes) {
            let index = propertiesSeen
            let start = Int(journal.count)
            var fits: Bool
            switch kind {
            case .none, .auxC:
                return
            case .colr:
                // Colour is best-effort: a record that doesn't fit only leaves the colour unknown.
                let colourType = field.tag(0)
                if colourType == Self.nclx && field.count >= 11 {
                    let (primaries, transfer, matrix) = (field.be16(4), field.be16(6), field.be16(8))
                    guard primaries <= 0xFF && transfer <= 0xFF && matrix <= 0xFF else { return }
                    fits = record(.colour, index) && journal.append(1) && journal.appendVarint(UInt32(primaries))
                        && journal.appendVarint(UInt32(transfer)) && journal.appendVarint(UInt32(matrix))
                        && journal.append(field.u8(10) >> 7)
                } else if colourType == Self.prof || colourType == Self.rICC {
                    fits = record(.colour, index) && journal.append(0)
                } else {
                    return
                }
                if fits { closeRecord(startingAt: start) } else { journal.count = UInt8(truncatingIfNeeded: start) }
                return
            case .ispe:
                // After the full box's version and flags.
                fits = record(.ispe, index) && journal.appendVarint(field.be32(4)) && journal.appendVarint(field.be32(8))
            case .irot:
                fits = record(.irot, index) && journal.append(field.u8(0) & 0x03)
            case .imir:
                fits = record(.imir, index) && journal.append(field.u8(0) & 0x01)
            case .pixi:
                // After the version and flags: num_channels, then the first channel's bit depth.
                guard field.u8(4) >= 1 else { return }
                fits = record(.pixi, index) && journal.append(field.u8(5))
            case .clap:
                // widthN/D, heightN/D, then the offsets, whose numerators are signed.
                fits = record(.clap, index)
                    && journal.appendVarint(field.be32(0)) && journal.appendVarint(field.be32(4))
                    && journal.appendVarint(field.be32(8)) && journal.appendVarint(field.be32(12))
                    && journal.appendVarint(ISOBMFFParser.zigzag(field.be32(16))) && journal.appendVarint(field.be32(20))
                    && journal.appendVarint(ISOBMFFParser.zigzag(field.be32(24))) && journal.appendVarint(field.be32(28))
            }
            if fits {
                closeRecord(startingAt: start)
            } else {
                journal.count = UInt8(truncatingIfNeeded: start)
                // Any later association with an index this high is ambiguous, and ends the
                // scan with a limit, never a guess.
                if firstDroppedProperty == 0 { firstDroppedProperty = index }
            }
        }

        /// Starts a record of `kind` for `key` (a property index or an item id); the length
        /// byte is set by `closeRecord`. Out of line in size builds: every kind of record
        /// starts here.
        mutating func record(_ kind: RecordKind, _ key: UInt32) -> Bool {
            journal.append(kind.rawValue) && journal.append(0) && journal.appendVarint(key)
        }

        mutating func record(_ kind: RecordKind, _ index: UInt16) -> Bool {
            record(kind, UInt32(index))
        }

        /// The journal's varint at `offset`, advancing `offset` past it. Out of line in size
        /// builds: every walk of the records decodes keys.
        @inline(__always)
        static func varint(_ journal: inout RecordJournal, at offset: inout Int) -> UInt32 {
            journal.varint(at: &offset)
        }

        /// Writes the length of the record that starts at `start` and ends at the journal's end.
        mutating func closeRecord(startingAt start: Int) {
            journal.set(UInt8(truncatingIfNeeded: Int(journal.count) &- start &- 2), at: start &+ 1)
        }

        /// The offset just past the record at `offset`.
        @inline(__always)
        mutating func skipRecord(at offset: Int) -> Int {
            offset &+ 2 &+ Int(journal.byte(at: offset &+ 1))
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

        /// Applies property `index` to `summary`, in association order.
        mutating func apply(_ index: UInt16, to summary: inout ItemSummary, _ brands: Brands) -> ScanFailure? {
            var offset = 0
            let end = Int(journal.count)
            while offset < end {
                let start = offset
                let kind = RecordKind(rawValue: journal.byte(at: offset))
                var cursor = offset &+ 2
                let key = Self.varint(&journal, at: &cursor)
                offset = skipRecord(at: offset)
                guard key == UInt32(index) else { continue }
                switch kind {
                case .ispe:
                    if !summary.hasSize { summary.sizeRecord = UInt8(truncatingIfNeeded: start &+ 1) }
                case .irot:
                    summary.rotate(journal.byte(at: cursor))
                case .imir:
                    summary.mirror(journal.byte(at: cursor))
                case .clap:
                    if summary.apertureRecord == 0 { summary.apertureRecord = UInt8(truncatingIfNeeded: start &+ 1) }
                case .pixi:
                    if summary.bitDepth == 0 { summary.bitDepth = journal.byte(at: cursor) }
                case .colour:
                    // At most one colr of each kind per item (HEIF §6.5.5): an ICC profile, an nclx.
                    if journal.byte(at: cursor) == 0 {
                        summary.colour |= 0x80
                    } else if summary.colour & 0x7F == 0 {
                        summary.colour |= UInt8(truncatingIfNeeded: start &+ 1) & 0x7F
                    }
                case .pending, .summary, nil:
                    continue  // not a property
                }
                return nil
            }
            if firstDroppedProperty != 0 && index >= firstDroppedProperty {
                return .limit(brands.format, Failure.moreItemPropertiesThanTheScannerTracks)
            }
            return nil  // an index to a property nobody needs (or to nothing at all)
        }

        /// The next associations: in runs of up to 64 bytes, or one at a time for the known
        /// primary in dimensions-only mode, so the answer comes right after its ispe.
        func associationRun(options: ScanOptions) -> Outcome {
            let perRead = options.dimensionsOnly && hasPrimary ? 1 : (wideIndices ? 32 : 64)
            let count = min(Int(associationsLeft), perRead)
            return .next(.read(count * (wideIndices ? 2 : 1)), .associations)
        }

        /// The next `ipma` entry at `position`, skipping from `skipFrom` (by default, none).
        /// Out of line in size builds: three transitions end with it.
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

        /// The associations of `summary`'s item are all read.
        mutating func resolveEntry(_ summary: ItemSummary, options: ScanOptions, _ brands: Brands, trackDone: Bool) -> Step? {
            if !ipcoDone && hasPrimary && summary.id == primaryID && pendingCount > 0 {
                current = summary
                return nil  // resolved when ipco ends
            }
            if hasPrimary {
                guard summary.id == primaryID else { return nil }
                return adopt(summary, options: options, brands, trackDone: trackDone)
            }
            // pitm comes later: remember every item.
            let start = Int(journal.count)
            guard record(.summary, summary.id)
                && journal.append(summary.sizeRecord) && journal.append(summary.transform)
                && journal.append(summary.apertureRecord) && journal.append(summary.bitDepth)
                && journal.append(summary.colour)
            else {
                journal.count = UInt8(truncatingIfNeeded: start)
                summariesOverflowed = true
                return nil
            }
            closeRecord(startingAt: start)
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
                guard kind == RecordKind.summary.rawValue, Self.varint(&journal, at: &cursor) == primaryID else { continue }
                var summary = ItemSummary(id: primaryID)
                summary.sizeRecord = journal.byte(at: cursor)
                summary.transform = journal.byte(at: cursor &+ 1)
                summary.apertureRecord = journal.byte(at: cursor &+ 2)
                summary.bitDepth = journal.byte(at: cursor &+ 3)
                summary.colour = journal.byte(at: cursor &+ 4)
                return adopt(summary, options: options, brands, trackDone: trackDone)
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

        // MARK: The answer

        /// The width and height of the ispe record `summary` names.
        func size(of summary: ItemSummary) -> (width: UInt32, height: UInt32) {
            guard summary.hasSize else { return (0, 0) }
            let values = recordValues(summary.sizeRecord, count: 2)
            return (values.0, values.1)
        }

        /// The first `count` (up to eight) varints after the key of the record that starts at
        /// `record` - 1, in order; 0 for the rest. One decoder for every record the answer
        /// reads, on a copy of the journal: most callers build the answer, where the items
        /// can't be mutated; `adopt`'s size check pays for the copy too.
        // each caller's count is a constant: the loop unrolls
        func recordValues(_ record: UInt8, count: Int) -> RecordValues {
            var journal = journal
            var values: RecordValues = (0, 0, 0, 0, 0, 0, 0, 0)
            // The record's kind and length, then its key.
            var cursor = Int(record) &+ 1
            _ = Self.varint(&journal, at: &cursor)
            // Only `count` varints decoded: the size's two are read on every probe.
            for index in 0..<min(max(count, 0), 8) {
                let value = Self.varint(&journal, at: &cursor)
                switch index {
                case 0: values.0 = value
                case 1: values.1 = value
                case 2: values.2 = value
                case 3: values.3 = value
                case 4: values.4 = value
                case 5: values.5 = value
                case 6: values.6 = value
                default: values.7 = value
                }
            }
            return values
        }

        /// The primary's colour: its nclx code points, and whether an ICC profile is associated.
        func colour() -> (cicp: CICP?, icc: Bool) {
            let icc = primary.colour & 0x80 != 0
            let record = primary.colour & 0x7F
            guard record != 0 else { return (nil, icc) }
            // The kind of colour, then the code points.
            let values = recordValues(record, count: 5)
            guard values.0 == 1 else { return (nil, icc) }
            let cicp = CICP(
                colourPrimaries: UInt8(truncatingIfNeeded: values.1), transferCharacteristics: UInt8(truncatingIfNeeded: values.2),
                matrixCoefficients: UInt8(truncatingIfNeeded: values.3), isFullRange: values.4 != 0)
            return (cicp, icc)
        }

        /// The primary's clean aperture, when a `clap` is associated with it.
        func cleanAperture(imageWidth: Int, imageHeight: Int) -> CleanAperture? {
            guard primary.apertureRecord != 0 else { return nil }
            let values = recordValues(primary.apertureRecord, count: 8)
            return CleanAperture(
                widthN: values.0, widthD: values.1, heightN: values.2, heightD: values.3,
                horizontalOffsetN: ISOBMFFParser.unzigzag(values.4), horizontalOffsetD: values.5,
                verticalOffsetN: ISOBMFFParser.unzigzag(values.6), verticalOffsetD: values.7,
                imageWidth: imageWidth, imageHeight: imageHeight)
        }
    }

    /// Up to eight numbers of a journal record.
    typealias RecordValues = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// What an item's associations say, resolved against the journal: 9 bytes.
    struct ItemSummary: Sendable {
        var id: UInt32 = 0
        /// 1 + the journal offset of the ispe record that gives the size, or 0 for none.
        var sizeRecord: UInt8 = 0
        /// The transform so far as R^rotation ∘ F^mirrored, where F exchanges left and right
        /// (applied first) and R turns a quarter anticlockwise: the rotation in bits 0–1,
        /// mirrored in bit 2, and in bit 3 whether any transform was applied.
        var transform: UInt8 = 0
        /// 1 + the journal offset of the clap record, or 0 for none.
        var apertureRecord: UInt8 = 0
        var bitDepth: UInt8 = 0
        /// An ICC profile associated (bit 7), and 1 + the journal offset of the nclx record in
        /// bits 0–6 (the journal's offsets are below 128), or 0 for none.
        var colour: UInt8 = 0

        var hasSize: Bool { sizeRecord != 0 }
        var rotation: UInt8 { transform & 3 }
        var mirrored: Bool { transform & 4 != 0 }
        var transformed: Bool { transform & 8 != 0 }

        init() {}

        init(id: UInt32) { self.id = id }

        /// The transform in EXIF numbering: R^k as 1, 8, 3, 6 and R^k ∘ F as 2, 5, 4, 7.
        var orientation: Orientation? {
            guard transformed else { return nil }
            // The four values, a byte each, lowest for R^0.
            let table: UInt32 = mirrored ? 0x0704_0502 : 0x0603_0801
            return Orientation(unchecked: UInt8(truncatingIfNeeded: table >> (UInt32(rotation) &* 8)))
        }

        /// `irot`: `angle` more quarter turns anticlockwise.
        mutating func rotate(_ angle: UInt8) {
            let rotation = (self.rotation &+ (angle & 3)) & 3
            transform = transform & 4 | rotation | 8
        }

        /// `imir`: axis 1 exchanges left and right (F), axis 0 top and bottom (R²∘F)
        /// (ISO/IEC 23008-12:2022 §6.5.12). F∘R^k = R^−k∘F gives the new normal form.
        mutating func mirror(_ axis: UInt8) {
            let turn: UInt8 = axis & 1 == 1 ? 0 : 2
            let rotation = (turn &+ 4 &- self.rotation) & 3
            transform = (transform ^ 4) & 4 | rotation | 8
        }
    }

    /// A signed 32-bit number as an unsigned one with small magnitudes small.
    static func zigzag(_ raw: UInt32) -> UInt32 {
        let value = Int32(bitPattern: raw)
        return UInt32(bitPattern: (value &<< 1) ^ (value >> 31))
    }

    static func unzigzag(_ encoded: UInt32) -> Int32 {
        Int32(bitPattern: encoded >> 1) ^ -Int32(bitPattern: encoded & 1)
    }
}
#endif
