/// The start of a JPEG XL codestream, decoded a few bits at a time (ISO/IEC 18181-1):
/// the signature `FF 0A` when a container delivers it, the SizeHeader, and in full mode the
/// first fields of ImageMetadata: the orientation, then (stepping over the intrinsic size and
/// the preview's size) `have_animation` and the AnimationHeader's `num_loops`.
///
/// The codestream is a bit stream read least significant bit first. Its fields straddle
/// bytes, and in a container the bytes themselves may be split across `jxlp` boxes at any
/// point, so the reader keeps a small bit accumulator and takes whole bytes from whoever
/// feeds it. It asks for the fewest bytes that could complete the header from where it is,
/// so it never reads past the answer.
@usableFromInline
struct JXLHeaderReader: Sendable {
    /// The next field to decode.
    @usableFromInline
    enum Field: Sendable {
        /// The codestream signature's two bytes (only when a container delivers them).
        case signatureFirst, signatureSecond
        /// SizeHeader: `small`, then the height as `ysize_div8_minus_1` (small) or as a U32.
        case small, smallHeight, heightSelector
        case height(bits: UInt8)
        /// The aspect ratio code; 0 means the width is coded too.
        case ratio
        case smallWidth, widthSelector
        case width(bits: UInt8)
        /// ImageMetadata: `all_default`, `extra_fields`, then the orientation's 3 bits.
        case allDefault, extraFields, orientation
        /// `have_intrinsic_size`, then a SizeHeader whose values are not needed.
        case haveIntrinsicSize, intrinsicSmall, intrinsicSmallHeight, intrinsicRatio, intrinsicSmallWidth
        /// `have_preview`, then a PreviewHeader whose values are not needed.
        case havePreview, previewDiv8, previewRatio
        /// `have_animation`, then the AnimationHeader; `have_timecodes` ends it.
        case haveAnimation, haveTimecodes
        /// A U32 field's 2-bit selector, then its bits when the selector's entry has any.
        case u32(U32Field)
        case u32Bits(U32Field, bits: UInt8)
    }

    /// The U32 fields of ImageMetadata the reader passes or keeps (18181-1; libjxl's
    /// `headers.cc`): each has four entries, a value or a number of bits plus an offset.
    @usableFromInline
    enum U32Field: Sendable {
        case intrinsicHeight, intrinsicWidth
        case previewHeightDiv8, previewWidthDiv8, previewHeight, previewWidth
        case ticksNumerator, ticksDenominator, loops

        /// The selector's entry: `bits` read (0 for a plain value) and added to `offset`.
        @inlinable
        func entry(_ selector: UInt64) -> (bits: UInt8, offset: UInt64) {
            switch self {
            case .intrinsicHeight, .intrinsicWidth:
                return (JXLHeaderReader.sizeBits(selector: selector), 1)
            case .previewHeightDiv8, .previewWidthDiv8:
                switch selector {
                case 0: return (0, 16)
                case 1: return (0, 32)
                case 2: return (5, 1)
                default: return (9, 33)
                }
            case .previewHeight, .previewWidth:
                switch selector {
                case 0: return (6, 1)
                case 1: return (8, 65)
                case 2: return (10, 321)
                default: return (12, 1345)
                }
            case .ticksNumerator:
                switch selector {
                case 0: return (0, 100)
                case 1: return (0, 1000)
                case 2: return (10, 1)
                default: return (30, 1)
                }
            case .ticksDenominator:
                switch selector {
                case 0: return (0, 1)
                case 1: return (0, 1001)
                case 2: return (8, 1)
                default: return (10, 1)
                }
            case .loops:
                switch selector {
                case 0: return (0, 0)
                case 1: return (3, 0)
                case 2: return (16, 0)
                default: return (32, 0)
                }
            }
        }
    }

    /// What the reader needs next.
    @usableFromInline
    enum Progress: Sendable {
        /// At least this many more codestream bytes (1...5).
        case needBytes(Int)
        /// Dimensions-only mode: the size is known. Full mode: the orientation is known too.
        case finished
        case failed(ScanFailure)
    }

    @usableFromInline var next: Field
    /// Bits not yet decoded, the oldest in the lowest bit.
    @usableFromInline var accumulator: UInt64 = 0
    @usableFromInline var available: Int = 0
    @usableFromInline var small = false
    @usableFromInline var height: UInt32 = 0
    @usableFromInline var width: UInt64 = 0
    @usableFromInline var sizeKnown = false
    /// The codestream orientation (1...8), once decoded.
    @usableFromInline var orientation: UInt8 = 0
    /// ImageMetadata's `all_default`: 8-bit samples, no extra channels, no animation.
    @usableFromInline var metadataAllDefault = false
    /// `have_animation`, once read (nil before).
    @usableFromInline var animated: Bool? = nil
    /// The AnimationHeader's `num_loops` (0: forever).
    @usableFromInline var loops: UInt32 = 0
    /// The intrinsic SizeHeader's `small`, or the PreviewHeader's `div8`, being passed.
    @usableFromInline var nestedFlag = false
    /// The offset of the U32 entry whose bits are being read.
    @usableFromInline var pendingOffset: UInt64 = 0

