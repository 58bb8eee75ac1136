#if os(Linux)
import CCurl
import CCurlShim
import Foundation
import Glibc
import ImageProbe

/// libcurl, initialised once for the process.
private let curlReady: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

/// libcurl's multi interface, driven by one thread per fetcher: every probe's transfers are
/// easy handles on it, so concurrent probes need no thread each, and they share its
/// connection pool, DNS cache and TLS sessions. Callbacks (headers, body, sockets) run on that
/// thread; the body callback feeds the scanner and stops the transfer at the answer.
final class CurlTransport: ProbeTransport, @unchecked Sendable {
    struct Options: Sendable {
        var policy: AddressPolicy
        var certificateAuthorities: String?
        var userAgent: String
        var maxConnections: Int
        var maxConnectionsPerHost: Int
        /// A DNS-over-HTTPS resolver instead of the system's (tests: a resolver that never answers).
        var dnsOverHTTPS: String?
    }

    private let options: Options
    private let driver: CurlDriver

    init(_ options: Options) {
        self.options = options
        driver = CurlDriver(maxConnections: options.maxConnections, maxConnectionsPerHost: options.maxConnectionsPerHost)
    }

    func channel() -> ProbeChannel { CurlChannel(driver: driver, options: options) }

    func shutdown() { driver.shutdown() }
}

/// The multi handle and the thread that runs it. Every call into the multi handle, and every
/// removal and cleanup of an easy handle that was on it, happens on that thread; other threads
/// queue commands and wake it with `curl_multi_wakeup`.
final class CurlDriver: @unchecked Sendable {
    private let lock = NSLock()
    private let multi: UnsafeMutableRawPointer?
    /// Guarded by `lock`.
    private var commands: [(Command, CurlChannel)] = []
    private var toFree: [UnsafeMutableRawPointer] = []
    private var threadState = ThreadState.notStarted
    /// The driver thread's own: easy handle → channel, for the handles on the multi handle.
    private var active: [UnsafeMutableRawPointer: CurlChannel] = [:]

    private enum Command { case start, poke }
    private enum ThreadState { case notStarted, running, stopping, stopped }

