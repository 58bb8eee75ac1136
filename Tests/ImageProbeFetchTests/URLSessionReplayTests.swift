import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImageProbe
@testable import ImageProbeFetch
import ImageProbeFixtures
import ImageProbeTestSupport
import Testing

/// The URLSession transport's delegate, driven directly in the orders Apple's URLSession may
/// call it (it promises no order between a task's metrics and its completion, and watchOS 6
/// sends no metrics), with trust decisions and connection facts made up: what a Mac would do,
/// checked on Linux (SPEC.md §6.2, §6.4).
@Suite struct URLSessionReplayTests {
    /// A trust check with a fixed decision.
    struct FixedTrust: ServerTrustEvaluating {
        var decision: TrustDecision
        func evaluate(_ challenge: URLAuthenticationChallenge) -> TrustDecision { decision }
    }

    /// Takes every head; stops the body after `stopAfter` bytes (never when nil).
    final class Handler: ResponseHandler, @unchecked Sendable {
        let stopAfter: Int?
        private let lock = NSLock()
        private var taken = 0
        init(stopAfter: Int?) { self.stopAfter = stopAfter }
        var bytesTaken: Int { lock.held { taken } }
        func received(_ count: Int) -> Bool { true }
        func headLine(_ line: UnsafeRawBufferPointer) -> Bool { true }
        func head(status: Int, fields: [(String, String)]) -> Bool { true }
        var drainable: Bool { false }
        func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
            lock.held {
                taken += bytes.count
                return stopAfter.map { taken < $0 } ?? true
            }
        }
    }

    /// One exchange on a task that never runs: the session that made it has no delegate, so
    /// only the calls made here reach the router.
    final class Replay: @unchecked Sendable {
        let router: SessionRouter
        let session = URLSession(configuration: .ephemeral)
        let task: URLSessionDataTask
        let handler: Handler
        let channel: URLSessionChannel
        let exchange: URLSessionExchange
        private let results = LockedBox<[Result<RangePlanner.BodyEnd, TransportError>]>([])

        init(publicOnly: Bool = false, trust: ServerTrustEvaluating? = nil, stopAfter: Int? = nil) {
            var configuration = FetchConfiguration()
            if publicOnly { configuration.addressPolicy = .publicOnly }
            router = SessionRouter(configuration: configuration, trust: trust)
            task = session.dataTask(with: URL(string: "https://images.example/a.png")!)
            handler = Handler(stopAfter: stopAfter)
            channel = URLSessionChannel(transport: URLSessionTransport(configuration: configuration, trust: trust))
            let results = results
            exchange = URLSessionExchange(task: task, handler: handler, channel: channel, policy: configuration.addressPolicy) { result in
                results.set(results.get() + [result])
            }
            router.register(exchange, for: task)
        }

        var outcomes: [Result<RangePlanner.BodyEnd, TransportError>] { results.get() }

        func respond(status: Int = 206) {
            let response = HTTPURLResponse(url: task.originalRequest!.url!, statusCode: status, httpVersion: "HTTP/1.1",
                                           headerFields: ["Content-Range": "bytes 0-99/100", "Content-Length": "100"])!
            router.urlSession(session, dataTask: task, didReceive: response) { _ in }
        }

        func data(_ count: Int) { router.urlSession(session, dataTask: task, didReceive: Data(repeating: 7, count: count)) }
        func metrics(_ facts: [ConnectionFacts]) { router.didFinishCollecting(facts, task: task) }
        func complete(_ error: Error? = nil) { router.urlSession(session, task: task, didCompleteWithError: error) }

        func challenge() -> URLSession.AuthChallengeDisposition? {
            let space = URLProtectionSpace(host: "images.example", port: 443, protocol: "https", realm: nil, authenticationMethod: nil)
            let challenge = URLAuthenticationChallenge(protectionSpace: space, proposedCredential: nil, previousFailureCount: 0,
                                                       failureResponse: nil, error: nil, sender: NoSender())
            let disposition = LockedBox<URLSession.AuthChallengeDisposition?>(nil)
            router.urlSession(session, task: task, didReceive: challenge) { chosen, _ in disposition.set(chosen) }
            return disposition.get()
        }

        /// Waits up to `seconds` for the exchange to end.
        func ended(within seconds: Double = 3) async throws -> Result<RangePlanner.BodyEnd, TransportError>? {
            let giveUp = Moment.now + .seconds(seconds)
            while outcomes.isEmpty && Moment.now < giveUp { try await pause(milliseconds: 5) }
            return outcomes.first
        }
    }

    final class NoSender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }

    static let publicServer = ConnectionFacts(remoteAddress: "93.184.215.14", isProxy: false)
    static let loopback = ConnectionFacts(remoteAddress: "127.0.0.1", isProxy: false)

    // MARK: 1. TLS failures are connection errors, with the reason

    @Test func aRefusedCertificateIsAConnectionErrorNotACancel() async throws {
        let replay = Replay(trust: FixedTrust(decision: .refused("TLS: the certificate of images.example is not trusted")))
        #expect(replay.challenge() == .cancelAuthenticationChallenge)
        // URLSession then ends the task as cancelled.
        replay.complete(URLError(.cancelled))
        let result = try #require(try await replay.ended())
        #expect(result.failureCode == .connection)
        #expect(result.failureMessage?.contains("not trusted") == true, "\(result)")
    }

    @Test func aTrustedCertificateIsUsedAndTheDefaultIsLeftAlone() {
        #expect(Replay(trust: FixedTrust(decision: .defaultHandling)).challenge() == .performDefaultHandling)
        #expect(Replay(trust: nil).challenge() == .performDefaultHandling)
    }

    @Test(arguments: [URLError.Code.serverCertificateUntrusted, .serverCertificateHasBadDate, .secureConnectionFailed])
    func systemTrustFailuresAreConnectionErrors(code: URLError.Code) async throws {
        let replay = Replay()
        replay.complete(URLError(code))
        let result = try #require(try await replay.ended())
        #expect(result.failureCode == .connection)
        #expect(result.failureMessage?.hasPrefix("TLS:") == true)
    }

    @Test func aCancelIsStillACancel() async throws {
        let replay = Replay()
        // What the channel's cancel does to its current exchange.
        replay.exchange.end(.failure(TransportError(kind: .cancelled, detail: "")))
        // Whatever URLSession sends after the cancel is dropped.
        replay.respond()
        replay.data(10)
        replay.complete(URLError(.cancelled))
        let result = try #require(try await replay.ended())
        #expect(result.failureCode == .cancelled)
        #expect(replay.handler.bytesTaken == 0)
        #expect(replay.outcomes.count == 1)
    }

    @Test func badCertificateAuthoritiesAreAConfigurationErrorAtCreation() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imageprobe-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.pem")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        let text = folder.appendingPathComponent("text.pem")
        #expect(FileManager.default.createFile(atPath: text.path, contents: Data("not a certificate\n".utf8)))
        let fifo = folder.appendingPathComponent("fifo.pem")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let cases = [folder.appendingPathComponent("missing.pem"), empty, text, folder, fifo]
        for file in cases {
            for transport in [FetchConfiguration.Transport.platform, .urlSession] {
                var configuration = FetchConfiguration()
                configuration.certificateAuthorities = file
                configuration.transport = transport
                let start = Moment.now
                let fetcher = ImageProbeFetcher(configuration: configuration)
                // A FIFO opened for reading would wait for a writer forever; loose, for busy runs.
                #expect(Moment.now - start < .seconds(10), "reading \(file.lastPathComponent) must not wait")
                #expect(fetcher.configurationError?.code == .configuration, "\(file.lastPathComponent): \(String(describing: fetcher.configurationError))")
                let result = await Result(probing: { () throws(FetchError) in try await fetcher.probe(URL(string: "https://images.example/a.png")!) })
                #expect(result.failureCode == .configuration)
            }
        }
    }

    // MARK: 2. publicOnly: no proxy, and fail closed

    @Test func publicOnlyTurnsProxiesOff() {
        var configuration = FetchConfiguration()
        configuration.addressPolicy = .publicOnly
        let transport = URLSessionTransport(configuration: configuration, trust: nil)
        #expect(transport.session.configuration.connectionProxyDictionary?.isEmpty == true)
        let open = URLSessionTransport(configuration: FetchConfiguration(), trust: nil)
        #expect(open.session.configuration.connectionProxyDictionary?.isEmpty != true)
    }

    @Test func connectionCheck() {
        let policy = AddressPolicy.publicOnly
        #expect(ConnectionCheck.refusal([Self.publicServer], policy: policy) == nil)
        #expect(ConnectionCheck.refusal([ConnectionFacts(remoteAddress: "[2606:2800:21f:cb07:6820:80da:af6b:8b2c]", isProxy: false)], policy: policy) == nil)
        #expect(ConnectionCheck.refusal([Self.loopback], policy: policy)?.kind == .forbiddenAddress)
        #expect(ConnectionCheck.refusal([ConnectionFacts(remoteAddress: "fe80::1%en0", isProxy: false)], policy: policy)?.kind == .forbiddenAddress)
        // A public proxy hides the server's address; a private one would be refused anyway.
        #expect(ConnectionCheck.refusal([ConnectionFacts(remoteAddress: "93.184.215.14", isProxy: true)], policy: policy)?.kind == .forbiddenAddress)
        #expect(ConnectionCheck.refusal([ConnectionFacts(remoteAddress: nil, isProxy: false)], policy: policy)?.kind == .forbiddenAddress)
        #expect(ConnectionCheck.refusal([], policy: policy)?.kind == .forbiddenAddress)
        #expect(ConnectionCheck.refusal([Self.publicServer, Self.loopback], policy: policy)?.kind == .forbiddenAddress)
        #expect(ConnectionCheck.refusal([ConnectionFacts(remoteAddress: "not an address", isProxy: false)], policy: policy)?.kind == .forbiddenAddress)
        #expect(ConnectionCheck.refusal([], policy: .any) == nil)
    }

    // MARK: 3. The address check, whatever the order of metrics and completion

    @Test func metricsBeforeTheCompletion() async throws {
        let replay = Replay(publicOnly: true, stopAfter: 10)
        replay.respond()
        replay.data(10)  // the answer: the task is cancelled, the result waits for the metrics
        #expect(replay.outcomes.isEmpty)
        replay.metrics([Self.publicServer])
        let result = try #require(try await replay.ended())
        #expect(result.isSuccess)
    }

    @Test func metricsAfterTheCompletion() async throws {
        let replay = Replay(publicOnly: true, stopAfter: 10)
        replay.respond()
        replay.data(10)
        replay.complete(URLError(.cancelled))
        #expect(replay.outcomes.isEmpty, "the result waits for the metrics")
        replay.metrics([Self.publicServer])
        let result = try #require(try await replay.ended())
        #expect(result.isSuccess)
    }

    @Test func refusedMetricsAfterTheCompletion() async throws {
        let replay = Replay(publicOnly: true)
        replay.respond()
        replay.data(100)
        replay.complete()
        replay.metrics([Self.loopback])
        let result = try #require(try await replay.ended())
        #expect(result.failureCode == .forbiddenAddress)
    }

    @Test func refusedMetricsWhileTheBodyArrives() async throws {
        let replay = Replay(publicOnly: true)
        replay.respond()
        replay.data(10)
        replay.metrics([Self.loopback])
        let result = try #require(try await replay.ended())
        #expect(result.failureCode == .forbiddenAddress)
        replay.data(10)
        #expect(replay.handler.bytesTaken == 10, "nothing after the refusal reaches the probe")
    }

    @Test func noMetricsAtAllFailsClosed() async throws {
        // watchOS 6 sends none.
        let replay = Replay(publicOnly: true)
        replay.respond()
        replay.data(100)
        replay.complete()
        // A generous wait: the grace timer runs on the global queue, which BusyPoolTests fills.
        let result = try #require(try await replay.ended(within: 30))
        #expect(result.failureCode == .forbiddenAddress)
        #expect(result.failureMessage?.contains("unknown") == true)
    }

    @Test func withoutPublicOnlyNothingWaits() async throws {
        let replay = Replay(stopAfter: 10)
        replay.respond()
        replay.data(10)
        let result = try #require(try await replay.ended(within: 0.5))
        #expect(result.isSuccess)
    }

    // MARK: 4. Location values with bytes a URL may not hold

    @Test func locationsArePercentEncoded() throws {
        func target(_ location: String) -> String {
            var planner = RangePlanner(url: "https://images.example/dir/a.png")
            _ = planner.next()
            planner.field(name: "Location", value: location)
            _ = planner.head(status: 302)
            planner.end(.stopped)
            guard case .send = planner.next() else { return "(no request)" }
            return planner.requestURL
        }
        #expect(target("/x y.png") == "https://images.example/x%20y.png")
        #expect(target("/café.png") == "https://images.example/caf%C3%A9.png")
        #expect(target("b c.png?q=1 2#f") == "https://images.example/dir/b%20c.png?q=1%202")
        #expect(target("/already%20encoded.png") == "https://images.example/already%20encoded.png")
        #expect(target("https://other.example/{x}|\"<>.png") == "https://other.example/%7Bx%7D%7C%22%3C%3E.png")
    }

    @Test(arguments: [FetchConfiguration.Transport.platform, .urlSession])
    func aRedirectToAnUnencodedLocationIsFollowed(transport: FetchConfiguration.Transport) async throws {
        let image = PNGBuilder.image(width: 7, height: 5)
        let server = try RawServer(.respond { head, _ in
            if head.hasPrefix("GET /start ") { return RawServer.response("302 Found", ["Location: /caf\u{E9} y.png"]) }
            guard head.hasPrefix("GET /caf%C3%A9%20y.png ") else { return RawServer.response("404 Not Found") }
            return HostileServerTests.partial(image, head)
        })
        defer { server.stop() }
        var configuration = HostileServerTests.configuration()
        configuration.transport = transport
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/start"))
        let result = try await ImageProbeFetcher(configuration: configuration).probe(url)
        #expect(result.info.width == 7 && result.info.height == 5)
    }

    // MARK: 5. Connections per host, and 6. the caller's session

    @Test func theSessionKeepsTheConnectionsPerHostLimit() {
        var configuration = FetchConfiguration()
        #expect(configuration.maxConnectionsPerHost == 6)
        configuration.maxConcurrentRequests = 24
        configuration.maxConnectionsPerHost = 9
        let transport = URLSessionTransport(configuration: configuration, trust: nil)
        #expect(transport.session.configuration.httpMaximumConnectionsPerHost == 9)
    }

    @Test func aCallersSessionProbesThroughTheTaskDelegate() async throws {
        guard #available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *) else { return }
        let image = PNGBuilder.image(width: 9, height: 4)
        let server = try RawServer(.respond { head, _ in HostileServerTests.partial(image, head) })
        defer { server.stop() }
        let settings = URLSessionConfiguration.ephemeral
        settings.httpMaximumConnectionsPerHost = 2
        let session = URLSession(configuration: settings)
        let fetcher = ImageProbeFetcher(configuration: HostileServerTests.configuration(), session: session)
        #expect(fetcher.configurationError == nil)
        let result = try await fetcher.probe(server.url)
        #expect(result.info.width == 9 && result.info.height == 4)
        #expect(fetcher.concurrencyLimit == 2, "no more probes at once than the session has connections per host")
    }
}

extension Result where Success == RangePlanner.BodyEnd, Failure == TransportError {
    var failureCode: RangePlanner.TransportFailure? {
        if case .failure(let error) = self { return error.kind }
        return nil
    }

    var failureMessage: String? {
        if case .failure(let error) = self { return error.detail }
        return nil
    }

    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