    /// A reader for a codestream whose signature was already checked (a bare codestream), or
    /// one that must check it (a container's `jxlc`/`jxlp` payload).
    @inlinable
    init(expectsSignature: Bool) {
        next = expectsSignature ? .signatureFirst : .small
    }

    /// The U32 bit widths of SizeHeader's height and width: BitsOffset(9, 1), (13, 1), (18, 1),
    /// (30, 1), by the 2-bit selector.
    @inlinable
    static func sizeBits(selector: UInt64) -> UInt8 {
        switch selector {
        case 0: 9
        case 1: 13
        case 2: 18
        default: 30
        }
    }

    /// The fixed aspect ratios of SizeHeader (codes 1...7) as numerator and denominator.
    @inlinable
    static func aspectRatio(_ code: UInt64) -> (numerator: UInt64, denominator: UInt64) {
        switch code {
        case 1: (1, 1)
        case 2: (12, 10)
        case 3: (4, 3)
        case 4: (3, 2)
        case 5: (16, 9)
        case 6: (5, 4)
        default: (2, 1)
        }
    }

    /// Width in bits of the next field.
    @inlinable
    var fieldWidth: Int {
        switch next {
        case .signatureFirst, .signatureSecond: 8
        case .small, .allDefault, .extraFields: 1
        case .heightSelector, .widthSelector: 2
        case .ratio, .orientation: 3
        case .smallHeight, .smallWidth: 5
        case .height(let bits), .width(let bits): Int(bits)
        case .haveIntrinsicSize, .intrinsicSmall, .havePreview, .previewDiv8, .haveAnimation, .haveTimecodes: 1
        case .intrinsicRatio, .previewRatio: 3
        case .intrinsicSmallHeight, .intrinsicSmallWidth: 5
        case .u32: 2
        case .u32Bits(_, let bits): Int(bits)
        }
    }

    /// The fewest bits, from the next field on, that can complete the answer: the rest of the
    /// SizeHeader, plus `all_default` in full mode (which alone may settle the orientation).
    @inlinable
    func bitsToAnswer(dimensionsOnly: Bool) -> Int {
        let metadata = dimensionsOnly ? 0 : 1
        switch next {
        case .signatureFirst: return 16 + 9 + metadata
        case .signatureSecond: return 8 + 9 + metadata
        case .small: return 9 + metadata  // small: 1 + 5 + 3; otherwise at least 1 + 2 + 9 + 3
        case .smallHeight: return 5 + 3 + metadata
        case .heightSelector: return 2 + 9 + 3 + metadata
        case .height(let bits): return Int(bits) + 3 + metadata
        case .ratio: return 3 + metadata
        case .smallWidth: return 5 + metadata
        case .widthSelector: return 2 + 9 + metadata
        case .width(let bits): return Int(bits) + metadata
        case .allDefault, .extraFields: return 1
        case .orientation: return 3
        // After the orientation the fields vary: one more bit is always needed, and asking for
        // one byte at a time never reads past the answer.
        case .haveIntrinsicSize, .intrinsicSmall, .intrinsicSmallHeight, .intrinsicRatio, .intrinsicSmallWidth,
            .havePreview, .previewDiv8, .previewRatio, .haveAnimation, .haveTimecodes, .u32, .u32Bits:
            return 1
        }
    }

    /// Whole bytes still needed at the least to reach the answer (at least 1).
    @inlinable
    func bytesWanted(dimensionsOnly: Bool) -> Int {
        let missing = bitsToAnswer(dimensionsOnly: dimensionsOnly) - available
        return max(1, (missing + 7) / 8)
    }

    /// Removes the next `count` bits (1...32) from the accumulator.
    @inlinable
    mutating func take(_ count: Int) -> UInt64 {
        let value = accumulator & ((1 << UInt64(count)) - 1)
        accumulator >>= UInt64(count)
        available -= count
        return value
    }

