// imageprobe-bench: probe cost from memory (whole and chunked), skip cost, heap allocations
// per scan, the scanner's memory, and bytes read over a corpus. Exits 1 if any scan allocates.
//
//   swift run -c release imageprobe-bench [--quick] [--json] [--filter FORMAT] [--corpus DIR]
import Foundation
import ImageProbe
import ImageProbeFixtures
import MallocCounter

struct Options {
    var quick = false
    var json = false
    var filter: String? = nil
    var corpus: String? = nil

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "--filter": options.filter = iterator.next()
            case "--corpus": options.corpus = iterator.next()
            case "-h", "--help":
                print("usage: imageprobe-bench [--quick] [--json] [--filter FORMAT] [--corpus DIR]")
                exit(0)
            default:
                FileHandle.standardError.write("imageprobe-bench: unknown argument \(argument)\n".data(using: .utf8)!)
                exit(2)
            }
        }
        return options
    }
}

/// A named input and its format name (as the scanner reports it).
struct Input {
    var name: String
    var format: String
    var bytes: [UInt8]
}

/// A value the optimizer cannot see through, so the measured work is not removed.
nonisolated(unsafe) var sink = 0

/// The loop callgrind measures: create a scanner, feed the whole buffer (or `chunk` bytes at
/// a time, when above 0), finish if needed.
@inline(never)
func repeatScans(_ buffers: [UnsafeRawBufferPointer], count: Int, options: ScanOptions, chunk: Int = 0) -> Int {
    var total = 0
    buffers.withUnsafeBufferPointer { list in
        for _ in 0..<count {
            for buffer in list {
                var scanner = HeaderScanner(options: options)
                var status: ScanStatus
                if chunk > 0 {
                    var offset = 0
                    repeat {
                        let end = min(buffer.count, offset + chunk)
                        status = scanner.feed(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                        offset = end
                    } while !status.isTerminal && offset < buffer.count
                } else {
                    status = scanner.feed(buffer)
                }
                if !status.isTerminal { status = scanner.finish() }
                if case .done(let info) = status { total &+= info.width }
            }
        }
    }
    return total
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "network" {
    networkSweep(Array(CommandLine.arguments.dropFirst()))
}

// The peer protocol of Benchmarks/compare.py, for ImageProbe itself (dimensions-only mode,
// like the peers): `time MS FILE...` prints "path<TAB>ns<TAB>width<TAB>height" from a loop of at
// least MS milliseconds; `minbytes FILE...` prints bytesRead (read straight through, no seeking:
// the prefix a streaming reader needs) in place of ns.
// `robustbytes` is the same number: a streaming scanner never answers from bytes it hasn't seen.
if CommandLine.arguments.count > 2 && ["time", "minbytes", "robustbytes"].contains(CommandLine.arguments[1]) {
    let timing = CommandLine.arguments[1] == "time"
    let paths = Array(CommandLine.arguments.dropFirst(timing ? 3 : 2))
    let budget = UInt64((Double(CommandLine.arguments[2]) ?? 10) * 1e6)  // nanoseconds
    let options = ScanOptions(mode: .dimensionsOnly)
    for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else { print("\(path)\t-1\t-1\t-1"); continue }
        let bytes = [UInt8](data)
        var scanner = HeaderScanner(options: options)
        var status = bytes.withUnsafeBytes { scanner.feed($0) }
        if !status.isTerminal { status = scanner.finish() }
        guard case .done(let info) = status else { print("\(path)\t-1\t-1\t-1"); continue }
        if timing {
            let start = DispatchTime.now().uptimeNanoseconds
            var iterations = 0
            while DispatchTime.now().uptimeNanoseconds - start < budget {
                iterations += 16
                bytes.withUnsafeBytes { buffer in
                    for _ in 0..<16 {
                        var scanner = HeaderScanner(options: options)
                        let status = scanner.feed(buffer)
                        if case .done(let info) = status { sink &+= info.width }
                    }
                }
            }
            let nanoseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
            print("\(path)\t\(nanoseconds)\t\(info.width)\t\(info.height)")
        } else {
            print("\(path)\t\(scanner.bytesRead)\t\(info.width)\t\(info.height)")
        }
    }
    exit(0)
}

// `imageprobe-bench repeat N [--dimensions-only] FILE...`: scans the files N times and
// nothing else, for instruction counts under callgrind (see Benchmarks/compare.sh).
// `repeat-dims` is the same in dimensions-only mode.
if CommandLine.arguments.count > 2 && (CommandLine.arguments[1] == "repeat" || CommandLine.arguments[1] == "repeat-dims") {
    let count = Int(CommandLine.arguments[2]) ?? 1
    var rest = Array(CommandLine.arguments.dropFirst(3))
    var mode: ScanOptions.Mode = CommandLine.arguments[1] == "repeat-dims" ? .dimensionsOnly : .full
    var chunk = 0
    while let flag = rest.first, flag.hasPrefix("--") {
        rest.removeFirst()
        if flag == "--dimensions-only" { mode = .dimensionsOnly }
        if flag == "--chunk" { chunk = Int(rest.isEmpty ? "0" : rest.removeFirst()) ?? 0 }
    }
    let files = rest.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
    // Raw buffers, so the loop below retains nothing: only the scans are measured.
    let buffers = files.map { bytes -> UnsafeRawBufferPointer in
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        copy.copyBytes(from: bytes)
        return UnsafeRawBufferPointer(copy)
    }
    let started = DispatchTime.now().uptimeNanoseconds
    let total = repeatScans(buffers, count: count, options: ScanOptions(mode: mode), chunk: chunk)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    print(total)
    // The rate on standard error, so callgrind comparisons of standard output are unchanged.
    FileHandle.standardError.write(Data(String(format: "swift: %d probes in %.3f s, %.0f probes/s\n",
                                                   count * buffers.count, seconds, Double(count * buffers.count) / seconds).utf8))
    exit(0)
}

// `imageprobe-bench check [--samples] FILE...` (directories are walked; `--samples` adds every
// sample of the fixtures' catalog): every answer, in the three modes, under
// six ways of delivering the input (whole, 1-, 7- and 1460-byte chunks, seeded random chunks,
// and a seeking reader that jumps every pending skip), one line each, with the byte counts and,
// in animation mode, the number of frame events and a hash of them.
// Two builds' outputs are diffed to show that a change altered no answer.
if CommandLine.arguments.count > 2 && CommandLine.arguments[1] == "pack" {
    differentialPack(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

if CommandLine.arguments.count > 2 && CommandLine.arguments[1] == "check" {
    var paths: [String] = []
    var named: [(String, [UInt8])] = []
    for argument in CommandLine.arguments.dropFirst(2) {
        if argument == "--samples" {
            named += SampleCatalog.all.map { ("sample:" + $0.name, $0.bytes) }
            continue
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { continue }
        if isDirectory.boolValue {
            let entries = (try? FileManager.default.subpathsOfDirectory(atPath: argument)) ?? []
            for entry in entries.sorted() {
                let path = argument + "/" + entry
                var entryIsDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue {
                    paths.append(path)
                }
            }
        } else {
            paths.append(argument)
        }
    }
    named += paths.compactMap { path in FileManager.default.contents(atPath: path).map { (path, [UInt8]($0)) } }
    for (path, bytes) in named {
        for mode in [ScanOptions.Mode.full, .dimensionsOnly, .animation] {
            var options = ScanOptions(mode: mode)
            options.inputLength = UInt64(bytes.count)
            let modeName = switch mode {
            case .full: "full"
            case .dimensionsOnly: "dims"
            case .animation: "anim"
            }
            for delivery in ["whole", "1", "7", "1460", "random", "seek"] {
                var scanner = HeaderScanner(options: options)
                var status = scanner.status
                var generator = SeededRandom(seed: UInt64(bytes.count))
                var offset = 0
                var events = 0
                var eventHash: UInt64 = 14_695_981_039_346_656_037
                func record(_ frame: FrameInfo) {
                    events += 1
                    for value in [UInt64(frame.index), UInt64(frame.delay * 1000), UInt64(frame.rectangle.x), UInt64(frame.rectangle.y),
                                  UInt64(frame.rectangle.width), UInt64(frame.rectangle.height)] {
                        eventHash = (eventHash ^ value) &* 1_099_511_628_211
                    }
                }
                bytes.withUnsafeBytes { buffer in
                    while !status.isTerminal && offset < buffer.count {
                        if delivery == "seek" && scanner.pendingSkip > 0 {
                            let jumped = Int(clamping: scanner.skip(scanner.pendingSkip))
                            offset = min(buffer.count, offset + jumped)
                            status = scanner.status
                            continue
                        }
                        let size: Int
                        switch delivery {
                        case "whole": size = buffer.count
                        case "random": size = 1 + Int(generator.next() % 4096)
                        case "seek": size = 1460
                        default: size = Int(delivery)!
                        }
                        let end = min(buffer.count, offset + size)
                        status = scanner.feed(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]), onFrame: record)
                        offset = end
                    }
                }
                if !status.isTerminal { status = scanner.finish() }
                let frames = mode == .animation ? "\tevents=\(events) hash=\(String(eventHash, radix: 16))" : ""
                print("\(path)\t\(modeName)\t\(delivery)\t\(checkDescription(status))\tconsumed=\(scanner.bytesConsumed) read=\(scanner.bytesRead) skipped=\(scanner.bytesSkipped)\(frames)")
            }
        }
    }
    exit(0)
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
var report: [String: Any] = [:]
var problems: [String] = []

// MARK: - Environment

func machineDescription() -> [String: String] {
    var name = utsname()
    uname(&name)
    func field<T>(_ value: T) -> String {
        withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) } ?? "unknown"
    #if DEBUG
    let configuration = "debug"
    #else
    let configuration = "release"
    #endif
    #if compiler(>=6.3)
    let compiler = "Swift 6.3 or later"
    #else
    let compiler = "Swift 6.0–6.2"
    #endif
    return [
        "system": "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))",
        "cpu": cpu, "cores": "\(ProcessInfo.processInfo.activeProcessorCount)",
        "compiler": compiler, "configuration": configuration,
    ]
}

// MARK: - Inputs

func inputs() -> [Input] {
    var all = SampleCatalog.all.map { Input(name: $0.name, format: $0.format.name.description, bytes: $0.bytes) }
    if let corpus = options.corpus {
        let directory = URL(fileURLWithPath: corpus)
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: corpus)) ?? []
        for path in files.sorted() {
            let url = directory.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: url), !data.isEmpty else { continue }
            let bytes = [UInt8](data)
            guard case .done(let info) = HeaderScanner.scan(bytes) else { continue }
            all.append(Input(name: path, format: info.format.name.description, bytes: bytes))
        }
    }
    if let filter = options.filter { all = all.filter { $0.format == filter } }
    return all
}

