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
