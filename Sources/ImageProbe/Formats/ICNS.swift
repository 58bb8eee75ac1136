#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICNS)
/// Apple icon family (`icns`): the magic, the family's total length (32-bit big-endian), then
/// elements of OSType (4 bytes), length (32-bit big-endian, counting its 8-byte header) and
/// data.
///
/// The reported size is the largest icon's, from the pixel size each OSType stands for (the
/// @2x types are stored at twice their point size and reported in pixels). That is only known
/// when the family ends, so the element headers are walked to the declared total length,
/// skipping the data by length; a 1024×1024 `ic10`, the largest type there is, settles it
/// early. Non-icon elements (`TOC `, `icnV`, `name`, `info`, nested families) and unknown
/// types are skipped.
struct ICNSParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Bytes 2...7: "ns" and the total length.
        case familyHeader
        /// An element's OSType and length.
        case elementHeader
    }

    /// An element type's nominal pixel size.
    struct IconSize: Sendable {
        var width: UInt16
        var height: UInt16
        /// An 8-bit mask that goes with the icon of the same size, not an image of its own.
        var isMask: Bool

        init(_ width: UInt16, _ height: UInt16, isMask: Bool = false) {
            self.width = width
            self.height = height
            self.isMask = isMask
        }

        var area: UInt32 { UInt32(width) * UInt32(height) }
    }

    var phase: Phase = .familyHeader
    /// The facts; their size is the largest icon so far (0×0 before the first).
    var facts = ImageFacts(format: .icns)

    /// Offset where the family ends, as its header declares.
    var familyEnd: UInt64 = 0
    var elements = 0
    var icons = 0

    /// The largest pixel size of any type: once seen, nothing can beat it.
    static let maximumSide: UInt16 = 1024

    init() {}

    /// After the sniffed "ic".
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(6) }

    var format: ImageFormat? { .icns }

    /// Only a 1024×1024 icon makes the size certain before the family ends.
    func infoAtEndOfInput() -> ImageInfo? { facts.storedWidth == UInt32(Self.maximumSide) ? info : nil }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .familyHeader:
            guard field.matches("ns", at: 0) else { return .failed(ScanFailure(.unknownFormat, Failure.icnsMagicDamaged)) }
            familyEnd = UInt64(field.be32(2))
            guard familyEnd > 8 else { return .failed(.malformed(.icns, Failure.iconFamilyHoldsNoElement)) }
            // Elements stay inside the family, so its end settles SPEC.md §3, "Containers".
            guard !options.runsPastInput(familyEnd) else { return .failed(.malformed(.icns, .boxOrChunkRunsPastTheEndOfTheInput)) }
            phase = .elementHeader
            return .read(8)
        case .elementHeader:
            elements &+= 1
            guard elements <= options.maxEntries else { return .failed(.limit(.icns, Failure.moreElementsThanMaxEntries)) }
            let length = UInt64(field.be32(4))
            guard length >= 8 else { return .failed(.malformed(.icns, Failure.elementLengthBelow8)) }
            let next = offset &+ length
            guard next <= familyEnd else { return .failed(.malformed(.icns, Failure.elementRunsPastTheFamilySLength)) }
            // An element without data holds no image, whatever its type says.
            if length > 8, let size = Self.size(of: field.tag(0)) {
                if !size.isMask { icons &+= 1 }
                // Before the first icon the area is 0, which every icon beats.
                if size.area > facts.storedWidth &* facts.storedHeight {
                    guard options.admits(width: UInt64(size.width), height: UInt64(size.height)) else {
                        return .failed(.tooLarge(.icns))
                    }
                    facts.storedWidth = UInt32(size.width)
                    facts.storedHeight = UInt32(size.height)
                    if options.dimensionsOnly && size.width == Self.maximumSide { return finish(options) }
                }
            }
            if next == familyEnd { return finish(options) }
            guard familyEnd &- next >= 8 else {
                return .failed(.malformed(.icns, Failure.bytesAfterTheLastElementAreNotAnElement))
            }
            return length == 8 ? .read(8) : .skipThenRead(length &- 8, 8)
        }
    }

    mutating func finish(_ options: ScanOptions) -> Step {
        guard facts.storedWidth != 0 else { return .failed(.unsupported(.icns, Failure.noIconElementOfAKnownType)) }
        if !options.dimensionsOnly { facts.frameCount = icons }
        return .done
    }

    /// Pixel sizes of the icon element types (Apple Icon Services types, as tabulated in
    /// "Apple Icon Image format"; the @2x types at their pixel size).
    static func size(of type: UInt32) -> IconSize? {
        switch type {
        case 0x6963_6D23, 0x6963_6D34, 0x6963_6D38: IconSize(16, 12)  // icm#, icm4, icm8
        case 0x6963_7323, 0x6963_7334, 0x6963_7338, 0x6973_3332, 0x6963_7034, 0x6963_3034:
            IconSize(16, 16)  // ics#, ics4, ics8, is32, icp4, ic04
        case 0x7338_6D6B: IconSize(16, 16, isMask: true)  // s8mk
        case 0x6963_7362: IconSize(18, 18)  // icsb
        case 0x7362_3234: IconSize(24, 24)  // sb24
        case 0x4943_4F4E, 0x4943_4E23, 0x6963_6C34, 0x6963_6C38, 0x696C_3332, 0x6963_7035, 0x6963_3035, 0x6963_3131:
            IconSize(32, 32)  // ICON, ICN#, icl4, icl8, il32, icp5, ic05, ic11 (16@2x)
        case 0x6C38_6D6B: IconSize(32, 32, isMask: true)  // l8mk
        case 0x6963_7342: IconSize(36, 36)  // icsB (18@2x)
        case 0x6963_6823, 0x6963_6834, 0x6963_6838, 0x6968_3332, 0x5342_3234:
            IconSize(48, 48)  // ich#, ich4, ich8, ih32, SB24 (24@2x)
        case 0x6838_6D6B: IconSize(48, 48, isMask: true)  // h8mk
        case 0x6963_7036, 0x6963_3132: IconSize(64, 64)  // icp6, ic12 (32@2x)
        case 0x6974_3332, 0x6963_3037: IconSize(128, 128)  // it32, ic07
        case 0x7438_6D6B: IconSize(128, 128, isMask: true)  // t8mk
        case 0x6963_3038, 0x6963_3133: IconSize(256, 256)  // ic08, ic13 (128@2x)
        case 0x6963_3039, 0x6963_3134: IconSize(512, 512)  // ic09, ic14 (256@2x)
        case 0x6963_3130: IconSize(1024, 1024)  // ic10 (512@2x)
        default: nil
        }
    }
}

extension ICNSParser {
    /// Why ICNS input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case icnsMagicDamaged
        case iconFamilyHoldsNoElement
        case elementLengthBelow8
        case elementRunsPastTheFamilySLength
        case bytesAfterTheLastElementAreNotAnElement
        case noIconElementOfAKnownType
        case moreElementsThanMaxEntries

        static var owner: UInt8 { ICNSParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .icnsMagicDamaged: "icns magic damaged"
            case .iconFamilyHoldsNoElement: "icon family holds no element"
            case .elementLengthBelow8: "element length below 8"
            case .elementRunsPastTheFamilySLength: "element runs past the family's length"
            case .bytesAfterTheLastElementAreNotAnElement: "bytes after the last element are not an element"
            case .noIconElementOfAKnownType: "no icon element of a known type"
            case .moreElementsThanMaxEntries: "more elements than maxEntries"
            }
        }
    }
}
#endif