// MARK: - Timing


func consume(_ status: ScanStatus) {
    switch status {
    case .done(let info): sink &+= info.width
    case .unsupported(let failure): sink &+= Int(failure.message.utf8.count)
    case .refused(let info, _): sink &+= info.width
    case .needMore(let count): sink &+= count
    }
}

/// Nanoseconds per call of `body`: the best of several timed batches, each long enough to
/// swamp the clock's resolution. (DispatchTime: ContinuousClock needs macOS 13.)
func nanoseconds(per body: () -> Void) -> Double {
    func measure(_ iterations: Int) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start)
    }
    let target: Double = options.quick ? 2e6 : 2e7
    var iterations = 1
    while measure(iterations) < target / 4 { iterations *= 2 }
    var best = Double.infinity
    for _ in 0..<(options.quick ? 3 : 7) {
        best = min(best, measure(iterations) / Double(iterations))
    }
    return best
}

func scanWhole(_ bytes: [UInt8]) -> ScanStatus {
    bytes.withUnsafeBytes { buffer in
        var scanner = HeaderScanner()
        let status = scanner.feed(buffer)
        return status.isTerminal ? status : scanner.finish()
    }
}

func scanChunked(_ bytes: [UInt8], chunk: Int) -> ScanStatus {
    bytes.withUnsafeBytes { buffer in
        var scanner = HeaderScanner()
        var start = 0
        var status = scanner.status
        while start < buffer.count {
            let end = min(buffer.count, start + chunk)
            status = scanner.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
            if status.isTerminal { return status }
            start = end
        }
        return scanner.finish()
    }
}

