// Byte builders for DDS, KTX 1, KTX2, ICNS and OpenEXR. Every answer a test expects is one of
// the parameters here, never a constant read off a built file.

/// DirectDraw Surface files: `DDS `, the 124-byte DDS_HEADER, then filler for the pixel data.
public enum DDSBuilder {
    /// DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT: what Microsoft says writers set.
    public static let requiredFlags = 0x1007
    /// DDS_PIXELFORMAT flags.
    public static let alphaPixels = 0x1
    public static let alphaOnly = 0x2
    public static let fourCC = 0x4
    public static let rgb = 0x40
    public static let luminance = 0x2_0000

    /// A DDS file. The height comes before the width, as in the header.
    public static func image(
        width: Int, height: Int, headerSize: Int = 124, flags: Int = requiredFlags,
        pixelFormatSize: Int = 32, pixelFormatFlags: Int = fourCC, fourCCCode: String = "DXT1",
        bitCount: Int = 0, dataLength: Int = 32
    ) -> [UInt8] {
        var bytes = ascii("DDS ")
        bytes.append32(headerSize, .littleEndian)
        bytes.append32(flags, .littleEndian)
        bytes.append32(height, .littleEndian)
        bytes.append32(width, .littleEndian)
        bytes.append32(dataLength, .littleEndian)  // dwPitchOrLinearSize
        bytes.append32(0, .littleEndian)  // dwDepth
        bytes.append32(1, .littleEndian)  // dwMipMapCount
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 44))  // dwReserved1
        bytes.append32(pixelFormatSize, .littleEndian)
        bytes.append32(pixelFormatFlags, .littleEndian)
        let code = ascii(fourCCCode)
        bytes.append(contentsOf: pixelFormatFlags & fourCC != 0 ? code : [0, 0, 0, 0])
        bytes.append32(bitCount, .littleEndian)
        let alphaMask = pixelFormatFlags & (alphaPixels | alphaOnly) != 0 ? 0xFF00_0000 : 0
        for mask in [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, alphaMask] { bytes.append32(mask, .littleEndian) }
        bytes.append32(0x1000, .littleEndian)  // dwCaps: DDSCAPS_TEXTURE
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 16))  // dwCaps2...4, dwReserved2
        bytes.appendFiller(dataLength)
        return bytes
    }
}

/// KTX 1.1 and KTX 2.0 files.
public enum KTXBuilder {
    public static let identifier1: [UInt8] = [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]
    public static let identifier2: [UInt8] = [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]

    // OpenGL enums used by the tests.
    public static let glUnsignedByte = 0x1401
    public static let glUnsignedShort = 0x1403
    public static let glHalfFloat = 0x140B
    public static let glFloat = 0x1406
    public static let glUnsignedShort565 = 0x8363
    public static let glRGB = 0x1907
    public static let glRGBA = 0x1908
    public static let glRed = 0x1903
    public static let glLuminanceAlpha = 0x190A
    public static let glRGBA8 = 0x8058
    public static let glCompressedRGBAS3TCDXT5 = 0x83F3

    // Vulkan formats used by the tests.
    public static let vkUndefined = 0
    public static let vkR8G8B8A8Unorm = 37
    public static let vkR8G8B8Srgb = 29
    public static let vkR16G16B16A16Sfloat = 97
    public static let vkR32Sfloat = 100
    public static let vkBC1RGBUnorm = 131
    public static let vkBC3Unorm = 137
    public static let vkBC7Unorm = 145

    /// A KTX 1 file in `byteOrder`, with one mip level of filler.
    public static func ktx1(
        width: Int, height: Int, depth: Int = 0, byteOrder: ByteOrder = .littleEndian,
        glType: Int = glUnsignedByte, glTypeSize: Int = 1, glFormat: Int = glRGBA,
        glInternalFormat: Int = glRGBA8, glBaseInternalFormat: Int = glRGBA,
        endianness: Int = 0x0403_0201, keyValueData: [UInt8] = [], dataLength: Int = 16
    ) -> [UInt8] {
        var bytes = identifier1
        for value in [
            endianness, glType, glTypeSize, glFormat, glInternalFormat, glBaseInternalFormat,
            width, height, depth, 0, 1, 1, keyValueData.count,
        ] {
            bytes.append32(value, byteOrder)
        }
        bytes += keyValueData
        bytes.append32(dataLength, byteOrder)  // imageSize
        bytes.appendFiller(dataLength)
        return bytes
    }

