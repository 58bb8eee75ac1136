import Foundation
import ImageProbe
@testable import ImageProbeFetch
import ImageProbeFixtures
import ImageProbeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the fetcher promises whatever the server does: bounded transfers over TLS, one
/// connection per probe, one fetch for concurrent probes of a URL, a deadline that covers name
/// resolution, prompt cancellation, and the address policy.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct GuaranteeTests {
    static func configuration(_ change: (inout FetchConfiguration) -> Void = { _ in }) -> FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.cacheCapacity = 0
        configuration.certificateAuthorities = try? NginxServer.require().certificate
        change(&configuration)
        return configuration
    }

    /// Probes through the completion form and times it where the result arrives: an awaiting
    /// test resumes only when Swift's pool has a thread for it, which the CPU-bound tests
    /// running beside these can hold for seconds.
    static func timedProbe(_ fetcher: ImageProbeFetcher, _ url: URL) async -> (Result<ProbeResult, FetchError>, Elapsed) {
        let start = Moment.now
        return await withCheckedContinuation { continuation in
            fetcher.probe(url, queue: DispatchQueue(label: "timed-probe")) { result in
                continuation.resume(returning: (result, Moment.now - start))
            }
        }
    }

    static func seconds(_ duration: Elapsed) -> Double { duration.seconds }

    // MARK: - Bounded over TLS

    @Test func tlsServerIgnoringRangeStopsAtTheAnswer() async throws {
        // 1 GiB body, Range ignored, over TLS: the answer is in the first bytes.
        let server = try NginxServer.require()
        let (url, token) = server.url("/norange/gibibyte.png", tls: true)
        let fetcher = ImageProbeFetcher(configuration: Self.configuration { $0.scanOptions.mode = .dimensionsOnly })
        let (probed, elapsed) = await Self.timedProbe(fetcher, url)
        let result = try probed.get()
        #expect(result.info.format == .png && result.info.width == 640 && result.info.height == 480)
        #expect(result.bytesTransferred < 1 << 20, "received \(result.bytesTransferred)")
        let log = await server.log(token: token, atLeast: 1)
        #expect(log.count == 1 && log.first?.status == 200)
        let sent = log.reduce(0) { $0 + $1.bytesSent }
        #expect(sent < 4 << 20, "nginx sent \(sent) bytes of 1 GiB")
        #expect(elapsed < .seconds(10))
    }

    @Test func tlsAnimationModeStopsAtTheByteLimit() async throws {
        // Animation mode skips the 1 GiB IDAT for what follows: on a body without Range that is
        // reading, so maxBytes ends it, with the size as a partial answer.
        let server = try NginxServer.require()
        let (url, token) = server.url("/norange/gibibyte.png", tls: true)
        let configuration = Self.configuration {
            $0.maxBytes = 4 << 20
            $0.scanOptions.mode = .animation
        }
        let result = try await ImageProbeFetcher(configuration: configuration).probe(url)
        #expect(result.info.width == 640 && result.info.partialReason?.code == .limitExceeded)
        #expect(result.bytesTransferred <= configuration.maxBytes + Int(RangePlanner.Limits.drainBytes) + 64 * 1024)
        let log = await server.log(token: token, atLeast: 1)
        // nginx counts what its kernel took: its send buffer (up to 4 MiB) on top of what arrived.
        #expect(log.reduce(0) { $0 + $1.bytesSent } < configuration.maxBytes + (5 << 20))
    }

    @Test func tlsIsCheckedAgainstTheConfiguredAuthoritiesOnly() async throws {
        let server = try NginxServer.require()
        // The system's store doesn't know the test's certificate.
        let untrusted = await Result(probing: { () throws(FetchError) in
            try await ImageProbeFetcher(configuration: Self.configuration { $0.certificateAuthorities = nil })
                .probe(server.url("/range/big.jpg", tls: true).url)
        })
        #expect(untrusted.failureCode == .connection, "\(untrusted)")
        let trusted = try await ImageProbeFetcher(configuration: Self.configuration()).probe(server.url("/range/big.jpg", tls: true).url)
        #expect(trusted.info.width == 4000 && trusted.requests == 3)
    }

    // MARK: - Connections

    @Test func oneConnectionPerProbeAndReuseAcrossProbes() async throws {
        let server = try NginxServer.require()
        let fetcher = ImageProbeFetcher(configuration: Self.configuration())
        for tls in [false, true] {
            // big.jpg takes 3 requests: the first KiB, a jump over two 64 KiB APP2 segments, the
            // rest. The second probe starts from the first one's completion, without waiting
            // for this test to resume (a busy test run can take longer than nginx's keep-alive).
            let (first, firstToken) = server.url("/range/big.jpg", tls: tls)
            let (second, secondToken) = server.url("/range/mdat-first.heic", tls: tls)
            let (one, two): (Result<ProbeResult, FetchError>, Result<ProbeResult, FetchError>) = await withCheckedContinuation { continuation in
                let queue = DispatchQueue(label: "reuse-test")
                fetcher.probe(first, queue: queue) { one in
                    fetcher.probe(second, queue: queue) { two in continuation.resume(returning: (one, two)) }
                }
            }
            #expect(try one.get().requests == 3)
            #expect(try two.get().info.width == 4032)
            let lines = await server.log(token: firstToken, atLeast: 3)
            #expect(lines.count == 3)
            #expect(Set(lines.map(\.connection)).count == 1, "tls \(tls): \(lines)")
            // The next probe of the host takes the connection over.
            let next = await server.log(token: secondToken, atLeast: 1)
            #expect(next.first?.connection == lines.first?.connection, "tls \(tls): \(lines) then \(next)")
            #expect(next.first?.connectionRequest == 4)
        }
    }

    /// A configuration for tests that hold a server's answer: no timeout a starved test run
    /// could reach (the CPU-bound suites beside these can hold Swift's pool for minutes).
    static func patientConfiguration() -> FetchConfiguration {
        configuration {
            $0.requestTimeout = 900
            $0.probeTimeout = 900
        }
    }

    /// A server that answers with a 9×7 PNG once the test releases it (or after 10 minutes).
    final class HeldServer: Sendable {
        let server: RawServer
        private let gate: DispatchSemaphore
        private let released = LockedBox(false)

        init() throws {
            let image = PNGBuilder.image(width: 9, height: 7)
            let gate = DispatchSemaphore(value: 0)
            self.gate = gate
            server = try RawServer(.respond { _, _ in
                _ = gate.wait(timeout: .now() + 600)
                return RawServer.response("200 OK", [], image)
            })
        }

        var isReleased: Bool { released.get() }

        func release() {
            released.set(true)
            gate.signal()
        }

        /// Releases a held answer, then stops the server.
        func stop() {
            release()
            server.stop()
        }
    }

    @Test func concurrentProbesOfOneURLShareOneFetch() async throws {
        // The server holds its answer until all 50 probes wait for the fetch: sharing covers
        // the fetch in flight only. The completion form joins before it returns, so the 50
        // are waiting once the loop ends, however busy the run.
        let held = try HeldServer()
        defer { held.stop() }
        let server = held.server
        // No cache: what is shared is the fetch in flight.
        let fetcher = ImageProbeFetcher(configuration: Self.patientConfiguration())
        let key = FlightTable.Key(url: server.url, force: false)
        let results = LockedBox<[Result<ProbeResult, FetchError>]>([])
        let allDone = DispatchGroup()
        for _ in 0..<50 {
            allDone.enter()
            fetcher.probe(server.url, queue: DispatchQueue(label: "share-test")) { result in
                results.update { $0.append(result) }
                allDone.leave()
            }
        }
        #expect(fetcher.flights.waiterCount(key) == 50)
        held.release()
        await withCheckedContinuation { continuation in
            allDone.notify(queue: DispatchQueue(label: "share-test-done")) { continuation.resume() }
        }
        let values = try results.get().map { try $0.get() }
        #expect(values.count == 50 && values.allSatisfy { $0.info.width == 9 })
        #expect(values.filter { !$0.sharedFetch }.count == 1)
        // One fetch's costs, reported once.
        #expect(values.reduce(0) { $0 + $1.requests } == 1)
        #expect(values.reduce(0) { $0 + $1.bytesTransferred } == values.first { !$0.sharedFetch }?.bytesTransferred)
        #expect(server.requestHeads.count == 1, "\(server.requestHeads.count) requests for 50 probes")
    }

    @Test func aCancelledWaiterLeavesTheOthersTheirFetch() async throws {
        // The server holds its answer until the test releases it: both probes wait for one
        // fetch, the first leaves, and the fetch goes on for the second.
        let held = try HeldServer()
        defer { held.stop() }
        let server = held.server
        let fetcher = ImageProbeFetcher(configuration: Self.patientConfiguration())
        let key = FlightTable.Key(url: server.url, force: false)
        let leftBeforeTheAnswer = LockedBox<Bool?>(nil)
        let leaving = Task {
            let result = await Result(probing: { () throws(FetchError) in try await fetcher.probe(server.url) })
            leftBeforeTheAnswer.set(!held.isReleased)
            return result
        }
        try await Self.until { fetcher.flights.waiterCount(key) == 1 }
        let staying = Task { await Result(probing: { () throws(FetchError) in try await fetcher.probe(server.url) }) }
        try await Self.until { fetcher.flights.waiterCount(key) == 2 && server.requestHeads.count == 1 }
        leaving.cancel()
        let left = await leaving.value
        #expect(left.failureCode == .cancelled)
        // It left without waiting for the fetch: the answer was still held.
        #expect(leftBeforeTheAnswer.get() == true)
        #expect(fetcher.flights.waiterCount(key) == 1)
        held.release()
        let stayed = await staying.value
        #expect(try stayed.get().info.width == 9)
        #expect(server.requestHeads.count == 1)
    }

    /// Waits until `condition` holds, for at most 10 minutes: the tests that use it hold their
    /// server's answer meanwhile, so waiting long changes nothing but the time, and a starved
    /// run can take that long to resume a task. (A failed expectation then says which.)
    static func until(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = Moment.now + .seconds(600)
        while !condition(), Moment.now < deadline { try await pause(milliseconds: 5) }
        #expect(condition(), "still not so after 10 minutes", sourceLocation: sourceLocation)
    }

    // MARK: - Deadlines and cancellation

    /// A DNS-over-HTTPS resolver that never answers: it accepts the connection and stays silent.
    static func silentResolver() throws -> (RawServer, URL) {
        let server = try RawServer(.silent)
        return (server, URL(string: "https://127.0.0.1:\(server.port)/dns-query")!)
    }

    @Test func aSilentResolverTimesOutWithinTheDeadline() async throws {
        let (resolver, address) = try Self.silentResolver()
        defer { resolver.stop() }
        let fetcher = ImageProbeFetcher(configuration: Self.configuration {
            $0.dnsOverHTTPS = address
            $0.requestTimeout = 1
        })
        let (result, elapsed) = await Self.timedProbe(fetcher, URL(string: "http://images.example/a.jpg")!)
        #expect(result.failureCode == .timeout, "\(result)")
        // A resolution outside the deadline would end only at probeTimeout (30 s); a loose
        // bound, so a busy run can't fail it.
        #expect(elapsed < .seconds(15), "\(elapsed)")
        #expect(resolver.connections >= 1, "the resolver was asked")
    }

    enum Phase: String, CaseIterable, Sendable { case resolving, tlsHandshake, waitingForTheHead, readingTheBody }

    @Test(arguments: Phase.allCases)
    func cancellationIsPrompt(phase: Phase) async throws {
        let nginx = try NginxServer.require()
        let silent = try RawServer(.silent)
        defer { silent.stop() }
        var configuration = Self.configuration {
            $0.requestTimeout = 600
            $0.probeTimeout = 600
        }
        let url: URL
        switch phase {
        case .resolving:
            configuration.dnsOverHTTPS = URL(string: "https://127.0.0.1:\(silent.port)/dns-query")!
            url = URL(string: "http://images.example/a.jpg")!
        case .tlsHandshake:
            url = URL(string: "https://127.0.0.1:\(silent.port)/a.jpg")!
        case .waitingForTheHead:
            url = silent.url
        case .readingTheBody:
            url = nginx.url("/slow/big.jpg").url
        }
        let fetcher = ImageProbeFetcher(configuration: configuration)
        let queue = DispatchQueue(label: "cancel-test")
        let outcome = LockedBox<Result<ProbeResult, FetchError>?>(nil)
        let handle = fetcher.probe(url, queue: queue) { outcome.set($0) }
        // All on a thread of its own, none of it on Swift's pool, which the CPU-bound suites
        // beside these can hold for minutes: cancelled once the probe is in the phase (the
        // silent server saw the connection or the request), or half a second in while nginx
        // trickles the body. Prompt whatever the transport is doing: the completion is on its
        // queue by the time cancel() returns, so the queue's next turn finds it.
        let (early, result): (Result<ProbeResult, FetchError>?, Result<ProbeResult, FetchError>?) = await withCheckedContinuation { continuation in
            Thread {
                let deadline = Moment.now + .seconds(600)
                func wait(_ condition: () -> Bool) { while !condition() && Moment.now < deadline { usleep(5_000) } }
                switch phase {
                case .resolving, .tlsHandshake: wait { silent.connections >= 1 }
                case .waitingForTheHead: wait { silent.requestHeads.count == 1 }
                case .readingTheBody: Thread.sleep(forTimeInterval: 0.5)
                }
                let early = outcome.get()
                handle.cancel()
                queue.sync {}
                continuation.resume(returning: (early, outcome.get()))
            }.start()
        }
        #expect(early == nil, "\(phase): ended before the cancel: \(String(describing: early))")
        let ended = try #require(result, "\(phase): no answer once cancel() returned")
        #expect(ended.failureCode == .cancelled, "\(ended)")
        if phase == .waitingForTheHead || phase == .tlsHandshake {
            // The connection is closed too, not just forgotten.
            try await Self.until { silent.closedConnections >= 1 }
        }
    }

    // MARK: - Address policy

    @Test(arguments: [FetchConfiguration.Transport.platform, .urlSession])
    func publicOnlyRefusesEveryLoopbackSpelling(transport: FetchConfiguration.Transport) async throws {
        let server = try RawServer(.respond { _, _ in RawServer.response("200 OK", [], PNGBuilder.image(width: 2, height: 2)) })
        defer { server.stop() }
        let fetcher = ImageProbeFetcher(configuration: Self.configuration {
            $0.addressPolicy = .publicOnly
            $0.transport = transport
        })
        for text in loopbackSpellings(port: server.port) {
            let url = try #require(URL(string: text))
            let result = await Result(probing: { () throws(FetchError) in try await fetcher.probe(url) })
            #expect(result.failureCode == .forbiddenAddress, "\(text): \(result)")
        }
        #expect(server.connections == 0, "no connection reached the server")
        // The default policy reaches it.
        let open = try await ImageProbeFetcher(configuration: Self.configuration { $0.transport = transport }).probe(server.url)
        #expect(open.info.width == 2)
    }

    @Test(arguments: [FetchConfiguration.Transport.platform, .urlSession])
    func aRedirectToAForbiddenAddressSendsItNothing(transport: FetchConfiguration.Transport) async throws {
        let forbidden = try RawServer(.respond { _, _ in RawServer.response("200 OK", [], PNGBuilder.image(width: 2, height: 2)) },
                                      address: "127.0.0.2")
        defer { forbidden.stop() }
        let allowed = try RawServer(.respond { _, _ in
            RawServer.response("302 Found", ["Location: http://127.0.0.2:\(forbidden.port)/image"])
        })
        defer { allowed.stop() }
        // 127.0.0.1 stands for a public server here: the policy allows it by exception.
        let fetcher = ImageProbeFetcher(configuration: Self.configuration {
            $0.addressPolicy = .publicOnly(allowing: [AddressRange("127.0.0.1")!])
            $0.transport = transport
        })
        let result = await Result(probing: { () throws(FetchError) in try await fetcher.probe(allowed.url) })
        #expect(result.failureCode == .forbiddenAddress, "\(result)")
        #expect(allowed.requestHeads.count == 1)
        #expect(forbidden.connections == 0 && forbidden.bytesReceived == 0)
    }
}
