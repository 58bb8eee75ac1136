import ImageProbe

extension SampleCatalog {
    /// JPEG XL and JPEG 2000 samples.
    static var jpegXLAndJPEG2000: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int, _ orientation: Int? = nil) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: orientation))
        }
        // A JPEG XL codestream always has an orientation; all_default makes it 1.
        add("jxl-small", JXLBuilder.codestream(width: 256, height: 256).bytes, .jxl, 256, 256, 1)
        add("jxl-ratio", JXLBuilder.codestream(width: 1920, height: 1080).bytes, .jxl, 1920, 1080, 1)
        add("jxl-large-oriented", JXLBuilder.codestream(width: 70000, height: 3, metadata: .orientation(6)).bytes, .jxl, 70000, 3, 6)
        let exif = JPEGBox.box("Exif", [0, 0, 0, 0] + TIFFBuilder(entries: [.orientation(3)]).build())
        let whole = JXLBuilder.codestream(width: 640, height: 480, metadata: .orientation(8)).bytes
        add("jxl-container", JXLBuilder.container([.box(exif), .whole(whole)]).bytes, .jxl, 640, 480, 8)
        let split = JXLBuilder.codestream(width: 3000, height: 2000, metadata: .orientation(3)).bytes
        let parts = JXLBuilder.parts(split, cuts: [3, 4], between: JPEGBox.box("jbrd", [1, 2, 3]))
        add("jxl-container-parts", JXLBuilder.container(parts).bytes, .jxl, 3000, 2000, 3)

        add("jp2", JPEG2000Builder.jp2(width: 123, height: 456).bytes, .jp2, 123, 456)
        add("jpx-large-boxes", JPEG2000Builder.jp2(width: 800, height: 600, brand: "jpx ", before: [JPEGBox.box("rreq", [1, 0, 0], length: .large)],
                                                   headerLength: .large).bytes, .jp2, 800, 600)
        add("j2k", JPEG2000Builder.codestream(width: 640, height: 480, xOffset: 10, yOffset: 20, components: 1, bitDepth: 12), .j2k, 640, 480)
        return samples
    }
}
