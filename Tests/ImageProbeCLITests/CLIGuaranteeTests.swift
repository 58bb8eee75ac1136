import Foundation
import ImageProbeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The command as a new user would run it, measured from outside: its peak memory, what the
/// server sent, and what reached it.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct CLIGuaranteeTests {
    struct Measured {
        var status: Int32
        var output: String
        /// Peak resident set, KiB (`ru_maxrss`, which Darwin gives in bytes: converted).
        var peakKiB: Int
        var seconds: Double
        var lines: [[String: Any]] {
            output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// Runs `executable` with `arguments`, and reads its peak memory from `wait4`.
    static func run(_ executable: String, _ arguments: [String]) throws -> Measured {
        var actions = newSpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Moment.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)
        }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let elapsed = (Moment.now - start).seconds
        return Measured(status: (status >> 8) & 0xFF, output: String(decoding: output, as: UTF8.self),
                        peakKiB: Int(usage.ru_maxrss) / maxrssPerKiB, seconds: elapsed)
    }

    static var imageprobe: String { CLIProcessTests.executable.path }

    /// Runs the command through a small Python parent that forks and execs it, and reads its
    /// peak memory from that parent's `wait4`. Spawning it from this process directly would
    /// report this process's peak instead: `posix_spawn` shares this process's memory until
    /// the exec, and Linux records that memory's high-water mark for the child.
    static func runMeasuringPeak(_ arguments: [String]) throws -> Measured {
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            sys.stdout.write("maxrss %d\\n" % usage.ru_maxrss)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        var run = try Self.run("/usr/bin/python3", ["-c", script, imageprobe] + arguments)
        var lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        if let last = lines.last, last.hasPrefix("maxrss "), let peak = Int(last.dropFirst(7)) {
            run.peakKiB = peak
            lines.removeLast()
            run.output = lines.joined(separator: "\n")
        } else {
            run.peakKiB = .max
        }
        return run
    }

    @Test func oneGibibyteOverTLSWithoutRange() async throws {
        let server = try NginxServer.require()
        let (url, token) = server.url("/norange/gibibyte.png", tls: true)
        let run = try Self.runMeasuringPeak(["--json", "--dimensions-only", "--cacert", server.certificate.path, url.absoluteString])
        let line = try #require(run.lines.first, "\(run.output)")
        #expect(line["width"] as? Int == 640 && line["height"] as? Int == 480)
        let sent = await server.log(token: token, atLeast: 1).reduce(0) { $0 + $1.bytesSent }
        print("1 GiB over TLS without Range: peak RSS \(run.peakKiB) KiB, nginx sent \(sent) bytes, \(run.seconds) s")
        #expect(run.peakKiB < 100 * 1024, "peak RSS \(run.peakKiB) KiB")
        #expect(sent < 4 << 20, "nginx sent \(sent)")
        #expect(run.seconds < 10)
    }

    @Test func aJPEGNeedingThreeRequestsUsesOneConnection() async throws {
        let server = try NginxServer.require()
        let (url, token) = server.url("/range/big.jpg")
        let run = try Self.run(Self.imageprobe, ["--json", url.absoluteString])
        #expect(run.lines.first?["requests"] as? Int == 3)
        let lines = await server.log(token: token, atLeast: 3)
        print("big.jpg: \(lines.count) requests on \(Set(lines.map(\.connection)).count) connection(s)")
        #expect(lines.count == 3 && Set(lines.map(\.connection)).count == 1, "\(lines)")
    }

    @Test func fiftyConcurrentProbesOfOneURLCostTheRequestsOfOne() async throws {
        let server = try NginxServer.require()
        let (url, token) = server.url("/range/big.jpg")
        let run = try Self.run(Self.imageprobe, ["--json", "-j", "50"] + Array(repeating: url.absoluteString, count: 50))
        #expect(run.lines.count == 50 && run.lines.allSatisfy { $0["width"] as? Int == 4000 })
        let lines = await server.log(token: token, atLeast: 3)
        try await pause(milliseconds: 200)
        let again = await server.log(token: token, atLeast: 3)
        print("-j 50 with one URL 50 times: \(again.count) requests")
        #expect(lines.count == 3 && again.count == 3)
    }

    @Test func publicOnlyRefusesEveryLoopbackSpelling() async throws {
        let server = try NginxServer.require()
        let token = UUID().uuidString.lowercased()
        let urls = loopbackSpellings(port: server.port).map { $0.replacingOccurrences(of: "/image", with: "/range/big.jpg?t=\(token)") }
        let run = try Self.run(Self.imageprobe, ["--json", "--public-only"] + urls)
        #expect(run.status == 3, "network errors")
        #expect(run.lines.count == urls.count)
        for line in run.lines { #expect(line["error"] as? String == "forbiddenAddress", "\(line)") }
        try await pause(milliseconds: 300)
        #expect(await server.log(token: token, atLeast: 1, within: 0.2).isEmpty, "no request reached nginx")
    }

    /// `unshare -m`: a private mount namespace, where a test resolv.conf can be bound over
    /// /etc/resolv.conf for one process. Needs root (CI runs as root).
    static let canUnshare: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        return (try? run("/usr/bin/unshare", ["-m", "true"]).status) == 0
    }()

    #if os(Linux)
    // Linux only: a private mount namespace for resolv.conf, and FIONREAD as Glibc spells it.
    @Test(.enabled(if: canUnshare, "needs root and unshare(1) for a private /etc/resolv.conf"))
    func aSilentSystemResolverGivesTimeoutWithinTheDeadline() throws {
        // A UDP socket that never answers, as the only name server in resolv.conf.
        let address = "127.83.\(Int.random(in: 1...250)).\(Int.random(in: 1...250))"
        let udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(udp) }
        var bound = sockaddr_in()
        bound.sin_family = sa_family_t(AF_INET)
        bound.sin_addr.s_addr = inet_addr(address)
        bound.sin_port = in_port_t(UInt16(53).bigEndian)
        let bindResult = withUnsafePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(udp, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        try #require(bindResult == 0)
        let directory = try CLIProcessTests.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let resolvConf = directory.appendingPathComponent("resolv.conf")
        try "nameserver \(address)\noptions timeout:30 attempts:1\n".write(to: resolvConf, atomically: true, encoding: .utf8)
        let run = try Self.run("/usr/bin/unshare", ["-m", "sh", "-c", "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"",
                                                    resolvConf.path, Self.imageprobe, "--json", "--timeout", "1", "http://images.example/a.jpg"])
        let line = try #require(run.lines.first, "\(run.output)")
        print("--timeout 1 with a silent resolver: \(line["error"] ?? "?") after \(run.seconds) s")
        #expect(line["error"] as? String == "timeout", "\(line)")
        // The resolver alone would take 30 s; loose, for a busy run (process starts included).
        #expect(run.seconds < 15)
        // The query reached the black hole.
        var pending: Int32 = 0
        _ = ioctl(udp, UInt(FIONREAD), &pending)
        #expect(pending > 0, "no query reached the silent resolver")
    }
    #endif
}
