import Foundation
import ImageProbe
@testable import ImageProbeFetch
import ImageProbeFixtures
import Testing

/// Servers that lie: each answer must end in a clear `FetchError`, never a trap, a hang or a
/// wrong size.
@Suite struct HostileServerTests {
    static func configuration(_ change: (inout FetchConfiguration) -> Void = { _ in }) -> FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.cacheCapacity = 0
        configuration.requestTimeout = 5
        change(&configuration)
        return configuration
    }

    static func probe(_ server: RawServer, _ configuration: FetchConfiguration = configuration()) async -> Result<ProbeResult, FetchError> {
        await Result(probing: { () throws(FetchError) in try await ImageProbeFetcher(configuration: configuration).probe(server.url) })
    }

    /// A 206 for the requested range of `bytes`, the total given as `total` ("*" allowed).
    static func partial(_ bytes: [UInt8], _ head: String, total: String? = nil, headers: [String] = []) -> [UInt8] {
        guard let range = RawServer.range(in: head), range.first < UInt64(bytes.count) else {
            return RawServer.response("416 Range Not Satisfiable")
        }
        let last = min(range.last, UInt64(bytes.count - 1))
        let body = Array(bytes[Int(range.first)...Int(last)])
        return RawServer.response("206 Partial Content", ["Content-Range: bytes \(range.first)-\(last)/\(total ?? String(bytes.count))"] + headers, body)
    }

    @Test func aJumpToTheEndOfOffsetsEndsTheInput() async throws {
        // A BigTIFF whose IFD0 is at 2^64 − 1024, from a server that doesn't say the total:
        // the second range ends at exactly UInt64.max, and the offset after it doesn't exist.
        var header = ascii("II")
        header.append16(43, .littleEndian)
        header.append16(8, .littleEndian)
        header.append16(0, .littleEndian)
        header.append64(UInt64.max - 1023, .littleEndian)
        let bigTIFFHeader = header
        let server = try RawServer(.respond { head, index in
            guard let range = RawServer.range(in: head) else { return nil }
            if index == 0 {
                return RawServer.response("206 Partial Content", ["Content-Range: bytes 0-15/*"], bigTIFFHeader)
            }
            // The directory claims 1000 entries: more than the 1024 bytes left to 2^64.
            var body: [UInt8] = []
            body.append64(1000, .littleEndian)
            body += [UInt8](repeating: 0, count: Int(range.last - range.first + 1) - 8)
            return RawServer.response("206 Partial Content", ["Content-Range: bytes \(range.first)-\(range.last)/*"], body)
        })
        defer { server.stop() }
        let result = await Self.probe(server)
        // The scanner sees a directory running past 2^64: malformed, and no trap on the way.
        #expect(result.failureCode == .scan)
        #expect(result.scanFailureCode == .malformed || result.scanFailureCode == .truncated)
        #expect(server.requestHeads.count == 2)
    }

    @Test func bodyLongerThanItsContentRange() async throws {
        let image = JPEGBuilder.image(width: 30, height: 20).bytes
        let server = try RawServer(.respond { _, _ in
            // Chunked, so the framing allows it: 64 bytes for a range of 4.
            let chunk = Array(String(64, radix: 16).utf8) + [13, 10] + Array(image.prefix(64)) + Array("\r\n0\r\n\r\n".utf8)
            return RawServer.response("206 Partial Content", ["Content-Range: bytes 0-3/\(image.count)", "Transfer-Encoding: chunked"], chunk)
        })
        defer { server.stop() }
        #expect(await Self.probe(server).failureCode == .badContentRange)
    }

    @Test func contentLengthDisagreeingWithContentRange() async throws {
        let server = try RawServer(.respond { _, _ in
            RawServer.response("206 Partial Content", ["Content-Range: bytes 0-99/1000", "Content-Length: 3"], [0xFF, 0xD8, 0xFF])
        })
        defer { server.stop() }
        #expect(await Self.probe(server).failureCode == .badContentRange)
    }

    @Test func resourceLengthChangingBetweenRequests() async throws {
        // 1 KiB of APP1 before the frame header: the second request reads on past it.
        let image = JPEGBuilder.image(before: JPEGBuilder.segment(0xE1, [UInt8](repeating: 7, count: 3000)), width: 30, height: 20).bytes
        let server = try RawServer(.respond { head, index in
            Self.partial(image, head, total: index == 0 ? nil : String(image.count + 1))
        })
        defer { server.stop() }
        let result = await Self.probe(server)
        #expect(result.failureCode == .badContentRange, "\(result)")
        #expect(server.requestHeads.count == 2)
    }

    @Test func validatorIsSentAsIfRange() async throws {
        let image = JPEGBuilder.image(before: JPEGBuilder.segment(0xE1, [UInt8](repeating: 7, count: 3000)), width: 30, height: 20).bytes
        let server = try RawServer(.respond { head, index in
            // The first response carries a strong ETag.
            Self.partial(image, head, headers: index == 0 ? ["ETag: \"v1\""] : [])
        })
        defer { server.stop() }
        let result = try await Self.probe(server).get()
        #expect(result.info.width == 30 && result.info.height == 20)
        #expect(result.requests == 2)
        #expect(server.requestHeads.last?.contains("If-Range: \"v1\"\r\n") == true)
    }

    @Test func changedResourceIsScannedAfresh() async throws {
        // If-Range fails: the server sends the new version whole (200). Its size, not a mix.
        let old = JPEGBuilder.image(before: JPEGBuilder.segment(0xE1, [UInt8](repeating: 7, count: 3000)), width: 30, height: 20).bytes
        let new = JPEGBuilder.image(width: 77, height: 55).bytes
        let server = try RawServer(.respond { head, index in
            if index == 0 { return Self.partial(old, head, headers: ["ETag: \"v1\""]) }
            return RawServer.response("200 OK", ["ETag: \"v2\""], new)
        })
        defer { server.stop() }
        let result = try await Self.probe(server).get()
        #expect(result.info.width == 77 && result.info.height == 55)
    }

    @Test func endlessInterimResponses() async throws {
        let server = try RawServer(.respond { _, _ in
            Array(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 50).utf8)
        })
        defer { server.stop() }
        #expect(await Self.probe(server).failureCode == .invalidResponse)
    }

    @Test func unknownTransferCoding() async throws {
        let server = try RawServer(.respond { _, _ in
            RawServer.response("206 Partial Content", ["Content-Range: bytes 0-3/10", "Transfer-Encoding: gzip, chunked"], Array("4\r\nabcd\r\n0\r\n\r\n".utf8))
        })
        defer { server.stop() }
        #expect(await Self.probe(server).failureCode == .invalidResponse)
    }

    @Test func oneByteAtATimeHitsTheRequestLimit() async throws {
        // Every 206 carries one byte of a 3 KB APP1 segment: progress, but too slow.
        let image = JPEGBuilder.image(before: JPEGBuilder.segment(0xE1, [UInt8](repeating: 7, count: 3000)), width: 30, height: 20).bytes
        let server = try RawServer(.respond { head, _ in
            guard let range = RawServer.range(in: head) else { return nil }
            return RawServer.response("206 Partial Content", ["Content-Range: bytes \(range.first)-\(range.first)/\(image.count)"],
                                      [image[Int(range.first)]])
        })
        defer { server.stop() }
        let result = await Self.probe(server, Self.configuration { $0.maxRequests = 10 })
        #expect(result.failureCode == .limitExceeded)
        #expect(server.requestHeads.count == 10)
    }

    @Test func bytesBeyondTheLimitAreNotRead() async throws {
        // A 200 that never ends: the transfer stops at maxBytes, whatever the bytes are.
        let server = try RawServer(.respond { _, _ in
            RawServer.response("200 OK", ["Content-Length: 100000000"], [0xFF, 0xD8] + JPEGBuilder.segment(0xE1, [UInt8](repeating: 7, count: 60000)) + [UInt8](repeating: 0, count: 200_000))
        })
        defer { server.stop() }
        let result = await Self.probe(server, Self.configuration { $0.maxBytes = 100_000 })
        #expect(result.failureCode == .limitExceeded)
    }

    @Test func redirectToHTTPSSpeaksTLS() async throws {
        // The http:// server sends the probe to https:// on a port that speaks plain HTTP: the
        // TLS handshake fails, rather than plaintext being sent to it.
        let plain = try RawServer(.respond { _, _ in RawServer.response("200 OK", [], [1, 2, 3]) })
        defer { plain.stop() }
        let redirecting = try RawServer(.respond { _, _ in
            RawServer.response("302 Found", ["Location: https://127.0.0.1:\(plain.port)/image"])
        })
        defer { redirecting.stop() }
        let result = await Self.probe(redirecting, Self.configuration { $0.requestTimeout = 3 })
        #expect(result.failureCode == .connection || result.failureCode == .timeout, "\(result)")
        #expect(plain.requestHeads.allSatisfy { !$0.hasPrefix("GET") }, "no plaintext request reached the https port")
    }

    @Test func encodedControlCharactersStayEncoded() async throws {
        // A redirect whose path holds an encoded CRLF: sent encoded, so no header is injected.
        let target = try RawServer(.respond { _, _ in RawServer.response("404 Not Found") })
        defer { target.stop() }
        let redirecting = try RawServer(.respond { _, _ in
            RawServer.response("302 Found", ["Location: http://127.0.0.1:\(target.port)/x%0D%0AInjected:%20yes?q=%0A"])
        })
        defer { redirecting.stop() }
        let result = await Self.probe(redirecting)
        #expect(result.failureStatus == 404)
        let head = try #require(target.requestHeads.first)
        #expect(head.hasPrefix("GET /x%0D%0AInjected:%20yes?q=%0A HTTP/1.1\r\n"), "\(head)")
        #expect(!head.contains("\r\nInjected:"))
    }

    @Test func signedContentLengthIsRefused() async throws {
        // RFC 9112: Content-Length is digits only. libcurl 7.88 reads "+41" as 41 (strtoll);
        // the probe's own head check refuses it before any body byte is used.
        let image = PNGBuilder.image(width: 3, height: 2)
        let server = try RawServer(.respond { _, _ in
            Array("HTTP/1.1 200 OK\r\nContent-Length: +\(image.count)\r\n\r\n".utf8) + image
        })
        defer { server.stop() }
        let result = await Self.probe(server)
        #expect(result.failureCode == .invalidResponse, "\(result)")
    }

    @Test func ifRangeFromTheServerCannotInjectHeaders() async throws {
        // A Last-Modified holding a line break is not sent back as If-Range.
        let image = JPEGBuilder.image(before: JPEGBuilder.segment(0xE1, [UInt8](repeating: 7, count: 3000)), width: 30, height: 20).bytes
        let server = try RawServer(.respond { head, index in
            Self.partial(image, head, headers: index == 0 ? ["Last-Modified: Mon\u{0B}Injected: yes"] : [])
        })
        defer { server.stop() }
        let result = try await Self.probe(server).get()
        #expect(result.info.width == 30)
        #expect(server.requestHeads.allSatisfy { !$0.contains("Injected") })
    }
}
