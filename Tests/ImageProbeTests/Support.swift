import ImageProbe
import ImageProbeFixtures
import Testing

/// Runs `bytes` through the chunking verifier, records any contract violation as a test
/// failure, and returns the whole-input outcome.
@discardableResult
func verified(
    _ bytes: [UInt8], _ options: ScanOptions = ScanOptions(), sourceLocation: SourceLocation = #_sourceLocation
) -> ScanOutcome {
    let report = ChunkingVerifier(options: options).verify(bytes)
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))", sourceLocation: sourceLocation)
    return report.reference
}

/// The info of a `done` outcome, or nil (recorded as a failure).
func info(_ outcome: ScanOutcome, sourceLocation: SourceLocation = #_sourceLocation) -> ImageInfo? {
    guard case .done(let info) = outcome.status else {
        Issue.record("expected done, got \(outcome)", sourceLocation: sourceLocation)
        return nil
    }
    return info
}

/// The failure code of an `unsupported` outcome, or nil.
func failureCode(_ outcome: ScanOutcome) -> ScanFailure.Code? {
    guard case .unsupported(let failure) = outcome.status else { return nil }
    return failure.code
}

let dimensionsOnly = ScanOptions(mode: .dimensionsOnly)

extension ImageInfo {
    var size: [Int] { [width, height] }
}
