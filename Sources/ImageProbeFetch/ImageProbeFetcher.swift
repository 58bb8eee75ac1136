import Foundation
import ImageProbe

/// How a fetcher transfers bytes, and its limits.
public struct FetchConfiguration: Sendable {
    /// The scanner's mode and limits. `inputLength` is filled in from the server's answer.
    public var scanOptions = ScanOptions()
    /// The longest wait for one request, from sending it to the end of its body.
    public var requestTimeout: Duration = .seconds(10)
    /// The longest time one probe may take, all its requests and redirects together.
    public var probeTimeout: Duration = .seconds(30)
    /// Most requests one probe may send, redirects included.
    public var maxRequests = 32
    /// Most requests one probe sends once the size is known, looking for the orientation
    /// (a PNG walked chunk by chunk to IEND, an animated WebP frame by frame to its EXIF).
    /// Past it, and past any other limit once the size is known, the answer is partial:
    /// `ImageInfo.partialReason` is `limitExceeded`. SPEC.md §6.1.
    public var maxMetadataRequests = 16
    /// Most bytes one probe may receive before it gives up (heads included over sockets;
    /// URLSession reports bodies only).
    public var maxBytes = 16 << 20
    /// Most probes running at once on one fetcher.
    public var maxConcurrentRequests = 8
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
    /// The transport for http:// URLs: sockets (default), or URLSession. https:// always uses
    /// URLSession.
    public var transport = Transport.sockets
    /// The User-Agent header sent with every request.
    public var userAgent = "ImageProbe/0.1"

    public enum Transport: Sendable {
        /// HTTP/1.1 over a socket with a small receive window, closed at the answer: the
        /// transfer stops promptly even when the server ignores Range.
        case sockets
        /// URLSession, as for https://.
        case urlSession
    }

    public init() {}
}

/// A probe's answer, and what it cost.
public struct ProbeResult: Sendable {
    public var info: ImageInfo
    /// Bytes received from the network, response heads included (0 from the cache).
    public var bytesTransferred: Int
    /// HTTP requests sent (0 from the cache).
    public var requests: Int
    /// The URL after redirects.
    public var finalURL: URL
    /// Whether the answer came from the cache.
    public var fromCache: Bool
}

/// Gets an image's format, size and orientation from its URL, transferring as few bytes as
/// possible: small Range requests, jumps over what the scanner doesn't need, and the transfer
/// stopped as soon as the answer is known. Results are cached by URL.
///
/// ```swift
/// let fetcher = ImageProbeFetcher()
/// let result = try await fetcher.probe(URL(string: "https://example.com/photo.jpg")!)
/// print(result.info.displayWidth, result.info.displayHeight, result.bytesTransferred)
/// ```
public final class ImageProbeFetcher: Sendable {
    public let configuration: FetchConfiguration
    private let cache: ProbeCache
    private let gate: ConcurrencyGate

    public init(configuration: FetchConfiguration = FetchConfiguration()) {
        self.configuration = configuration
        self.cache = ProbeCache(capacity: configuration.cacheCapacity)
        self.gate = ConcurrencyGate(limit: max(1, configuration.maxConcurrentRequests))
    }

    /// Probes `url`. A cached answer is returned without a request unless `force` is set.
    /// Cancelling the calling task cancels the transfer.
    public func probe(_ url: URL, force: Bool = false) async throws(FetchError) -> ProbeResult {
        if !force, let cached = cache.value(for: url) { return cached }
        guard url.scheme?.lowercased() == "http" || url.scheme?.lowercased() == "https" else {
            throw FetchError(.unsupportedURL, "only http and https URLs can be probed")
        }
        do {
            try await gate.enter()
        } catch {
            throw FetchError(.cancelled, "cancelled")
        }
        defer { Task { await gate.leave() } }
        let cancellation = Cancellation()
        let result: Result<ProbeResult, FetchError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own, not a dispatch queue: the transfer blocks, and dispatch
                // adds threads for blocked work only slowly (seconds, measured, with 2 cores).
                // The gate bounds how many there are.
                Thread { [configuration] in
                    continuation.resume(returning: Self.run(url, configuration, cancellation))
                }.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
        let value = try result.get()
        cache.insert(value, for: url)
        return value
    }

    /// Probes `url` and calls `completion` on an arbitrary queue.
    public func probe(_ url: URL, force: Bool = false, completion: @escaping @Sendable (Result<ProbeResult, FetchError>) -> Void) {
        Task {
            do throws(FetchError) {
                completion(.success(try await probe(url, force: force)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Empties the cache.
    public func removeAllCachedResults() { cache.removeAll() }

    /// The blocking part, on a thread of its own: the transfer and the scan.
    private static func run(_ url: URL, _ configuration: FetchConfiguration, _ cancellation: Cancellation) -> Result<ProbeResult, FetchError> {
        let transport = RoutingTransport(configuration: configuration, cancellation: cancellation)
        defer { transport.close() }
        let probe = RangeProbe(configuration: configuration, transport: transport, cancellation: cancellation)
        do throws(FetchError) {
            let outcome = try probe.run(url)
            transport.abandon()
            // A cancel can end a read as if the body ended; never report (or cache) that.
            if cancellation.isCancelled { return .failure(FetchError(.cancelled, "cancelled")) }
            return .success(ProbeResult(info: outcome.info, bytesTransferred: transport.bytesReceived,
                                        requests: transport.requests, finalURL: outcome.finalURL, fromCache: false))
        } catch {
            transport.abandon()
            // Cancelling shuts the socket down, which surfaces as a connection error.
            var failure = cancellation.isCancelled ? FetchError(.cancelled, "cancelled") : error
            failure.bytesTransferred = transport.bytesReceived
            failure.requests = transport.requests
            return .failure(failure)
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
        lock.withLock {
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
        lock.withLock {
            clock += 1
            entries[url] = (result, clock)
            if entries.count > capacity, let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp })?.key {
                entries[oldest] = nil
            }
        }
    }

    func removeAll() { lock.withLock { entries.removeAll() } }

    var count: Int { lock.withLock { entries.count } }
}

/// At most `limit` holders at once; the others wait in order. Waiting is cancellable.
actor ConcurrencyGate {
    private let limit: Int
    private var holders = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, Error>)] = []
    private var nextID: UInt64 = 0

    init(limit: Int) { self.limit = limit }

    func enter() async throws {
        if holders < limit {
            holders += 1
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters.append((id, continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    func leave() {
        if waiters.isEmpty {
            holders -= 1
        } else {
            waiters.removeFirst().continuation.resume()  // the place passes straight on
        }
    }

    private func cancelWaiter(_ id: UInt64) {
        if let index = waiters.firstIndex(where: { $0.id == id }) {
            waiters.remove(at: index).continuation.resume(throwing: CancellationError())
        }
    }
}
