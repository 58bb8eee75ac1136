#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_SGI)
/// SGI image files (.sgi, .rgb, .bw): magic 474, storage (0 verbatim, 1 RLE), bytes per
/// channel (1 or 2), dimension (1, 2 or 3), then xsize, ysize and zsize (16-bit big-endian).
///
/// A one-dimensional image is a single row: its height is 1 and its ysize is not read, so
/// the size is known at byte 8. Otherwise it is known at byte 10. Full mode also reads zsize
/// (the channel count) of a three-dimensional image for `hasAlpha` (12 bytes).
struct SGIParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Storage, bytes per channel, dimension, xsize.
        case header
        /// ysize.
        case height
        /// ysize and zsize (full mode, three dimensions).
        case heightAndChannels
    }

    var phase: Phase = .header
    var facts = ImageFacts(format: .sgi)

    init() {}

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(6) }

    var format: ImageFormat? { .sgi }

    func infoAtEndOfInput() -> ImageInfo? { facts.height != 0 ? info : nil }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard field.u8(0) <= 1 else { return .failed(.malformed(.sgi, Failure.storageIsNot0Or1)) }
            let bytesPerChannel = field.u8(1)
            guard bytesPerChannel == 1 || bytesPerChannel == 2 else {
                return .failed(.malformed(.sgi, Failure.bytesPerChannelIsNot1Or2))
            }
            let dimension = field.be16(2)
            guard dimension >= 1 && dimension <= 3 else { return .failed(.malformed(.sgi, Failure.dimensionIsNot1_2Or3)) }
            let width = field.be16(4)
            guard width != 0 else { return .failed(.malformed(.sgi, .zeroWidth)) }
            facts.width = Int(width)
            facts.bitDepth = Int(bytesPerChannel) &* 8
            // One and two dimensions: a single greyscale channel.
            if !options.dimensionsOnly && dimension < 3 { facts.hasAlpha = false }
            if dimension == 1 { return sized(height: 1, options: options) }
            if dimension == 3 && !options.dimensionsOnly {
                phase = .heightAndChannels
                return .read(4)
            }
            phase = .height
            return .read(2)
        case .height:
            return sized(height: field.be16(0), options: options)
        case .heightAndChannels:
            let step = sized(height: field.be16(0), options: options)
            guard case .done = step else { return step }
            // zsize: 1 grey, 3 RGB, 4 RGBA; other counts say nothing about alpha. It comes
            // after the size, so a zero ends the scan with a partial answer.
            switch field.be16(2) {
            case 0: return .failed(.malformed(.sgi, Failure.zeroChannels))
            case 1, 3: facts.hasAlpha = false
            case 4: facts.hasAlpha = true
            default: break
            }
            return .done
        }
    }

    mutating func sized(height: UInt16, options: ScanOptions) -> Step {
        guard height != 0 else { return .failed(.malformed(.sgi, .zeroHeight)) }
        guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(height)) else { return .failed(.tooLarge(.sgi)) }
        facts.height = Int(height)
        return .done
    }
}

extension SGIParser {
    /// Why SGI input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case storageIsNot0Or1
        case bytesPerChannelIsNot1Or2
        case dimensionIsNot1_2Or3
        case zeroChannels

        static var owner: UInt8 { SGIParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .storageIsNot0Or1: "storage is not 0 or 1"
            case .bytesPerChannelIsNot1Or2: "bytes per channel is not 1 or 2"
            case .dimensionIsNot1_2Or3: "dimension is not 1, 2 or 3"
            case .zeroChannels: "zero channels"
            }
        }
    }
}
#endif
