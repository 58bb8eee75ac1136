// The libFuzzer target. Built with `swift build -Xswiftc -sanitize=fuzzer` (the runtime then
// linked), it runs libFuzzer's driver: its flags and corpus directories are the arguments, and
// each input runs every check of the streaming contract, trapping on a breach. Built without,
// it is a small tool: `write-seeds DIR` writes the seed corpus from the byte builders,
// `check FILE...` runs the same checks on saved inputs, and `write-samples` and `describe`
// serve the 32-bit replay (Scripts/check-32bit.sh).
import FuzzerHooks
@_spi(Fuzzing) import ImageProbe
import ImageProbeFetch
import ImageProbeFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One fuzz input: every check, and a trap on any failure, for libFuzzer to report.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = count == 0 ? [] : Array(UnsafeBufferPointer(start: start, count: count))
    let failures = FuzzInput(data).check() + headFailures(data) + plannerFailures(data) + xmpFailures(data)
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

@main
struct FuzzEntry {
    static let commands: Set<String> = ["write-seeds", "check", "write-samples", "describe"]

    static func main() {
        // libFuzzer's arguments are flags and corpus directories: a command name isn't one.
        if imageprobe_fuzzer_linked() != 0 && !commands.contains(CommandLine.arguments.dropFirst().first ?? "") {
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(imageprobe_fuzzer_run(&argc, &argv) { data, size in fuzzOne(data, size) })
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "write-seeds" where arguments.count == 2:
            writeSeeds(to: arguments[1])
        case "check" where arguments.count >= 2:
            exit(check(Array(arguments.dropFirst())) ? 0 : 1)
        case "write-samples" where arguments.count == 2:
            writeSamples(to: arguments[1])
        case "describe" where arguments.count == 3 && arguments[1] == "--cases":
            describeCases(arguments[2])
        case "describe" where arguments.count >= 2:
            describe(Array(arguments.dropFirst()))
        default:
            print("""
                usage: ImageProbeFuzz write-seeds DIR | check FILE... | write-samples DIR | describe FILE...
                (built with `swift build -Xswiftc -sanitize=fuzzer`, or by Fuzz/fuzz.sh, it fuzzes)
                """)
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

    /// The sample catalog's images as plain files, for comparing builds of the scanner.
    static func writeSamples(to directory: String) {
        for sample in SampleCatalog.all where !write(sample.bytes, to: "\(directory)/\(sample.name)") {
            print("cannot write \(directory)/\(sample.name)")
            exit(1)
        }
        print("wrote \(SampleCatalog.all.count) samples to \(directory)")
    }

    /// For each fuzz input, the replay manifest's line (Tests/wasm32/replay.mjs): the path, the
    /// offset of the image (after the two parameter bytes), the options, and the whole-input
    /// outcome on this build.
    static func describe(_ paths: [String]) {
        for path in paths {
            guard let data = readFile(path) else {
                print("\(path): cannot read")
                exit(1)
            }
            let input = FuzzInput(data)
            let outcome = ChunkingVerifier.scanWhole(input.image, options: input.options)
            print("\(path)\t\(data.count - input.image.count)\t\(input.options.columns)\t\(outcome.line)")
        }
    }

    /// The same for a replay manifest's inputs (paths relative to it), with this build's
    /// outcome in place of the last column.
    static func describeCases(_ manifest: String) {
        guard let text = readFile(manifest) else {
            print("\(manifest): cannot read")
            exit(1)
        }
        let folder = manifest.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 9, let offset = Int(columns[1]), let data = readFile(columns[0].hasPrefix("/") ? columns[0] : "\(folder)/\(columns[0])"),
                  offset <= data.count, let options = ScanOptions(columns: columns[2...8])
            else {
                print("\(manifest): bad line \(line)")
                exit(1)
            }
            let outcome = ChunkingVerifier.scanWhole(Array(data[offset...]), options: options)
            print("\(columns[0])\t\(offset)\t\(options.columns)\t\(outcome.line)")
        }
    }

    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
    }

    static func check(_ paths: [String]) -> Bool {
        var allPassed = true
        for path in paths {
            guard let data = readFile(path) else {
                print("\(path): cannot read")
                allPassed = false
                continue
            }
            let failures = FuzzInput(data).check() + headFailures(data) + plannerFailures(data) + xmpFailures(data)
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

/// The same bytes as a hostile server's answers to the range planner (the core's URL
/// strategy, SPEC.md §6.1): the input's image is the resource, its bytes read backwards choose
/// each response.
func plannerFailures(_ data: [UInt8]) -> [String] {
    let image = data.count > 2 ? Array(data[2...]) : []
    return PlannerScript.failures(Array(data.reversed()), image: image)
}

/// The same bytes as raw HTTP responses off a socket, through the core's own HTTP/1.1 reading
/// (the planner's `wire`, which Python, JavaScript in Node and the C driver use, and whose
/// head checks libcurl's lines go through): it must not trap, must count every byte, and must
/// settle within its limits.
func headFailures(_ data: [UInt8]) -> [String] {
    PlannerScript.wireFailures(data)
}

/// The same bytes as an XMP packet through the core's XMP matcher: fed whole, in two pieces
/// split where the bytes say, in pieces of the sizes they say (1 to 97 bytes, across the
/// matcher's 64-byte fields) and a byte at a time, it must find the same facts, and never trap.
func xmpFailures(_ data: [UInt8]) -> [String] {
    func facts(_ pieces: [Int]) -> UInt8 {
        var matcher = XMPMatcherProbe()
        data.withUnsafeBytes { buffer in
            var start = 0
            for piece in pieces {
                matcher.consume(UnsafeRawBufferPointer(rebasing: buffer[start..<start + piece]))
                start += piece
            }
        }
        return matcher.facts
    }
    let whole = facts([data.count])
    let split = data.isEmpty ? 0 : (Int(data[0]) << 8 | Int(data[data.count - 1])) % (data.count + 1)
    var pieces: [Int] = []
    var left = data.count
    while left > 0 {
        let piece = min(left, Int(data[pieces.count % data.count]) % 97 + 1)
        pieces.append(piece)
        left -= piece
    }
    let ways = [("split at \(split)", [split, data.count - split]), ("in pieces the bytes size", pieces),
                ("a byte at a time", [Int](repeating: 1, count: data.count))]
    return ways.compactMap { name, pieces in
        let found = facts(pieces)
        return found == whole ? nil : "XMP matcher, \(name): found \(found), whole \(whole)"
    }
}
