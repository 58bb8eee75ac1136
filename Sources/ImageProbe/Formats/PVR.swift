#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_PVR)
/// PowerVR textures (Imagination, *PVR File Format Specification* and its legacy edition):
///
/// - **Version 3:** a 52-byte header of 32-bit values: version `0x03525650` ("PVR\x03" in a
///   little-endian file; a big-endian writer's file starts `03 52 56 50` and is read in that
///   order), flags, a 64-bit pixel format, colour space, channel type, **height**, **width**
///   (height first), depth, surfaces, faces, MIP-map count and metadata size. The size is
///   known at byte 32; full mode reads the rest of the header (52 bytes) for the surface count.
/// - **Legacy version 2:** header size 52 (`34 00 00 00`), height, width, MIP-map count, pixel
///   type and flags, data size, bits per pixel, the four channel masks, the tag "PVR!" and the
///   surface count, all 32-bit little-endian. `bitDepth` is the widest channel mask's width. The tag at byte 44 is what identifies it, so
///   the answer comes at byte 48 (52 in full mode). The sniffer consumed the first four bytes.
///
/// Version 1 (a 44-byte header without the tag) is not recognised: four bytes are no
/// signature. The orientation metadata of version 3 describes texture axes, not a display
/// transform, and is not read.
struct PVRParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Version 3: the rest of the version, flags, pixel format, colour space, channel
        /// type, height and width (30 bytes after the sniffed two).
        case header
        /// Version 3: depth, surfaces, faces, MIP-maps and metadata size (full mode).
        case surfaces
        /// Legacy: the height through the "PVR!" tag (44 bytes).
        case legacyHeader
        /// Legacy: the surface count (full mode).
        case legacySurfaces
    }

    var phase: Phase
    var facts = ImageFacts(format: .pvr)
    /// Version 3 written big-endian.
    var bigEndian = false

    /// Version 3: the sniffer consumed "PV" (or `03 52` in a big-endian file).
    init(bigEndian: Bool) {
        phase = .header
        self.bigEndian = bigEndian
    }

    /// Legacy version 2: the sniffer consumed the header size, `34 00 00 00`.
    init(legacy: ()) {
        phase = .legacyHeader
    }

    /// A legacy header's size (`34 00 00 00`, which the sniffer read), or version 3's
    /// signature: `PV` little-endian, `03 52` big-endian.
    init(sniffed: Sniffed) {
        if case .headerStart = sniffed { self.init(legacy: ()) } else { self.init(bigEndian: sniffed.signatureFirst == 0x03) }
    }

    var firstStep: Step {
        switch phase {
        case .legacyHeader, .legacySurfaces: .read(44)
        case .header, .surfaces: .read(30)
        }
    }

    var format: ImageFormat? { .pvr }

    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header, .legacyHeader: nil
        case .surfaces, .legacySurfaces: info
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            guard bigEndian ? field.matches("VP", at: 0) : field.matches("R\u{3}", at: 0) else {
                return .failed(Sniffer.unknown)
            }
            let height = field.u32(22, bigEndian: bigEndian)
            let width = field.u32(26, bigEndian: bigEndian)
            if let failure = setSize(width: width, height: height, options) { return .failed(failure) }
            describe(pixelFormat: field.u64(6, bigEndian: bigEndian))
            if options.dimensionsOnly { return .done }
            phase = .surfaces
            return .read(20)
        case .surfaces:
            let surfaces = field.u32(4, bigEndian: bigEndian)
            if surfaces != 0 { facts.storedFrameCount = surfaces }
            return .done
        case .legacyHeader:
            guard field.matches("PVR!", at: 40) else { return .failed(Sniffer.unknown) }
            let height = field.le32(0)
            let width = field.le32(4)
            if let failure = setSize(width: width, height: height, options) { return .failed(failure) }
            // The widest channel mask, as version 3 states channel widths; compressed types
            // leave the masks 0.
            var widest = 0
            var mask = 24
            while mask <= 36 {
                widest = max(widest, field.le32(mask).nonzeroBitCount)
                mask &+= 4
            }
            if widest != 0 { facts.bitDepth = widest }
            // The "has alpha" flag, or a nonzero alpha mask.
            facts.hasAlpha = field.le32(12) & 0x8000 != 0 || field.le32(36) != 0
            if options.dimensionsOnly { return .done }
            phase = .legacySurfaces
            return .read(4)
        case .legacySurfaces:
            let surfaces = field.le32(0)
            if surfaces != 0 { facts.storedFrameCount = surfaces }
            return .done
        }
    }

    mutating func setSize(width: UInt32, height: UInt32, _ options: ScanOptions) -> ScanFailure? {
        guard width != 0 && height != 0 else { return .malformed(.pvr, .zeroWidthOrHeight) }
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .tooLarge(.pvr) }
        facts.storedWidth = width
        facts.storedHeight = height
        return nil
    }

    /// Bit depth and alpha from a version 3 pixel format. With the high 32 bits set, the low
    /// four bytes name the channels (`r g b a l i …`) and the high four give their widths;
    /// otherwise the low 32 bits are a compressed format's number.
    mutating func describe(pixelFormat: UInt64) {
        let names = UInt32(truncatingIfNeeded: pixelFormat)
        let widths = UInt32(truncatingIfNeeded: pixelFormat >> 32)
        if widths != 0 {
            var widest: UInt32 = 0
            var alpha = false
            var channel: UInt32 = 0
            while channel < 4 {
                let shift = channel &* 8
                let width = (widths >> shift) & 0xFF
                if width != 0 {
                    widest = max(widest, width)
                    if (names >> shift) & 0xFF == 0x61 { alpha = true }  // "a"
                }
                channel &+= 1
            }
            facts.bitDepth = Int(truncatingIfNeeded: widest)  // ≤ 255
            facts.hasAlpha = alpha
            return
        }
        switch names {
        // PVRTC RGBA (2 and 4 bpp), DXT2-DXT5, ETC2 RGBA, ETC2 RGB with punch-through alpha.
        case 1, 3, 8, 9, 10, 11, 23, 24: facts.hasAlpha = true
        // PVRTC RGB, ETC1, BC4, BC5, BC6, UYVY, YUY2, 1-bpp, shared-exponent RGB, RGBG/GRGB,
        // ETC2 RGB, EAC R11 and RG11.
        case 0, 2, 6, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 25, 26: facts.hasAlpha = false
        // PVRTC-II, DXT1 (its alpha is optional), BC7, ASTC: the header doesn't say.
        default: break
        }
    }
}
#endif
