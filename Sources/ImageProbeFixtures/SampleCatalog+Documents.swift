import ImageProbe

extension SampleCatalog {
    /// EPS (and DOS EPS), XPM and FITS samples.
    static var documents: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: nil))
        }
        add("eps-bbox", EPSBuilder.document(box: "-10 20 290 220").bytes, .eps, 300, 200)
        add("eps-atend", EPSBuilder.deferred(box: "0 0 64 48").bytes, .eps, 64, 48)
        let postScript = EPSBuilder.document(box: "0 0 120 90", lineEnd: "\r").bytes
        add("eps-dos-tiff", EPSBuilder.dos(postScript: postScript, preview: .tiff).bytes, .eps, 120, 90)

        add("xpm3", XPMBuilder.xpm3(width: 16, height: 9, beforeValues: "/* columns rows colors chars-per-pixel */\n").bytes, .xpm, 16, 9)
        add("xpm2", XPMBuilder.xpm2(width: 11, height: 3).bytes, .xpm, 11, 3)

        // A header block and a little data: the seeds stay under 4 KiB.
        add("fits-2d", Array(FITSBuilder.image(bitpix: -32, axes: [320, 200], dataBytes: 16).bytes.prefix(2880 + 16)), .fits, 320, 200)
        add("fits-cube", Array(FITSBuilder.image(bitpix: 8, axes: [6, 4, 3], dataBytes: 72).bytes.prefix(2880 + 72)), .fits, 6, 4)
        return samples
    }

    /// BLP, PVR, PKM, ASTC and VTF samples.
    static var gameTextures: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: nil))
        }
        add("blp1-palette", BLPBuilder.blp1(width: 256, height: 128, alphaBits: 8), .blp, 256, 128)
        add("blp2-dxt5", BLPBuilder.blp2(width: 64, height: 32, encoding: 2, alphaDepth: 8, alphaEncoding: 7), .blp, 64, 32)
        add("pvr-v3", PVRBuilder.v3(width: 512, height: 256, surfaces: 4, metadata: 15), .pvr, 512, 256)
        add("pvr-v3-be", PVRBuilder.v3(width: 24, height: 12, pixelFormat: PVRBuilder.etc1, byteOrder: .bigEndian), .pvr, 24, 12)
        add("pvr-legacy", PVRBuilder.legacy(width: 64, height: 32), .pvr, 64, 32)
        add("pkm-etc1", PKMBuilder.file(width: 13, height: 7), .pkm, 13, 7)
        add("pkm-etc2-rgba", PKMBuilder.file(version: "20", type: 3, width: 64, height: 30), .pkm, 64, 30)
        add("astc-2d", ASTCBuilder.file(block: (6, 5, 1), width: 70_000, height: 4), .astc, 70_000, 4)
        add("astc-3d", ASTCBuilder.file(block: (4, 4, 4), width: 16, height: 8, depth: 4), .astc, 16, 8)
        add("vtf-7.2", VTFBuilder.file(minor: 2, width: 64, height: 32, flags: VTFBuilder.eightBitAlpha), .vtf, 64, 32)
        add("vtf-7.5-frames", VTFBuilder.file(minor: 5, width: 16, height: 16, frames: 3, imageFormat: VTFBuilder.dxt5), .vtf, 16, 16)
        return samples
    }

    /// DCX, MSP, IFF, Aseprite and farbfeld samples.
    static var paint: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: nil))
        }
        let pages = [DCXBuilder.page(width: 13, height: 7), DCXBuilder.page(width: 40, height: 30)]
        add("dcx-2pages", DCXBuilder.file(pages: pages, slots: 8).bytes, .dcx, 13, 7)
        add("msp-v1", MSPBuilder.file(width: 640, height: 480), .msp, 640, 480)
        add("msp-v2", MSPBuilder.file(version2: true, width: 13, height: 7), .msp, 13, 7)
        add("ilbm", IFFBuilder.ilbm(width: 320, height: 200), .ilbm, 320, 200)
        add("ilbm-pbm-anno-first", IFFBuilder.ilbm(type: "PBM ", width: 13, height: 7, planes: 8, before: [IFFBuilder.chunk("ANNO", ascii("odd"))]),
            .ilbm, 13, 7)
        // 224 bytes: the file size's second byte is 0, a TGA's colour-map type.
        add("aseprite-small", AsepriteBuilder.file(width: 7, height: 3, frames: 6), .aseprite, 7, 3)
        add("aseprite-gray", AsepriteBuilder.file(width: 100, height: 37, depth: 16, frames: 2, padding: 600), .aseprite, 100, 37)
        add("farbfeld", FarbfeldBuilder.file(width: 70_000, height: 1), .farbfeld, 70_000, 1)
        return samples
    }
}
