import ImageProbe

extension SampleCatalog {
    /// ICO, CUR, TGA, PSD, QOI, PCX, SGI and Sun raster samples.
    static var raster: [Sample] { [] }
}
