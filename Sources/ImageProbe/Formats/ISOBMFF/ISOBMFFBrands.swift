#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ISOBMFF)
extension ISOBMFFParser {
    /// What a sub-machine of the parser says after a field of the box it reads.
    enum Outcome: Sendable {
        /// It reads on in the same phase, or the step ends the scan.
        case step(Step)
        /// It reads on in the box, in the phase given.
        case next(Step, Phase)
        /// It is done with the box, read up to `from`: the walk goes on after the box, in its
        /// container `level` (a constant where the sub-machine says it, so the walk's next
        /// step is resolved at compile time).
        case boxDone(from: UInt64, in: Level)
        /// Nothing more in the track's `mdia` matters: the walk goes on after it.
        case mediaDone(from: UInt64)
    }

    /// A leaf box a sub-machine reads: its first step, and the phase that reads it.
    typealias BoxStart = (step: Step, phase: Phase)

    /// AVIF or other HEIF: what `ftyp`'s brands, the item types and the sample entries say,
    /// and the sub-machine that reads `ftyp` (`Phase`'s ftyp group). Two bytes of facts, decided by
    /// `format`: AVIF for the AVIF brands; HEIF for brands of other codings; otherwise (generic
    /// brands such as mif1) by the primary item's type, then by the items and compatible brands.
    struct Brands: Sendable {
        /// The facts, one bit each, and in bits 8–9 the primary item's coding (`Coding`).
        var bits: UInt16 = 0

        /// What an item's or a sample entry's type says.
        enum Coding: UInt16, Sendable {
            case unknown = 0, av1, other, unrecognised
        }

        init() {}

        @inline(__always)
        func bit(_ index: UInt16) -> Bool { bits & (1 << index) != 0 }
        @inline(__always)
        mutating func setBit(_ index: UInt16, _ value: Bool) {
            bits = value ? bits | 1 << index : bits & ~(1 << index)
        }
        /// A brand says the file holds HEIF images or image sequences.
        var hasImageBrand: Bool { get { bit(0) } set { setBit(0, newValue) } }
        var compatibleWithAVIF: Bool { get { bit(1) } set { setBit(1, newValue) } }
        /// A brand names an image sequence: `moov` holds frames worth reading.
        var hasSequenceBrand: Bool { get { bit(2) } set { setBit(2, newValue) } }
        var sawAV1Item: Bool { get { bit(3) } set { setBit(3, newValue) } }
        var sawOtherCodedItem: Bool { get { bit(4) } set { setBit(4, newValue) } }
        var majorIsAVIF: Bool { get { bit(5) } set { setBit(5, newValue) } }
        /// The major brand names a coding other than AV1.
        var majorIsCodingSpecific: Bool { get { bit(6) } set { setBit(6, newValue) } }
        var majorIsSequence: Bool { get { bit(7) } set { setBit(7, newValue) } }
        /// A gain map: a `tmap` item, or Apple's HDR gain map auxiliary image (full mode).
        var sawGainMap: Bool { get { bit(10) } set { setBit(10, newValue) } }
        /// Full mode: colour and gain maps are read.
        var fullMode: Bool { get { bit(11) } set { setBit(11, newValue) } }
        /// The coding of the primary item, once its `infe` is read.
        var primaryCoding: Coding {
            get { Coding(rawValue: bits >> 8 & 3) ?? .unknown }
            set { bits = bits & ~0x300 | newValue.rawValue << 8 }
        }

        /// Whether the major brand alone decides between AVIF and other HEIF.
        var majorSettlesFormat: Bool { majorIsAVIF || majorIsCodingSpecific }

        var format: ImageFormat {
            if majorIsAVIF { return .avif }
            if majorIsCodingSpecific { return .heif }
            switch primaryCoding {
            case .av1: return .avif
            case .other: return .heif
            case .unknown, .unrecognised:
                return (sawAV1Item && !sawOtherCodedItem) || (compatibleWithAVIF && !sawOtherCodedItem) ? .avif : .heif
            }
        }

        // MARK: ftyp

        /// `ftyp`'s 64-bit size, when its 32-bit size was 1.
        static func largeSize(_ field: FieldBytes, walker: inout BoxWalker) -> Outcome {
            let size = field.be64(0)
            guard size >= 24 else { return .step(.failed(.malformed(.heif, .ftypBoxTooSmall))) }
            walker.boxEnd = size
            return .next(.read(8), .ftypHead)
        }

        /// `ftyp`'s major brand and minor version.
        mutating func head(_ field: FieldBytes, at offset: UInt64, options: ScanOptions, walker: inout BoxWalker) -> Outcome {
            let position = offset &+ field.span
            let end = walker.boxEnd
            guard end >= position else { return .step(.failed(.malformed(.heif, .ftypBoxTooSmall))) }
            guard !options.runsPastInput(end) else {
                return .step(.failed(.malformed(.heif, .boxOrChunkRunsPastTheEndOfTheInput)))
            }
            let major = field.tag(0)
            fullMode = !options.dimensionsOnly
            let traits = Brand.traits(major)
            majorIsAVIF = traits & Brand.av1 != 0
            majorIsCodingSpecific = traits & Brand.otherCoding != 0
            majorIsSequence = traits & Brand.sequence != 0
            hasImageBrand = traits & Brand.image != 0
            hasSequenceBrand = majorIsSequence
            return nextBrand(at: position, options: options, walker: &walker)
        }

