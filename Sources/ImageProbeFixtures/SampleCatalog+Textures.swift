import ImageProbe

extension SampleCatalog {
    /// DDS, KTX, KTX2, ICNS and OpenEXR samples.
    static var textures: [Sample] { [] }
}
