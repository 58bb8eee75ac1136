// Byte builders for the classic formats. Each returns the file and, where a test needs it,
// where the answer ends, so tests can derive their expectations from the parameters.

/// JPEG files: a list of segments between SOI and the frame header, then scan data and EOI.
public enum JPEGBuilder {
    /// A marker segment: FF, code, big-endian length (payload + 2), payload.
    public static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, marker]
        bytes.append16(payload.count + 2, .bigEndian)
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// APP0 "JFIF" version 1.01, no thumbnail.
    public static let jfif: [UInt8] = segment(0xE0, ascii("JFIF") + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])

    /// APP1 carrying `tiff` as an Exif block.
    public static func exif(_ tiff: [UInt8]) -> [UInt8] { segment(0xE1, ascii("Exif") + [0, 0] + tiff) }

    /// APP1 carrying XMP (not Exif).
    public static let xmp: [UInt8] = segment(0xE1, ascii("http://ns.adobe.com/xap/1.0/") + [0] + ascii("<x:xmpmeta/>"))

    /// A quantization table segment (64 entries).
    public static let quantizationTable: [UInt8] = segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))

    /// A frame header: precision, height, width and `components` component specs.
    public static func frame(marker: UInt8 = 0xC0, width: Int, height: Int, precision: Int = 8, components: Int = 3) -> [UInt8] {
        var payload: [UInt8] = [UInt8(precision)]
        payload.append16(height, .bigEndian)
        payload.append16(width, .bigEndian)
        payload.append(UInt8(components))
        for index in 0..<components { payload.append(contentsOf: [UInt8(index + 1), 0x11, 0]) }
        return segment(marker, payload)
    }

    /// A Huffman table segment, a scan header and a little entropy-coded data with stuffed
    /// zeros and a restart marker, then EOI.
    public static let scanAndEnd: [UInt8] = {
        var bytes = segment(0xC4, [0] + [UInt8](repeating: 0, count: 16))
        bytes += segment(0xDA, [1, 1, 0, 0, 63, 0])
        bytes += [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0x78]
        bytes += [0xFF, 0xD9]
        return bytes
    }()

    /// SOI, `before` (segments, fill bytes, anything), the frame header, scan data and EOI.
    /// `answerEnd` is where the frame header's width ends: the dimensions-only answer.
    public static func image(
        before: [UInt8] = jfif, marker: UInt8 = 0xC0, width: Int, height: Int, precision: Int = 8
    ) -> (bytes: [UInt8], answerEnd: Int) {
        var bytes: [UInt8] = [0xFF, 0xD8] + before
        let frameStart = bytes.count
        bytes += frame(marker: marker, width: width, height: height, precision: precision)
        bytes += scanAndEnd
        return (bytes, frameStart + 9)
    }
}

/// PNG files with valid CRCs.
public enum PNGBuilder {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append32(data.count, .bigEndian)
        let typed = ascii(type) + data
        bytes += typed
        bytes.append32(Int(CRC32.checksum(typed)), .bigEndian)
        return bytes
    }

    public static func header(width: Int, height: Int, bitDepth: Int = 8, colourType: Int = 2, interlace: Int = 0) -> [UInt8] {
        var data: [UInt8] = []
        data.append32(width, .bigEndian)
        data.append32(height, .bigEndian)
        data += [UInt8(bitDepth), UInt8(colourType), 0, 0, UInt8(interlace)]
        return chunk("IHDR", data)
    }

    /// A zlib stream of a tiny image, standing in for real image data.
    public static let imageData: [UInt8] = chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
    public static let end: [UInt8] = chunk("IEND", [])

    /// An `eXIf` chunk holding `tiff`.
    public static func exif(_ tiff: [UInt8]) -> [UInt8] { chunk("eXIf", tiff) }

    /// An `acTL` chunk for `frames` frames.
    public static func animationControl(frames: Int) -> [UInt8] {
        var data: [UInt8] = []
        data.append32(frames, .bigEndian)
        data.append32(0, .bigEndian)
        return chunk("acTL", data)
    }

    /// Signature, optional CgBI, IHDR, `beforeData`, IDAT, `afterData`, IEND.
    public static func image(
        width: Int, height: Int, bitDepth: Int = 8, colourType: Int = 2, interlace: Int = 0, apple: Bool = false,
        beforeData: [UInt8] = [], afterData: [UInt8] = []
    ) -> [UInt8] {
        var bytes = signature
        if apple { bytes += chunk("CgBI", [0x50, 0x00, 0x20, 0x02]) }
        bytes += header(width: width, height: height, bitDepth: bitDepth, colourType: colourType, interlace: interlace)
        bytes += beforeData + imageData + afterData + end
        return bytes
    }
}

