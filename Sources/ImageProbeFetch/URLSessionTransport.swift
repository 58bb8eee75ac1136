import Foundation
import ImageProbe

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
    /// cookies, the request timeout as URLSession's idle timeout, `maxConnectionsPerHost`
    /// connections to a host (HTTP/2 multiplexes the fetcher's probes on them; over HTTP/1.1
    /// the probes beyond wait inside the session, their deadlines running), and under
    /// `publicOnly` no proxy, so the address connected to is the server's (SPEC.md §6.4).
    init(configuration: FetchConfiguration, trust: ServerTrustEvaluating?, base: URLSessionConfiguration = .ephemeral) {
        router = SessionRouter(configuration: configuration, trust: trust)
        let settings = base
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.httpShouldSetCookies = false
        settings.httpCookieAcceptPolicy = .never
        settings.timeoutIntervalForRequest = max(1, Deadline.clamped(configuration.requestTimeout))
        settings.httpMaximumConnectionsPerHost = max(1, configuration.maxConnectionsPerHost)
        if configuration.addressPolicy.publicOnly { settings.connectionProxyDictionary = [:] }
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
    /// FoundationNetworking (Linux) ignores a task's delegate: there the fetcher makes a session
    /// of its own from the caller's session's configuration.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    convenience init(configuration: FetchConfiguration, trust: ServerTrustEvaluating?, session: URLSession) {
        #if canImport(FoundationNetworking)
        let base = session.configuration.copy() as? URLSessionConfiguration ?? .ephemeral
        self.init(configuration: configuration, trust: trust, base: base)
        #else
        self.init(configuration: configuration, trust: trust, adopting: session)
        #endif
    }

    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    private init(configuration: FetchConfiguration, trust: ServerTrustEvaluating?, adopting session: URLSession) {
        router = SessionRouter(configuration: configuration, trust: trust)
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

    /// Why a caller's session can't be used with `configuration`, or nil: a session delegate
    /// that implements the session-level challenge method receives the server-trust
    /// challenges, not the task's delegate, so the configured certificate authorities would
    /// be ignored without a word (SPEC.md §6.2).
    static func refusal(of session: URLSession, for configuration: FetchConfiguration) -> FetchError? {
        guard configuration.certificateAuthorities != nil, let delegate = session.delegate else { return nil }
        #if canImport(ObjectiveC)
        let handlesTrust = (delegate as? NSObject)?.responds(to: #selector(URLSessionDelegate.urlSession(_:didReceive:completionHandler:))) ?? false
        guard handlesTrust else { return nil }
        return FetchError(.configuration, "certificateAuthorities can't apply to this session: its delegate takes the server-trust challenges")
        #else
        // FoundationNetworking (Linux, for tests) has no optional methods to ask about, and
        // gives no server-trust challenge to any delegate: libcurl checks certificates there.
        _ = delegate
        return nil
        #endif
    }
}

/// A probe's requests over the session, one after another. URLSession keeps the connection
/// between them, and for the next probe to the host.
final class URLSessionChannel: ProbeChannel, @unchecked Sendable {
    private let transport: URLSessionTransport
    private let lock = NSLock()
    private var sent = 0

    init(transport: URLSessionTransport) { self.transport = transport }

    var requests: Int { lock.locked { sent } }

    private var cancelled = false
    private var current: URLSessionExchange? = nil

    func cancel() {
        let exchange = lock.locked {
            cancelled = true
            return current
        }
        exchange?.end(.failure(TransportError(kind: .cancelled, detail: "")))
    }

    func start(_ request: HTTPRequest, until deadline: Deadline, _ handler: ResponseHandler,
               completion: @escaping @Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void) {
        guard let url = URL(string: request.url) else {
            return completion(.failure(TransportError(kind: .connection, detail: "URLSession can't read the URL \(request.url)")))
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.setValue(request.userAgent, forHTTPHeaderField: "User-Agent")
        // The planner's header lines, as they are (Range, If-Range, Accept-Encoding).
        for (name, value) in request.headerLines { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpShouldHandleCookies = false
        // A caller's session may have a cache: every answer must come from the server.
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        let left = deadline.secondsLeft
        guard left > 0 else { return completion(.failure(TransportError(kind: .timeout, detail: ""))) }
        urlRequest.timeoutInterval = max(0.001, Deadline.clamped(left))
        let policy = transport.router.configuration.addressPolicy
        let task = transport.makeTask(urlRequest)
        let exchange = URLSessionExchange(task: task, handler: handler, channel: self, policy: policy, completion: completion)
        let wasCancelled = lock.locked {
            current = exchange
            sent += 1
            return cancelled
        }
        if wasCancelled { return exchange.end(.failure(TransportError(kind: .cancelled, detail: ""))) }
        exchange.armDeadline(left)
        guard policy.publicOnly, let host = url.host else {
            return exchange.begin(router: transport.router)
        }
        // URLSession offers no hook between name resolution and connecting: the name is
        // resolved here first, and every address it has must be allowed. The address actually
        // connected to is checked again from the task's metrics.
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
///
/// The result is settled by two facts that URLSession reports in no promised order: the
/// task's outcome (its completion, or the handler having what it needs) and, under
/// `publicOnly`, the connections its metrics list. Whichever comes second ends the exchange;
/// a completion whose metrics don't follow within `metricsGrace` ends it refused, since the
/// address connected to is then unknown (SPEC.md §6.4).
final class URLSessionExchange: @unchecked Sendable {
    /// How long a completed task waits for its metrics under `publicOnly`.
    static let metricsGrace: TimeInterval = 1

    private let lock = NSLock()
    private let task: URLSessionDataTask
    private let handler: ResponseHandler
    private let channel: URLSessionChannel
    private let policy: AddressPolicy
    private var completion: (@Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void)?
    /// Set once the exchange has ended; whatever arrives after is dropped on arrival.
    private var ended = false
    private var headSeen = false
    private var stopped = false
    /// The task's result, once known, waiting for the connection check under `publicOnly`.
    private var outcome: Result<RangePlanner.BodyEnd, TransportError>? = nil
    /// Under `publicOnly`: the connection check's verdict, once the metrics came (nil inside:
    /// allowed).
    private var verdict: TransportError?? = nil
    /// Why the server's certificate was refused, when the trust check refused it: the task
    /// then ends as cancelled, which must not read as the caller's cancel.
    private var trustFailure: TransportError? = nil

    init(task: URLSessionDataTask, handler: ResponseHandler, channel: URLSessionChannel, policy: AddressPolicy,
         completion: @escaping @Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void) {
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
            self?.end(.failure(TransportError(kind: .timeout, detail: "")))
        }
    }

    func begin(router: SessionRouter) {
        guard lock.locked({ !ended }) else { return }
        router.register(self, for: task)
        task.resume()
    }

    /// Ends the exchange with `result` (the first call wins) and cancels the task.
    func end(_ result: Result<RangePlanner.BodyEnd, TransportError>) {
        let completion: (@Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void)? = lock.locked {
            guard !ended else { return nil }
            ended = true
            defer { self.completion = nil }
            return self.completion
        }
        guard let completion else { return }
        task.cancel()
        completion(result)
    }

    /// The task's result is known: under `publicOnly` it waits for the connection check.
    private func settle(_ result: Result<RangePlanner.BodyEnd, TransportError>, completed: Bool) {
        guard policy.publicOnly else { return end(result) }
        let (known, checked): (Result<RangePlanner.BodyEnd, TransportError>, TransportError??) = lock.locked {
            if outcome == nil { outcome = result }
            return (outcome!, verdict)
        }
        if let checked {
            return end(checked.map { .failure($0) } ?? known)
        }
        if completed {
            // No metrics yet: they may still come (Apple promises no order), or never (watchOS 6).
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.metricsGrace) { [weak self] in
                self?.end(.failure(TransportError(kind: .forbiddenAddress, detail: "the address connected to is unknown (the task reported no connection metrics)")))
            }
        } else {
            task.cancel()
        }
    }

    func response(_ response: URLResponse) -> Bool {
        guard lock.locked({ !ended && !headSeen }) else { return false }
        let http = response as? HTTPURLResponse
        let fields = (http?.allHeaderFields ?? [:]).map { (String(describing: $0.key), String(describing: $0.value)) }
        lock.locked { headSeen = true }
        // URLSession hands over the head parsed: its size on the wire, as HTTP/1.1 writes it
        // ("HTTP/1.1 206 Partial Content" and "Name: value" lines), counts against the budget.
        let within = handler.received(fields.reduce(32) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 })
        if within && handler.head(status: http?.statusCode ?? 0, fields: fields) { return true }
        lock.locked { stopped = true }
        settle(within ? .success(.stopped) : .failure(TransportError(kind: .limitExceeded, detail: "")), completed: false)
        return false
    }

    func data(_ data: Data) {
        guard lock.locked({ !ended && !stopped }) else { return }
        let within = handler.received(data.count)
        let keepGoing = data.withUnsafeBytes { handler.body($0) }
        if keepGoing && within { return }
        lock.locked { stopped = true }
        settle(.success(.stopped), completed: false)
    }

    /// The connections the task's metrics list (URLSessionTaskTransactionMetrics).
    func connections(_ facts: [ConnectionFacts]) {
        guard policy.publicOnly else { return }
        let refusal = ConnectionCheck.refusal(facts, policy: policy)
        let known: Result<RangePlanner.BodyEnd, TransportError>? = lock.locked {
            if verdict == nil { verdict = .some(refusal) }
            return outcome
        }
        if let refusal {
            end(.failure(refusal))  // the request was sent; its answer is not used
        } else if let known {
            end(known)
        }
    }

    /// The server-trust check refused the certificate; the challenge is being cancelled.
    func refuseTrust(_ reason: String) {
        lock.locked { if trustFailure == nil { trustFailure = TransportError(kind: .connection, detail: reason) } }
    }

    func completed(_ error: Error?) {
        let (seen, wasStopped, refusedTrust) = lock.locked { (headSeen, stopped, trustFailure) }
        if let refusedTrust { return end(.failure(refusedTrust)) }
        let result: Result<RangePlanner.BodyEnd, TransportError>
        if seen && wasStopped {
            result = .success(.stopped)
        } else if let error {
            let failure = Self.translate(error)
            // A connection lost after the head ends the body early.
            result = seen && failure.kind == .connection ? .success(.closed) : .failure(failure)
        } else if seen {
            result = .success(.complete)
        } else {
            result = .failure(TransportError(kind: .connection, detail: "no response"))
        }
        settle(result, completed: true)
    }

    /// URLSession's error as the planner's class of failure.
    static func translate(_ error: Error) -> TransportError {
        guard let error = error as? URLError else { return TransportError(kind: .connection, detail: "\(error)") }
        switch error.code {
        case .timedOut: return TransportError(kind: .timeout, detail: "")
        case .cancelled: return TransportError(kind: .cancelled, detail: "")
        case .cannotDecodeContentData, .cannotParseResponse:
            return TransportError(kind: .invalidResponse, detail: error.localizedDescription)
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
             .serverCertificateNotYetValid, .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            return TransportError(kind: .connection, detail: "TLS: \(error.localizedDescription)")
        default: return TransportError(kind: .connection, detail: error.localizedDescription)
        }
    }
}

/// What a task's metrics say about one of its connections (a transaction).
struct ConnectionFacts: Sendable, Hashable {
    /// The peer's address as URLSession reports it (`203.0.113.9`, `[2001:db8::1]`,
    /// `fe80::1%en0`), or nil when it doesn't.
    var remoteAddress: String?
    /// Whether the connection went through a proxy, whose address `remoteAddress` then is.
    var isProxy: Bool
}

/// The check of the address a task actually connected to, under `publicOnly`: a pure function
/// of what its metrics say, so it is the same on every platform and tested without a network.
enum ConnectionCheck {
    static func refusal(_ connections: [ConnectionFacts], policy: AddressPolicy) -> TransportError? {
        guard policy.publicOnly else { return nil }
        func refused(_ why: String) -> TransportError { TransportError(kind: .forbiddenAddress, detail: why) }
        guard !connections.isEmpty else { return refused("the address connected to is unknown (no connection in the task's metrics)") }
        for connection in connections {
            if connection.isProxy { return refused("the connection went through a proxy, so the server's address is unknown") }
            guard let text = connection.remoteAddress else { return refused("the address connected to is unknown (the metrics don't say)") }
            if let refusal = policy.refusal(numeric: text) { return refused(refusal) }
        }
        return nil
    }

    /// The facts of each transaction of `metrics`.
    static func facts(_ metrics: URLSessionTaskMetrics) -> [ConnectionFacts] {
        guard #available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *) else { return [] }
        return metrics.transactionMetrics.map { ConnectionFacts(remoteAddress: $0.remoteAddress, isProxy: $0.isProxyConnection) }
    }
}

/// What the server-trust check decided.
enum TrustDecision: Sendable {
    /// Not this check's business (another kind of challenge, or no authorities configured).
    case defaultHandling
    /// Trusted: answer with this credential.
    case trusted(URLCredential)
    /// Refused, with why.
    case refused(String)
}

/// Judges a server-trust challenge: a seam, so the delegate's handling of each decision is
/// tested on Linux, where there is no Security framework.
protocol ServerTrustEvaluating: Sendable {
    func evaluate(_ challenge: URLAuthenticationChallenge) -> TrustDecision
}

#if canImport(Security)
/// Server trust against the configured authorities only (`certificateAuthorities`).
struct AnchoredTrust: ServerTrustEvaluating, @unchecked Sendable {
    let anchors: [SecCertificate]

    /// Nil when `certificates` holds none that Security can read.
    init?(_ certificates: [Data]) {
        anchors = certificates.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        if anchors.isEmpty { return nil }
    }

    func evaluate(_ challenge: URLAuthenticationChallenge) -> TrustDecision {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
              let trust = challenge.protectionSpace.serverTrust
        else { return .defaultHandling }
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, true)
        var error: CFError? = nil
        guard SecTrustEvaluateWithError(trust, &error) else {
            let reason = error.map { CFErrorCopyDescription($0) as String } ?? "not trusted"
            return .refused("TLS: the certificate of \(challenge.protectionSpace.host) is not trusted by the configured certificate authorities: \(reason)")
        }
        return .trusted(URLCredential(trust: trust))
    }
}
#endif

/// The session's delegate: routes each task's callbacks to its exchange.
final class SessionRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let configuration: FetchConfiguration
    private let trust: ServerTrustEvaluating?
    private let lock = NSLock()
    private var exchanges: [ObjectIdentifier: URLSessionExchange] = [:]

    init(configuration: FetchConfiguration, trust: ServerTrustEvaluating?) {
        self.configuration = configuration
        self.trust = trust
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
        for exchange in all { exchange.end(.failure(TransportError(kind: .cancelled, detail: "the fetcher was released"))) }
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
        didFinishCollecting(ConnectionCheck.facts(metrics), task: task)
    }

    /// The metrics' facts for `task` (the replay tests call this with made-up facts).
    func didFinishCollecting(_ facts: [ConnectionFacts], task: URLSessionTask) {
        // Metrics may come after the completion (Apple promises no order), when the exchange
        // has left the table: it is found through the task's record then.
        (exchange(task) ?? lock.locked { finished[ObjectIdentifier(task)] })?.connections(facts)
    }

    /// Exchanges whose task completed, until their metrics come: under `publicOnly` only,
    /// and each removed when its metrics arrive or its grace ends.
    private var finished: [ObjectIdentifier: URLSessionExchange] = [:]

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let key = ObjectIdentifier(task)
        let done: URLSessionExchange? = lock.locked {
            let exchange = exchanges.removeValue(forKey: key)
            if let exchange, configuration.addressPolicy.publicOnly { finished[key] = exchange }
            return exchange
        }
        done?.completed(error)
        if done != nil && configuration.addressPolicy.publicOnly {
            DispatchQueue.global().asyncAfter(deadline: .now() + URLSessionExchange.metricsGrace * 2) { [weak self] in
                guard let self else { return }
                lock.locked { _ = finished.removeValue(forKey: key) }
            }
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let trust, let exchange = exchange(task) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        switch trust.evaluate(challenge) {
        case .defaultHandling:
            completionHandler(.performDefaultHandling, nil)
        case .trusted(let credential):
            completionHandler(.useCredential, credential)
        case .refused(let reason):
            // Cancelling the challenge ends the task as "cancelled": the exchange reports why.
            exchange.refuseTrust(reason)
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }
}

/// Name resolution before URLSession connects, for the address policy: every address the name
/// has must be allowed. `getaddrinfo` blocks and can't be cancelled, so it runs on a dispatch
/// worker; the exchange's own deadline and cancel don't wait for it.
enum AddressCheck {
    static func check(_ host: String, policy: AddressPolicy, _ completion: @escaping @Sendable (TransportError?) -> Void) {
        let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        DispatchQueue.global().async {
            switch lookUp(name) {
            case .failure(let error):
                completion(error)
            case .success(let addresses):
                let refusal = addresses.lazy.compactMap { policy.refusal($0) }.first
                completion(refusal.map { TransportError(kind: .forbiddenAddress, detail: $0) })
            }
        }
    }

    private static func lookUp(_ name: String) -> Result<[[UInt8]], TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>? = nil
        guard getaddrinfo(name, nil, &hints, &list) == 0 else { return .failure(TransportError(kind: .connection, detail: "cannot resolve \(name)")) }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            guard let raw = info.pointee.ai_addr else { continue }
            if info.pointee.ai_family == AF_INET {
                let bytes = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
                addresses.append(bytes)
            } else if info.pointee.ai_family == AF_INET6 {
                let bytes = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
                addresses.append(bytes)
            }
        }
        return .success(addresses)
    }
}
