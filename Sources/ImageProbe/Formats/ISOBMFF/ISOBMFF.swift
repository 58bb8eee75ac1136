#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
/// HEIF and AVIF (ISO/IEC 23008-12, MIAF ISO/IEC 23000-22, AV1 Image File Format): boxes of
/// ISO/IEC 14496-12.
///
/// The size is the `ispe` property that `ipma` associates with the primary item that `pitm`
/// names: not the first or the largest `ispe`, which belongs to a tile or a thumbnail as often
/// as not. The orientation composes the primary item's `irot` (anticlockwise quarter turns) and
/// `imir` properties in association order, and is reported in EXIF numbering (SPEC.md §3.8).
///
/// The parser walks the box tree with a `BoxWalker` and routes the boxes it needs to three
/// sub-machines: `Brands` reads `ftyp` and decides AVIF or HEIF, `ItemProperties` reads the
/// items of `meta` (`pitm`, `iinf`, `ipco`, `ipma`), and `PrimaryTrack` reads the track of an
/// image sequence's `moov`. Boxes the scanner doesn't need, `mdat` above all, are skipped by
/// their size: a `meta` after a large `mdat` costs a seeking reader one jump.
struct ISOBMFFParser: FormatParser, Sendable {

    /// The containers the parser descends into; anything else is skipped whole.
    enum Level: UInt8, Sendable {
        case top, meta, iinf, iprp, ipco
        /// Full mode, a grid primary: the item references, for the grid's first tile.
        case iref
        case moov, trak, edts, tref, mdia, minf, stbl

        /// The depth of the walker's stack at which this container's end is kept.
        var depth: Int {
            switch self {
            case .top: 0
            case .meta, .moov: 1
            case .iinf, .iprp, .iref, .trak: 2
            case .ipco, .edts, .tref, .mdia: 3
            case .minf: 4
            case .stbl: 5
            }
        }

        var parent: Level {
            switch self {
            case .top, .meta, .moov: .top
            case .iinf, .iprp, .iref: .meta
            case .ipco: .iprp
            case .trak: .moov
            case .edts, .tref, .mdia: .trak
            case .minf: .mdia
            case .stbl: .minf
            }
        }
    }

    /// What the next field is. The walk's phases, then each sub-machine's, in one enum without
    /// payloads, so that a field costs one dispatch.
    enum Phase: UInt8, Sendable {
        /// A box's 32-bit size and type, inside the container `level`.
        case header
        /// The 64-bit size of a box in `level` whose 32-bit size was 1 (its type:
        /// `walker.pendingType`).
        case largeSize
        /// The FullBox version and flags of `meta`, `iinf` or `iref`.
        case metaFullBox, itemInfoFullBox, referenceFullBox

        // Brands: ftyp.
        case ftypLargeSize, ftypHead, compatibleBrand

        // ItemProperties: pitm, infe, the properties of ipco, ipma.
        case primaryItem, itemInfo, property, associationCount, associationEntry, associations
        /// The start of an `iref` reference box: from, count and the first to item.
        case reference

        // PrimaryTrack: tkhd, elst, mdhd, hdlr, stsd, stts.
        case trackHeader, trackSize, editList, mediaHeader, handler, sampleDescription
        case timeToSampleCount, timeToSampleEntry
    }

    // Declared in this order so that the parser packs into the scanner's 256-byte slot: the
    // walker and the track are 8-aligned, the items 4-aligned, then `brands` (2-aligned) and
    // single bytes (LayoutTests checks the fit).
    var walker = BoxWalker()
    var items = ItemProperties()
    var track = PrimaryTrack()
    var brands = Brands()
    var phase: Phase
    /// The container whose children the walk reads.
    var level = Level.top

    /// The facts, from the answer this parser builds its own way.
    var facts: ImageFacts { info.facts }

    var info: ImageInfo { makeInfo() }

    @inline(__always)
    init(firstBoxSize: UInt32) {
        phase = firstBoxSize == 1 ? .ftypLargeSize : .ftypHead
        walker.boxEnd = UInt64(firstBoxSize)
    }

