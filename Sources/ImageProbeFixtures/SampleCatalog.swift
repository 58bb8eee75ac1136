import ImageProbe

/// A small, valid file of some format, made by the builders, with what it should scan as.
public struct Sample: Sendable {
    public var name: String
    public var bytes: [UInt8]
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var orientation: Int?
    /// For animations: the frames an animation-mode scan counts.
    public var frameCount: Int? = nil
}

/// Small valid files of every format: the fuzzer's seeds, the benchmarks' inputs, and a test
/// that each scans as built.
public enum SampleCatalog {
    /// Every sample. Each group of formats keeps its samples in its own file.
    public static var all: [Sample] { classic + isobmff + jpegXLAndJPEG2000 + text + raster + textures + documents + gameTextures + paint + animations }

    static var classic: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int, _ orientation: Int? = nil) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: orientation))
        }
        let exifLE = TIFFBuilder(entries: [.filler(tag: 0x10F), .orientation(6), .filler()]).build()
        let exifBE = TIFFBuilder(byteOrder: .bigEndian, entries: [.orientation(8)], ifd1Entries: [.orientation(3)]).build()

        add("jpeg-baseline", JPEGBuilder.image(width: 640, height: 480).bytes, .jpeg, 640, 480)
        add("jpeg-progressive", JPEGBuilder.image(marker: 0xC2, width: 800, height: 600).bytes, .jpeg, 800, 600)
        add("jpeg-exif-le", JPEGBuilder.image(before: JPEGBuilder.exif(exifLE) + JPEGBuilder.quantizationTable, width: 4032, height: 3024).bytes, .jpeg, 4032, 3024, 6)
        add("jpeg-exif-be", JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.exif(exifBE), marker: 0xC1, width: 100, height: 200, precision: 12).bytes, .jpeg, 100, 200, 8)
        add("jpeg-fill-rst", JPEGBuilder.image(before: JPEGBuilder.jfif + [0xFF, 0xFF, 0xFF, 0xD3, 0x00, 0x55] + JPEGBuilder.xmp, width: 1, height: 1).bytes, .jpeg, 1, 1)

        add("png-rgb", PNGBuilder.image(width: 1920, height: 1080), .png, 1920, 1080)
        add("png-cgbi", PNGBuilder.image(width: 57, height: 57, colourType: 6, apple: true), .png, 57, 57)
        add("png-apng", PNGBuilder.image(width: 100, height: 50, beforeData: PNGBuilder.animationControl(frames: 3)), .png, 100, 50)
        add("png-exif", PNGBuilder.image(width: 30, height: 20, beforeData: PNGBuilder.exif(exifLE)), .png, 30, 20, 6)
        add("png-exif-after", PNGBuilder.image(width: 30, height: 20, interlace: 1, afterData: PNGBuilder.exif(exifBE)), .png, 30, 20, 8)

        add("gif-87a", GIFBuilder.image(version: "87a", width: 320, height: 200), .gif, 320, 200)
        add("gif-89a", GIFBuilder.image(width: 16, height: 16, colourTableBits: 8), .gif, 16, 16)

        for size in BMPBuilder.headerSizes {
            let height = size == 12 ? 48 : -48
            add("bmp-\(size)", BMPBuilder.image(headerSize: size, width: 64, height: height).bytes, .bmp, 64, 48)
        }

        add("webp-lossy", WebPBuilder.lossy(width: 550, height: 368), .webp, 550, 368)
        add("webp-lossless", WebPBuilder.lossless(width: 386, height: 395, alpha: true), .webp, 386, 395)
        let exifChunk = WebPBuilder.chunk("EXIF", exifLE)
        add("webp-extended-exif", WebPBuilder.extended(width: 400, height: 300, flags: WebPBuilder.flagEXIF | WebPBuilder.flagAlpha,
                                                       chunks: WebPBuilder.lossyFrame(width: 400, height: 300) + exifChunk), .webp, 400, 300, 6)
        add("webp-animated", WebPBuilder.extended(width: 64, height: 64, flags: WebPBuilder.flagAnimation,
                                                  chunks: WebPBuilder.chunk("ANIM", [0, 0, 0, 0, 0, 0])), .webp, 64, 64)

        add("tiff-le", TIFFBuilder(entries: [.width(3000), .height(2000), .bitsPerSample(8), .orientation(5)]).build(), .tiff, 3000, 2000, 5)
        add("tiff-be-long", TIFFBuilder(byteOrder: .bigEndian, entries: [.width(70000, type: TIFFEntry.long), .height(10)]).build(), .tiff, 70000, 10)
        add("tiff-ifd-after-data", TIFFBuilder(entries: [.width(7), .height(8), .filler(), .orientation(2)], gapBeforeIFD: 2000).build(), .tiff, 7, 8, 2)
        add("tiff-big", TIFFBuilder(bigTIFF: true, entries: [.width(5, type: TIFFEntry.long8), .height(6), .orientation(7)]).build(), .tiff, 5, 6, 7)
        return samples
    }
}
