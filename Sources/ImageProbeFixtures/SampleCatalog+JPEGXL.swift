import ImageProbe

extension SampleCatalog {
    /// JPEG XL and JPEG 2000 samples.
    static var jpegXLAndJPEG2000: [Sample] { [] }
}
