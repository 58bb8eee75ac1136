#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EXR)
/// OpenEXR (OpenEXR File Layout 2.0): the magic, a version field (version 2 in the low byte,
/// then flags: single-part tiled, long names, non-image, multi-part), then a header of
/// attributes: `name\0 type\0 size value`, ended by an empty name.
///
/// The size is the `dataWindow` attribute (a `box2i`: xMin, yMin, xMax, yMax), so the answer
/// comes right after its value. Names arrive one byte at a time and are compared with the
/// names sought as they arrive; nothing is buffered. Other values are skipped by their size.
/// A multi-part file is sized by its first part's header.
///
/// Full mode also reads the `channels` list, wherever it is in the header, for the bits per
/// sample and alpha; writers sort attributes by name, so it usually comes before `dataWindow`
/// and costs no extra byte.
struct EXRParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Bytes 2...7: the end of the magic and the version field.
        case preamble
        /// One byte of an attribute name; an empty name ends the header.
        case attributeName
        /// One byte of an attribute type name.
        case typeName
        /// The attribute value's size (int32).
        case attributeSize
        /// The `dataWindow` value: four int32.
        case dataWindow
        /// One byte of a channel name in the `channels` value; an empty name ends the list.
        case channelName
        /// A channel's pixel type, pLinear, reserved bytes and sampling (16 bytes).
        case channelFields
    }

    /// What the attribute being read is to the scanner.
    enum Attribute: Sendable {
        case other
        case dataWindow
        case channels
    }

    var phase: Phase = .preamble
    var facts = ImageFacts(format: .exr)

    var attribute: Attribute = .other
    /// Longest attribute, type or channel name: 31 bytes, 255 with the long-names flag.
    var maxNameLength = 31
    /// Bytes of the current name so far.
    var nameLength = 0
    /// Whether the current name still matches `dataWindow`, or the type `box2i`.
    var matchesSize = false
    /// Whether the current name still matches `channels`, or the type `chlist`.
    var matchesChannels = false
    var attributes = 0
    /// Name bytes examined one at a time, against `nameBudget`.
    var examined = 0
    var channels = ChannelSummary()

    /// Most name bytes examined one at a time before the scan gives up.
    static let nameBudget = 1 << 16
    /// OpenEXR rejects data windows reaching INT32_MAX / 2 in either direction
    /// (OpenEXRCore `validate_image_dimensions`).
    static let windowLimit: Int32 = Int32.max / 2

    static let dataWindowName = ShortText(head: 0x6461_7461_5769_6E64, tail: 0x6F77_0000_0000_0000, count: 10)
    static let channelsName = ShortText(head: 0x6368_616E_6E65_6C73, tail: 0, count: 8)
    static let box2iType = ShortText(head: 0x626F_7832_6900_0000, tail: 0, count: 5)
    static let chlistType = ShortText(head: 0x6368_6C69_7374_0000, tail: 0, count: 6)

    init() {}

    /// After the sniffed `76 2F`.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(6) }

    var format: ImageFormat? { .exr }

    /// A data window is at least 1×1, so a zero width means none has been read.
    var sizeKnown: Bool { facts.width != 0 }

    func infoAtEndOfInput() -> ImageInfo? { sizeKnown ? info : nil }

    /// The paths that start the next attribute name, and those that end the channel list,
    /// meet at the end: each is compiled once.
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        /// Bytes of value to skip before the next attribute name.
        var skip: UInt64 = 0
        /// Whether the step ends the channel list (read or given up on).
        var endsChannels = false
        /// Whether the list ended as it should: an empty name, with the value.
        var complete = false
        switch phase {
        case .preamble:
            if let failure = preamble(field.u8(0), field.u8(1), version: field.le32(2)) { return .failed(failure) }
        case .attributeName, .typeName:
            return nameByte(field.u8(0), options)
        case .attributeSize:
            let size = Int32(bitPattern: field.le32(0))
            guard size >= 0 else { return .failed(.malformed(.exr, Failure.negativeAttributeSize)) }
            switch attribute {
            case .dataWindow:
                guard size == 16 else { return .failed(.malformed(.exr, Failure.dataWindowSizeIsNot16)) }
                phase = .dataWindow
                return .read(16)
            case .channels:
                channels.remaining = UInt32(size)
                if size != 0 { return nextChannel() }
                endsChannels = true
            case .other:
                skip = UInt64(size)
            }
        case .dataWindow:
            if let failure = dataWindow(
                xMin: Int32(bitPattern: field.le32(0)), yMin: Int32(bitPattern: field.le32(4)),
                xMax: Int32(bitPattern: field.le32(8)), yMax: Int32(bitPattern: field.le32(12)), options)
            {
                return .failed(failure)
            }
            if options.dimensionsOnly || channels.settled { return .done }
        case .channelName:
            guard examine() else { return .failed(Self.budgetSpent) }
            let byte = field.u8(0)
            channels.remaining &-= 1
            if byte == 0 {
                if nameLength == 0 {
                    // An empty name ends the list, which must end with the value.
                    complete = channels.remaining == 0
                } else if channels.remaining >= 16 {
                    phase = .channelFields
                    return .read(16)
                }
            } else if nameLength < maxNameLength && channels.remaining != 0 {
                if nameLength < 2 { channels.nameStart |= UInt16(byte) << (nameLength == 0 ? 8 : 0) }
                nameLength &+= 1
                return .read(1)
            }
            // Otherwise a broken list costs the facts, never the image: the rest of its value
            // is skipped.
            endsChannels = true
        case .channelFields:
            if let failure = channelFields(pixelType: field.le32(0), options) { return .failed(failure) }
            if channels.remaining != 0 { return nextChannel() }
            endsChannels = true
        }
        if endsChannels {
            channels.settled = true
            if complete && channels.count > 0 {
                facts.hasAlpha = channels.sawAlpha
                if !channels.sawUnknownType && channels.sawHalf != channels.sawWide {
                    facts.bitDepth = channels.sawHalf ? 16 : 32
                }
            }
            if sizeKnown { return .done }
            skip = UInt64(channels.remaining)
        }
        // The next attribute name. A second dataWindow or channels attribute is ignored: the
        // first one counts.
        phase = .attributeName
        nameLength = 0
        matchesSize = !sizeKnown
        matchesChannels = !options.dimensionsOnly && !channels.settled
        return skip == 0 ? .read(1) : .skipThenRead(skip, 1)
    }

    /// Checks the magic and version flags.
    mutating func preamble(_ third: UInt8, _ fourth: UInt8, version: UInt32) -> ScanFailure? {
        guard third == 0x31 && fourth == 0x01 else { return ScanFailure(.unknownFormat, Failure.openEXRMagicDamaged) }
        guard version & 0xFF == 2 else { return .unsupported(.exr, Failure.openEXRVersionOtherThan2) }
        let tiled: UInt32 = 0x200, longNames: UInt32 = 0x400, nonImage: UInt32 = 0x800, multiPart: UInt32 = 0x1000
        let flags = version & ~0xFF
        guard flags & ~(tiled | longNames | nonImage | multiPart) == 0 else {
            return .unsupported(.exr, Failure.unknownOpenEXRVersionFlags)
        }
        // The single-part tiled bit excludes deep data and multiple parts.
        guard flags & tiled == 0 || flags & (nonImage | multiPart) == 0 else {
            return .malformed(.exr, Failure.tiledFlagWithDeepOrMultiPart)
        }
        if flags & longNames != 0 { maxNameLength = 255 }
        return nil
    }

    // MARK: Attribute names and types

    /// Counts a byte examined on its own against the budget; false once it is spent.
    mutating func examine() -> Bool {
        examined &+= 1
        return examined <= Self.nameBudget
    }

    static let budgetSpent = ScanFailure.limit(.exr, Failure.namesLongerThan64KiBInAll)

    /// Takes one byte of an attribute name or of its type name (one path for both), comparing
    /// it with the two texts sought: `dataWindow` and `channels`, or `box2i` and `chlist`.
    mutating func nameByte(_ byte: UInt8, _ options: ScanOptions) -> Step {
        let isType = phase == .typeName
        if byte == 0 && nameLength == 0 && !isType {
            // The end of the (first part's) header.
            guard sizeKnown else { return .failed(.malformed(.exr, Failure.headerHasNoDataWindowAttribute)) }
            return .done
        }
        guard examine() else { return .failed(Self.budgetSpent) }
        let first = isType ? Self.box2iType : Self.dataWindowName
        let second = isType ? Self.chlistType : Self.channelsName
        if byte != 0 {
            guard nameLength < maxNameLength else {
                return .failed(.malformed(.exr, isType ? Failure.attributeTypeNameTooLong : Failure.attributeNameTooLong))
            }
            matchesSize = matchesSize && first.has(byte, at: nameLength)
            matchesChannels = matchesChannels && second.has(byte, at: nameLength)
            nameLength &+= 1
            return .read(1)
        }
        let isFirst = matchesSize && nameLength == first.count
        let isSecond = matchesChannels && nameLength == second.count
        if isType {
            guard nameLength != 0 else { return .failed(.malformed(.exr, Failure.emptyAttributeTypeName)) }
            switch attribute {
            case .dataWindow:
                guard isFirst else { return .failed(.malformed(.exr, Failure.dataWindowIsNotABox2i)) }
            case .channels:
                if !isSecond { attribute = .other }
            case .other:
                break
            }
            phase = .attributeSize
            return .read(4)
        }
        attributes &+= 1
        guard attributes <= options.maxEntries else { return .failed(.limit(.exr, Failure.moreAttributesThanMaxEntries)) }
        attribute = isFirst ? .dataWindow : isSecond ? .channels : .other
        phase = .typeName
        nameLength = 0
        matchesSize = true
        matchesChannels = true
        return .read(1)
    }

    /// Checks and records the data window.
    mutating func dataWindow(xMin: Int32, yMin: Int32, xMax: Int32, yMax: Int32, _ options: ScanOptions) -> ScanFailure? {
        let limit = Self.windowLimit
        guard xMin <= xMax && yMin <= yMax && xMin > -limit && yMin > -limit && xMax < limit && yMax < limit else {
            return .malformed(.exr, Failure.invalidDataWindow)
        }
        // Within ±2^30 the differences fit an Int64 (and a UInt64) with room to spare.
        let width = UInt64(Int64(xMax) - Int64(xMin) + 1)
        let height = UInt64(Int64(yMax) - Int64(yMin) + 1)
        guard options.admits(width: width, height: height) else { return .tooLarge(.exr) }
        facts.width = Int(clamping: width)
        facts.height = Int(clamping: height)
        return nil
    }

    // MARK: The channel list (full mode)

    mutating func nextChannel() -> Step {
        phase = .channelName
        nameLength = 0
        channels.nameStart = 0
        return .read(1)
    }

    /// Takes a channel's fields.
    mutating func channelFields(pixelType: UInt32, _ options: ScanOptions) -> ScanFailure? {
        channels.remaining &-= 16
        channels.count &+= 1
        guard channels.count <= options.maxEntries else { return .limit(.exr, Failure.moreChannelsThanMaxEntries) }
        switch pixelType {
        case 0, 2: channels.sawWide = true  // UINT, FLOAT
        case 1: channels.sawHalf = true
        default: channels.sawUnknownType = true
        }
        // "A" is alpha; "AR", "AG" and "AB" are the per-colour alphas of a coloured matte.
        let start = channels.nameStart
        if (nameLength == 1 && start == 0x4100) || (nameLength == 2 && (start == 0x4152 || start == 0x4147 || start == 0x4142)) {
            channels.sawAlpha = true
        }
        return nil
    }
}

