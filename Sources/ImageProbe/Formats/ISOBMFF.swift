/// HEIF's fixed tables: the relevant item properties and their clean apertures, the primary's
/// associations that came before the properties, and the items seen before `pitm`. They live
/// in the scanner beside `state` (`HeaderScanner.tables`), which every `feed` moves whole.
@usableFromInline
struct BoxTables: Sendable {
    @usableFromInline var properties = Slots16(repeating: ISOBMFFParser.Property())
    /// libheif gives every image of a multi-image file its own `clap` (odd sizes are padded
    /// to the coding block): a file's primary can use the third or a later one.
    @usableFromInline var apertures = Slots8(repeating: ISOBMFFParser.Aperture())
    @usableFromInline var pending = Slots8(repeating: UInt16(0))
    @usableFromInline var summaries = Slots8(repeating: ISOBMFFParser.ItemSummary())

    @inlinable
    init() {}
}

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
@usableFromInline
struct ISOBMFFParser: FormatParser, Sendable {
    /// The containers the parser descends into; anything else is skipped whole.
    @usableFromInline
    enum Level: Sendable {
        case top, meta, iinf, iprp, ipco

        @inlinable
        var depth: Int {
            switch self {
            case .top: 0
            case .meta: 1
            case .iinf, .iprp: 2
            case .ipco: 3
            }
        }
    }

    /// Boxes whose payload starts with a FullBox version and flags, and that the parser reads.
    @usableFromInline
    enum FullBox: Sendable {
        case meta, pitm, iinf, infe, ipma, ispe, pixi
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
        /// The 64-bit size of a box whose 32-bit size was 1.
        case largeSize(Level, type: UInt32, start: UInt64)
        /// A FullBox's version and flags.
        case fullBox(FullBox, end: UInt64)
        /// `pitm`'s item ID, 16 or 32 bits.
        case primaryItem(wide: Bool, end: UInt64)
        /// `infe` (version 2 or 3): item ID, protection index, item type.
        case itemInfo(wide: Bool, end: UInt64)
        /// The payload of a property the parser keeps.
        case property(PropertyKind, end: UInt64)
        /// `ipma`'s entry count.
        case associationCount(end: UInt64)
        /// An `ipma` entry's item ID and association count.
        case associationEntry(end: UInt64)
        /// A run of the current entry's associations.
        case associations(end: UInt64)
    }

    /// A property from `ipco` that may matter: its 1-based index, kind and values.
    @usableFromInline
    struct Property: Sendable {
        @usableFromInline var index: UInt16 = 0
        @usableFromInline var kind: PropertyKind = .none
        /// ispe: width; irot: angle; imir: axis; pixi: bits; clap: slot in `apertures`.
        @usableFromInline var first: UInt32 = 0
        /// ispe: height.
        @usableFromInline var second: UInt32 = 0

        @inlinable init() {}
    }

    /// A `clap` box's eight numbers.
    @usableFromInline
    struct Aperture: Sendable {
        @usableFromInline var widthN: UInt32 = 0, widthD: UInt32 = 0, heightN: UInt32 = 0, heightD: UInt32 = 0
        @usableFromInline var horizontalN: UInt32 = 0, horizontalD: UInt32 = 0, verticalN: UInt32 = 0, verticalD: UInt32 = 0

        @inlinable init() {}
    }

    /// What an item's associations say, resolved against the property table.
    @usableFromInline
    struct ItemSummary: Sendable {
        @usableFromInline var id: UInt32 = 0
        @usableFromInline var width: UInt32 = 0
        @usableFromInline var height: UInt32 = 0
        @usableFromInline var hasSize = false
        /// The transform so far as R^rotation ∘ F^mirrored, where F exchanges left and right
        /// (applied first) and R turns a quarter anticlockwise.
        @usableFromInline var rotation: UInt8 = 0
        @usableFromInline var mirrored = false
        @usableFromInline var transformed = false
        /// Index into `apertures`, or -1.
        @usableFromInline var aperture: Int8 = -1
        @usableFromInline var bitDepth: UInt8 = 0

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
        mutating func rotate(_ angle: UInt32) {
            rotation = (rotation &+ UInt8(angle & 3)) & 3
            transformed = true
        }

