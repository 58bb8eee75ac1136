import ImageProbe

/// A fuzzer input: two parameter bytes, then the image bytes.
///
/// The parameters, like llhttp's fuzzer, let the fuzzer explore options and chunkings:
/// - byte 0, bit 0: dimensions-only mode; bits 1–2: `maxBytes` (default, 64, 512, 4096);
///   bits 3–4: `maxEntries` (default, 1, 4, 32); bits 5–6: `maxWidth` and `maxHeight`
///   (default, 1, 100, 65535); bit 7 (with bit 0 clear): animation mode;
/// - byte 1: the seed of the random chunking and of the prefix sample.
public struct FuzzInput: Sendable {
    public var options: ScanOptions
    public var seed: UInt64
    public var image: [UInt8]

    public init(_ data: [UInt8]) {
        let parameters = data.first ?? 0
        var options = ScanOptions(mode: parameters & 1 == 1 ? .dimensionsOnly : parameters & 0x80 != 0 ? .animation : .full)
        options.maxBytes = [ScanOptions.defaultMaxBytes, 64, 512, 4096][Int(parameters >> 1) & 3]
        options.maxEntries = [ScanOptions.defaultMaxEntries, 1, 4, 32][Int(parameters >> 3) & 3]
        let dimension = [ScanOptions.defaultMaxDimension, 1, 100, 65535][Int(parameters >> 5) & 3]
        options.maxWidth = dimension
        options.maxHeight = dimension
        self.options = options
        self.seed = UInt64(data.count > 1 ? data[1] : 0)
        self.image = data.count > 2 ? Array(data[2...]) : []
    }

    /// The parameter bytes for default options in `mode`, to put before a seed image.
    public static func header(mode: ScanOptions.Mode = .full, seed: UInt8 = 0) -> [UInt8] {
        switch mode {
        case .full: [0, seed]
        case .dimensionsOnly: [1, seed]
        case .animation: [0x80, seed]
        }
    }

    /// A chunking seed derived from a sample's name (FNV-1a), so a seed file doesn't change
    /// when other samples are added.
    public static func seed(for name: String) -> UInt8 {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return UInt8(truncatingIfNeeded: hash)
    }

    /// Runs every check of the streaming contract on this input; empty when all hold.
    ///
    /// Besides the chunkings, the input is scanned in the other modes: when two modes answer,
    /// they must agree on the format and size (full and animation modes only add metadata).
    public func check() -> [String] {
        var verifier = ChunkingVerifier(options: options)
        verifier.maxFailures = 3
        let report = verifier.verify(image, coverage: .sampled(seed: seed))
        var failures = report.failures
        for mode in [ScanOptions.Mode.dimensionsOnly, .full, .animation] where mode != options.mode {
            var other = options
            other.mode = mode
            let otherOutcome = ChunkingVerifier.scanWhole(image, options: other)
            if case .done(let mine) = report.reference.status, case .done(let theirs) = otherOutcome.status,
                mine.format != theirs.format || mine.width != theirs.width || mine.height != theirs.height
            {
                failures.append("modes disagree: \(report.reference) but \(mode) mode gives \(otherOutcome)")
            }
        }
        return failures
    }
}
