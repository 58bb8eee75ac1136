import ImageProbe

/// Command-line options.
struct CommandLineOptions {
    var paths: [String] = []
    var json = false
    var recursive = false
    var chunkSize: Int? = nil
    var scan = ScanOptions()
    var seek = true
    var jobs = 8
    var timeout: Double = 10
    var publicOnly = false
    var certificateAuthorities: String? = nil
    var showHelp = false
    var showVersion = false

    static let usage = """
        usage: imageprobe [options] PATH...

        Reads just enough of each image to report its format, size and orientation.
        PATH is a file, a directory (with -r), - for standard input, or an http(s) URL.

        options:
          --json               one JSON object per input, one per line
          -r, --recursive      probe every file under a directory
          --dimensions-only    stop as soon as width and height are known
          --animation          walk every frame of an animation: frame count, loop count,
                               duration and playback duration, largest frame, first delays
          --max-bytes N        give up after N bytes without an answer (default 16 MiB)
          --chunk-size N       feed the scanner at most N bytes at a time (for testing)
          --no-seek            read skipped bytes instead of seeking over them
          -j N                 probe up to N URLs at once, 1 to 256 (default 8)
          --timeout SECONDS    per-request timeout for URLs, 1 to 86400 (default 10)
          --public-only        refuse URLs (and redirects) to loopback, private, link-local
                               and other non-public addresses, checked on the address connected
          --cacert FILE        trust the certificate authorities in this PEM file for https
                               instead of the system's
          -h, --help           show this help
          --version            show the version

        exit status: 0 if every input was recognised, 1 if any was not, 2 for usage errors.
        """

    /// Parses `arguments` (without the program name); returns an error message on misuse.
    static func parse(_ arguments: [String]) -> Result<CommandLineOptions, UsageError> {
        var options = CommandLineOptions()
        var index = 0
        var onlyPaths = false
        func value(_ name: String) -> Result<Int, UsageError> {
            index += 1
            guard index < arguments.count else { return .failure(UsageError("\(name) needs a value")) }
            guard let number = Int(arguments[index]), number > 0 else {
                return .failure(UsageError("\(name) needs a positive integer, not '\(arguments[index])'"))
            }
            return .success(number)
        }
        while index < arguments.count {
            let argument = arguments[index]
            if onlyPaths || argument == "-" || !argument.hasPrefix("-") {
                options.paths.append(argument)
                index += 1
                continue
            }
            switch argument {
            case "--": onlyPaths = true
            case "--json": options.json = true
            case "-r", "--recursive": options.recursive = true
            case "--dimensions-only": options.scan.mode = .dimensionsOnly
            case "--animation": options.scan.mode = .animation
            case "--no-seek": options.seek = false
            case "--public-only": options.publicOnly = true
            case "--cacert":
                index += 1
                guard index < arguments.count else { return .failure(UsageError("--cacert needs a file")) }
                options.certificateAuthorities = arguments[index]
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            case "--max-bytes":
                switch value(argument) {
                case .success(let number): options.scan.maxBytes = number
                case .failure(let error): return .failure(error)
                }
            case "--chunk-size":
                switch value(argument) {
                case .success(let number): options.chunkSize = number
                case .failure(let error): return .failure(error)
                }
            case "-j", "--jobs":
                switch value(argument) {
                case .success(let number) where number <= 256: options.jobs = number
                case .success: return .failure(UsageError("-j is at most 256"))
                case .failure(let error): return .failure(error)
                }
            case "--timeout":
                switch value(argument) {
                case .success(let number) where number <= 86_400: options.timeout = Double(number)
                case .success: return .failure(UsageError("--timeout is at most 86400 seconds (a day)"))
                case .failure(let error): return .failure(error)
                }
            default:
                return .failure(UsageError("unknown option '\(argument)'"))
            }
            index += 1
        }
        if options.paths.isEmpty && !options.showHelp && !options.showVersion {
            return .failure(UsageError("no PATH given"))
        }
        return .success(options)
    }
}

struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
