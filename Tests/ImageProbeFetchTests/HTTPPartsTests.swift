import Foundation
@testable import ImageProbeFetch
import Testing

@Suite struct HTTPPartsTests {
    @Test func responseHeadAcrossReads() throws {
        let text = Array("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/100\r\nContent-Length: 10\r\nX-A: b\r\n\r\n0123".utf8)
        // Every prefix before the blank line is incomplete; the whole head parses.
        let end = text.count - 4
        for length in 0..<end { #expect(try HTTPHeadParser.parse(text[0..<length]) == nil) }
        let (head, used) = try #require(try HTTPHeadParser.parse(text[...]))
        #expect(used == end)
        #expect(head.status == 206)
        #expect(head.contentLength == 10)
        let range = try #require(head.contentRange)
        #expect([range.first, range.last] == [0, 9])
        #expect(range.total == 100)
        #expect(head.header("x-a") == "b")
        #expect(head.contentEncoding == nil)
    }

    @Test func malformedHeads() {
        for text in ["HTTP/2 200 OK\r\n\r\n", "ICY 200 OK\r\n\r\n", "HTTP/1.1 abc\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n"] {
            #expect(throws: FetchError.self) { try HTTPHeadParser.parse(Array(text.utf8)[...]) }
        }
        #expect(throws: FetchError.self) { try HTTPHeadParser.parse([UInt8](repeating: 65, count: 40_000)[...]) }
    }

    @Test func contentRangeForms() {
        func range(_ value: String) -> [UInt64?]? {
            HTTPResponseHead(status: 206, headers: ["content-range": value]).contentRange.map { [$0.first, $0.last, $0.total] }
        }
        #expect(range("bytes 5-9/*") == [5, 9, nil])
        #expect(range("bytes 100-200/1000") == [100, 200, 1000])
        #expect(range("bytes 9-5/10") == nil)
        #expect(range("items 0-1/2") == nil)
        #expect(range("bytes */100") == nil)
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func chunkedBodyInAnySplit(split: Int) throws {
        let wire = Array("4;ext=1\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nTrailer: x\r\n\r\n".utf8)
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        for start in stride(from: 0, to: wire.count, by: split) {
            let chunk = Array(wire[start..<min(wire.count, start + split)])
            _ = try chunk.withUnsafeBytes { raw in try decoder.decode(raw) { body += $0; return true } }
        }
        #expect(String(decoding: body, as: UTF8.self) == "Wikipedia in \r\n\r\nchunks.")
        #expect(decoder.isFinished)
    }

    @Test func badChunkFraming() {
        for wire in ["G\r\n", "4\r\nWikiXX", "\r\n", "1234567890ABCDEF0\r\n"] {
            var decoder = ChunkedDecoder()
            #expect(throws: FetchError.self) {
                try Array(wire.utf8).withUnsafeBytes { raw in _ = try decoder.decode(raw) { _ in true } }
            }
        }
    }

    @Test func headerRulesAgainstSmuggling() throws {
        func parse(_ text: String) throws -> HTTPResponseHead? { try HTTPHeadParser.parse(Array(text.utf8)[...])?.0 }
        // Two different lengths leave the body's end unknowable.
        #expect(throws: FetchError.self) { try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n") }
        #expect(throws: FetchError.self) { try parse("HTTP/1.1 200 OK\r\nContent-Length: five\r\n\r\n") }
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n")?.contentLength == 5)
        // Only exactly "chunked" is a transfer coding the probe can undo.
        #expect(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n")?.isChunked() == true)
        for coding in ["gzip, chunked", "notchunked", "chunked, gzip"] {
            let head = try #require(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: \(coding)\r\n\r\n"))
            #expect(throws: FetchError.self) { try head.isChunked() }
        }
        // Repeated headers are joined; HTTP/1.0 and Connection: close end the connection.
        #expect(try parse("HTTP/1.1 200 OK\r\nVary: a\r\nVary: b\r\n\r\n")?.header("vary") == "a, b")
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\n")?.keepsConnection == false)
        #expect(try parse("HTTP/1.1 200 OK\r\nConnection: Close\r\n\r\n")?.keepsConnection == false)
        #expect(try parse("HTTP/1.1 200 OK\r\n\r\n")?.keepsConnection == true)
        // A total that doesn't extend past the range contradicts it.
        #expect(HTTPResponseHead(status: 206, headers: ["content-range": "bytes 0-99/50"]).contentRange == nil)
    }

    @Test func headSearchResumesWhereItStopped() throws {
        let text = Array("HTTP/1.1 200 OK\r\nA: b\r\n\r\n".utf8)
        var scanned = 0
        for length in 0..<text.count {
            #expect(try HTTPHeadParser.parse(text[0..<length], scanned: &scanned) == nil)
            #expect(scanned == length)
        }
        #expect(try HTTPHeadParser.parse(text[...], scanned: &scanned)?.1 == text.count)
    }

    @Test func chunkFramingBounds() throws {
        func decode(_ wire: String) throws -> (body: [UInt8], leftover: Int, finished: Bool) {
            var decoder = ChunkedDecoder()
            var body: [UInt8] = []
            var leftover = 0
            _ = try Array(wire.utf8).withUnsafeBytes { raw in try decoder.decode(raw, leftover: &leftover) { body += $0; return true } }
            return (body, leftover, decoder.isFinished)
        }
        // Leading zeros are digits too.
        #expect(try decode("0000000000000000003\r\nabc\r\n0\r\n\r\n").body == Array("abc".utf8))
        // Bytes after the last chunk are reported, so the connection isn't reused.
        let sloppy = try decode("1\r\nx\r\n0\r\n\r\nHTTP/1.1 200")
        #expect(sloppy.finished && sloppy.leftover == 12)
        #expect(throws: FetchError.self) { try decode("1;" + String(repeating: "e", count: 5000) + "\r\n") }
        #expect(throws: FetchError.self) { try decode("0\r\n" + String(repeating: "T: v\r\n", count: 5000)) }
        #expect(throws: FetchError.self) { try decode("10000000000000000\r\n") }
    }

    @Test func cacheEvictsTheLeastRecentlyUsed() throws {
        let cache = ProbeCache(capacity: 2)
        func result(_ width: Int) -> ProbeResult {
            ProbeResult(info: .init(format: .png, width: width, height: 1), bytesTransferred: 10, requests: 1,
                        finalURL: URL(string: "http://x/\(width)")!, fromCache: false)
        }
        let a = URL(string: "http://x/a")!, b = URL(string: "http://x/b")!, c = URL(string: "http://x/c")!
        cache.insert(result(1), for: a)
        cache.insert(result(2), for: b)
        _ = cache.value(for: a)  // a is now more recent than b
        cache.insert(result(3), for: c)
        #expect(cache.value(for: b) == nil)
        let hit = try #require(cache.value(for: a))
        #expect(hit.info.width == 1 && hit.fromCache && hit.requests == 0 && hit.bytesTransferred == 0)
        #expect(cache.count == 2)
        let none = ProbeCache(capacity: 0)
        none.insert(result(1), for: a)
        #expect(none.value(for: a) == nil)
    }

    @Test func concurrencyGateNeverExceedsItsLimit() async throws {
        let gate = ConcurrencyGate(limit: 3)
        let meter = Meter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await gate.enter()
                    await meter.enter()
                    try await Task.sleep(for: .milliseconds(2))
                    await meter.leave()
                    await gate.leave()
                }
            }
            try await group.waitForAll()
        }
        #expect(await meter.peak == 3)
    }

    actor Meter {
        var current = 0
        var peak = 0
        func enter() { current += 1; peak = max(peak, current) }
        func leave() { current -= 1 }
    }
}
