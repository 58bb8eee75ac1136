import Foundation
import ImageProbeFixtures
import ImageProbeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `imageprobe` executable as a separate process: stdin through a pipe, URLs over nginx.
@Suite struct CLIProcessTests {
    /// The executable SwiftPM built next to the test bundle.
    static var executable: URL {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return directory.appendingPathComponent("imageprobe")
    }

    struct Run {
        var status: Int32
        var output: String
        var lines: [[String: Any]] {
            output.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    @Test func stdinIsClosedAfterTheHeader() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path), "no \(Self.executable.path)")
        // 5 MB of JPEG whose frame header is 131 KiB in: `cat big.jpg | imageprobe --json -`.
        let image = LargeFile.jpegHeader(orientation: 6, width: 4000, height: 3000)
        let body = image + [UInt8](repeating: 0x21, count: 5_000_000)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--json", "-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        signal(SIGPIPE, SIG_IGN)  // writing after the reader has gone must fail, not kill the tests
        let descriptor = input.fileHandleForWriting.fileDescriptor
        var written = 0
        var refused = false
        body.withUnsafeBytes { raw in
            while written < raw.count {
                let count = write(descriptor, raw.baseAddress! + written, min(16 * 1024, raw.count - written))
                if count < 0 {
                    refused = errno == EPIPE
                    break
                }
                written += count
            }
        }
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // The reader closed its end: the writer was refused (EPIPE) long before the end.
        #expect(refused, "imageprobe read all \(written) bytes")
        #expect(written < image.count + 512 * 1024, "wrote \(written) of \(body.count)")
        let line = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(line["width"] as? Int == 4000 && line["height"] as? Int == 3000)
        #expect(line["orientation"] as? Int == 6 && line["displayWidth"] as? Int == 3000)
        #expect((line["bytesRead"] as? Int ?? .max) <= image.count)
    }

    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
    func urlsInInputOrderWithTransferCounts() throws {
        let server = try NginxServer.require()
        let names = LargeFile.probed
        let urls = names.map { server.url("/range/\($0)").url.absoluteString }
        let failing = server.url("/range/no-such-image.jpg").url.absoluteString
        let run = try Self.run(["--json", "-j", "3"] + urls + [failing])
        #expect(run.status == 3, "one input could not be fetched")
        let lines = run.lines
        #expect(lines.map { $0["path"] as? String } == urls + [failing])
        for (line, name) in zip(lines, names) {
            let file = server.file(name)
            #expect(line["format"] as? String == file.format.name.description)
            #expect(line["width"] as? Int == file.width)
            #expect(line["height"] as? Int == file.height)
            #expect(line["orientation"] as? Int == file.orientation.map { Int($0.rawValue) })
            let transferred = try #require(line["bytesTransferred"] as? Int)
            #expect(transferred > 0 && transferred < 16 * 1024)
            #expect((line["requests"] as? Int ?? 0) >= 2)
        }
        let error = try #require(lines.last)
        #expect(error["error"] as? String == "httpStatus")
        #expect(error["status"] as? Int == 404)
        // Text mode: on standard error, the status the server answered with.
        let text = try CLIHabitTests.run([failing])
        #expect(text.status == 3)
        #expect(text.errors == "imageprobe: \(failing): the server answered with an error status (HTTP 404)\n", "\(text.errors)")
    }

    /// A scratch directory for one test.
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imageprobe-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func byteCountsDontDependOnTheChunkSize() throws {
        // IFD0 200 KB in: part of the gap is in the first 64 KiB read (read, counted as read),
        // the rest is jumped. The same counts whatever the chunk size.
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let layout = TIFFBuilder(entries: [.width(300), .height(200), .orientation(6)], gapBeforeIFD: 200_000)
        let tiff = layout.build()
        let file = directory.appendingPathComponent("gap.tif")
        try Data(tiff).write(to: file)
        var answers: [String] = []
        for chunk in [nil, "1", "7", "4096"] {
            let run = try Self.run(["--json"] + (chunk.map { ["--chunk-size", $0] } ?? []) + [file.path])
            #expect(run.status == 0)
            answers.append(run.output)
        }
        #expect(Set(answers).count == 1, "\(answers)")
        let line = try #require(try Self.run(["--json", file.path]).lines.first)
        // The first 64 KiB block, then IFD0's entries after the jump.
        #expect(line["bytesRead"] as? Int == 65536 + layout.ifd0End - layout.ifd0Offset)
        #expect((line["bytesSkipped"] as? Int ?? 0) > 100_000)
        #expect(line["width"] as? Int == 300)
    }

    @Test func aDOSEPSPreviewIsNoted() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let postScript = EPSBuilder.document(box: "0 0 120 90").bytes
        var lines: [[String: Any]] = []
        for preview in [EPSBuilder.Preview.tiff, .windowsMetafile, .none] {
            let file = directory.appendingPathComponent("picture-\(lines.count).eps")
            try Data(EPSBuilder.dos(postScript: postScript, preview: preview).bytes).write(to: file)
            lines.append(try #require(try Self.run(["--json", file.path]).lines.first))
        }
        #expect(lines.map { $0["format"] as? String } == ["eps", "eps", "eps"])
        #expect(lines.map { $0["width"] as? Int } == [120, 120, 120])
        #expect(lines.map { $0["preview"] as? String } == ["tiff", "wmf", nil])
        #expect(lines[0]["mime"] as? String == "image/x-eps")
    }

    @Test func aJumpBeyondAnyOffsetIsTruncationNotAnIOError() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bigTIFF = ascii("II")
        bigTIFF.append16(43, .littleEndian)
        bigTIFF.append16(8, .littleEndian)
        bigTIFF.append16(0, .littleEndian)
        bigTIFF.append64(UInt64(1) << 63 + 5, .littleEndian)
        let file = directory.appendingPathComponent("far.tif")
        try Data(bigTIFF).write(to: file)
        let seeking = try #require(try Self.run(["--json", file.path]).lines.first)
        let reading = try #require(try Self.run(["--json", "--no-seek", file.path]).lines.first)
        #expect(seeking["error"] as? String == "truncated")
        #expect(reading["error"] as? String == "truncated")
    }

    /// A file whose header is past `maxBytes`, from a server that ignores Range: the same
    /// answer and exit status over HTTP/1.1, TLS and HTTP/2. The network's budget counts heads
    /// and framing too, so it trips before the scanner's: an I/O failure (exit 3), a network
    /// limit, not the scanner's "header not found within maxBytes".
    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
    func aBodyPastTheLimitIsTheSameFailureOnEveryProtocol() throws {
        let server = try NginxServer.require()
        var seen: [String] = []
        for (tls, http2) in [(false, false), (true, false), (true, true)] {
            let (url, _) = server.url("/norange/sparse.tif", tls: tls, http2: http2)
            let run = try Self.run(["--json", "--cacert", server.certificate.path, url.absoluteString])
            let line = try #require(run.lines.first)
            #expect(run.status == 3, "\(run.output)")
            #expect(line["error"] as? String == "limitExceeded", "\(run.output)")
            #expect((line["message"] as? String)?.contains("off the network") == true, "\(run.output)")
            seen.append("\(run.status) \(line["error"] ?? "")")
        }
        #expect(Set(seen).count == 1, "\(seen)")
    }

    @Test func specialFilesAndOddNames() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A FIFO with no writer is refused at once, not waited on.
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let fifoRun = try Self.run(["--json", fifo])
        #expect(fifoRun.status == 3)
        #expect(fifoRun.lines.first?["error"] as? String == "io")
        // A name with a newline stays on one line; a name that isn't UTF-8 is reported in place.
        let png = PNGBuilder.image(width: 4, height: 3)
        try Data(png).write(to: directory.appendingPathComponent("a\nb.png"))
        let bad: [CChar] = Array((directory.path + "/c\u{1}").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), 0]
        let descriptor = open(bad, O_CREAT | O_WRONLY, 0o600)
        #expect(descriptor >= 0)
        close(descriptor)
        try Data(png).write(to: directory.appendingPathComponent("d.png"))
        let human = try CLIHabitTests.run(["-r", directory.path])
        let lines = human.output.split(separator: "\n")
        // a\nb.png, c\u{1}\u{FF}, d.png in byte order; -r passes over the FIFO, as it isn't a
        // regular file. The name that isn't UTF-8 opens itself (an empty file: truncated).
        #expect(lines.count == 3, "\(human.output)")
        #expect(lines.first?.contains("a\\nb.png: png 4x3") == true)
        #expect(lines.dropFirst().first?.contains("c\\x01\\xFF: error: truncated") == true, "\(human.output)")
        #expect(lines.last?.contains("d.png: png 4x3") == true)
        #expect(human.status == 1)
    }

    @Test func recursiveOutputStartsBeforeTheWalkEnds() throws {
        // `a/` prints more than a pipe holds, so the program blocks writing while still in `a/`.
        // A file made in `z/` after the first line must then be listed: `z/` is read only when
        // the walk gets there, not up front.
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let early = directory.appendingPathComponent("a")
        let late = directory.appendingPathComponent("z")
        try FileManager.default.createDirectory(at: early, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: late, withIntermediateDirectories: true)
        let png = Data(PNGBuilder.image(width: 4, height: 3))
        let padding = String(repeating: "n", count: 100)
        for index in 0..<1_000 { try png.write(to: early.appendingPathComponent("\(padding)\(index).png")) }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["-r", directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        var received = Data()
        // readData(ofLength:): read(upToCount:) needs macOS 10.15.4, above the package's floor.
        while !received.contains(0x0A) {
            let more = reader.readData(ofLength: 1)
            if more.isEmpty { break }
            received += more
        }
        try png.write(to: late.appendingPathComponent("made-after-the-first-line.png"))
        received += reader.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(process.terminationStatus == 0)
        #expect(lines.count == 1_001)
        #expect(lines.last?.contains("z/made-after-the-first-line.png: png 4x3") == true, "\(lines.last ?? "")")
    }

    @Test func shortSkipsInASeekableFileDontSpendTheByteLimit() throws {
        // 1 MB of 8 KiB IDAT chunks, then eXIf: every skip is under the seek threshold, so the
        // chunks are read through. On a file that is bounded by its size, not by --max-bytes;
        // without seeking (a pipe), the limit ends the metadata search with a partial answer.
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let idat = PNGBuilder.chunk("IDAT", [UInt8](repeating: 0x5A, count: 8192))
        let chunks = (0..<128).flatMap { _ in idat }
        let png = PNGBuilder.image(width: 300, height: 200, afterData: chunks + PNGBuilder.exif(TIFFBuilder(entries: [.orientation(6)]).build()))
        let file = directory.appendingPathComponent("late-exif.png")
        try Data(png).write(to: file)
        for chunkSize in ["7", "65536"] {
            let run = try Self.run(["--json", "--max-bytes", "500000", "--chunk-size", chunkSize, file.path])
            let line = run.lines.first
            #expect(line?["orientation"] as? Int == 6, "\(run.output)")
            #expect(line?["partial"] == nil)
            #expect((line?["bytesRead"] as? Int ?? 0) + (line?["bytesSkipped"] as? Int ?? 0) > 1_000_000)
        }
        // `--no-seek` treats the file like a pipe.
        let noSeek = try Self.run(["--json", "--no-seek", "--max-bytes", "500000", file.path]).lines.first
        #expect(noSeek?["partialReason"] as? String == "limitExceeded")
        #expect(noSeek?["orientation"] is NSNull)
    }

    @Test func outOfRangeOptionsAreUsageErrors() throws {
        for arguments in [["--timeout", "99999999999999999"], ["--timeout", "0"], ["-j", "-3"], ["-j", "100000"], ["--max-bytes", "x"]] {
            let run = try Self.run(arguments + ["http://127.0.0.1:1/x.jpg"])
            #expect(run.status == 2, "\(arguments)")
        }
    }

    @Test(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
    func humanOutputForAURL() throws {
        let server = try NginxServer.require()
        let run = try Self.run([server.url("/range/mdat-first.heic").url.absoluteString])
        #expect(run.status == 0)
        #expect(run.output.contains("heif 4032×3024") || run.output.contains("4032x3024"), "\(run.output)")
        #expect(run.output.contains("requests"))
    }
}
