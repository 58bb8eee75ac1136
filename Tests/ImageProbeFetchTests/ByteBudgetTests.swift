import Foundation
import ImageProbe
@testable import ImageProbeFetch
import ImageProbeFixtures
import ImageProbeTestSupport
import Testing

/// Servers that push bytes the body doesn't carry, change the file between ranges, or stall
/// after the answer (SPEC.md §6.1, §6.2). Each test asserts on what the server sent, what the
/// probe reports, the answer, and the time.
@Suite(.serialized) struct ByteBudgetTests {
    /// The budget the tests give a probe; the slack is what TCP and libcurl's read loop may
    /// take past it before the check runs (libcurl reads up to 100 buffers per pass).
    static let budget = 1 << 20
    static let slack = 3 << 20

    static func configuration(_ change: (inout FetchConfiguration) -> Void = { _ in }) -> FetchConfiguration {
        HostileServerTests.configuration {
            $0.maxBytes = budget
            $0.scanOptions.maxBytes = 64 << 20  // the transfer's budget trips first
            change(&$0)
        }
    }

    static let chunkedHead = Array("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-1023/100000\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)

    /// Sends `prefix`, then `unit` again and again until the client goes (or 200 MB).
    static func endless(_ prefix: [UInt8], _ unit: [UInt8]) -> RawServer.Behaviour {
        .stream { _, _, send in
            guard send(prefix) else { return false }
            var total = 0
            while total < 200 << 20, send(unit) { total += unit.count }
            return false
        }
    }

    static func expectBounded(_ result: Result<ProbeResult, FetchError>, _ server: RawServer, _ elapsed: Elapsed,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.failureCode == .limitExceeded, "\(result)", sourceLocation: sourceLocation)
        if case .failure(let error) = result {
            #expect(error.bytesTransferred > budget && error.bytesTransferred < budget + slack,
                    "reported \(error.bytesTransferred)", sourceLocation: sourceLocation)
        }
        #expect(server.bytesSent < budget + slack + (8 << 20), "the server sent \(server.bytesSent)", sourceLocation: sourceLocation)
        // A hang guard only (the bounds are the bytes above): loose, for busy runs.
        #expect(elapsed < .seconds(20), "\(elapsed)", sourceLocation: sourceLocation)
    }

    /// The time is taken in the completion, on a queue of its own: other suites keep Swift's
    /// task pool busy on purpose (BusyPoolTests), and resuming a test there can wait.
    static func timed(_ server: RawServer, _ configuration: FetchConfiguration) async -> (Result<ProbeResult, FetchError>, Elapsed) {
        await GuaranteeTests.timedProbe(ImageProbeFetcher(configuration: configuration), server.url)
    }

    // MARK: Framing counts

    @Test func anEndlessChunkExtensionStopsAtTheBudget() async throws {
        let server = try RawServer(Self.endless(Self.chunkedHead + Array("4;ext=".utf8), [UInt8](repeating: 0x61, count: 64 << 10)))
        defer { server.stop() }
        let (result, elapsed) = await Self.timed(server, Self.configuration())
        Self.expectBounded(result, server, elapsed)
        // The socket is shut at the budget: libcurl's read loop (100 reads a pass) doesn't run on.
        if case .failure(let error) = result {
            #expect(error.bytesTransferred < Self.budget + (256 << 10), "reported \(error.bytesTransferred)")
        }
    }

    @Test func oneByteChunksWithLongSizesCountTheirFraming() async throws {
        // A JPEG whose segments never end, one byte per chunk, each chunk 21 bytes on the wire.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF]
        // 200: no range caps the body; only the budget does.
        var prefix = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for byte in jpeg { prefix += Array("0000000000000001\r\n".utf8) + [byte] + Array("\r\n".utf8) }
        var unit: [UInt8] = []
        for _ in 0..<1024 { unit += Array("0000000000000001\r\nA\r\n".utf8) }
        let server = try RawServer(Self.endless(prefix, unit))
        defer { server.stop() }
        var configuration = Self.configuration()
        configuration.scanOptions.maxBytes = 64 << 20
        let (result, elapsed) = await Self.timed(server, configuration)
        Self.expectBounded(result, server, elapsed)
    }

    @Test func endlessTrailersStopAtTheBudget() async throws {
        // The body ends at once; then trailer fields, each short, without end.
        let prefix = Self.chunkedHead + Array("2\r\n".utf8) + [0xFF, 0xD8] + Array("\r\n0\r\n".utf8)
        let server = try RawServer(Self.endless(prefix, Array("X-Trailer: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".utf8)))
        defer { server.stop() }
        let (result, elapsed) = await Self.timed(server, Self.configuration())
        // libcurl may end the trailers itself first; either way, nothing unbounded.
        if result.failureCode != .limitExceeded {
            #expect(result.failureCode == .invalidResponse || result.failureCode == .connection || result.failureCode == .scan, "\(result)")
            #expect(server.bytesSent < Self.budget + Self.slack + (8 << 20), "the server sent \(server.bytesSent)")
        } else {
            Self.expectBounded(result, server, elapsed)
        }
    }

    // MARK: A file that changes between ranges

    /// A 777×555 JPEG whose frame header lies past the first range, and another version
    /// (ETag "v2") that is 320×200, laid out so that the first version's first range followed
    /// by the second version's bytes would read as 1×1.
    static let versions: (first: [UInt8], second: [UInt8]) = {
        let first = JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.segment(0xE2, [UInt8](repeating: 0x20, count: 3000)),
                                      width: 777, height: 555).bytes
        // The second version's frame header comes early; where the first version's frame
        // header is, past the first range, the second holds a 1×1 one in its trailing bytes.
        var second = JPEGBuilder.image(before: JPEGBuilder.jfif + JPEGBuilder.segment(0xE2, [UInt8](repeating: 0x20, count: 1000)),
                                       width: 320, height: 200).bytes
        second += [UInt8](repeating: 0, count: first.count - second.count)
        let frameAt = first.count - JPEGBuilder.frame(width: 777, height: 555).count - JPEGBuilder.scanAndEnd.count
        let trap = JPEGBuilder.frame(width: 1, height: 1)
        second.replaceSubrange(frameAt..<(frameAt + trap.count), with: trap)
        return (first, second)
    }()

    @Test func aChangedETagIsNeverMixedWithTheFirstVersion() async throws {
        let (first, second) = Self.versions
        let server = try RawServer(.respond { head, index in
            // The first request sees version 1, every later one version 2, If-Range ignored.
            let (bytes, tag) = index == 0 ? (first, "\"v1\"") : (second, "\"v2\"")
            return HostileServerTests.partial(bytes, head, headers: ["ETag: \(tag)"])
        })
        defer { server.stop() }
        let result = try await ImageProbeFetcher(configuration: HostileServerTests.configuration()).probe(server.url)
        #expect(result.info.width != 1 && result.info.height != 1)
        // It started afresh on the new version.
        #expect(result.info.width == 320 && result.info.height == 200, "\(result.info)")
        #expect(server.requestHeads.count >= 3)
    }

    @Test func aChangedLastModifiedIsNeverMixedEither() async throws {
        let (first, second) = Self.versions
        let server = try RawServer(.respond { head, index in
            let (bytes, date) = index == 0 ? (first, "Mon, 23 Nov 2026 10:00:00 GMT") : (second, "Tue, 24 Nov 2026 10:00:00 GMT")
            return HostileServerTests.partial(bytes, head, headers: ["Last-Modified: \(date)"])
        })
        defer { server.stop() }
        let result = try await ImageProbeFetcher(configuration: HostileServerTests.configuration()).probe(server.url)
        #expect(result.info.width == 320 && result.info.height == 200, "\(result.info)")
    }

    @Test func aResourceThatKeepsChangingEndsTheProbe() async throws {
        let (first, second) = Self.versions
        let server = try RawServer(.respond { head, index in
            let (bytes, tag) = index % 2 == 0 ? (first, "\"v\(index)\"") : (second, "\"v\(index)\"")
            return HostileServerTests.partial(bytes, head, headers: ["ETag: \(tag)"])
        })
        defer { server.stop() }
        let result = await HostileServerTests.probe(server)
        #expect(result.failureCode == .resourceChanged, "\(result)")
    }

    // MARK: Nothing after the answer holds it back

    @Test(arguments: [FetchConfiguration.Transport.platform, .urlSession])
    func aStalledRemainderDoesNotDelayTheAnswer(transport: FetchConfiguration.Transport) async throws {
        let png = PNGBuilder.image(width: 640, height: 480)
        let stall = DispatchSemaphore(value: 0)
        defer { for _ in 0..<8 { stall.signal() } }
        let server = try RawServer(.stream { head, _, send in
            // The range's head and the first 100 bytes, then nothing: the rest never comes.
            guard let range = RawServer.range(in: head) else { return false }
            let length = range.last - range.first + 1
            let answer = RawServer.response("206 Partial Content", ["Content-Range: bytes \(range.first)-\(range.last)/100000", "Content-Length: \(length)"])
            guard send(answer + Array(png.prefix(100))) else { return false }
            _ = stall.wait(timeout: .now() + 30)
            return false
        }, concurrent: true)
        defer { server.stop() }
        var configuration = HostileServerTests.configuration()
        configuration.scanOptions.mode = .dimensionsOnly
        configuration.transport = transport
        let (result, elapsed) = await Self.timed(server, configuration)
        #expect((try? result.get().info.width) == 640)
        // Waiting for the remainder would take the stall's 30 s.
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }

    @Test func aStalledRedirectBodyDoesNotDelayTheNextHop() async throws {
        let png = PNGBuilder.image(width: 64, height: 48)
        let stall = DispatchSemaphore(value: 0)
        defer { for _ in 0..<8 { stall.signal() } }
        let server = try RawServer(.stream { head, _, send in
            if head.hasPrefix("GET /image ") {
                // A 302 with a 1,000-byte body that stalls after 10 bytes.
                guard send(RawServer.response("302 Found", ["Location: /moved", "Content-Length: 1000"]) + [UInt8](repeating: 0x20, count: 10)) else { return false }
                _ = stall.wait(timeout: .now() + 30)
                return false
            }
            return send(HostileServerTests.partial(png, head))
        }, concurrent: true)
        defer { server.stop() }
        let (result, elapsed) = await Self.timed(server, HostileServerTests.configuration())
        #expect((try? result.get().info.width) == 64)
        // Waiting for the redirect's body would take the stall's 30 s.
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }

    @Test func aRedirectPastTheBudgetIsNotFollowed() async throws {
        // A 302 whose head alone (padded with 20 KB of fields) spends a 4,000-byte budget: no
        // request follows it (the hop would be sent past the budget).
        let png = PNGBuilder.image(width: 64, height: 48)
        let padding = (0..<20).map { "X-Pad-\($0): " + String(repeating: "a", count: 1000) }
        let server = try RawServer(.stream { head, _, send in
            if head.hasPrefix("GET /image ") {
                return send(RawServer.response("302 Found", ["Location: /moved", "Content-Length: 0"] + padding))
            }
            return send(HostileServerTests.partial(png, head))
        }, concurrent: true)
        defer { server.stop() }
        let (result, _) = await Self.timed(server, HostileServerTests.configuration { $0.maxBytes = 4000 })
        #expect(result.failureCode == .limitExceeded, "\(result)")
        #expect(!server.requestHeads.contains { $0.hasPrefix("GET /moved ") }, "\(server.requestHeads)")
    }

    // MARK: Errors name their cause

    @Test func aHeaderLineLongerThanLibcurlAcceptsIsAnInvalidResponse() async throws {
        let server = try RawServer(.sendThenClose(Array("HTTP/1.1 200 OK\r\nX-Long: ".utf8) + [UInt8](repeating: 0x61, count: 200 << 10) + Array("\r\n\r\n".utf8)))
        defer { server.stop() }
        let result = await HostileServerTests.probe(server)
        #expect(result.failureCode == .invalidResponse, "\(result)")
    }

    @Test func anHTTP09ResponseIsAnInvalidResponse() async throws {
        let server = try RawServer(.sendThenClose(PNGBuilder.image(width: 2, height: 2)))
        defer { server.stop() }
        let result = await HostileServerTests.probe(server)
        #expect(result.failureCode == .invalidResponse, "\(result)")
    }
}
