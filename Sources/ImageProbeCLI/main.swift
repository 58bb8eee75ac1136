#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ImageProbe

/// The exit status so far: 0 every input an image, 1 some not an image, 3 some not readable.
/// Touched from the main thread only.
nonisolated(unsafe) var exitStatusSoFar: Int32 = 0

/// Writes all of `text` to a file descriptor. A reader that has gone (a closed pipe) ends the
/// program with the status so far; a closed or failing standard error is ignored.
func emit(_ text: String, to descriptor: Int32 = 1, newline: Bool = true) {
    var bytes = Array(text.utf8)
    if newline { bytes.append(0x0A) }
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            if descriptor == 2 { return }
            exit(errno == EPIPE ? exitStatusSoFar : 3)
        }
        offset += written
    }
}

signal(SIGPIPE, SIG_IGN)

// The arguments as `argv` holds them: a path that isn't UTF-8 must open itself (SPEC.md §4).
let arguments = (1..<Int(CommandLine.argc)).map { index in
    InputName(CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? [])
}
let parsed = CommandLineOptions.parse(bytes: arguments)
guard case .success(let options) = parsed else {
    if case .failure(let error) = parsed {
        emit("imageprobe: \(error.message)" + (error.showsUsage ? "\n\n\(CommandLineOptions.usage)" : ""), to: 2)
    }
    exit(2)
}
if options.showHelp {
    emit(CommandLineOptions.usage)
    exit(0)
}
if options.showVersion {
    emit("imageprobe \(CommandLineOptions.version)")
    exit(0)
}
if let shell = options.completionShell {
    emit(Completion.script(for: shell))
    exit(0)
}

/// Prints one result where its kind and the output style send it, and updates the exit status.
func report(_ result: InputResult, options: CommandLineOptions) {
    if result.isIOError {
        exitStatusSoFar = 3
    } else if !result.recognised && exitStatusSoFar == 0 {
        exitStatusSoFar = 1
    }
    let shown = result.recognised || !options.imagesOnly
    let name = options.rawNames ? result.path.text : result.path.escaped
    // A status the server answered with is part of the message: "... error status (HTTP 404)".
    let status = result.fetchError?.status.map { " (HTTP \($0))" } ?? ""
    let errorLine = { "imageprobe: \(name): \(printable(result.failure?.message ?? ""))\(status)" }
    switch options.style {
    case .text:
        // Text mode: I/O and network errors on standard error only; scan answers on standard output.
        if result.isIOError {
            emit(errorLine(), to: 2)
        } else if shown {
            emit(humanLine(result, rawNames: options.rawNames))
        }
    case .json, .csv:
        // Machine-readable: every input is a record, unless only images are asked for; then
        // I/O errors still go to standard error.
        if shown {
            emit(options.style == .json ? jsonLine(result) : csvLine(result))
        } else if result.isIOError {
            emit(errorLine(), to: 2)
        }
    case .template(let template):
        if let text = templateText(result, template, rawNames: options.rawNames) {
            emit(text, newline: false)
        } else if shown || result.isIOError {
            emit(errorLine(), to: 2)
        }
    }
}

if options.style == .csv { emit(csvColumns.joined(separator: ",")) }

let prober = DescriptorProber(options: options.scan, chunkSize: options.chunkSize, seek: options.seek)
var queue = OrderedResults(jobs: options.fileJobs, waiting: max(options.fileJobs, options.urlJobs)) { report($0, options: options) }

// URLs are probed in input order, each started when the output reaches it: at most the
// printing window's worth are in flight or waiting to print, so memory doesn't grow with the
// number of URLs (SPEC.md §4). The fetcher's own admission runs `-j` at once.
let urlProber: URLProber? = options.paths.contains(where: isURL) ? URLProber(options: options) : nil
if let error = urlProber?.fetcher.configurationError {
    emit("imageprobe: \(printable(error.message))", to: 2)
    exit(2)
}

for path in options.paths {
    if path.bytes == [0x2D] {
        queue.submit { [prober] in prober.probe(descriptor: 0, path: path) }
    } else if let urlProber, isURL(path) {
        queue.append(urlProber.start(path))
    } else {
        var info = stat()
        if options.recursive && path.withCString({ stat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            var walk = DirectoryWalk(path, crossFilesystems: options.crossFilesystems)
            while let entry = walk.next() {
                switch entry {
                case .success(let file): queue.submit { [prober] in prober.probe(path: file) }
                case .failure(let failure):
                    let result = InputResult.ioFailure(failure.path, failure.message)
                    queue.submit { result }
                }
            }
        } else {
            queue.submit { [prober] in prober.probe(path: path) }
        }
    }
}
queue.finish()
exit(exitStatusSoFar)
