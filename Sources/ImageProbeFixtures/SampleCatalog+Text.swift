import ImageProbe

extension SampleCatalog {
    /// PNM, PAM, PFM, SVG, Radiance HDR and XBM samples.
    static var text: [Sample] {
        var samples: [Sample] = []
        func add(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int, _ orientation: Int? = nil) {
            samples.append(Sample(name: name, bytes: bytes, format: format, width: width, height: height, orientation: orientation))
        }
        add("pnm-p1", PNMBuilder.image(magic: 1, width: 24, height: 7, comment: "feep").bytes, .pnm, 24, 7)
        add("pnm-p2", PNMBuilder.image(magic: 2, width: 4, height: 4, maxval: 15).bytes, .pnm, 4, 4)
        add("pnm-p3", PNMBuilder.image(magic: 3, width: 3, height: 2, maxval: 65535).bytes, .pnm, 3, 2)
        add("pnm-p4", PNMBuilder.image(magic: 4, width: 123, height: 456, comment: "Created by GIMP").bytes, .pnm, 123, 456)
        add("pnm-p5", PNMBuilder.netpbm(magic: "5", tokens: ["510", "532", "16383"], gaps: [" ", "\t", "#c\n"]).bytes, .pnm, 510, 532)
        add("pnm-p6", PNMBuilder.image(magic: 6, width: 20, height: 10).bytes, .pnm, 20, 10)
        add("pnm-pam", PNMBuilder.pam([.comment(" made by hand")] + PNMBuilder.pamLines(width: 16, height: 16)).bytes, .pnm, 16, 16)
        add("pfm-colour", PNMBuilder.floatMap(grey: false, width: 123, height: 456).bytes, .pfm, 123, 456)
        add("pfm-grey", PNMBuilder.floatMap(grey: true, width: 7, height: 3, scale: "1e0").bytes, .pfm, 7, 3)

        add("hdr-standard", RadianceBuilder.image(width: 100, height: 67).bytes, .hdr, 100, 67)
        add("hdr-rgbe-rotated", RadianceBuilder.image(program: "RGBE", header: ["# rotated", "FORMAT=32-bit_rle_xyze"],
                                                      first: "-X", firstCount: "640", second: "-Y", secondCount: "480").bytes,
            .hdr, 480, 640, 6)

        add("xbm-cursor", XBMBuilder.image(width: 16, height: 7, hotSpot: (3, 4)).bytes, .xbm, 16, 7)
        add("xbm-gimp", XBMBuilder.image(width: "48", height: "3", preamble: "/* Created with GIMP */\n").bytes, .xbm, 48, 3)

        let size = SVGBuilder.document(prolog: SVGBuilder.fullProlog,
                                       attributes: [SVGBuilder.namespace, ("width", "123px"), ("height", "456px")])
        add("svg-width-height", size.bytes, .svg, 123, 456)
        let box = SVGBuilder.document(prolog: SVGBuilder.subsetProlog,
                                      attributes: [SVGBuilder.namespace, ("stroke-width", "2"), ("viewBox", "0 0 246 912"), ("width", "123")],
                                      quote: "'")
        add("svg-viewbox-ratio", box.bytes, .svg, 123, 456)
        let units = SVGBuilder.document(prolog: "\u{FEFF}", rootName: "svg:svg",
                                        attributes: [("xmlns:svg", "http://www.w3.org/2000/svg"), ("width", "1in"), ("height", "2.54cm")], empty: true)
        add("svg-units", units.bytes, .svg, 96, 96)
        return samples
    }
}
