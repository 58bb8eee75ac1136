// Byte builders for ICO/CUR, TGA, PSD, QOI, PCX, SGI and Sun raster files. Each takes the
// header's fields as parameters, so tests derive their expectations from them.

/// ICO and CUR files: header, directory, then each entry's image data (filler bytes).
public enum ICOBuilder {
    /// One directory entry. `width` and `height` are 1...256 (256 is stored as 0).
    public struct Entry: Sendable {
        public var width: Int
        public var height: Int
        public var colours: Int
        public var reserved: Int
        /// Planes for an icon; the hotspot's x for a cursor.
        public var planes: Int
        /// Bits per pixel for an icon; the hotspot's y for a cursor.
        public var bitCount: Int
        /// The data size to declare; nil for the filler's real size.
        public var dataSize: Int?
        /// The data offset to declare; nil for where the data really is.
        public var dataOffset: Int?

        public init(
            width: Int, height: Int, colours: Int = 0, reserved: Int = 0, planes: Int = 1, bitCount: Int = 32,
            dataSize: Int? = nil, dataOffset: Int? = nil
        ) {
            self.width = width
            self.height = height
            self.colours = colours
            self.reserved = reserved
            self.planes = planes
            self.bitCount = bitCount
            self.dataSize = dataSize
            self.dataOffset = dataOffset
        }
    }

    /// Bytes of image data per entry.
    public static let dataLength = 8

    /// The header (reserved 0, type 1 or 2, `count` or the entry count), the directory, and
    /// `dataLength` filler bytes per entry.
    public static func file(cursor: Bool = false, count: Int? = nil, entries: [Entry]) -> [UInt8] {
        var bytes: [UInt8] = [0, 0]
        bytes.append16(cursor ? 2 : 1, .littleEndian)
        bytes.append16(count ?? entries.count, .littleEndian)
        let directoryEnd = 6 + 16 * entries.count
        for (index, entry) in entries.enumerated() {
            bytes += [UInt8(entry.width & 0xFF), UInt8(entry.height & 0xFF), UInt8(entry.colours), UInt8(entry.reserved)]
            bytes.append16(entry.planes, .littleEndian)
            bytes.append16(entry.bitCount, .littleEndian)
            bytes.append32(entry.dataSize ?? dataLength, .littleEndian)
            bytes.append32(entry.dataOffset ?? directoryEnd + index * dataLength, .littleEndian)
        }
        for index in entries.indices { bytes.appendFiller(dataLength, seed: UInt8(truncatingIfNeeded: index + 1)) }
        return bytes
    }

    /// Where dimensions-only mode answers: after the width and height of the last entry it
    /// must examine.
    public static func dimensionsAnswerEnd(entriesExamined: Int) -> Int { 6 + 16 * (entriesExamined - 1) + 2 }
}

/// Truevision TGA files: header, image ID, colour map, pixel data, optional TGA 2.0 footer.
public enum TGABuilder {
    /// The 18-byte header's fields.
    public struct Header: Sendable {
        public var idLength: Int = 0
        public var mapType: Int = 0
        public var imageType: Int = 2
        public var firstIndex: Int = 0
        public var mapLength: Int = 0
        public var entrySize: Int = 0
        public var xOrigin: Int = 0
        public var yOrigin: Int = 0
        public var width: Int
        public var height: Int
        public var depth: Int = 24
        public var descriptor: Int = 0

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// A colour-mapped header with an 8-bit index and a map of `mapLength` entries.
        public static func colourMapped(
            width: Int, height: Int, rle: Bool = false, mapLength: Int = 256, entrySize: Int = 24
        ) -> Header {
            var header = Header(width: width, height: height)
            header.mapType = 1
            header.imageType = rle ? 9 : 1
            header.mapLength = mapLength
            header.entrySize = entrySize
            header.depth = 8
            return header
        }

        public var bytes: [UInt8] {
            var bytes: [UInt8] = [UInt8(idLength), UInt8(truncatingIfNeeded: mapType), UInt8(truncatingIfNeeded: imageType)]
            bytes.append16(firstIndex, .littleEndian)
            bytes.append16(mapLength, .littleEndian)
            bytes.append(UInt8(truncatingIfNeeded: entrySize))
            bytes.append16(xOrigin, .littleEndian)
            bytes.append16(yOrigin, .littleEndian)
            bytes.append16(width, .littleEndian)
            bytes.append16(height, .littleEndian)
            bytes.append(UInt8(truncatingIfNeeded: depth))
            bytes.append(UInt8(truncatingIfNeeded: descriptor))
            return bytes
        }
    }

    /// The TGA 2.0 footer: extension and developer area offsets (0: none), then the signature.
    public static let footer: [UInt8] = [UInt8](repeating: 0, count: 8) + ascii("TRUEVISION-XFILE.") + [0]

    /// Header, image ID (`idLength` bytes), colour map (filler), `pixelBytes` of filler pixel
    /// data, and the footer if asked for.
    public static func file(_ header: Header, pixelBytes: Int = 24, footer withFooter: Bool = false) -> [UInt8] {
        var bytes = header.bytes
        bytes.appendFiller(header.idLength, seed: 0x41)
        if header.mapType == 1 { bytes.appendFiller(header.mapLength * ((header.entrySize + 7) / 8), seed: 0x23) }
        bytes.appendFiller(pixelBytes, seed: 0x35)
        if withFooter { bytes += footer }
        return bytes
    }

