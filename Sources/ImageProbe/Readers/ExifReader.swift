/// Reads the orientation and the resolution from an EXIF block: a TIFF structure between
/// `start` and `end`, optionally preceded by the "Exif\0\0" identifier.
///
/// JPEG's APP1 requires the identifier (CIPA DC-008). PNG's `eXIf` and WebP's `EXIF` start
/// with the TIFF header itself, but some writers copy the JPEG identifier into them too, so
/// there it is optional. The block is read in two steps (8, then 6 bytes) so that an IFD0
/// placed right after the header is never passed.
struct ExifReader: Sendable {
    enum Phase: UInt8, Sendable {
        case start
        /// Saw "Exif\0\0" and the first two TIFF bytes: the byte order is `byteOrder`.
        case afterIdentifier
        /// IFD0, walked by `walker`.
        case directory
    }

    enum Outcome: Sendable {
        case step(Step)
        /// Done with the block: `orientation` and `facts` hold what it says.
        case finished
    }

    var walker = TIFFDirectoryReader()
    /// Absolute offsets of the block's first byte and of its end.
    var start: UInt64
    var end: UInt64
    var byteOrder: UInt16 = 0
    var phase: Phase = .start
    var requiresIdentifier: Bool
    /// Whether the block began with "Exif\0": it is an EXIF block, readable or not.
    var sawIdentifier = false
    /// Once finished, the extra facts the block's IFD0 settles: `dpi` from XResolution,
    /// YResolution and ResolutionUnit (nothing else is set; an ICC profile in JPEG, PNG and
    /// WebP belongs to the container). Read from the walker, not returned in `Outcome`: a
    /// payload there is returned through memory.
    var facts: ExtraFacts {
        var extras = ExtraFacts()
        walker.apply(to: &extras, icc: false)
        return extras
    }

    /// Once finished, the orientation the block holds, if any.
    var orientation: Orientation? { walker.orientation == 0 ? nil : Orientation(unchecked: walker.orientation) }

    /// A reader with no block, until one is assigned.
    init() {
        self.init(start: 0, end: 0, requiresIdentifier: false)
    }

    init(start: UInt64, end: UInt64, requiresIdentifier: Bool) {
        self.start = start
        self.end = end
        self.requiresIdentifier = requiresIdentifier
    }

    /// The first step, or nil when the block is too short to hold a TIFF header.
    var firstStep: Step? { end &- start >= (requiresIdentifier ? 14 : 8) ? .read(8) : nil }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Outcome {
        let next = offset &+ field.span
        switch phase {
        case .start:
            if !requiresIdentifier,
                let (reader, ifdOffset) = TIFFDirectoryReader.classicHeader(
                    field, at: 0, base: start, end: end, wanted: Self.wanted)
            {
                walker = reader
                return directory(walker.begin(ifdOffset: ifdOffset, position: next))
            }
            guard field.matches("Exif\0", at: 0) else { return .finished }
            sawIdentifier = true
            guard end &- start >= 14 else { return .finished }
            phase = .afterIdentifier
            byteOrder = field.be16(6)
            return .step(.read(6))
        case .afterIdentifier:
            let bigEndian: Bool
            switch byteOrder {
            case 0x4949: bigEndian = false  // "II"
            case 0x4D4D: bigEndian = true  // "MM"
            default: return .finished
            }
            guard field.u16(0, bigEndian: bigEndian) == 42 else { return .finished }
            walker = TIFFDirectoryReader(
                bigEndian: bigEndian, isBigTIFF: false, base: start &+ 6, end: end, wanted: Self.wanted)
            let outcome = walker.begin(ifdOffset: UInt64(field.u32(2, bigEndian: bigEndian)), position: next)
            return directory(outcome)
        case .directory:
            let outcome = walker.parse(field, at: offset, options: options)
            return directory(outcome)
        }
    }

    mutating func directory(_ outcome: TIFFDirectoryReader.Outcome) -> Outcome {
        switch outcome {
        case .step(let step):
            phase = .directory
            return .step(step)
        case .finished:
            break
        case .invalid, .limitExceeded:
            // A broken EXIF block costs the orientation and the resolution, never the image.
            walker.orientation = 0
            walker.wanted = []
        }
        return .finished
    }

    /// IFD0's orientation, and its resolution: every entry is read (the unit may follow the
    /// values), then the values stored after them.
    static var wanted: TIFFTags { [.orientation, .extras] }
}
