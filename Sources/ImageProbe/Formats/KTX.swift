#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_KTX)
/// Khronos textures: KTX 1.1 and KTX 2.0, told apart by their 12-byte identifiers
/// (`«KTX 11»\r\n\x1A\n` and `«KTX 20»\r\n\x1A\n`).
///
/// KTX 1 states its own byte order (the `endianness` field reads 0x04030201 in the writer's
/// order) and gives the size after five OpenGL enums. KTX2 is always little-endian and gives it
/// after `vkFormat` and `typeSize`. A `pixelHeight` of 0 marks a 1D texture: one row, reported
/// with height 1. The enums also say, for free, the bits per channel and whether there is
/// alpha, for the formats where that is certain.
struct KTXParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Identifier bytes 2...11.
        case identifier
        /// KTX 1 bytes 12...43: endianness, glType, glTypeSize, glFormat, glInternalFormat,
        /// glBaseInternalFormat, pixelWidth, pixelHeight.
        case version1
        /// KTX2 bytes 12...27: vkFormat, typeSize, pixelWidth, pixelHeight.
        case version2
    }

    var phase: Phase = .identifier
    var facts = ImageFacts(format: .ktx)

    init() {}

    /// After the sniffed `AB 4B`.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(10) }

    /// Unknown until the identifier names the version: both start `AB 4B`.
    var format: ImageFormat? {
        switch phase {
        case .identifier: nil
        case .version1: .ktx
        case .version2: .ktx2
        }
    }

    // The answer comes with the size, so no partial answer exists.

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .identifier:
            let tail = field.u8(5) == 0xBB && field.u8(6) == 0x0D && field.u8(7) == 0x0A
                && field.u8(8) == 0x1A && field.u8(9) == 0x0A
            guard tail && field.matches("TX ", at: 0) else {
                return .failed(ScanFailure(.unknownFormat, Failure.ktxIdentifierDamaged))
            }
            if field.matches("11", at: 3) {
                phase = .version1
                facts.format = .ktx
                return .read(32)
            }
            if field.matches("20", at: 3) {
                phase = .version2
                facts.format = .ktx2
                return .read(16)
            }
            return .failed(ScanFailure(.unknownFormat, Failure.ktxIdentifierOfAnUnknownVersion))
        case .version1:
            let bigEndian: Bool
            switch field.le32(0) {
            case 0x0403_0201: bigEndian = false
            case 0x0102_0304: bigEndian = true
            default: return .failed(.malformed(.ktx, Failure.ktxEndiannessFieldIsNeitherByteOrder))
            }
            let glType = field.u32(4, bigEndian: bigEndian)
            let glFormat = field.u32(12, bigEndian: bigEndian)
            // Compressed textures have both zero, uncompressed ones neither (KTX 1.1, glType and
            // glFormat; libktx rejects the mix).
            guard (glType == 0) == (glFormat == 0) else {
                return .failed(.malformed(.ktx, Failure.onlyOneOfGlTypeAndGlFormatIsZero))
            }
            let step = size(
                width: field.u32(24, bigEndian: bigEndian), height: field.u32(28, bigEndian: bigEndian),
                format: .ktx, options)
            facts.bitDepth = Self.bitsPerChannel(glType: glType)
            facts.hasAlpha = Self.hasAlpha(glBaseInternalFormat: field.u32(20, bigEndian: bigEndian))
            return step
        case .version2:
            let step = size(width: field.le32(8), height: field.le32(12), format: .ktx2, options)
            let (bits, alpha) = Self.describe(vkFormat: field.le32(0))
            facts.bitDepth = bits
            facts.hasAlpha = alpha
            return step
        }
    }

    /// Checks and records the size; both versions answer right after it.
    mutating func size(width: UInt32, height: UInt32, format: ImageFormat, _ options: ScanOptions) -> Step {
        guard width != 0 else { return .failed(.malformed(format, Failure.pixelWidthIsZero)) }
        // pixelHeight 0: a 1D texture, a single row.
        let rows = max(height, 1)
        guard options.admits(width: UInt64(width), height: UInt64(rows)) else { return .failed(.tooLarge(format)) }
        facts.width = Int(clamping: width)
        facts.height = Int(clamping: rows)
        return .done
    }

    /// Bits per channel of the OpenGL component types; nil for packed types and compressed
    /// data (glType 0).
    static func bitsPerChannel(glType: UInt32) -> Int? {
        switch glType {
        case 0x1400, 0x1401: 8  // GL_BYTE, GL_UNSIGNED_BYTE
        case 0x1402, 0x1403, 0x140B, 0x8D61: 16  // GL_SHORT, GL_UNSIGNED_SHORT, GL_HALF_FLOAT(_OES)
        case 0x1404, 0x1405, 0x1406: 32  // GL_INT, GL_UNSIGNED_INT, GL_FLOAT
        default: nil
        }
    }

    /// Whether an OpenGL base internal format carries alpha; nil for values it does not name.
    static func hasAlpha(glBaseInternalFormat: UInt32) -> Bool? {
        switch glBaseInternalFormat {
        case 0x1906, 0x1908, 0x190A, 0x80E1: true  // GL_ALPHA, GL_RGBA, GL_LUMINANCE_ALPHA, GL_BGRA
        case 0x1901, 0x1902, 0x1903, 0x1907, 0x1909, 0x80E0, 0x8227, 0x84F9:
            // GL_STENCIL_INDEX, GL_DEPTH_COMPONENT, GL_RED, GL_RGB, GL_LUMINANCE, GL_BGR, GL_RG,
            // GL_DEPTH_STENCIL
            false
        default: nil
        }
    }

    /// Bits per channel and alpha of the core Vulkan formats whose names state them.
    /// `VK_FORMAT_UNDEFINED` (Basis Universal, described only by the DFD) and the formats whose
    /// alpha depends on the data (BC7, ASTC) give nil.
    static func describe(vkFormat: UInt32) -> (bits: Int?, alpha: Bool?) {
        switch vkFormat {
        case 9...36: (8, false)  // R8, R8G8, R8G8B8, B8G8R8
        case 37...57: (8, true)  // R8G8B8A8, B8G8R8A8, A8B8G8R8_PACK32
        case 58...69: (nil, true)  // A2R10G10B10, A2B10G10R10 (packed)
        case 70...90: (16, false)  // R16, R16G16, R16G16B16
        case 91...97: (16, true)  // R16G16B16A16
        case 98...106: (32, false)  // R32, R32G32, R32G32B32
        case 107...109: (32, true)  // R32G32B32A32
        case 110...118: (64, false)  // R64, R64G64, R64G64B64
        case 119...121: (64, true)  // R64G64B64A64
        case 131, 132, 139...144, 147, 148, 153...156: (nil, false)  // BC1 RGB, BC4-6H, ETC2 RGB, EAC
        case 133...138, 149...152: (nil, true)  // BC1 RGBA, BC2, BC3, ETC2 with alpha
        default: (nil, nil)
        }
    }
}

extension KTXParser {
    /// Why KTX input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case ktxIdentifierDamaged
        case ktxIdentifierOfAnUnknownVersion
        case ktxEndiannessFieldIsNeitherByteOrder
        case onlyOneOfGlTypeAndGlFormatIsZero
        case pixelWidthIsZero

        static var owner: UInt8 { KTXParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .ktxIdentifierDamaged: "KTX identifier damaged"
            case .ktxIdentifierOfAnUnknownVersion: "KTX identifier of an unknown version"
            case .ktxEndiannessFieldIsNeitherByteOrder: "KTX endianness field is neither byte order"
            case .onlyOneOfGlTypeAndGlFormatIsZero: "only one of glType and glFormat is zero"
            case .pixelWidthIsZero: "pixelWidth is zero"
            }
        }
    }
}
#endif
