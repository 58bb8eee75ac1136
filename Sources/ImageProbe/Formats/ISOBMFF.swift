/// HEIF and AVIF (ISO/IEC 23008-12, MIAF ISO/IEC 23000-22, AV1 Image File Format): boxes of
/// ISO/IEC 14496-12.
///
/// The size is the `ispe` property that `ipma` associates with the primary item that `pitm`
/// names: not the first or the largest `ispe`, which belongs to a tile or a thumbnail as often
/// as not. The orientation composes the primary item's `irot` (anticlockwise quarter turns) and
/// `imir` properties in association order, and is reported in EXIF numbering (SPEC.md §3.8).
///
/// Properties come in `ipco` before the associations in `ipma`, so the relevant ones (`ispe`,
/// `irot`, `imir`, `clap`, `pixi`) are kept in a fixed table as `ipco` streams past. Boxes
/// the scanner doesn't need, `mdat` above all, are skipped by their size: a `meta` after a
/// large `mdat` costs a seeking reader one jump.
///
/// Image sequences (a sequence brand in `ftyp`) also carry `moov`: the primary track is the
/// first `trak` whose handler is `pict` or `vide` and that is not an auxiliary (`tref/auxl`,
/// alpha or depth) track, as libavif chooses it. Its `tkhd` gives the size when there is no
/// `meta`, its `stts` runs over the `mdhd` timescale give the frames, and `elst` with `tkhd`
/// give the loop count.
@usableFromInline
struct ISOBMFFParser: FormatParser, Sendable {

    /// The containers the parser descends into; anything else is skipped whole.
    @usableFromInline
    enum Level: Sendable {
        case top, meta, iinf, iprp, ipco
        case moov, trak, edts, tref, mdia, minf, stbl

        @inlinable
        var depth: Int {
            switch self {
            case .top: 0
            case .meta, .moov: 1
            case .iinf, .iprp, .trak: 2
            case .ipco, .edts, .tref, .mdia: 3
            case .minf: 4
            case .stbl: 5
            }
        }
    }

    /// Containers whose payload starts with a FullBox version and flags. The other full boxes
    /// the parser reads (pitm, infe, ipma, ispe, pixi) are read with their fields in one step.
    @usableFromInline
    enum FullBox: Sendable {
        case meta, iinf
    }

    @usableFromInline
    enum PropertyKind: UInt8, Sendable {
        case none = 0, ispe, irot, imir, clap, pixi
    }

    @usableFromInline
    enum Phase: Sendable {
        /// The first box (`ftyp`) had size 1: its 64-bit size.
        case ftypLargeSize
        /// `ftyp`'s major brand and minor version.
        case ftypHead(end: UInt64)
        /// One compatible brand.
        case compatibleBrand(end: UInt64)
        /// A box's 32-bit size and type, inside `level`.
        case header(Level)
        /// The 64-bit size of a box whose 32-bit size was 1 (the box starts 8 bytes before it).
        case largeSize(Level, type: UInt32)
        /// A FullBox's version and flags (which box: `fullBoxKind`).
        case fullBox(end: UInt64)
        /// `pitm`'s version and flags, then its item ID, 16 or 32 bits.
        case primaryItem(end: UInt64)
        /// `infe`'s version and flags, then (versions 2 and 3) item ID, protection index, type.
        case itemInfo(end: UInt64)
        /// The payload of a property the parser keeps (which: `propertyKind`), with a full
        /// box's version and flags.
        case property(end: UInt64)
        /// `ipma`'s version and flags, then its entry count.
        case associationCount(end: UInt64)
        /// An `ipma` entry's item ID and association count.
        case associationEntry(end: UInt64)
        /// A run of the current entry's associations.
        case associations(end: UInt64)
        /// `tkhd` up to its duration (36 bytes, whichever the version).
        case trackHeader(end: UInt64)
        /// `tkhd`'s width and height, 16.16 fixed point.
        case trackSize(end: UInt64)
        /// `elst`'s version, flags, entry count and first segment duration.
        case editList(end: UInt64)
        /// `mdhd` up to its timescale.
        case mediaHeader(end: UInt64)
        /// `hdlr` up to its handler type.
        case handler(end: UInt64)
        /// `stsd` up to its first sample entry's type.
        case sampleDescription(end: UInt64)
        /// `stts`'s version, flags and entry count.
        case timeToSampleCount(end: UInt64)
        /// One `stts` run: sample count and delta.
        case timeToSampleEntry(end: UInt64)
    }

    /// What the track being read says: 32 bytes.
    @usableFromInline
    struct TrackSummary: Sendable {
        /// `tkhd` duration, in the movie timescale; UInt64.max when indefinite (all ones).
        @usableFromInline var duration: UInt64 = 0
        @usableFromInline var width: UInt32 = 0
        @usableFromInline var height: UInt32 = 0
        @usableFromInline var timescale: UInt32 = 0
        /// The plays `elst` and `tkhd` give (0 forever), when `hasLoopCount`.
        @usableFromInline var loopCount: UInt32 = 0
        @usableFromInline var hasLoopCount = false
        @usableFromInline var isVisual = false
        @usableFromInline var isAuxiliary = false

        @inlinable init() {}

        /// The primary track: visual, not auxiliary, with a size and a clock.
        @inlinable
        var qualifies: Bool { isVisual && !isAuxiliary && width != 0 && height != 0 && timescale != 0 }
    }

    /// What a journal record holds: a relevant property from `ipco` (its 1-based index,
    /// then its values), an association that came before `ipco`, or an item's summary that
    /// came before `pitm`. A record is its kind, the length of the rest, then the rest: the
    /// index (or item id) as a varint and the values.
    @usableFromInline
    enum RecordKind: UInt8, Sendable {
        /// index, width, height
        case ispe = 1
        /// index, then one byte: irot's angle, imir's axis, pixi's first channel's bits
        case irot, imir, pixi
        /// index, then the eight numbers (offsets' numerators zigzag-encoded)
        case clap
        /// a property index the primary item was associated with before ipco ended
        case pending
        /// an item id, then the summary's four bytes
        case summary
    }

    /// What an item's associations say, resolved against the journal: 8 bytes.
    @usableFromInline
    struct ItemSummary: Sendable {
        @usableFromInline var id: UInt32 = 0
        /// 1 + the journal offset of the ispe record that gives the size, or 0 for none.
        @usableFromInline var sizeRecord: UInt8 = 0
        /// The transform so far as R^rotation ∘ F^mirrored, where F exchanges left and right
        /// (applied first) and R turns a quarter anticlockwise: the rotation in bits 0–1,
        /// mirrored in bit 2, and in bit 3 whether any transform was applied.
        @usableFromInline var transform: UInt8 = 0
        /// 1 + the journal offset of the clap record, or 0 for none.
        @usableFromInline var apertureRecord: UInt8 = 0
        @usableFromInline var bitDepth: UInt8 = 0

        @inlinable var hasSize: Bool { sizeRecord != 0 }
        @inlinable var rotation: UInt8 { transform & 3 }
        @inlinable var mirrored: Bool { transform & 4 != 0 }
        @inlinable var transformed: Bool { transform & 8 != 0 }

        @inlinable init() {}

        @inlinable
        init(id: UInt32) { self.id = id }