// MARK: - Probe cost

let allInputs = inputs()
let byFormat = Dictionary(grouping: allInputs, by: \.format)
let chunkSizes = [1, 16, 1460, 65536]

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

var probeRows: [[String: Any]] = []
for format in byFormat.keys.sorted() {
    let group = byFormat[format]!
    var whole: [Double] = []
    var chunked: [Int: [Double]] = [:]
    var bytesScanned = 0
    for input in group {
        let time = nanoseconds { consume(scanWhole(input.bytes)) }
        whole.append(time)
        var probe = HeaderScanner()
        _ = input.bytes.withUnsafeBytes { probe.feed($0) }
        bytesScanned += Int(probe.bytesConsumed)
        for chunk in chunkSizes {
            chunked[chunk, default: []].append(nanoseconds { consume(scanChunked(input.bytes, chunk: chunk)) } / time)
        }
    }
    let totalNanoseconds = whole.reduce(0, +)
    var row: [String: Any] = [
        "format": format, "files": group.count, "nsPerProbe": median(whole),
        "headerBytesPerSecond": totalNanoseconds > 0 ? Double(bytesScanned) / totalNanoseconds * 1e9 : 0,
    ]
    for chunk in chunkSizes { row["ratio\(chunk)"] = median(chunked[chunk] ?? []) }
    probeRows.append(row)
}
report["probe"] = probeRows

