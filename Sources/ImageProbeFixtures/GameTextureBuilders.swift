// Byte builders for BLP, PVR, PKM, ASTC and VTF textures. Each takes the header's fields as
// parameters, so tests derive their expectations from them.

/// Blizzard textures: BLP1 (and BLP0, with BLP1's header) and BLP2.
public enum BLPBuilder {
    /// BLP0 or BLP1: compression (0 JPEG, 1 palette), alpha bits, width, height, picture
    /// type, mipmap flag, the mipmap offset and size tables, then a palette (filler).
    public static func blp1(version: Int = 1, width: Int, height: Int, compression: Int = 1, alphaBits: Int = 0) -> [UInt8] {
        var bytes = ascii("BLP\(version)")
        for value in [compression, alphaBits, width, height, 5, 0] { bytes.append32(value, .littleEndian) }
        bytes.append32(156 + 1024, .littleEndian)  // first mipmap's offset
        bytes += [UInt8](repeating: 0, count: 60)
        bytes.append32(16, .littleEndian)  // first mipmap's size
        bytes += [UInt8](repeating: 0, count: 60)
        bytes.appendFiller(64)
        return bytes
    }

    /// BLP2: type, colour encoding (1 palette, 2 DXT, 3 ARGB8888), alpha depth, alpha
    /// encoding, mipmap flag, width, height, the mipmap tables and the palette (filler).
    public static func blp2(width: Int, height: Int, type: Int = 1, encoding: Int = 1, alphaDepth: Int = 0, alphaEncoding: Int = 0) -> [UInt8] {
        var bytes = ascii("BLP2")
        bytes.append32(type, .littleEndian)
        bytes += [UInt8(truncatingIfNeeded: encoding), UInt8(truncatingIfNeeded: alphaDepth), UInt8(truncatingIfNeeded: alphaEncoding), 0]
        bytes.append32(width, .littleEndian)
        bytes.append32(height, .littleEndian)
        bytes.append32(148 + 1024, .littleEndian)
        bytes += [UInt8](repeating: 0, count: 60)
        bytes.append32(16, .littleEndian)
        bytes += [UInt8](repeating: 0, count: 60)
        bytes.appendFiller(64)
        return bytes
    }

    public static let answerEnd = 20
}

/// PowerVR textures: version 3 and the legacy version 2 header.
public enum PVRBuilder {
    /// A version 3 pixel format from channel names and widths: `channels("rgba", [8, 8, 8, 8])`.
    public static func channels(_ names: String, _ widths: [Int]) -> UInt64 {
        var value: UInt64 = 0
        for (index, name) in names.utf8.enumerated() { value |= UInt64(name) << UInt64(8 * index) }
        for (index, width) in widths.enumerated() { value |= UInt64(width) << UInt64(32 + 8 * index) }
        return value
    }

    /// A compressed version 3 pixel format: 3 PVRTC 4bpp RGBA, 6 ETC1, 7 DXT1, 11 DXT5, …
    public static let pvrtc4RGBA: UInt64 = 3
    public static let etc1: UInt64 = 6
    public static let dxt1: UInt64 = 7

    /// A version 3 file in `byteOrder`: the 52-byte header (height before width), `metadata`
    /// bytes of metadata, then filler.
    public static func v3(
        width: Int, height: Int, pixelFormat: UInt64 = channels("rgba", [8, 8, 8, 8]), depth: Int = 1, surfaces: Int = 1,
        faces: Int = 1, mipmaps: Int = 1, byteOrder: ByteOrder = .littleEndian, metadata: Int = 0
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append32(0x0352_5650, byteOrder)
        bytes.append32(0, byteOrder)  // flags
        bytes.append64(pixelFormat, byteOrder)
        bytes.append32(0, byteOrder)  // colour space
        bytes.append32(0, byteOrder)  // channel type
        for value in [height, width, depth, surfaces, faces, mipmaps, metadata] { bytes.append32(value, byteOrder) }
        bytes.appendFiller(metadata + 32)
        return bytes
    }

    /// Flags of the legacy header's pixel-type word.
    public static let legacyAlphaFlag = 0x8000
    public static let legacyRGBA8888 = 0x12
    public static let legacyPVRTC4 = 0x0D

