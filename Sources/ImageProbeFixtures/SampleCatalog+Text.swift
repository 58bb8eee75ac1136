import ImageProbe

extension SampleCatalog {
    /// PNM, PAM, PFM, SVG, Radiance HDR and XBM samples.
    static var text: [Sample] { [] }
}