        /// The transform in EXIF numbering: R^k as 1, 8, 3, 6 and R^k ∘ F as 2, 5, 4, 7.
        @inlinable
        var orientation: Orientation? {
            guard transformed else { return nil }
            let table: (UInt8, UInt8, UInt8, UInt8) = mirrored ? (2, 5, 4, 7) : (1, 8, 3, 6)
            switch rotation & 3 {
            case 0: return Orientation(unchecked: table.0)
            case 1: return Orientation(unchecked: table.1)
            case 2: return Orientation(unchecked: table.2)
            default: return Orientation(unchecked: table.3)
            }
        }

        /// `irot`: `angle` more quarter turns anticlockwise.
        @inlinable
        mutating func rotate(_ angle: UInt8) {
            let rotation = (self.rotation &+ (angle & 3)) & 3
            transform = transform & 4 | rotation | 8
        }

        /// `imir`: axis 1 exchanges left and right (F), axis 0 top and bottom (R²∘F)
        /// (ISO/IEC 23008-12:2022 §6.5.12). F∘R^k = R^−k∘F gives the new normal form.
        @inlinable
        mutating func mirror(_ axis: UInt8) {
            let turn: UInt8 = axis & 1 == 1 ? 0 : 2
            let rotation = (turn &+ 4 &- self.rotation) & 3
            transform = (transform ^ 4) & 4 | rotation | 8
        }
    }

    // Declared widest first, so the parser fits the scanner's 256-byte slot without padding.
    @usableFromInline var phase: Phase

    // Where each open container ends, by depth. The `meta` tree and the `moov` tree are never
    // open at once, and siblings never are, so they share these four.
    /// `meta` or `moov`.
    @usableFromInline var depth1End: UInt64 = 0
    /// `iinf` or `iprp` in `meta`; `trak` in `moov`.
    @usableFromInline var depth2End: UInt64 = 0
    /// `ipco` in `iprp`; `edts`, `tref` or `mdia` in `trak`.
    @usableFromInline var depth3End: UInt64 = 0
    /// `minf` in `mdia`, then `stbl` inside it: when either ends, nothing later in `mdia`
    /// matters and the scan goes on at the end of `mdia`, so one end serves both.
    @usableFromInline var depth4End: UInt64 = 0

    @inlinable var metaEnd: UInt64 { get { depth1End } set { depth1End = newValue } }
    @inlinable var moovEnd: UInt64 { get { depth1End } set { depth1End = newValue } }
    @inlinable var iinfEnd: UInt64 { get { depth2End } set { depth2End = newValue } }
    @inlinable var iprpEnd: UInt64 { get { depth2End } set { depth2End = newValue } }
    @inlinable var trakEnd: UInt64 { get { depth2End } set { depth2End = newValue } }
    @inlinable var ipcoEnd: UInt64 { get { depth3End } set { depth3End = newValue } }
    @inlinable var trackInnerEnd: UInt64 { get { depth3End } set { depth3End = newValue } }
    @inlinable var mediaInnerEnd: UInt64 { get { depth4End } set { depth4End = newValue } }

    /// The `trak` being read, and once `hasPrimaryTrack`, the primary track (later `trak`s
    /// are skipped whole).
    @usableFromInline var track = TrackSummary()
    /// The frames of the current `stts` run not yet reported, and their delta.
    @usableFromInline var runFramesLeft: UInt32 = 0
    @usableFromInline var runDelta: UInt32 = 0

    // Brands and items, for telling AVIF from other HEIF.
    @usableFromInline var majorBrand: UInt32 = 0
    @usableFromInline var primaryID: UInt32 = 0
    @usableFromInline var primaryType: UInt32 = 0
    @usableFromInline var boxes: UInt32 = 0
    /// ipma entries still to read.
    @usableFromInline var entriesLeft: UInt32 = 0

    // Properties from ipco.
    @usableFromInline var propertiesSeen: UInt16 = 0
    /// The index of the first relevant property that didn't fit in the journal, or 0.
    @usableFromInline var firstDroppedProperty: UInt16 = 0
    /// The parser's yes-or-no facts, one bit each (see the accessors below): sixteen Bools
    /// would take sixteen bytes of the scanner's slot.
    @usableFromInline var flags: UInt16 = 0

    /// The item whose associations are being read, when it matters.
    @usableFromInline var current = ItemSummary()
    /// The primary item, once its associations are read.
    @usableFromInline var primary = ItemSummary()

    /// The relevant properties, early associations and early item summaries, as records.
    /// libheif gives every image of a multi-image file its own `clap` (odd sizes are padded
    /// to the coding block), so a primary can use the third clap or a later one.
    @usableFromInline var journal = RecordJournal()

    // Single bytes after the journal's count, where they need no padding.
    /// The current `ipma` entry's associations still to read.
    @usableFromInline var associationsLeft: UInt8 = 0
    /// Associations of the primary item that arrived before ipco ended, in the journal.
    @usableFromInline var pendingCount: UInt8 = 0
    /// Every item's summary while `pitm` is still unknown (it may come after `iprp`), in the
    /// journal.
    @usableFromInline var summaryCount: UInt8 = 0
    /// Which box a `fullBox` phase reads, and which property a `property` phase reads: kept
    /// out of the phases so that every phase's payload is one word.
    @usableFromInline var fullBoxKind = FullBox.meta
    @usableFromInline var propertyKind = PropertyKind.none

    // MARK: - Flags

    @inlinable func flag(_ bit: UInt16) -> Bool { flags & (1 << bit) != 0 }
    @inlinable mutating func setFlag(_ bit: UInt16, _ value: Bool) {
        flags = value ? flags | 1 << bit : flags & ~(1 << bit)
    }
    @inlinable var hasImageBrand: Bool { get { flag(0) } set { setFlag(0, newValue) } }
    @inlinable var compatibleWithAVIF: Bool { get { flag(1) } set { setFlag(1, newValue) } }
    @inlinable var hasPrimary: Bool { get { flag(2) } set { setFlag(2, newValue) } }
    @inlinable var sawAV1Item: Bool { get { flag(3) } set { setFlag(3, newValue) } }
    @inlinable var sawOtherCodedItem: Bool { get { flag(4) } set { setFlag(4, newValue) } }
    @inlinable var itemInfoDone: Bool { get { flag(5) } set { setFlag(5, newValue) } }
    @inlinable var ipcoDone: Bool { get { flag(6) } set { setFlag(6, newValue) } }
    /// `ipma` version 1: 32-bit item IDs.
    @inlinable var longItemIDs: Bool { get { flag(7) } set { setFlag(7, newValue) } }
    /// `ipma` flag 1: 15-bit property indices.
    @inlinable var wideIndices: Bool { get { flag(8) } set { setFlag(8, newValue) } }
    @inlinable var primaryResolved: Bool { get { flag(9) } set { setFlag(9, newValue) } }
    @inlinable var summariesOverflowed: Bool { get { flag(10) } set { setFlag(10, newValue) } }
    /// `ftyp` names an image-sequence brand: `moov` holds frames worth reading.
    @inlinable var hasSequenceBrand: Bool { get { flag(11) } set { setFlag(11, newValue) } }
    @inlinable var metaStarted: Bool { get { flag(12) } set { setFlag(12, newValue) } }
    @inlinable var moovDone: Bool { get { flag(13) } set { setFlag(13, newValue) } }
    @inlinable var hasPrimaryTrack: Bool { get { flag(14) } set { setFlag(14, newValue) } }
    /// Animation mode: a track's `stts` has been walked (only one track's frames count).
    @inlinable var walkedFrames: Bool { get { flag(15) } set { setFlag(15, newValue) } }

