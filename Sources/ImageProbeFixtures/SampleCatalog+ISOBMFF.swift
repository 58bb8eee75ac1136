import ImageProbe

extension SampleCatalog {
    /// HEIF and AVIF samples.
    static var isobmff: [Sample] { [] }
}
