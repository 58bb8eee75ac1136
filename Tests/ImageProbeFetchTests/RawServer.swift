import Foundation
import ImageProbeTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on loopback that answers with canned bytes, for what nginx can't be made to
/// do: a body cut short of its Content-Length, a silent server, malformed or hostile answers.
final class RawServer: @unchecked Sendable {
    enum Behaviour {
        /// Sends `bytes`, then closes the connection.
        case sendThenClose([UInt8])
        /// Accepts, reads the request, and never answers until the server is stopped.
        case silent
        /// Answers each request (its head, counted from 0) with what `answer` returns, on a
        /// kept-alive connection or new ones; nil closes the connection.
        case respond(@Sendable (_ head: String, _ index: Int) -> [UInt8]?)
        /// Writes each answer as it likes with `send`, which returns false once the client has
        /// gone; the connection is closed when `answer` returns false, kept when true.
        case stream(@Sendable (_ head: String, _ index: Int, _ send: ([UInt8]) -> Bool) -> Bool)
    }

    let port: Int
    let address: String
    private let listener: Int32
    private let thread: Thread
    private let recorder: Recorder

    /// Listens on `address` (any of 127.0.0.0/8 works on Linux), on a port of its own. A
    /// `concurrent` server serves each connection on a thread of its own, so a stalled one
    /// doesn't hold up the next.
    init(_ behaviour: Behaviour, address host: String = "127.0.0.1", concurrent: Bool = false) throws {
        let listener = socket(AF_INET, streamSocket, 0)
        self.listener = listener
        self.address = host
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, raw, &length) == 0
            }
        }
        guard listening else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let box = Recorder()
        thread = Thread { Self.serve(listener, behaviour, box, concurrent: concurrent) }
        recorder = box
        thread.start()
    }

    /// Request heads, shared with the serving thread.
    final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var heads: [String] = []
        var connections = 0
        var closed = 0
        var bytes = 0
        var sent = 0
        var index = 0
    }

    /// The request heads received, in order.
    var requestHeads: [String] { recorder.lock.held { recorder.heads } }
    /// Connections accepted, and bytes received on them.
    var connections: Int { recorder.lock.held { recorder.connections } }
    /// Connections the client has closed (or that were answered and closed).
    var closedConnections: Int { recorder.lock.held { recorder.closed } }
    var bytesReceived: Int { recorder.lock.held { recorder.bytes } }
    /// Bytes the kernel accepted from this server for sending (`send`'s count).
    var bytesSent: Int { recorder.lock.held { recorder.sent } }

    private static func serve(_ listener: Int32, _ behaviour: Behaviour, _ recorder: Recorder, concurrent: Bool) {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                // Closed here, not in stop(): a number closed there could be reused by another
                // test's listener while this thread still accepts on it.
                close(listener)
                return
            }
            recorder.lock.held { recorder.connections += 1 }
            if concurrent {
                Thread { converse(connection, behaviour, recorder) }.start()
            } else {
                converse(connection, behaviour, recorder)
            }
        }
    }

    private static func converse(_ connection: Int32, _ behaviour: Behaviour, _ recorder: Recorder) {
        func transmit(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return false }
                recorder.lock.held { recorder.sent += count }
                offset += count
            }
            return true
        }
        conversation: while let head = readHead(connection, recorder) {
            let index: Int = recorder.lock.held {
                recorder.heads.append(head)
                defer { recorder.index += 1 }
                return recorder.index
            }
            var answer: [UInt8]? = nil
            switch behaviour {
            case .sendThenClose(let bytes):
                answer = bytes
            case .silent:
                var byte: UInt8 = 0
                while read(connection, &byte, 1) > 0 { recorder.lock.held { recorder.bytes += 1 } }  // until the client gives up
            case .respond(let respond):
                answer = respond(head, index)
            case .stream(let stream):
                if stream(head, index, transmit) { continue conversation }
                break conversation
            }
            guard let answer else { break }
            _ = transmit(answer)
            if case .sendThenClose = behaviour { break }
        }
        close(connection)
        recorder.lock.held { recorder.closed += 1 }
    }

    /// The `bytes=first-last` of a request head.
    static func range(in head: String) -> (first: UInt64, last: UInt64)? {
        guard let line = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("range: bytes=") }) else { return nil }
        let bounds = line.dropFirst("range: bytes=".count).split(separator: "-").compactMap { UInt64($0) }
        return bounds.count == 2 ? (bounds[0], bounds[1]) : nil
    }

    /// Reads one request head, byte by byte (requests are small); nil when the client closed.
    private static func readHead(_ connection: Int32, _ recorder: Recorder) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(connection, &byte, 1) == 1 {
            recorder.lock.held { recorder.bytes += 1 }
            bytes.append(byte)
            if bytes.count >= 4 && bytes.suffix(4) == [13, 10, 13, 10] { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count > 65536 { return nil }
        }
        return nil
    }

    var url: URL { URL(string: "http://\(address):\(port)/image")! }

    /// Stops accepting; the serving thread closes the listener once it sees that.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// An HTTP/1.1 response with `headers` and `body`, Content-Length set unless given.
    static func response(_ status: String, _ headers: [String] = [], _ body: [UInt8] = []) -> [UInt8] {
        var text = "HTTP/1.1 \(status)\r\n"
        for header in headers { text += header + "\r\n" }
        if !headers.contains(where: { $0.lowercased().hasPrefix("content-length:") || $0.lowercased().hasPrefix("transfer-encoding:") }) {
            text += "Content-Length: \(body.count)\r\n"
        }
        return Array((text + "\r\n").utf8) + body
    }
}