        /// A run of compatible brands.
        mutating func compatible(_ field: FieldBytes, at offset: UInt64, options: ScanOptions, walker: inout BoxWalker) -> Outcome {
            var index = 0
            while index &+ 4 <= field.count {
                let brand = field.tag(index)
                note(brand)
                if brand == Brand.avif { compatibleWithAVIF = true }
                index &+= 4
            }
            return nextBrand(at: offset &+ field.span, options: options, walker: &walker)
        }

        /// The next compatible brands, up to 16 in a field. Each counts against `maxEntries`
        /// as it would one at a time: a run stops at the limit, and the brand after it fails.
        mutating func nextBrand(at position: UInt64, options: ScanOptions, walker: inout BoxWalker) -> Outcome {
            let end = walker.boxEnd
            guard end &- position >= 4, end > position else {
                guard hasImageBrand else { return .step(.failed(ISOBMFFParser.unknownBrand)) }
                return .boxDone(from: position, in: .top)
            }
            let limit = options.entryLimit
            guard walker.count(limit: limit) else {
                return .step(.failed(.limit(.heif, Failure.moreBrandsThanMaxEntries)))
            }
            // The first brand is counted; as many more as fit the field and the limit.
            let more = min((end &- position) / 4 &- 1, 15, UInt64(limit &- walker.boxes))
            walker.boxes &+= UInt32(truncatingIfNeeded: more)
            return .next(.read(4 &* (1 &+ Int(truncatingIfNeeded: more))), .compatibleBrand)
        }

        mutating func note(_ brand: UInt32) {
            let traits = Brand.traits(brand)
            if traits & Brand.image != 0 { hasImageBrand = true }
            if traits & Brand.sequence != 0 { hasSequenceBrand = true }
        }

        /// An item's type or a sample entry's: which codings the file uses.
        mutating func noteCoding(_ type: UInt32) {
            switch Brand.coding(type) {
            case .av1: sawAV1Item = true
            case .other: sawOtherCodedItem = true
            case .unknown, .unrecognised: break
            }
        }

        /// The primary item's type, from its `infe`.
        mutating func notePrimary(_ type: UInt32) {
            primaryCoding = Brand.coding(type)
        }
    }

    enum Brand {
        static let avif: UInt32 = 0x6176_6966  // "avif"
        static let avis: UInt32 = 0x6176_6973  // "avis"
        static let avio: UInt32 = 0x6176_696F  // "avio"
        static let msf1: UInt32 = 0x6D73_6631  // "msf1"
        static let av01: UInt32 = 0x6176_3031  // "av01"
        static let hvc1: UInt32 = 0x6876_6331  // "hvc1"
        static let hev1: UInt32 = 0x6865_7631  // "hev1"
        static let vvc1: UInt32 = 0x7676_6331  // "vvc1"
        static let avc1: UInt32 = 0x6176_6331  // "avc1"
        static let jpeg: UInt32 = 0x6A70_6567  // "jpeg"
        static let j2k1: UInt32 = 0x6A32_6B31  // "j2k1"

        /// The coding an item or sample entry type names: 0 stays unknown.
        static func coding(_ type: UInt32) -> Brands.Coding {
            switch type {
            case 0: .unknown
            case av01: .av1
            case hvc1, hev1, vvc1, avc1, jpeg, j2k1: .other
            default: .unrecognised
            }
        }

        /// What a brand says, one bit each: HEIF images or image sequences (`image`), AV1
        /// (`av1`: avif avis avio), another coding (`otherCoding`: HEVC, VVC, AVC, JPEG,
        /// JPEG 2000), an image sequence (`sequence`).
        static var image: UInt8 { 1 }
        static var av1: UInt8 { 2 }
        static var otherCoding: UInt8 { 4 }
        static var sequence: UInt8 { 8 }

        /// The bits above for `brand`: the structural brands of HEIF and MIAF (mif1 mif2 msf1
        /// miaf), the AVIF brands and the coding-specific ones. The sequence brands are AVIF's
        /// avis, HEIF's msf1 and the coding-specific sequence brands (ISO/IEC 23008-12 Annex B
        /// to E). One switch for the major brand and the compatible ones.
        static func traits(_ brand: UInt32) -> UInt8 {
            switch brand {
            case avif, avio: image | av1
            case avis: image | av1 | sequence
            case 0x6D69_6631, 0x6D69_6632, 0x6D69_6166: image  // mif1 mif2 miaf
            case msf1: image | sequence
            case 0x6865_6963, 0x6865_6978, 0x6865_696D, 0x6865_6973, 0x6865_766D,  // heic heix heim heis hevm
                0x7676_6963, 0x6176_6369, 0x6A32_6B69, 0x6A70_6567:  // vvic avci j2ki jpeg
                image | otherCoding
            case 0x6865_7663, 0x6865_7678, 0x6865_7673,  // hevc hevx hevs
                0x7676_6973, 0x6176_6373, 0x6A32_6973, 0x6A70_6773:  // vvis avcs j2is jpgs
                image | otherCoding | sequence
            default: 0
            }
        }
    }
}
#endif
