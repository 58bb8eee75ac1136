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
        // The manifest has no maxPixels column: those inputs are replayed on wasm32 by the
        // JavaScript package's refusal tests instead (bindings/js/test). Nor one for
        // metadataAfterImageData, which only the range planner turns off.
        guard let directory, options.maxPixels == nil, options.metadataAfterImageData else { return }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let name = String(hash, radix: 16) + ".bin"
        let path = directory + "/" + name
        // An input that can't be written gets no line: the replay would find no file.
        if !FileManager.default.fileExists(atPath: path) && !FileManager.default.createFile(atPath: path, contents: Data(bytes)) {
            return
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

/// Random tails after a signature for `garbageAfter`: each length, `tries` times.
struct RandomTails {
    var lengths: [Int]
    var tries: Int

    /// QOI, PCX, SGI, Sun raster.
    static let raster = RandomTails(lengths: [0, 1, 6, 10, 14, 40], tries: 20)
    /// BLP, PVR, PKM, ASTC, VTF, whose headers run longer (up to 56 bytes).
    static let texture = RandomTails(lengths: [0, 1, 6, 14, 40, 70], tries: 10)
}

/// Signature followed by random bytes: never a crash, never a read past `limit`.
func garbageAfter(_ signature: [UInt8], seed: UInt64, limit: UInt64, tails: RandomTails) {
    var random = SeededRandom(seed: seed)
    for length in tails.lengths {
        for _ in 0..<tails.tries {
            for options in [ScanOptions(), dimensionsOnly] {
                #expect(verified(signature + random.bytes(length), options).bytesConsumed <= limit)
            }
        }
    }
}

/// Every prefix shorter than `answerEnd` in dimensions-only mode is truncated; with `format`,
/// the first `answerEnd` bytes answer that format.
func truncatedBefore(_ answerEnd: Int, _ bytes: [UInt8], _ format: ImageFormat? = nil) {
    for length in 0..<answerEnd {
        let outcome = ChunkingVerifier.scanWhole(Array(bytes[0..<length]), options: dimensionsOnly)
        #expect(failureCode(outcome) == .truncated, "\(length)")
    }
    if let format {
        #expect(info(ChunkingVerifier.scanWhole(Array(bytes[0..<answerEnd]), options: dimensionsOnly))?.format == format)
    }
}