    init(sniffed: Sniffed) {
        guard case .box(let size) = sniffed else { self.init(firstBoxSize: 0); return }  // defensive: routed by its box
        self.init(firstBoxSize: size)
    }

    var firstStep: Step { .read(8) }

    var format: ImageFormat? { brands.hasImageBrand ? brands.format : nil }

    /// A partial answer needs the primary's checked size and a settled format: a format
    /// guessed before the item types are known would not be "certain".
    func infoAtEndOfInput() -> ImageInfo? {
        if items.hasAnswer { return items.formatSettled(brands) ? makeInfo() : nil }
        return track.hasPrimaryTrack ? makeInfo() : nil
    }

    static var emitsFrames: Bool { true }

    mutating func takeFrame() -> PendingFrames? { track.takeFrame() }

    static let unknownBrand = ScanFailure(.unknownFormat, Failure.isobmffFileWithoutAnImageBrand)

    // MARK: - Parsing

    @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        let position = offset &+ field.span
        let outcome: Outcome
        switch phase {
        case .header:
            let type = field.tag(4)
            switch BoxWalker.size(field.be32(0)) {
            case .payload(let payload):
                return enter(type, in: level, payload: position, end: position &+ payload, options: options)
            case .toEnd:
                return enter(type, in: level, payload: position, end: containerEnd(level, options), options: options)
            case .large:
                walker.pendingType = type
                phase = .largeSize
                return .read(8)
            case .tooSmall:
                if level == .iref { return leaveReferences(from: position, options: options) }
                return .failed(.malformed(.heif, .boxSmallerThanItsHeader))
            }
        case .largeSize:
            guard let end = BoxWalker.largeEnd(field.be64(0), start: offset &- 8) else {
                if level == .iref { return leaveReferences(from: position, options: options) }
                return .failed(.malformed(.heif, Failure.bad64BitBoxSize))
            }
            return enter(walker.pendingType, in: level, payload: position, end: end, options: options)
        case .ftypLargeSize:
            outcome = Brands.largeSize(field, walker: &walker)
        case .ftypHead:
            outcome = brands.head(field, at: offset, options: options, walker: &walker)
        case .compatibleBrand:
            outcome = brands.compatible(field, at: offset, options: options, walker: &walker)
        case .primaryItem:
            outcome = items.primaryItem(field, at: offset, options: options, brands, trackDone: track.moovDone)
        case .itemInfo:
            outcome = items.itemInfo(field, at: offset, brands: &brands)
        case .reference:
            items.reference(field)
            // The first tile is all iref is read for.
            if items.hasFirstTile { return leaveReferences(from: position, options: options) }
            outcome = .boxDone(from: position, in: .iref)
        case .property:
            outcome = items.property(field, at: offset, brands: &brands)
        case .associationCount:
            outcome = items.associationCount(field, at: offset, options: options, walker: &walker, brands)
        case .associationEntry:
            outcome = items.associationEntry(field, at: offset, options: options, walker: &walker, brands, trackDone: track.moovDone)
        case .associations:
            outcome = items.associations(field, at: offset, options: options, walker: &walker, brands, trackDone: track.moovDone)
        case .trackHeader:
            outcome = track.header(field, at: offset, walker: walker)
        case .trackSize:
            outcome = track.size(field, at: offset)
        case .editList:
            outcome = track.editList(field, at: offset)
        case .mediaHeader:
            outcome = track.mediaHeader(field, at: offset)
        case .handler:
            outcome = track.handler(field, at: offset)
        case .sampleDescription:
            outcome = track.sampleDescription(field, at: offset, brands: &brands)
        case .timeToSampleCount:
            outcome = track.timeToSampleCount(field, at: offset, options: options, walker: &walker, brands)
        case .timeToSampleEntry:
            outcome = track.timeToSampleEntry(field, at: offset, options: options, walker: &walker, brands)
        case .metaFullBox:
            return nextHeader(in: .meta, at: position, skipFrom: position, options: options)
        case .itemInfoFullBox:
            // The entry count is implied by the infe boxes that follow.
            let countWidth: UInt64 = field.u8(0) == 0 ? 2 : 4
            let end = walker.end(atDepth: Level.iinf.depth)
            guard end &- position >= countWidth else { return finishBox(at: position, end: end, in: .meta, options: options) }
            return nextHeader(in: .iinf, at: position &+ countWidth, skipFrom: position, options: options)
        case .referenceFullBox:
            items.longReferenceIDs = field.u8(0) != 0
            return nextHeader(in: .iref, at: position, skipFrom: position, options: options)
        }
        return follow(outcome, options: options)
    }

    /// What a sub-machine's outcome means for the walk.
    @inline(__always)
    mutating func follow(_ outcome: Outcome, options: ScanOptions) -> Step {
        switch outcome {
        case .step(let step):
            return step
        case .next(let step, let next):
            phase = next
            return step
        case .boxDone(let position, let level):
            return finishBox(at: position, end: walker.boxEnd, in: level, options: options)
        case .mediaDone(let position):
            return finishBox(at: position, end: walker.end(atDepth: Level.mdia.depth), in: .mdia, options: options)
        }
    }

    // MARK: - Boxes

    /// Where `level` ends: the walker's stack at the level's depth (one switch, straight to
    /// the stack's slot), or the input's end for the top level.
    @inline(__always)
    func containerEnd(_ level: Level, _ options: ScanOptions) -> UInt64 {
        switch level {
        case .top: options.inputLength ?? UInt64.max
        case .meta, .moov: walker.ends.0
        case .iinf, .iprp, .iref, .trak: walker.ends.1
        case .ipco, .edts, .tref, .mdia: walker.ends.2
        case .minf: walker.ends.3
        case .stbl: walker.ends.4
        }
    }

    /// A box of `type` whose payload starts at `payload` and which ends at `end`.
    @inline(__always)
    mutating func enter(_ type: UInt32, in level: Level, payload: UInt64, end: UInt64, options: ScanOptions) -> Step {
        guard end >= payload, level == .top || end <= containerEnd(level, options) else {
            if level == .iref { return leaveReferences(from: payload, options: options) }
            return .failed(.malformed(.heif, Failure.boxOverrunsItsContainer))
        }
        guard walker.count(limit: options.entryLimit) else { return .failed(.limit(.heif, .moreBoxesThanMaxEntries)) }
        let room = end &- payload
        // What the box is: a container to open, or a leaf box a sub-machine reads (each done
        // once, below, for every level); anything else is skipped.
        var child: Level? = nil
        var start: BoxStart? = nil
        switch level {
        case .top:
            // Boxes inside stay inside their container, so the top level settles the rule of
            // SPEC.md §3, "Containers", for all of them.
            guard !options.runsPastInput(end) else { return .failed(.malformed(.heif, .boxOrChunkRunsPastTheEndOfTheInput)) }
            if type == Box.meta && !items.started {
                guard Level.meta.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                guard room >= 4 else { return .failed(.malformed(.heif, Failure.metaBoxTooSmall)) }
                walker.open(atDepth: Level.meta.depth, end: end)
                items.started = true
                phase = .metaFullBox
                return .read(4)
            }
            if type == Box.moov && brands.hasSequenceBrand && !track.moovDone {
                child = .moov
            } else {
                // Nothing follows a box that runs to the end of the file.
                guard end != UInt64.max else { return endOfBoxes() }
            }
        case .meta:
            switch type {
            case Box.pitm where room >= 6:
                start = ItemProperties.beginPrimaryItem(room: room)
            case Box.iinf where room >= 6 && (!brands.majorSettlesFormat || brands.fullMode):
                // Item types matter when the major brand doesn't name the coding, and in full
                // mode for gain maps (`tmap` items).
                guard Level.iinf.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                walker.open(atDepth: Level.iinf.depth, end: end)
                phase = .itemInfoFullBox
                return .read(4)
            case Box.iprp:
                child = .iprp
            case Box.iref where brands.fullMode && brands.primaryIsGrid && items.hasPrimary && !items.hasFirstTile && room >= 4:
                // A grid without colour of its own takes its first tile's (libheif).
                guard Level.iref.depth <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
                walker.open(atDepth: Level.iref.depth, end: end)
                phase = .referenceFullBox
                return .read(4)
            default: break
            }
        case .iinf:
            if type == Box.infe && room >= 4 { start = ItemProperties.beginItemInfo(room: room) }
        case .iref:
            if type == Box.dimg { start = items.beginReference(room: room) }
        case .iprp:
            switch type {
            case Box.ipco:
                items.propertiesSeen = 0
                child = .ipco
            case Box.ipma where room >= 8:
                start = ItemProperties.beginAssociations()
            default: break
            }
        case .ipco:
            // Every child of ipco is a property and takes the next index, known or not.
            guard items.countProperty() else { return .failed(.limit(.heif, Failure.moreThan32767Properties)) }
            guard Level.ipco.depth + 1 <= options.maxDepth else { return .failed(.limit(.heif, .boxesNestedDeeperThanMaxDepth)) }
            start = items.beginProperty(type, room: room, fullMode: brands.fullMode)
        case .moov:
            if type == Box.trak && !track.hasPrimaryTrack {
                track.summary = PrimaryTrack.Summary()
                child = .trak
            }
        case .trak:
            switch type {
            case Box.tref: child = .tref
            case Box.edts: child = .edts
            case Box.mdia: child = .mdia
            default: start = PrimaryTrack.begin(type, room: room, in: level)
            }
        case .tref:
            // Alpha and depth tracks refer to the colour track with auxl.
            if type == Box.auxl { track.summary.isAuxiliary = true }
        case .minf:
            if type == Box.stbl { child = .stbl }
        case .mdia:
            if type == Box.minf {
                child = .minf
            } else {
                start = PrimaryTrack.begin(type, room: room, in: level)
            }
        case .edts, .stbl:
            start = PrimaryTrack.begin(type, room: room, in: level)
        }
        if let start { return read(start, end: end) }
        if let child { return open(child, payload: payload, end: end, options: options) }
        return finishBox(at: payload, end: end, in: level, options: options)
    }

    /// Skips the rest of `iref` from `position` and goes on in `meta`. iref is read for one
    /// best-effort fact, a grid's first tile: once it is known, or when a reference box is
    /// broken (too small, a bad 64-bit size, past iref's end), the rest is left unread, as the
    /// whole box is in every other case.
    mutating func leaveReferences(from position: UInt64, options: ScanOptions) -> Step {
        finishBox(at: position, end: containerEnd(.iref, options), in: .meta, options: options)
    }

    /// A leaf box a sub-machine reads, ending at `end`: its first step and phase.
    @inline(__always)
    mutating func read(_ start: BoxStart, end: UInt64) -> Step {
        walker.boxEnd = end
        phase = start.phase
        return start.step
    }

    /// Opens the container `level`, which ends at `end`, and reads its first child. Inside a
    /// track, the depth limit names the format decided so far.
    mutating func open(_ level: Level, payload: UInt64, end: UInt64, options: ScanOptions) -> Step {
        guard level.depth <= options.maxDepth else {
            // Inside a track (below trak), the format decided so far.
            return .failed(.limit(level.rawValue > Level.trak.rawValue ? brands.format : .heif, .boxesNestedDeeperThanMaxDepth))
        }
        walker.open(atDepth: level.depth, end: end)
        return nextHeader(in: level, at: payload, skipFrom: payload, options: options)
    }

    /// The top-level boxes are over: the answer if there is one.
    func endOfBoxes() -> Step {
        if items.hasAnswer || track.hasPrimaryTrack { return .done }
        return .failed(.malformed(.heif, Failure.noMetaBoxBeforeTheEndOfTheFile))
    }

    /// Skips the rest of a box ending at `end`, then continues in `level`.
    @inline(__always)
    mutating func finishBox(at position: UInt64, end: UInt64, in level: Level, options: ScanOptions) -> Step {
        nextHeader(in: level, at: end, skipFrom: position, options: options)
    }

    /// The next box header in `level` at `start`, closing every container that ends there.
    /// The usual case, another box in the same container, is inlined; closing containers is not.
    @inline(__always)
    mutating func nextHeader(in level: Level, at start: UInt64, skipFrom position: UInt64, options: ScanOptions) -> Step {
        if level != .top {
            let end = containerEnd(level, options)
            // Fewer than 8 bytes left cannot hold another box: treat them as padding.
            if start < end && end &- start >= 8 { return header(in: level, at: start, skipFrom: position) }
        }
        return closeContainers(from: level, at: start, skipFrom: position, options: options)
    }

    /// Reads the box header at `start`, skipping from `position`.
    @inline(__always)
    mutating func header(in level: Level, at start: UInt64, skipFrom position: UInt64) -> Step {
        phase = .header
        self.level = level
        return BoxWalker.header(at: start, from: position) ?? .failed(.malformed(.heif, Failure.boxOverlapsTheOneBefore))
    }

    /// `nextHeader` when `start` is at or near the end of `level`: closes containers up to the
    /// one that has room for another box.
    @inline(never)
    mutating func closeContainers(from level: Level, at start: UInt64, skipFrom position: UInt64, options: ScanOptions) -> Step {
        var level = level
        var start = start
        // Each round closes one container and moves up a level, so this runs at most five times.
        while level != .top {
            let end = containerEnd(level, options)
            guard start >= end || end &- start < 8 else { break }
            if let step = close(level, options: options) { return step }
            // The rest of mdia holds nothing the scan needs once minf ends.
            if level == .minf || level == .stbl { start = max(start, walker.end(atDepth: Level.mdia.depth)) }
            level = level.parent
        }
        if level == .top, let length = options.inputLength, start >= length || length &- start < 8 {
            return endOfBoxes()
        }
        return header(in: level, at: start, skipFrom: position)
    }

    /// Called when a container ends; returns a step when that settles the scan.
    mutating func close(_ level: Level, options: ScanOptions) -> Step? {
        switch level {
        case .top, .iprp, .iref, .edts, .tref, .mdia, .minf, .stbl:
            return nil
        case .ipco:
            return items.propertiesEnded(options: options, brands, trackDone: track.moovDone)
        case .iinf:
            items.itemInfoDone = true
            return items.answerIfReady(final: false, brands, options: options, trackDone: track.moovDone)
        case .trak:
            return track.trackEnded(options: options, brands, metaStarted: items.started)
        case .moov:
            track.moovDone = true
            if items.hasAnswer { return items.formatSettled(brands) ? .done : nil }
            return track.hasPrimaryTrack ? .done : nil
        case .meta:
            if let step = items.answerIfReady(final: true, brands, options: options, trackDone: track.moovDone) { return step }
            // Animation mode waits for the frames; a sequence without a usable primary item
            // (libheif writes sequences with no meta at all) may still have a primary track.
            if items.hasAnswer || (brands.hasSequenceBrand && !track.moovDone) { return nil }
            if track.hasPrimaryTrack { return .done }
            if !items.hasPrimary { return .failed(.malformed(brands.format, Failure.noPrimaryItemPitm)) }
            if items.summariesOverflowed && !items.primaryResolved {
                return .failed(.limit(brands.format, Failure.moreItemsThanTheScannerTracksBeforePitm))
            }
            return .failed(.malformed(brands.format, Failure.primaryItemHasNoIspeProperty))
        }
    }

    // MARK: - The answer

    func makeInfo() -> ImageInfo {
        // The primary item, or the primary track in a sequence without one.
        let (width, height) =
            items.hasAnswer
            ? items.size(of: items.primary) : (UInt32(track.summary.width), UInt32(track.summary.height))
        var info = ImageInfo(ImageFacts(format: brands.format))
        info.facts.storedWidth = width
        info.facts.storedHeight = height
        // An image sequence is the file's main content when the major brand says so; AVIF and
        // HEIF require the sequence brands for files that carry one (AV1-ISOBMFF §4, ISO/IEC
        // 23008-12 §10.3), so any other major brand means the primary still image.
        info.isAnimated = brands.majorIsSequence
        if track.hasPrimaryTrack && track.summary.hasLoopCount { info.facts.storedLoopCount = track.summary.loopCount }
        if brands.fullMode { info.extras.hasGainMap = brands.sawGainMap }
        guard items.hasAnswer else { return info }
        info.orientation = items.primary.orientation
        let bitDepth = items.bitDepth()
        if bitDepth != 0 { info.bitDepth = Int(bitDepth) }
        info.cleanApertureFractions = items.cleanAperture()
        if brands.fullMode {
            let (cicp, icc) = items.colour()
            info.extras.cicp = cicp
            info.extras.hasICCProfile = icc
        }
        return info
    }

    // MARK: - Codes

    enum Box {
        static let meta: UInt32 = 0x6D65_7461  // "meta"
        static let pitm: UInt32 = 0x7069_746D  // "pitm"
        static let iinf: UInt32 = 0x6969_6E66  // "iinf"
        static let infe: UInt32 = 0x696E_6665  // "infe"
        static let iprp: UInt32 = 0x6970_7270  // "iprp"
        static let ipco: UInt32 = 0x6970_636F  // "ipco"
        static let ipma: UInt32 = 0x6970_6D61  // "ipma"
        static let ispe: UInt32 = 0x6973_7065  // "ispe"
        static let irot: UInt32 = 0x6972_6F74  // "irot"
        static let imir: UInt32 = 0x696D_6972  // "imir"
        static let clap: UInt32 = 0x636C_6170  // "clap"
        static let pixi: UInt32 = 0x7069_7869  // "pixi"
        static let colr: UInt32 = 0x636F_6C72  // "colr"
        static let auxC: UInt32 = 0x6175_7843  // "auxC"
        static let av1C: UInt32 = 0x6176_3143  // "av1C"
        static let hvcC: UInt32 = 0x6876_6343  // "hvcC"
        static let iref: UInt32 = 0x6972_6566  // "iref"
        /// A derived image's inputs, in `iref` (HEIF §6.6.1): a grid's tiles, in order.
        static let dimg: UInt32 = 0x6469_6D67  // "dimg"
        static let grid: UInt32 = 0x6772_6964  // "grid"
        /// The item type of ISO 21496-1 tone-map derived images: a gain map.
        static let tmap: UInt32 = 0x746D_6170  // "tmap"
        static let moov: UInt32 = 0x6D6F_6F76  // "moov"
        static let trak: UInt32 = 0x7472_616B  // "trak"
        static let tkhd: UInt32 = 0x746B_6864  // "tkhd"
        static let tref: UInt32 = 0x7472_6566  // "tref"
        static let auxl: UInt32 = 0x6175_786C  // "auxl"
        static let edts: UInt32 = 0x6564_7473  // "edts"
        static let elst: UInt32 = 0x656C_7374  // "elst"
        static let mdia: UInt32 = 0x6D64_6961  // "mdia"
        static let mdhd: UInt32 = 0x6D64_6864  // "mdhd"
        static let hdlr: UInt32 = 0x6864_6C72  // "hdlr"
        static let minf: UInt32 = 0x6D69_6E66  // "minf"
        static let stbl: UInt32 = 0x7374_626C  // "stbl"
        static let stsd: UInt32 = 0x7374_7364  // "stsd"
        static let stts: UInt32 = 0x7374_7473  // "stts"
        /// Handler types of image sequences (HEIF §7.1) and video.
        static let pict: UInt32 = 0x7069_6374  // "pict"
        static let vide: UInt32 = 0x7669_6465  // "vide"
    }
}

extension ISOBMFFParser {
    /// Why ISOBMFF input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case isobmffFileWithoutAnImageBrand
        case ipmaBeforeIpcoAndPitmAfterBoth
        case bad64BitBoxSize
        case ipmaEntryOverrunsItsBox
        case boxOverrunsItsContainer
        case metaBoxTooSmall
        case noMetaBoxBeforeTheEndOfTheFile
        /// Defensive: every read stays inside its box, so no header starts behind the reader.
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

        static var owner: UInt8 { ISOBMFFParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
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
#endif
