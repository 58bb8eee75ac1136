import Foundation
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
    ReplayExport.record(bytes, options, report.reference)
    return report.reference
}

/// With IMAGEPROBE_REPLAY_EXPORT=DIR, every input the tests verify is written to DIR with its
/// options and this build's outcome (`cases.tsv`), for replaying through the 32-bit
/// WebAssembly module (Tests/wasm32/replay.mjs, run by Scripts/check-32bit.sh).
enum ReplayExport {
    static let directory = ProcessInfo.processInfo.environment["IMAGEPROBE_REPLAY_EXPORT"]

    static func record(_ bytes: [UInt8], _ options: ScanOptions, _ outcome: ScanOutcome) {
        guard let directory else { return }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let name = String(hash, radix: 16) + ".bin"
        let path = directory + "/" + name
        if !FileManager.default.fileExists(atPath: path) {
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
        }
        // One write per line, appended: the tests run in parallel.
        let line = Array("\(name)\t0\t\(options.columns)\t\(outcome.line)\n".utf8)
        let descriptor = open(directory + "/cases.tsv", O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
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
