#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JXL)
/// The JPEG XL codestream (ISO/IEC 18181-1), decoded a few bits at a time: the signature
/// `FF 0A` when a container delivers it, the SizeHeader, and past it, in full and animation
/// modes, ImageMetadata through its colour encoding; in animation mode then the rest of the
/// headers and every frame header with its TOC (`JXLFrames.swift`).
///
/// The codestream is a bit stream read least significant bit first. Its fields straddle
/// bytes, and in a container the bytes themselves may be split across `jxlp` boxes at any
/// point, so the reader keeps a small bit accumulator and takes whole bytes from whoever
/// feeds it. It asks for the fewest bytes that could complete the next field (in the
/// SizeHeader, the rest of the answer), so it never reads past the answer, and it skips what
/// it doesn't need (names, extensions, frame data) by asking its owner to skip whole bytes.
///
/// Every field is one of the codestream's primitives (libjxl `fields.h`): `Bits(n)`, a `U32`
/// of four distributions picked by a 2-bit selector, a `U64` varint, or an `F16`. `next`
/// names the field to decode; a handler per field (the SizeHeader's here, the others in one
/// switch in `JXLMetadata.swift`, with the frames' transitions in `JXLFrames.swift`) keeps
/// what matters and picks the next one, following libjxl's `VisitFields` order.
struct JXLHeaderReader: Sendable {
    /// The next field to decode, and where a shared sub-grammar (an F16 run, a bundle's
    /// extensions, custom chromaticities) goes on when it ends.
    var next: Field
    var resume: Field = .small
    /// Bits in the accumulator (at most 64), and the state of a U64 varint being read: the
    /// shift of its next group (0: not started), its value so far in `register`.
    var available: UInt8 = 0
    var varintShift: UInt8 = 0
    var flags = Flags()
    /// Bits not yet decoded, the oldest in the lowest bit.
    var accumulator: UInt64 = 0
    /// Bits to pass over before the next field: names, extensions, frame data.
    var skipBits: UInt64 = 0
    var register: UInt64 = 0
    /// A running sum: the extension bits of a bundle, or the sizes in a TOC.
    var total: UInt64 = 0
    /// Loop counters: `count` for extra channels, extensions and TOC entries (outer loops),
    /// `inner` for F16 runs, chroma modes and passes (inner ones).
    var count: UInt32 = 0
    var inner: UInt16 = 0
    /// Bits the next field needs at the least, as `consume` last found it (exact once a U32's
    /// selector or a varint's next group is in the accumulator, a lower bound before): what
    /// `bytesWanted` asks for. At the start, the signature's first byte or SizeHeader's
    /// `small` bit.
    var wanted: UInt8
    /// A value kept across fields for a check (a float sample's bits, an F16 to compare).
    var scratch: UInt32 = 0

    // SizeHeader and ImageMetadata.
    var height: UInt32 = 0
    /// At most 2^31 (a height of 2^30 with ratio 2/1).
    var width: UInt32 = 0
    /// The codestream orientation (1...8), once decoded; 0 before.
    var orientation: UInt8 = 0
    /// `bits_per_sample` of the colour channels, once decoded; 0 before.
    var bitDepth: UInt8 = 0
    /// The extra channel being read: its type (ExtraChannelInfo `type`).
    var channelType: UInt8 = 0
    /// ColourEncoding: `colour_space`, `white_point`, `primaries`, `transfer_function` (as
    /// libjxl's enums, which are CICP values where they can be), and the gamma in 1e-7 units.
    var colourSpace: UInt8 = 0
    var whitePoint: UInt8 = 1
    var primaries: UInt8 = 1
    var transfer: UInt8 = 13
    var previewWidth: UInt16 = 0
    var previewHeight: UInt16 = 0
    /// `num_extra_channels` (at most 4,096).
    var extraChannels: UInt16 = 0
    var gamma: UInt32 = 0
    /// The AnimationHeader: `num_loops` (0: forever) and the tick rate.
    var loops: UInt32 = 0
    var ticksNumerator: UInt32 = 1
    var ticksDenominator: UInt32 = 1