    /// Dimensions-only mode answers after the pixel depth.
    public static let dimensionsAnswerEnd = 17
    public static let headerLength = 18
}

/// Photoshop documents (version 1) and large documents (version 2).
public enum PSDBuilder {
    public static func file(version: Int = 1, channels: Int = 3, width: Int, height: Int, depth: Int = 8, mode: Int = 3) -> [UInt8] {
        var bytes = ascii("8BPS")
        bytes.append16(version, .bigEndian)
        bytes += [0, 0, 0, 0, 0, 0]
        bytes.append16(channels, .bigEndian)
        bytes.append32(height, .bigEndian)
        bytes.append32(width, .bigEndian)
        bytes.append16(depth, .bigEndian)
        bytes.append16(mode, .bigEndian)
        // Empty colour mode data, image resources and layer sections; then compression 0.
        bytes.append32(0, .bigEndian)
        bytes.append32(0, .bigEndian)
        bytes.append(0, width: version == 2 ? 8 : 4, .bigEndian)
        bytes.append16(0, .bigEndian)
        bytes.appendFiller(12)
        return bytes
    }

    public static let dimensionsAnswerEnd = 22
    public static let fullAnswerEnd = 26
}

/// QOI files: header, a few filler bytes, the end marker.
public enum QOIBuilder {
    public static func file(width: Int, height: Int, channels: Int = 4, colourSpace: Int = 0) -> [UInt8] {
        var bytes = ascii("qoif")
        bytes.append32(width, .bigEndian)
        bytes.append32(height, .bigEndian)
        bytes += [UInt8(truncatingIfNeeded: channels), UInt8(truncatingIfNeeded: colourSpace)]
        bytes += [0xFE, 0x10, 0x20, 0x30]  // QOI_OP_RGB
        bytes += [0, 0, 0, 0, 0, 0, 0, 1]
        return bytes
    }

    public static let dimensionsAnswerEnd = 12
    public static let fullAnswerEnd = 14
}

/// PCX files: the 128-byte header, then filler image data.
public enum PCXBuilder {
    public static func file(
        version: Int = 5, encoding: Int = 1, bitsPerPixel: Int = 8, xMin: Int = 0, yMin: Int = 0, xMax: Int, yMax: Int,
        planes: Int = 3
    ) -> [UInt8] {
        var bytes: [UInt8] = [0x0A, UInt8(version), UInt8(truncatingIfNeeded: encoding), UInt8(truncatingIfNeeded: bitsPerPixel)]
        for value in [xMin, yMin, xMax, yMax, 72, 72] { bytes.append16(value, .littleEndian) }
        bytes.appendFiller(48, seed: 0x31)  // EGA palette
        bytes += [0, UInt8(planes)]
        bytes.append16((xMax - xMin + 2) & ~1, .littleEndian)  // bytes per line, even
        bytes.append16(1, .littleEndian)  // palette type
        while bytes.count < 128 { bytes.append(0) }
        bytes.appendFiller(32)
        return bytes
    }

    public static let answerEnd = 12
}

/// SGI image files: the 512-byte header, then filler image data.
public enum SGIBuilder {
    public static func file(
        storage: Int = 0, bytesPerChannel: Int = 1, dimension: Int = 3, width: Int, height: Int, channels: Int = 3
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append16(474, .bigEndian)
        bytes += [UInt8(truncatingIfNeeded: storage), UInt8(truncatingIfNeeded: bytesPerChannel)]
        for value in [dimension, width, height, channels] { bytes.append16(value, .bigEndian) }
        bytes.append32(0, .bigEndian)  // pixmin
        bytes.append32(bytesPerChannel == 1 ? 255 : 65535, .bigEndian)  // pixmax
        bytes.append32(0, .bigEndian)
        bytes += ascii("sample")
        while bytes.count < 512 { bytes.append(0) }
        bytes.appendFiller(24)
        return bytes
    }

    /// Dimensions-only answer: one-dimensional images need no ysize.
    public static func dimensionsAnswerEnd(dimension: Int) -> Int { dimension == 1 ? 8 : 10 }
    public static func fullAnswerEnd(dimension: Int) -> Int { dimension == 1 ? 8 : dimension == 2 ? 10 : 12 }
}

/// Sun raster files: the 32-byte header, then filler image data.
public enum SunRasterBuilder {
    public static func file(width: Int, height: Int, depth: Int = 24, type: Int = 1) -> [UInt8] {
        var bytes: [UInt8] = [0x59, 0xA6, 0x6A, 0x95]
        bytes.append32(width, .bigEndian)
        bytes.append32(height, .bigEndian)
        bytes.append32(depth, .bigEndian)
        bytes.append32(16, .bigEndian)  // length of the image data
        bytes.append32(type, .bigEndian)
        bytes.append32(0, .bigEndian)  // no colour map
        bytes.append32(0, .bigEndian)
        bytes.appendFiller(16)
        return bytes
    }

    public static let dimensionsAnswerEnd = 12
    public static let fullAnswerEnd = 16
}
