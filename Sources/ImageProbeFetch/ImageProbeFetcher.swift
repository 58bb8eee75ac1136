import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImageProbe

/// How a fetcher transfers bytes, and its limits.
public struct FetchConfiguration: Sendable {
    /// The scanner's mode and limits. `inputLength` is filled in from the server's answer.
    public var scanOptions = ScanOptions()
    /// The longest wait for one request, in seconds, from name resolution to the end of its
    /// body. A `TimeInterval` (not `Duration`, which needs macOS 13 / iOS 16), as
    /// `URLRequest.timeoutInterval` is. Clamped to between 0 and a year.
    public var requestTimeout: TimeInterval = 10
    /// The longest time one probe may take, in seconds, all its requests and redirects together.
    public var probeTimeout: TimeInterval = 30
    /// Most requests one probe may send, redirects included.
    public var maxRequests = 32
    /// Most requests one probe sends once the size is known, looking for the orientation
    /// (a PNG walked chunk by chunk to IEND, an animated WebP frame by frame to its EXIF).
    /// Past it, and past any other limit once the size is known, the answer is partial:
    /// `ImageInfo.partialReason` is `limitExceeded`. SPEC.md §6.1.
    public var maxMetadataRequests = 16
    /// Most bytes one probe may receive before it gives up (response heads included with
    /// libcurl; URLSession reports bodies only).
    public var maxBytes = 16 << 20
    /// Most probes transferring at once on one fetcher.
    public var maxConcurrentRequests = 64
    /// Most connections open to one host at once. Over HTTP/2 one connection carries many
    /// probes at once (libcurl waits for the first connection to learn whether it can
    /// multiplex rather than opening more); over HTTP/1.1 each request in flight needs a
    /// connection, and probes of the same host beyond this wait for one, their request
    /// timeout running. Browsers keep 6.
    public var maxConnectionsPerHost = 6
    /// Most redirects one probe follows.
    public var maxRedirects = 5
    /// The first request's range: bytes 0 to this − 1.
    public var initialRangeLength = 1024
    /// The smallest later request. Asking for exactly what the scanner needs next saves bytes
    /// but costs a round trip per step; SPEC.md §6 has the measurements.
    public var minimumRequest = 1024
    /// Each request that reads on where the previous one ended asks for at least this many
    /// times as much; 0 turns growth off. SPEC.md §6 has the measurements.
    public var requestGrowth = 2
    /// A pending skip at least this long is jumped with a new Range request; shorter ones are
    /// read through in the next request.
    public var jumpThreshold = 16 * 1024
    /// Results kept in the cache, by URL; 0 disables it.
    public var cacheCapacity = 256
    /// Which addresses probes may connect to: `.any` (default) or `.publicOnly`, for servers
    /// that probe URLs from untrusted users. SPEC.md §6.4.
    public var addressPolicy = AddressPolicy.any
    /// A PEM file of the certificate authorities that https servers are checked against,
    /// instead of the system's store (a private CA, or a test's self-signed certificate).
    public var certificateAuthorities: URL? = nil
    /// The HTTP stack.
    public var transport = Transport.platform
    /// The User-Agent header sent with every request.
    public var userAgent = String(decoding: RangePlanner.userAgent.utf8Bytes, as: UTF8.self)
    /// A DNS-over-HTTPS resolver for libcurl, in place of the system's. For tests: a resolver
    /// that never answers.
    var dnsOverHTTPS: URL? = nil

    /// Which HTTP stack carries the requests.
    public enum Transport: Sendable, Hashable {
        /// The platform's own HTTP stack: URLSession on Apple platforms, libcurl on Linux.
        case platform
        /// URLSession everywhere (FoundationNetworking on Linux, where it cannot stop a
        /// transfer promptly: there it is for tests).
        case urlSession
    }

    /// The defaults: the values documented on each property.
    public init() {}
}