    // The frame being read (animation mode).
    var frameType: UInt8 = 0
    /// Log2 of the upsampling factor, the group size shift, `num_passes`, `num_downsample`,
    /// `dc_level`, the chroma shifts (horizontal in bit 0, vertical in bit 1), the main
    /// blend mode, `save_as_reference`.
    var upsamplingShift: UInt8 = 0
    var groupSizeShift: UInt8 = 1
    var passes: UInt8 = 1
    var downsamples: UInt8 = 0
    var dcLevel: UInt8 = 0
    var chromaShifts: UInt8 = 0
    var blendMode: UInt8 = 0
    var saveAsReference: UInt8 = 0
    /// The frame's origin and size when `custom_size_or_origin` is set.
    var originX: Int32 = 0
    var originY: Int32 = 0
    var frameWidth: UInt32 = 0
    var frameHeight: UInt32 = 0
    /// The frame's `duration` in ticks.
    var duration: UInt32 = 0
    /// Frame headers read (preview, layers and reference frames included): `maxEntries`.
    var frameHeaders: UInt32 = 0
    /// The canvas area the layers of the frame being composed cover (clipped), for its event;
    /// all 0 while none covers any (a covered area's right edge is above 0).
    var coverLeft: UInt32 = 0
    var coverTop: UInt32 = 0
    var coverRight: UInt32 = 0
    var coverBottom: UInt32 = 0
    /// The shown frame just read, until the scanner takes it.
    var event = PendingFrames()

    /// A reader for a codestream whose signature was already checked (a bare codestream), or
    /// one that must check it (a container's `jxlc`/`jxlp` payload).
    init(expectsSignature: Bool) {
        next = expectsSignature ? .signatureFirst : .small
        wanted = expectsSignature ? 8 : 1
    }

    /// Yes-or-no facts, one bit each.
    struct Flags: Sendable {
        var bits: UInt32 = 0

        init() {}

        subscript(_ flag: Flag) -> Bool {
            get { bits & (1 << flag.rawValue) != 0 }
            set { bits = newValue ? bits | (1 << flag.rawValue) : bits & ~(1 << flag.rawValue) }
        }
    }

    enum Flag: UInt32, Sendable {
        // SizeHeader and ImageMetadata.
        case small, sizeKnown, metadataAllDefault, extraFields
        /// The intrinsic size's `small`, or the PreviewHeader's `div8`, being read.
        case nested
        case havePreview
        /// `have_animation` decoded, and its value; `num_loops` decoded; `have_timecodes`.
        case animationKnown, animated, loopsKnown, timecodes
        /// BitDepth: `floating_point_sample`; whether it belongs to an extra channel.
        case floatSample, inChannel
        /// Every ExtraChannelInfo read, and whether one is alpha.
        case channelsKnown, hasAlpha
        case xybEncoded
        /// The colour encoding read through its end, `want_icc`, `have_gamma`.
        case colourKnown, wantICC, haveGamma
        case relativeToMaxDisplay
        // The frame being read.
        case previewFrame, modular, useDCFrame, skipAdaptiveDCSmoothing, yCbCr, customSize, partialFrame
        /// A blend mode other than kReplace, and whether the blending info being read is an
        /// extra channel's.
        case blends, channelBlending
        case isLast
    }

    /// What the reader needs next. No payload but the failure's, so that it fits in the
    /// failure's four bytes and moves in a register.
    enum Progress: Sendable {
        /// At least `bytesWanted` more codestream bytes.
        case needBytes
        /// Pass over `takeSkippedBytes()` codestream bytes unseen, then read `bytesWanted` more.
        case skip
        /// Dimensions-only mode: the size is known. Full mode: the colour encoding is known
        /// too. Animation mode: that, and for an animation, the last frame's header.
        case finished
        case failed(ScanFailure)
    }

    var sizeKnown: Bool { flags[.sizeKnown] }

    /// `have_animation`, once read (nil before).
    var animated: Bool? { flags[.animationKnown] ? flags[.animated] : nil }

    /// Whether the reader is past the codestream headers, walking frames.
    var walkingFrames: Bool { frameHeaders > 0 }

    // MARK: - Bits

    /// The next `count` bits (0...32), without removing them. (Masking shifts: the counts
    /// are below 64, so they need no check for an overlong shift.)
    // `mutating` though it changes nothing: see `bytesWanted`.
    mutating func peek(_ count: UInt8) -> UInt64 {
        accumulator & ((1 &<< UInt64(count)) &- 1)
    }

    /// Removes the next `count` bits (0...32) from the accumulator.
    mutating func take(_ count: UInt8) -> UInt64 {
        let value = peek(count)
        accumulator &>>= UInt64(count)
        available &-= count
        return value
    }

