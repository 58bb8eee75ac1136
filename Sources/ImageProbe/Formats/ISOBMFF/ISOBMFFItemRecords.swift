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
            && journal.append(bytes.3) && journal.append(bytes.4)
        else {
            journal.count = UInt8(truncatingIfNeeded: start)
            return false
        }
        closeRecord(startingAt: start)
        return true
    }

    /// The summary of item `id` whose record's bytes start at `offset`, after its id.
    mutating func summary(id: UInt32, at offset: Int) -> ISOBMFFParser.ItemSummary {
        let bytes = (
            journal.byte(at: offset), journal.byte(at: offset &+ 1), journal.byte(at: offset &+ 2),
            journal.byte(at: offset &+ 3), journal.byte(at: offset &+ 4)
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
            case .colour:
                // At most one colr of each kind per item (HEIF §6.5.5): an ICC profile, an nclx.
                if journal.byte(at: cursor) == 0 {
                    summary.hasICCProfile = true
                } else if summary.nclxRecord == 0 {
                    summary.nclxRecord = UInt8(truncatingIfNeeded: start &+ 1)
                }
            case .pending, .summary, nil:
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

    /// The primary's colour: its nclx code points, and whether an ICC profile is associated.
    func colour() -> (cicp: CICP?, icc: Bool) {
        let icc = primary.hasICCProfile
        let record = primary.nclxRecord
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
        /// 1 + the journal offset of the nclx colr record, or 0 for none.
        var nclxRecord: UInt8 = 0
        var bitDepth: UInt8 = 0
        /// The `irot` and `imir` associated so far, or nil for none.
        var transform: Transform? = nil
        /// An ICC profile (a colr of that kind) is associated.
        var hasICCProfile = false

        var hasSize: Bool { sizeRecord != 0 }

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

        /// The five bytes of the summary's journal record: the size record, the transform
        /// (the rotation in bits 0–1, mirrored in bit 2, and bit 3 set), the clap record, the
        /// bit depth, and the colour (an ICC profile in bit 7, the nclx record in bits 0–6:
        /// the journal's offsets are below 128).
        var recordBytes: (UInt8, UInt8, UInt8, UInt8, UInt8) {
            let transformByte = transform.map { $0.rotation | ($0.mirrored ? 4 : 0) | 8 } ?? 0
            let colourByte = (hasICCProfile ? 0x80 : 0) | nclxRecord & 0x7F
            return (sizeRecord, transformByte, apertureRecord, bitDepth, colourByte)
        }

        /// The summary of item `id` that `recordBytes` wrote.
        init(id: UInt32, recordBytes bytes: (UInt8, UInt8, UInt8, UInt8, UInt8)) {
            self.id = id
            (sizeRecord, apertureRecord, bitDepth) = (bytes.0, bytes.2, bytes.3)
            if bytes.1 & 8 != 0 {
                var transform = Transform()
                transform.rotation = bytes.1 & 3
                transform.mirrored = bytes.1 & 4 != 0
                self.transform = transform
            }
            hasICCProfile = bytes.4 & 0x80 != 0
            nclxRecord = bytes.4 & 0x7F
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
