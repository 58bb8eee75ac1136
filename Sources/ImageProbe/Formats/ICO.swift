#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ICO)
/// ICO and CUR (Windows icon and cursor files): a 6-byte header, then a directory of 16-byte
/// entries, one per image, each holding the image's width and height in one byte (0 = 256).
///
/// The answer is the entry of largest area; on a tie, the first such entry. The sniffer has
/// consumed the header (reserved, type, count ≥ 1). The scanner reads the directory one entry
/// at a time: the width and height bytes, then the other 14. In dimensions-only mode it stops
/// after the last entry's width and height, or as soon as an entry is 256 × 256, the largest
/// possible, because later entries can only tie with it. Full mode reads the whole directory
/// for `bitDepth` and validation. The embedded PNG or BMP images are never read.
struct ICOParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// An entry's width and height bytes.
        case entrySize
        /// The rest of an entry: colour count, reserved byte, planes and bit count (a cursor's
        /// hotspot), data size, data offset.
        case entryRest
    }

    var facts: ImageFacts
    var phase: Phase = .entrySize

    let isCursor: Bool
    let count: UInt16
    /// Index of the entry being read.
    var index: UInt16 = 0
    /// Area of the largest entry so far; 0 before the first.
    var largestArea: UInt32 = 0
    /// Whether the entry being read is the largest so far, so its bit count is the answer's.
    var readingLargest = false
    /// Set once no later entry can change the answer.
    var sizeKnown = false

    /// The largest area an entry can declare: 256 × 256.
    static let maximumArea: UInt32 = 256 * 256

    init(isCursor: Bool, count: UInt16) {
        self.isCursor = isCursor
        self.count = count
        facts = ImageFacts(format: isCursor ? .cur : .ico, width: 0, height: 0)
        facts.frameCount = Int(count)
    }

    init(sniffed: Sniffed) {
        guard case .iconDirectory(let isCursor, let count) = sniffed else { self.init(isCursor: false, count: 0); return }  // defensive
        self.init(isCursor: isCursor, count: count)
    }

    var firstStep: Step { .read(2) }

    func infoAtEndOfInput() -> ImageInfo? { sizeKnown ? info : nil }

    /// Where the image data may start: just past the directory.
    var directoryEnd: UInt32 { 6 &+ 16 &* UInt32(count) }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .entrySize:
            // Every entry may hold the largest image, so all of them would have to be examined.
            if index == 0 && UInt32(count) > options.entryLimit {
                return .failed(.limit(facts.format, Failure.moreDirectoryEntriesThanMaxEntries))
            }
            let width = Self.side(field.u8(0))
            let height = Self.side(field.u8(1))
            let area = width &* height  // at most 2^16
            readingLargest = area > largestArea
            if readingLargest {
                largestArea = area
                facts.storedWidth = width
                facts.storedHeight = height
                facts.bitDepth = nil
            }
            if index &+ 1 == count || largestArea == Self.maximumArea {
                if !sizeKnown {
                    sizeKnown = true
                    guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(facts.storedHeight)) else {
                        return .failed(.tooLarge(facts.format))
                    }
                }
                if options.dimensionsOnly { return .done }
            }
            phase = .entryRest
            return .read(14)
        case .entryRest:
            // Microsoft's documentation says the reserved byte must be 0; 255 is tolerated
            // because some encoders write it there and Windows ignores the byte (SPEC).
            let reserved = field.u8(1)
            guard reserved == 0 || reserved == 0xFF else {
                return .failed(.malformed(facts.format, Failure.directoryEntrySReservedByteIsNot0))
            }
            guard field.le32(6) != 0 else { return .failed(.malformed(facts.format, Failure.directoryEntryHasNoImageData)) }
            guard field.le32(10) >= directoryEnd else {
                return .failed(.malformed(facts.format, Failure.imageDataOverlapsTheDirectory))
            }
            // A cursor keeps its hotspot where an icon keeps planes and bit count. Old icons
            // leave the bit count 0 and give only the palette size, 2^bits colours.
            if readingLargest && !isCursor {
                let bitCount = field.le16(4)
                let colours = field.u8(0)
                if bitCount != 0 {
                    facts.bitDepth = Int(bitCount)
                } else if colours >= 2 && colours & (colours &- 1) == 0 {
                    facts.bitDepth = colours.trailingZeroBitCount
                }
            }
            index &+= 1
            if index == count { return .done }
            phase = .entrySize
            return .read(2)
        }
    }

    /// A width or height byte: 0 stands for 256.
    static func side(_ byte: UInt8) -> UInt32 { byte == 0 ? 256 : UInt32(byte) }
}

extension ICOParser {
    /// Why ICO input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case directoryEntrySReservedByteIsNot0
        case directoryEntryHasNoImageData
        case imageDataOverlapsTheDirectory
        case moreDirectoryEntriesThanMaxEntries

        static var owner: UInt8 { ICOParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .directoryEntrySReservedByteIsNot0: "directory entry's reserved byte is not 0"
            case .directoryEntryHasNoImageData: "directory entry has no image data"
            case .imageDataOverlapsTheDirectory: "image data overlaps the directory"
            case .moreDirectoryEntriesThanMaxEntries: "more directory entries than maxEntries"
            }
        }
    }
}
#endif
