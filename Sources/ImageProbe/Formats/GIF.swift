#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_GIF)
/// GIF 87a and 89a: the logical screen size from the Logical Screen Descriptor, and in full
/// and animation modes the blocks after it (GIF89a §§ 15–27).
///
/// - Dimensions only: the answer is at byte 10.
/// - Full mode reads the packed byte (`bitDepth`), then walks the blocks to the first image
///   descriptor for a loop count (NETSCAPE2.0 or ANIMEXTS1.0, which comes before the first
///   image). Whether the file is animated takes a walk of the first image's data to see if a
///   second image follows: full mode makes it only when a loop extension announced an
///   animation, and otherwise leaves `isAnimated` unknown (SPEC.md §3.3 has the measurements).
/// - Animation mode walks every block to the trailer, following the data sub-blocks by their
///   lengths (the LZW data is never decoded), and reports each image as a frame with the delay
///   of the Graphic Control Extension before it.
struct GIFParser: FormatParser, Sendable {

    enum Phase: UInt8, Sendable {
        /// "F87a"/"F89a" (after the sniffed "GI"), logical screen width and height.
        case header
        /// The packed fields byte, the background colour index and the aspect ratio.
        case screenTail
        /// A block's first byte: 0x21 extension, 0x2C image, 0x3B trailer.
        case introducer
        /// An extension's label and the length of its first sub-block.
        case extensionLabel
        /// A Graphic Control Extension's four bytes and its block terminator.
        case graphicControl
        /// An Application Extension's 11-byte identifier and the next sub-block's length.
        case applicationIdentifier
        /// A loop extension's sub-block: ID, loop count; then the next length.
        case loopSubBlock
        /// The length of the next data sub-block (0 ends the block).
        case subBlockLength
        /// An image descriptor's nine bytes after the separator.
        case imageDescriptor
        /// The LZW minimum code size and the length of the first data sub-block.
        case imageDataStart
    }

    var facts = ImageFacts(format: .gif)
    var extras = ExtraFacts()

    var info: ImageInfo { ImageInfo(facts, extras) }
    /// Animation mode: the frame whose descriptor was just read.
    var pending = PendingFrames()
    /// The delay of the last Graphic Control Extension, in centiseconds, for the next image.
    var delay: UInt16 = 0
    var phase: Phase = .header
    /// Image descriptors read so far.
    var images: UInt32 = 0
    /// Extensions other than Graphic Control walked, against maxEntries (frames are counted
    /// as frames, and each image has at most one control extension that matters).
    var blocks: UInt32 = 0

    static var emitsFrames: Bool { true }