    /// Built on demand: keeping an `ImageInfo` in the state would only make it larger.
    /// The facts, from the answer this parser builds its own way.
    @inlinable
    var facts: ImageFacts { info.facts }

    @inlinable
    var info: ImageInfo { makeInfo() }

    @inlinable
    init(firstBoxSize: UInt32) {
        self.phase = firstBoxSize == 1 ? .ftypLargeSize : .ftypHead(end: UInt64(firstBoxSize))
    }

    @inlinable
    init(sniffed: Sniffed) { self.init(firstBoxSize: UInt32(truncatingIfNeeded: sniffed.value)) }

    @inlinable
    var firstStep: Step { .read(8) }

    @inlinable
    var format: ImageFormat? { hasImageBrand ? decideFormat() : nil }

    /// A partial answer needs the primary's checked size and a settled format: a format
    /// guessed before the item types are known would not be "certain".
    @inlinable
    func infoAtEndOfInput() -> ImageInfo? {
        if hasMetaAnswer { return formatSettled ? makeInfo() : nil }
        return hasPrimaryTrack ? makeInfo() : nil
    }

    /// The primary item's size is known and checked.
    @inlinable
    var hasMetaAnswer: Bool { primaryResolved && primary.hasSize }

    /// Animation mode waits for `moov` after `meta` when the brands promise a sequence.
    @inlinable
    func awaitingTrack(_ options: ScanOptions) -> Bool {
        options.animation && hasSequenceBrand && !moovDone
    }

    @inlinable static var emitsFrames: Bool { true }

    /// The next frame of the `stts` run being read: every sample is a frame the size of the
    /// track, shown for delta / timescale seconds.
    @inlinable
    mutating func takeFrame() -> PendingFrames? {
        guard runFramesLeft > 0 else { return nil }
        runFramesLeft &-= 1
        return PendingFrames(
            numerator: runDelta, denominator: track.timescale, x: 0, y: 0, width: track.width, height: track.height)
    }

    @usableFromInline static let unknownBrand = ScanFailure(.unknownFormat, Failure.isobmffFileWithoutAnImageBrand)

    // MARK: - Parsing