/// A probe's answer, and what it cost.
public struct ProbeResult: Sendable {
    /// The image's format, size, orientation and the other facts the scan found.
    public var info: ImageInfo
    /// Bytes received from the network, response heads included (0 from the cache).
    public var bytesTransferred: Int
    /// HTTP requests sent (0 from the cache).
    public var requests: Int
    /// The URL after redirects.
    public var finalURL: URL
    /// Whether the answer came from the cache.
    public var fromCache: Bool
    /// Whether this probe waited for an identical probe's fetch rather than making its own;
    /// then, as from the cache, `bytesTransferred` and `requests` are 0 (the fetch's costs
    /// are reported once, to the probe that started it).
    public var sharedFetch = false

    /// A result with the given facts and costs: for tests, and for mocks of `ImageSizeProbing`.
    public init(info: ImageInfo, bytesTransferred: Int, requests: Int, finalURL: URL, fromCache: Bool, sharedFetch: Bool = false) {
        self.info = info
        self.bytesTransferred = bytesTransferred
        self.requests = requests
        self.finalURL = finalURL
        self.fromCache = fromCache
        self.sharedFetch = sharedFetch
    }
}

/// What an app needs from a fetcher: the async probe. Depend on this protocol rather than on
/// `ImageProbeFetcher`, and tests can pass a mock that returns `ProbeResult`s or throws
/// `FetchError`s built with their public initializers, without a network.
///
/// ```swift
/// struct StubProber: ImageSizeProbing {
///     var info: ImageInfo
///     func probe(_ url: URL, force: Bool) async throws(FetchError) -> ProbeResult {
///         ProbeResult(info: info, bytesTransferred: 0, requests: 0, finalURL: url, fromCache: false)
///     }
/// }
/// ```
public protocol ImageSizeProbing: Sendable {
    /// The format, size and orientation of the image at `url`; `force` bypasses any cache.
    func probe(_ url: URL, force: Bool) async throws(FetchError) -> ProbeResult
}

extension ImageSizeProbing {
    /// The format, size and orientation of the image at `url`, from a cache where there is one.
    public func probe(_ url: URL) async throws(FetchError) -> ProbeResult {
        try await probe(url, force: false)
    }
}

/// Gets an image's format, size and orientation from its URL, transferring as few bytes as
/// possible: small Range requests, jumps over what the scanner doesn't need, and the transfer
/// stopped as soon as the answer is known. Results are cached by URL, and concurrent probes of
/// one URL share one fetch.
///
/// ```swift
/// let fetcher = ImageProbeFetcher()
/// let result = try await fetcher.probe(URL(string: "https://example.com/photo.jpg")!)
/// print(result.info.displayWidth, result.info.displayHeight, result.bytesTransferred)
/// ```
public final class ImageProbeFetcher: ImageSizeProbing {
    /// The limits and transport this fetcher was made with.
    public let configuration: FetchConfiguration
    private let cache: ProbeCache
    private let admission: Admission
    let flights = FlightTable()
    private let transport: ProbeTransport

    /// Why this fetcher can't probe, found when it was made, or nil: an unreadable, empty or
    /// non-regular `certificateAuthorities` file, or (with `init(configuration:session:)`) a
    /// session whose delegate takes the server-trust challenges. Every probe then fails with
    /// this error (code `configuration`) without a request.
    public let configurationError: FetchError?

    /// A fetcher with the platform's HTTP stack: on Apple platforms a URLSession of its own
    /// (ephemeral: no cache, no cookies), on Linux libcurl. The certificate authorities file,
    /// if any, is read here (see `configurationError`).
    public init(configuration: FetchConfiguration = FetchConfiguration()) {
        self.configuration = configuration
        self.cache = ProbeCache(capacity: configuration.cacheCapacity)
        self.admission = Admission(limit: max(1, configuration.maxConcurrentRequests))
        var problem: FetchError? = nil
        let trust = Self.trust(configuration, &problem)
        configurationError = problem
        transport = Self.makeTransport(configuration, trust: trust)
    }

