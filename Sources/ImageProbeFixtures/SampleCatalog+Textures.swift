import ImageProbe

extension SampleCatalog {
    /// DDS, KTX, KTX2, ICNS and OpenEXR samples.
    static var textures: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: nil))
        }

        add("dds-dxt5", DDSBuilder.image(width: 690, height: 298, fourCCCode: "DXT5"), .dds, 690, 298)
        add("dds-rgba", DDSBuilder.image(width: 64, height: 32, pixelFormatFlags: DDSBuilder.rgb | DDSBuilder.alphaPixels, bitCount: 32), .dds, 64, 32)

        add("ktx1-le", KTXBuilder.ktx1(width: 256, height: 128), .ktx, 256, 128)
        add("ktx1-be-1d", KTXBuilder.ktx1(width: 64, height: 0, byteOrder: .bigEndian, glType: KTXBuilder.glFloat, glTypeSize: 4), .ktx, 64, 1)
        add("ktx2-bc7", KTXBuilder.ktx2(width: 1024, height: 512, vkFormat: KTXBuilder.vkBC7Unorm), .ktx2, 1024, 512)

        let mixed = ICNSBuilder.element("TOC ", [0x69, 0x73, 0x33, 0x32, 0, 0, 0, 20]) + ICNSBuilder.icon("is32")
            + ICNSBuilder.icon("s8mk") + ICNSBuilder.icon("ic07", dataLength: 40) + ICNSBuilder.icon("ic13", dataLength: 40)
            + ICNSBuilder.element("icnV", [0x42, 0x10, 0, 0])
        add("icns-mixed", ICNSBuilder.family(mixed), .icns, 256, 256)
        add("icns-1024", ICNSBuilder.family(ICNSBuilder.icon("ic08") + ICNSBuilder.icon("ic10") + ICNSBuilder.icon("ic14")), .icns, 1024, 1024)

        let alpha: [(name: String, type: Int)] = [("A", EXRBuilder.half), ("B", EXRBuilder.half), ("G", EXRBuilder.half), ("R", EXRBuilder.half)]
        add("exr-scanline", EXRBuilder.image(width: 100, height: 100, channels: alpha), .exr, 100, 100)
        let windowFirst = EXRBuilder.dataWindow(width: 40, height: 30, xMin: -20, yMin: -10)
            + EXRBuilder.channels([("Z", EXRBuilder.float)]) + EXRBuilder.compression
            + EXRBuilder.requiredAfterDataWindow(width: 40, height: 30) + [0]
        add("exr-window-first", EXRBuilder.file(header: windowFirst), .exr, 40, 30)
        add("exr-multipart", EXRBuilder.multiPart(sizes: [(640, 480), (32, 32)]), .exr, 640, 480)
        return samples
    }
}
