import ImageProbe

extension SampleCatalog {
    /// HEIF and AVIF samples.
    static var isobmff: [Sample] {
        typealias Box = ISOBMFFBuilder
        let avifItem = Box.Item(id: 1, type: "av01", properties: [1, 2, 3, 4])
        let avif = Box.file(major: "avif", compatible: ["mif1", "avif", "miaf"], meta: Box.meta(
            primary: 1, items: [avifItem],
            properties: [.ispe(width: 1204, height: 800), .other("av1C", [0x81, 0x00, 0x0C, 0x00]), .irot(angle: 1), .imir(axis: 0)]))
        let clap = Box.Property.clap(widthN: 385, widthD: 1, heightN: 330, heightD: 1, horizontalN: 0, horizontalD: 1, verticalN: 0, verticalD: 1)
        let cropped = Box.file(major: "mif1", compatible: ["mif1"], meta: Box.meta(
            primary: 7, items: [Box.Item(id: 7, type: "hvc1", properties: [1, 2, 3])],
            properties: [.ispe(width: 722, height: 1024), clap, .pixi(bits: [10, 10, 10])],
            versions: Box.Versions(pitm: 1, iinf: 1, infe: 3, ipma: 1, wideIndices: true)))
        let late = Box.file(major: "avis", compatible: ["msf1", "avis"], meta: Box.meta(
            primary: 2, items: [Box.Item(id: 1, type: "av01", properties: [2]), Box.Item(id: 2, type: "av01", properties: [1])],
            properties: [.ispe(width: 480, height: 270), .ispe(width: 480, height: 270)], order: .primaryLast))
        let mdatFirst = Box.file(major: "heic", compatible: ["mif1"], before: Box.box("mdat", [UInt8](repeating: 0x33, count: 1500)),
                                 meta: Box.meta(primary: 1, items: [Box.Item(id: 1, type: "hvc1", properties: [1])],
                                                properties: [.ispe(width: 64, height: 32)]), after: [])
        return [
            Sample(name: "heif-phone-grid", bytes: Box.phoneStyle(width: 4032, height: 3024), format: .heif, width: 4032, height: 3024, orientation: 6),
            Sample(name: "avif-rotate-mirror", bytes: avif, format: .avif, width: 1204, height: 800, orientation: 5),
            Sample(name: "heif-clap-wide", bytes: cropped, format: .heif, width: 722, height: 1024),
            Sample(name: "avif-pitm-last", bytes: late, format: .avif, width: 480, height: 270),
            Sample(name: "heif-meta-after-mdat", bytes: mdatFirst, format: .heif, width: 64, height: 32),
        ]
    }
}
