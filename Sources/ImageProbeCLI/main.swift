#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageProbe

/// Writes all of `text` to a file descriptor; a closed pipe ends the program quietly.
func emit(_ text: String, to descriptor: Int32 = 1) {
    var bytes = Array(text.utf8)
    bytes.append(0x0A)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            exit(errno == EPIPE ? 0 : 1)
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
var allRecognised = true

@MainActor
func report(_ result: ProbeResult) {
    if !result.recognised { allRecognised = false }
    if let ioError = result.ioError { emit("imageprobe: \(result.path): \(ioError)", to: 2) }
    emit(render(result, json: options.json))
}

for path in options.paths {
    if path == "-" {
        report(prober.probe(descriptor: 0, path: path))
        continue
    }
    var info = stat()
    if options.recursive && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
        let (files, errors) = filesUnder(path)
        errors.forEach(report)
        for file in files { report(prober.probe(path: file)) }
        continue
    }
    report(prober.probe(path: path))
}
exit(allRecognised ? 0 : 1)