    /// A KTX2 file with one level: header, index, level index, a minimal DFD, then filler.
    public static func ktx2(
        width: Int, height: Int, depth: Int = 0, vkFormat: Int = vkR8G8B8A8Unorm, typeSize: Int = 1,
        dataLength: Int = 16
    ) -> [UInt8] {
        var bytes = identifier2
        for value in [vkFormat, typeSize, width, height, depth, 0, 1, 1, 0] {
            bytes.append32(value, .littleEndian)
        }
        let dfdOffset = 80 + 24  // after the header, the index and one level index entry
        let dfdLength = 4
        bytes.append32(dfdOffset, .littleEndian)
        bytes.append32(dfdLength, .littleEndian)
        bytes.append32(0, .littleEndian)  // kvdByteOffset
        bytes.append32(0, .littleEndian)  // kvdByteLength
        bytes.append64(0, .littleEndian)  // sgdByteOffset
        bytes.append64(0, .littleEndian)  // sgdByteLength
        let levelOffset = dfdOffset + dfdLength
        bytes.append64(UInt64(levelOffset), .littleEndian)
        bytes.append64(UInt64(dataLength), .littleEndian)
        bytes.append64(UInt64(dataLength), .littleEndian)
        bytes.append32(dfdLength, .littleEndian)  // dfdTotalSize: no descriptor block
        bytes.appendFiller(dataLength)
        return bytes
    }
}

/// Apple icon families.
public enum ICNSBuilder {
    /// An element whose length field counts its header and `data`.
    public static func element(_ type: String, _ data: [UInt8]) -> [UInt8] {
        element(type, declaredLength: 8 + data.count, data)
    }

    /// An element with any length field.
    public static func element(_ type: String, declaredLength: Int, _ data: [UInt8]) -> [UInt8] {
        var bytes = ascii(type)
        bytes.append32(declaredLength, .bigEndian)
        return bytes + data
    }

    /// An icon element with `count` bytes of filler standing in for its image.
    public static func icon(_ type: String, dataLength count: Int = 12) -> [UInt8] {
        var data: [UInt8] = []
        data.appendFiller(count, seed: UInt8(truncatingIfNeeded: count))
        return element(type, data)
    }

    /// `icns`, the total length (the real one unless `declaredLength` is given), the elements.
    public static func family(_ elements: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        var bytes = ascii("icns")
        bytes.append32(declaredLength ?? 8 + elements.count, .bigEndian)
        return bytes + elements
    }
}

/// OpenEXR files.
public enum EXRBuilder {
    public static let tiledFlag = 0x200
    public static let longNamesFlag = 0x400
    public static let nonImageFlag = 0x800
    public static let multiPartFlag = 0x1000

    /// Channel pixel types.
    public static let uint = 0
    public static let half = 1
    public static let float = 2

    /// `name\0 type\0 size value`, with the real size unless `declaredSize` is given.
    public static func attribute(_ name: String, _ type: String, _ value: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
        var bytes = ascii(name) + [0] + ascii(type) + [0]
        bytes.append32(declaredSize ?? value.count, .littleEndian)
        return bytes + value
    }

    /// A box2i value: xMin, yMin, xMax, yMax.
    public static func box(_ xMin: Int, _ yMin: Int, _ xMax: Int, _ yMax: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [xMin, yMin, xMax, yMax] { bytes.append32(value, .littleEndian) }
        return bytes
    }

    /// The `dataWindow` attribute of a window `width` × `height` starting at (`xMin`, `yMin`).
    public static func dataWindow(width: Int, height: Int, xMin: Int = 0, yMin: Int = 0) -> [UInt8] {
        attribute("dataWindow", "box2i", box(xMin, yMin, xMin + width - 1, yMin + height - 1))
    }

