#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageProbe

/// The answer for one input, with the byte counts the output reports.
struct InputResult {
    var path: String
    var status: ScanStatus
    var bytesRead: UInt64
    var bytesSkipped: UInt64
    /// An I/O failure (unreadable path), instead of a scan status.
    var ioError: String? = nil
    /// For a URL: bytes received and requests sent.
    var network: (bytesTransferred: Int, requests: Int)? = nil
    /// For a URL that failed before scanning: the fetch error's kind, message and HTTP status.
    var fetchError: (kind: String, message: String, status: Int?)? = nil
}

/// Reads a file descriptor just far enough to answer.
///
/// It feeds the scanner no more than `needMore` asks for, so it looks at the scanner's pending
/// skip at every step boundary; on a seekable file a skip of `seekThreshold` bytes or more is
/// jumped with `lseek` and reported as skipped. The decision doesn't depend on the chunk size,
/// so `--chunk-size` changes no answer and no byte count.
struct DescriptorProber {
    /// Below this, reading through a skip costs less than a seek and a new read.
    static let seekThreshold: UInt64 = 64 << 10
    static let bufferSize = 64 << 10

    var options: ScanOptions
    var chunkSize: Int?
    var seek: Bool

    func probe(descriptor: Int32, path: String) -> InputResult {
        var info = stat()
        let regular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        let seekable = seek && regular
        var options = self.options
        // A regular file's size lets formats with information at the end use it (SPEC.md §1.5).
        // Standard input redirected from a file may start part way in.
        let offset = regular ? lseek(descriptor, 0, SEEK_CUR) : -1
        if regular && offset >= 0 && offset <= info.st_size && options.inputLength == nil {
            options.inputLength = UInt64(info.st_size - offset)
        }
        var scanner = HeaderScanner(options: options)
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        var start = 0
        var end = 0
        var status = scanner.status
        while case .needMore(let needed) = status {
            if seekable && scanner.pendingSkip >= Self.seekThreshold {
                let skip = scanner.pendingSkip
                let buffered = UInt64(end - start)
                if skip <= buffered {
                    start += Int(skip)
                } else {
                    let beyond = skip - buffered
                    guard beyond <= UInt64(Int64.max), lseek(descriptor, off_t(beyond), SEEK_CUR) >= 0 else {
                        return InputResult(path: path, status: status, bytesRead: scanner.bytesRead,
                                           bytesSkipped: scanner.bytesSkipped, ioError: "cannot seek: \(errorText())")
                    }
                    start = end
                }
                scanner.skip(skip)
                continue
            }
            if start == end {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return InputResult(path: path, status: status, bytesRead: scanner.bytesRead,
                                       bytesSkipped: scanner.bytesSkipped, ioError: "cannot read: \(errorText())")
                }
                if count == 0 {
                    status = scanner.finish()
                    break
                }
                start = 0
                end = count
            }
            let take = min(end - start, needed, chunkSize ?? Int.max)
            status = buffer.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[start..<(start + take)])) }
            start += take
        }
        return InputResult(path: path, status: status, bytesRead: scanner.bytesRead, bytesSkipped: scanner.bytesSkipped)
    }

    /// Opens and probes a regular file; directories and unreadable paths become I/O errors.
    func probe(path: String) -> InputResult {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .ioFailure(path, "cannot open: \(errorText())") }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            return .ioFailure(path, "is a directory (use -r to probe the files in it)")
        }
        return probe(descriptor: descriptor, path: path)
    }
}

extension InputResult {
    static func ioFailure(_ path: String, _ message: String) -> InputResult {
        InputResult(path: path, status: .needMore(1), bytesRead: 0, bytesSkipped: 0, ioError: message)
    }

    var recognised: Bool {
        guard ioError == nil, fetchError == nil, case .done = status else { return false }
        return true
    }
}

func errorText() -> String { String(cString: strerror(errno)) }

/// Every regular file under `directory`, depth first, in byte order of names, without
/// following symbolic links to directories (no cycles).
func filesUnder(_ directory: String) -> (files: [String], errors: [InputResult]) {
    var files: [String] = []
    var errors: [InputResult] = []
    var pending = [directory]
    while let current = pending.popLast() {
        guard let handle = opendir(current) else {
            errors.append(.ioFailure(current, "cannot open directory: \(errorText())"))
            continue
        }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(handle)
        var subdirectories: [String] = []
        for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            let path = current.hasSuffix("/") ? current + name : current + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: subdirectories.append(path)
            case S_IFREG: files.append(path)
            case S_IFLNK:
                var target = stat()
                if stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFREG { files.append(path) }
            default: break
            }
        }
        // Depth first, in order: push subdirectories reversed so the first pops first.
        pending.append(contentsOf: subdirectories.reversed())
    }
    return (files, errors)
}
