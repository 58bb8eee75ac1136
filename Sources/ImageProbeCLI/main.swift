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
    let errorLine = { "imageprobe: \(printable(result.path)): \(printable(result.failure?.message ?? ""))" }
    switch options.style {
    case .text:
        // Text mode: I/O and network errors on standard error only; scan answers on standard output.
        if result.isIOError {
            emit(errorLine(), to: 2)
        } else if shown {
            emit(humanLine(result))
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
        if let text = templateText(result, template) {
            emit(text, newline: false)
        } else if shown || result.isIOError {
            emit(errorLine(), to: 2)
        }
    }
}

if options.style == .csv { emit(csvColumns.joined(separator: ",")) }

let prober = DescriptorProber(options: options.scan, chunkSize: options.chunkSize, seek: options.seek)
var queue = OrderedResults(jobs: options.jobs) { report($0, options: options) }

// URLs start at once, beside the files: a URL after a slow pipe or a big tree isn't held up by it.
var urlSlots: [Int: ResultSlot] = [:]
let urls: [(index: Int, url: String)] = options.paths.enumerated().compactMap { index, path in
    isURL(path) ? (index, path) : nil
}
for (index, _) in urls { urlSlots[index] = ResultSlot() }
if !urls.isEmpty {
    let slots = urlSlots
    Task.detached { [urls, options] in
        await probeURLs(urls, options: options) { index, result in slots[index]?.fill(result) }
    }
}

for (index, path) in options.paths.enumerated() {
    if path == "-" {
        queue.submit { [prober] in prober.probe(descriptor: 0, path: "-") }
    } else if let slot = urlSlots[index] {
        queue.append(slot)
    } else {
        var info = stat()
        if options.recursive && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
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
