import Foundation
import ImageProbe
import ImageProbeFetch
import ImageProbeTestSupport
import Testing

/// The fetcher against a real nginx: answers, the bytes nginx logged as sent, and each
/// failure's error. See `NginxServer` for the locations.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct NginxIntegrationTests {
    static let largeFiles = LargeFile.probed
    static let transports: [FetchConfiguration.Transport] = [.platform, .urlSession]

    /// What one probe cost, from both ends.
    struct Measurement {
        var result: Result<ProbeResult, FetchError>
        var log: [NginxServer.LogLine]
        var seconds: Double
        var nginxBytes: Int { log.reduce(0) { $0 + $1.bytesSent } }
    }

    static func configuration(_ transport: FetchConfiguration.Transport, _ change: (inout FetchConfiguration) -> Void = { _ in }) -> FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.transport = transport
        configuration.cacheCapacity = 0
        configuration.requestTimeout = 10
        change(&configuration)
        return configuration
    }

    /// Probes `path` once and collects nginx's log lines for it.
    static func measure(_ path: String, _ configuration: FetchConfiguration, expectedLines: Int? = nil,
                        logWait: Double = 10) async throws -> Measurement {
        let server = try NginxServer.require()
        let (url, token) = server.url(path)
        let fetcher = ImageProbeFetcher(configuration: configuration)
        let start = Moment.now
        let result: Result<ProbeResult, FetchError>
        do throws(FetchError) {
            result = .success(try await fetcher.probe(url))
        } catch {
            result = .failure(error)
        }
        let elapsed = Moment.now - start
        let lines = expectedLines ?? ((try? result.get().requests) ?? 1)
        let log = await server.log(token: token, atLeast: lines, within: logWait)
        return Measurement(result: result, log: log, seconds: elapsed.seconds)
    }

    static func expectAnswer(_ result: ProbeResult, _ file: LargeFile, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.info.format == file.format, sourceLocation: sourceLocation)
        #expect(result.info.width == file.width, sourceLocation: sourceLocation)
        #expect(result.info.height == file.height, sourceLocation: sourceLocation)
        #expect(result.info.orientation == file.orientation, sourceLocation: sourceLocation)
        #expect(!result.info.isPartial, sourceLocation: sourceLocation)
    }

    // MARK: - Range server

    @Test(arguments: largeFiles, transports)
    func rangeServerSendsAFewKiB(name: String, transport: FetchConfiguration.Transport) async throws {
        let file = try NginxServer.require().file(name)
        let measured = try await Self.measure("/range/\(name)", Self.configuration(transport))
        let result = try measured.result.get()
        Self.expectAnswer(result, file)
        #expect(measured.log.count == result.requests)
        #expect(measured.log.allSatisfy { $0.status == 206 && $0.range.hasPrefix("bytes=") })
        // A few KiB whatever the file's size.
        #expect(measured.nginxBytes < 16 * 1024, "nginx sent \(measured.nginxBytes) bytes")
        if transport == .platform {
            // Heads are counted at both ends; the probe may stop before the last response ends.
            #expect(result.bytesTransferred <= measured.nginxBytes)
        }
    }

    @Test func skipsBecomeRangeJumps() async throws {
        let server = try NginxServer.require()
        // The TIFF's IFD0 is at 100,000,000: the second request starts there.
        let tiff = try await Self.measure("/range/sparse.tif", Self.configuration(.platform))
        // The second asks for 1 KiB past IFD0's offset, trimmed to the file's end.
        let end = server.file("sparse.tif").size - 1
        #expect(tiff.log.map(\.range) == ["bytes=0-1023", "bytes=100000000-\(end)"])
        // The HEIF's meta follows a 5 MB mdat: jumped, not read.
        let heif = try await Self.measure("/range/mdat-first.heic", Self.configuration(.platform))
        #expect(heif.log.count == 2)
        let second = try #require(heif.log.last?.range.dropFirst("bytes=".count).split(separator: "-").first)
        #expect(Int(second) ?? 0 > 5_000_000)
        #expect(try heif.result.get().info.width == server.file("mdat-first.heic").width)
    }

    @Test func exactRequestsWhenTheMinimumIsOne() async throws {
        // Without a floor or growth, each request asks for exactly what the scanner needs next.
        let measured = try await Self.measure("/range/animated-exif-last.webp", Self.configuration(.platform) {
            $0.minimumRequest = 1
            $0.requestGrowth = 0
        })
        let result = try measured.result.get()
        Self.expectAnswer(result, try NginxServer.require().file("animated-exif-last.webp"))
        let bodies = measured.log.compactMap { line -> Int? in
            let bounds = line.range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
            return bounds.count == 2 ? bounds[1] - bounds[0] + 1 : nil
        }
        #expect(bodies.first == 1024)
        // After each 1 MB frame is jumped, the next chunk header (8 bytes), then the EXIF fields.
        #expect(bodies.dropFirst().allSatisfy { $0 <= 16 }, "later requests ask for what's needed: \(bodies)")
    }

    // MARK: - Server without Range

    @Test(arguments: largeFiles, transports)
    func serverIgnoringRange(name: String, transport: FetchConfiguration.Transport) async throws {
        let file = try NginxServer.require().file(name)
        let measured = try await Self.measure("/norange/\(name)", Self.configuration(transport), expectedLines: 1)
        #expect(measured.log.count == 1 && measured.log.first?.status == 200)
        switch name {
        case "sparse.tif":
            // IFD0 is 100 MB in, past the scanner's 16 MiB read limit: a clear error, not a download.
            #expect(measured.result.failureCode == .limitExceeded)
        default:
            let result = try measured.result.get()
            Self.expectAnswer(result, file)
            #expect(result.requests == 1)
        }
        if transport == .platform && name == "big.jpg" {
            // The answer is 131 KiB in; the small receive window bounds what follows. nginx logs
            // what its kernel accepted, which is more than crossed the wire, but not the file.
            #expect(try measured.result.get().bytesTransferred < 200 * 1024)
            #expect(measured.nginxBytes < file.size, "nginx sent \(measured.nginxBytes) of \(file.size)")
        }
    }

    // MARK: - Failures

    struct ErrorCase: Sendable, CustomStringConvertible {
        var path: String
        var code: FetchError.Code
        var status: Int?
        var description: String { path }
    }

    static let errorCases = [
        ErrorCase(path: "/range/no-such-image.jpg", code: .httpStatus, status: 404),
        ErrorCase(path: "/status/500", code: .httpStatus, status: 500),
        ErrorCase(path: "/gzip/big.jpg", code: .contentEncoded, status: 206),
        ErrorCase(path: "/loop/a", code: .redirectLoop, status: 302),
        ErrorCase(path: "/missing-content-range", code: .badContentRange, status: 206),
        ErrorCase(path: "/wrong-content-range", code: .badContentRange, status: 206),
    ]

    @Test(arguments: errorCases, transports)
    func failuresSayWhy(_ failure: ErrorCase, transport: FetchConfiguration.Transport) async throws {
        let measured = try await Self.measure(failure.path, Self.configuration(transport))
        #expect(measured.result.failureCode == failure.code, "\(measured.result)")
        #expect(measured.result.failureStatus == failure.status)
        #expect(!measured.log.isEmpty)
    }

    @Test(arguments: transports)
    func truncatedImage(transport: FetchConfiguration.Transport) async throws {
        let measured = try await Self.measure("/range/truncated.jpg", Self.configuration(transport))
        #expect(measured.result.failureCode == .scan)
        #expect(measured.result.scanFailureCode == .truncated)
    }

    @Test(arguments: transports)
    func redirectIsFollowed(transport: FetchConfiguration.Transport) async throws {
        let server = try NginxServer.require()
        let measured = try await Self.measure("/redirect/big.jpg", Self.configuration(transport))
        let result = try measured.result.get()
        Self.expectAnswer(result, server.file("big.jpg"))
        #expect(result.finalURL.path == "/range/big.jpg")
        #expect(measured.log.first?.status == 302)
        #expect(measured.log.dropFirst().allSatisfy { $0.status == 206 })
        #expect(measured.log.count == result.requests)
    }

    @Test(arguments: transports)
    func metadataSearchIsBoundedOnceTheSizeIsKnown(transport: FetchConfiguration.Transport) async throws {
        // A 4.9 MB PNG of 8 KiB IDAT chunks: the size is in the first request. Animation mode
        // walks to IEND (a late eXIf, frames); that search stops after maxMetadataRequests with
        // the size, marked partial.
        let file = try NginxServer.require().file("idat-chunks.png")
        let configuration = Self.configuration(transport) { $0.scanOptions.mode = .animation }
        let measured = try await Self.measure("/range/idat-chunks.png", configuration)
        let result = try measured.result.get()
        #expect(result.info.format == .png && result.info.width == file.width && result.info.height == file.height)
        #expect(result.info.orientation == nil)
        #expect(result.info.partialReason?.code == .limitExceeded)
        #expect(result.requests == 1 + configuration.maxMetadataRequests)
        let sent = measured.log.reduce(0) { $0 + $1.bytesSent }
        #expect(sent < 256 * 1024, "nginx sent \(sent) of \(file.size) bytes")
        // Dimensions only, and full mode, which stops at the image data over HTTP: one request.
        for mode in [ScanOptions.Mode.dimensionsOnly, .full] {
            let quick = try await Self.measure("/range/idat-chunks.png", Self.configuration(transport) { $0.scanOptions.mode = mode })
            #expect(try quick.result.get().requests == 1)
            #expect(try quick.result.get().info.isPartial == false)
        }
    }

    @Test func aLimitAfterTheSizeGivesAPartialAnswer() async throws {
        // The transfer limit and the request limit end animation mode's walk, not the answer.
        for limit in [{ (c: inout FetchConfiguration) in c.maxBytes = 20_000 }, { (c: inout FetchConfiguration) in c.maxRequests = 3 }] {
            let measured = try await Self.measure("/range/idat-chunks.png", Self.configuration(.platform) {
                limit(&$0)
                $0.scanOptions.mode = .animation
            })
            let info = try measured.result.get().info
            #expect(info.width == 3000 && info.partialReason?.code == .limitExceeded)
        }
        // Without Range: streamed until maxBytes, then the size, marked partial.
        let measured = try await Self.measure("/norange/idat-chunks.png", Self.configuration(.platform) {
            $0.maxBytes = 100_000
            $0.scanOptions.mode = .animation
        })
        #expect(try measured.result.get().info.partialReason?.code == .limitExceeded)
    }

    /// Concurrent probes of one host: over HTTP/1.1 on at most `maxConnectionsPerHost`
    /// connections, over HTTP/2 on one, multiplexed (libcurl; SPEC.md §6.2).
    @Test(arguments: [false, true])
    func probesOfOneHostShareItsConnections(http2: Bool) async throws {
        let server = try NginxServer.require()
        let fetcher = ImageProbeFetcher(configuration: Self.configuration(.platform) {
            $0.maxConnectionsPerHost = 2
            $0.maxConcurrentRequests = 16
            $0.certificateAuthorities = server.certificate
        })
        let probes = (0..<16).map { _ in server.url("/range/big.jpg", tls: http2, http2: http2) }
        await withTaskGroup(of: Void.self) { group in
            for (url, _) in probes { group.addTask { _ = try? await fetcher.probe(url) } }
        }
        var connections = Set<Int>()
        var requests = 0
        for (_, token) in probes {
            for line in await server.log(token: token, atLeast: 1) {
                connections.insert(line.connection)
                requests += 1
            }
        }
        #expect(requests >= 16)
        #expect(connections.count == (http2 ? 1 : 2), "\(connections.count) connections for \(requests) requests")
    }

    @Test func redirectLimit() async throws {
        let measured = try await Self.measure("/redirect/big.jpg", Self.configuration(.platform) { $0.maxRedirects = 0 })
        #expect(measured.result.failureCode == .tooManyRedirects)
    }

    @Test(arguments: transports)
    func slowServerTimesOut(transport: FetchConfiguration.Transport) async throws {
        // 16 bytes a second: the first 1 KiB would take over a minute. The timeout leaves room
        // for the request to reach nginx on a loaded machine (under ThreadSanitizer in CI a
        // 700 ms timeout could expire before URLSession had sent anything, and nginx logged
        // nothing).
        let measured = try await Self.measure("/slow/big.jpg", Self.configuration(transport) { $0.requestTimeout = 2 },
                                              logWait: 45)
        #expect(measured.result.failureCode == .timeout)
        // nginx logs the request when it sees the connection closed: well before the 64 s the
        // whole first KiB would take. (A run slowed by other tests may time out before the
        // request reaches nginx at all; the guarantee here is the timeout.)
        #expect(measured.log.count <= 1)
        #expect(measured.log.allSatisfy { $0.seconds < 30 }, "\(measured.log)")
    }

    @Test(arguments: transports)
    func connectionDroppedBeforeTheHead(transport: FetchConfiguration.Transport) async throws {
        let measured = try await Self.measure("/drop", Self.configuration(transport))
        #expect(measured.result.failureCode == .connection)
    }

    @Test func transferLimit() async throws {
        let measured = try await Self.measure("/range/big.jpg", Self.configuration(.platform) { $0.maxBytes = 2000 })
        #expect(measured.result.failureCode == .limitExceeded)
    }

    // MARK: - Cache, cancellation, concurrency

    @Test func cacheAnswersWithoutARequestUntilForced() async throws {
        let server = try NginxServer.require()
        let (url, token) = server.url("/range/big.jpg")
        let fetcher = ImageProbeFetcher(configuration: Self.configuration(.platform) { $0.cacheCapacity = 4 })
        let first = try await fetcher.probe(url)
        let afterFirst = await server.log(token: token, atLeast: first.requests).count
        let cached = try await fetcher.probe(url)
        #expect(cached.fromCache && cached.requests == 0 && cached.info == first.info)
        let forced = try await fetcher.probe(url, force: true)
        #expect(!forced.fromCache && forced.requests == first.requests)
        let lines = await server.log(token: token, atLeast: afterFirst + forced.requests)
        #expect(lines.count == first.requests + forced.requests, "the cached probe sent nothing")
    }

    @Test(arguments: transports)
    func cancellationStopsTheTransfer(transport: FetchConfiguration.Transport) async throws {
        let server = try NginxServer.require()
        let (url, token) = server.url("/slow/big.jpg")
        // No time limit can end the probe before the cancel.
        let fetcher = ImageProbeFetcher(configuration: Self.configuration(transport) {
            $0.requestTimeout = 600
            $0.probeTimeout = 600
        })
        let task = Task { await Result(probing: { () throws(FetchError) in try await fetcher.probe(url) }) }
        // Cancel one second in, from a thread of its own: a sleep on the cooperative pool can
        // resume minutes late while the CPU-heavy tests hold it (seen under AddressSanitizer).
        // If the probe itself starts late, the cancel comes first: then no request is logged.
        Thread {
            Thread.sleep(forTimeInterval: 1)
            task.cancel()
        }.start()
        let result = await task.value
        #expect(result.failureCode == .cancelled)
        // The transfer ended at the cancel (nginx's clock), not at the end of the slow minute
        // the first KiB takes: the probe runs on its own thread, so nothing delays the close.
        let log = await server.log(token: token, atLeast: 1, within: 15)
        #expect(log.count <= 1, "no line if the cancel came before the request")
        #expect(log.allSatisfy { $0.seconds < 11 }, "\(log)")
    }

    @Test func manyURLsAtOnce() async throws {
        let server = try NginxServer.require()
        let fetcher = ImageProbeFetcher(configuration: Self.configuration(.platform) { $0.maxConcurrentRequests = 3 })
        let names = Array(repeating: Self.largeFiles, count: 3).flatMap { $0 }
        let widths = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for name in names {
                group.addTask { (name, try await fetcher.probe(server.url("/range/\(name)").url).info.width) }
            }
            return try await group.reduce(into: [(String, Int)]()) { $0.append($1) }
        }
        #expect(widths.count == names.count)
        for (name, width) in widths { #expect(width == server.file(name).width) }
    }

    @Test func completionHandlerForm() async throws {
        let server = try NginxServer.require()
        let fetcher = ImageProbeFetcher(configuration: Self.configuration(.platform))
        let result = await withCheckedContinuation { continuation in
            fetcher.probe(server.url("/range/big.jpg").url, queue: .global()) { continuation.resume(returning: $0) }
        }
        Self.expectAnswer(try result.get(), server.file("big.jpg"))
    }

    // MARK: - Without nginx

    @Test(arguments: transports)
    func bodyCutShortOfItsLength(transport: FetchConfiguration.Transport) async throws {
        // A 200 with Content-Length 1,000,000 whose connection closes 100 bytes into the JPEG.
        let image = Array(LargeFile.jpegHeader(orientation: 1, width: 8, height: 8).prefix(100))
        let server = try RawServer(.sendThenClose(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n".utf8) + image))
        defer { server.stop() }
        let result = await Result(probing: { () throws(FetchError) in try await ImageProbeFetcher(configuration: Self.configuration(transport)).probe(server.url) })
        #expect(result.failureCode == .scan)
        #expect(result.scanFailureCode == .truncated)
    }

    @Test(arguments: transports)
    func silentServerTimesOut(transport: FetchConfiguration.Transport) async throws {
        let server = try RawServer(.silent)
        defer { server.stop() }
        let fetcher = ImageProbeFetcher(configuration: Self.configuration(transport) { $0.requestTimeout = 0.3 })
        let result = await Result(probing: { () throws(FetchError) in try await fetcher.probe(server.url) })
        #expect(result.failureCode == .timeout)
    }

    @Test func unsupportedAndUnreachableURLs() async throws {
        let fetcher = ImageProbeFetcher(configuration: Self.configuration(.platform))
        let ftp = await Result(probing: { () throws(FetchError) in try await fetcher.probe(URL(string: "ftp://127.0.0.1/a.jpg")!) })
        #expect(ftp.failureCode == .unsupportedURL)
        // A port nothing listens on: the raw server's, once stopped.
        let server = try RawServer(.silent)
        server.stop()
        let refused = await Result(probing: { () throws(FetchError) in try await fetcher.probe(server.url) })
        #expect(refused.failureCode == .connection)
    }
}

/// Where CI promises nginx (`IMAGEPROBE_REQUIRE_NGINX=1`), its absence fails the run
/// instead of skipping the network tests.
@Suite struct NginxPresence {
    @Test func nginxIsThereWhenRequired() {
        if NginxServer.isRequired, case .failure(let reason) = NginxServer.shared {
            Issue.record("IMAGEPROBE_REQUIRE_NGINX=1 but \(reason.message)")
        }
        if !NginxServer.isAvailable {
            print("warning: \(NginxServer.skipReason)")
        }
    }
}

/// Prints the transfer table of SPEC.md §6.3 (`swift test --filter transferTable`): each file
/// from a fresh fetcher, over http and https, from a server with and without Range.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct NginxTransferTable {
    @Test func transferTable() async throws {
        let server = try NginxServer.require()
        var rows = ["| file | size | server | scheme | nginx sent | received | requests | connections | time |",
                    "|---|---:|---|---|---:|---:|---:|---:|---:|"]
        for name in NginxIntegrationTests.largeFiles + ["gibibyte.png"] {
            let setups: [(label: String, location: String, exact: Bool, tls: Bool)] = [
                ("Range", "/range/", false, false), ("Range", "/range/", false, true), ("Range, exact", "/range/", true, false),
                ("no Range", "/norange/", false, false), ("no Range", "/norange/", false, true),
            ]
            for (label, location, exact, tls) in setups {
                var configuration = NginxIntegrationTests.configuration(.platform) {
                    if exact {
                        $0.minimumRequest = 1
                        $0.requestGrowth = 0
                    }
                }
                configuration.certificateAuthorities = server.certificate
                let (url, token) = server.url(location + name, tls: tls)
                let fetcher = ImageProbeFetcher(configuration: configuration)
                let (result, elapsed) = await GuaranteeTests.timedProbe(fetcher, url)
                let log = await server.log(token: token, atLeast: (try? result.get().requests) ?? 1)
                let outcome: String
                switch result {
                case .success(let result): outcome = "\(result.bytesTransferred) | \(result.requests)"
                case .failure(let error): outcome = "`\(error.code)` | \(log.count)"
                }
                let sent = log.reduce(0) { $0 + $1.bytesSent }
                let milliseconds = String(format: "%.1f", GuaranteeTests.seconds(elapsed) * 1000)
                rows.append("| \(name) | \(server.file(name).size) | \(label) | \(tls ? "https" : "http") | \(sent) | \(outcome) | \(Set(log.map(\.connection)).count) | \(milliseconds) ms |")
                #expect(log.count >= 1)
            }
        }
        print(rows.joined(separator: "\n"))
    }
}

extension Result where Failure == FetchError {
    var failureCode: FetchError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }

    var failureStatus: Int? {
        if case .failure(let error) = self { return error.status }
        return nil
    }

    var scanFailureCode: ScanFailure.Code? {
        if case .failure(let error) = self { return error.scanFailure?.code }
        return nil
    }
}

extension Result where Success == ProbeResult, Failure == FetchError {
    init(probing body: () async throws(FetchError) -> ProbeResult) async {
        do throws(FetchError) {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
