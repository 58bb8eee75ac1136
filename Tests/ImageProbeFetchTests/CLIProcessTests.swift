import Foundation
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
        let names = NginxIntegrationTests.largeFiles
        let urls = names.map { server.url("/range/\($0)").url.absoluteString }
        let failing = server.url("/range/no-such-image.jpg").url.absoluteString
        let run = try Self.run(["--json", "-j", "3"] + urls + [failing])
        #expect(run.status == 1, "one input failed")
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
    }

    @Test func outOfRangeOptionsAreUsageErrors() throws {
        for arguments in [["--timeout", "99999999999999999"], ["--timeout", "0"], ["-j", "-3"], ["--max-bytes", "x"]] {
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
