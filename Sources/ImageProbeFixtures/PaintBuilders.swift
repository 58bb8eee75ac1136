// Byte builders for DCX, MSP, IFF (ILBM, PBM, ACBM), Aseprite and farbfeld files. Each takes
// the header's fields as parameters, so tests derive their expectations from them.

/// Multi-page PCX: the ID, the page directory, then the pages.
public enum DCXBuilder {
    /// `pages` (PCX files) after a directory of `slots` entries (the page offsets, then 0s;
    /// at least one more than the pages). Returns the file and the first page's offset.
    public static func file(pages: [[UInt8]], slots: Int? = nil) -> (bytes: [UInt8], firstPage: Int) {
        let entries = slots ?? pages.count + 1
        var bytes: [UInt8] = []
        bytes.append32(987_654_321, .littleEndian)
        var offset = 4 + 4 * entries
        let firstPage = offset
        for index in 0..<entries {
            if index < pages.count {
                bytes.append32(offset, .littleEndian)
                offset += pages[index].count
            } else {
                bytes.append32(0, .littleEndian)
            }
        }
        for page in pages { bytes += page }
        return (bytes, firstPage)
    }

    /// A short PCX page of `width` × `height`.
    public static func page(width: Int, height: Int, bitsPerPixel: Int = 8) -> [UInt8] {
        Array(PCXBuilder.file(bitsPerPixel: bitsPerPixel, xMax: width - 1, yMax: height - 1).prefix(128))
    }
}

/// Microsoft Paint files.
public enum MSPBuilder {
    /// The 32-byte header ("DanM" or "LinS", width, height, aspect ratios, printer size,
    /// aspect correction, checksum, padding), then the rows (filler; version 2 has a row map).
    /// `checksumError` is XORed into the correct checksum.
    public static func file(version2: Bool = false, width: Int, height: Int, checksumError: Int = 0) -> [UInt8] {
        var words = [version2 ? 0x694C : 0x6144, version2 ? 0x536E : 0x4D6E, width, height, 1, 1, 1, 1, width, height, 0, 0]
        words.append(words.reduce(0, ^) ^ checksumError)
        words += [0, 0, 0]
        var bytes: [UInt8] = []
        for word in words { bytes.append16(word, .littleEndian) }
        if version2 { for _ in 0..<height { bytes.append16(2, .littleEndian) } }
        bytes.appendFiller(min(64, height * ((width + 7) / 8)))
        return bytes
    }

    public static let answerEnd = 26
}

/// IFF files: a FORM of chunks.
public enum IFFBuilder {
    /// A chunk: ID, big-endian length, the data and a pad byte when the length is odd.
    public static func chunk(_ id: String, _ data: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        var bytes = ascii(id)
        bytes.append32(declaredLength ?? data.count, .bigEndian)
        bytes += data
        if data.count % 2 == 1 { bytes.append(0) }
        return bytes
    }

    /// The 20-byte BMHD chunk.
    public static func bitmapHeader(width: Int, height: Int, planes: Int = 4, masking: Int = 0, length: Int = 20) -> [UInt8] {
        var data: [UInt8] = []
        data.append16(width, .bigEndian)
        data.append16(height, .bigEndian)
        data.append32(0, .bigEndian)  // x, y
        data += [UInt8(planes), UInt8(masking), 1, 0]
        data.append16(0, .bigEndian)  // transparent colour
        data += [10, 11]  // aspect
        data.append16(320, .bigEndian)
        data.append16(200, .bigEndian)
        return chunk("BMHD", Array(data.prefix(length)) + [UInt8](repeating: 0, count: max(0, length - 20)))
    }

    /// `FORM`, its length (counting the type and chunks unless given), `type` and `chunks`.
    public static func form(_ type: String, _ chunks: [[UInt8]], declaredLength: Int? = nil) -> [UInt8] {
        let body = ascii(type) + chunks.flatMap { $0 }
        var bytes = ascii("FORM")
        bytes.append32(declaredLength ?? body.count, .bigEndian)
        return bytes + body
    }

    /// A usual ILBM: BMHD first, a colour map and a body.
    public static func ilbm(type: String = "ILBM", width: Int, height: Int, planes: Int = 4, masking: Int = 0, before: [[UInt8]] = []) -> [UInt8] {
        var palette: [UInt8] = []
        palette.appendFiller(3 << min(planes, 4))
        var body: [UInt8] = []
        body.appendFiller(24)
        return form(type, before + [bitmapHeader(width: width, height: height, planes: planes, masking: masking),
                                    chunk("CMAP", palette), chunk("BODY", body)])
    }

    /// Where the size is known when BMHD comes first, and where full mode ends.
    public static let dimensionsEnd = 24
    public static let headerEnd = 30
}

/// Aseprite sprites.
public enum AsepriteBuilder {
    /// The 128-byte header (file size, magic, frames, width, height, depth, flags, speed,
    /// transparent index, colour count, pixel ratio, grid), then `frames` empty frames.
    public static func file(width: Int, height: Int, depth: Int = 32, frames: Int = 1, padding: Int = 0) -> [UInt8] {
        let size = 128 + 16 * frames + padding
        var bytes: [UInt8] = []
        bytes.append32(size, .littleEndian)
        bytes.append16(0xA5E0, .littleEndian)
        for value in [frames, width, height, depth] { bytes.append16(value, .littleEndian) }
        bytes.append32(1, .littleEndian)  // flags: layer opacity valid
        bytes.append16(100, .littleEndian)  // speed
        bytes += [UInt8](repeating: 0, count: 8)
        bytes += [0, 0, 0, 0]  // transparent index, ignored
        bytes.append16(depth == 8 ? 16 : 0, .littleEndian)
        bytes += [1, 1]  // pixel ratio
        while bytes.count < 128 { bytes.append(0) }
        for _ in 0..<frames {
            bytes.append32(16, .littleEndian)
            bytes.append16(0xF1FA, .littleEndian)
            bytes.append16(0, .littleEndian)
            bytes.append16(100, .littleEndian)
            bytes += [0, 0, 0, 0, 0, 0]
        }
        bytes += [UInt8](repeating: 0, count: padding)
        return bytes
    }

    /// Where the answer comes: after the depth; or, when the file size's second byte is 0 or
    /// 1 (a TGA's colour-map type), after the 17 bytes a TGA header is judged on.
    public static let answerEnd = 14
    public static let answerEndAfterATGALikeStart = 17
}

/// farbfeld images.
public enum FarbfeldBuilder {
    /// "farbfeld", width, height, then a few 16-bit RGBA pixels.
    public static func file(width: Int, height: Int) -> [UInt8] {
        var bytes = ascii("farbfeld")
        bytes.append32(width, .bigEndian)
        bytes.append32(height, .bigEndian)
        bytes.appendFiller(min(64, 8 * width * height))
        return bytes
    }

    public static let answerEnd = 16
}