    /// A fetcher whose requests go through `session`, the app's own (its configuration:
    /// proxies, cellular access, protocol classes). Each task gets the fetcher's delegate as
    /// its own (`URLSessionTask.delegate`), so the session's delegate, if any, is not called
    /// for its data. `configuration.transport` is not used.
    ///
    /// The session's own limits apply: at most its `httpMaximumConnectionsPerHost` probes run
    /// at once (more would wait inside the session while their deadlines run), and under
    /// `publicOnly` a connection through one of its proxies is refused. With
    /// `certificateAuthorities` set, a session delegate that implements the session-level
    /// challenge method would take the server-trust challenges: that is a `configurationError`.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    public init(configuration: FetchConfiguration = FetchConfiguration(), session: URLSession) {
        self.configuration = configuration
        self.cache = ProbeCache(capacity: configuration.cacheCapacity)
        let perHost = session.configuration.httpMaximumConnectionsPerHost
        self.admission = Admission(limit: max(1, min(configuration.maxConcurrentRequests, perHost > 0 ? perHost : .max)))
        var problem: FetchError? = nil
        let trust = Self.trust(configuration, &problem)
        configurationError = problem ?? URLSessionTransport.refusal(of: session, for: configuration)
        transport = URLSessionTransport(configuration: configuration, trust: trust, session: session)
    }

    deinit { transport.shutdown() }

    /// How many probes transfer at once.
    var concurrencyLimit: Int { admission.limit }

    /// The certificate authorities, read and checked now; nil when none are configured (or
    /// on Linux, where libcurl reads the file itself, after this check).
    private static func trust(_ configuration: FetchConfiguration, _ problem: inout FetchError?) -> ServerTrustEvaluating? {
        guard let file = configuration.certificateAuthorities else { return nil }
        do throws(FetchError) {
            let certificates = try CertificateAuthorities.load(file)
            #if canImport(Security)
            guard let trust = AnchoredTrust(certificates) else {
                problem = FetchError(.configuration, "certificate authorities \(file.path): no certificate Security can read")
                return nil
            }
            return trust
            #else
            _ = certificates
            return nil
            #endif
        } catch {
            problem = error
            return nil
        }
    }

    private static func makeTransport(_ configuration: FetchConfiguration, trust: ServerTrustEvaluating?) -> ProbeTransport {
        #if os(Linux)
        if configuration.transport == .platform {
            return CurlTransport(CurlTransport.Options(
                policy: configuration.addressPolicy,
                certificateAuthorities: configuration.certificateAuthorities?.path,
                userAgent: configuration.userAgent,
                maxConnections: 2 * max(1, configuration.maxConcurrentRequests),
                maxConnectionsPerHost: max(1, configuration.maxConnectionsPerHost),
                dnsOverHTTPS: configuration.dnsOverHTTPS?.absoluteString))
        }
        #endif
        return URLSessionTransport(configuration: configuration, trust: trust)
    }

    /// Probes `url`. A cached answer is returned without a request unless `force` is set.
    /// Concurrent probes of one URL with the same `force` wait for one fetch and share its
    /// result (the later ones with `sharedFetch` set). Cancelling the calling task ends this
    /// probe at once with `cancelled`; the fetch goes on for the other probes waiting for it,
    /// and stops when none is left.
    public func probe(_ url: URL, force: Bool = false) async throws(FetchError) -> ProbeResult {
        if let configurationError { throw configurationError }
        if !force, let cached = cache.value(for: url) { return cached }
        guard url.scheme?.lowercased() == "http" || url.scheme?.lowercased() == "https" else {
            throw FetchError(.unsupportedURL, "only http and https URLs can be probed")
        }
        let key = FlightTable.Key(url: url, force: force)
        let id = flights.newWaiter()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                join(key, id) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            flights.leave(key, id)
        }
        return try result.get()
    }

    /// Probes `url` and calls `completion` once on `queue`, with `cancelled` if the returned
    /// handle cancels the probe first. Nothing runs on Swift's task pool: the transfer runs on
    /// the transport's own thread (libcurl) or queue (URLSession).
    @discardableResult
    public func probe(
        _ url: URL, force: Bool = false, queue: DispatchQueue,
        completion: @escaping @Sendable (Result<ProbeResult, FetchError>) -> Void
    ) -> ProbeHandle {
        if let configurationError {
            queue.async { completion(.failure(configurationError)) }
            return ProbeHandle {}
        }
        if !force, let cached = cache.value(for: url) {
            queue.async { completion(.success(cached)) }
            return ProbeHandle {}
        }
        guard url.scheme?.lowercased() == "http" || url.scheme?.lowercased() == "https" else {
            queue.async { completion(.failure(FetchError(.unsupportedURL, "only http and https URLs can be probed"))) }
            return ProbeHandle {}
        }
        let key = FlightTable.Key(url: url, force: force)
        let id = flights.newWaiter()
        join(key, id) { result in queue.async { completion(result) } }
        return ProbeHandle { [flights] in flights.leave(key, id) }
    }

    /// Empties the cache.
    public func removeAllCachedResults() { cache.removeAll() }

    /// Waits for the fetch of `key`, starting it if there is none.
    private func join(_ key: FlightTable.Key, _ id: UInt64, _ waiter: @escaping FlightTable.Waiter) {
        flights.join(key, id, waiter) { flight in
            let run = ProbeRun(url: key.url, configuration: configuration, channel: transport.channel())
            admission.admit(run) { [self] in
                // The cache once more: another fetch may have filled it while this one waited.
                if !key.force, let cached = cache.value(for: key.url) {
                    admission.release()
                    flights.finish(key, flight, .success(cached))
                    return
                }
                run.begin { [self] outcome in
                    let result: Result<ProbeResult, FetchError>
                    switch outcome {
                    case .success(let outcome):
                        let value = ProbeResult(info: outcome.info, bytesTransferred: run.bytesReceived,
                                                requests: run.requests, finalURL: outcome.finalURL, fromCache: false)
                        cache.insert(value, for: key.url)
                        result = .success(value)
                    case .failure(var failure):
                        failure.bytesTransferred = run.bytesReceived
                        failure.requests = run.requests
                        result = .failure(failure)
                    }
                    admission.release()
                    flights.finish(key, flight, result)
                }
            }
            return run
        }
    }
}

