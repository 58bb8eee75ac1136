#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageProbe

/// Whether every input so far was recognised: the exit status if output ends early.
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

/// One input, in the order given: a path, standard input, or a URL.
enum Input {
    case path(String)
    case standardInput
    case url(String)
    case failed(InputResult)
}

var inputs: [Input] = []
for path in options.paths {
    if path == "-" {
        inputs.append(.standardInput)
    } else if isURL(path) {
        inputs.append(.url(path))
    } else {
        var info = stat()
        if options.recursive && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            for entry in filesUnder(path) {
                switch entry {
                case .success(let file): inputs.append(.path(file))
                case .failure(let failure): inputs.append(.failed(.ioFailure(failure.path, failure.message)))
                }
            }
        } else {
            inputs.append(.path(path))
        }
    }
}

/// Prints results in input order as they come in; remembers whether all were recognised.
actor OrderedPrinter {
    private var waiting: [Int: InputResult] = [:]
    private var next = 0
    private(set) var allRecognised = true
    let json: Bool

    init(json: Bool) { self.json = json }

    func add(_ index: Int, _ result: InputResult) {
        waiting[index] = result
        while let ready = waiting.removeValue(forKey: next) {
            if !ready.recognised {
                allRecognised = false
                allRecognisedSoFar = false
            }
            if let ioError = ready.ioError { emit("imageprobe: \(printable(ready.path)): \(ioError)", to: 2) }
            emit(render(ready, json: json))
            next += 1
        }
    }
}

let printer = OrderedPrinter(json: options.json)
let urls: [(index: Int, url: String)] = inputs.enumerated().compactMap { index, input in
    if case .url(let url) = input { return (index, url) }
    return nil
}
// URLs start at once, beside the files: a URL before a slow pipe isn't held up by it.
let fetching = Task {
    if !urls.isEmpty {
        await probeURLs(urls, options: options) { index, result in await printer.add(index, result) }
    }
}
for (index, input) in inputs.enumerated() {
    switch input {
    case .path(let path): await printer.add(index, prober.probe(path: path))
    case .standardInput: await printer.add(index, prober.probe(descriptor: 0, path: "-"))
    case .failed(let result): await printer.add(index, result)
    case .url: break
    }
}
await fetching.value
exit(await printer.allRecognised ? 0 : 1)
