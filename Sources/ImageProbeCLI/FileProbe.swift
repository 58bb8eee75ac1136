#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageProbe
import ImageProbeFoundation

/// The answer for one input, with the byte counts the output reports.
struct InputResult {
    var path: InputName
    var status: ScanStatus
    var bytesRead: UInt64
    var bytesSkipped: UInt64
    /// An I/O failure (unreadable path), instead of a scan status.
    var ioError: String? = nil
    /// For a URL: bytes received and requests sent.
    var network: (bytesTransferred: Int, requests: Int)? = nil
    /// For a URL that failed before scanning: the fetch error's code, message and HTTP status.
    var fetchError: (code: String, message: String, status: Int?)? = nil
    /// Animation mode: the delays of the first frames, in milliseconds.
    var firstDelays: [Double] = []
    /// The mode the input was scanned in.
    var mode: ScanOptions.Mode = .full

    /// How many frame delays the output lists.
    static let delaysShown = 8
}

/// Probes files and standard input with the library's seeking reader, collecting the first
/// frame delays for the output.
struct DescriptorProber: Sendable {
    var prober: FileProber

    init(options: ScanOptions, chunkSize: Int?, seek: Bool) {
        prober = FileProber(options: options, chunkSize: chunkSize, seeks: seek)
    }

    func probe(descriptor: Int32, path: InputName) -> InputResult {
        run(path) { try prober.probe(descriptor: descriptor, onFrame: $0) }
    }

    func probe(path: InputName) -> InputResult {
        run(path) { try prober.probe(pathBytes: path.bytes, onFrame: $0) }
    }

    private func run(_ path: InputName, _ body: ((FrameInfo) -> Void) throws -> FileProbeResult) -> InputResult {
        var delays: [Double] = []
        do {
            let probed = try body { frame in
                if delays.count < InputResult.delaysShown { delays.append(frame.delay) }
            }
            return InputResult(path: path, status: probed.status, bytesRead: probed.bytesRead,
                               bytesSkipped: probed.bytesSkipped, firstDelays: delays, mode: prober.options.mode)
        } catch let error as FileError {
            let message: String
            switch error.code {
            case .isADirectory: message = "is a directory (use -r to probe the files in it)"
            case .notARegularFile: message = "not a regular file (use - to read a pipe or device from standard input)"
            case .cannotOpen: message = "cannot open: \(error.message)"
            case .cannotSeek: message = "cannot seek: \(error.message)"
            default: message = "cannot read: \(error.message)"
            }
            return .ioFailure(path, message)
        } catch {
            return .ioFailure(path, "\(error)")
        }
    }
}

extension InputResult {
    static func ioFailure(_ path: InputName, _ message: String) -> InputResult {
        InputResult(path: path, status: .needMore(1), bytesRead: 0, bytesSkipped: 0, ioError: message)
    }

    var recognised: Bool {
        guard ioError == nil, fetchError == nil, case .done = status else { return false }
        return true
    }

    /// Whether the input could not be read at all (exit status 3), rather than read and found
    /// not to be an image (1).
    var isIOError: Bool { ioError != nil || fetchError != nil }

    /// The error code and message, for anything but an image.
    var failure: (code: String, message: String)? {
        if let ioError { return ("io", ioError) }
        if let fetchError { return (fetchError.code, fetchError.message) }
        switch status {
        case .done: return nil
        case .unsupported(let failure), .refused(_, let failure): return (failure.code.name, failure.message)
        case .needMore: return ("truncated", "input ended inside the header")
        }
    }
}

func errorText() -> String { String(cString: strerror(errno)) }

/// Every regular file under a directory, depth first, in byte order of names, without
/// following symbolic links to directories; entries that can't be read come in their place.
/// A directory met twice (a bind mount inside itself) is not walked again.
///
/// Like `find -xdev`, the walk stays on the starting directory's filesystem unless
/// `crossFilesystems`; either way it never enters a pseudo filesystem (procfs, sysfs, ...), whose
/// files can block or have side effects when read (`/proc/kmsg` consumes the kernel log).
///
/// Lazy: one directory is listed at a time, so results start at once on a huge tree and memory
/// follows the widest directory and the depth, not the number of files.
struct DirectoryWalk: IteratorProtocol {
    private var pending: [InputName]
    private var listed: [Result<InputName, InputFailure>] = []
    private var nextListed = 0
    private var visited = Set<[UInt64]>()
    private let crossFilesystems: Bool
    /// The starting directory's device; nil until it has been read.
    private var rootDevice: UInt64? = nil
    /// Devices known to be real or pseudo filesystems, so each is asked about once.
    private var pseudoByDevice: [UInt64: Bool] = [:]