/// Cancels a probe started with the completion-handler form.
public final class ProbeHandle: Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    /// Ends the probe at once: the completion is called with `cancelled` (unless the result
    /// was already on its way). The fetch goes on for other probes waiting for it.
    public func cancel() { action() }
}

/// Fetches in flight, by URL and `force`: the probes waiting for each. Thread-safe.
final class FlightTable: @unchecked Sendable {
    struct Key: Hashable {
        var url: URL
        var force: Bool
    }

    typealias Waiter = @Sendable (Result<ProbeResult, FetchError>) -> Void

    final class Flight: @unchecked Sendable {  // guarded by the table's lock
        var waiters: [UInt64: Waiter] = [:]
        /// The first waiter, who reports the fetch's costs.
        var starter: UInt64
        var run: ProbeRun? = nil
        init(starter: UInt64) { self.starter = starter }
    }

    private let lock = NSLock()
    private var flights: [Key: Flight] = [:]
    private var nextID: UInt64 = 0
    /// Waiters whose cancel came before they joined.
    private var cancelledEarly: Set<UInt64> = []

    func newWaiter() -> UInt64 {
        lock.locked {
            nextID += 1
            return nextID
        }
    }

    /// How many probes wait for the fetch of `key` (0 when none is in flight).
    func waiterCount(_ key: Key) -> Int { lock.locked { flights[key]?.waiters.count ?? 0 } }

    /// Adds a waiter to the fetch for `key`, starting it with `start` when there is none.
    func join(_ key: Key, _ id: UInt64, _ waiter: @escaping Waiter, start: (Flight) -> ProbeRun) {
        let cancelled: Bool = lock.locked {
            if cancelledEarly.remove(id) != nil { return true }
            if let flight = flights[key] {
                flight.waiters[id] = waiter
                return false
            }
            let flight = Flight(starter: id)
            flight.waiters[id] = waiter
            flights[key] = flight
            return false
        }
        if cancelled { return waiter(.failure(FetchError(.cancelled, "cancelled"))) }
        // Started outside the lock: a run that ends at once calls `finish`, which takes it.
        let starting: Flight? = lock.locked {
            guard let flight = flights[key], flight.starter == id, flight.run == nil else { return nil }
            return flight
        }
        if let starting {
            let run = start(starting)
            let orphaned = lock.locked {
                starting.run = run
                // Every waiter left before the run existed.
                return starting.waiters.isEmpty
            }
            if orphaned { run.cancel() }
        }
    }