/// What full mode gathers from the `channels` attribute.
struct ChannelSummary: Sendable {
    /// Bytes of the attribute value not yet read.
    var remaining: UInt32 = 0
    var count = 0
    /// The current channel name's first two bytes (the first in the high byte).
    var nameStart: UInt16 = 0
    /// HALF channels (16 bits).
    var sawHalf = false
    /// UINT or FLOAT channels (32 bits).
    var sawWide = false
    var sawUnknownType = false
    var sawAlpha = false
    /// The list has been read or given up on.
    var settled = false

    init() {}
}

/// Up to 16 bytes of ASCII held in two integers, so a name arriving one byte at a time can be
/// compared with it without a string or a pointer.
struct ShortText: Sendable {
    /// Bytes 0...7, the first in the most significant byte.
    let head: UInt64
    /// Bytes 8...15, likewise.
    let tail: UInt64
    let count: Int

    init(head: UInt64, tail: UInt64, count: Int) {
        self.head = head
        self.tail = tail
        self.count = count
    }

    /// Whether the text has `byte` at `index`; false past its end.
    func has(_ byte: UInt8, at index: Int) -> Bool {
        guard index >= 0 && index < count else { return false }
        let word = index < 8 ? head : tail
        return UInt8(truncatingIfNeeded: word >> UInt64(56 - (index & 7) * 8)) == byte
    }
}

