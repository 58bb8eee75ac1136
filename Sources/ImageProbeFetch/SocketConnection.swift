import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Cancels a probe from another thread: marks it cancelled and shuts down its socket, which
/// wakes a blocked `poll` at once.
final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var socket: Int32 = -1
    private var onCancel: (@Sendable () -> Void)? = nil

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        // The shutdown happens under the lock: the probe thread unwatches (under the lock)
        // before it closes the descriptor, so its number can't have been reused meanwhile.
        let action: (@Sendable () -> Void)? = lock.withLock {
            cancelled = true
            if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            return onCancel
        }
        action?()
    }

    /// The socket to shut down on cancellation, or -1 before closing it. Shut down at once if
    /// the probe was cancelled before the socket existed.
    func watch(socket descriptor: Int32) {
        lock.withLock {
            socket = descriptor
            if cancelled && descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Something else to stop on cancellation (a URLSession task); nil to forget it. Run at
    /// once if the probe was cancelled before the task existed.
    func watch(_ action: (@Sendable () -> Void)?) {
        let already = lock.withLock {
            onCancel = action
            return cancelled
        }
        if already { action?() }
    }
}

/// A TCP connection with blocking I/O bounded by deadlines.
///
/// The receive buffer is set small before connecting, so the TCP window stays small: when the
/// probe has its answer and closes the connection, the server cannot have pushed more than a
/// few kilobytes beyond it, even when it ignores Range and sends the whole file.
final class SocketConnection {
    let descriptor: Int32
    let host: String
    let port: Int
    let cancellation: Cancellation

    /// Bytes of the receive buffer asked of the kernel (it may double it).
    static let receiveBuffer: Int32 = 16 * 1024

    init(host: String, port: Int, deadline: ContinuousClock.Instant, cancellation: Cancellation) throws(FetchError) {
        self.host = host
        self.port = port
        self.cancellation = cancellation
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc) || canImport(Musl)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>? = nil
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw FetchError(.connection, "cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        var lastError = FetchError(.connection, "cannot connect to \(host):\(port)")
        var addressesLeft = 0
        var counting: UnsafeMutablePointer<addrinfo>? = first
        while let address = counting {
            addressesLeft += 1
            counting = address.pointee.ai_next
        }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            // Each address gets an equal share of the time left, so one that black-holes
            // (an unreachable IPv6 route) leaves time for the next.
            let share = (deadline - ContinuousClock.now) / max(1, addressesLeft)
            addressesLeft -= 1
            let attemptDeadline = min(deadline, ContinuousClock.now + max(share, .zero))
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            var size = Self.receiveBuffer
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var on: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let flags = fcntl(descriptor, F_GETFL, 0)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            cancellation.watch(socket: descriptor)
            if connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try Self.wait(descriptor, for: Int16(POLLOUT), until: attemptDeadline, cancellation)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        self.descriptor = descriptor
                        return
                    }
                    lastError = FetchError(.connection, "cannot connect to \(host):\(port): \(String(cString: strerror(error)))")
                } catch where error.kind == .timeout {
                    lastError = error
                } catch {
                    cancellation.watch(socket: -1)
                    close(descriptor)
                    throw error
                }
            }
            cancellation.watch(socket: -1)
            close(descriptor)
        }
        throw lastError
    }

    deinit {
        cancellation.watch(socket: -1)
        close(descriptor)
    }

    /// Sends all of `bytes` before the deadline.
    func send(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(FetchError) {
        var offset = 0
        while offset < bytes.count {
            try Self.wait(descriptor, for: Int16(POLLOUT), until: deadline, cancellation)
            #if canImport(Darwin)
            let flags: Int32 = 0
            #else
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            let sent = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress! + offset, $0.count - offset, flags) }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw FetchError(.connection, "send failed: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// Receives up to `buffer.count` bytes before the deadline; 0 at the end of the stream.
    func receive(into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant) throws(FetchError) -> Int {
        while true {
            try Self.wait(descriptor, for: Int16(POLLIN), until: deadline, cancellation)
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            // A cancel shuts the socket down, which reads as the end of the stream.
            if count == 0 && cancellation.isCancelled { throw FetchError(.cancelled, "cancelled") }
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EINTR { continue }
            if cancellation.isCancelled { throw FetchError(.cancelled, "cancelled") }
            throw FetchError(.connection, "receive failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Waits for `events` on the socket until the deadline, or cancellation.
    static func wait(_ descriptor: Int32, for events: Int16, until deadline: ContinuousClock.Instant, _ cancellation: Cancellation) throws(FetchError) {
        while true {
            if cancellation.isCancelled { throw FetchError(.cancelled, "cancelled") }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw FetchError(.timeout, "no response within the timeout") }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(min(Int64(2_000_000), seconds) * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw FetchError(.connection, "poll failed: \(String(cString: strerror(errno)))") }
        }
    }
}
