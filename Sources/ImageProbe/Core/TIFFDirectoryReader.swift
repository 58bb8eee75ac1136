/// The tags the directory walker looks for.
@usableFromInline
struct TIFFTags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

    @usableFromInline static let width = TIFFTags(rawValue: 1)
    @usableFromInline static let height = TIFFTags(rawValue: 2)
    @usableFromInline static let orientation = TIFFTags(rawValue: 4)
}

/// Walks the entries of a TIFF structure's first directory (IFD0), one entry per field,
/// without buffering it. Shared by TIFF files and by EXIF blocks inside JPEG, PNG and WebP,
/// which are TIFF structures bounded by their segment or chunk.
///
/// Offsets in TIFF are relative to the TIFF header (`base`). The walker never reads past
/// `end`, and stops as soon as every wanted tag is found.
@usableFromInline
struct TIFFDirectoryReader: Sendable {
    @usableFromInline
    enum Phase: Sendable {
        case entryCount
        case entry
    }

    @usableFromInline
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

    @usableFromInline var bigEndian: Bool
    @usableFromInline var isBigTIFF: Bool
    /// Absolute input offset of the TIFF header; TIFF offsets count from here.
    @usableFromInline var base: UInt64
    /// Absolute input offset where the structure ends (UInt64.max when unbounded).
    @usableFromInline var end: UInt64
    @usableFromInline var wanted: TIFFTags
    @usableFromInline var found: TIFFTags = []
    @usableFromInline var phase: Phase = .entryCount
    @usableFromInline var entriesLeft: UInt64 = 0
    @usableFromInline var entriesExamined: Int = 0

    @usableFromInline var width: UInt64 = 0
    @usableFromInline var height: UInt64 = 0
    /// EXIF orientation 1...8, or 0 when absent or out of range.
    @usableFromInline var orientation: UInt8 = 0
    /// First BitsPerSample value when stored inline, else 0.
    @usableFromInline var bitsPerSample: UInt16 = 0

    /// A reader with nothing to read, until one is assigned.
    @inlinable
    init() {
        self.init(bigEndian: false, isBigTIFF: false, base: 0, end: 0, wanted: [])
    }

    @inlinable
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
    @inlinable
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

    @inlinable
    var countWidth: Int { isBigTIFF ? 8 : 2 }

    @inlinable
    var entryWidth: Int { isBigTIFF ? 20 : 12 }

    @inlinable
    func fits(_ offset: UInt64, _ width: Int) -> Bool {
        offset <= end && UInt64(width) <= end &- offset
    }

    /// Moves to IFD0 at `ifdOffset` (relative to the header) from absolute offset `position`.
    /// TIFF readers can only move forward: an IFD0 behind `position` is invalid.
    @inlinable
    mutating func begin(ifdOffset: UInt64, position: UInt64) -> Outcome {
        let (target, overflow) = base.addingReportingOverflow(ifdOffset)
        guard !overflow, target >= position else { return .invalid(.ifd0OffsetPointsBackwards) }
        guard fits(target, countWidth) else { return .invalid(.ifd0LiesOutsideTheTIFFData) }
        phase = .entryCount
        return .step(target == position ? .read(countWidth) : .skipThenRead(target &- position, countWidth))
    }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Outcome {
        let next = offset &+ UInt64(field.count)
        switch phase {
        case .entryCount:
            entriesLeft = isBigTIFF ? field.u64(0, bigEndian: bigEndian) : UInt64(field.u16(0, bigEndian: bigEndian))
            guard entriesLeft > 0 else { return .finished }
            phase = .entry
            return nextEntry(at: next, options: options)
        case .entry:
            readEntry(field)
            entriesLeft &-= 1
            if found.isSuperset(of: wanted) || entriesLeft == 0 { return .finished }
            return nextEntry(at: next, options: options)
        }
    }

    @inlinable
    mutating func nextEntry(at offset: UInt64, options: ScanOptions) -> Outcome {
        // A directory cut short by its container ends the walk; what was found stands.
        guard fits(offset, entryWidth) else { return .finished }
        guard entriesExamined < options.maxEntries else { return .limitExceeded }
        entriesExamined &+= 1
        return .step(.read(entryWidth))
    }

