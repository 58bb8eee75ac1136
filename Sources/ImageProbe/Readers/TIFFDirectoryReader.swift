/// The tags the directory walker looks for.
struct TIFFTags: OptionSet, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

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
/// holds 4). Those values are read after the entries, in file order, forward only: one that
/// lies behind the walk, outside the structure, past the input's known length or more than
/// `valueWindow` bytes ahead is not read, and the file then states no resolution. The walker
/// never buffers or goes back.
struct TIFFDirectoryReader: Sendable {
    enum Phase: Sendable {
        case entryCount
        case entry
        /// The resolution values stored after the entries.
        case values
    }

    /// How far past the end of IFD0's entries a resolution value is followed. Writers put
    /// these values right after the directory (libtiff, Pillow, Photoshop, cameras' EXIF):
    /// a value further away would cost a stream up to that many bytes for a fact.
    static let valueWindow: UInt64 = 65_536

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
    /// First BitsPerSample value when stored inline, else 0.
    var bitsPerSample: UInt16 = 0
    /// ResolutionUnit, when `found` has it: 2 inch, 3 centimetre; anything else states no
    /// physical resolution (1 is "none"; 0 is an unreadable entry).
    var resolutionUnit: UInt16 = 0
    /// Whether every entry of IFD0 was examined, so that a tag not found is absent.
    var walkedWholeDirectory = false
    /// XResolution and YResolution as rationals; 0/0 until read.
    var xNumerator: UInt32 = 0
    var xDenominator: UInt32 = 0
    var yNumerator: UInt32 = 0
    var yDenominator: UInt32 = 0
    /// Absolute offsets of the XResolution and YResolution values still to read, 0 for none.
    var xValueAt: UInt64 = 0
    var yValueAt: UInt64 = 0

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

    /// Full mode's resolution values: out of line, so the entry walk that every mode runs
    /// doesn't carry this phase's code.
    @inline(never)
    mutating func readValues(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Outcome {
        // The field covers one or both pending values (`nextValue` planned it).
        let next = offset &+ field.span
        if xValueAt >= offset && xValueAt <= next &- 8 {
            let index = Int(truncatingIfNeeded: xValueAt &- offset)  // < 64: inside the field
            xNumerator = field.u32(index, bigEndian: bigEndian)
            xDenominator = field.u32(index + 4, bigEndian: bigEndian)
            xValueAt = 0
        }
        if yValueAt >= offset && yValueAt <= next &- 8 {
            let index = Int(truncatingIfNeeded: yValueAt &- offset)  // < 64: inside the field
            yNumerator = field.u32(index, bigEndian: bigEndian)
            yDenominator = field.u32(index + 4, bigEndian: bigEndian)
            yValueAt = 0
        }
        return nextValue(at: next, options: options)
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
        found.isSuperset(of: wanted.subtracting(.extras)) && wanted.contains(.extras) ? .finished : .limitExceeded
    }

    /// After the last entry examined, at `position`: the resolution values stored outside
    /// their entries, when full mode wants them and the entries can give a resolution.
    mutating func afterEntries(at position: UInt64, options: ScanOptions) -> Outcome {
        guard wanted.contains(.extras) else { return .finished }
        return valuesAfterEntries(at: position, options: options)
    }

    /// `afterEntries` in full mode, out of line (see `readValues`).
    @inline(never)
    mutating func valuesAfterEntries(at position: UInt64, options: ScanOptions) -> Outcome {
        guard walkedWholeDirectory, resolutionMicrometres != 0 else { return .finished }
        phase = .values
        return nextValue(at: position, options: options)
    }

    /// The next read of the pending resolution values from `position`: both in one field when
    /// they lie within 64 bytes of each other, else the nearer one first. A value the walk
    /// cannot reach forward (see the type's comment) is dropped with the other one: a
    /// resolution needs both.
    mutating func nextValue(at position: UInt64, options: ScanOptions) -> Outcome {
        if (xValueAt != 0 && !reachable(xValueAt, from: position, options))
            || (yValueAt != 0 && !reachable(yValueAt, from: position, options))
        {
            xValueAt = 0
            yValueAt = 0
            xDenominator = 0
            yDenominator = 0
            return .finished
        }
        let low: UInt64
        let high: UInt64
        switch (xValueAt != 0, yValueAt != 0) {
        case (true, true): (low, high) = (min(xValueAt, yValueAt), max(xValueAt, yValueAt))
        case (true, false): (low, high) = (xValueAt, xValueAt)
        case (false, true): (low, high) = (yValueAt, yValueAt)
        case (false, false): return .finished
        }
        let span = high &- low &+ 8
        let width = span <= UInt64(Carry.capacity) ? Int(truncatingIfNeeded: span) : 8  // span <= 64 here
        return .step(low == position ? .read(width) : .skipThenRead(low &- position, width))
    }

    /// Whether an 8-byte value at absolute `offset` can be read going forward from `position`.
    func reachable(_ offset: UInt64, from position: UInt64, _ options: ScanOptions) -> Bool {
        guard offset >= position, offset &- position <= Self.valueWindow, fits(offset, 8) else { return false }
        if let length = options.inputLength { return offset <= length && length &- offset >= 8 }
        return true
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
        case 0x0102:  // BitsPerSample
            if bitsPerSample == 0, let value = firstInlineValue(field), value <= UInt64(UInt16.max) {
                bitsPerSample = UInt16(value)
            }
        case 0x0112:  // Orientation: the tag settles the question even when its value is invalid.
            if !found.contains(.orientation) {
                found.insert(.orientation)
                if let value = firstInlineValue(field, anyInteger: true), value >= 1 && value <= 8 {
                    orientation = UInt8(value)
                }
            }
        default:
            if wanted.contains(.extras) { readExtraEntry(tag, field) }
        }
    }

    /// Full mode's tags: out of line, so the other modes' entries pay one test for them.
    @inline(never)
    mutating func readExtraEntry(_ tag: UInt16, _ field: FieldBytes) {
        switch tag {
        case 0x011A, 0x011B:  // XResolution, YResolution
            let axis: TIFFTags = tag == 0x011A ? .xResolution : .yResolution
            if !found.contains(axis) {
                found.insert(axis)
                readResolution(field, x: tag == 0x011A)
            }
        case 0x0128:  // ResolutionUnit
            if !found.contains(.resolutionUnit) {
                found.insert(.resolutionUnit)
                if let value = firstInlineValue(field), value <= 3 { resolutionUnit = UInt16(truncatingIfNeeded: value) }
            }
        case 0x8773:  // ICCProfile (34675): present with a value.
            if valueCount(field) > 0 { found.insert(.iccProfile) }
        default:
            break
        }
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
                let relative = isBigTIFF ? field.u64(12, bigEndian: bigEndian) : UInt64(field.u32(8, bigEndian: bigEndian))
                let (absolute, overflow) = base.addingReportingOverflow(relative)
                // Offset 0 is the header: unreachable, as the 0 that means "none" says.
                valueAt = overflow ? 0 : absolute
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
