#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PSD)
/// Adobe Photoshop documents: PSD (version 1) and PSB, the large-document format (version 2).
///
/// The file header is "8BPS", version, 6 reserved bytes, channels, then the height and the
/// width as 32-bit big-endian values, depth and colour mode. Both versions are reported as
/// `psd`. The size is known at byte 22; full mode reads depth and colour mode (26 bytes),
/// then walks the image resource blocks for the resolution (1005) and the ICC profile (1039),
/// skipping the colour mode data and every other block's data by its length.
/// The EXIF block in the image resources is not read: manifests and peers report no
/// orientation for PSD, and Photoshop applies none on opening.
struct PSDParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// "PS" (after the sniffed "8B"), version, reserved, channels, height, width.
        case header
        /// Depth and colour mode (full mode).
        case depthAndMode
        /// The colour mode data section's length.
        case colourModeLength
        /// The image resources section's length.
        case resourcesLength
        /// A resource block's signature, ID and the length of its Pascal-string name.
        case blockHeader
        /// A resource block's data size, after the name and its padding.
        case blockSize
        /// The first 16 bytes of ResolutionInfo (1005).
        case resolution
    }

    /// Resource IDs (Photoshop File Formats Specification, "Image Resource IDs").
    static let resolutionInfo: UInt16 = 1005
    static let iccProfile: UInt16 = 1039

    var phase: Phase = .header
    var facts = ImageFacts(format: .psd)
    /// Full mode's resolution and ICC profile.
    var extras = ExtraFacts()
    /// The absolute offset where the image resources section ends.
    var sectionEnd: UInt64 = 0
    /// The offset just past the current block's data and padding.
    var blockEnd: UInt64 = 0
    /// The ID of the block being read.
    var blockID: UInt16 = 0
    /// Whether the block is Photoshop's ("8BIM"): the IDs of the rare other signatures mean
    /// something else.
    var isPhotoshopBlock = false
    var foundResolution = false
    var blocks: UInt32 = 0

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(20) }

    init() {}

    var format: ImageFormat? { .psd }

    var info: ImageInfo { ImageInfo(facts, extras) }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .depthAndMode, .colourModeLength, .resourcesLength, .blockHeader, .blockSize, .resolution: info
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.matches("PS", at: 0) else { return .failed(ScanFailure(.unknownFormat, Failure.notAPhotoshopSignature)) }
            let version = field.be16(2)
            guard version == 1 || version == 2 else { return .failed(.unsupported(.psd, Failure.unknownPhotoshopFileVersion)) }
            let channels = field.be16(10)
            guard channels >= 1 && channels <= 56 else { return .failed(.malformed(.psd, Failure.channelCountOutOfRange)) }
            let height = field.be32(12)
            let width = field.be32(16)
            // The 30,000 (PSD) and 300,000 (PSB) maximums are Photoshop's own, not enforced (SPEC).
            // The reserved bytes are not checked: they say nothing about the size.
            guard width != 0 && height != 0 else { return .failed(.malformed(.psd, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.psd)) }
            facts.width = Int(truncatingIfNeeded: width)
            facts.height = Int(truncatingIfNeeded: height)
            if options.dimensionsOnly { return .done }
            phase = .depthAndMode
            return .read(4)
        case .depthAndMode:
            let depth = field.be16(0)
            let mode = field.be16(2)
            guard depth == 1 || depth == 8 || depth == 16 || depth == 32 else {
                return .failed(.malformed(.psd, Failure.depthIsNot1_8_16Or32))
            }
            // Bitmap, greyscale, indexed, RGB, CMYK, multichannel, duotone, Lab.
            switch mode {
            case 0, 1, 2, 3, 4, 7, 8, 9: break
            default: return .failed(.malformed(.psd, Failure.unknownColourMode))
            }
            facts.bitDepth = Int(depth)
            phase = .colourModeLength
            return .read(4)
        case .colourModeLength:
            let length = UInt64(field.be32(0))
            if let failure = pastTheInput(offset &+ 4, length, options) { return .failed(failure) }
            phase = .resourcesLength
            return length == 0 ? .read(4) : .skipThenRead(length, 4)
        case .resourcesLength:
            let start = offset &+ 4
            let length = UInt64(field.be32(0))
            if let failure = pastTheInput(start, length, options) { return .failed(failure) }
            sectionEnd = start &+ length
            return nextBlock(at: start, options)
        case .blockHeader:
            // "8BIM"; ImageReady, PhotoDeluxe and others wrote a few blocks under other
            // signatures, which exiftool lists and skips. Anything else ends the walk.
            isPhotoshopBlock = field.matches("8BIM", at: 0)
            guard isPhotoshopBlock || field.matches("MeSa", at: 0) || field.matches("PHUT", at: 0)
                || field.matches("AgHg", at: 0) || field.matches("DCSR", at: 0)
            else {
                return .failed(.malformed(.psd, Failure.imageResourceWithoutA8BIMSignature))
            }
            blockID = field.be16(4)
            // The name is a Pascal string padded to an even length, its length byte included.
            let nameLength = UInt64(field.u8(6))
            let rest = nameLength | 1  // the name, and a pad byte when the length is even
            let next = offset &+ 7
            guard sectionEnd >= next && sectionEnd &- next >= rest &+ 4 else {
                return .failed(.malformed(.psd, Failure.imageResourceRunsPastItsSection))
            }
            phase = .blockSize
            return .skipThenRead(rest, 4)
        case .blockSize:
            let start = offset &+ 4
            let size = UInt64(field.be32(0))
            guard sectionEnd >= start && sectionEnd &- start >= size else {
                return .failed(.malformed(.psd, Failure.imageResourceRunsPastItsSection))
            }
            blockEnd = start &+ size &+ (size & 1)
            if isPhotoshopBlock && blockID == Self.iccProfile && size > 0 {
                extras.hasICCProfile = true
            } else if isPhotoshopBlock && blockID == Self.resolutionInfo && size >= 16 && !foundResolution {
                foundResolution = true
                phase = .resolution
                return .read(16)
            }
            return nextBlock(at: start, options)
        case .resolution:
            // hRes and vRes are 16.16 fixed-point pixels per inch; hResUnit and vResUnit (1
            // inch, 2 cm) only say how Photoshop displays them (exiftool's DisplayedUnitsX;
            // ImageMagick writes 2.54 × its pixels per centimetre with unit 2).
            extras.setResolution(x: (field.be32(0), 65_536), y: (field.be32(8), 65_536), perMicrometres: 25_400)
            return nextBlock(at: offset &+ 16, options)
        }
    }

    /// The next resource block from `position` (the current block's start, or its data), or
    /// the answer: at the end of the section, or once both facts are found.
    mutating func nextBlock(at position: UInt64, _ options: ScanOptions) -> Step {
        let next = max(position, blockEnd)
        // The smallest block (signature, ID, empty name, size) is 12 bytes: less is padding.
        guard extras.hasICCProfile != true || !foundResolution, sectionEnd > next, sectionEnd &- next >= 12 else {
            if extras.hasICCProfile == nil { extras.hasICCProfile = false }
            return .done
        }
        guard blocks < options.entryLimit else { return .failed(.limit(.psd, Failure.moreImageResourcesThanMaxEntries)) }
        blocks &+= 1
        phase = .blockHeader
        return next == position ? .read(7) : .skipThenRead(next &- position, 7)
    }

    /// With the input's length known, a section that claims to run past it is `malformed`
    /// (SPEC.md §3, "Containers").
    func pastTheInput(_ start: UInt64, _ length: UInt64, _ options: ScanOptions) -> ScanFailure? {
        guard let inputLength = options.inputLength else { return nil }
        guard start <= inputLength && inputLength &- start >= length else {
            return .malformed(.psd, CommonFailure.boxOrChunkRunsPastTheEndOfTheInput)
        }
        return nil
    }
}

extension PSDParser {
    /// Why PSD input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case notAPhotoshopSignature
        case channelCountOutOfRange
        case depthIsNot1_8_16Or32
        case unknownColourMode
        case unknownPhotoshopFileVersion
        case imageResourceWithoutA8BIMSignature
        case imageResourceRunsPastItsSection
        case moreImageResourcesThanMaxEntries

        static var owner: UInt8 { PSDParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .notAPhotoshopSignature: "not a Photoshop signature"
            case .channelCountOutOfRange: "channel count outside 1...56"
            case .depthIsNot1_8_16Or32: "depth is not 1, 8, 16 or 32"
            case .unknownColourMode: "unknown colour mode"
            case .unknownPhotoshopFileVersion: "unknown Photoshop file version"
            case .imageResourceWithoutA8BIMSignature: "image resource without an 8BIM signature"
            case .imageResourceRunsPastItsSection: "image resource runs past its section"
            case .moreImageResourcesThanMaxEntries: "more image resources than maxEntries"
            }
        }
    }
}
#endif