    /// Adds `field`'s bytes (at most `bytesWanted`, so at most 5) to the accumulator and
    /// decodes every field they complete.
    @inlinable
    mutating func consume(_ field: FieldBytes, options: ScanOptions) -> Progress {
        var index = 0
        // Each request is at most bytesWanted ≤ 5 bytes and leaves fewer than 42 bits pending;
        // the bound only keeps a misuse from shifting bits out.
        while index < field.count && available <= 56 {
            accumulator |= UInt64(field.u8(index)) << UInt64(available)
            available += 8
            index += 1
        }
        // Bounded: every pass takes at least one bit from the accumulator or returns.
        while available >= fieldWidth {
            let value = take(fieldWidth)
            switch next {
            case .signatureFirst:
                guard value == 0xFF else { return .failed(.malformed(.jxl, JXLParser.Failure.codestreamSignatureMissing)) }
                next = .signatureSecond
            case .signatureSecond:
                guard value == 0x0A else { return .failed(.malformed(.jxl, JXLParser.Failure.codestreamSignatureMissing)) }
                next = .small
            case .small:
                small = value == 1
                next = small ? .smallHeight : .heightSelector
            case .smallHeight:
                height = UInt32(truncatingIfNeeded: value + 1) * 8
                next = .ratio
            case .heightSelector:
                next = .height(bits: Self.sizeBits(selector: value))
            case .height:
                height = UInt32(truncatingIfNeeded: value + 1)
                next = .ratio
            case .ratio:
                if value == 0 {
                    next = small ? .smallWidth : .widthSelector
                } else {
                    // floor(height × num / den), as libjxl's Rational::MulTruncate; the height
                    // is at most 2^30, so the product fits easily in 64 bits.
                    let ratio = Self.aspectRatio(value)
                    width = UInt64(height) * ratio.numerator / ratio.denominator
                    if let failure = sizeDecoded(options) { return .failed(failure) }
                    if options.dimensionsOnly { return .finished }
                }
            case .smallWidth:
                width = (value + 1) * 8
                if let failure = sizeDecoded(options) { return .failed(failure) }
                if options.dimensionsOnly { return .finished }
            case .widthSelector:
                next = .width(bits: Self.sizeBits(selector: value))
            case .width:
                width = value + 1
                if let failure = sizeDecoded(options) { return .failed(failure) }
                if options.dimensionsOnly { return .finished }
            case .allDefault:
                guard value == 0 else {
                    metadataAllDefault = true
                    orientation = 1
                    animated = false
                    return .finished
                }
                next = .extraFields
            case .extraFields:
                guard value == 1 else {
                    // No extra fields: orientation 1, no preview, no animation.
                    orientation = 1
                    animated = false
                    return .finished
                }
                next = .orientation
            case .orientation:
                orientation = UInt8(truncatingIfNeeded: value + 1)
                next = .haveIntrinsicSize
            case .haveIntrinsicSize:
                next = value == 1 ? .intrinsicSmall : .havePreview
            case .intrinsicSmall:
                nestedFlag = value == 1
                next = nestedFlag ? .intrinsicSmallHeight : .u32(.intrinsicHeight)
            case .intrinsicSmallHeight:
                next = .intrinsicRatio
            case .intrinsicRatio:
                next = value != 0 ? .havePreview : (nestedFlag ? .intrinsicSmallWidth : .u32(.intrinsicWidth))
            case .intrinsicSmallWidth:
                next = .havePreview
            case .havePreview:
                next = value == 1 ? .previewDiv8 : .haveAnimation
            case .previewDiv8:
                nestedFlag = value == 1
                next = .u32(nestedFlag ? .previewHeightDiv8 : .previewHeight)
            case .previewRatio:
                next = value != 0 ? .haveAnimation : .u32(nestedFlag ? .previewWidthDiv8 : .previewWidth)
            case .haveAnimation:
                animated = value == 1
                guard value == 1 else { return .finished }
                next = .u32(.ticksNumerator)
            case .haveTimecodes:
                return .finished
            case .u32(let field):
                let entry = field.entry(value)
                if entry.bits != 0 {
                    pendingOffset = entry.offset
                    next = .u32Bits(field, bits: entry.bits)
                } else {
                    u32Decoded(field, entry.offset)
                }
            case .u32Bits(let field, _):
                u32Decoded(field, value &+ pendingOffset)
            }
        }
        return .needBytes(bytesWanted(dimensionsOnly: options.dimensionsOnly))
    }

    /// A U32 field is complete: keeps what matters, and moves on.
    @inlinable
    mutating func u32Decoded(_ field: U32Field, _ value: UInt64) {
        switch field {
        case .intrinsicHeight: next = .intrinsicRatio
        case .intrinsicWidth: next = .havePreview
        case .previewHeightDiv8, .previewHeight: next = .previewRatio
        case .previewWidthDiv8, .previewWidth: next = .haveAnimation
        case .ticksNumerator: next = .u32(.ticksDenominator)
        case .ticksDenominator: next = .u32(.loops)
        case .loops:
            loops = UInt32(truncatingIfNeeded: value)
            next = .haveTimecodes
        }
    }

    /// The SizeHeader is complete: checks the limits, then moves on to ImageMetadata.
    @inlinable
    mutating func sizeDecoded(_ options: ScanOptions) -> ScanFailure? {
        guard options.admits(width: width, height: UInt64(height)) else { return .tooLarge(.jxl) }
        sizeKnown = true
        next = .allDefault
        return nil
    }
}
