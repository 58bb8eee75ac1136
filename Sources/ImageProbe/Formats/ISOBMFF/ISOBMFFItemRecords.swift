#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
// The item properties' journal: the records `ItemProperties` keeps of the properties in
// `ipco`, of associations that came before it and of item summaries that came before
// `pitm`, and how the answer reads them back.

extension ISOBMFFParser.ItemProperties {
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
        /// index, then the bit depth an `av1C` or `hvcC` states, then (AV1) 1 and the
        /// sequence header's code points as in `colour`, or 0 for none
        case codec
        /// full mode, a grid primary: its first tile's item id (`iref`'s first `dimg`)
        case firstTile
    }

    // MARK: Properties

    mutating func recordProperty(_ kind: PropertyKind, _ field: FieldBytes) {
        let index = propertiesSeen
        let start = Int(journal.count)
        var fits: Bool
        switch kind {
        case .none, .auxC:
            return
        case .av1C, .hvcC:
            recordCodecConfiguration(kind, field, index: index)
            return
        case .colr:
            // Colour is best-effort: a record that doesn't fit only leaves the colour unknown.
            let colourType = field.tag(0)
            if colourType == Self.nclx && field.count >= 11 {
                let (primaries, transfer, matrix) = (field.be16(4), field.be16(6), field.be16(8))
                guard primaries <= 0xFF && transfer <= 0xFF && matrix <= 0xFF else { return }
                let cicp = CICP(
                    colourPrimaries: UInt8(truncatingIfNeeded: primaries), transferCharacteristics: UInt8(truncatingIfNeeded: transfer),
                    matrixCoefficients: UInt8(truncatingIfNeeded: matrix), isFullRange: field.u8(10) >> 7 != 0)
                fits = record(.colour, index) && appendCodePoints(cicp)
            } else if colourType == Self.prof || colourType == Self.rICC {
                fits = record(.colour, index) && appendCodePoints(nil)
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

    /// 0 for no code points, or 1 and `cicp`'s, each a varint.
    mutating func appendCodePoints(_ cicp: CICP?) -> Bool {
        guard let cicp else { return journal.append(0) }
        return journal.append(1) && journal.appendVarint(UInt32(cicp.colourPrimaries))
            && journal.appendVarint(UInt32(cicp.transferCharacteristics)) && journal.appendVarint(UInt32(cicp.matrixCoefficients))
            && journal.append(cicp.isFullRange ? 1 : 0)
    }

    /// `av1C` or `hvcC` (full mode): the bit depth the codec states, and an AV1 sequence
    /// header's colour. Best-effort, like colour: `pixi` and `nclx` take precedence.
    mutating func recordCodecConfiguration(_ kind: PropertyKind, _ field: FieldBytes, index: UInt16) {
        var depth: UInt8
        var cicp: CICP? = nil
        if kind == .av1C {
            // high_bitdepth and twelve_bit (AV1-ISOBMFF §2.3.3), read as libavif reads them.
            let flags = field.u8(2)
            depth = flags & 0x20 != 0 ? 12 : flags & 0x40 != 0 ? 10 : 8
            cicp = AV1SequenceHeader.colour(in: field, from: 4)
        } else {
            // bitDepthLumaMinus8 (ISO/IEC 14496-15 §8.3.3.1.2).
            depth = (field.u8(17) & 0x07) &+ 8
        }
        let start = Int(journal.count)
        if record(.codec, index) && journal.append(depth) && appendCodePoints(cicp) {
            closeRecord(startingAt: start)
        } else {
            journal.count = UInt8(truncatingIfNeeded: start)
        }
    }

    /// Starts a record of `kind` for `key` (a property index or an item id); the length
    /// byte is set by `closeRecord`.
    mutating func record(_ kind: RecordKind, _ key: UInt32) -> Bool {
        journal.append(kind.rawValue) && journal.append(0) && journal.appendVarint(key)
    }

    mutating func record(_ kind: RecordKind, _ index: UInt16) -> Bool {
        record(kind, UInt32(index))
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

    /// Appends the summary record of `summary`'s item: its id, then its `recordBytes`. False
    /// when it doesn't fit, the journal left as it was.
    mutating func recordSummary(_ summary: ISOBMFFParser.ItemSummary) -> Bool {
        let start = Int(journal.count)
        let bytes = summary.recordBytes
        guard record(.summary, summary.id)
            && journal.append(bytes.0) && journal.append(bytes.1) && journal.append(bytes.2)
            && journal.append(bytes.3) && journal.append(bytes.4) && journal.append(bytes.5)
        else {
            journal.count = UInt8(truncatingIfNeeded: start)
            return false
        }
        closeRecord(startingAt: start)
        return true
    }

    /// The summary of item `id` whose record's bytes start at `offset`, after its id.
    func summary(id: UInt32, at offset: Int) -> ISOBMFFParser.ItemSummary {
        var journal = journal
        let bytes = (
            journal.byte(at: offset), journal.byte(at: offset &+ 1), journal.byte(at: offset &+ 2),
            journal.byte(at: offset &+ 3), journal.byte(at: offset &+ 4), journal.byte(at: offset &+ 5)
        )
        return ISOBMFFParser.ItemSummary(id: id, recordBytes: bytes)
    }

    /// Applies property `index` to `summary`, in association order.
    mutating func apply(_ index: UInt16, to summary: inout ISOBMFFParser.ItemSummary, _ brands: ISOBMFFParser.Brands) -> ScanFailure? {
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
            case .codec:
                if summary.codecBitDepth == 0 { summary.codecBitDepth = journal.byte(at: cursor) }
                // The sequence header's code points count only without an nclx (libavif).
                if summary.cicpRecord == 0 && journal.byte(at: cursor &+ 1) == 1 {
                    summary.cicpRecord = UInt8(truncatingIfNeeded: start &+ 1)
                }
            case .colour:
                // At most one colr of each kind per item (HEIF §6.5.5): an ICC profile, an nclx.
                // An nclx replaces the AV1 sequence header's code points.
                if journal.byte(at: cursor) == 0 {
                    summary.hasICCProfile = true
                } else if summary.cicpRecord == 0 || journal.byte(at: Int(summary.cicpRecord) &- 1) == RecordKind.codec.rawValue {
                    summary.cicpRecord = UInt8(truncatingIfNeeded: start &+ 1)
                }
            case .pending, .summary, .firstTile, nil:
                continue  // not a property
            }
            return nil
        }
        if firstDroppedProperty != 0 && index >= firstDroppedProperty {
            return .limit(brands.format, ISOBMFFParser.Failure.moreItemPropertiesThanTheScannerTracks)
        }
        return nil  // an index to a property nobody needs (or to nothing at all)
    }

    // MARK: The answer

    /// The width and height of the ispe record `summary` names.
    func size(of summary: ISOBMFFParser.ItemSummary) -> (width: UInt32, height: UInt32) {
        guard summary.hasSize else { return (0, 0) }
        let values = recordValues(summary.sizeRecord, count: 2)
        return (values.0, values.1)
    }

    /// The first `count` (up to eight) varints after the key of the record that starts at
    /// `record` - 1, in order; 0 for the rest. One decoder for every record the answer
    /// reads, on a copy of the journal: most callers build the answer, where the items
    /// can't be mutated; `adopt`'s size check pays for the copy too.
    // each caller's count is a constant: the loop unrolls
    func recordValues(_ record: UInt8, count: Int) -> ISOBMFFParser.RecordValues {
        var journal = journal
        var values: ISOBMFFParser.RecordValues = (0, 0, 0, 0, 0, 0, 0, 0)
        // The record's kind and length, then its key.
        var cursor = Int(record) &+ 1
        _ = journal.varint(at: &cursor)
        // Only `count` varints decoded: the size's two are read on every probe.
        for index in 0..<min(max(count, 0), 8) {
            let value = journal.varint(at: &cursor)
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

    /// The primary's colour: its code points, and whether an ICC profile is associated. A
    /// grid without its own takes its first tile's, each kind apart, as libheif does.
    func colour() -> (cicp: CICP?, icc: Bool) {
        let tile = firstTileSummary()
        let icc = primary.hasICCProfile || tile?.hasICCProfile == true
        var record = primary.cicpRecord
        if record == 0, let tile { record = tile.cicpRecord }
        guard record != 0 else { return (nil, icc) }
        // A codec record's code points follow its bit depth; a colour record's come first.
        var journal = journal
        let values = recordValues(record, count: 6)
        let (present, primaries, transfer, matrix, range) =
            journal.byte(at: Int(record) &- 1) == RecordKind.codec.rawValue
            ? (values.1, values.2, values.3, values.4, values.5) : (values.0, values.1, values.2, values.3, values.4)
        guard present == 1 else { return (nil, icc) }
        let cicp = CICP(
            colourPrimaries: UInt8(truncatingIfNeeded: primaries), transferCharacteristics: UInt8(truncatingIfNeeded: transfer),
            matrixCoefficients: UInt8(truncatingIfNeeded: matrix), isFullRange: range != 0)
        return (cicp, icc)
    }

    /// The primary's bit depth: `pixi`'s, else the codec configuration's; for a grid without
    /// either, its first tile's (libheif reads a grid's depth from its first tile). 0 for none.
    func bitDepth() -> UInt8 {
        if let depth = primary.statedBitDepth { return depth }
        return hasFirstTile ? firstTileSummary()?.statedBitDepth ?? 0 : 0
    }

    /// A grid primary's first tile, once its associations are read (full mode): the tile's
    /// id from its `firstTile` record, then that item's summary record.
    // Out of line: a cold path (full-mode grids) whose journal copy stays out of the others.
    @inline(never)
    func firstTileSummary() -> ISOBMFFParser.ItemSummary? {
        guard hasFirstTile, let (tile, _) = firstRecord(.firstTile) else { return nil }
        guard let (_, offset) = firstRecord(.summary, key: tile) else { return nil }
        return summary(id: tile, at: offset)
    }

    /// The first tile's item id, when `iref` named one for a grid primary.
    var firstTileID: UInt32? {
        guard hasFirstTile else { return nil }
        return firstRecord(.firstTile)?.key
    }

    /// The first record of `kind` (with `key`, when given): its key, and the offset of what
    /// follows the key. Reads a copy of the journal, for the answer's non-mutating readers.
    @inline(never)
    func firstRecord(_ kind: RecordKind, key wanted: UInt32? = nil) -> (key: UInt32, values: Int)? {
        var journal = journal
        var offset = 0
        // Each round moves past one record: its kind, its length byte and the rest.
        while offset < Int(journal.count) {
            let recordKind = journal.byte(at: offset)
            var cursor = offset &+ 2
            offset = offset &+ 2 &+ Int(journal.byte(at: offset &+ 1))
            guard recordKind == kind.rawValue else { continue }
            let key = journal.varint(at: &cursor)
            if wanted == nil || wanted == key { return (key, cursor) }
        }
        return nil
    }

    /// The primary's clean aperture, when a `clap` is associated with it.
    func cleanAperture() -> CleanAperture.Fractions? {
        guard primary.apertureRecord != 0 else { return nil }
        let values = recordValues(primary.apertureRecord, count: 8)
        return CleanAperture.Fractions(
            widthN: values.0, widthD: values.1, heightN: values.2, heightD: values.3,
            horizontalOffsetN: ISOBMFFParser.unzigzag(values.4), horizontalOffsetD: values.5,
            verticalOffsetN: ISOBMFFParser.unzigzag(values.6), verticalOffsetD: values.7)
    }
}

extension ISOBMFFParser {
    /// Up to eight numbers of a journal record.
    typealias RecordValues = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// What an item's associations say, resolved against the journal.
    struct ItemSummary: Sendable {
        /// The transform so far as R^rotation ∘ F^mirrored, where F exchanges left and right
        /// (applied first) and R turns a quarter anticlockwise.
        struct Transform: Sendable {
            /// Quarter turns, 0...3.
            var rotation: UInt8 = 0
            var mirrored = false

            init() {}

            /// `irot`: `angle` more quarter turns anticlockwise.
            mutating func rotate(_ angle: UInt8) {
                rotation = (rotation &+ (angle & 3)) & 3
            }

            /// `imir`: axis 1 exchanges left and right (F), axis 0 top and bottom (R²∘F)
            /// (ISO/IEC 23008-12:2022 §6.5.12). F∘R^k = R^−k∘F gives the new normal form.
            mutating func mirror(_ axis: UInt8) {
                let turn: UInt8 = axis & 1 == 1 ? 0 : 2
                rotation = (turn &+ 4 &- rotation) & 3
                mirrored.toggle()
            }

            /// The transform in EXIF numbering: R^k as 1, 8, 3, 6 and R^k ∘ F as 2, 5, 4, 7.
            var orientation: Orientation {
                switch (rotation, mirrored) {
                case (0, false): .identity
                case (1, false): .rotate90Anticlockwise
                case (2, false): .rotate180
                case (_, false): .rotate90Clockwise
                case (0, true): .mirrorHorizontal
                case (1, true): .transpose
                case (2, true): .mirrorVertical
                case (_, true): .transverse
                }
            }
        }

        var id: UInt32 = 0
        /// 1 + the journal offset of the ispe record that gives the size, or 0 for none.
        var sizeRecord: UInt8 = 0
        /// 1 + the journal offset of the clap record, or 0 for none.
        var apertureRecord: UInt8 = 0
        /// 1 + the journal offset of the colour record with code points (an nclx, or an AV1
        /// sequence header's), or 0 for none.
        var cicpRecord: UInt8 = 0
        /// `pixi`'s first channel, or 0.
        var bitDepth: UInt8 = 0
        /// `av1C`'s or `hvcC`'s bit depth, or 0.
        var codecBitDepth: UInt8 = 0
        /// The `irot` and `imir` associated so far, or nil for none.
        var transform: Transform? = nil
        /// An ICC profile (a colr of that kind) is associated.
        var hasICCProfile = false

        var hasSize: Bool { sizeRecord != 0 }

        /// `pixi`'s depth, else the codec's, else nil.
        var statedBitDepth: UInt8? {
            bitDepth != 0 ? bitDepth : codecBitDepth != 0 ? codecBitDepth : nil
        }

        init() {}

        init(id: UInt32) { self.id = id }

        var orientation: Orientation? { transform?.orientation }

        mutating func rotate(_ angle: UInt8) {
            var transform = self.transform ?? Transform()
            transform.rotate(angle)
            self.transform = transform
        }

        mutating func mirror(_ axis: UInt8) {
            var transform = self.transform ?? Transform()
            transform.mirror(axis)
            self.transform = transform
        }

        /// The six bytes of the summary's journal record: the size record, the transform
        /// (the rotation in bits 0–1, mirrored in bit 2, and bit 3 set), the clap record, the
        /// bit depth, the colour (an ICC profile in bit 7, the code points' record in bits 0–6:
        /// the journal's offsets are below 128), and the codec's bit depth.
        var recordBytes: SummaryBytes {
            let transformByte = transform.map { $0.rotation | ($0.mirrored ? 4 : 0) | 8 } ?? 0
            let colourByte = (hasICCProfile ? 0x80 : 0) | cicpRecord & 0x7F
            return (sizeRecord, transformByte, apertureRecord, bitDepth, colourByte, codecBitDepth)
        }

        typealias SummaryBytes = (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

        /// The summary of item `id` that `recordBytes` wrote.
        init(id: UInt32, recordBytes bytes: SummaryBytes) {
            self.id = id
            (sizeRecord, apertureRecord, bitDepth, codecBitDepth) = (bytes.0, bytes.2, bytes.3, bytes.5)
            if bytes.1 & 8 != 0 {
                var transform = Transform()
                transform.rotation = bytes.1 & 3
                transform.mirrored = bytes.1 & 4 != 0
                self.transform = transform
            }
            hasICCProfile = bytes.4 & 0x80 != 0
            cicpRecord = bytes.4 & 0x7F
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