    @inlinable @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        let position = offset &+ UInt64(field.count)
        switch phase {
        case .ftypLargeSize:
            let size = field.be64(0)
            guard size >= 24 else { return .failed(.malformed(.heif, .ftypBoxTooSmall)) }
            phase = .ftypHead(end: size)
            return .read(8)
        case .ftypHead(let end):
            guard end >= position else { return .failed(.malformed(.heif, .ftypBoxTooSmall)) }
            guard !options.runsPastInput(end) else { return .failed(.malformed(.heif, .boxOrChunkRunsPastTheEndOfTheInput)) }
            majorBrand = field.tag(0)
            noteBrand(majorBrand)
            return nextBrand(at: position, end: end, options: options)
        case .compatibleBrand(let end):
            let brand = field.tag(0)
            noteBrand(brand)
            if brand == Brand.avif { compatibleWithAVIF = true }
            return nextBrand(at: position, end: end, options: options)
        case .header(let level):
            let size = UInt64(field.be32(0))
            let type = field.tag(4)
            switch size {
            case 1:
                phase = .largeSize(level, type: type)
                return .read(8)
            case 0:
                return enter(type, in: level, payload: position, end: containerEnd(level, options), options: options)
            default:
                guard size >= 8 else { return .failed(.malformed(.heif, .boxSmallerThanItsHeader)) }
                return enter(type, in: level, payload: position, end: offset &+ size, options: options)
            }
        case .largeSize(let level, let type):
            let start = offset &- 8
            let size = field.be64(0)
            guard size >= 16, size <= UInt64.max &- start else {
                return .failed(.malformed(.heif, Failure.bad64BitBoxSize))
            }
            return enter(type, in: level, payload: position, end: start &+ size, options: options)
        case .fullBox(let end):
            return fullBox(fullBoxKind, version: field.u8(0), flags: UInt32(field.be32(0) & 0xFF_FFFF), at: position, end: end, options: options)
        case .primaryItem(let end):
            let wide = field.u8(0) != 0
            guard field.count >= (wide ? 8 : 6) else { return finishBox(at: position, end: end, in: .meta, options: options) }
            primaryID = wide ? field.be32(4) : UInt32(field.be16(4))
            hasPrimary = true
            if summaryCount > 0 || summariesOverflowed {
                if let step = adoptSummary(options: options) { return step }
            }
            return finishBox(at: position, end: end, in: .meta, options: options)
        case .itemInfo(let end):
            // Versions 0 and 1 have no item type.
            let version = field.u8(0)
            let wide = version >= 3
            if version >= 2 && field.count >= (wide ? 14 : 12) {
                noteItem(id: wide ? field.be32(4) : UInt32(field.be16(4)), type: field.tag(wide ? 10 : 8))
            }
            return finishBox(at: position, end: end, in: .iinf, options: options)
        case .property(let end):
            recordProperty(propertyKind, field)
            return finishBox(at: position, end: end, in: .ipco, options: options)
        case .associationCount(let end):
            longItemIDs = field.u8(0) >= 1
            wideIndices = field.be32(0) & 1 == 1
            entriesLeft = field.be32(4)
            return nextEntry(at: position, end: end, options: options)
        case .associationEntry(let end):
            let id = longItemIDs ? field.be32(0) : UInt32(field.be16(0))
            let count = field.u8(longItemIDs ? 4 : 2)
            entriesLeft &-= 1
            let entryBytes = UInt64(count) &* (wideIndices ? 2 : 1)
            guard entryBytes <= end &- position else { return .failed(.malformed(.heif, Failure.ipmaEntryOverrunsItsBox)) }
            let relevant = hasPrimary ? id == primaryID : true
            if !relevant || count == 0 {
                if relevant, let step = resolveEntry(ItemSummary(id: id), options: options) { return step }
                return nextEntry(at: position &+ entryBytes, skipFrom: position, end: end, options: options)
            }
            current = ItemSummary(id: id)
            associationsLeft = count
            pendingCount = 0
            return associationRun(end: end, options: options)
        case .associations(let end):
            let width = wideIndices ? 2 : 1
            var index = 0
            while index < field.count {
                let raw = wideIndices ? field.be16(index) : UInt16(field.u8(index))
                let property = raw & (wideIndices ? 0x7FFF : 0x7F)  // the top bit is "essential"
                if let failure = associate(property) { return .failed(failure) }
                index &+= width
                associationsLeft &-= 1
            }
            // Dimensions only: the primary's ispe settles the answer; later associations can't
            // change the size (the first ispe wins).
            if options.dimensionsOnly && ipcoDone && hasPrimary && current.hasSize {
                if let step = resolveEntry(current, options: options) { return step }
            }
            if associationsLeft > 0 { return associationRun(end: end, options: options) }
            if let step = resolveEntry(current, options: options) { return step }
            return nextEntry(at: position, end: end, options: options)
        case .trackHeader(let end):
            let version = field.u8(0)
            if version == 1 {
                track.duration = field.be64(28)
            } else {
                let duration = field.be32(20)
                track.duration = duration == UInt32.max ? UInt64.max : UInt64(duration)
            }
            // Then reserved, layer, alternate group, volume and matrix: 52 bytes from the
            // duration's end, which is 12 bytes before this field's end in version 0.
            let sizeAt = position &+ (version == 1 ? 52 : 40)
            guard sizeAt <= end, end &- sizeAt >= 8 else { return finishBox(at: position, end: end, in: .trak, options: options) }
            phase = .trackSize(end: end)
            return .skipThenRead(sizeAt &- position, 8)
        case .trackSize(let end):
            track.width = field.be32(0) >> 16
            track.height = field.be32(4) >> 16
            return finishBox(at: position, end: end, in: .trak, options: options)
        case .editList(let end):
            let version = field.u8(0)
            let segment = version == 1 ? (field.count >= 16 ? field.be64(8) : 0) : UInt64(field.be32(8))
            noteEditList(flags: field.be32(0) & 0xFF_FFFF, count: field.be32(4), segment: segment)
            return finishBox(at: position, end: end, in: .edts, options: options)
        case .mediaHeader(let end):
            if field.u8(0) == 1 {
                if field.count >= 24 { track.timescale = field.be32(20) }
            } else {
                track.timescale = field.be32(12)
            }
            return finishBox(at: position, end: end, in: .mdia, options: options)
        case .handler(let end):
            let type = field.tag(8)
            track.isVisual = type == Box.pict || type == Box.vide
            return finishBox(at: position, end: end, in: .mdia, options: options)
        case .sampleDescription(let end):
            if track.isVisual && !track.isAuxiliary { noteCoding(field.tag(12)) }
            return finishBox(at: position, end: end, in: .stbl, options: options)
        case .timeToSampleCount(let end):
            let count = field.be32(4)
            guard UInt64(count) &* 8 <= end &- position else {
                return .failed(.malformed(decideFormat(), Failure.sttsEntriesOverrunTheirBox))
            }
            guard options.animation && !walkedFrames && !hasPrimaryTrack && track.qualifies && count > 0 else {
                return finishBox(at: position, end: end, in: .stbl, options: options)
            }
            walkedFrames = true
            entriesLeft = count
            phase = .timeToSampleEntry(end: end)
            return .read(8)
        case .timeToSampleEntry(let end):
            runFramesLeft = field.be32(0)
            runDelta = field.be32(4)
            entriesLeft &-= 1
            // Nothing after stts in this mdia matters (edts may still follow it).
            guard entriesLeft > 0 else { return finishBox(at: position, end: trackInnerEnd, in: .mdia, options: options) }
            boxes &+= 1
            guard boxes <= options.entryLimit else { return .failed(.limit(decideFormat(), .moreBoxesThanMaxEntries)) }
            _ = end
            return .read(8)
        }
    }

    /// `elst` with `tkhd`'s duration, as libavif reads them: without the repeat flag the
    /// sequence plays once; with it, one edit of `segment` plays ceil(duration / segment)
    /// times, and an indefinite duration forever. Anything else says nothing.
    @inlinable
    mutating func noteEditList(flags: UInt32, count: UInt32, segment: UInt64) {
        if flags & 1 == 0 {
            (track.loopCount, track.hasLoopCount) = (1, true)
            return
        }
        guard count == 1, segment != 0, track.duration != 0 else { return }
        track.hasLoopCount = true
        guard track.duration != UInt64.max else {
            track.loopCount = 0
            return
        }
        let plays = track.duration / segment &+ (track.duration % segment == 0 ? 0 : 1)
        track.loopCount = plays > UInt64(UInt32.max) ? 0 : UInt32(plays)
    }

    // MARK: - Boxes

    @inlinable
    func containerEnd(_ level: Level, _ options: ScanOptions) -> UInt64 {
        switch level {
        case .top: options.inputLength ?? UInt64.max
        case .meta: metaEnd
        case .iinf: iinfEnd
        case .iprp: iprpEnd
        case .ipco: ipcoEnd
        case .moov: moovEnd
        case .trak: trakEnd
        case .edts, .tref, .mdia: trackInnerEnd
        case .minf, .stbl: mediaInnerEnd
        }
    }

    @inlinable
    static func parent(_ level: Level) -> Level {
        switch level {
        case .top, .meta, .moov: .top
        case .iinf, .iprp: .meta
        case .ipco: .iprp
        case .trak: .moov
        case .edts, .tref, .mdia: .trak
        case .minf, .stbl: .mdia
        }
    }

    /// A box of `type` whose payload starts at `payload` and which ends at `end`.
    @inlinable @inline(__always)
    mutating func enter(_ type: UInt32, in level: Level, payload: UInt64, end: UInt64, options: ScanOptions) -> Step {
        guard end >= payload, end <= containerEnd(level, options) || level == .top else {
            return .failed(.malformed(.heif, Failure.boxOverrunsItsContainer))
        }
        boxes &+= 1
        guard boxes <= options.entryLimit else { return .failed(.limit(.heif, .moreBoxesThanMaxEntries)) }
        let room = end &- payload
        switch level {
        case .top:
            // Boxes inside stay inside their container, so the top level settles the rule of
            // SPEC.md §3, "Containers", for all of them.
            guard !options.runsPastInput(end) else { return .failed(.malformed(.heif, .boxOrChunkRunsPastTheEndOfTheInput)) }
            if type == Box.meta && !metaStarted {
                guard level.depth + 1 <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                guard room >= 4 else { return .failed(.malformed(.heif, Failure.metaBoxTooSmall)) }
                metaEnd = end
                metaStarted = true
                return readFullBox(.meta, end: end)
            }
            if type == Box.moov && hasSequenceBrand && !moovDone {
                guard Level.moov.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                moovEnd = end
                return nextHeader(in: .moov, at: payload, skipFrom: payload, options: options)
            }
            // Nothing follows a box that runs to the end of the file.
            guard end != UInt64.max else { return endOfBoxes() }
        case .meta:
            switch type {
            case Box.pitm where room >= 6:
                phase = .primaryItem(end: end)
                return .read(Int(truncatingIfNeeded: min(room, 8)))
            case Box.iinf where room >= 6 && !Self.brandSettlesFormat(majorBrand):
                // Item types only matter when the major brand doesn't name the coding.
                guard Level.iinf.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                iinfEnd = end
                return readFullBox(.iinf, end: end)
            case Box.iprp:
                guard Level.iprp.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                iprpEnd = end
                return nextHeader(in: .iprp, at: payload, skipFrom: payload, options: options)
            default: break
            }
        case .iinf:
            if type == Box.infe && room >= 4 {
                phase = .itemInfo(end: end)
                return .read(Int(truncatingIfNeeded: min(room, 14)))
            }
        case .iprp:
            switch type {
            case Box.ipco:
                guard Level.ipco.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                ipcoEnd = end
                propertiesSeen = 0
                return nextHeader(in: .ipco, at: payload, skipFrom: payload, options: options)
            case Box.ipma where room >= 8:
                phase = .associationCount(end: end)
                return .read(8)
            default: break
            }
        case .moov:
            if type == Box.trak && !hasPrimaryTrack {
                guard Level.trak.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                trakEnd = end
                track = TrackSummary()
                return nextHeader(in: .trak, at: payload, skipFrom: payload, options: options)
            }
        case .trak:
            switch type {
            case Box.tkhd where room >= 84:
                phase = .trackHeader(end: end)
                return .read(36)
            case Box.tref, Box.edts, Box.mdia:
                return openTrackContainer(type == Box.tref ? .tref : type == Box.edts ? .edts : .mdia, payload: payload, end: end, options: options)
            default: break
            }
        case .tref:
            // Alpha and depth tracks refer to the colour track with auxl.
            if type == Box.auxl { track.isAuxiliary = true }
        case .edts:
            if type == Box.elst && room >= 12 {
                phase = .editList(end: end)
                return .read(Int(truncatingIfNeeded: min(room, 16)))
            }
        case .mdia:
            switch type {
            case Box.mdhd where room >= 16:
                phase = .mediaHeader(end: end)
                return .read(Int(truncatingIfNeeded: min(room, 24)))
            case Box.hdlr where room >= 12:
                phase = .handler(end: end)
                return .read(12)
            case Box.minf:
                return openTrackContainer(.minf, payload: payload, end: end, options: options)
            default: break
            }
        case .minf:
            if type == Box.stbl { return openTrackContainer(.stbl, payload: payload, end: end, options: options) }
        case .stbl:
            switch type {
            case Box.stsd where room >= 16:
                phase = .sampleDescription(end: end)
                return .read(16)
            case Box.stts where room >= 8:
                phase = .timeToSampleCount(end: end)
                return .read(8)
            default: break
            }
        case .ipco:
            // Every child of ipco is a property and takes the next index, known or not.
            guard propertiesSeen < 0x7FFF else { return .failed(.limit(.heif, Failure.moreThan32767Properties)) }
            propertiesSeen &+= 1
            guard Level.ipco.depth + 1 <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
            switch type {
            case Box.ispe where room >= 12:
                propertyKind = .ispe
                phase = .property(end: end)
                return .read(12)
            case Box.pixi where room >= 6:
                propertyKind = .pixi
                phase = .property(end: end)
                return .read(6)
            case Box.irot where room >= 1:
                propertyKind = .irot
                phase = .property(end: end)
                return .read(1)
            case Box.imir where room >= 1:
                propertyKind = .imir
                phase = .property(end: end)
                return .read(1)
            case Box.clap where room >= 32:
                propertyKind = .clap
                phase = .property(end: end)
                return .read(32)
            default: break
            }
        }
        return finishBox(at: payload, end: end, in: level, options: options)
    }

    /// A container inside `trak`; `minf` and `stbl` share one end (see `mediaInnerEnd`).
    @inlinable
    mutating func openTrackContainer(_ level: Level, payload: UInt64, end: UInt64, options: ScanOptions) -> Step {
        guard level.depth <= options.maxDepth else { return .failed(.limit(decideFormat(), .boxesNestedDeeperThanMaxDepth)) }
        if level == .minf || level == .stbl { mediaInnerEnd = end } else { trackInnerEnd = end }
        return nextHeader(in: level, at: payload, skipFrom: payload, options: options)
    }

    /// The top-level boxes are over: the answer if there is one.
    @inlinable
    func endOfBoxes() -> Step {
        if hasMetaAnswer || hasPrimaryTrack { return .done }
        return .failed(.malformed(.heif, Failure.noMetaBoxBeforeTheEndOfTheFile))
    }

    @inlinable
    mutating func readFullBox(_ box: FullBox, end: UInt64) -> Step {
        fullBoxKind = box
        phase = .fullBox(end: end)
        return .read(4)
    }

    @inlinable
    mutating func fullBox(
        _ box: FullBox, version: UInt8, flags: UInt32, at position: UInt64, end: UInt64, options: ScanOptions
    ) -> Step {
        switch box {
        case .meta:
            return nextHeader(in: .meta, at: position, skipFrom: position, options: options)
        case .iinf:
            // The entry count is implied by the infe boxes that follow.
            let countWidth: UInt64 = version == 0 ? 2 : 4
            guard end &- position >= countWidth else { return finishBox(at: position, end: end, in: .meta, options: options) }
            return nextHeader(in: .iinf, at: position &+ countWidth, skipFrom: position, options: options)
        }
    }

    /// Whether the major brand alone decides between AVIF and other HEIF.
    @inlinable
    static func brandSettlesFormat(_ brand: UInt32) -> Bool {
        Brand.isAVIF(brand) || Brand.isCodingSpecific(brand)
    }

    /// Skips the rest of a box ending at `end`, then continues in `level`.
    @inlinable @inline(__always)
    mutating func finishBox(at position: UInt64, end: UInt64, in level: Level, options: ScanOptions) -> Step {
        nextHeader(in: level, at: end, skipFrom: position, options: options)
    }

    /// The next box header in `level` at `start`, closing every container that ends there.
    /// The usual case, another box in the same container, is inlined; closing containers is not.
    @inlinable @inline(__always)
    mutating func nextHeader(in level: Level, at start: UInt64, skipFrom position: UInt64, options: ScanOptions) -> Step {
        if level != .top {
            let end = containerEnd(level, options)
            // Fewer than 8 bytes left cannot hold another box: treat them as padding.
            if start < end && end &- start >= 8 { return header(in: level, at: start, skipFrom: position) }
        }
        return closeContainers(from: level, at: start, skipFrom: position, options: options)
    }

    /// Reads the box header at `start`, skipping from `position`.
    @inlinable @inline(__always)
    mutating func header(in level: Level, at start: UInt64, skipFrom position: UInt64) -> Step {
        phase = .header(level)
        guard start >= position else { return .failed(.malformed(.heif, Failure.boxOverlapsTheOneBefore)) }
        return start == position ? .read(8) : .skipThenRead(start &- position, 8)
    }

    /// `nextHeader` when `start` is at or near the end of `level`: closes containers up to the
    /// one that has room for another box.
    @usableFromInline @inline(never)
    mutating func closeContainers(from level: Level, at start: UInt64, skipFrom position: UInt64, options: ScanOptions) -> Step {
        var level = level
        var start = start
        // Each round closes one container and moves up a level, so this runs at most five times.
        while level != .top {
            let end = containerEnd(level, options)
            guard start >= end || end &- start < 8 else { break }
            if let step = close(level, options: options) { return step }
            // The rest of mdia holds nothing the scan needs once minf ends.
            if level == .minf || level == .stbl { start = max(start, trackInnerEnd) }
            level = Self.parent(level)
        }
        if level == .top, let length = options.inputLength, start >= length || length &- start < 8 {
            return endOfBoxes()
        }
        return header(in: level, at: start, skipFrom: position)
    }

    /// Called when a container ends; returns a step when that settles the scan.
    @inlinable
    mutating func close(_ level: Level, options: ScanOptions) -> Step? {
        switch level {
        case .top:
            return nil
        case .ipco:
            ipcoDone = true
            // The primary's associations came first (see `associate`): resolve them now.
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
                if let failure = apply(index, to: &summary) { return .failed(failure) }
            }
            pendingCount = 0
            return resolveEntry(summary, options: options)
        case .iinf:
            itemInfoDone = true
            return answerIfReady(final: false, options: options)
        case .iprp, .edts, .tref, .mdia, .minf, .stbl:
            return nil
        case .trak:
            guard !hasPrimaryTrack && track.qualifies else { return nil }
            guard options.admits(width: UInt64(track.width), height: UInt64(track.height)) else {
                return .failed(.tooLarge(decideFormat()))
            }
            hasPrimaryTrack = true
            // Full mode: with no meta before it, the primary track is the image.
            return !options.animation && !metaStarted ? .done : nil
        case .moov:
            moovDone = true
            if hasMetaAnswer { return formatSettled ? .done : nil }
            return hasPrimaryTrack ? .done : nil
        case .meta:
            if let step = answerIfReady(final: true, options: options) { return step }
            // Animation mode waits for the frames; a sequence without a usable primary item
            // (libheif writes sequences with no meta at all) may still have a primary track.
            if hasMetaAnswer || (hasSequenceBrand && !moovDone) { return nil }
            if hasPrimaryTrack { return .done }
            if !hasPrimary { return .failed(.malformed(decideFormat(), Failure.noPrimaryItemPitm)) }
            if summariesOverflowed && !primaryResolved { return .failed(.limit(decideFormat(), Failure.moreItemsThanTheScannerTracksBeforePitm)) }
            return .failed(.malformed(decideFormat(), Failure.primaryItemHasNoIspeProperty))
        }
    }

    // MARK: - ftyp

    @inlinable
    mutating func nextBrand(at position: UInt64, end: UInt64, options: ScanOptions) -> Step {
        guard end &- position >= 4, end > position else {
            guard hasImageBrand else { return .failed(Self.unknownBrand) }
            return nextHeader(in: .top, at: end, skipFrom: position, options: options)
        }
        boxes &+= 1
        guard boxes <= options.entryLimit else { return .failed(.limit(.heif, Failure.moreBrandsThanMaxEntries)) }
        phase = .compatibleBrand(end: end)
        return .read(4)
    }

    @inlinable
    mutating func noteBrand(_ brand: UInt32) {
        if Brand.isImage(brand) { hasImageBrand = true }
        if Brand.isSequence(brand) { hasSequenceBrand = true }
    }

    // MARK: - Items and properties

    @inlinable
    mutating func noteItem(id: UInt32, type: UInt32) {
        noteCoding(type)
        if hasPrimary && id == primaryID { primaryType = type }
    }

    /// An item's type or a sample entry's: which codings the file uses.
    @inlinable
    mutating func noteCoding(_ type: UInt32) {
        switch type {
        case Brand.av01: sawAV1Item = true
        case Brand.hvc1, Brand.hev1, Brand.vvc1, Brand.avc1, Brand.jpeg, Brand.j2k1: sawOtherCodedItem = true
        default: break
        }
    }

    @inlinable
    mutating func recordProperty(_ kind: PropertyKind, _ field: FieldBytes) {
        let index = propertiesSeen
        let start = Int(journal.count)
        var fits: Bool
        switch kind {
        case .none:
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
            fits = record(.clap, index)
            // widthN/D, heightN/D, then the offsets, whose numerators are signed.
            for value in 0..<8 where fits {
                let raw = field.be32(value &* 4)
                fits = journal.appendVarint(value == 4 || value == 6 ? Self.zigzag(raw) : raw)
            }
        }
        if fits {
            closeRecord(startingAt: start)
        } else {
            journal.count = UInt8(truncatingIfNeeded: start)
            drop(index)
        }
    }

    /// Starts a record of `kind` for `key` (a property index or an item id); the length byte
    /// is set by `closeRecord`.
    @inlinable
    mutating func record(_ kind: RecordKind, _ key: UInt32) -> Bool {
        journal.append(kind.rawValue) && journal.append(0) && journal.appendVarint(key)
    }

    @inlinable
    mutating func record(_ kind: RecordKind, _ index: UInt16) -> Bool {
        record(kind, UInt32(index))
    }

    /// Writes the length of the record that starts at `start` and ends at the journal's end.
    @inlinable
    mutating func closeRecord(startingAt start: Int) {
        journal.set(UInt8(truncatingIfNeeded: Int(journal.count) &- start &- 2), at: start &+ 1)
    }

    /// A signed 32-bit number as an unsigned one with small magnitudes small.
    @inlinable
    static func zigzag(_ raw: UInt32) -> UInt32 {
        let value = Int32(bitPattern: raw)
        return UInt32(bitPattern: (value &<< 1) ^ (value >> 31))
    }

    @inlinable
    static func unzigzag(_ encoded: UInt32) -> Int32 {
        Int32(bitPattern: encoded >> 1) ^ -Int32(bitPattern: encoded & 1)
    }

    /// The offset just past the record at `offset`.
    @inlinable @inline(__always)
    mutating func skipRecord(at offset: Int) -> Int {
        offset &+ 2 &+ Int(journal.byte(at: offset &+ 1))
    }

    /// A relevant property didn't fit: any later association with an index this high is
    /// ambiguous and ends the scan with a limit, never a guess.
    @inlinable
    mutating func drop(_ index: UInt16) {
        if firstDroppedProperty == 0 { firstDroppedProperty = index }
    }

    /// One association of the item being read.
    @inlinable
    mutating func associate(_ index: UInt16) -> ScanFailure? {
        guard index != 0 else { return nil }
        if ipcoDone { return applyToCurrent(index) }
        // Associations before the properties (against the specification's order): keep them.
        guard hasPrimary && current.id == primaryID else {
            return ScanFailure(.unsupportedFeature, Failure.ipmaBeforeIpcoAndPitmAfterBoth, format: decideFormat())
        }
        let start = Int(journal.count)
        guard record(.pending, index) else {
            journal.count = UInt8(truncatingIfNeeded: start)
            return .limit(decideFormat(), Failure.tooManyAssociationsBeforeIpco)
        }
        closeRecord(startingAt: start)
        pendingCount &+= 1
        return nil
    }

    /// Applies property `index` to `summary`, in association order.
    @inlinable
    mutating func apply(_ index: UInt16, to summary: inout ItemSummary) -> ScanFailure? {
        var offset = 0
        let end = Int(journal.count)
        while offset < end {
            let start = offset
            let kind = RecordKind(rawValue: journal.byte(at: offset))
            var cursor = offset &+ 2
            let key = journal.varint(at: &cursor)
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
            case .pending, .summary, nil:
                continue  // not a property
            }
            return nil
        }
        if firstDroppedProperty != 0 && index >= firstDroppedProperty {
            return .limit(decideFormat(), Failure.moreItemPropertiesThanTheScannerTracks)
        }
        return nil  // an index to a property nobody needs (or to nothing at all)
    }

    /// Applies property `index` to the item being read.
    @inlinable
    mutating func applyToCurrent(_ index: UInt16) -> ScanFailure? {
        var summary = current
        defer { current = summary }
        return apply(index, to: &summary)
    }

    /// The width and height of the ispe record `summary` names.
    @inlinable
    func size(of summary: ItemSummary) -> (width: UInt32, height: UInt32) {
        guard summary.hasSize else { return (0, 0) }
        var size: (width: UInt32, height: UInt32) = (0, 0)
        // The record's key (its property index), then the width and height.
        journal.varints(from: Int(summary.sizeRecord) &+ 1, count: 3) { index, value in
            if index == 1 { size.width = value }
            if index == 2 { size.height = value }
        }
        return size
    }

    /// The next associations: in runs of up to 64 bytes, or one at a time for the known
    /// primary in dimensions-only mode, so the answer comes right after its ispe.
    @inlinable
    mutating func associationRun(end: UInt64, options: ScanOptions) -> Step {
        let perRead = options.dimensionsOnly && hasPrimary ? 1 : (wideIndices ? 32 : 64)
        let count = min(Int(associationsLeft), perRead)
        phase = .associations(end: end)
        return .read(count * (wideIndices ? 2 : 1))
    }

    @inlinable @inline(__always)
    mutating func nextEntry(at position: UInt64, skipFrom: UInt64? = nil, end: UInt64, options: ScanOptions) -> Step {
        let from = skipFrom ?? position
        guard entriesLeft > 0 else { return finishBox(at: from, end: end, in: .iprp, options: options) }
        let entryWidth: UInt64 = longItemIDs ? 5 : 3
        guard position <= end, end &- position >= entryWidth else {
            return .failed(.malformed(decideFormat(), Failure.ipmaEntriesOverrunTheirBox))
        }
        boxes &+= 1
        guard boxes <= options.entryLimit else { return .failed(.limit(decideFormat(), Failure.moreIpmaEntriesThanMaxEntries)) }
        phase = .associationEntry(end: end)
        let width = Int(truncatingIfNeeded: entryWidth)  // 3 or 5
        return position == from ? .read(width) : .skipThenRead(position &- from, width)
    }

    /// The associations of `summary`'s item are all read.
    @inlinable
    mutating func resolveEntry(_ summary: ItemSummary, options: ScanOptions) -> Step? {
        if !ipcoDone && hasPrimary && summary.id == primaryID && pendingCount > 0 {
            current = summary
            return nil  // resolved when ipco ends
        }
        if hasPrimary {
            guard summary.id == primaryID else { return nil }
            return adopt(summary, options: options)
        }
        // pitm comes later: remember every item.
        let start = Int(journal.count)
        guard record(.summary, summary.id)
            && journal.append(summary.sizeRecord) && journal.append(summary.transform)
            && journal.append(summary.apertureRecord) && journal.append(summary.bitDepth)
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
    @inlinable
    mutating func adoptSummary(options: ScanOptions) -> Step? {
        var offset = 0
        while offset < Int(journal.count) {
            let kind = journal.byte(at: offset)
            var cursor = offset &+ 2
            offset = skipRecord(at: offset)
            guard kind == RecordKind.summary.rawValue, journal.varint(at: &cursor) == primaryID else { continue }
            var summary = ItemSummary(id: primaryID)
            summary.sizeRecord = journal.byte(at: cursor)
            summary.transform = journal.byte(at: cursor &+ 1)
            summary.apertureRecord = journal.byte(at: cursor &+ 2)
            summary.bitDepth = journal.byte(at: cursor &+ 3)
            return adopt(summary, options: options)
        }
        if summariesOverflowed { return .failed(.limit(decideFormat(), Failure.moreItemsThanTheScannerTracksBeforePitm)) }
        return nil
    }

    /// Takes `summary` as the primary item's, once its size passes the checks: only then does
    /// the size count as known (for partial answers too).
    @inlinable
    mutating func adopt(_ summary: ItemSummary, options: ScanOptions) -> Step? {
        if summary.hasSize {
            let (width, height) = size(of: summary)
            guard width != 0 && height != 0 else { return .failed(.malformed(decideFormat(), Failure.ispeSizeIsZero)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else {
                return .failed(.tooLarge(decideFormat()))
            }
        }
        primary = summary
        primaryResolved = true
        return answerIfReady(final: false, options: options)
    }

    /// The answer, once the primary item's properties and the format are known. `final` at the
    /// end of `meta`, when what is known must do.
    @inlinable
    mutating func answerIfReady(final: Bool, options: ScanOptions) -> Step? {
        guard hasMetaAnswer else { return nil }
        if !final && !formatSettled { return nil }
        return awaitingTrack(options) ? nil : .done
    }

    /// Whether more boxes could still change the format decision.
    @inlinable
    var formatSettled: Bool {
        if Brand.isAVIF(majorBrand) || Brand.isCodingSpecific(majorBrand) { return true }
        return primaryType != 0 || itemInfoDone
    }

    /// AVIF for the AVIF brands; HEIF for brands of other codings; otherwise (generic brands
    /// such as mif1) by the primary item's type, then by the items and compatible brands.
    @inlinable
    func decideFormat() -> ImageFormat {
        if Brand.isAVIF(majorBrand) { return .avif }
        if Brand.isCodingSpecific(majorBrand) { return .heif }
        switch primaryType {
        case Brand.av01: return .avif
        case Brand.hvc1, Brand.hev1, Brand.vvc1, Brand.avc1, Brand.jpeg, Brand.j2k1: return .heif
        default: return (sawAV1Item && !sawOtherCodedItem) || (compatibleWithAVIF && !sawOtherCodedItem) ? .avif : .heif
        }
    }

    @inlinable
    func makeInfo() -> ImageInfo {
        // The primary item, or the primary track in a sequence without one.
        let (width, height) = hasMetaAnswer ? size(of: primary) : (track.width, track.height)
        var info = ImageInfo(ImageFacts(format: decideFormat()))
        info.facts.storedWidth = width
        info.facts.storedHeight = height
        // An image sequence is the file's main content when the major brand says so; AVIF and
        // HEIF require the sequence brands for files that carry one (AV1-ISOBMFF §4, ISO/IEC
        // 23008-12 §10.3), so any other major brand means the primary still image.
        info.isAnimated = Brand.isSequence(majorBrand)
        if hasPrimaryTrack && track.hasLoopCount { info.facts.storedLoopCount = track.loopCount }
        guard hasMetaAnswer else { return info }
        info.orientation = primary.orientation
        if primary.bitDepth != 0 { info.bitDepth = Int(primary.bitDepth) }
        if primary.apertureRecord != 0 {
            var values: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0)
            // The record's key (its property index), then the eight numbers.
            journal.varints(from: Int(primary.apertureRecord) &+ 1, count: 9) { index, value in
                switch index {
                case 1: values.0 = value
                case 2: values.1 = value
                case 3: values.2 = value
                case 4: values.3 = value
                case 5: values.4 = value
                case 6: values.5 = value
                case 7: values.6 = value
                case 8: values.7 = value
                default: break
                }
            }
            info.cleanAperture = CleanAperture(
                widthN: values.0, widthD: values.1, heightN: values.2, heightD: values.3,
                horizontalOffsetN: Self.unzigzag(values.4), horizontalOffsetD: values.5,
                verticalOffsetN: Self.unzigzag(values.6), verticalOffsetD: values.7,
                imageWidth: info.width, imageHeight: info.height)
        }
        return info
    }

    // MARK: - Codes

    @usableFromInline
    enum Box {
        @usableFromInline static let meta: UInt32 = 0x6D65_7461  // "meta"
        @usableFromInline static let pitm: UInt32 = 0x7069_746D  // "pitm"
        @usableFromInline static let iinf: UInt32 = 0x6969_6E66  // "iinf"
        @usableFromInline static let infe: UInt32 = 0x696E_6665  // "infe"
        @usableFromInline static let iprp: UInt32 = 0x6970_7270  // "iprp"
        @usableFromInline static let ipco: UInt32 = 0x6970_636F  // "ipco"
        @usableFromInline static let ipma: UInt32 = 0x6970_6D61  // "ipma"
        @usableFromInline static let ispe: UInt32 = 0x6973_7065  // "ispe"
        @usableFromInline static let irot: UInt32 = 0x6972_6F74  // "irot"
        @usableFromInline static let imir: UInt32 = 0x696D_6972  // "imir"
        @usableFromInline static let clap: UInt32 = 0x636C_6170  // "clap"
        @usableFromInline static let pixi: UInt32 = 0x7069_7869  // "pixi"
        @usableFromInline static let moov: UInt32 = 0x6D6F_6F76  // "moov"
        @usableFromInline static let trak: UInt32 = 0x7472_616B  // "trak"
        @usableFromInline static let tkhd: UInt32 = 0x746B_6864  // "tkhd"
        @usableFromInline static let tref: UInt32 = 0x7472_6566  // "tref"
        @usableFromInline static let auxl: UInt32 = 0x6175_786C  // "auxl"
        @usableFromInline static let edts: UInt32 = 0x6564_7473  // "edts"
        @usableFromInline static let elst: UInt32 = 0x656C_7374  // "elst"
        @usableFromInline static let mdia: UInt32 = 0x6D64_6961  // "mdia"
        @usableFromInline static let mdhd: UInt32 = 0x6D64_6864  // "mdhd"
        @usableFromInline static let hdlr: UInt32 = 0x6864_6C72  // "hdlr"
        @usableFromInline static let minf: UInt32 = 0x6D69_6E66  // "minf"
        @usableFromInline static let stbl: UInt32 = 0x7374_626C  // "stbl"
        @usableFromInline static let stsd: UInt32 = 0x7374_7364  // "stsd"
        @usableFromInline static let stts: UInt32 = 0x7374_7473  // "stts"
        /// Handler types of image sequences (HEIF §7.1) and video.
        @usableFromInline static let pict: UInt32 = 0x7069_6374  // "pict"
        @usableFromInline static let vide: UInt32 = 0x7669_6465  // "vide"
    }

    @usableFromInline
    enum Brand {
        @usableFromInline static let avif: UInt32 = 0x6176_6966  // "avif"
        @usableFromInline static let avis: UInt32 = 0x6176_6973  // "avis"
        @usableFromInline static let avio: UInt32 = 0x6176_696F  // "avio"
        @usableFromInline static let msf1: UInt32 = 0x6D73_6631  // "msf1"
        @usableFromInline static let av01: UInt32 = 0x6176_3031  // "av01"
        @usableFromInline static let hvc1: UInt32 = 0x6876_6331  // "hvc1"
        @usableFromInline static let hev1: UInt32 = 0x6865_7631  // "hev1"
        @usableFromInline static let vvc1: UInt32 = 0x7676_6331  // "vvc1"
        @usableFromInline static let avc1: UInt32 = 0x6176_6331  // "avc1"
        @usableFromInline static let jpeg: UInt32 = 0x6A70_6567  // "jpeg"
        @usableFromInline static let j2k1: UInt32 = 0x6A32_6B31  // "j2k1"

        @inlinable
        static func isAVIF(_ brand: UInt32) -> Bool { brand == avif || brand == avis || brand == avio }

        /// Brands that name a coding other than AV1 (HEVC, VVC, AVC, JPEG, JPEG 2000).
        @inlinable
        static func isCodingSpecific(_ brand: UInt32) -> Bool {
            switch brand {
            case 0x6865_6963, 0x6865_6978, 0x6865_696D, 0x6865_6973,  // heic heix heim heis
                0x6865_7663, 0x6865_7678, 0x6865_766D, 0x6865_7673,  // hevc hevx hevm hevs
                0x7676_6963, 0x7676_6973, 0x6176_6369, 0x6176_6373,  // vvic vvis avci avcs
                0x6A32_6B69, 0x6A32_6973, 0x6A70_6567, 0x6A70_6773:  // j2ki j2is jpeg jpgs
                return true
            default:
                return false
            }
        }

        /// Brands of image sequences: AVIF's avis, HEIF's msf1 and the coding-specific
        /// sequence brands (ISO/IEC 23008-12 Annex B to E: hevc hevx hevs, avcs, vvis, j2is,
        /// jpgs).
        @inlinable
        static func isSequence(_ brand: UInt32) -> Bool {
            switch brand {
            case avis, msf1,
                0x6865_7663, 0x6865_7678, 0x6865_7673,  // hevc hevx hevs
                0x6176_6373, 0x7676_6973, 0x6A32_6973, 0x6A70_6773:  // avcs vvis j2is jpgs
                return true
            default:
                return false
            }
        }

        /// Brands that say the file holds HEIF images or image sequences.
        @inlinable
        static func isImage(_ brand: UInt32) -> Bool {
            switch brand {
            case 0x6D69_6631, 0x6D69_6632, 0x6D73_6631, 0x6D69_6166:  // mif1 mif2 msf1 miaf
                return true
            default:
                return isAVIF(brand) || isCodingSpecific(brand)
            }
        }
    }
}

extension ISOBMFFParser {
    /// Why ISOBMFF input can't be read: each failure with its message (SPEC.md §3).
    @usableFromInline
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case isobmffFileWithoutAnImageBrand
        case ipmaBeforeIpcoAndPitmAfterBoth
        case bad64BitBoxSize
        case ipmaEntryOverrunsItsBox
        case boxOverrunsItsContainer
        case metaBoxTooSmall
        case noMetaBoxBeforeTheEndOfTheFile
        case boxOverlapsTheOneBefore
        case noPrimaryItemPitm
        case primaryItemHasNoIspeProperty
        case ipmaEntriesOverrunTheirBox
        case ispeSizeIsZero
        case moreThan32767Properties
        case moreItemsThanTheScannerTracksBeforePitm
        case moreBrandsThanMaxEntries
        case tooManyAssociationsBeforeIpco
        case moreItemPropertiesThanTheScannerTracks
        case moreIpmaEntriesThanMaxEntries
        case sttsEntriesOverrunTheirBox

        @inlinable
        static var owner: UInt8 { ISOBMFFParser.kind.rawValue }

        /// The message: a literal, so reading it allocates nothing.
        @inlinable
        var message: String {
            switch self {
            case .isobmffFileWithoutAnImageBrand: "ISOBMFF file without an image brand"
            case .ipmaBeforeIpcoAndPitmAfterBoth: "ipma before ipco, and pitm after both"
            case .bad64BitBoxSize: "bad 64-bit box size"
            case .ipmaEntryOverrunsItsBox: "ipma entry overruns its box"
            case .boxOverrunsItsContainer: "box overruns its container"
            case .metaBoxTooSmall: "meta box too small"
            case .noMetaBoxBeforeTheEndOfTheFile: "no meta box before the end of the file"
            case .boxOverlapsTheOneBefore: "box overlaps the one before"
            case .noPrimaryItemPitm: "no primary item (pitm)"
            case .primaryItemHasNoIspeProperty: "primary item has no ispe property"
            case .ipmaEntriesOverrunTheirBox: "ipma entries overrun their box"
            case .ispeSizeIsZero: "ispe size is zero"
            case .moreThan32767Properties: "more than 32767 properties"
            case .moreItemsThanTheScannerTracksBeforePitm: "more items than the scanner tracks before pitm"
            case .moreBrandsThanMaxEntries: "more brands than maxEntries"
            case .tooManyAssociationsBeforeIpco: "too many associations before ipco"
            case .moreItemPropertiesThanTheScannerTracks: "more item properties than the scanner tracks"
            case .moreIpmaEntriesThanMaxEntries: "more ipma entries than maxEntries"
            case .sttsEntriesOverrunTheirBox: "stts entries overrun their box"
            }
        }
    }
}
