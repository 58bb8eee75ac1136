import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession for https:// (and for http:// when asked): one data task per request, whose
/// body is handed over as it arrives. Redirects are not followed here; the probe follows them
/// itself, the same way for every transport.
///
/// On Linux, `cancel()` does not stop a transfer promptly: bytes keep arriving after it. They
/// are dropped on arrival, never buffered; what bounds the transfer is the Range request.
final class URLSessionTransport: NSObject, ProbeTransport, URLSessionDataDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var session: URLSession! = nil
    private var task: URLSessionDataTask? = nil
    private var head: HTTPResponseHead? = nil
    private var chunks: [Data] = []
    private var finished = false
    private var failure: Error? = nil
    /// Set when the body is abandoned: later data is dropped on arrival.
    private var discarding = false
    private var received = 0
    private(set) var requests = 0
    private let cancellation: Cancellation

    /// Body bytes received, including those dropped after `abandon()`; URLSession doesn't
    /// expose the heads' sizes, so unlike the socket transport they are not counted.
    var bytesReceived: Int { condition.withLock { received } }

    init(cancellation: Cancellation, timeout: TimeInterval) {
        self.cancellation = cancellation
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 1
        // Callbacks on a serial queue of their own. The default delegate queue runs them on
        // the shared dispatch pool, which on Linux also runs Swift's tasks: an app (or a
        // test run) keeping that pool busy stalled every response until the timeout.
        let callbacks = OperationQueue()
        callbacks.maxConcurrentOperationCount = 1
        callbacks.underlyingQueue = DispatchQueue(label: "ImageProbeFetch.URLSessionTransport")
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: callbacks)
    }

    /// The session holds its delegate (this object) strongly until invalidated: `close()`
    /// breaks that cycle, so the transport's owner must call it.
    func close() {
        abandon()
        session.invalidateAndCancel()
    }

    func send(_ request: HTTPRequest, until deadline: ContinuousClock.Instant) throws(FetchError) -> HTTPResponseHead {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.setValue(request.userAgent, forHTTPHeaderField: "User-Agent")
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let range = request.range { urlRequest.setValue("bytes=\(range.first)-\(range.last)", forHTTPHeaderField: "Range") }
        if let validator = request.ifRange { urlRequest.setValue(validator, forHTTPHeaderField: "If-Range") }
        let task = session.dataTask(with: urlRequest)
        condition.withLock {
            self.task = task
            head = nil
            chunks = []
            finished = false
            failure = nil
            discarding = false
        }
        cancellation.watch { [weak task] in task?.cancel() }
        requests += 1
        task.resume()
        condition.lock()
        defer { condition.unlock() }
        while head == nil && !finished {
            do throws(FetchError) {
                try waitLocked(until: deadline, "no response within the timeout")
            } catch {
                task.cancel()
                throw error
            }
        }
        if let head { return head }
        throw Self.translate(failure, cancelled: cancellation.isCancelled)
    }

    func readBody(until deadline: ContinuousClock.Instant, _ handler: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) -> BodyEnd {
        while true {
            condition.lock()
            while chunks.isEmpty && !finished {
                do throws(FetchError) {
                    try waitLocked(until: deadline, "body stalled past the timeout")
                } catch {
                    condition.unlock()
                    abandon()
                    throw error
                }
            }
            if chunks.isEmpty {
                let error = failure
                condition.unlock()
                guard let error else { return .complete }
                let translated = Self.translate(error, cancelled: cancellation.isCancelled)
                // A connection lost after the head ends the body early, as with sockets.
                if translated.kind == .connection { return .closed }
                throw translated
            }
            let chunk = chunks.removeFirst()
            condition.unlock()
            let keepGoing = chunk.withUnsafeBytes { handler($0) }
            if !keepGoing {
                abandon()
                return .stopped
            }
        }
    }

    func abandon() {
        condition.withLock {
            discarding = true
            chunks = []
            task?.cancel()
        }
        cancellation.watch(nil)
    }

    /// Waits on the condition (locked) for news, 50 ms at most: a cancelled task may be slow
    /// to report that it ended, and the probe must not wait for it.
    private func waitLocked(until deadline: ContinuousClock.Instant, _ timeoutMessage: String) throws(FetchError) {
        if cancellation.isCancelled { throw FetchError(.cancelled, "cancelled") }
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw FetchError(.timeout, timeoutMessage) }
        let (seconds, attoseconds) = min(left, .milliseconds(50)).components
        _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
    }

    private static func translate(_ error: Error?, cancelled: Bool) -> FetchError {
        if cancelled { return FetchError(.cancelled, "cancelled") }
        guard let error = error as? URLError else { return FetchError(.connection, error.map { "\($0)" } ?? "no response") }
        switch error.code {
        case .timedOut: return FetchError(.timeout, "no response within the timeout")
        case .cancelled: return FetchError(.cancelled, "cancelled")
        default: return FetchError(.connection, error.localizedDescription)
        }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // the probe follows redirects itself
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        var headers: [String: String] = [:]
        let http = response as? HTTPURLResponse
        for (name, value) in http?.allHeaderFields ?? [:] {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        condition.withLock {
            guard dataTask === task else { return }
            head = HTTPResponseHead(status: http?.statusCode ?? 0, headers: headers)
            condition.broadcast()
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        condition.withLock {
            guard dataTask === task else { return }
            received += data.count
            if !discarding { chunks.append(data) }
            condition.broadcast()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        condition.withLock {
            guard task === self.task else { return }
            finished = true
            failure = error
            condition.broadcast()
        }
    }
}