    /// A waiter gives up: it gets `cancelled` at once; the fetch is cancelled when no waiter
    /// is left.
    func leave(_ key: Key, _ id: UInt64) {
        let (waiter, orphaned): (Waiter?, ProbeRun?) = lock.locked {
            guard let flight = flights[key], let waiter = flight.waiters.removeValue(forKey: id) else {
                cancelledEarly.insert(id)
                return (nil, nil)
            }
            if flight.waiters.isEmpty {
                flights[key] = nil
                return (waiter, flight.run)
            }
            return (waiter, nil)
        }
        orphaned?.cancel()
        waiter?(.failure(FetchError(.cancelled, "cancelled")))
    }

    /// The fetch's result, for every probe still waiting.
    func finish(_ key: Key, _ flight: Flight, _ result: Result<ProbeResult, FetchError>) {
        let waiters: [UInt64: Waiter] = lock.locked {
            if flights[key] === flight { flights[key] = nil }
            defer { flight.waiters.removeAll() }
            return flight.waiters
        }
        for (id, waiter) in waiters {
            var shared = result
            if id != flight.starter, case .success(var value) = result {
                // One fetch's costs, reported once.
                value.sharedFetch = true
                value.bytesTransferred = 0
                value.requests = 0
                shared = .success(value)
            }
            waiter(shared)
        }
    }
}

/// A bounded in-memory cache of results by URL, least recently used first out. Thread-safe.
final class ProbeCache: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private var entries: [URL: (result: ProbeResult, stamp: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) { self.capacity = max(0, capacity) }

    func value(for url: URL) -> ProbeResult? {
        lock.locked {
            guard var entry = entries[url] else { return nil }
            clock += 1
            entry.stamp = clock
            entries[url] = entry
            var result = entry.result
            result.fromCache = true
            result.bytesTransferred = 0
            result.requests = 0
            return result
        }
    }

    func insert(_ result: ProbeResult, for url: URL) {
        guard capacity > 0 else { return }
        lock.locked {
            clock += 1
            entries[url] = (result, clock)
            if entries.count > capacity, let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp })?.key {
                entries[oldest] = nil
            }
        }
    }

    func removeAll() { lock.locked { entries.removeAll() } }

    var count: Int { lock.locked { entries.count } }
}

/// At most `limit` probes transferring at once; the others wait in order, and each is
/// started by the one that leaves. No task and no thread: admitting, leaving and starting
/// happen on whichever thread calls. Thread-safe.
final class Admission: @unchecked Sendable {
    private let lock = NSLock()
    let limit: Int
    private var running = 0
    private var waiting: [(run: ProbeRun, start: @Sendable () -> Void)] = []

    init(limit: Int) { self.limit = limit }

    /// Calls `start` now if there is room, else when a place is released. A waiting run that
    /// is cancelled leaves the queue: its `start` is called anyway, and the run ends at once.
    func admit(_ run: ProbeRun, _ start: @escaping @Sendable () -> Void) {
        let now: Bool = lock.locked {
            if running < limit {
                running += 1
                return true
            }
            waiting.append((run, start))
            return false
        }
        if now {
            start()
        } else {
            // Weakly: the action is kept in the run until it ends, and must not keep it alive.
            run.whenCancelled { [weak self, weak run] in
                if let run { self?.startEarly(run) }
            }
        }
    }

    /// A place is free: the next waiting run takes it.
    func release() {
        let next: (@Sendable () -> Void)? = lock.locked {
            if waiting.isEmpty {
                running -= 1
                return nil
            }
            return waiting.removeFirst().start  // the place passes straight on
        }
        next?()
    }

    /// A cancelled run, still waiting: started out of turn, without a place, so it ends at
    /// once with `cancelled` (its `release` then gives back a place it took).
    private func startEarly(_ run: ProbeRun) {
        let start: (@Sendable () -> Void)? = lock.locked {
            guard let index = waiting.firstIndex(where: { $0.run === run }) else { return nil }
            running += 1
            return waiting.remove(at: index).start
        }
        start?()
    }
}
