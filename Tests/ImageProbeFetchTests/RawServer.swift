import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-connection TCP server on loopback that answers with canned bytes, for failures nginx
/// can't be configured to produce: a body cut short of its Content-Length, a silent server.
final class RawServer: @unchecked Sendable {
    enum Behaviour {
        /// Sends `bytes`, then closes the connection.
        case sendThenClose([UInt8])
        /// Accepts, reads the request, and never answers until the server is stopped.
        case silent
    }

    let port: Int
    private let listener: Int32
    private let thread: Thread

    init(_ behaviour: Behaviour) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
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
        let descriptor = listener
        thread = Thread {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &request, request.count)
            switch behaviour {
            case .sendThenClose(let bytes):
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
            case .silent:
                // Wait for the client to give up (read returns 0) or the server to stop.
                while read(connection, &request, request.count) > 0 {}
                close(connection)
            }
        }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/image")! }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