    /// The first entry of a tag wins: a repeated tag must not change an answer that a shorter
    /// read (dimensions-only mode, or a truncated input) has already given.
    @inlinable
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
                if let value = firstInlineInteger(field), value >= 1 && value <= 8 {
                    orientation = UInt8(value)
                }
            }
        default:
            break
        }
    }

    /// The first value of an entry of any integer type stored in the entry itself: BYTE,
    /// SHORT, LONG, LONG8 and their signed forms, as libtiff and exiftool read them (TIFF 6.0
    /// §2 names BYTE, SHORT and LONG for unsigned fields; writers also use the signed types).
    /// UNDEFINED, rationals and floats give nil.
    @inlinable
    func firstInlineInteger(_ field: FieldBytes) -> Int64? {
        let type = field.u16(2, bigEndian: bigEndian)
        let count = isBigTIFF ? field.u64(4, bigEndian: bigEndian) : UInt64(field.u32(4, bigEndian: bigEndian))
        let valueIndex = isBigTIFF ? 12 : 8
        let inlineBytes: UInt64 = isBigTIFF ? 8 : 4
        guard count >= 1 else { return nil }
        switch type {
        case 1, 6:  // BYTE, SBYTE
            guard count <= inlineBytes else { return nil }
            let byte = field.u8(valueIndex)
            return type == 1 ? Int64(byte) : Int64(Int8(bitPattern: byte))
        case 3, 8:  // SHORT, SSHORT
            guard count <= inlineBytes / 2 else { return nil }
            let short = field.u16(valueIndex, bigEndian: bigEndian)
            return type == 3 ? Int64(short) : Int64(Int16(bitPattern: short))
        case 4, 9:  // LONG, SLONG
            guard count <= inlineBytes / 4 else { return nil }
            let long = field.u32(valueIndex, bigEndian: bigEndian)
            return type == 4 ? Int64(long) : Int64(Int32(bitPattern: long))
        case 16, 17:  // LONG8, SLONG8 (BigTIFF only)
            guard isBigTIFF && count == 1 else { return nil }
            return Int64(bitPattern: field.u64(valueIndex, bigEndian: bigEndian))
        default:
            return nil
        }
    }

    /// The entry's first value when it is an unsigned SHORT, LONG or LONG8 stored inside the
    /// entry itself.
    @inlinable
    func firstInlineValue(_ field: FieldBytes) -> UInt64? {
        let type = field.u16(2, bigEndian: bigEndian)
        let count = isBigTIFF ? field.u64(4, bigEndian: bigEndian) : UInt64(field.u32(4, bigEndian: bigEndian))
        let valueIndex = isBigTIFF ? 12 : 8
        let inlineBytes: UInt64 = isBigTIFF ? 8 : 4
        guard count >= 1 else { return nil }
        switch type {
        case 3:  // SHORT
            guard count <= inlineBytes / 2 else { return nil }
            return UInt64(field.u16(valueIndex, bigEndian: bigEndian))
        case 4:  // LONG
            guard count <= inlineBytes / 4 else { return nil }
            return UInt64(field.u32(valueIndex, bigEndian: bigEndian))
        case 16:  // LONG8 (BigTIFF only)
            guard isBigTIFF && count == 1 else { return nil }
            return field.u64(valueIndex, bigEndian: bigEndian)
        default:
            return nil
        }
    }
}

/// Reads the orientation from an EXIF block: a TIFF structure between `start` and `end`,
/// optionally preceded by the "Exif\0\0" identifier.
///
/// JPEG's APP1 requires the identifier (CIPA DC-008). PNG's `eXIf` and WebP's `EXIF` start
/// with the TIFF header itself, but some writers copy the JPEG identifier into them too, so
/// there it is optional. The block is read in two steps (8, then 6 bytes) so that an IFD0
/// placed right after the header is never passed.
@usableFromInline
struct ExifReader: Sendable {
    @usableFromInline
    enum Phase: UInt8, Sendable {
        case start
        /// Saw "Exif\0\0" and the first two TIFF bytes: the byte order is `byteOrder`.
        case afterIdentifier
        /// IFD0, walked by `walker`.
        case directory
    }

    @usableFromInline
    enum Outcome: Sendable {
        case step(Step)
        /// Done with the block: the orientation it holds, if any.
        case finished(Orientation?)
    }

    @usableFromInline var walker = TIFFDirectoryReader()
    /// Absolute offsets of the block's first byte and of its end.
    @usableFromInline var start: UInt64
    @usableFromInline var end: UInt64
    @usableFromInline var byteOrder: UInt16 = 0
    @usableFromInline var phase: Phase = .start
    @usableFromInline var requiresIdentifier: Bool
    /// Whether the block began with "Exif\0": it is an EXIF block, readable or not.
    @usableFromInline var sawIdentifier = false

    /// A reader with no block, until one is assigned.
    @inlinable
    init() {
        self.init(start: 0, end: 0, requiresIdentifier: false)
    }

    @inlinable
    init(start: UInt64, end: UInt64, requiresIdentifier: Bool) {
        self.start = start
        self.end = end
        self.requiresIdentifier = requiresIdentifier
    }

    /// The first step, or nil when the block is too short to hold a TIFF header.
    @inlinable
    var firstStep: Step? { end &- start >= (requiresIdentifier ? 14 : 8) ? .read(8) : nil }

    @inlinable
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Outcome {
        let next = offset &+ UInt64(field.count)
        switch phase {
        case .start:
            if !requiresIdentifier,
                let (reader, ifdOffset) = TIFFDirectoryReader.classicHeader(
                    field, at: 0, base: start, end: end, wanted: .orientation)
            {
                walker = reader
                return directory(walker.begin(ifdOffset: ifdOffset, position: next))
            }
            guard field.matches("Exif\0", at: 0) else { return .finished(nil) }
            sawIdentifier = true
            guard end &- start >= 14 else { return .finished(nil) }
            phase = .afterIdentifier
            byteOrder = field.be16(6)
            return .step(.read(6))
        case .afterIdentifier:
            let bigEndian: Bool
            switch byteOrder {
            case 0x4949: bigEndian = false  // "II"
            case 0x4D4D: bigEndian = true  // "MM"
            default: return .finished(nil)
            }
            guard field.u16(0, bigEndian: bigEndian) == 42 else { return .finished(nil) }
            walker = TIFFDirectoryReader(
                bigEndian: bigEndian, isBigTIFF: false, base: start &+ 6, end: end, wanted: .orientation)
            let outcome = walker.begin(ifdOffset: UInt64(field.u32(2, bigEndian: bigEndian)), position: next)
            return directory(outcome)
        case .directory:
            let outcome = walker.parse(field, at: offset, options: options)
            return directory(outcome)
        }
    }

    @inlinable
    mutating func directory(_ outcome: TIFFDirectoryReader.Outcome) -> Outcome {
        switch outcome {
        case .step(let step):
            phase = .directory
            return .step(step)
        case .finished:
            return .finished(walker.orientation == 0 ? nil : Orientation(unchecked: walker.orientation))
        case .invalid, .limitExceeded:
            // A broken EXIF block costs the orientation, never the image.
            return .finished(nil)
        }
    }
}