    init(_ directory: InputName, crossFilesystems: Bool = false) {
        pending = [directory]
        self.crossFilesystems = crossFilesystems
    }

    /// Whether files on `device` (reached through `path`) may be read.
    private mutating func allowed(device: UInt64, path: InputName) -> Bool {
        if let rootDevice, device != rootDevice && !crossFilesystems { return false }
        if let known = pseudoByDevice[device] { return !known }
        let pseudo = isPseudoFilesystem(device: device, path: path)
        pseudoByDevice[device] = pseudo
        return !pseudo
    }

    mutating func next() -> Result<InputName, InputFailure>? {
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
    private mutating func list(_ current: InputName) {
        var info = stat()
        if current.withCString({ stat($0, &info) }) == 0 {
            let device = UInt64(truncatingIfNeeded: info.st_dev)  // an Int32 on Darwin
            if rootDevice == nil {
                rootDevice = device
                if !allowed(device: device, path: current) {
                    listed.append(.failure(InputFailure(path: current, message: "is on a pseudo filesystem (such as /proc or /sys): not walked")))
                    return
                }
            }
            if !allowed(device: device, path: current) { return }
            if !visited.insert([device, UInt64(info.st_ino)]).inserted { return }
        }
        guard let handle = current.withCString({ opendir($0) }) else {
            listed.append(.failure(InputFailure(path: current, message: "cannot open directory: \(errorText())")))
            return
        }
        // Names as bytes, sorted as bytes, opened as bytes (SPEC.md §4).
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
        var subdirectories: [InputName] = []
        for bytes in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let path = current.appending(bytes)
            var entry = stat()
            guard path.withCString({ lstat($0, &entry) }) == 0 else {
                listed.append(.failure(InputFailure(path: path, message: "cannot stat: \(errorText())")))
                continue
            }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR: subdirectories.append(path)
            case S_IFREG:
                if allowed(device: UInt64(truncatingIfNeeded: entry.st_dev), path: path) { listed.append(.success(path)) }
            case S_IFLNK:
                var target = stat()
                if path.withCString({ stat($0, &target) }) == 0 && (target.st_mode & S_IFMT) == S_IFREG
                    && allowed(device: UInt64(truncatingIfNeeded: target.st_dev), path: path) {
                    listed.append(.success(path))
                }
            default: break
            }
        }
        // Depth first, in order: push subdirectories reversed so the first pops first.
        pending.append(contentsOf: subdirectories.reversed())
    }
}

/// A path that could not be probed, and why.
struct InputFailure: Error {
    var path: InputName
    var message: String
}

/// Whether `device` (reached through `path`) is a kernel pseudo filesystem, whose files are
/// not data: procfs, sysfs, debugfs and the like on Linux (by the type `/proc/self/mountinfo`
/// gives the device; Glibc's module doesn't export `statfs`), devfs on Darwin.
func isPseudoFilesystem(device: UInt64, path: InputName) -> Bool {
    #if canImport(Darwin)
    var info = statfs()
    guard path.withCString({ statfs($0, &info) }) == 0 else { return false }
    let name = withUnsafeBytes(of: info.f_fstypename) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return name == "devfs"
    #else
    guard let type = MountTable.shared[device] else { return false }
    return MountTable.pseudoTypes.contains(type)
    #endif
}

#if !canImport(Darwin)
/// Filesystem types by device number, from `/proc/self/mountinfo` (read once; empty when /proc
/// isn't mounted, and then there is no procfs to walk into).
enum MountTable {
    static let pseudoTypes: Set<String> = [
        "proc", "sysfs", "debugfs", "tracefs", "securityfs", "cgroup", "cgroup2", "devpts", "bpf",
        "configfs", "pstore", "efivarfs", "fusectl", "binfmt_misc", "nsfs", "selinuxfs", "smackfs",
        "mqueue", "rpc_pipefs", "autofs",
    ]

    static let shared: [UInt64: String] = {
        let descriptor = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [:] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while bytes.count < 16 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        var table: [UInt64: String] = [:]
        // "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw": the third field is
        // major:minor, the first after "-" the type.
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 3, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            let numbers = fields[2].split(separator: ":")
            guard numbers.count == 2, let major = UInt64(numbers[0]), let minor = UInt64(numbers[1]) else { continue }
            // glibc's makedev.
            let device = ((major & 0xFFFF_F000) << 32) | ((major & 0xFFF) << 8) | ((minor & 0xFFFF_FF00) << 12) | (minor & 0xFF)
            table[device] = String(fields[dash + 1])
        }
        return table
    }()
}
#endif
