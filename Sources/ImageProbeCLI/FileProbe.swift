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
    /// Animation mode: the delays of the first frames, in milliseconds.
    var firstDelays: [Double] = []
    /// The mode the input was scanned in.
    var mode: ScanOptions.Mode = .full

    /// How many frame delays the output lists.
    static let delaysShown = 8
}

/// Reads a file descriptor just far enough to answer.
///
/// It feeds the scanner no more than `needMore` asks for, so it looks at the scanner's pending
/// skip at every step boundary; on a seekable file a skip of `seekThreshold` bytes or more is
/// jumped with `lseek` and reported as skipped; shorter ones are read, and passed with `skip`
/// (SPEC.md §4). The decision doesn't depend on the chunk size, so `--chunk-size` changes no
/// answer and no byte count.
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
        // Standard input redirected from a file may start part way in. Pseudo-files (procfs)
        // report a size of 0 whatever they hold: no length then.
        let offset = regular ? lseek(descriptor, 0, SEEK_CUR) : -1
        if regular && info.st_size > 0 && offset >= 0 && offset <= info.st_size && options.inputLength == nil {
            options.inputLength = UInt64(info.st_size - offset)
        }
        var scanner = HeaderScanner(options: options)
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        var start = 0
        var end = 0
        var status = scanner.status
        // Skip bytes read anyway (buffered, or a short skip read through) on a seekable input:
        // passed with `skip`, so they don't count against `maxBytes`, which guards readers that
        // cannot seek (the file's size bounds them here); reported as read, since they were.
        var skippedAfterReading: UInt64 = 0
        var delays: [Double] = []
        func result(_ status: ScanStatus, ioError: String? = nil) -> InputResult {
            InputResult(path: path, status: status, bytesRead: scanner.bytesRead + skippedAfterReading,
                        bytesSkipped: scanner.bytesSkipped - skippedAfterReading, ioError: ioError,
                        firstDelays: delays, mode: options.mode)
        }
        while case .needMore(let needed) = status {
            if seekable && scanner.pendingSkip > 0 && start < end {
                let passed = scanner.skip(min(scanner.pendingSkip, UInt64(end - start)))
                skippedAfterReading += passed
                start += Int(passed)
                status = scanner.status
                continue
            }
            if seekable && scanner.pendingSkip >= Self.seekThreshold && start == end {
                // Nothing buffered: jump the rest.
                let skip = scanner.pendingSkip
                guard skip <= UInt64(Int64.max), lseek(descriptor, off_t(skip), SEEK_CUR) >= 0 else {
                    if errno == EINVAL || errno == EOVERFLOW || skip > UInt64(Int64.max) {
                        // Past any offset a file can have: the input ends before the header does.
                        scanner.skip(skip)
                        status = scanner.finish()
                        break
                    }
                    return result(status, ioError: "cannot seek: \(errorText())")
                }
                scanner.skip(skip)
                status = scanner.status
                continue
            }
            if start == end {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return result(status, ioError: "cannot read: \(errorText())")
                }
                if count == 0 {
                    status = scanner.finish()
                    break
                }
                start = 0
                end = count
            }
            let take = min(end - start, needed, chunkSize ?? Int.max)
            status = buffer.withUnsafeBytes { bytes in
                scanner.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + take)])) { frame in
                    if delays.count < InputResult.delaysShown { delays.append(frame.delay) }
                }
            }
            start += take
        }
        return result(status)
    }

    /// Opens and probes a regular file; directories and unreadable paths become I/O errors.
    func probe(path: String) -> InputResult {
        // Non-blocking open: a FIFO without a writer would otherwise block here forever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .ioFailure(path, "cannot open: \(errorText())") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .ioFailure(path, "cannot stat: \(errorText())") }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .ioFailure(path, "is a directory (use -r to probe the files in it)")
        case S_IFREG, S_IFBLK: break
        default: return .ioFailure(path, "not a regular file (use - to read a pipe or device from standard input)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
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

/// Every regular file under a directory, depth first, in byte order of names, without
/// following symbolic links to directories; entries that can't be read come in their place.
/// A directory met twice (a bind mount inside itself) is not walked again.
///
/// Lazy: one directory is listed at a time, so results start at once on a huge tree and memory
/// follows the widest directory and the depth, not the number of files.
struct DirectoryWalk: IteratorProtocol {
    private var pending: [String]
    private var listed: [Result<String, InputFailure>] = []
    private var nextListed = 0
    private var visited = Set<[UInt64]>()

    init(_ directory: String) { pending = [directory] }

    mutating func next() -> Result<String, InputFailure>? {
        while nextListed == listed.count {
            guard let directory = pending.popLast() else { return nil }
            listed = []
            nextListed = 0
            list(directory)
        }
        defer { nextListed += 1 }
        return listed[nextListed]
    }

    /// An entry's name bytes, read up to the terminating NUL and no further.
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return [] }
        let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return Array(UnsafeRawBufferPointer(start: start, count: strlen(start)))
    }

    /// Fills `listed` with the directory's files and failures; queues its subdirectories.
    private mutating func list(_ current: String) {
        var info = stat()
        if stat(current, &info) == 0 && !visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted { return }
        guard let handle = opendir(current) else {
            listed.append(.failure(InputFailure(path: current, message: "cannot open directory: \(errorText())")))
            return
        }
        // Names as bytes, sorted as bytes; one that isn't UTF-8 is reported in its place.
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                if errno != 0 { listed.append(.failure(InputFailure(path: current, message: "cannot list directory: \(errorText())"))) }
                break
            }
            // The name through a pointer, up to its NUL: glibc's record can end before the
            // declared 256-byte array does, so loading `d_name` whole would read past it
            // (AddressSanitizer caught that on a directory of 1,000 files).
            let name = Self.name(of: entry)
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        closedir(handle)
        var subdirectories: [String] = []
        let prefix = current.hasSuffix("/") ? current : current + "/"
        for bytes in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            guard let name = String(validating: bytes, as: UTF8.self) else {
                let shown = prefix + String(decoding: bytes, as: UTF8.self)
                listed.append(.failure(InputFailure(path: shown, message: "the name is not valid UTF-8")))
                continue
            }
            let path = prefix + name
            var entry = stat()
            guard lstat(path, &entry) == 0 else {
                listed.append(.failure(InputFailure(path: path, message: "cannot stat: \(errorText())")))
                continue
            }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR: subdirectories.append(path)
            case S_IFREG: listed.append(.success(path))
            case S_IFLNK:
                var target = stat()
                if stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFREG { listed.append(.success(path)) }
            default: break
            }
        }
        // Depth first, in order: push subdirectories reversed so the first pops first.
        pending.append(contentsOf: subdirectories.reversed())
    }
}

/// A path that could not be probed, and why.
struct InputFailure: Error {
    var path: String
    var message: String
}