// MARK: - Skip cost

/// A JPEG with `megabytes` MiB of APP2 segments before the frame header.
func jpegWithAppSegments(megabytes: Int) -> [UInt8] {
    let segment = JPEGBuilder.segment(0xE2, [UInt8](repeating: 0x20, count: 65_533))
    var before: [UInt8] = []
    for _ in 0..<(megabytes << 20) / segment.count { before += segment }
    return JPEGBuilder.image(before: before, width: 640, height: 480).bytes
}

let skipJPEG = jpegWithAppSegments(megabytes: 1)
let chunk64K = 65536
let skipChunks = (skipJPEG.count + chunk64K - 1) / chunk64K
let skipNanoseconds = nanoseconds { consume(scanChunked(skipJPEG, chunk: chunk64K)) }

/// A TIFF whose IFD0 sits `gap` bytes in: its 8-byte header and its directory (the gap is
/// never built). Built once, outside the timed loop.
func tiffAroundGap(_ gap: Int) -> (header: [UInt8], ifd: [UInt8]) {
    let built = TIFFBuilder(entries: [.width(3000), .height(2000), .orientation(6)], gapBeforeIFD: 0).build()
    var header = Array(built[0..<4])
    header.append32(8 + gap, .littleEndian)
    return (header, Array(built[8...]))
}

/// Scans `tiff` with the skip API: the header, a jump over the gap, the directory.
func scanWithSkip(_ tiff: (header: [UInt8], ifd: [UInt8])) -> ScanStatus {
    var scanner = HeaderScanner()
    _ = tiff.header.withUnsafeBytes { scanner.feed($0) }
    scanner.skip(scanner.pendingSkip)
    return tiff.ifd.withUnsafeBytes { scanner.feed($0) }
}
let farTIFF = tiffAroundGap(100_000_000)
let nearTIFF = tiffAroundGap(1_000)
let tiffFar = nanoseconds { consume(scanWithSkip(farTIFF)) }
let tiffNear = nanoseconds { consume(scanWithSkip(nearTIFF)) }
report["skip"] = [
    "jpeg1MiBAppSegments": ["chunks": skipChunks, "nsTotal": skipNanoseconds, "nsPerChunk": skipNanoseconds / Double(skipChunks)],
    "tiffIFD0At100MB": ["ns": tiffFar], "tiffIFD0At1KB": ["ns": tiffNear],
]

