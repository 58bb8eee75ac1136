import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// URLSession, the transport on Apple platforms (and, on Linux, FoundationNetworking's, for
/// tests): one session per fetcher, or the caller's; one data task per request, whose
/// delegate hands each chunk to the probe as it arrives and cancels the task at the answer.
/// No thread of its own, no polling: everything happens in URLSession's delegate callbacks, on
/// the session's delegate queue, and a timer per request for its deadline.
///
/// Redirects are not followed inside URLSession: the probe follows them itself, the same way
/// for every transport. URLSession reports bodies only, so `bytesReceived` leaves heads out.
final class URLSessionTransport: ProbeTransport, @unchecked Sendable {
    let session: URLSession
    private let ownsSession: Bool
    /// Tasks of a caller's session get the router as their own delegate (macOS 12, iOS 15).
    private let perTaskDelegate: Bool
    let router: SessionRouter
    /// Kept here: OperationQueue doesn't retain its underlying queue on every platform.
    private let callbackQueue: DispatchQueue?

    /// A session of the fetcher's own, from `base` (ephemeral by default): no cache, no
    /// cookies, the request timeout as URLSession's idle timeout.
    init(configuration: FetchConfiguration, base: URLSessionConfiguration = .ephemeral) {
        router = SessionRouter(configuration: configuration)
        let settings = base
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.httpShouldSetCookies = false
        settings.httpCookieAcceptPolicy = .never
        settings.timeoutIntervalForRequest = max(1, Deadline.clamped(configuration.requestTimeout))
        // Callbacks on a serial queue of their own. The default delegate queue runs them on
        // the shared dispatch pool, which on Linux also runs Swift's tasks: an app (or a test
        // run) keeping that pool busy stalled every response until the timeout.
        let callbacks = OperationQueue()
        callbacks.maxConcurrentOperationCount = 1
        let queue = DispatchQueue(label: "ImageProbeFetch.URLSession")
        callbackQueue = queue
        callbacks.underlyingQueue = queue
        session = URLSession(configuration: settings, delegate: router, delegateQueue: callbacks)
        ownsSession = true
        perTaskDelegate = false
    }

    /// The caller's session. Its tasks get a delegate of their own (`URLSessionTask.delegate`).
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    init(configuration: FetchConfiguration, session: URLSession) {
        router = SessionRouter(configuration: configuration)
        self.session = session
        ownsSession = false
        perTaskDelegate = true
        callbackQueue = nil
    }

    func channel() -> ProbeChannel { URLSessionChannel(transport: self) }

    func shutdown() {
        // A session holds its delegate until invalidated. A caller's session stays theirs.
        if ownsSession { session.invalidateAndCancel() }
        router.cancelAll()
    }

    func makeTask(_ request: URLRequest) -> URLSessionDataTask {
        let task = session.dataTask(with: request)
        if perTaskDelegate {
            if #available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *) { task.delegate = router }
        }
        return task
    }
}

/// A probe's requests over the session, one after another. URLSession keeps the connection
/// between them, and for the next probe to the host.
final class URLSessionChannel: ProbeChannel, @unchecked Sendable {
    private let transport: URLSessionTransport
    private let lock = NSLock()
    private var received = 0
    private var sent = 0

    init(transport: URLSessionTransport) { self.transport = transport }

    var bytesReceived: Int { lock.locked { received } }
    var requests: Int { lock.locked { sent } }

    fileprivate func count(_ bytes: Int) -> Int { lock.locked { received += bytes; return received } }

    private var cancelled = false
    private var current: URLSessionExchange? = nil

    func cancel() {
        let exchange = lock.locked {
            cancelled = true
            return current
        }
        exchange?.end(.failure(FetchError(.cancelled, "cancelled")))
    }

    func start(_ request: HTTPRequest, until deadline: Deadline, _ handler: ResponseHandler,
               completion: @escaping @Sendable (Result<Exchange, FetchError>) -> Void) {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.setValue(request.userAgent, forHTTPHeaderField: "User-Agent")
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let range = request.range { urlRequest.setValue("bytes=\(range.first)-\(range.last)", forHTTPHeaderField: "Range") }
        if let validator = request.headerSafeIfRange { urlRequest.setValue(validator, forHTTPHeaderField: "If-Range") }
        urlRequest.httpShouldHandleCookies = false
        let left = deadline.secondsLeft
        guard left > 0 else { return completion(.failure(FetchError(.timeout, "no response within the timeout"))) }
        urlRequest.timeoutInterval = max(0.001, Deadline.clamped(left))
        let policy = transport.router.configuration.addressPolicy
        let task = transport.makeTask(urlRequest)
        let exchange = URLSessionExchange(task: task, handler: handler, channel: self, policy: policy, completion: completion)
        let wasCancelled = lock.locked {
            current = exchange
            sent += 1
            return cancelled
        }
        if wasCancelled { return exchange.end(.failure(FetchError(.cancelled, "cancelled"))) }
        exchange.armDeadline(left)
        guard policy.publicOnly, let host = request.url.host else {
            return exchange.begin(router: transport.router)
        }
        // URLSession offers no hook between name resolution and connecting: the name is
        // resolved here first, and every address it has must be allowed.
        AddressCheck.check(host, policy: policy) { [transport] refusal in
            if let refusal {
                exchange.end(.failure(refusal))
            } else {
                exchange.begin(router: transport.router)
            }
        }
    }
}