        /// `imir`: axis 1 exchanges left and right (F), axis 0 top and bottom (R²∘F)
        /// (ISO/IEC 23008-12:2022 §6.5.12). F∘R^k = R^−k∘F gives the new normal form.
        @inlinable
        mutating func mirror(_ axis: UInt32) {
            let turn: UInt8 = axis & 1 == 1 ? 0 : 2
            rotation = (turn &+ 4 &- rotation) & 3
            mirrored.toggle()
            transformed = true
        }
    }

    @usableFromInline var phase: Phase
    /// Size of the first box (`ftyp`) as the sniffer read it.
    @usableFromInline let firstBoxSize: UInt32

    // Brands and items, for telling AVIF from other HEIF.
    @usableFromInline var majorBrand: UInt32 = 0
    @usableFromInline var hasImageBrand = false
    @usableFromInline var compatibleWithAVIF = false
    @usableFromInline var primaryID: UInt32 = 0
    @usableFromInline var hasPrimary = false
    @usableFromInline var primaryType: UInt32 = 0
    @usableFromInline var sawAV1Item = false
    @usableFromInline var sawOtherCodedItem = false
    @usableFromInline var itemInfoDone = false

    // Where each open container ends.
    @usableFromInline var metaEnd: UInt64 = 0
    @usableFromInline var iinfEnd: UInt64 = 0
    @usableFromInline var iprpEnd: UInt64 = 0
    @usableFromInline var ipcoEnd: UInt64 = 0
    @usableFromInline var boxes = 0

    // Properties from ipco.
    @usableFromInline var propertyCount = 0
    @usableFromInline var propertiesSeen: UInt16 = 0
    /// The index of the first relevant property that didn't fit in the table, or 0.
    @usableFromInline var firstDroppedProperty: UInt16 = 0
    /// The primary item's clean aperture, copied out of the tables once it is known.
    @usableFromInline var primaryAperture: Aperture? = nil
    @usableFromInline var apertureCount = 0
    @usableFromInline var ipcoDone = false

    // Associations from ipma.
    @usableFromInline var longItemIDs = false
    @usableFromInline var wideIndices = false
    @usableFromInline var entriesLeft: UInt32 = 0
    @usableFromInline var associationsLeft: UInt8 = 0
    /// The item whose associations are being read, when it matters.
    @usableFromInline var current = ItemSummary()
    /// Associations of the primary item that arrived before ipco ended.
    @usableFromInline var pendingCount = 0
    /// The primary item, once its associations are read.
    @usableFromInline var primary = ItemSummary()
    @usableFromInline var primaryResolved = false
    /// Every item's summary while `pitm` is still unknown (it may come after `iprp`).
    @usableFromInline var summaryCount = 0
    @usableFromInline var summariesOverflowed = false

    /// Built on demand: keeping an `ImageInfo` in the state would only make it larger.
    @inlinable
    var info: ImageInfo { makeInfo() }

    @inlinable
    init(firstBoxSize: UInt32) {
        self.firstBoxSize = firstBoxSize
        self.phase = firstBoxSize == 1 ? .ftypLargeSize : .ftypHead(end: UInt64(firstBoxSize))
    }

    @inlinable
    var firstStep: Step { .read(8) }

    @inlinable
    var format: ImageFormat? { hasImageBrand ? decideFormat() : nil }

    /// A partial answer needs the primary's checked size and a settled format: a format
    /// guessed before the item types are known would not be "certain".
    @inlinable
    func infoAtEndOfInput() -> ImageInfo? {
        guard primaryResolved && primary.hasSize && formatSettled else { return nil }
        return makeInfo()
    }

    @usableFromInline static let unknownBrand = ScanFailure(.unknownFormat, "ISOBMFF file without an image brand")

