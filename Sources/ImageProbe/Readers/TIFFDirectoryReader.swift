/// The tags the directory walker looks for.
struct TIFFTags: OptionSet, Sendable {
    let rawValue: UInt16
    init(rawValue: UInt16) { self.rawValue = rawValue }

    static let width = TIFFTags(rawValue: 1)
    static let height = TIFFTags(rawValue: 2)
    static let orientation = TIFFTags(rawValue: 4)
    /// Full mode's extra facts: XResolution, YResolution, ResolutionUnit and ICCProfile. Never
    /// found, so wanting it walks IFD0 to its end, then reads the resolution values stored
    /// after the entries.
    static let extras = TIFFTags(rawValue: 8)
    // Found only, for "the first entry of a tag wins".
    static let xResolution = TIFFTags(rawValue: 16)
    static let yResolution = TIFFTags(rawValue: 32)
    static let resolutionUnit = TIFFTags(rawValue: 64)
    static let iccProfile = TIFFTags(rawValue: 128)
    /// TIFF files' full mode: BitsPerSample also when its values are stored after the entries
    /// (an RGB file's three SHORTs). EXIF blocks don't want it: their container states the depth.
    static let bitDepth = TIFFTags(rawValue: 256)
    /// What full mode wants besides the tags the walk can stop at.
    static let afterTheEntries: TIFFTags = [.extras, .bitDepth]
}

/// Walks the entries of a TIFF structure's first directory (IFD0), one entry per field,
/// without buffering it. Shared by TIFF files and by EXIF blocks inside JPEG, PNG and WebP,
/// which are TIFF structures bounded by their segment or chunk.
///
/// Offsets in TIFF are relative to the TIFF header (`base`). The walker never reads past
/// `end`, and stops as soon as every wanted tag is found.
///
/// With `.extras` wanted (full mode) it reads every entry, then the XResolution and
/// YResolution values that lie outside their entries (a RATIONAL is 8 bytes; a classic entry
/// holds 4), and with `.bitDepth` the first BitsPerSample value stored there. Those values are
/// read after the entries, in file order, forward only: one that lies behind the walk, outside
/// the structure, past the input's known length or past `maxBytes` (see `reachable`) is not
/// read, and the file then states no such fact. The walker never buffers or goes back.
struct TIFFDirectoryReader: Sendable {
    enum Phase: Sendable {
        case entryCount
        case entry
        /// The resolution and BitsPerSample values stored after the entries.
        case values
    }

    enum Outcome: Sendable {
        /// Read or skip as the step says, then call `parse` again.
        case step(Step)
        /// Done with IFD0; the found values are in the reader.
        case finished
        /// The structure is broken; the message says how.
        case invalid(CommonFailure)
        /// More entries than `ScanOptions.maxEntries` would have to be examined.
        case limitExceeded
    }

    var bigEndian: Bool
    var isBigTIFF: Bool
    /// Absolute input offset of the TIFF header; TIFF offsets count from here.
    var base: UInt64
    /// Absolute input offset where the structure ends (UInt64.max when unbounded).
    var end: UInt64
    var wanted: TIFFTags
    var found: TIFFTags = []
    var phase: Phase = .entryCount
    var entriesLeft: UInt64 = 0
    var entriesExamined: Int = 0
    /// Entries the walk may still read without testing the structure's end or `maxEntries`:
    /// both are tested once, when IFD0's count is read, so that most entries cost a decrement.
    var clearedEntries: UInt64 = 0

    var width: UInt64 = 0
    var height: UInt64 = 0
    /// EXIF orientation 1...8, or 0 when absent or out of range.
    var orientation: UInt8 = 0
    /// The width of the first BitsPerSample value at `bitsPerSampleAt`: 2, 4 or 8 bytes (SHORT,
    /// LONG or LONG8). Beside `orientation`, where the layout had a spare byte.
    var bitsPerSampleWidth: UInt8 = 0
    /// First BitsPerSample value, once read (inline, or with `.bitDepth` after the entries), else 0.
    var bitsPerSample: UInt16 = 0
    /// ResolutionUnit, when `found` has it: 2 inch, 3 centimetre; anything else states no
    /// physical resolution (1 is "none"; 0 a value outside 1...3).
    var resolutionUnit: UInt16 = 0
    /// Whether every entry of IFD0 was examined, so that a tag not found is absent.
    var walkedWholeDirectory = false
    /// XResolution and YResolution as rationals; 0/0 until read.
    var xNumerator: UInt32 = 0
    var xDenominator: UInt32 = 0
    var yNumerator: UInt32 = 0
    var yDenominator: UInt32 = 0
    /// Absolute offsets of the XResolution, YResolution and BitsPerSample values still to read,
    /// 0 for none.
    var xValueAt: UInt64 = 0
    var yValueAt: UInt64 = 0
    var bitsPerSampleAt: UInt64 = 0