    /// Reads a U64 varint (libjxl `U64Coder`): a 2-bit selector for 0, 1 + 4 bits, 17 + 8
    /// bits, or 12 bits followed by groups of 8 (4 at shift 60), each after a continuation
    /// bit. Keeps its progress in `register` and `varintShift` between calls; nil until done,
    /// with the bits its next step needs in `wanted`.
    mutating func varint() -> UInt64? {
        if varintShift == 0 {
            wanted = 2
            guard available >= 2 else { return nil }
            // 2, 6, 10 or 14 bits with the selector.
            let selector = peek(2)
            wanted = 2 &+ 4 &* UInt8(truncatingIfNeeded: selector)
            guard available >= wanted else { return nil }
            let bits = take(wanted) >> 2
            guard selector == 3 else { return (selector == 2 ? 17 : selector) &+ bits }
            register = bits
            varintShift = 12
        }
        // At most seven groups: the shift goes 12, 20, ..., 60 (4 bits at 60), each after its
        // continuation bit.
        while true {
            wanted = 1
            guard available >= 1 else { return nil }
            if peek(1) == 0 {
                _ = take(1)
                varintShift = 0
                return register
            }
            wanted = varintShift >= 60 ? 5 : 9
            guard available >= wanted else { return nil }
            register |= (take(wanted) >> 1) &<< UInt64(varintShift)
            if varintShift >= 60 {
                varintShift = 0
                return register
            }
            varintShift &+= 8
        }
    }

    /// Whole bytes still needed at the least before anything new can be decided (at least
    /// 1). In the SizeHeader that is the rest of the answer, so the size comes in one or two
    /// requests; elsewhere the next field, after any bits still to be skipped.
    // `mutating` though it changes nothing: the reader is then passed by reference; a
    // non-mutating call out of line copies it first.
    mutating func bytesWanted(dimensionsOnly: Bool) -> Int {
        var bits = Int(truncatingIfNeeded: skipBits & 7) &+ Int(wanted)
        if next.rawValue < Field.allDefault.rawValue {
            bits &+= sizeHeaderBitsAfterNext &+ (dimensionsOnly ? 0 : 1)
        }
        // Rounded up to whole bytes; none missing (or fewer) is one.
        let missing = bits &- Int(available)
        return max(1, (missing &+ 7) &>> 3)
    }

    /// The SizeHeader bits that certainly follow the next field (the fewest the codings
    /// allow), when the next field is in the signature or the SizeHeader.
    var sizeHeaderBitsAfterNext: Int {
        switch next {
        case .signatureFirst: 8 &+ 9
        case .signatureSecond: 9
        case .small: 8  // small: 5 + 3; otherwise at least 2 + 9 + 3
        case .smallHeight, .height: 3
        default: 0
        }
    }

    /// The whole bytes of a `.skip`, which the owner passes over; the bits left are skipped
    /// here.
    mutating func takeSkippedBytes() -> UInt64 {
        let bytes = skipBits / 8
        skipBits &= 7
        return bytes
    }

    // MARK: - Decoding

    /// Adds `field`'s bytes (at most `bytesWanted`) to the accumulator and decodes every
    /// field they complete.
    mutating func consume(_ field: FieldBytes, options: ScanOptions) -> Progress {
        var index = 0
        // Each request is at most bytesWanted bytes: the next field (at most 32 bits) with
        // fewer than 8 bits already there, so this never drops a byte; the bound only keeps a
        // misuse from shifting bits out.
        while index < field.count && available <= 56 {
            accumulator |= UInt64(field.u8(index)) &<< UInt64(available)
            available &+= 8
            index &+= 1
        }
        // Bounded: every pass takes at least one bit from the accumulator, or moves to a field
        // of no bits that leads on to fields with bits (the grammar has no loop of empty
        // fields), or returns.
        while true {
            if skipBits != 0 {
                let dropped = min(skipBits, UInt64(available))
                accumulator = dropped >= 64 ? 0 : accumulator >> dropped
                available &-= UInt8(truncatingIfNeeded: dropped)
                skipBits &-= dropped
                if skipBits != 0 {
                    // The accumulator is empty: the next field needs its fewest bits.
                    wanted = fewestBits
                    return skipBits >= 8 ? .skip : .needBytes
                }
            }
            // Each field that can't be decoded yet leaves the bits it needs in `wanted`.
            let value: UInt64
            switch next.primitive {
            case .bits(let count):
                guard available >= count else {
                    wanted = count
                    return .needBytes
                }
                value = take(count)
            case .align:
                value = take(available % 8)
            case .u32(let distribution):
                guard available >= 2 else {
                    wanted = 2 &+ distribution.fewestBits
                    return .needBytes
                }
                let entry = distribution.entry(peek(2))
                guard available >= 2 &+ entry.bits else {
                    wanted = 2 &+ entry.bits
                    return .needBytes
                }
                value = (take(2 &+ entry.bits) >> 2) &+ UInt64(entry.offset)
            case .f16:
                guard available >= 16 else {
                    wanted = 16
                    return .needBytes
                }
                value = take(16)
                // libjxl's F16Coder refuses infinities and NaNs.
                guard value & 0x7C00 != 0x7C00 else { return invalid(.f16InfinityOrNaN, options) }
            case .u64:
                guard let varint = varint() else { return .needBytes }
                value = varint
            }
            if let progress = decoded(value, options) { return progress }
        }
    }

