import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// nginx on a loopback port with a temporary configuration, serving the generated large files
/// under locations that behave differently (no Range, gzip label, redirects, errors, slow).
/// One server for the whole test run, stopped when the process exits.
///
/// Outside CI, a machine without nginx skips the network tests and says so; with
/// `IMAGEPROBE_REQUIRE_NGINX=1` (set by `.ci/run`) a missing nginx fails the run instead.
package final class NginxServer: Sendable {
    package let port: Int
    /// The same locations over TLS (HTTP/1.1), with a certificate made for this run.
    package let tlsPort: Int
    /// The same again over TLS with HTTP/2 offered (ALPN), which libcurl takes.
    package let http2Port: Int
    package let directory: URL
    package let files: [LargeFile]
    private let accessLog: URL
    /// The self-signed certificate of the TLS server, as a PEM file: the only authority the
    /// TLS tests trust (`FetchConfiguration.certificateAuthorities`, `--cacert`).
    package var certificate: URL { directory.appendingPathComponent("cert.pem") }

    /// The shared server, or why there is none.
    package static let shared: Result<NginxServer, NginxUnavailable> = start()

    package static var isAvailable: Bool { (try? shared.get()) != nil }

    package static var isRequired: Bool { ProcessInfo.processInfo.environment["IMAGEPROBE_REQUIRE_NGINX"] == "1" }

    /// Why the network tests don't run here, for the skip message (each test target makes it
    /// the `Comment` of its `.enabled(if:)` traits: this module doesn't import Testing).
    package static var skipMessage: String {
        switch shared {
        case .success: "nginx is running"
        case .failure(let reason): "nginx integration tests skipped: \(reason.message)"
        }
    }

    /// The server, or a test failure saying why there is none.
    package static func require() throws -> NginxServer {
        try shared.get()
    }

    private init(port: Int, tlsPort: Int, http2Port: Int, directory: URL, files: [LargeFile]) {
        self.port = port
        self.tlsPort = tlsPort
        self.http2Port = http2Port
        self.directory = directory
        self.files = files
        self.accessLog = directory.appendingPathComponent("access.log")
    }

    package func file(_ name: String) -> LargeFile { files.first { $0.name == name }! }

    /// A URL under `path` with a query token unique to this call, so its log lines can be told
    /// apart from those of tests running at the same time.
    package func url(_ path: String, tls: Bool = false, http2: Bool = false) -> (url: URL, token: String) {
        let token = UUID().uuidString.lowercased()
        let base = http2 ? "https://127.0.0.1:\(http2Port)" : tls ? "https://127.0.0.1:\(tlsPort)" : "http://127.0.0.1:\(port)"
        return (URL(string: "\(base)\(path)?t=\(token)")!, token)
    }

    package struct LogLine: Equatable {
        package var uri: String
        package var status: Int
        package var bytesSent: Int
        package var range: String
        /// nginx's `$request_time`: from the request's first byte to the log line, in seconds.
        /// The server's clock, so the test process being busy doesn't skew it.
        package var seconds: Double
        /// nginx's `$connection` (the connection's serial number) and `$connection_requests`
        /// (this request's number on it).
        package var connection: Int
        package var connectionRequest: Int
    }

    /// The access log lines for `token`, once there are at least `count` (nginx logs a request
    /// when it ends, which for a dropped connection is when its next write fails).
    package func log(token: String, atLeast count: Int, within seconds: Double = 10) async -> [LogLine] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var lines: [LogLine] = []
        repeat {
            let text = (try? String(contentsOf: accessLog, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").compactMap { line -> LogLine? in
                guard line.contains(token) else { return nil }
                // $request_uri $status $bytes_sent $request_time $connection $connection_requests "$http_range"
                let fields = line.split(separator: " ", maxSplits: 6)
                guard fields.count == 7, let status = Int(fields[1]), let sent = Int(fields[2]), let seconds = Double(fields[3]),
                      let connection = Int(fields[4]), let connectionRequest = Int(fields[5]) else { return nil }
                return LogLine(uri: String(fields[0]), status: status, bytesSent: sent,
                               range: fields[6].trimmingCharacters(in: ["\""]), seconds: seconds,
                               connection: connection, connectionRequest: connectionRequest)
            }
            // The deadline is checked after reading: a wait that overslept (a busy test run)
            // still reads the log once more.
            if lines.count >= count || Date() >= deadline { return lines }
            try? await pause(milliseconds: 20)
        } while true
    }

    // MARK: - Starting

    package struct NginxUnavailable: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    private static func findNginx() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["IMAGEPROBE_NGINX"] { return explicit }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"]
        return candidates.map { $0 + "/nginx" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func start() -> Result<NginxServer, NginxUnavailable> {
        guard let nginx = findNginx() else {
            return .failure(NginxUnavailable(message: "no nginx binary on PATH or in /usr/sbin (apt-get install -y nginx-light)"))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imageprobe-nginx-\(getpid())")
        let files: [LargeFile]
        do {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("files"), withIntermediateDirectories: true)
            files = try LargeFile.writeAll(into: directory.appendingPathComponent("files"))
        } catch {
            return .failure(NginxUnavailable(message: "could not write the test files: \(error)"))
        }
        if let failure = makeCertificate(in: directory) {
            return .failure(NginxUnavailable(message: "could not make the TLS certificate: \(failure)"))
        }
        var lastError = ""
        // A free port can be taken between asking for it and nginx binding it: try a few.
        for _ in 0..<5 {
            guard let port = freePort(), let tlsPort = freePort(), let http2Port = freePort(),
                  Set([port, tlsPort, http2Port]).count == 3 else { break }
            let config = configuration(directory: directory, port: port, tlsPort: tlsPort, http2Port: http2Port)
            let configURL = directory.appendingPathComponent("nginx.conf")
            do { try config.write(to: configURL, atomically: true, encoding: .utf8) } catch { lastError = "\(error)"; continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: nginx)
            process.arguments = ["-p", directory.path + "/", "-c", configURL.path, "-e", directory.appendingPathComponent("error.log").path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { lastError = "\(error)"; continue }
            if waitUntilListening(port: port, process: process) && waitUntilListening(port: tlsPort, process: process)
                && waitUntilListening(port: http2Port, process: process) {
                runningNginx = process.processIdentifier
                nginxDirectory = directory.path
                // At exit: stop nginx and remove its files (17 MB a run, left in /tmp before).
                atexit {
                    if runningNginx > 0 {
                        kill(runningNginx, SIGTERM)
                        // Up to 2 s for it to exit, so the removal doesn't race its last writes.
                        var status: Int32 = 0
                        for _ in 0..<200 where waitpid(runningNginx, &status, WNOHANG) == 0 { usleep(10_000) }
                    }
                    if let nginxDirectory { try? FileManager.default.removeItem(atPath: nginxDirectory) }
                }
                return .success(NginxServer(port: port, tlsPort: tlsPort, http2Port: http2Port, directory: directory, files: files))
            }
            if process.isRunning { process.terminate() }
            lastError = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? "nginx did not start"
        }
        return .failure(NginxUnavailable(message: "nginx (\(nginx)) did not start: \(lastError)"))
    }

    /// A self-signed certificate for 127.0.0.1 and localhost, made with openssl.
    private static func makeCertificate(in directory: URL) -> String? {
        let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        guard let openssl = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return "no openssl (apt-get install -y openssl)"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", directory.appendingPathComponent("key.pem").path,
                             "-out", directory.appendingPathComponent("cert.pem").path,
                             "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return "\(error)" }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "openssl exited with \(process.terminationStatus)"
    }

    private static func configuration(directory: URL, port: Int, tlsPort: Int, http2Port: Int) -> String {
        let root = directory.appendingPathComponent("files").path + "/"
        let temp = directory.path
        return """
        \(getuid() == 0 ? "user root;" : "")
        worker_processes 1;
        daemon off;
        pid \(temp)/nginx.pid;
        events { worker_connections 512; }
        http {
            log_format probe '$request_uri $status $bytes_sent $request_time $connection $connection_requests "$http_range"';
            access_log \(temp)/access.log probe;
            client_body_temp_path \(temp)/client_temp;
            proxy_temp_path \(temp)/proxy_temp;
            fastcgi_temp_path \(temp)/fastcgi_temp;
            uwsgi_temp_path \(temp)/uwsgi_temp;
            scgi_temp_path \(temp)/scgi_temp;
            types { image/jpeg jpg; image/tiff tif; image/heic heic; image/webp webp; }
            default_type application/octet-stream;
            sendfile on;
            keepalive_timeout 120s;
            server {
                listen 127.0.0.1:\(tlsPort) ssl;
                ssl_certificate \(temp)/cert.pem;
                ssl_certificate_key \(temp)/key.pem;
                location /range/ { alias \(root); }
                location /norange/ { alias \(root); max_ranges 0; }
            }
            server {
                listen 127.0.0.1:\(http2Port) ssl http2;
                ssl_certificate \(temp)/cert.pem;
                ssl_certificate_key \(temp)/key.pem;
                location /range/ { alias \(root); }
                location /norange/ { alias \(root); max_ranges 0; }
            }
            server {
                listen 127.0.0.1:\(port);
                location /range/ { alias \(root); }
                location /norange/ { alias \(root); max_ranges 0; }
                location /gzip/ { alias \(root); add_header Content-Encoding gzip; }
                location /slow/ { alias \(root); limit_rate 16; }
                location ~ ^/redirect/(.*)$ { return 302 /range/$1$is_args$args; }
                location /loop/a { return 302 /loop/b$is_args$args; }
                location /loop/b { return 302 /loop/a$is_args$args; }
                location /status/500 { return 500; }
                location /missing-content-range { return 206 "abc"; }
                location /wrong-content-range { add_header Content-Range "bytes 100-200/1000" always; return 206 "abc"; }
                location /drop { return 444; }
            }
        }
        """
    }

    /// A loopback port nothing listens on now.
    private static func freePort() -> Int? {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    private static func waitUntilListening(port: Int, process: Process) -> Bool {
        for _ in 0..<250 {
            guard process.isRunning else { return false }
            let descriptor = socket(AF_INET, streamSocket, 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(descriptor)
            if connected { return true }
            usleep(20_000)
        }
        return false
    }
}

/// The nginx master's process ID, for the exit handler.
nonisolated(unsafe) private var runningNginx: pid_t = 0
nonisolated(unsafe) private var nginxDirectory: String? = nil