    /// A reader with nothing to read, until one is assigned.
    init() {
        self.init(bigEndian: false, isBigTIFF: false, base: 0, end: 0, wanted: [])
    }

    init(bigEndian: Bool, isBigTIFF: Bool, base: UInt64, end: UInt64, wanted: TIFFTags) {
        self.bigEndian = bigEndian
        self.isBigTIFF = isBigTIFF
        self.base = base
        self.end = end
        self.wanted = wanted
    }

    /// A reader for the classic 8-byte TIFF header at `field[at..<at + 8]`, which sits at
    /// absolute offset `base`, and the IFD0 offset it names. Nil when the bytes are not a
    /// TIFF header ("II*\0" or "MM\0*").
    static func classicHeader(
        _ field: FieldBytes, at index: Int, base: UInt64, end: UInt64, wanted: TIFFTags
    ) -> (reader: TIFFDirectoryReader, ifdOffset: UInt64)? {
        let order = field.be16(index)
        let bigEndian: Bool
        switch order {
        case 0x4949: bigEndian = false  // "II"
        case 0x4D4D: bigEndian = true  // "MM"
        default: return nil
        }
        guard field.u16(index + 2, bigEndian: bigEndian) == 42 else { return nil }
        let reader = TIFFDirectoryReader(
            bigEndian: bigEndian, isBigTIFF: false, base: base, end: end, wanted: wanted)
        return (reader, UInt64(field.u32(index + 4, bigEndian: bigEndian)))
    }

    var countWidth: Int { isBigTIFF ? 8 : 2 }

    var entryWidth: Int { isBigTIFF ? 20 : 12 }

    func fits(_ offset: UInt64, _ width: Int) -> Bool {
        offset <= end && UInt64(width) <= end &- offset
    }

