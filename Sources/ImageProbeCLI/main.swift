#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageProbe

/// Whether every input printed so far was recognised: the exit status, also when output ends early.
nonisolated(unsafe) var allRecognisedSoFar = true

/// Writes all of `text` to a file descriptor. A reader that has gone (a closed pipe) ends the
/// program with the status so far; a closed or failing standard error is ignored.
func emit(_ text: String, to descriptor: Int32 = 1) {
    var bytes = Array(text.utf8)
    bytes.append(0x0A)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            if descriptor == 2 { return }
            exit(errno == EPIPE && allRecognisedSoFar ? 0 : 1)
        }
        offset += written
    }
}

signal(SIGPIPE, SIG_IGN)

let parsed = CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
guard case .success(let options) = parsed else {
    if case .failure(let error) = parsed { emit("imageprobe: \(error.message)\n\n\(CommandLineOptions.usage)", to: 2) }
    exit(2)
}
if options.showHelp {
    emit(CommandLineOptions.usage)
    exit(0)
}
if options.showVersion {
    emit("imageprobe 0.1.0")
    exit(0)
}

let prober = DescriptorProber(options: options.scan, chunkSize: options.chunkSize, seek: options.seek)

/// Prints one result; inputs are printed in the order given, as each is known.
func report(_ result: InputResult) {
    if !result.recognised { allRecognisedSoFar = false }
    if let ioError = result.ioError { emit("imageprobe: \(printable(result.path)): \(ioError)", to: 2) }
    emit(render(result, json: options.json))
}

/// URL results as they arrive, each awaited in its turn by the printing loop.
actor URLResults {
    private var results: [Int: InputResult] = [:]
    private var waiting: [Int: CheckedContinuation<InputResult, Never>] = [:]

    func add(_ index: Int, _ result: InputResult) {
        if let waiter = waiting.removeValue(forKey: index) {
            waiter.resume(returning: result)
        } else {
            results[index] = result
        }
    }

    func result(_ index: Int) async -> InputResult {
        if let result = results.removeValue(forKey: index) { return result }
        return await withCheckedContinuation { waiting[index] = $0 }
    }
}

let urlResults = URLResults()
let urls: [(index: Int, url: String)] = options.paths.enumerated().compactMap { index, path in
    isURL(path) ? (index, path) : nil
}
// URLs start at once, beside the files: a URL after a slow pipe or a big tree isn't held up by it.
let fetching = Task {
    if !urls.isEmpty {
        await probeURLs(urls, options: options) { index, result in await urlResults.add(index, result) }
    }
}
for (index, path) in options.paths.enumerated() {
    if path == "-" {
        report(prober.probe(descriptor: 0, path: "-"))
    } else if isURL(path) {
        report(await urlResults.result(index))
    } else {
        var info = stat()
        if options.recursive && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            var walk = DirectoryWalk(path)
            while let entry = walk.next() {
                switch entry {
                case .success(let file): report(prober.probe(path: file))
                case .failure(let failure): report(.ioFailure(failure.path, failure.message))
                }
            }
        } else {
            report(prober.probe(path: path))
        }
    }
}
await fetching.value
exit(allRecognisedSoFar ? 0 : 1)
