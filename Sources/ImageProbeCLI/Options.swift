import ImageProbe
import ImageProbeFetch

/// How results are written to standard output.
enum OutputStyle: Equatable {
    /// One sentence per input.
    case text
    /// One JSON object per input and line.
    case json
    /// RFC 4180 CSV with a header line.
    case csv
    /// The `--format` template, for images only.
    case template(OutputTemplate)
}

/// Command-line options.
struct CommandLineOptions {
    /// The inputs, as the bytes `argv` holds (SPEC.md §4: names are bytes).
    var paths: [InputName] = []
    /// Print names as they are, without escaping controls (`--raw-names`).
    var rawNames = false
    var style = OutputStyle.text
    var recursive = false
    var crossFilesystems = false
    var imagesOnly = false
    var chunkSize: Int? = nil
    var scan = ScanOptions()
    var seek = true
    /// `-j`: both limits below when given.
    var jobs: Int? = nil
    /// Connections to one URL host at once (`--host-connections`).
    var hostConnections = 6
    var timeout: Double = 10
    var publicOnly = false
    /// Blocks `--public-only` allows all the same (`--allow`).
    var allow: [String] = []
    var certificateAuthorities: String? = nil
    var showHelp = false
    var showVersion = false
    var completionShell: String? = nil

    /// Files probed at once: blocking reads on a thread each.
    var fileJobs: Int { jobs ?? 8 }
    /// URLs probed at once: waiting on the network, not the processor.
    var urlJobs: Int { jobs ?? 64 }

    /// The package's version: the core's User-Agent's, one place for every front end.
    static let version = String(decoding: RangePlanner.userAgent.utf8Bytes.dropFirst("ImageProbe/".utf8.count), as: UTF8.self)

    /// One option: its spellings, its value's placeholder (nil for a flag) and its help.
    struct Option {
        var names: [String]
        var value: String?
        var help: String
    }

    /// Every option, in the order `--help`, the man page and the completions list them.
    static let table: [Option] = [
        Option(names: ["--json"], value: nil, help: "one JSON object per input, one per line"),
        Option(names: ["--csv"], value: nil, help: "CSV with a header line (RFC 4180)"),
        Option(names: ["--format"], value: "TEMPLATE",
               help: "print each image through TEMPLATE: %f path (controls escaped), %F path as is, %t format, %w %h width and height, "
                   + "%W %H displayed width and height, %o orientation (1-8), %m MIME type, "
                   + "%b bytes read, %{name} any field by its JSON name (%{dpi}, %{hdr}, ...), %% a percent sign, \\n newline, \\t tab"),
        Option(names: ["--images-only"], value: nil,
               help: "print images only: inputs that are not images are left out (I/O errors still go to standard error)"),
        Option(names: ["-r", "--recursive"], value: nil, help: "probe every file under a directory, on its filesystem only"),
        Option(names: ["--cross-filesystems"], value: nil,
               help: "with -r, also descend into other filesystems (pseudo filesystems such as /proc and /sys never)"),
        Option(names: ["--dimensions-only"], value: nil, help: "stop as soon as width and height are known"),
        Option(names: ["--animation"], value: nil,
               help: "walk every frame of an animation: frame count, loop count, duration and playback duration, largest frame, first delays"),
        Option(names: ["--max-bytes"], value: "N",
               help: "give up after N bytes without an answer; for URLs every byte off the network, heads and framing included (default 16 MiB)"),
        Option(names: ["--max-pixels"], value: "N",
               help: "refuse an image of more than N pixels (width x height, x frames with --animation) with "
                   + "the error tooManyPixels and its size: a decompression-bomb guard (default: no limit)"),
        Option(names: ["--chunk-size"], value: "N", help: "feed the scanner at most N bytes at a time (for testing)"),
        Option(names: ["--no-seek"], value: nil, help: "read skipped bytes instead of seeking over them"),
        Option(names: ["-j", "--jobs"], value: "N",
               help: "probe up to N files and N URLs at once, 1 to 256 (default 8 files and 64 URLs); output keeps input order"),
        Option(names: ["--host-connections"], value: "N",
               help: "open at most N connections to one host, 1 to 256 (default 6): over HTTP/2 one carries many probes, "
                   + "over HTTP/1.1 each carries one at a time"),
        Option(names: ["--timeout"], value: "SECONDS", help: "per-request timeout for URLs, 1 to 86400 (default 10)"),
        Option(names: ["--public-only"], value: nil,
               help: "refuse URLs (and redirects) to loopback, private, link-local and other non-public addresses, checked on the address connected"),
        Option(names: ["--allow"], value: "CIDR", help: "with --public-only, allow this block all the same (10.8.0.0/16, or one address); may be repeated"),
        Option(names: ["--cacert"], value: "FILE", help: "trust the certificate authorities in this PEM file for https instead of the system's"),
        Option(names: ["--raw-names"], value: nil,
               help: "print names as they are in text and --format output, not with control characters escaped"),
        Option(names: ["--completion"], value: "SHELL", help: "print a completion script for bash, zsh or fish"),
        Option(names: ["-h", "--help"], value: nil, help: "show this help"),
        Option(names: ["-V", "--version"], value: nil, help: "show the version"),
    ]