// MARK: - Allocations

var allocationRows: [[String: Any]] = []
let countingAvailable = malloc_counter_available() != 0
for format in byFormat.keys.sorted() {
    var worst: UInt64 = 0
    for input in byFormat[format]! {
        for chunk in [0] + chunkSizes {
            // Warm up first: the runtime may allocate metadata on a type's first use.
            consume(chunk == 0 ? scanWhole(input.bytes) : scanChunked(input.bytes, chunk: chunk))
            malloc_counter_start()
            consume(chunk == 0 ? scanWhole(input.bytes) : scanChunked(input.bytes, chunk: chunk))
            let count = malloc_counter_stop()
            worst = max(worst, count)
            if count > 0 { problems.append("\(input.name) (chunk \(chunk)): \(count) allocations in one scan") }
        }
    }
    allocationRows.append(["format": format, "maxAllocationsPerScan": Int(worst)])
}
report["allocations"] = ["counted": countingAvailable, "perFormat": allocationRows]

// MARK: - Memory

report["memory"] = [
    "scannerBytes": MemoryLayout<HeaderScanner>.size, "carryBytes": HeaderScanner.carryCapacity,
    "imageInfoBytes": MemoryLayout<ImageInfo>.size, "scanStatusBytes": MemoryLayout<ScanStatus>.size,
]

// MARK: - Bytes read over the corpus

var bytesRows: [[String: Any]] = []
if options.corpus != nil {
    for format in byFormat.keys.sorted() {
        var dimensions: [Double] = []
        var full: [Double] = []
        for input in byFormat[format]! where !SampleCatalog.all.contains(where: { $0.name == input.name }) {
            for (mode, list) in [(ScanOptions.Mode.dimensionsOnly, 0), (.full, 1)] {
                var scanner = HeaderScanner(options: ScanOptions(mode: mode))
                let status = input.bytes.withUnsafeBytes { scanner.feed($0) }
                if !status.isTerminal { _ = scanner.finish() }
                if list == 0 { dimensions.append(Double(scanner.bytesRead)) } else { full.append(Double(scanner.bytesRead)) }
            }
        }
        guard !dimensions.isEmpty else { continue }
        bytesRows.append([
            "format": format, "files": dimensions.count,
            "dimensionsMedian": median(dimensions), "dimensionsMax": dimensions.max() ?? 0,
            "fullMedian": median(full), "fullMax": full.max() ?? 0,
        ])
    }
}
report["bytesRead"] = bytesRows
report["machine"] = machineDescription()
report["problems"] = problems

// MARK: - Output

if options.json {
    let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    let machine = machineDescription()
    print("imageprobe-bench  \(machine["system"]!), \(machine["cpu"]!) (\(machine["cores"]!) cores), \(machine["compiler"]!), \(machine["configuration"]!) build\(options.quick ? ", quick" : "")")
    print("\nProbe cost from memory (median per file) and chunked cost as a ratio to whole-buffer cost")
    print("format    files   ns/probe   header MB/s   ×1 byte   ×16    ×1460   ×65536")
    for row in probeRows {
        func ratio(_ chunk: Int) -> String { String(format: "%.2f", row["ratio\(chunk)"] as! Double) }
        print(String(format: "%-8@ %6d %10.0f %13.1f", row["format"] as! String, row["files"] as! Int, row["nsPerProbe"] as! Double,
                     (row["headerBytesPerSecond"] as! Double) / 1e6)
              + "   \(ratio(1))     \(ratio(16))   \(ratio(1460))   \(ratio(65536))")
    }
    print("\nSkip cost")
    print(String(format: "  JPEG, 1 MiB of APP segments in 64 KiB chunks: %.0f ns per chunk (%d chunks)", skipNanoseconds / Double(skipChunks), skipChunks))
    print(String(format: "  TIFF, IFD0 100 MB in (skip API): %.0f ns; IFD0 1 KB in: %.0f ns", tiffFar, tiffNear))
    print("\nHeap allocations per scan: " + (countingAvailable
        ? (problems.isEmpty ? "0 for every input, chunk size and format" : "\(problems.count) scans allocated")
        : "not counted on this platform (needs glibc)"))
    print("Memory: HeaderScanner \(MemoryLayout<HeaderScanner>.size) bytes, carry \(HeaderScanner.carryCapacity) bytes, ImageInfo \(MemoryLayout<ImageInfo>.size) bytes")
    if !bytesRows.isEmpty {
        print("\nBytes read per corpus file (bytesRead: bytes a non-seeking reader needs)")
        print("format    files   dims median   dims max   full median   full max")
        for row in bytesRows {
            print(String(format: "%-8@ %6d %13.0f %10.0f %13.0f %10.0f", row["format"] as! String, row["files"] as! Int,
                         row["dimensionsMedian"] as! Double, row["dimensionsMax"] as! Double, row["fullMedian"] as! Double, row["fullMax"] as! Double))
        }
    }
    for problem in problems { print("ALLOCATION: \(problem)") }
    print("(sink \(sink & 1))")
}
exit(problems.isEmpty ? 0 : 1)