    mutating func takeFrame() -> PendingFrames? { pending.take() }

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(8) }

    init() {}

    var format: ImageFormat? { .gif }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        default: info
        }
    }

    static let netscape: StaticString = "NETSCAPE2.0"
    static let animexts: StaticString = "ANIMEXTS1.0"

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            // "F87a" or "F89a" after the sniffed "GI".
            guard field.be32(0) == 0x4638_3761 || field.be32(0) == 0x4638_3961
            else { return .failed(ScanFailure(.unknownFormat, Failure.notAGIF87aOrGIF89aSignature)) }
            let width = field.le16(4)
            let height = field.le16(6)
            guard width != 0 && height != 0 else { return .failed(.malformed(.gif, Failure.logicalScreenSizeIsZero)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.gif)) }
            facts.width = Int(width)
            facts.height = Int(height)
            if options.dimensionsOnly { return .done }
            phase = .screenTail
            return .read(3)
        case .screenTail:
            let packed = field.u8(0)
            // With a global colour table, its size is 2^(n+1) entries: n+1 bits per pixel.
            guard packed & 0x80 != 0 else { return nextBlock(skipping: 0, options) }
            facts.bitDepth = Int(packed & 0x07) + 1
            return nextBlock(skipping: Self.colourTableBytes(packed), options)
        case .introducer:
            switch field.u8(0) {
            case 0x21:
                phase = .extensionLabel
                return .read(2)
            case 0x2C:
                phase = .imageDescriptor
                return .read(9)
            case 0x3B:
                return trailer()
            default:
                return .failed(.malformed(.gif, Failure.unknownGIFBlock))
            }
        case .extensionLabel:
            let label = field.u8(0)
            let length = field.u8(1)
            if label == 0xF9 && length == 4 {
                phase = .graphicControl
                return .read(5)
            }
            blocks = blocks == UInt32.max ? blocks : blocks &+ 1
            guard blocks <= options.entryLimit else { return .failed(.limit(.gif, Failure.moreBlocksThanMaxEntries)) }
            if label == 0xFF && length == 11 && facts.loopCount == nil {
                phase = .applicationIdentifier
                return .read(12)
            }
            return subBlocks(skipping: length, options)
        case .graphicControl:
            delay = field.le16(1)
            // The block terminator is the fifth byte; a longer block is walked on.
            return field.u8(4) == 0 ? nextBlock(skipping: 0, options) : subBlocks(skipping: field.u8(4), options)
        case .applicationIdentifier:
            let length = field.u8(11)
            if field.matches(Self.netscape, at: 0) || field.matches(Self.animexts, at: 0), length == 3 {
                phase = .loopSubBlock
                return .read(4)
            }
            return subBlocks(skipping: length, options)
        case .loopSubBlock:
            // Sub-block ID 1 is the loop count; ID 2 (buffering) is not.
            if field.u8(0) & 0x07 == 1 {
                facts.loopCount = Int(field.le16(1))
            }
            return subBlocks(skipping: field.u8(3), options)
        case .subBlockLength:
            return subBlocks(skipping: field.u8(0), options)
        case .imageDescriptor:
            images = images == UInt32.max ? images : images &+ 1
            // The first image's interlace flag (GIF89a §20: packed bit 6).
            if images == 1 { extras.isInterlaced = field.u8(8) & 0x40 != 0 }
            if images == 2 {
                // A second image: an animation. Full mode has learned what it came for.
                facts.isAnimated = true
                if !options.animation { return .done }
            } else if images == 1 && !options.animation && facts.loopCount == nil {
                // Full mode without a loop extension: whether a second image follows would
                // cost a walk of this one's data, which is the whole file for a still GIF.
                return .done
            }
            if options.animation {
                pending = PendingFrames(
                    numerator: UInt32(delay), denominator: 100, x: UInt32(field.le16(0)), y: UInt32(field.le16(2)),
                    width: UInt32(field.le16(4)), height: UInt32(field.le16(6)))
            }
            // A Graphic Control Extension applies to the one image after it.
            delay = 0
            let packed = field.u8(8)
            phase = .imageDataStart
            let table = packed & 0x80 != 0 ? Self.colourTableBytes(packed) : 0
            return table == 0 ? .read(2) : .skipThenRead(table, 2)
        case .imageDataStart:
            // The LZW minimum code size, then the first sub-block's length.
            return subBlocks(skipping: field.u8(1), options)
        }
    }

    /// A colour table of 2^(n+1) three-byte entries.
    static func colourTableBytes(_ packed: UInt8) -> UInt64 {
        3 &* (1 << (UInt64(packed & 0x07) &+ 1))
    }

    /// Skips a data sub-block of `length` bytes and reads the next length, or, at a block
    /// terminator (length 0), goes on to the next block.
    mutating func subBlocks(skipping length: UInt8, _ options: ScanOptions) -> Step {
        guard length != 0 else { return nextBlock(skipping: 0, options) }
        phase = .subBlockLength
        return .skipThenRead(UInt64(length), 1)
    }

    mutating func nextBlock(skipping count: UInt64, _ options: ScanOptions) -> Step {
        phase = .introducer
        return count == 0 ? .read(1) : .skipThenRead(count, 1)
    }

    /// The trailer: the walk is complete.
    mutating func trailer() -> Step {
        if images <= 1 { facts.isAnimated = false }
        return .done
    }
}

extension GIFParser {
    /// Why GIF input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case notAGIF87aOrGIF89aSignature
        case logicalScreenSizeIsZero
        case unknownGIFBlock
        case moreBlocksThanMaxEntries

        static var owner: UInt8 { GIFParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .notAGIF87aOrGIF89aSignature: "not a GIF87a or GIF89a signature"
            case .logicalScreenSizeIsZero: "logical screen size is zero"
            case .unknownGIFBlock: "a block that is not an extension, an image or the trailer"
            case .moreBlocksThanMaxEntries: "more extension blocks than maxEntries"
            }
        }
    }
}
#endif