/// GIF files: header, logical screen descriptor, a global colour table, one image, trailer.
public enum GIFBuilder {
    public static func image(version: String = "89a", width: Int, height: Int, colourTableBits: Int? = 1) -> [UInt8] {
        var bytes = ascii("GIF" + version)
        bytes.append16(width, .littleEndian)
        bytes.append16(height, .littleEndian)
        let packed: UInt8 = colourTableBits.map { 0x80 | UInt8($0 - 1) } ?? 0
        bytes += [packed, 0, 0]
        if let bits = colourTableBits { bytes.appendFiller(3 << bits) }
        bytes += [0x2C, 0, 0, 0, 0]
        bytes.append16(width, .littleEndian)
        bytes.append16(height, .littleEndian)
        bytes += [0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        return bytes
    }
}

/// BMP files with any DIB header size.
public enum BMPBuilder {
    /// The header sizes BMP readers meet: OS/2 1.x core, OS/2 2.x short and full, and Windows
    /// BITMAPINFOHEADER through BITMAPV5HEADER.
    public static let headerSizes = [12, 16, 40, 52, 56, 64, 108, 124]

    /// `height` may be negative (top-down) for every header but the 12-byte core one.
    public static func image(headerSize: Int, width: Int, height: Int, bitCount: Int = 24) -> (bytes: [UInt8], answerEnd: Int) {
        var dib: [UInt8] = []
        dib.append32(headerSize, .littleEndian)
        if headerSize == 12 {
            dib.append16(width, .littleEndian)
            dib.append16(height, .littleEndian)
            dib.append16(1, .littleEndian)
            dib.append16(bitCount, .littleEndian)
        } else {
            dib.append32(width, .littleEndian)
            dib.append32(height, .littleEndian)
            dib.append16(1, .littleEndian)
            dib.append16(bitCount, .littleEndian)
            while dib.count < headerSize { dib.append(0) }
        }
        let pixels = 16
        var bytes = ascii("BM")
        bytes.append32(14 + dib.count + pixels, .littleEndian)
        bytes.append32(0, .littleEndian)
        bytes.append32(14 + dib.count, .littleEndian)
        bytes += dib
        bytes.appendFiller(pixels)
        return (bytes, headerSize == 12 ? 22 : 26)
    }
}

/// WebP files of each kind.
public enum WebPBuilder {
    public static func chunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
        var bytes = ascii(fourCC)
        bytes.append32(data.count, .littleEndian)
        bytes += data
        if data.count % 2 == 1 { bytes.append(0) }
        return bytes
    }

    public static func riff(_ chunks: [UInt8]) -> [UInt8] {
        var bytes = ascii("RIFF")
        bytes.append32(4 + chunks.count, .littleEndian)
        return bytes + ascii("WEBP") + chunks
    }

    /// A lossy key frame header (the size fields are 14 bits).
    public static func lossyFrame(width: Int, height: Int, scale: Int = 0) -> [UInt8] {
        var data: [UInt8] = [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A]
        data.append16(width | scale << 14, .littleEndian)
        data.append16(height | scale << 14, .littleEndian)
        data.appendFiller(9)
        return chunk("VP8 ", data)
    }

    public static func lossless(width: Int, height: Int, alpha: Bool) -> [UInt8] {
        var data: [UInt8] = [0x2F]
        let bits = (width - 1) | (height - 1) << 14 | (alpha ? 1 << 28 : 0)
        data.append32(bits, .littleEndian)
        data.appendFiller(6)
        return riff(chunk("VP8L", data))
    }

    public static func lossy(width: Int, height: Int) -> [UInt8] { riff(lossyFrame(width: width, height: height)) }

    public static let flagAnimation: UInt8 = 0x02
    public static let flagEXIF: UInt8 = 0x08
    public static let flagAlpha: UInt8 = 0x10

    /// VP8X with `flags`, then `chunks` (image data, metadata) in order.
    public static func extended(width: Int, height: Int, flags: UInt8, chunks: [UInt8]) -> [UInt8] {
        var data: [UInt8] = [flags, 0, 0, 0]
        data.append24(width - 1, .littleEndian)
        data.append24(height - 1, .littleEndian)
        return riff(chunk("VP8X", data) + chunks)
    }
}
