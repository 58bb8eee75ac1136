// The libFuzzer target. Built with -DFUZZING (see Fuzz/fuzz.sh) it exports
// LLVMFuzzerTestOneInput and traps on any breach of the streaming contract. Built without it,
// it is a small tool: `write-seeds DIR` writes the seed corpus from the byte builders, and
// `check FILE...` runs the same checks on saved inputs.
import ImageProbe
import ImageProbeFetch
import ImageProbeFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = count == 0 ? [] : Array(UnsafeRawBufferPointer(start: start, count: count))
    let failures = FuzzInput(data).check() + headFailures(data)
    if !failures.isEmpty {
        // To standard error, unbuffered: the trap that follows ends the process at once.
        for failure in failures {
            let line = Array("contract violation: \(failure)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
        fatalError("streaming contract violated")
    }
    return 0
}
#else
@main
struct FuzzEntry {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "write-seeds" where arguments.count == 2:
            writeSeeds(to: arguments[1])
        case "check" where arguments.count >= 2:
            exit(check(Array(arguments.dropFirst())) ? 0 : 1)
        default:
            print("usage: ImageProbeFuzz write-seeds DIR | check FILE...\n(build with Fuzz/fuzz.sh to fuzz)")
            exit(2)
        }
    }

    /// Each sample twice, in full mode and dimensions-only mode, and animations a third time
    /// in animation mode; default limits.
    static func writeSeeds(to directory: String) {
        var written = 0
        for sample in SampleCatalog.all {
            let modes: [(ScanOptions.Mode, String)] = [(.full, ""), (.dimensionsOnly, "-dims")] + (sample.frameCount != nil ? [(.animation, "-anim")] : [])
            for (mode, suffix) in modes {
                let data = FuzzInput.header(mode: mode, seed: FuzzInput.seed(for: sample.name)) + sample.bytes
                let path = "\(directory)/\(sample.name)\(suffix)"
                guard let file = fopen(path, "wb") else {
                    print("cannot write \(path)")
                    exit(1)
                }
                _ = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                fclose(file)
                written += 1
            }
        }
        print("wrote \(written) seeds to \(directory)")
    }

    static func check(_ paths: [String]) -> Bool {
        var allPassed = true
        for path in paths {
            guard let data = readFile(path) else {
                print("\(path): cannot read")
                allPassed = false
                continue
            }
            let failures = FuzzInput(data).check() + headFailures(data)
            print("\(path): \(failures.isEmpty ? "ok" : failures.joined(separator: "\n  "))")
            allPassed = allPassed && failures.isEmpty
        }
        return allPassed
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { return data }
            data += buffer[0..<count]
        }
    }
}
#endif

/// The same bytes as an HTTP response head, line by line, through ImageProbeFetch's check (the
/// lines libcurl's header callback would hand over): it must not trap, and whatever head it
/// accepts must keep the invariants the probe relies on.
func headFailures(_ data: [UInt8]) -> [String] {
    var parser = ResponseHeadParser()
    var failures: [String] = []
    var start = 0
    while start < data.count {
        var end = start
        while end < data.count && data[end] != 10 { end += 1 }
        let line = Array(data[start..<min(end + 1, data.count)])
        start = end + 1
        let taken: Result<HTTPResponseHead?, FetchError> = line.withUnsafeBytes { raw in
            Result { () throws(FetchError) in try parser.take(raw) }
        }
        guard case .success(let parsed) = taken else { return failures }
        guard let head = parsed else { continue }
        if !(200...999).contains(head.status) { failures.append("head accepted with status \(head.status)") }
        if let length = head.header("content-length"),
           head.contentLength == nil || !length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            failures.append("Content-Length \(length) accepted")
        }
        if let range = head.contentRange, range.first > range.last || (range.total.map { $0 <= range.last } ?? false) {
            failures.append("Content-Range \(range) accepted")
        }
        return failures
    }
    return failures
}