    static let exitStatusHelp = """
        exit status: 0 if every input was an image, 1 if any was not, 3 if any could not be read
        (an I/O or network error; 3 wins over 1), 2 for usage errors.
        """

    static var usage: String {
        var lines = [
            "usage: imageprobe [options] PATH...",
            "",
            "Reads just enough of each image to report its format, size and orientation.",
            "PATH is a file, a directory (with -r), - for standard input, or an http(s) URL.",
            "",
            "options:",
        ]
        for option in table {
            let head = "  " + option.names.joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")
            let wrapped = wrap(option.help, width: 78 - 23)
            for (index, line) in wrapped.enumerated() {
                let left = index == 0 ? head : ""
                if index == 0 && left.count >= 23 {
                    lines.append(left)
                    lines.append(String(repeating: " ", count: 23) + line)
                } else {
                    lines.append(left + String(repeating: " ", count: 23 - left.count) + line)
                }
            }
        }
        lines.append("")
        lines.append(exitStatusHelp)
        return lines.joined(separator: "\n")
    }

    /// `text` broken into lines of at most `width` characters, at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Parses `arguments` (without the program name); returns an error message on misuse.
    static func parse(_ arguments: [String]) -> Result<CommandLineOptions, UsageError> {
        parse(bytes: arguments.map(InputName.init))
    }

    /// Parses the arguments as `argv` holds them: options are matched as text, and paths kept
    /// as bytes.
    static func parse(bytes raw: [InputName]) -> Result<CommandLineOptions, UsageError> {
        let arguments = raw.map(\.text)
        var options = CommandLineOptions()
        var index = 0
        var onlyPaths = false
        var styles: [String] = []
        func text(_ name: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(name) needs a value") }
            return arguments[index]
        }
        func number(_ name: String, atMost limit: Int = .max, _ what: String = "") throws(UsageError) -> Int {
            let value = try text(name)
            guard let number = Int(value), number > 0 else {
                throw UsageError("\(name) needs a positive integer, not '\(value)'")
            }
            guard number <= limit else { throw UsageError("\(name) is at most \(limit)\(what)") }
            return number
        }
        do throws(UsageError) {
            while index < arguments.count {
                let argument = arguments[index]
                if onlyPaths || argument == "-" || !argument.hasPrefix("-") {
                    options.paths.append(raw[index])
                    index += 1
                    continue
                }
                switch argument {
                case "--": onlyPaths = true
                case "--json":
                    options.style = .json
                    styles.append(argument)
                case "--csv":
                    options.style = .csv
                    styles.append(argument)
                case "--format":
                    options.style = .template(try OutputTemplate(parsing: try text(argument)))
                    styles.append(argument)
                case "--images-only": options.imagesOnly = true
                case "-r", "--recursive": options.recursive = true
                case "--cross-filesystems": options.crossFilesystems = true
                case "--dimensions-only": options.scan.mode = .dimensionsOnly
                case "--animation": options.scan.mode = .animation
                case "--no-seek": options.seek = false
                case "--public-only": options.publicOnly = true
                case "--allow":
                    let block = try text(argument)
                    guard AddressRange(block) != nil else { throw UsageError("--allow takes an address block such as 10.8.0.0/16, not '\(block)'") }
                    options.allow.append(block)
                case "--raw-names": options.rawNames = true
                case "--cacert": options.certificateAuthorities = try text(argument)
                case "--completion":
                    let shell = try text(argument)
                    guard Completion.shells.contains(shell) else {
                        throw UsageError("--completion takes \(Completion.shells.joined(separator: ", ")), not '\(shell)'")
                    }
                    options.completionShell = shell
                case "-h", "--help": options.showHelp = true
                case "-V", "--version": options.showVersion = true
                case "--max-bytes": options.scan.maxBytes = try number(argument)
                case "--max-pixels": options.scan.maxPixels = try number(argument)
                case "--chunk-size": options.chunkSize = try number(argument)
                case "-j", "--jobs": options.jobs = try number(argument, atMost: 256)
                case "--host-connections": options.hostConnections = try number(argument, atMost: 256)
                case "--timeout": options.timeout = Double(try number(argument, atMost: 86_400, " seconds (a day)"))
                default: throw UsageError("unknown option '\(argument)'")
                }
                index += 1
            }
            if Set(styles).count > 1 {
                throw UsageError("choose one of \(Set(styles).sorted().joined(separator: ", "))")
            }
            if options.crossFilesystems && !options.recursive {
                throw UsageError("--cross-filesystems needs -r")
            }
            if options.paths.isEmpty && !options.showHelp && !options.showVersion && options.completionShell == nil {
                throw UsageError("no PATH given")
            }
        } catch {
            return .failure(error)
        }
        return .success(options)
    }
}