    init(maxConnections: Int, maxConnectionsPerHost: Int) {
        _ = curlReady
        multi = curl_multi_init()
        if let multi {
            _ = ip_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(8, min(1024, maxConnections)))
            // HTTP/2 streams share a connection (the default since libcurl 7.62, said outright),
            // and HTTP/1.1 transfers beyond the per-host cap wait for a connection.
            _ = ip_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
            _ = ip_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, min(1024, maxConnectionsPerHost))
            // As many streams on a connection as the server allows (libcurl's own cap is 100).
            _ = ip_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, 1000)
        }
    }

    /// Puts the channel's prepared transfer on the multi handle.
    func start(_ channel: CurlChannel) { send(.start, channel) }

    /// Asks the driver to look at the channel again: a cancel.
    func poke(_ channel: CurlChannel) { send(.poke, channel) }

    private func send(_ command: Command, _ channel: CurlChannel) {
        let accepted: Bool = lock.locked {
            switch threadState {
            case .stopping, .stopped:
                return false
            case .notStarted:
                threadState = .running
                let thread = Thread { [self] in run() }
                thread.name = "ImageProbeFetch.curl"
                thread.start()
            case .running:
                break
            }
            commands.append((command, channel))
            return true
        }
        if !accepted {
            channel.finish(CURLE_ABORTED_BY_CALLBACK, shutDown: true, pendingToo: true)
            return
        }
        if let multi { _ = curl_multi_wakeup(multi) }
    }

    /// Frees an easy handle once it is off the multi handle (on the driver thread, or at once
    /// when the thread never ran or has ended).
    func free(_ easy: UnsafeMutableRawPointer) {
        let now: Bool = lock.locked {
            if threadState == .running || threadState == .stopping {
                toFree.append(easy)
                return false
            }
            return true
        }
        if now {
            curl_easy_cleanup(easy)
        } else if let multi {
            _ = curl_multi_wakeup(multi)
        }
    }

    func shutdown() {
        let wake: Bool = lock.locked {
            switch threadState {
            case .notStarted:
                threadState = .stopped
                if let multi { curl_multi_cleanup(multi) }
                return false
            case .running:
                threadState = .stopping
                return true
            case .stopping, .stopped:
                return false
            }
        }
        if wake, let multi { _ = curl_multi_wakeup(multi) }
    }

    private func run() {
        guard let multi else { return }
        while true {
            let (pending, frees, stopping) = lock.locked { () -> ([(Command, CurlChannel)], [UnsafeMutableRawPointer], Bool) in
                defer {
                    commands.removeAll()
                    toFree.removeAll()
                }
                return (commands, toFree, threadState == .stopping)
            }
            for (command, channel) in pending {
                guard let easy = channel.easy else { continue }
                switch command {
                case .start:
                    if active.removeValue(forKey: easy) != nil {
                        // Still draining the last response after its answer was delivered:
                        // that connection is dropped, and the handle carries the new request.
                        _ = curl_multi_remove_handle(multi, easy)
                    }
                    channel.configure()
                    if stopping || channel.cancelRequested {
                        channel.finish(CURLE_ABORTED_BY_CALLBACK, shutDown: stopping)
                    } else if curl_multi_add_handle(multi, easy) == CURLM_OK {
                        active[easy] = channel
                    } else {
                        channel.finish(CURLE_FAILED_INIT, shutDown: false)
                    }
                case .poke:
                    if active[easy] != nil, channel.cancelRequested {
                        active[easy] = nil
                        _ = curl_multi_remove_handle(multi, easy)
                        channel.finish(CURLE_ABORTED_BY_CALLBACK, shutDown: false)
                    }
                }
            }
            for easy in frees {
                if active.removeValue(forKey: easy) != nil { _ = curl_multi_remove_handle(multi, easy) }
                curl_easy_cleanup(easy)
            }
            if stopping {
                for (easy, channel) in active {
                    _ = curl_multi_remove_handle(multi, easy)
                    channel.finish(CURLE_ABORTED_BY_CALLBACK, shutDown: true)
                }
                active.removeAll()
                lock.locked {
                    threadState = .stopped
                    for easy in toFree { curl_easy_cleanup(easy) }
                    toFree.removeAll()
                    for (_, channel) in commands { channel.finish(CURLE_ABORTED_BY_CALLBACK, shutDown: true, pendingToo: true) }
                    commands.removeAll()
                }
                curl_multi_cleanup(multi)
                return
            }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let result = message.pointee.data.result
                _ = curl_multi_remove_handle(multi, easy)
                active.removeValue(forKey: easy)?.finish(result, shutDown: false)
            }
            // Sleeps until a socket is ready, one of libcurl's timers is due, or another thread
            // calls curl_multi_wakeup; libcurl shortens the wait to its own next timeout.
            _ = curl_multi_poll(multi, nil, 0, 60_000, nil)
        }
    }
}

/// One probe's easy handle: its requests, one after another, reuse the connection the last
/// one left in the pool.
final class CurlChannel: ProbeChannel, @unchecked Sendable {
    fileprivate let easy: UnsafeMutableRawPointer?
    private let driver: CurlDriver
    private let options: Options
    typealias Options = CurlTransport.Options