extension EXRParser {
    /// Why EXR input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case openEXRMagicDamaged
        case tiledFlagWithDeepOrMultiPart
        case headerHasNoDataWindowAttribute
        case emptyAttributeTypeName
        case dataWindowIsNotABox2i
        case negativeAttributeSize
        case dataWindowSizeIsNot16
        case invalidDataWindow
        case openEXRVersionOtherThan2
        case unknownOpenEXRVersionFlags
        case namesLongerThan64KiBInAll
        case moreAttributesThanMaxEntries
        case moreChannelsThanMaxEntries
        case attributeNameTooLong
        case attributeTypeNameTooLong

        static var owner: UInt8 { EXRParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .openEXRMagicDamaged: "OpenEXR magic damaged"
            case .tiledFlagWithDeepOrMultiPart: "tiled flag combined with deep or multi-part flags"
            case .headerHasNoDataWindowAttribute: "header has no dataWindow attribute"
            case .emptyAttributeTypeName: "empty attribute type name"
            case .dataWindowIsNotABox2i: "dataWindow is not a box2i"
            case .negativeAttributeSize: "negative attribute size"
            case .dataWindowSizeIsNot16: "dataWindow size is not 16"
            case .invalidDataWindow: "invalid data window"
            case .openEXRVersionOtherThan2: "OpenEXR version other than 2"
            case .unknownOpenEXRVersionFlags: "unknown OpenEXR version flags"
            case .namesLongerThan64KiBInAll: "names longer than 64 KiB in all"
            case .moreAttributesThanMaxEntries: "more attributes than maxEntries"
            case .moreChannelsThanMaxEntries: "more channels than maxEntries"
            case .attributeNameTooLong: "attribute name too long"
            case .attributeTypeNameTooLong: "attribute type name too long"
            }
        }
    }
}
#endif
