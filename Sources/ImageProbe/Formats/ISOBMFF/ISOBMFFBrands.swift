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

    /// Yes-or-no facts kept a bit each, named by the cases of `Flag`: the parser fills the
    /// scanner's 256-byte slot, with no room for a byte per fact (LayoutTests).
    struct PackedFlags<Flag: RawRepresentable, Bits: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable
    where Flag.RawValue == UInt8 {
        private var bits: Bits = 0

        init() {}

        subscript(flag: Flag) -> Bool {
            get { bits & (1 &<< Bits(flag.rawValue)) != 0 }
            set {
                let mask: Bits = 1 &<< Bits(flag.rawValue)
                bits = newValue ? bits | mask : bits & ~mask
            }
        }
    }

    /// AVIF or other HEIF: what `ftyp`'s brands, the item types and the sample entries say,
    /// and the sub-machine that reads `ftyp` (`Phase`'s ftyp group). Decided by `format`: AVIF
    /// for the AVIF brands; HEIF for brands of other codings; otherwise (generic brands such as
    /// mif1) by the primary item's type, then by the items and compatible brands.
    struct Brands: Sendable {
        enum Flag: UInt8, CaseIterable {
            /// A brand says the file holds HEIF images or image sequences.
            case hasImageBrand
            case compatibleWithAVIF
            /// A brand names an image sequence: `moov` holds frames worth reading.
            case hasSequenceBrand
            case sawAV1Item
            case sawOtherCodedItem
            case majorIsAVIF
            /// The major brand names a coding other than AV1.
            case majorIsCodingSpecific
            case majorIsSequence
            /// A gain map: a `tmap` item, or Apple's HDR gain map auxiliary image (full mode).
            case sawGainMap
            /// Full mode: colour and gain maps are read.
            case fullMode
            /// The primary item is a `grid`.
            case primaryIsGrid
        }

        /// What an item's or a sample entry's type says.
        enum Coding: UInt8, Sendable {
            case unknown = 0, av1, other, unrecognised
        }

        var flags = PackedFlags<Flag, UInt16>()
        /// The coding of the primary item, once its `infe` is read.
        var primaryCoding = Coding.unknown

        init() {}

        var hasImageBrand: Bool { get { flags[.hasImageBrand] } set { flags[.hasImageBrand] = newValue } }
        var compatibleWithAVIF: Bool { get { flags[.compatibleWithAVIF] } set { flags[.compatibleWithAVIF] = newValue } }
        var hasSequenceBrand: Bool { get { flags[.hasSequenceBrand] } set { flags[.hasSequenceBrand] = newValue } }
        var sawAV1Item: Bool { get { flags[.sawAV1Item] } set { flags[.sawAV1Item] = newValue } }
        var sawOtherCodedItem: Bool { get { flags[.sawOtherCodedItem] } set { flags[.sawOtherCodedItem] = newValue } }
        var majorIsAVIF: Bool { get { flags[.majorIsAVIF] } set { flags[.majorIsAVIF] = newValue } }
        var majorIsCodingSpecific: Bool {
            get { flags[.majorIsCodingSpecific] }
            set { flags[.majorIsCodingSpecific] = newValue }
        }
        var majorIsSequence: Bool { get { flags[.majorIsSequence] } set { flags[.majorIsSequence] = newValue } }
        var sawGainMap: Bool { get { flags[.sawGainMap] } set { flags[.sawGainMap] = newValue } }
        var fullMode: Bool { get { flags[.fullMode] } set { flags[.fullMode] = newValue } }
        var primaryIsGrid: Bool { get { flags[.primaryIsGrid] } set { flags[.primaryIsGrid] = newValue } }

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
            majorIsAVIF = traits.contains(.av1)
            majorIsCodingSpecific = traits.contains(.otherCoding)
            majorIsSequence = traits.contains(.sequence)
            hasImageBrand = traits.contains(.image)
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
            if traits.contains(.image) { hasImageBrand = true }
            if traits.contains(.sequence) { hasSequenceBrand = true }
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
            primaryIsGrid = type == Box.grid
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

        /// What a brand says.
        struct Traits: OptionSet, Sendable {
            let rawValue: UInt8
            init(rawValue: UInt8) { self.rawValue = rawValue }

            /// HEIF images or image sequences.
            static let image = Traits(rawValue: 1)
            /// AV1: avif avis avio.
            static let av1 = Traits(rawValue: 2)
            /// Another coding: HEVC, VVC, AVC, JPEG, JPEG 2000.
            static let otherCoding = Traits(rawValue: 4)
            /// An image sequence.
            static let sequence = Traits(rawValue: 8)
        }

        /// What `brand` says: the structural brands of HEIF and MIAF (mif1 mif2 msf1 miaf), the
        /// AVIF brands and the coding-specific ones. The sequence brands are AVIF's avis,
        /// HEIF's msf1 and the coding-specific sequence brands (ISO/IEC 23008-12 Annex B to E).
        /// One switch for the major brand and the compatible ones.
        static func traits(_ brand: UInt32) -> Traits {
            switch brand {
            case avif, avio: [.image, .av1]
            case avis: [.image, .av1, .sequence]
            case 0x6D69_6631, 0x6D69_6632, 0x6D69_6166: .image  // mif1 mif2 miaf
            case msf1: [.image, .sequence]
            case 0x6865_6963, 0x6865_6978, 0x6865_696D, 0x6865_6973, 0x6865_766D,  // heic heix heim heis hevm
                0x7676_6963, 0x6176_6369, 0x6A32_6B69, 0x6A70_6567:  // vvic avci j2ki jpeg
                [.image, .otherCoding]
            case 0x6865_7663, 0x6865_7678, 0x6865_7673,  // hevc hevx hevs
                0x7676_6973, 0x6176_6373, 0x6A32_6973, 0x6A70_6773:  // vvis avcs j2is jpgs
                [.image, .otherCoding, .sequence]
            default: []
            }
        }
    }
}
#endif