    /// A chlist value: each channel's name, pixel type, pLinear, reserved bytes and sampling,
    /// then the terminating empty name.
    public static func channelList(_ channels: [(name: String, type: Int)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for channel in channels {
            bytes += ascii(channel.name) + [0]
            bytes.append32(channel.type, .littleEndian)
            bytes += [0, 0, 0, 0]  // pLinear and three reserved bytes
            bytes.append32(1, .littleEndian)
            bytes.append32(1, .littleEndian)
        }
        return bytes + [0]
    }

    /// The `channels` attribute.
    public static func channels(_ channels: [(name: String, type: Int)]) -> [UInt8] {
        attribute("channels", "chlist", channelList(channels))
    }

    /// The other required attributes, in the alphabetical order the OpenEXR library writes:
    /// those before `dataWindow` and those after it.
    public static let compression = attribute("compression", "compression", [0])
    public static func requiredAfterDataWindow(width: Int, height: Int) -> [UInt8] {
        var bytes = attribute("displayWindow", "box2i", box(0, 0, width - 1, height - 1))
        bytes += attribute("lineOrder", "lineOrder", [0])
        bytes += attribute("pixelAspectRatio", "float", [0, 0, 0x80, 0x3F])
        bytes += attribute("screenWindowCenter", "v2f", [UInt8](repeating: 0, count: 8))
        bytes += attribute("screenWindowWidth", "float", [0, 0, 0x80, 0x3F])
        return bytes
    }

    /// A single-part scan-line header: channels, compression, dataWindow, the rest, the end byte.
    public static func header(
        width: Int, height: Int, xMin: Int = 0, yMin: Int = 0,
        channels list: [(name: String, type: Int)] = [("B", half), ("G", half), ("R", half)]
    ) -> [UInt8] {
        channels(list) + compression + dataWindow(width: width, height: height, xMin: xMin, yMin: yMin)
            + requiredAfterDataWindow(width: width, height: height) + [0]
    }

    /// Magic, version field (version 2 unless given, with `flags`), the header bytes as given
    /// (ending with their own terminator or terminators), an offset table and some filler.
    public static func file(header: [UInt8], flags: Int = 0, version: Int = 2, chunks: Int = 2) -> [UInt8] {
        var bytes: [UInt8] = [0x76, 0x2F, 0x31, 0x01]
        bytes.append32(version | flags, .littleEndian)
        bytes += header
        let tableEnd = bytes.count + chunks * 8
        for chunk in 0..<chunks { bytes.append64(UInt64(tableEnd + chunk * 12), .littleEndian) }
        for chunk in 0..<chunks {
            bytes.append32(chunk, .littleEndian)  // y
            bytes.append32(4, .littleEndian)  // data size
            bytes.appendFiller(4)
        }
        return bytes
    }

    /// A single-part scan-line image.
    public static func image(
        width: Int, height: Int, xMin: Int = 0, yMin: Int = 0,
        channels list: [(name: String, type: Int)] = [("B", half), ("G", half), ("R", half)]
    ) -> [UInt8] {
        file(header: header(width: width, height: height, xMin: xMin, yMin: yMin, channels: list))
    }

    /// A multi-part file: each part's header with its name, type and chunkCount, then the empty
    /// header that ends the list. `sizes` are the parts' data windows, first part first.
    public static func multiPart(sizes: [(width: Int, height: Int)], deep: Bool = false) -> [UInt8] {
        var headers: [UInt8] = []
        for (index, size) in sizes.enumerated() {
            var attributes = channels([("Y", float)]) + attribute("chunkCount", "int", [1, 0, 0, 0])
            attributes += compression + dataWindow(width: size.width, height: size.height)
            attributes += requiredAfterDataWindow(width: size.width, height: size.height)
            attributes += attribute("name", "string", ascii("part\(index)"))
            attributes += attribute("type", "string", ascii(deep ? "deepscanline" : "scanlineimage"))
            if deep { attributes += attribute("version", "int", [1, 0, 0, 0]) }
            headers += attributes + [0]
        }
        let flags = multiPartFlag | (deep ? nonImageFlag : 0)
        return file(header: headers + [0], flags: flags, chunks: sizes.count)
    }
}