/// Every field of a status, in a fixed order, for `check`.
func checkDescription(_ status: ScanStatus) -> String {
    func failure(_ failure: ScanFailure) -> String {
        "\(failure.code.name) \(failure.format.map { "\($0.name)" } ?? "-") \"\(failure.message)\""
    }
    switch status {
    case .needMore(let count):
        return "needMore \(count)"
    case .unsupported(let reason):
        return "unsupported " + failure(reason)
    case .refused(let info, let reason):
        return "refused \(info.format.name) \(info.width)x\(info.height) " + failure(reason)
    case .done(let info):
        var text = "done \(info.format.name) \(info.width)x\(info.height) display \(info.displayWidth)x\(info.displayHeight)"
        text += " orientation \(info.orientation.map { "\($0.rawValue)" } ?? "-")"
        text += " depth \(info.bitDepth.map { "\($0)" } ?? "-") alpha \(info.hasAlpha.map { "\($0)" } ?? "-")"
        text += " progressive \(info.isProgressive.map { "\($0)" } ?? "-") animated \(info.isAnimated.map { "\($0)" } ?? "-")"
        text += " frames \(info.frameCount.map { "\($0)" } ?? "-")"
        if let loop = info.loopCount { text += " loop \(loop)" }
        if let duration = info.duration, let played = info.playbackDuration, let largest = info.largestFrame {
            text += " duration \(duration) played \(played) largest \(largest.x),\(largest.y),\(largest.width),\(largest.height)"
        }
        if let aperture = info.cleanAperture {
            text += " clap \(aperture.widthN)/\(aperture.widthD) \(aperture.heightN)/\(aperture.heightD)"
            text += " \(aperture.horizontalOffsetN)/\(aperture.horizontalOffsetD) \(aperture.verticalOffsetN)/\(aperture.verticalOffsetD)"
            text += " rect \(aperture.rectangle.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "-")"
        }
        if let svg = info.svg {
            text += " svg \(String(describing: svg.width)) \(String(describing: svg.height)) \(String(describing: svg.viewBox))"
        }
        if let preview = info.epsPreview { text += " preview \(preview.name)" }
        // Full mode's extra facts, only where known, so that older lines read the same.
        if let dpi = info.dpi { text += " dpi \(dpi.x)x\(dpi.y)" }
        if let cicp = info.cicp {
            text += " cicp \(cicp.colourPrimaries)/\(cicp.transferCharacteristics)/\(cicp.matrixCoefficients)/\(cicp.isFullRange)"
        }
        if let icc = info.hasICCProfile { text += " icc \(icc)" }
        if let gainMap = info.hasGainMap { text += " gainmap \(gainMap)" }
        if let interlaced = info.isInterlaced { text += " interlaced \(interlaced)" }
        if let motion = info.isMotionPhoto { text += " motion \(motion)" }
        if let reason = info.partialReason { text += " partial " + failure(reason) }
        return text
    }
}

