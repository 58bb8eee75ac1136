import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The certificate authorities of `FetchConfiguration.certificateAuthorities`, read once when
/// the fetcher is made (SPEC.md §6.2): a regular file of at most `maxFileSize` bytes holding at
/// least one PEM `CERTIFICATE` block. Anything else is a configuration error then, on every
/// transport, rather than a failure of every https request later (or, for a FIFO, a read
/// that never ends).
enum CertificateAuthorities {
    /// The largest CA file read: a bundle of every public root is about 220 KB.
    static let maxFileSize = 4 << 20

    /// The DER bytes of every certificate in the PEM file at `url`.
    static func load(_ url: URL) throws(FetchError) -> [Data] {
        let path = url.path
        func refuse(_ why: String) -> FetchError { FetchError(.configuration, "certificate authorities \(path): \(why)") }
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw refuse(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw refuse(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refuse("not a regular file") }
        guard status.st_size <= maxFileSize else { throw refuse("larger than \(maxFileSize) bytes") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw refuse(String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        guard filled <= maxFileSize else { throw refuse("larger than \(maxFileSize) bytes") }
        let certificates = PEM.certificates(in: Data(bytes[..<filled]))
        guard !certificates.isEmpty else { throw refuse("no PEM certificate in it") }
        return certificates
    }
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