struct UsageError: Error {
    var message: String
    /// Whether the whole usage follows the message: not for a `--format` template's mistake,
    /// whose message says what the template may hold.
    var showsUsage: Bool
    init(_ message: String, showsUsage: Bool = true) {
        self.message = message
        self.showsUsage = showsUsage
    }
}

/// A `--format` template, parsed once: literal text and the fields to fill in.
struct OutputTemplate: Equatable {
    enum Piece: Equatable {
        case literal(String)
        case path, rawPath, format, width, height, displayWidth, displayHeight, orientation, mimeType, bytesRead
        /// `%{name}`: a field by its JSON name (SPEC.md §4), empty when unknown.
        case named(String)
    }

    /// The JSON names `%{name}` accepts.
    static let names: Set<String> = [
        "format", "mime", "width", "height", "orientation", "displayWidth", "displayHeight", "bitDepth", "alpha",
        "progressive", "animated", "frameCount", "loopCount", "hdr", "gainMap", "cicp", "iccProfile", "dpi",
        "interlaced", "motionPhoto",
    ]

    /// A mistake in a template: the message alone, which says what may go there.
    static func mistake(_ message: String) -> UsageError { UsageError(message, showsUsage: false) }

    var pieces: [Piece]

    /// Parses `%` directives and the `\n`, `\t` and `\\` escapes; anything else is a usage error,
    /// so a typo doesn't print silently wrong columns.
    init(parsing template: String) throws(UsageError) {
        var pieces: [Piece] = []
        var literal = ""
        var characters = template.makeIterator()
        while let character = characters.next() {
            switch character {
            case "%":
                guard let directive = characters.next() else { throw Self.mistake("--format ends with a lone %") }
                let piece: Piece
                switch directive {
                case "%": literal.append("%"); continue
                case "f": piece = .path
                case "F": piece = .rawPath
                case "t": piece = .format
                case "w": piece = .width
                case "h": piece = .height
                case "W": piece = .displayWidth
                case "H": piece = .displayHeight
                case "o": piece = .orientation
                case "m": piece = .mimeType
                case "b": piece = .bytesRead
                case "{":
                    var name = ""
                    while let next = characters.next(), next != "}" { name.append(next) }
                    guard Self.names.contains(name) else {
                        throw Self.mistake("--format: unknown field %{\(name)}; a field is one of \(Self.names.sorted().joined(separator: ", "))")
                    }
                    piece = .named(name)
                default: throw Self.mistake("--format: unknown directive %\(directive); directives are %f %F %t %w %h %W %H %o %m %b %{name} %%")
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(piece)
            case "\\":
                guard let escaped = characters.next() else { throw Self.mistake("--format ends with a lone \\") }
                switch escaped {
                case "n": literal.append("\n")
                case "t": literal.append("\t")
                case "\\": literal.append("\\")
                default: throw Self.mistake("--format: unknown escape \\\(escaped); escapes are \\n \\t \\\\")
                }
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }
}