    // MARK: - Parsing

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions, tables: inout BoxTables) -> Step {
        let position = offset &+ UInt64(field.count)
        switch phase {
        case .ftypLargeSize:
            let size = field.be64(0)
            guard size >= 24 else { return .failed(.malformed(.heif, "ftyp box too small")) }
            phase = .ftypHead(end: size)
            return .read(8)
        case .ftypHead(let end):
            guard end >= position else { return .failed(.malformed(.heif, "ftyp box too small")) }
            majorBrand = field.tag(0)
            noteBrand(majorBrand)
            return nextBrand(at: position, end: end, options: options, tables: &tables)
        case .compatibleBrand(let end):
            let brand = field.tag(0)
            noteBrand(brand)
            if brand == Brand.avif { compatibleWithAVIF = true }
            return nextBrand(at: position, end: end, options: options, tables: &tables)
        case .header(let level):
            let size = UInt64(field.be32(0))
            let type = field.tag(4)
            switch size {
            case 1:
                phase = .largeSize(level, type: type, start: offset)
                return .read(8)
            case 0:
                return enter(type, in: level, payload: position, end: containerEnd(level, options), options: options, tables: &tables)
            default:
                guard size >= 8 else { return .failed(.malformed(.heif, "box smaller than its header")) }
                return enter(type, in: level, payload: position, end: offset &+ size, options: options, tables: &tables)
            }
        case .largeSize(let level, let type, let start):
            let size = field.be64(0)
            guard size >= 16, size <= UInt64.max &- start else {
                return .failed(.malformed(.heif, "bad 64-bit box size"))
            }
            return enter(type, in: level, payload: position, end: start &+ size, options: options, tables: &tables)
        case .fullBox(let box, let end):
            return fullBox(box, version: field.u8(0), flags: UInt32(field.be32(0) & 0xFF_FFFF), at: position, end: end, options: options, tables: &tables)
        case .primaryItem(let wide, let end):
            primaryID = wide ? field.be32(0) : UInt32(field.be16(0))
            hasPrimary = true
            if summaryCount > 0 || summariesOverflowed {
                if let step = adoptSummary(options: options, tables: &tables) { return step }
            }
            return finishBox(at: position, end: end, in: .meta, options: options, tables: &tables)
        case .itemInfo(let wide, let end):
            let id = wide ? field.be32(0) : UInt32(field.be16(0))
            let type = field.tag(wide ? 6 : 4)
            noteItem(id: id, type: type)
            return finishBox(at: position, end: end, in: .iinf, options: options, tables: &tables)
        case .property(let kind, let end):
            recordProperty(kind, field, tables: &tables)
            return finishBox(at: position, end: end, in: .ipco, options: options, tables: &tables)
        case .associationCount(let end):
            entriesLeft = field.be32(0)
            return nextEntry(at: position, end: end, options: options, tables: &tables)
        case .associationEntry(let end):
            let id = longItemIDs ? field.be32(0) : UInt32(field.be16(0))
            let count = field.u8(longItemIDs ? 4 : 2)
            entriesLeft &-= 1
            let entryBytes = UInt64(count) &* (wideIndices ? 2 : 1)
            guard entryBytes <= end &- position else { return .failed(.malformed(.heif, "ipma entry overruns its box")) }
            let relevant = hasPrimary ? id == primaryID : true
            if !relevant || count == 0 {
                if relevant, let step = resolveEntry(ItemSummary(id: id), options: options, tables: &tables) { return step }
                return nextEntry(at: position &+ entryBytes, skipFrom: position, end: end, options: options, tables: &tables)
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
                if let failure = associate(property, tables: &tables) { return .failed(failure) }
                index &+= width
                associationsLeft &-= 1
            }
            // Dimensions only: the primary's ispe settles the answer; later associations can't
            // change the size (the first ispe wins).
            if options.dimensionsOnly && ipcoDone && hasPrimary && current.hasSize {
                if let step = resolveEntry(current, options: options, tables: &tables) { return step }
            }
            if associationsLeft > 0 { return associationRun(end: end, options: options) }
            if let step = resolveEntry(current, options: options, tables: &tables) { return step }
            return nextEntry(at: position, end: end, options: options, tables: &tables)
        }
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
        }
    }

    @inlinable
    static func parent(_ level: Level) -> Level {
        switch level {
        case .top, .meta: .top
        case .iinf, .iprp: .meta
        case .ipco: .iprp
        }
    }

    /// A box of `type` whose payload starts at `payload` and which ends at `end`.
    @inlinable
    mutating func enter(_ type: UInt32, in level: Level, payload: UInt64, end: UInt64, options: ScanOptions, tables: inout BoxTables) -> Step {
        guard end >= payload, end <= containerEnd(level, options) || level == .top else {
            return .failed(.malformed(.heif, "box overruns its container"))
        }
        boxes &+= 1
        guard boxes <= options.maxEntries else { return .failed(.limit(.heif, "more boxes than maxEntries")) }
        let room = end &- payload
        switch level {
        case .top:
            if type == Box.meta {
                guard level.depth + 1 <= options.maxDepth else { return .failed(.limit(.heif, "boxes nested deeper than maxDepth")) }
                guard room >= 4 else { return .failed(.malformed(.heif, "meta box too small")) }
                metaEnd = end
                return readFullBox(.meta, end: end)
            }
            // Nothing follows a box that runs to the end of the file.
            guard end != UInt64.max else { return .failed(.malformed(.heif, "no meta box before the end of the file")) }
        case .meta:
            switch type {
            case Box.pitm where room >= 6: return readFullBox(.pitm, end: end)
            case Box.iinf where room >= 6:
                guard Level.iinf.depth <= options.maxDepth else { return .failed(.limit(.heif, "boxes nested deeper than maxDepth")) }
                iinfEnd = end
                return readFullBox(.iinf, end: end)
            case Box.iprp:
                guard Level.iprp.depth <= options.maxDepth else { return .failed(.limit(.heif, "boxes nested deeper than maxDepth")) }
                iprpEnd = end
                return nextHeader(in: .iprp, at: payload, skipFrom: payload, options: options, tables: &tables)
            default: break
            }
        case .iinf:
            if type == Box.infe && room >= 4 { return readFullBox(.infe, end: end) }
        case .iprp:
            switch type {
            case Box.ipco:
                guard Level.ipco.depth <= options.maxDepth else { return .failed(.limit(.heif, "boxes nested deeper than maxDepth")) }
                ipcoEnd = end
                propertiesSeen = 0
                return nextHeader(in: .ipco, at: payload, skipFrom: payload, options: options, tables: &tables)
            case Box.ipma where room >= 8: return readFullBox(.ipma, end: end)
            default: break
            }
        case .ipco:
            // Every child of ipco is a property and takes the next index, known or not.
            guard propertiesSeen < 0x7FFF else { return .failed(.limit(.heif, "more than 32767 properties")) }
            propertiesSeen &+= 1
            guard Level.ipco.depth + 1 <= options.maxDepth else { return .failed(.limit(.heif, "boxes nested deeper than maxDepth")) }
            switch type {
            case Box.ispe where room >= 12: return readFullBox(.ispe, end: end)
            case Box.pixi where room >= 6: return readFullBox(.pixi, end: end)
            case Box.irot where room >= 1:
                phase = .property(.irot, end: end)
                return .read(1)
            case Box.imir where room >= 1:
                phase = .property(.imir, end: end)
                return .read(1)
            case Box.clap where room >= 32:
                phase = .property(.clap, end: end)
                return .read(32)
            default: break
            }
        }
        return finishBox(at: payload, end: end, in: level, options: options, tables: &tables)
    }

    @inlinable
    mutating func readFullBox(_ box: FullBox, end: UInt64) -> Step {
        phase = .fullBox(box, end: end)
        return .read(4)
    }

    @inlinable
    mutating func fullBox(
        _ box: FullBox, version: UInt8, flags: UInt32, at position: UInt64, end: UInt64, options: ScanOptions, tables: inout BoxTables
    ) -> Step {
        let room = end &- position
        switch box {
        case .meta:
            return nextHeader(in: .meta, at: position, skipFrom: position, options: options, tables: &tables)
        case .pitm:
            let wide = version != 0
            guard room >= (wide ? 4 : 2) else { return finishBox(at: position, end: end, in: .meta, options: options, tables: &tables) }
            phase = .primaryItem(wide: wide, end: end)
            return .read(wide ? 4 : 2)
        case .iinf:
            // The entry count is implied by the infe boxes that follow.
            let countWidth: UInt64 = version == 0 ? 2 : 4
            guard room >= countWidth else { return finishBox(at: position, end: end, in: .meta, options: options, tables: &tables) }
            return nextHeader(in: .iinf, at: position &+ countWidth, skipFrom: position, options: options, tables: &tables)
        case .infe:
            // Versions 0 and 1 have no item type.
            let wide = version >= 3
            guard version >= 2, room >= (wide ? 10 : 8) else { return finishBox(at: position, end: end, in: .iinf, options: options, tables: &tables) }
            phase = .itemInfo(wide: wide, end: end)
            return .read(wide ? 10 : 8)
        case .ipma:
            longItemIDs = version >= 1
            wideIndices = flags & 1 == 1
            phase = .associationCount(end: end)
            return .read(4)
        case .ispe:
            phase = .property(.ispe, end: end)
            return .read(8)
        case .pixi:
            phase = .property(.pixi, end: end)
            return .read(2)
        }
    }

    /// Skips the rest of a box ending at `end`, then continues in `level`.
    @inlinable
    mutating func finishBox(at position: UInt64, end: UInt64, in level: Level, options: ScanOptions, tables: inout BoxTables) -> Step {
        nextHeader(in: level, at: end, skipFrom: position, options: options, tables: &tables)
    }

    /// The next box header in `level` at `start`, closing every container that ends there.
    @inlinable
    mutating func nextHeader(in level: Level, at start: UInt64, skipFrom position: UInt64, options: ScanOptions, tables: inout BoxTables) -> Step {
        var level = level
        // Each round closes one container, so this runs at most four times.
        while level != .top {
            let end = containerEnd(level, options)
            // Fewer than 8 bytes left cannot hold another box: treat them as padding.
            guard start >= end || end &- start < 8 else { break }
            if let step = close(level, options: options, tables: &tables) { return step }
            level = Self.parent(level)
        }
        if level == .top, let length = options.inputLength, start >= length || length &- start < 8 {
            return .failed(.malformed(.heif, "no meta box before the end of the file"))
        }
        phase = .header(level)
        guard start >= position else { return .failed(.malformed(.heif, "box overlaps the one before")) }
        return start == position ? .read(8) : .skipThenRead(start &- position, 8)
    }

    /// Called when a container ends; returns a step when that settles the scan.
    @inlinable
    mutating func close(_ level: Level, options: ScanOptions, tables: inout BoxTables) -> Step? {
        switch level {
        case .top:
            return nil
        case .ipco:
            ipcoDone = true
            // The primary's associations came first (see `associate`): resolve them now.
            guard pendingCount > 0 else { return nil }
            var summary = current
            for slot in 0..<pendingCount {
                let index = tables.pending[slot]
                if let failure = apply(index, to: &summary, tables: &tables) { return .failed(failure) }
            }
            pendingCount = 0
            return resolveEntry(summary, options: options, tables: &tables)
        case .iinf:
            itemInfoDone = true
            return answerIfReady(final: false)
        case .iprp:
            return nil
        case .meta:
            if let step = answerIfReady(final: true) { return step }
            if !hasPrimary { return .failed(.malformed(decideFormat(), "no primary item (pitm)")) }
            if summariesOverflowed && !primaryResolved { return .failed(.limit(decideFormat(), "more items than the scanner tracks before pitm")) }
            return .failed(.malformed(decideFormat(), "primary item has no ispe property"))
        }
    }

    // MARK: - ftyp

    @inlinable
    mutating func nextBrand(at position: UInt64, end: UInt64, options: ScanOptions, tables: inout BoxTables) -> Step {
        guard end &- position >= 4, end > position else {
            guard hasImageBrand else { return .failed(Self.unknownBrand) }
            return nextHeader(in: .top, at: end, skipFrom: position, options: options, tables: &tables)
        }
        boxes &+= 1
        guard boxes <= options.maxEntries else { return .failed(.limit(.heif, "more brands than maxEntries")) }
        phase = .compatibleBrand(end: end)
        return .read(4)
    }

    @inlinable
    mutating func noteBrand(_ brand: UInt32) {
        if Brand.isImage(brand) { hasImageBrand = true }
    }

    // MARK: - Items and properties

    @inlinable
    mutating func noteItem(id: UInt32, type: UInt32) {
        switch type {
        case Brand.av01: sawAV1Item = true
        case Brand.hvc1, Brand.hev1, Brand.vvc1, Brand.avc1, Brand.jpeg, Brand.j2k1: sawOtherCodedItem = true
        default: break
        }
        if hasPrimary && id == primaryID { primaryType = type }
    }

    @inlinable
    mutating func recordProperty(_ kind: PropertyKind, _ field: FieldBytes, tables: inout BoxTables) {
        var property = Property()
        property.index = propertiesSeen
        property.kind = kind
        switch kind {
        case .none:
            return
        case .ispe:
            property.first = field.be32(0)
            property.second = field.be32(4)
        case .irot:
            property.first = UInt32(field.u8(0) & 0x03)
        case .imir:
            property.first = UInt32(field.u8(0) & 0x01)
        case .pixi:
            // num_channels, then the first channel's bit depth.
            guard field.u8(0) >= 1 else { return }
            property.first = UInt32(field.u8(1))
        case .clap:
            guard apertureCount < Slots8<Aperture>.capacity else {
                drop(property.index)
                return
            }
            var aperture = Aperture()
            aperture.widthN = field.be32(0)
            aperture.widthD = field.be32(4)
            aperture.heightN = field.be32(8)
            aperture.heightD = field.be32(12)
            aperture.horizontalN = field.be32(16)
            aperture.horizontalD = field.be32(20)
            aperture.verticalN = field.be32(24)
            aperture.verticalD = field.be32(28)
            tables.apertures[apertureCount] = aperture
            property.first = UInt32(apertureCount)
            apertureCount &+= 1
        }
        guard propertyCount < Slots16<Property>.capacity else {
            drop(property.index)
            return
        }
        tables.properties[propertyCount] = property
        propertyCount &+= 1
    }

    /// A relevant property didn't fit: any later association with an index this high is
    /// ambiguous and ends the scan with a limit, never a guess.
    @inlinable
    mutating func drop(_ index: UInt16) {
        if firstDroppedProperty == 0 { firstDroppedProperty = index }
    }

    /// One association of the item being read.
    @inlinable
    mutating func associate(_ index: UInt16, tables: inout BoxTables) -> ScanFailure? {
        guard index != 0 else { return nil }
        if ipcoDone { return apply(index, to: &current, tables: &tables) }
        // Associations before the properties (against the specification's order): keep them.
        guard hasPrimary && current.id == primaryID else {
            return ScanFailure(.unsupportedFeature, "ipma before ipco, and pitm after both", format: decideFormat())
        }
        guard pendingCount < Slots8<UInt16>.capacity else {
            return .limit(decideFormat(), "too many associations before ipco")
        }
        tables.pending[pendingCount] = index
        pendingCount &+= 1
        return nil
    }

    /// Applies property `index` to `summary`, in association order.
    @inlinable
    func apply(_ index: UInt16, to summary: inout ItemSummary, tables: inout BoxTables) -> ScanFailure? {
        for slot in 0..<propertyCount {
            let property = tables.properties[slot]
            guard property.index == index else { continue }
            switch property.kind {
            case .none:
                break
            case .ispe:
                if !summary.hasSize {
                    summary.width = property.first
                    summary.height = property.second
                    summary.hasSize = true
                }
            case .irot:
                summary.rotate(property.first)
            case .imir:
                summary.mirror(property.first)
            case .clap:
                if summary.aperture < 0 { summary.aperture = Int8(truncatingIfNeeded: property.first) }
            case .pixi:
                if summary.bitDepth == 0 { summary.bitDepth = UInt8(truncatingIfNeeded: property.first) }
            }
            return nil
        }
        if firstDroppedProperty != 0 && index >= firstDroppedProperty {
            return .limit(decideFormat(), "more item properties than the scanner tracks")
        }
        return nil  // an index to a property nobody needs (or to nothing at all)
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

    @inlinable
    mutating func nextEntry(at position: UInt64, skipFrom: UInt64? = nil, end: UInt64, options: ScanOptions, tables: inout BoxTables) -> Step {
        let from = skipFrom ?? position
        guard entriesLeft > 0 else { return finishBox(at: from, end: end, in: .iprp, options: options, tables: &tables) }
        let entryWidth: UInt64 = longItemIDs ? 5 : 3
        guard position <= end, end &- position >= entryWidth else {
            return .failed(.malformed(decideFormat(), "ipma entries overrun their box"))
        }
        boxes &+= 1
        guard boxes <= options.maxEntries else { return .failed(.limit(decideFormat(), "more ipma entries than maxEntries")) }
        phase = .associationEntry(end: end)
        return position == from ? .read(Int(entryWidth)) : .skipThenRead(position &- from, Int(entryWidth))
    }

    /// The associations of `summary`'s item are all read.
    @inlinable
    mutating func resolveEntry(_ summary: ItemSummary, options: ScanOptions, tables: inout BoxTables) -> Step? {
        if !ipcoDone && hasPrimary && summary.id == primaryID && pendingCount > 0 {
            current = summary
            return nil  // resolved when ipco ends
        }
        if hasPrimary {
            guard summary.id == primaryID else { return nil }
            return adopt(summary, options: options, tables: &tables)
        }
        // pitm comes later: remember every item.
        guard summaryCount < Slots8<ItemSummary>.capacity else {
            summariesOverflowed = true
            return nil
        }
        tables.summaries[summaryCount] = summary
        summaryCount &+= 1
        return nil
    }

    /// `pitm` arrived after the associations: pick the primary's summary.
    @inlinable
    mutating func adoptSummary(options: ScanOptions, tables: inout BoxTables) -> Step? {
        for slot in 0..<summaryCount where tables.summaries[slot].id == primaryID {
            let summary = tables.summaries[slot]
            return adopt(summary, options: options, tables: &tables)
        }
        if summariesOverflowed { return .failed(.limit(decideFormat(), "more items than the scanner tracks before pitm")) }
        return nil
    }

    /// Takes `summary` as the primary item's, once its size passes the checks: only then does
    /// the size count as known (for partial answers too).
    @inlinable
    mutating func adopt(_ summary: ItemSummary, options: ScanOptions, tables: inout BoxTables) -> Step? {
        if summary.hasSize {
            guard summary.width != 0 && summary.height != 0 else { return .failed(.malformed(decideFormat(), "ispe size is zero")) }
            guard options.admits(width: UInt64(summary.width), height: UInt64(summary.height)) else {
                return .failed(.tooLarge(decideFormat()))
            }
        }
        primary = summary
        primaryResolved = true
        if summary.aperture >= 0 { primaryAperture = tables.apertures[Int(summary.aperture)] }
        return answerIfReady(final: false)
    }

    /// The answer, once the primary item's properties and the format are known. `final` at the
    /// end of `meta`, when what is known must do.
    @inlinable
    mutating func answerIfReady(final: Bool) -> Step? {
        guard primaryResolved && primary.hasSize else { return nil }
        if !final && !formatSettled { return nil }
        return .done
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
        var info = ImageInfo(format: decideFormat(), width: Int(primary.width), height: Int(primary.height))
        info.orientation = primary.orientation
        if primary.bitDepth != 0 { info.bitDepth = Int(primary.bitDepth) }
        if majorBrand == Brand.avis || majorBrand == Brand.msf1 { info.isAnimated = true }
        if let box = primaryAperture {
            info.cleanAperture = CleanAperture(
                widthN: box.widthN, widthD: box.widthD, heightN: box.heightN, heightD: box.heightD,
                horizontalOffsetN: Int32(bitPattern: box.horizontalN), horizontalOffsetD: box.horizontalD,
                verticalOffsetN: Int32(bitPattern: box.verticalN), verticalOffsetD: box.verticalD,
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