    private let lock = NSLock()
    // Guarded by `lock`: written by the driver thread's callbacks, read by the probe once the
    // exchange has ended, and `cancelRequested` by whoever cancels.
    private var completion: (@Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void)? = nil
    private var handler: ResponseHandler? = nil
    /// The final (non-1xx) head has ended; `interimHead`: the head being read is a 1xx one.
    private var headComplete = false
    private var interimHead = false
    /// The handler is done with this response (it said so, or didn't want the body).
    private var stopped = false
    /// Reading the rest of a small response through, discarding it, to keep the connection:
    /// after the exchange's completion, for at most `drainTime` from this instant.
    private var draining: Deadline? = nil
    /// The next exchange, waiting for the driver thread: it takes the handle off the multi
    /// handle if the last response is still draining, and only then makes this exchange the
    /// current one, so no callback of the last response ever reaches this one's handler.
    private var pending: (request: HTTPRequest, deadline: Deadline, handler: ResponseHandler,
                          completion: @Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void)? = nil
    /// The probe's byte budget (`FetchConfiguration.maxBytes`), as a second bound on TCP's
    /// count of bytes received, below libcurl's framing (TLS records, HTTP/2).
    private var budget = Int.max
    /// The socket the transfer is on, and TCP's count of bytes received on it when this
    /// exchange first saw it.
    private var socketBaseline: (socket: Int32, received: Int64)? = nil
    /// The handler said the byte budget is spent.
    private var overBudget = false
    /// The socket this exchange's connection opened (`openSocket`) and its inode: the one to
    /// shut when the budget is spent, if the descriptor still names that socket. A connection
    /// reused from the pool isn't known here (libcurl tells the active socket only after a
    /// transfer); then the progress callback's check ends the transfer.
    private var transferSocket: (descriptor: Int32, inode: UInt)? = nil
    /// Bytes of this exchange reported to the handler, and what TCP had received on the socket
    /// it opened when the progress callback last looked.
    private var exchangeBytes = 0
    private var tcpSeen: Int64 = 0
    /// The exchange is over TLS.
    private var secure = false
    private var refusedAddress: String? = nil
    private var sent = 0
    private var cancelled = false
    private var headerList: UnsafeMutablePointer<curl_slist>? = nil
    /// libcurl's own words for a failure (CURLOPT_ERRORBUFFER).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(driver: CurlDriver, options: Options) {
        self.driver = driver
        self.options = options
        easy = curl_easy_init()
        guard let easy else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ip_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ip_easy_quick_exit(easy)
        _ = ip_easy_allow_http_only(easy)
        _ = ip_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        _ = ip_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        _ = options.userAgent.withCString { ip_easy_setopt_pointer(easy, CURLOPT_USERAGENT, UnsafeMutableRawPointer(mutating: $0)) }
        _ = ip_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, curlWrite)
        _ = ip_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        _ = ip_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, curlHeader)
        _ = ip_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me)
        _ = ip_easy_setopt_opensocket_callback(easy, curlOpenSocket)
        _ = ip_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, me)
        // Every byte received is counted as it comes off the connection (the debug callback),
        // and the transfer is checked against the budget as it runs (the progress callback).
        _ = ip_easy_setopt_debug_callback(easy, curlDebug)
        _ = ip_easy_setopt_pointer(easy, CURLOPT_DEBUGDATA, me)
        _ = ip_easy_setopt_xferinfo_callback(easy, curlProgress)
        _ = ip_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, me)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        _ = ip_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
        if let file = options.certificateAuthorities {
            // These authorities only, not the system's store.
            _ = file.withCString { ip_easy_setopt_pointer(easy, CURLOPT_CAINFO, UnsafeMutableRawPointer(mutating: $0)) }
            _ = ip_easy_setopt_pointer(easy, CURLOPT_CAPATH, nil)
        }
        if let resolver = options.dnsOverHTTPS {
            _ = resolver.withCString { ip_easy_setopt_pointer(easy, CURLOPT_DOH_URL, UnsafeMutableRawPointer(mutating: $0)) }
        }
        if options.policy.publicOnly {
            // An empty proxy turns off the environment's proxies: through a proxy, the address
            // connected to is the proxy's, and the policy could not be checked.
            _ = "".withCString { ip_easy_setopt_pointer(easy, CURLOPT_PROXY, UnsafeMutableRawPointer(mutating: $0)) }
        }
    }

    deinit {
        // Never on the multi handle here: the driver holds the channel while it is.
        if let easy {
            _ = ip_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, nil)
            driver.free(easy)
        }
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    var requests: Int { lock.locked { sent } }
    fileprivate var cancelRequested: Bool { lock.locked { cancelled } }

    func cancel() {
        lock.locked { cancelled = true }
        driver.poke(self)
    }

    func start(_ request: HTTPRequest, until deadline: Deadline, _ handler: ResponseHandler,
               completion: @escaping @Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void) {
        guard easy != nil else { return completion(.failure(TransportError(kind: .connection, detail: "libcurl could not be initialised"))) }
        if cancelRequested { return completion(.failure(TransportError(kind: .cancelled, detail: ""))) }
        guard deadline.secondsLeft > 0 else { return completion(.failure(TransportError(kind: .timeout, detail: ""))) }
        lock.locked {
            pending = (request, deadline, handler, completion)
            sent += 1
        }
        driver.start(self)
    }

    /// Makes the pending exchange the current one and sets the handle's options for it: on
    /// the driver thread, with the handle off the multi handle.
    fileprivate func configure() {
        guard let easy else { return }
        let next: (request: HTTPRequest, deadline: Deadline)? = lock.locked {
            guard let pending else { return nil }
            handler = pending.handler
            completion = pending.completion
            budget = pending.request.byteBudget
            headComplete = false
            interimHead = false
            stopped = false
            draining = nil
            overBudget = false
            transferSocket = nil
            exchangeBytes = 0
            tcpSeen = 0
            secure = pending.request.url.lowercased().hasPrefix("https:")
            refusedAddress = nil
            socketBaseline = nil
            errorBuffer[0] = 0
            return (pending.request, pending.deadline)
        }
        guard let (request, deadline) = next else { return }
        _ = request.url.withCString { ip_easy_setopt_pointer(easy, CURLOPT_URL, UnsafeMutableRawPointer(mutating: $0)) }
        _ = request.userAgent.withCString { ip_easy_setopt_pointer(easy, CURLOPT_USERAGENT, UnsafeMutableRawPointer(mutating: $0)) }
        // The planner's header lines, as they are (Range, If-Range, Accept-Encoding).
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for (name, value) in request.headerLines { list = curl_slist_append(list, "\(name): \(value)") }
        _ = ip_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, list.map { UnsafeMutableRawPointer($0) })
        // The whole exchange (name resolution, connection, TLS, head and body) within the deadline.
        let left = max(0.001, deadline.secondsLeft)
        _ = ip_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, left.wholeMillisecondsForCurl)
        _ = ip_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, left.wholeMillisecondsForCurl)
        // Over https, wait for the host's connection to say (by ALPN) whether it multiplexes
        // before opening another; plain http is HTTP/1.1, and waiting would cost a round trip.
        _ = ip_easy_setopt_long(easy, CURLOPT_PIPEWAIT, request.url.lowercased().hasPrefix("https:") ? 1 : 0)
        let previousList: UnsafeMutablePointer<curl_slist>? = lock.locked {
            defer { headerList = list }
            pending = nil
            return headerList
        }
        if let previousList { curl_slist_free_all(previousList) }
    }

    /// The end of the transfer, on the driver thread (or the caller's, when the driver has
    /// stopped): the exchange's completion.
    /// `pendingToo`: the exchange waiting to start never will (the driver stopped before it
    /// ran), so it ends too.
    fileprivate func finish(_ code: CURLcode, shutDown: Bool, pendingToo: Bool = false) {
        countWhatTCPReceived()
        let (completion, result): ((@Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void)?,
                                   Result<RangePlanner.BodyEnd, TransportError>) = lock.locked {
            if pendingToo, let waiting = pending {
                pending = nil
                self.completion = waiting.completion
                headComplete = false
                overBudget = false
            }
            defer {
                self.completion = nil
                handler = nil
            }
            return (self.completion, outcome(code, shutDown: shutDown))
        }
        completion?(result)
    }

    /// What TCP received on the connection this exchange opened, beyond what libcurl showed
    /// (a header line libcurl buffers until its end, 100 KB at most, then refuses; bytes read
    /// ahead), as the progress callback last saw it: reported too, so `bytesTransferred` is
    /// every byte that came. (The socket is closed by now.)
    /// Over TLS, TCP's count holds the handshake and the records' overhead, which the other
    /// front ends don't count (they see the decrypted bytes): there it is left out.
    private func countWhatTCPReceived() {
        let (seen, counted, handler, plain) = lock.locked { (tcpSeen, exchangeBytes, self.handler, !secure) }
        if let handler, plain, seen > Int64(counted) { _ = handler.received(Int(seen - Int64(counted))) }
    }

    /// How the exchange ended, as the planner's classes. Called with `lock` held.
    private func outcome(_ code: CURLcode, shutDown: Bool) -> Result<RangePlanner.BodyEnd, TransportError> {
        func failed(_ kind: RangePlanner.TransportFailure, _ detail: String? = nil) -> Result<RangePlanner.BodyEnd, TransportError> {
            .failure(TransportError(kind: kind, detail: detail ?? describe(code)))
        }
        if cancelled { return failed(.cancelled, "") }
        if shutDown { return failed(.cancelled, "the fetcher was released") }
        if overBudget { return failed(.limitExceeded, "") }
        // Once the handler is done, how the rest went doesn't matter: it was discarded.
        if stopped { return .success(.stopped) }
        switch code {
        case CURLE_OK where headComplete:
            return .success(.complete)
        case CURLE_OPERATION_TIMEDOUT:
            return failed(.timeout, "")
        case CURLE_COULDNT_CONNECT where refusedAddress != nil:
            return failed(.forbiddenAddress, refusedAddress)
        case CURLE_RECV_ERROR where headComplete && describe(code).contains("chunk"):
            // libcurl's chunked decoder refused a chunk size ("-1", 20 hex digits).
            return failed(.invalidResponse)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SSL_CONNECT_ERROR:
            // After the head, the connection ended inside the body; before, there was none.
            return headComplete ? .success(.closed) : failed(.connection)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
            // The URL is http(s) (the planner checked): the server answered in something
            // else, HTTP/0.9 (no status line) in practice, or broke HTTP.
            return failed(.invalidResponse)
        case CURLE_OUT_OF_MEMORY where !headComplete:
            // libcurl refuses a header line over 100 KB this way.
            return failed(.invalidResponse, "a response header line longer than libcurl accepts")
        default:
            return failed(.connection)
        }
    }

    /// libcurl's words for the failure: its error buffer, else the code's description.
    private func describe(_ code: CURLcode) -> String {
        let buffer = String(cString: errorBuffer)
        return buffer.isEmpty ? String(cString: curl_easy_strerror(code)) : buffer
    }

    // MARK: - Callbacks, on the driver thread

    fileprivate func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        let handler: ResponseHandler? = lock.locked { headComplete || stopped || draining != nil ? nil : self.handler }
        // Trailers after a chunked body, or a response being drained: nothing to do.
        guard let handler else { return line.count }
        if line.count >= 12, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50 {
            // A status line: an interim (1xx) head is followed by another.
            var space = 0
            while space < line.count && line[space] != 0x20 { space += 1 }
            lock.locked { interimHead = space + 1 < line.count && line[space + 1] == 0x31 }
        }
        let wanted = handler.headLine(line)
        let blank = line.count <= 2 && (line.first == 0x0A || line.first == 0x0D)
        if blank { lock.locked { if !interimHead { headComplete = true } } }
        if wanted { return line.count }
        return stop(drainable: handler.drainable) ? line.count : 0
    }

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        lock.lock()
        if draining != nil {
            lock.unlock()
            return bytes.count
        }
        guard let handler, !stopped else {
            lock.unlock()
            return 0
        }
        lock.unlock()
        if handler.body(bytes) { return bytes.count }
        return stop(drainable: handler.drainable) ? bytes.count : 0
    }

    /// The handler is done with the response. When the rest is short (`drainable`), it is read
    /// and discarded so the connection can carry the next request, but the exchange is
    /// complete now: the answer never waits for those bytes (SPEC.md §6.2). Returns whether
    /// to go on reading.
    private func stop(drainable: Bool) -> Bool {
        let completion: (@Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void)? = lock.locked {
            stopped = true
            guard drainable, headComplete else { return nil }
            draining = Deadline.now.adding(TransportLimits.drainTime)
            defer {
                self.completion = nil
                handler = nil
            }
            return self.completion
        }
        completion?(.success(.stopped))
        return drainable && completion != nil
    }

    /// Every byte libcurl received, as it came off the connection: the status lines, header
    /// fields and trailers (CURLINFO_HEADER_IN), and the body with its chunk framing and
    /// extensions (CURLINFO_DATA_IN), reported to the planner, which keeps the budget.
    fileprivate func count(_ bytes: Int) {
        let handler: ResponseHandler? = lock.locked {
            guard draining == nil else { return nil }
            exchangeBytes += bytes
            return self.handler
        }
        guard let handler, !handler.received(bytes) else { return }
        // Past the budget: libcurl's next read must find the connection ended, not wait for its
        // next progress callback while a flood of framing (chunk extensions) pours in: it reads
        // up to 100 times in one perform. (On a connection from the pool, whose socket isn't
        // known here, that is the bound: 1.6 MB past the budget at its 16 KB reads.)
        let socket = lock.locked {
            overBudget = true
            return transferSocket
        }
        // Only while the descriptor still names the socket opened for this exchange (libcurl
        // closes and the system reuses descriptors; all of that happens on this thread).
        if let socket, Self.inode(socket.descriptor) == socket.inode { _ = Glibc.shutdown(socket.descriptor, Int32(SHUT_RDWR)) }
    }

    /// Whether the transfer must stop now: the probe's byte budget is spent (counted above, or,
    /// with its TLS and HTTP/2 framing, by TCP on the socket), or a drain ran out of time.
    fileprivate func mustAbort() -> Bool {
        guard let easy else { return true }
        // The socket this exchange opened (a new connection: TCP's count is this exchange's),
        // else the one libcurl names, counted from the first look.
        let opened = lock.locked { transferSocket }
        let own = opened.flatMap { Self.inode($0.descriptor) == $0.inode ? $0.descriptor : nil }
        let socket = own ?? Int32(ip_easy_active_socket(easy))
        let onSocket = socket >= 0 ? ip_socket_bytes_received(socket) : -1
        return lock.locked {
            if let draining { return Deadline.now >= draining }
            if own != nil, onSocket > tcpSeen { tcpSeen = onSocket }
            if overBudget { return true }
            guard socket >= 0, onSocket >= 0 else { return false }
            if socketBaseline?.socket != socket { socketBaseline = (socket, own != nil ? 0 : onSocket) }
            // A pooled connection's baseline is taken at the first check, after the first bytes
            // of the response may have arrived: those are counted above, within the budget.
            if let baseline = socketBaseline, onSocket - baseline.received > Int64(budget) {
                overBudget = true
                return true
            }
            return false
        }
    }

    fileprivate func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        var raw = [UInt8](repeating: 0, count: 16)
        let family = ip_sockaddr_bytes(address, &raw)
        if options.policy.publicOnly {
            let address = family == AF_INET ? Array(raw[0..<4]) : family == AF_INET6 ? raw : []
            if let refusal = options.policy.refusal(address) {
                lock.locked { refusedAddress = refusedAddress ?? refusal }
                return -1  // CURL_SOCKET_BAD: libcurl tries the next address, if any
            }
        }
        let descriptor = socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
        if descriptor >= 0 {
            var size = TransportLimits.receiveBuffer
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            if let inode = Self.inode(descriptor) { lock.locked { transferSocket = (descriptor, inode) } }
        }
        return descriptor
    }

    /// The inode behind a descriptor, which names the socket however descriptors are reused.
    private static func inode(_ descriptor: Int32) -> UInt? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? UInt(status.st_ino) : nil
    }
}

private let curlWrite: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let channel = Unmanaged<CurlChannel>.fromOpaque(context).takeUnretainedValue()
    return channel.receiveBody(UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: size * count))
}

private let curlHeader: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let channel = Unmanaged<CurlChannel>.fromOpaque(context).takeUnretainedValue()
    return channel.receiveHeader(UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: size * count))
}

private let curlDebug: curl_debug_callback = { _, kind, _, size, context in
    guard let context, kind == CURLINFO_HEADER_IN || kind == CURLINFO_DATA_IN else { return 0 }
    Unmanaged<CurlChannel>.fromOpaque(context).takeUnretainedValue().count(size)
    return 0
}

private let curlProgress: curl_xferinfo_callback = { context, _, _, _, _ in
    guard let context else { return 1 }
    return Unmanaged<CurlChannel>.fromOpaque(context).takeUnretainedValue().mustAbort() ? 1 : 0
}

private let curlOpenSocket: curl_opensocket_callback = { context, _, address in
    guard let context, let address else { return -1 }
    return Unmanaged<CurlChannel>.fromOpaque(context).takeUnretainedValue().openSocket(address)
}
#endif