    /// The bits the next field needs at the least with nothing in the accumulator (a varint
    /// not begun: fields are skipped between, never within, varints).
    // `mutating` though it changes nothing: see `bytesWanted`.
    var fewestBits: UInt8 {
        mutating get {
            switch next.primitive {
            case .bits(let count): count
            case .align: 0
            case .u32(let distribution): 2 &+ distribution.fewestBits
            case .f16: 16
            case .u64: 2
            }
        }
    }

    /// Hands a decoded value to its field's handler: nil to go on decoding. The SizeHeader's
    /// fields (all that dimensions-only probes decode) in one handler, the others in another
    /// (`headerField`).
    mutating func decoded(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        if next.rawValue < Field.allDefault.rawValue { return sizeHeaderField(value, options) }
        return headerField(value, options)
    }

    /// The signature and SizeHeader's fields.
    mutating func sizeHeaderField(_ value: UInt64, _ options: ScanOptions) -> Progress? {
        switch next {
        case .signatureFirst:
            guard value == 0xFF else { return .failed(.malformed(.jxl, JXLParser.Failure.codestreamSignatureMissing)) }
            next = .signatureSecond
        case .signatureSecond:
            guard value == 0x0A else { return .failed(.malformed(.jxl, JXLParser.Failure.codestreamSignatureMissing)) }
            next = .small
        case .small:
            flags[.small] = value == 1
            next = value == 1 ? .smallHeight : .height
        case .smallHeight:
            height = UInt32(truncatingIfNeeded: value &+ 1) &* 8
            next = .ratio
        case .height:
            height = UInt32(truncatingIfNeeded: value)  // BitsOffset(n, 1): 1...2^30
            next = .ratio
        case .ratio:
            guard value == 0 else {
                // floor(height × num / den), as libjxl's Rational::MulTruncate; the height
                // is at most 2^30, so the product fits easily in 64 bits.
                width = UInt32(truncatingIfNeeded: Self.ratio(value, of: UInt64(height)))
                return sizeDecoded(options)
            }
            next = flags[.small] ? .smallWidth : .width
        case .smallWidth:
            width = UInt32(truncatingIfNeeded: value &+ 1) &* 8
            return sizeDecoded(options)
        default:  // .width
            width = UInt32(truncatingIfNeeded: value)
            return sizeDecoded(options)
        }
        return nil
    }

    /// floor(`value` × num ÷ den) for SizeHeader's aspect ratio codes 1...7: 1/1, 12/10,
    /// 4/3, 3/2, 16/9, 5/4, 2/1. `value` is below 2^31, so the product fits.
    static func ratio(_ code: UInt64, of value: UInt64) -> UInt64 {
        switch code {
        case 1: value
        case 2: value &* 12 / 10
        case 3: value &* 4 / 3
        case 4: value &* 3 / 2
        case 5: value &* 16 / 9
        case 6: value &* 5 / 4
        default: value &* 2
        }
    }

    /// The SizeHeader is complete: checks the limits, then moves on to ImageMetadata.
    mutating func sizeDecoded(_ options: ScanOptions) -> Progress? {
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.jxl)) }
        flags[.sizeKnown] = true
        next = .allDefault
        return options.dimensionsOnly ? .finished : nil
    }
}
#endif
