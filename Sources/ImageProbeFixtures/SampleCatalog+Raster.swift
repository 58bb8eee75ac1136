import ImageProbe

extension SampleCatalog {
    /// ICO, CUR, TGA, PSD, QOI, PCX, SGI and Sun raster samples.
    static var raster: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: nil))
        }
        typealias Entry = ICOBuilder.Entry

        add("ico-single", ICOBuilder.file(entries: [Entry(width: 32, height: 32)]), .ico, 32, 32)
        add("ico-multi", ICOBuilder.file(entries: [Entry(width: 16, height: 16, bitCount: 8), Entry(width: 48, height: 48),
                                                    Entry(width: 32, height: 32)]), .ico, 48, 48)
        add("ico-256-first", ICOBuilder.file(entries: [Entry(width: 256, height: 256), Entry(width: 16, height: 16)]), .ico, 256, 256)
        add("cur-hotspot", ICOBuilder.file(cursor: true, entries: [Entry(width: 32, height: 32, planes: 5, bitCount: 7)]), .cur, 32, 32)

        // ID length 3 (sniffed after 2 bytes), an RLE true-colour image after `00 00 0A 00`
        // (4 bytes), an uncompressed one after `00 00 02 00 00 00` (6 bytes), a colour map.
        var withID = TGABuilder.Header(width: 123, height: 456)
        withID.idLength = 3
        withID.descriptor = 0x20
        add("tga-id", TGABuilder.file(withID), .tga, 123, 456)
        var rle = TGABuilder.Header(width: 640, height: 480)
        rle.imageType = 10
        rle.depth = 32
        rle.descriptor = 0x08
        add("tga-rle", TGABuilder.file(rle, footer: true), .tga, 640, 480)
        add("tga-uncompressed", TGABuilder.file(TGABuilder.Header(width: 124, height: 124)), .tga, 124, 124)
        add("tga-mapped", TGABuilder.file(.colourMapped(width: 350, height: 350, mapLength: 16)), .tga, 350, 350)

        add("psd", PSDBuilder.file(width: 500, height: 300), .psd, 500, 300)
        add("psb", PSDBuilder.file(version: 2, channels: 4, width: 300_000, height: 2, depth: 16), .psd, 300_000, 2)
        add("qoi", QOIBuilder.file(width: 800, height: 600), .qoi, 800, 600)
        add("pcx", PCXBuilder.file(xMin: 10, yMin: 20, xMax: 329, yMax: 219), .pcx, 320, 200)
        add("sgi-rgb", SGIBuilder.file(width: 64, height: 32, channels: 4), .sgi, 64, 32)
        add("sgi-row", SGIBuilder.file(bytesPerChannel: 2, dimension: 1, width: 77, height: 0, channels: 1), .sgi, 77, 1)
        add("sun", SunRasterBuilder.file(width: 1152, height: 900, depth: 8), .sun, 1152, 900)
        return samples
    }
}
