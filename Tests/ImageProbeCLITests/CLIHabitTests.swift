import Foundation
import ImageProbeFixtures
import ImageProbeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The command's habits for scripts (`--format`, `--csv`, `--images-only`, exit statuses,
/// `-j`, the walk's filesystem rules, the man page and completions), each run as a process.
@Suite struct CLIHabitTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String], executable: String? = nil, input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable.map(URL.init(fileURLWithPath:)) ?? CLIProcessTests.executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        // Both pipes drained at once, so neither fills up and stalls the process; the group's
        // wait orders the reader's write before the read below.
        let errorData = LockedBox(Data())
        let reading = DispatchGroup()
        reading.enter()
        DispatchQueue.global().async {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.set(data)
            reading.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        reading.wait()
        return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                   errors: String(decoding: errorData.get(), as: UTF8.self))
    }

    /// A directory with two images, a text file and a subdirectory with one more image.
    static func sampleTree() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("habits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data(PNGBuilder.image(width: 640, height: 480)).write(to: directory.appendingPathComponent("a.png"))
        try Data("not an image, just notes\n".utf8).write(to: directory.appendingPathComponent("b.txt"))
        try Data(JPEGBuilder.image(width: 30, height: 20).bytes).write(to: directory.appendingPathComponent("c, \"quoted\".jpg"))
        try Data(GIFBuilder.image(width: 7, height: 5)).write(to: directory.appendingPathComponent("sub/d.gif"))
        return directory
    }

    @Test func formatTemplate() throws {
        let tree = try Self.sampleTree()
        defer { try? FileManager.default.removeItem(at: tree) }
        let png = tree.appendingPathComponent("a.png").path
        let run = try Self.run(["--format", "%w %h\\n", png])
        #expect(run.output == "640 480\n")
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Self.run(["--json", png]).output.utf8)) as? [String: Any])
        let bytesRead = try #require(json["bytesRead"] as? Int)
        let all = try Self.run(["--format", "%t|%m|%W|%H|%o|%b|%%|%f\\t.\\n", png])
        #expect(all.output == "png|image/png|640|480|1|\(bytesRead)|%|\(png)\t.\n", "\(all.output)")
        // A typo is a usage error, not silently wrong columns; the message says what a
        // template may hold, without the whole usage.
        #expect(try Self.run(["--format", "%q", png]).status == 2)
        let unknown = try Self.run(["--format", "%{nope}", png])
        #expect(unknown.status == 2)
        #expect(unknown.errors.hasPrefix("imageprobe: --format: unknown field %{nope}; a field is one of alpha, "), "\(unknown.errors)")
        #expect(!unknown.errors.contains("usage:"), "\(unknown.errors)")
        #expect(unknown.errors.split(separator: "\n").count == 1)
        #expect(try Self.run(["--format", "%w", "--json", png]).status == 2)
        // Inputs that are not images go to standard error with --format.
        let mixed = try Self.run(["--format", "%w\\n", png, tree.appendingPathComponent("b.txt").path])
        #expect(mixed.output == "640\n")
        #expect(mixed.errors.contains("b.txt"))
        #expect(mixed.status == 1)
    }

    @Test func anEmptyFileIsSaidToBeEmpty() throws {
        let directory = try CLIProcessTests.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.png")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        let text = try Self.run([empty.path])
        #expect(text.output == "\(empty.path): error: truncated: the input is empty [0 bytes read]\n")
        #expect(text.status == 1)
        // JSON keeps the scanner's code and message.
        let json = try Self.run(["--json", empty.path])
        #expect(json.output.contains("\"error\":\"truncated\",\"message\":\"input ended inside the header\""), "\(json.output)")
    }

    @Test func csvParsesWithPythonsCSVModule() throws {
        let tree = try Self.sampleTree()
        defer { try? FileManager.default.removeItem(at: tree) }
        let run = try Self.run(["--csv", "-r", tree.path])
        #expect(run.status == 1)
        let script = """
            import csv, json, sys
            rows = list(csv.DictReader(sys.stdin))
            print(json.dumps(rows))
            """
        let parsed = try Self.run(["-c", script], executable: "/usr/bin/python3", input: run.output)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as? [[String: String]])
        #expect(rows.count == 4, "\(run.output)")
        let byName = Dictionary(uniqueKeysWithValues: rows.map { (URL(fileURLWithPath: $0["path"]!).lastPathComponent, $0) })
        #expect(byName["a.png"]?["width"] == "640" && byName["a.png"]?["height"] == "480")
        #expect(byName["c, \"quoted\".jpg"]?["format"] == "jpeg", "a name with a comma and quotes survives")
        #expect(byName["b.txt"]?["error"] == "unknownFormat" && byName["b.txt"]?["width"] == "")
        #expect(byName["d.gif"]?["mime"] == "image/gif")
    }

    @Test func imagesOnly() throws {
        let tree = try Self.sampleTree()
        defer { try? FileManager.default.removeItem(at: tree) }
        let missing = tree.appendingPathComponent("missing.png").path
        let run = try Self.run(["--images-only", "-r", tree.path, missing])
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 3, "\(run.output)")
        #expect(!run.output.contains("b.txt") && !run.errors.contains("b.txt"))
        #expect(run.errors.contains("missing.png"), "I/O errors still go to standard error")
        #expect(run.status == 3)
        let json = try Self.run(["--images-only", "--json", "-r", tree.path])
        #expect(json.output.split(separator: "\n").count == 3)
    }

    @Test func exitStatusesAndWhereErrorsGo() throws {
        let tree = try Self.sampleTree()
        defer { try? FileManager.default.removeItem(at: tree) }
        let png = tree.appendingPathComponent("a.png").path
        let text = tree.appendingPathComponent("b.txt").path
        let missing = tree.appendingPathComponent("missing.png").path
        #expect(try Self.run([png]).status == 0)
        #expect(try Self.run([png, text]).status == 1)
        #expect(try Self.run([png, missing]).status == 3)
        #expect(try Self.run([missing, text]).status == 3, "3 wins over 1")
        #expect(try Self.run(["--no-such-option", png]).status == 2)
        #expect(try Self.run([]).status == 2)
        // Text mode: an I/O error on standard error only, once.
        let failed = try Self.run([png, missing])
        #expect(failed.output.split(separator: "\n").count == 1)
        #expect(!failed.output.contains("missing.png"))
        #expect(failed.errors.components(separatedBy: "missing.png").count == 2)
        // A file that is not an image is an answer: standard output.
        let notImage = try Self.run([text])
        #expect(notImage.output.contains("b.txt") && notImage.errors.isEmpty)
        // Version.
        #expect(try Self.run(["-V"]).output.hasPrefix("imageprobe 0."))
    }

    @Test func parallelFilesKeepInputOrder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for index in 0..<60 {
            let url = directory.appendingPathComponent(String(format: "%03d", index) + (index % 3 == 0 ? ".txt" : ".png"))
            let bytes = index % 3 == 0 ? Array("text \(index)".utf8) : PNGBuilder.image(width: index + 1, height: 2)
            try Data(bytes).write(to: url)
            paths.append(url.path)
        }
        let serial = try Self.run(["--json", "-j", "1"] + paths.reversed())
        let parallel = try Self.run(["--json", "-j", "16"] + paths.reversed())
        #expect(parallel.output == serial.output)
        let printed = parallel.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
        }
        #expect(printed == paths.reversed())
        let walked = try Self.run(["--json", "-j", "16", "-r", directory.path])
        #expect(walked.output == (try Self.run(["--json", "-j", "1", "-r", directory.path])).output)
    }

    @Test func aWalkOfAPseudoFilesystemIsRefused() throws {
        let run = try Self.run(["--json", "-r", "/proc"])
        #expect(run.output.split(separator: "\n").count == 1, "\(run.output.prefix(500))")
        #expect(run.output.contains("pseudo filesystem"))
        #expect(run.status == 3)
    }

    /// `unshare -m`: a private mount namespace where a tmpfs and a procfs can be mounted inside
    /// the walked tree. Needs root (CI runs as root).
    @Test(.enabled(if: CLIGuaranteeTests.canUnshare, "needs root and unshare(1)"))
    func theWalkStaysOnItsFilesystemAndNeverReadsProc() throws {
        let tree = try Self.sampleTree()
        defer { try? FileManager.default.removeItem(at: tree) }
        for name in ["other", "proc"] {
            try FileManager.default.createDirectory(at: tree.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let imageprobe = CLIProcessTests.executable.path
        let png = PNGBuilder.image(width: 3, height: 3).map { String(format: "\\%03o", $0) }.joined()
        func walk(_ flags: String) throws -> Run {
            let script = """
                set -e
                mount -t tmpfs none '\(tree.path)/other'
                printf '\(png)' > '\(tree.path)/other/e.png'
                mount -t proc proc '\(tree.path)/proc'
                '\(imageprobe)' --json -r \(flags) '\(tree.path)'
                """
            return try Self.run(["-m", "/bin/sh", "-c", script], executable: "/usr/bin/unshare")
        }
        let staying = try walk("")
        #expect(staying.output.split(separator: "\n").count == 4, "\(staying.output.prefix(800)) \(staying.errors)")
        #expect(!staying.output.contains("e.png") && !staying.output.contains("/proc/"))
        let crossing = try walk("--cross-filesystems")
        #expect(crossing.output.split(separator: "\n").count == 5, "\(crossing.output.prefix(800)) \(crossing.errors)")
        #expect(crossing.output.contains("e.png"))
        #expect(!crossing.output.contains("\(tree.path)/proc/"), "procfs is never read")
    }

    /// Every option in `--help` is in the man page, and every option in the man page is in `--help`.
    @Test func manPageMatchesHelp() throws {
        let help = try Self.run(["--help"]).output
        let manURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("man/imageprobe.1")
        let man = try String(contentsOf: manURL, encoding: .utf8)
        func options(_ text: String, pattern: String) throws -> Set<String> {
            let expression = try NSRegularExpression(pattern: pattern)
            let range = NSRange(text.startIndex..., in: text)
            return Set(expression.matches(in: text, range: range).map { String(text[Range($0.range(at: 1), in: text)!]) })
        }
        let inHelp = try options(help, pattern: "(?m)^  (?:-[a-zA-Z], )?(--[a-z][a-z-]*)")
            .union(try options(help, pattern: "(?m)^  (-[a-zA-Z]),"))
        // The tag line after each `.TP` of the OPTIONS section names one option's spellings.
        let section = man.components(separatedBy: ".SH OPTIONS")[1].components(separatedBy: ".SH ")[0]
        let tags = section.replacingOccurrences(of: "\\-", with: "-").components(separatedBy: ".TP\n").dropFirst()
            .map { String($0.prefix { $0 != "\n" }) }.joined(separator: "\n")
        let inMan = try options(tags, pattern: "(?<![\\w-])(--?[a-zA-Z][a-z-]*)")
        #expect(inHelp.count >= 18)
        #expect(inHelp == inMan, "help only: \(inHelp.subtracting(inMan)); man only: \(inMan.subtracting(inHelp))")
        for directive in ["%f", "%t", "%w", "%h", "%W", "%H", "%o", "%m", "%b", "%%"] {
            #expect(man.contains(".B \(directive)"), "\(directive)")
            #expect(help.contains(directive))
        }
        for status in ["0", "1", "2", "3"] { #expect(man.contains(".B \(status)\n")) }
    }

    @Test func completionScripts() throws {
        let bash = try Self.run(["--completion", "bash"])
        #expect(bash.status == 0)
        let help = try Self.run(["--help"]).output
        for option in ["--json", "--csv", "--format", "--images-only", "--cross-filesystems", "-V"] {
            #expect(help.contains(option))
            #expect(bash.output.contains(option))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString).bash")
        try Data(bash.output.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // The script parses, and completes an option prefix.
        let completed = try Self.run(["-c", """
            source '\(file.path)'
            COMP_WORDS=(imageprobe --ima); COMP_CWORD=1; _imageprobe; echo "${COMPREPLY[@]}"
            """], executable: "/bin/bash")
        #expect(completed.output == "--images-only\n", "\(completed.output) \(completed.errors)")
        let zsh = try Self.run(["--completion", "zsh"]).output
        #expect(zsh.hasPrefix("#compdef imageprobe") && zsh.contains("'(-r --recursive)'{-r,--recursive}"))
        let fish = try Self.run(["--completion", "fish"]).output
        #expect(fish.contains("complete -c imageprobe -l cacert -r -F"))
        #expect(try Self.run(["--completion", "tcsh"]).status == 2)
    }
}