/// One request's state, touched by the delegate queue, the deadline timer and cancellation.
final class URLSessionExchange: @unchecked Sendable {
    private let lock = NSLock()
    private let task: URLSessionDataTask
    private let handler: ResponseHandler
    private let channel: URLSessionChannel
    private let policy: AddressPolicy
    private var completion: (@Sendable (Result<Exchange, FetchError>) -> Void)?
    /// Set once the exchange has ended; whatever arrives after is dropped on arrival.
    private var ended = false
    private var head: HTTPResponseHead? = nil
    private var stopped = false
    /// The result, once known, held until the task completes when the connected address must
    /// still be checked (its metrics arrive just before completion).
    private var pending: Result<Exchange, FetchError>? = nil

    init(task: URLSessionDataTask, handler: ResponseHandler, channel: URLSessionChannel, policy: AddressPolicy,
         completion: @escaping @Sendable (Result<Exchange, FetchError>) -> Void) {
        self.task = task
        self.handler = handler
        self.channel = channel
        self.policy = policy
        self.completion = completion
    }

    /// A timer for the exchange's deadline: a total bound, where URLSession's own timeout is
    /// an idle one.
    func armDeadline(_ left: TimeInterval) {
        DispatchQueue.global().asyncAfter(deadline: .now() + Deadline.clamped(left)) { [weak self] in
            self?.end(.failure(FetchError(.timeout, "no response within the timeout")))
        }
    }

    func begin(router: SessionRouter) {
        guard lock.locked({ !ended }) else { return }
        router.register(self, for: task)
        task.resume()
    }

    /// Ends the exchange with `result` (the first call wins) and cancels the task.
    func end(_ result: Result<Exchange, FetchError>) {
        let completion: (@Sendable (Result<Exchange, FetchError>) -> Void)? = lock.locked {
            guard !ended else { return nil }
            ended = true
            pending = result
            defer { self.completion = nil }
            return self.completion
        }
        guard let completion else { return }
        task.cancel()
        completion(result)
    }

    /// The handler is done: under `publicOnly` the result waits for the task's metrics.
    private func settle(_ result: Result<Exchange, FetchError>) {
        if policy.publicOnly {
            lock.locked { if pending == nil { pending = result } }
            task.cancel()
        } else {
            end(result)
        }
    }

    func response(_ response: URLResponse) -> Bool {
        guard lock.locked({ !ended && head == nil }) else { return false }
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        if let length = headers["content-length"], HTTPResponseHead.decimal(length) == nil {
            end(.failure(FetchError(.invalidResponse, "invalid Content-Length", status: http?.statusCode)))
            return false
        }
        let parsed = HTTPResponseHead(status: http?.statusCode ?? 0, headers: headers)
        lock.locked { head = parsed }
        if handler.head(parsed) { return true }
        lock.locked { stopped = true }
        settle(.success(Exchange(head: parsed, end: .stopped)))
        return false
    }

    func data(_ data: Data) {
        guard lock.locked({ !ended && !stopped }) else { return }
        let total = channel.count(data.count)
        let keepGoing = data.withUnsafeBytes { handler.body($0, received: total) }
        if keepGoing { return }
        let parsed: HTTPResponseHead? = lock.locked {
            stopped = true
            return head
        }
        if let parsed { settle(.success(Exchange(head: parsed, end: .stopped))) }
    }

    func metrics(_ metrics: URLSessionTaskMetrics) {
        guard policy.publicOnly else { return }
        guard #available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *) else { return }
        for transaction in metrics.transactionMetrics {
            guard let text = transaction.remoteAddress else { continue }
            let bare = text.hasPrefix("[") ? String(text.dropFirst().dropLast()) : text
            if let address = IPAddress(numeric: bare.split(separator: "%").first.map(String.init) ?? bare),
               let refusal = policy.refusal(address) {
                // The request was sent; its answer is not used.
                lock.locked { pending = .failure(FetchError(.forbiddenAddress, refusal)) }
            }
        }
    }

    func completed(_ error: Error?) {
        let (parsed, wasStopped, held) = lock.locked { (head, stopped, pending) }
        if let held {
            end(held)
            return
        }
        if let parsed, wasStopped {
            end(.success(Exchange(head: parsed, end: .stopped)))
            return
        }
        guard let error else {
            guard let parsed else {
                end(.failure(FetchError(.connection, "no response")))
                return
            }
            end(.success(Exchange(head: parsed, end: .complete)))
            return
        }
        let failure = Self.translate(error)
        if let parsed, failure.code == .connection {
            // A connection lost after the head ends the body early.
            end(.success(Exchange(head: parsed, end: .closed)))
        } else {
            end(.failure(failure))
        }
    }