    /// Moves to IFD0 at `ifdOffset` (relative to the header) from absolute offset `position`.
    /// TIFF readers can only move forward: an IFD0 behind `position` is invalid.
    mutating func begin(ifdOffset: UInt64, position: UInt64) -> Outcome {
        let (target, overflow) = base.addingReportingOverflow(ifdOffset)
        guard !overflow, target >= position else { return .invalid(.ifd0OffsetPointsBackwards) }
        guard fits(target, countWidth) else { return .invalid(.ifd0LiesOutsideTheTIFFData) }
        phase = .entryCount
        return .step(target == position ? .read(countWidth) : .skipThenRead(target &- position, countWidth))
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Outcome {
        let next = offset &+ field.span
        switch phase {
        case .entryCount:
            entriesLeft = isBigTIFF ? field.u64(0, bigEndian: bigEndian) : UInt64(field.u16(0, bigEndian: bigEndian))
            guard entriesLeft > 0 else {
                walkedWholeDirectory = true
                return afterEntries(at: next, options: options)
            }
            phase = .entry
            clearedEntries = entriesClear(from: next, options)
            // Counted now, not one by one: the count is read again only once they are used up.
            entriesExamined &+= Int(truncatingIfNeeded: clearedEntries)  // <= maxEntries - entriesExamined
            return nextEntry(at: next, options: options)
        case .entry:
            readEntry(field)
            entriesLeft &-= 1
            if entriesLeft == 0 {
                walkedWholeDirectory = true
                return afterEntries(at: next, options: options)
            }
            if found.isSuperset(of: wanted) { return .finished }  // never with .extras wanted
            return nextEntry(at: next, options: options)
        case .values:
            return readValues(field, at: offset, options: options)
        }
    }

    /// Full mode's values after the entries: out of line, so the entry walk that every mode
    /// runs doesn't carry this phase's code.
    @inline(never)
    mutating func readValues(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Outcome {
        // The field covers one or more pending values (`nextValue` planned it).
        let next = offset &+ field.span
        if let index = Self.index(of: xValueAt, 8, inFieldFrom: offset, to: next) {
            xNumerator = field.u32(index, bigEndian: bigEndian)
            xDenominator = field.u32(index + 4, bigEndian: bigEndian)
            xValueAt = 0
        }
        if let index = Self.index(of: yValueAt, 8, inFieldFrom: offset, to: next) {
            yNumerator = field.u32(index, bigEndian: bigEndian)
            yDenominator = field.u32(index + 4, bigEndian: bigEndian)
            yValueAt = 0
        }
        let width = Int(truncatingIfNeeded: bitsPerSampleWidth)
        if let index = Self.index(of: bitsPerSampleAt, width, inFieldFrom: offset, to: next) {
            let value: UInt64
            switch width {
            case 2: value = UInt64(field.u16(index, bigEndian: bigEndian))
            case 4: value = UInt64(field.u32(index, bigEndian: bigEndian))
            default: value = field.u64(index, bigEndian: bigEndian)
            }
            if let bits = UInt16(exactly: value) { bitsPerSample = bits }
            bitsPerSampleAt = 0
        }
        return nextValue(at: next, options: options)
    }

    /// Where a pending value (`valueAt`, 0 for none) lies in the field that spans `start..<end`,
    /// or nil unless it lies wholly inside.
    static func index(of valueAt: UInt64, _ width: Int, inFieldFrom start: UInt64, to end: UInt64) -> Int? {
        let span = UInt64(truncatingIfNeeded: width)  // 2...8
        guard valueAt != 0, valueAt >= start, end &- start >= span, valueAt <= end &- span else { return nil }
        return Int(truncatingIfNeeded: valueAt &- start)  // < Carry.capacity: inside the field
    }

    mutating func nextEntry(at offset: UInt64, options: ScanOptions) -> Outcome {
        if clearedEntries != 0 {
            clearedEntries &-= 1
            return .step(.read(entryWidth))
        }
        // A directory cut short by its container ends the walk; what was found stands.
        guard fits(offset, entryWidth) else { return afterEntries(at: offset, options: options) }
        guard entriesExamined < options.maxEntries else { return entryLimitReached() }
        entriesExamined &+= 1
        return .step(.read(entryWidth))
    }

    /// How many entries from `offset` on both lie inside the structure and stay within
    /// `maxEntries`: those `nextEntry` reads without its tests, which then decide at the first
    /// entry past them, as for every entry before. At most `maxEntries - entriesExamined`.
    func entriesClear(from offset: UInt64, _ options: ScanOptions) -> UInt64 {
        guard offset <= end, entriesExamined < options.maxEntries else { return 0 }
        let budget = UInt64(truncatingIfNeeded: options.maxEntries &- entriesExamined)  // > 0
        let width = UInt64(truncatingIfNeeded: entryWidth)  // 12 or 20
        let room = end &- offset
        let (span, overflow) = budget.multipliedReportingOverflow(by: width)
        return !overflow && span <= room ? budget : room / width
    }

    /// The extra facts never cost an answer the walk without them gives: with every other
    /// wanted tag found, the entry limit ends the walk and the extras stay unknown.
    @inline(never)
    func entryLimitReached() -> Outcome {
        found.isSuperset(of: wanted.subtracting(.afterTheEntries)) && wanted.contains(.extras) ? .finished : .limitExceeded
    }

    /// After the last entry examined, at `position`: the values stored outside their entries,
    /// when full mode wants them.
    mutating func afterEntries(at position: UInt64, options: ScanOptions) -> Outcome {
        guard wanted.contains(.extras) else { return .finished }
        return valuesAfterEntries(at: position, options: options)
    }

    /// `afterEntries` in full mode, out of line (see `readValues`).
    @inline(never)
    mutating func valuesAfterEntries(at position: UInt64, options: ScanOptions) -> Outcome {
        guard walkedWholeDirectory else { return .finished }
        if resolutionMicrometres == 0 {
            // No resolution to state: its values are not read.
            xValueAt = 0
            yValueAt = 0
        }
        phase = .values
        return nextValue(at: position, options: options)
    }

    /// The next read of the pending values from `position`: from the nearest one, through every
    /// other that ends within one field (64 bytes) of it. Values the walk cannot reach are
    /// dropped first.
    mutating func nextValue(at position: UInt64, options: ScanOptions) -> Outcome {
        dropUnreachableValues(from: position, options)
        let bitsWidth = Int(truncatingIfNeeded: bitsPerSampleWidth)
        let low = min(Self.orNone(xValueAt), Self.orNone(yValueAt), Self.orNone(bitsPerSampleAt))
        guard low != UInt64.max else { return .finished }
        var high = low
        Self.extend(&high, from: low, toTake: xValueAt, 8)
        Self.extend(&high, from: low, toTake: yValueAt, 8)
        Self.extend(&high, from: low, toTake: bitsPerSampleAt, bitsWidth)
        let width = Int(truncatingIfNeeded: high &- low)  // 2...Carry.capacity
        return .step(low == position ? .read(width) : .skipThenRead(low &- position, width))
    }

    /// A pending value's offset, with "none" (0) sorting last.
    static func orNone(_ valueAt: UInt64) -> UInt64 { valueAt == 0 ? UInt64.max : valueAt }

    /// Moves the end of the field that starts at `low` (the nearest pending value) to take in the
    /// pending value at `valueAt` too, when it ends within one field of `low`.
    static func extend(_ high: inout UInt64, from low: UInt64, toTake valueAt: UInt64, _ width: Int) {
        guard valueAt != 0 else { return }
        let valueEnd = valueAt &+ UInt64(truncatingIfNeeded: width)  // reachable: no overflow
        if valueEnd &- low <= UInt64(Carry.capacity) { high = max(high, valueEnd) }
    }

    /// Forgets the pending values the walk cannot reach from `position`. A resolution needs both
    /// of its values: one unreachable drops the other.
    mutating func dropUnreachableValues(from position: UInt64, _ options: ScanOptions) {
        if (xValueAt != 0 && !reachable(xValueAt, 8, from: position, options))
            || (yValueAt != 0 && !reachable(yValueAt, 8, from: position, options))
        {
            xValueAt = 0
            yValueAt = 0
            xDenominator = 0
            yDenominator = 0
        }
        let bitsWidth = Int(truncatingIfNeeded: bitsPerSampleWidth)
        if bitsPerSampleAt != 0 && !reachable(bitsPerSampleAt, bitsWidth, from: position, options) {
            bitsPerSampleAt = 0
        }
    }

    /// Whether a value `width` bytes wide at absolute `offset` can be read going forward from
    /// `position`: ahead of the walk, inside the structure and the input, and ending within
    /// `maxBytes`. A reader that doesn't seek consumes every byte up to the value, and the
    /// answer must not depend on whether the reader seeks. Once the walk stands past `maxBytes`,
    /// only a seeking reader got there (skips don't count against it): any value ahead is read.
    func reachable(_ offset: UInt64, _ width: Int, from position: UInt64, _ options: ScanOptions) -> Bool {
        guard offset >= position, fits(offset, width) else { return false }
        let valueEnd = offset &+ UInt64(truncatingIfNeeded: width)  // fits: no overflow
        if let length = options.inputLength, valueEnd > length { return false }
        return valueEnd <= options.byteLimit || position > options.byteLimit
    }

    /// The micrometres per resolution unit when IFD0 states XResolution and YResolution in
    /// physical units: 25,400 for inches (ResolutionUnit 2, and the default when the entry is
    /// absent, TIFF 6.0 and Exif), 10,000 for centimetres (3); 0 otherwise (1 is "no absolute
    /// unit").
    var resolutionMicrometres: UInt64 {
        guard found.contains(.xResolution) && found.contains(.yResolution) else { return 0 }
        guard found.contains(.resolutionUnit) else { return 25_400 }
        switch resolutionUnit {
        case 2: return 25_400
        case 3: return 10_000
        default: return 0
        }
    }

    /// Full mode's facts from IFD0 into `extras`: the resolution in dots per inch (nothing
    /// when a term is 0, a value could not be read, or the walk ended before IFD0's last
    /// entry, which could still have changed the unit), and, with `icc`, whether an ICC
    /// profile is embedded (TIFF files: EXIF blocks leave that to their container). Nothing
    /// unless `.extras` was wanted. The other modes pay one test for it, not a call.
    func apply(to extras: inout ExtraFacts, icc: Bool) {
        if wanted.contains(.extras) { applyExtras(to: &extras, icc: icc) }
    }

    @inline(never)
    func applyExtras(to extras: inout ExtraFacts, icc: Bool) {
        let micrometres = resolutionMicrometres
        if walkedWholeDirectory && micrometres != 0 && xValueAt == 0 && yValueAt == 0 {
            extras.setResolution(
                x: (xNumerator, xDenominator), y: (yNumerator, yDenominator), perMicrometres: micrometres)
        }
        if icc {
            if found.contains(.iccProfile) {
                extras.hasICCProfile = true
            } else if walkedWholeDirectory {
                extras.hasICCProfile = false
            }
        }
    }

    /// The first entry of a tag wins: a repeated tag must not change an answer that a shorter
    /// read (dimensions-only mode, or a truncated input) has already given.
    mutating func readEntry(_ field: FieldBytes) {
        let tag = field.u16(0, bigEndian: bigEndian)
        switch tag {
        case 0x0100:  // ImageWidth
            if !found.contains(.width), let value = firstInlineValue(field) {
                width = value
                found.insert(.width)
            }
        case 0x0101:  // ImageLength
            if !found.contains(.height), let value = firstInlineValue(field) {
                height = value
                found.insert(.height)
            }
        case 0x0112:  // Orientation: the tag settles the question even when its value is invalid.
            if !found.contains(.orientation) {
                found.insert(.orientation)
                if let value = firstInlineValue(field, anyInteger: true), value >= 1 && value <= 8 {
                    orientation = UInt8(value)
                }
            }
        default:
            // BitsPerSample is read here, not in a case of its own, to keep the cases above
            // (the tags the walk stops at) as cheap as they were; full mode also notes where
            // values stored at an offset begin.
            if wanted.contains(.extras) {
                readExtraEntry(tag, field)
            } else if tag == 0x0102, bitsPerSample == 0, let value = firstInlineValue(field), value <= UInt64(UInt16.max) {
                bitsPerSample = UInt16(value)
            }
        }
    }

    /// Full mode's tags: out of line, so the other modes' entries pay one test for them.
    @inline(never)
    mutating func readExtraEntry(_ tag: UInt16, _ field: FieldBytes) {
        switch tag {
        case 0x0102:  // BitsPerSample
            readBitsPerSample(field)
        case 0x011A, 0x011B:  // XResolution, YResolution
            let axis: TIFFTags = tag == 0x011A ? .xResolution : .yResolution
            if !found.contains(axis) {
                found.insert(axis)
                readResolution(field, x: tag == 0x011A)
            }
        case 0x0128:  // ResolutionUnit
            if !found.contains(.resolutionUnit) { readResolutionUnit(field) }
        case 0x8773:  // ICCProfile (34675): present with a value.
            if valueCount(field) > 0 { found.insert(.iccProfile) }
        default:
            break
        }
    }

    /// ResolutionUnit as libtiff reads it: any integer type (TIFFReadDirEntryShort). An entry
    /// of another type (a RATIONAL 2/1, say) is ignored, "Incompatible type ... tag ignored",
    /// so the default, inch, applies. A value outside 1...3 states no unit.
    mutating func readResolutionUnit(_ field: FieldBytes) {
        let type = field.u16(2, bigEndian: bigEndian)
        guard Self.isInteger(type) else { return }
        found.insert(.resolutionUnit)
        if let value = firstInlineValue(field, anyInteger: true), value <= 3 {
            resolutionUnit = UInt16(truncatingIfNeeded: value)
        }
    }

    /// BYTE, SHORT, LONG, LONG8 and their signed types: the types libtiff converts to SHORT.
    static func isInteger(_ type: UInt16) -> Bool {
        switch type {
        case 1, 3, 4, 16,  // BYTE, SHORT, LONG, LONG8
            6, 8, 9, 17:  // SBYTE, SSHORT, SLONG, SLONG8
            true
        default: false
        }
    }

    /// BitsPerSample in full mode: its first value when inline; else, with `.bitDepth`, where
    /// its values begin, to read after the entries. The first entry wins.
    mutating func readBitsPerSample(_ field: FieldBytes) {
        guard bitsPerSample == 0 && bitsPerSampleAt == 0 else { return }
        if let value = firstInlineValue(field) {
            if value <= UInt64(UInt16.max) { bitsPerSample = UInt16(value) }
        } else if wanted.contains(.bitDepth) {
            noteBitsPerSampleOffset(field)
        }
    }

    /// BitsPerSample's values when they don't fit the entry (an RGB file's three SHORTs): where
    /// the first is. SHORT, LONG and LONG8, as inline.
    mutating func noteBitsPerSampleOffset(_ field: FieldBytes) {
        let width: UInt8
        switch field.u16(2, bigEndian: bigEndian) {
        case 3: width = 2  // SHORT
        case 4: width = 4  // LONG
        case 16: width = 8  // LONG8
        default: return
        }
        // `firstInlineValue` found no inline value: with a count, the values are out of line.
        guard valueCount(field) >= 1 else { return }
        bitsPerSampleAt = valuesOffset(field)
        bitsPerSampleWidth = width
    }

    /// The absolute offset of the entry's values when they don't fit the entry; 0 (the header,
    /// which no value can be read from) when it overflows.
    func valuesOffset(_ field: FieldBytes) -> UInt64 {
        let relative = isBigTIFF ? field.u64(12, bigEndian: bigEndian) : UInt64(field.u32(8, bigEndian: bigEndian))
        let (absolute, overflow) = base.addingReportingOverflow(relative)
        return overflow ? 0 : absolute
    }

    /// The entry's value count.
    func valueCount(_ field: FieldBytes) -> UInt64 {
        isBigTIFF ? field.u64(4, bigEndian: bigEndian) : UInt64(field.u32(4, bigEndian: bigEndian))
    }

    /// XResolution or YResolution: a RATIONAL, inside a BigTIFF entry (8 bytes) or at the
    /// offset the entry gives, read after the entries. SHORT and LONG values are taken as
    /// whole numbers, as libtiff does. Other types give no resolution.
    mutating func readResolution(_ field: FieldBytes, x: Bool) {
        let type = field.u16(2, bigEndian: bigEndian)
        let count = valueCount(field)
        guard count >= 1 else { return }
        var numerator: UInt32 = 0
        var denominator: UInt32 = 0
        var valueAt: UInt64 = 0
        switch type {
        case 5:  // RATIONAL
            if isBigTIFF && count == 1 {
                numerator = field.u32(12, bigEndian: bigEndian)
                denominator = field.u32(16, bigEndian: bigEndian)
            } else {
                valueAt = valuesOffset(field)
            }
        case 3, 4:  // SHORT, LONG
            if let value = firstInlineValue(field), let whole = UInt32(exactly: value) {
                numerator = whole
                denominator = 1
            }
        default:
            return
        }
        if x {
            (xNumerator, xDenominator, xValueAt) = (numerator, denominator, valueAt)
        } else {
            (yNumerator, yDenominator, yValueAt) = (numerator, denominator, valueAt)
        }
    }

    /// The entry's first value when it is stored in the entry itself and is an unsigned SHORT,
    /// LONG or LONG8 (BigTIFF: 8 bytes fit its entries alone); with `anyInteger`, also a BYTE
    /// or a signed type, as libtiff and exiftool read them (TIFF 6.0 §2 names BYTE, SHORT and
    /// LONG for unsigned fields; writers also use the signed types). A signed value is read
    /// as unsigned, which gives the same answer to a caller comparing with small positive
    /// numbers. UNDEFINED, rationals and floats give nil.
    func firstInlineValue(_ field: FieldBytes, anyInteger: Bool = false) -> UInt64? {
        // The values a classic entry holds in its last 4 bytes, a BigTIFF entry in its last 8.
        let count = valueCount(field)
        let room: UInt64 = isBigTIFF ? 8 : 4
        let valueIndex = isBigTIFF ? 12 : 8
        let type = field.u16(2, bigEndian: bigEndian)
        guard count >= 1, anyInteger || type == 3 || type == 4 || type == 16 else { return nil }
        switch type {
        case 3, 8:  // SHORT, SSHORT
            return count <= room / 2 ? UInt64(field.u16(valueIndex, bigEndian: bigEndian)) : nil
        case 4, 9:  // LONG, SLONG
            return count <= room / 4 ? UInt64(field.u32(valueIndex, bigEndian: bigEndian)) : nil
        case 16, 17:  // LONG8, SLONG8
            return count <= room / 8 ? field.u64(valueIndex, bigEndian: bigEndian) : nil
        case 1, 6:  // BYTE, SBYTE
            return count <= room ? UInt64(field.u8(valueIndex)) : nil
        default:
            return nil
        }
    }
}