    /// A legacy version 2 file: header size 52, height, width, MIP-map count, pixel type and
    /// flags, data size, bits per pixel, the four channel masks, `tag` and the surface count.
    public static func legacy(
        width: Int, height: Int, pixelType: Int = legacyRGBA8888, bitsPerPixel: Int = 32,
        masks: [Int] = [0xFF, 0xFF00, 0xFF_0000, 0xFF00_0000], tag: String = "PVR!", surfaces: Int = 1
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [52, height, width, 0, pixelType, 64, bitsPerPixel] { bytes.append32(value, .littleEndian) }
        for mask in masks { bytes.append32(mask, .littleEndian) }
        bytes += ascii(tag)
        bytes.append32(surfaces, .littleEndian)
        bytes.appendFiller(64)
        return bytes
    }

    public static let v3DimensionsEnd = 32
    public static let v3HeaderEnd = 52
    public static let legacyDimensionsEnd = 48
    public static let legacyHeaderEnd = 52
}

/// PKM files (ETC1 "10", ETC2 "20").
public enum PKMBuilder {
    /// The 16-byte header: "PKM ", `version`, data type, extended size (the size padded to
    /// whole 4×4 blocks unless given), size; then filler blocks.
    public static func file(
        version: String = "10", type: Int = 0, width: Int, height: Int, extendedWidth: Int? = nil, extendedHeight: Int? = nil
    ) -> [UInt8] {
        var bytes = ascii("PKM " + version)
        bytes.append16(type, .bigEndian)
        bytes.append16(extendedWidth ?? (width + 3) / 4 * 4, .bigEndian)
        bytes.append16(extendedHeight ?? (height + 3) / 4 * 4, .bigEndian)
        bytes.append16(width, .bigEndian)
        bytes.append16(height, .bigEndian)
        bytes.appendFiller(32)
        return bytes
    }

    public static let answerEnd = 16
}

/// ASTC files (astc-encoder).
public enum ASTCBuilder {
    /// The 16-byte header: magic, block size, then the 24-bit little-endian x, y, z; then
    /// one block of filler.
    public static func file(block: (Int, Int, Int) = (4, 4, 1), width: Int, height: Int, depth: Int = 1) -> [UInt8] {
        var bytes: [UInt8] = [0x13, 0xAB, 0xA1, 0x5C, UInt8(block.0), UInt8(block.1), UInt8(block.2)]
        bytes.append24(width, .littleEndian)
        bytes.append24(height, .littleEndian)
        bytes.append24(depth, .littleEndian)
        bytes.appendFiller(16)
        return bytes
    }

    public static let dimensionsEnd = 13
    public static let headerEnd = 16
}

/// Valve Texture Format files, version 7.x.
public enum VTFBuilder {
    /// VTF flags and image formats used by the tests.
    public static let eightBitAlpha = 0x2000
    public static let rgba8888 = 0
    public static let rgb888 = 2
    public static let dxt1 = 13
    public static let dxt5 = 15
    public static let rgba16161616 = 25

    /// The header (64 bytes for 7.0/7.1, 80 for 7.2, 80 + 8 per resource after), then filler.
    public static func file(
        minor: Int = 2, width: Int, height: Int, flags: Int = 0, frames: Int = 1, imageFormat: Int = rgba8888, major: Int = 7,
        headerSize: Int? = nil
    ) -> [UInt8] {
        let size = headerSize ?? (minor < 2 ? 64 : minor == 2 ? 80 : 96)
        var bytes = ascii("VTF\0")
        bytes.append32(major, .littleEndian)
        bytes.append32(minor, .littleEndian)
        bytes.append32(size, .littleEndian)
        bytes.append16(width, .littleEndian)
        bytes.append16(height, .littleEndian)
        bytes.append32(flags, .littleEndian)
        bytes.append16(frames, .littleEndian)
        bytes.append16(0, .littleEndian)  // first frame
        bytes += [0, 0, 0, 0]
        for _ in 0..<3 { bytes.append32(0x3F00_0000, .littleEndian) }  // reflectivity 0.5
        bytes += [0, 0, 0, 0]
        bytes.append32(0x3F80_0000, .littleEndian)  // bump-map scale 1.0
        bytes.append32(imageFormat, .littleEndian)
        bytes.append(1)  // mipmaps
        bytes.append32(-1, .littleEndian)  // no low-resolution image
        bytes += [0, 0]
        while bytes.count < size { bytes.append(0) }
        bytes.appendFiller(64)
        return bytes
    }

    public static let dimensionsEnd = 20
    public static let headerEnd = 56
}