    private static func translate(_ error: Error) -> FetchError {
        guard let error = error as? URLError else { return FetchError(.connection, "\(error)") }
        switch error.code {
        case .timedOut: return FetchError(.timeout, "no response within the timeout")
        case .cancelled: return FetchError(.cancelled, "cancelled")
        case .unsupportedURL: return FetchError(.unsupportedURL, error.localizedDescription)
        case .cannotDecodeContentData, .cannotParseResponse: return FetchError(.invalidResponse, error.localizedDescription)
        default: return FetchError(.connection, error.localizedDescription)
        }
    }

    #if canImport(Security)
    /// Server trust against the configured authorities only, when there are some.
    func trust(_ challenge: URLAuthenticationChallenge, anchors: [SecCertificate]?) -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
              let anchors, let trust = challenge.protectionSpace.serverTrust
        else { return (.performDefaultHandling, nil) }
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, true)
        var error: CFError? = nil
        guard SecTrustEvaluateWithError(trust, &error) else { return (.cancelAuthenticationChallenge, nil) }
        return (.useCredential, URLCredential(trust: trust))
    }
    #endif
}

/// The session's delegate: routes each task's callbacks to its exchange.
final class SessionRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let configuration: FetchConfiguration
    private let lock = NSLock()
    private var exchanges: [ObjectIdentifier: URLSessionExchange] = [:]
    #if canImport(Security)
    /// The configured certificate authorities, DER certificates from the PEM file.
    private let anchors: [SecCertificate]?
    #endif

    init(configuration: FetchConfiguration) {
        self.configuration = configuration
        #if canImport(Security)
        anchors = configuration.certificateAuthorities.map { file in
            PEM.certificates(in: (try? Data(contentsOf: file)) ?? Data()).compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        }
        #endif
        super.init()
    }

    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        lock.locked { exchanges[ObjectIdentifier(task)] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> URLSessionExchange? {
        lock.locked { exchanges[ObjectIdentifier(task)] }
    }

    func cancelAll() {
        let all = lock.locked {
            defer { exchanges.removeAll() }
            return Array(exchanges.values)
        }
        for exchange in all { exchange.end(.failure(FetchError(.cancelled, "the fetcher was released"))) }
    }

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
        let wanted = exchange(dataTask)?.response(response) ?? false
        completionHandler(wanted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.data(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        exchange(task)?.metrics(metrics)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let finished = lock.locked { exchanges.removeValue(forKey: ObjectIdentifier(task)) }
        finished?.completed(error)
    }

    #if canImport(Security)
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let exchange = exchange(task) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        let (disposition, credential) = exchange.trust(challenge, anchors: anchors)
        completionHandler(disposition, credential)
    }
    #endif
}

/// Certificates in a PEM file: the DER bytes of each `CERTIFICATE` block.
enum PEM {
    static func certificates(in data: Data) -> [Data] {
        let text = String(decoding: data, as: UTF8.self)
        var found: [Data] = []
        var body: String? = nil
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if trimmed == "-----END CERTIFICATE-----" {
                if let encoded = body, let der = Data(base64Encoded: encoded) { found.append(der) }
                body = nil
            } else if body != nil {
                body! += trimmed
            }
        }
        return found
    }
}

/// Name resolution before URLSession connects, for the address policy: every address the name
/// has must be allowed. `getaddrinfo` blocks and can't be cancelled, so it runs on a dispatch
/// worker; the exchange's own deadline and cancel don't wait for it.
enum AddressCheck {
    static func check(_ host: String, policy: AddressPolicy, _ completion: @escaping @Sendable (FetchError?) -> Void) {
        let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        DispatchQueue.global().async {
            switch lookUp(name) {
            case .failure(let error):
                completion(error)
            case .success(let addresses):
                let refusal = addresses.lazy.compactMap { policy.refusal($0) }.first
                completion(refusal.map { FetchError(.forbiddenAddress, $0) })
            }
        }
    }

    private static func lookUp(_ name: String) -> Result<[IPAddress], FetchError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>? = nil
        guard getaddrinfo(name, nil, &hints, &list) == 0 else { return .failure(FetchError(.connection, "cannot resolve \(name)")) }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            guard let raw = info.pointee.ai_addr else { continue }
            if info.pointee.ai_family == AF_INET {
                let bytes = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
                if let address = IPAddress(bytes: bytes) { addresses.append(address) }
            } else if info.pointee.ai_family == AF_INET6 {
                let bytes = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
                if let address = IPAddress(bytes: bytes) { addresses.append(address) }
            }
        }
        return .success(addresses)
    }
}
