#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageProbe

/// What probing a file found, and what it cost.
public struct FileProbeResult: Sendable {
    /// The scanner's answer: `done` (possibly partial, SPEC.md §1.6) or `unsupported`. Never
    /// `needMore`: the end of the file is passed to `finish()`.
    public var status: ScanStatus
    /// Bytes read from the file, including skipped bytes that were read anyway.
    public var bytesRead: UInt64
    /// Bytes jumped with `lseek`, never read.
    public var bytesSkipped: UInt64

    /// A result with the given status and counts (for tests and mocks).
    public init(status: ScanStatus, bytesRead: UInt64, bytesSkipped: UInt64) {
        self.status = status
        self.bytesRead = bytesRead
        self.bytesSkipped = bytesSkipped
    }

    /// The answer's facts when the scan succeeded.
    public var info: ImageInfo? {
        guard case .done(let info) = status else { return nil }
        return info
    }
}

/// A file that could not be read: it could not be opened, read or seeked, or it is not a
/// regular file. Scan failures are not I/O errors: they are `ScanFailure`s.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as an extensible set of named codes.
    public struct Code: Hashable, Sendable {
        @usableFromInline let kind: UInt8
        init(_ kind: UInt8) { self.kind = kind }

        /// `open` failed (no such file, no permission).
        public static let cannotOpen = Code(0)
        /// `read` or `fstat` failed.
        public static let cannotRead = Code(1)
        /// `lseek` failed on a file that should seek.
        public static let cannotSeek = Code(2)
        /// The path names a directory.
        public static let isADirectory = Code(3)
        /// The path names a FIFO, socket or character device: read those through a descriptor.
        public static let notARegularFile = Code(4)

        /// The code's name (`"cannotOpen"`). A literal: reading it allocates nothing.
        public var name: String {
            switch kind {
            case 0: "cannotOpen"
            case 1: "cannotRead"
            case 2: "cannotSeek"
            case 3: "isADirectory"
            default: "notARegularFile"
            }
        }
    }

    /// What went wrong.
    public var code: Code
    /// The system's explanation (`strerror`), or why the file type is refused.
    public var message: String
    /// The path, when the file was opened by path.
    public var path: String?

    /// An error with the given code and message.
    public init(code: Code, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String {
        "\(code.name): \(message)\(path.map { " (\($0))" } ?? "")"
    }
}

/// Reads a file just far enough to answer, jumping what the scanner skips (SPEC.md §7).
///
/// It feeds the scanner no more than `needMore` asks for, so it sees the scanner's pending skip
/// at every step boundary. On a seekable file, a skip of `seekThreshold` bytes or more is
/// jumped with `lseek` and counted in `bytesSkipped`; shorter ones are read through and passed
/// with `skip(_:)`, so they don't count against `maxBytes`. The decision doesn't depend on
/// `chunkSize`, so no chunk size changes an answer or a byte count.
public struct FileProber: Sendable {
    /// Below this, reading through a skip costs less than a seek and a new read.
    public static let seekThreshold: UInt64 = 64 << 10
    /// The read buffer's size.
    public static let bufferSize = 64 << 10

    /// The scanner's options. `inputLength` is filled in from the file's size when nil.
    public var options: ScanOptions
    /// The most bytes passed to one `feed` call; nil for no limit (for testing chunkings).
    public var chunkSize: Int?
    /// Whether to jump long skips with `lseek` on regular files (true by default).
    public var seeks: Bool

    /// A prober with the given options.
    public init(options: ScanOptions = ScanOptions(), chunkSize: Int? = nil, seeks: Bool = true) {
        self.options = options
        self.chunkSize = chunkSize.map { max(1, $0) }
        self.seeks = seeks
    }

    /// Probes the file at `path`. Directories, FIFOs, sockets and character devices are refused
    /// (a FIFO without a writer would block); block devices are read.
    public func probe(path: String, onFrame: (FrameInfo) -> Void = { _ in }) throws -> FileProbeResult {
        try path.withCString { try probe(cPath: $0, shownAs: path, onFrame: onFrame) }
    }

    /// Probes the file whose name is `pathBytes`, as the file system holds it: for names that
    /// are not UTF-8 (a `String` would change them, and open another file or none). Errors
    /// carry the name with invalid bytes shown as U+FFFD.
    public func probe<Bytes: Collection<UInt8>>(pathBytes: Bytes, onFrame: (FrameInfo) -> Void = { _ in }) throws -> FileProbeResult {
        let terminated = Array(pathBytes) + [0]
        let shown = String(decoding: pathBytes, as: UTF8.self)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try probe(cPath: $0.baseAddress!, shownAs: shown, onFrame: onFrame) }
        }
    }

    private func probe(cPath: UnsafePointer<CChar>, shownAs path: String, onFrame: (FrameInfo) -> Void) throws -> FileProbeResult {
        // Non-blocking open: a FIFO without a writer would otherwise block here forever.
        let descriptor = open(cPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileError(code: .cannotOpen, message: Self.errorText(), path: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError(code: .cannotRead, message: Self.errorText(), path: path) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw FileError(code: .isADirectory, message: "is a directory", path: path)
        case S_IFREG, S_IFBLK:
            break
        default:
            throw FileError(code: .notARegularFile, message: "not a regular file or block device", path: path)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        do {
            return try probe(descriptor: descriptor, onFrame: onFrame)
        } catch var error as FileError {
            error.path = path
            throw error
        }
    }

    /// Probes an open descriptor from its current offset; the descriptor stays open. A pipe or
    /// socket is read to the answer; a regular file is also seeked.
    public func probe(descriptor: Int32, onFrame: (FrameInfo) -> Void = { _ in }) throws -> FileProbeResult {
        var info = stat()
        let regular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        let seekable = seeks && regular
        var options = self.options
        // A regular file's size lets formats with information at the end use it (SPEC.md §1.5).
        // A descriptor may start part way in. Pseudo-files (procfs) report a size of 0
        // whatever they hold: no length then.
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
                    throw FileError(code: .cannotSeek, message: Self.errorText())
                }
                scanner.skip(skip)
                status = scanner.status
                continue
            }
            if start == end {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FileError(code: .cannotRead, message: Self.errorText())
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
                scanner.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + take)]), onFrame: onFrame)
            }
            start += take
        }
        return FileProbeResult(
            status: status, bytesRead: scanner.bytesRead + skippedAfterReading,
            bytesSkipped: scanner.bytesSkipped - skippedAfterReading)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
