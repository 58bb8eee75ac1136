import Foundation
@testable import ImageProbeFetch
import ImageProbeTestSupport
import Testing

@Suite struct HTTPPartsTests {
    /// Feeds a head's lines (as libcurl's header callback gives them) to a parser.
    static func parse(_ text: String) throws(FetchError) -> HTTPResponseHead? {
        var parser = ResponseHeadParser()
        var result: HTTPResponseHead? = nil
        let bytes = Array(text.utf8)
        var start = 0
        for index in bytes.indices where bytes[index] == 10 {
            let line = Array(bytes[start...index])
            start = index + 1
            if let head = try line.withUnsafeBytes({ raw in Result { () throws(FetchError) in try parser.take(raw) } }).get() { result = head }
        }
        return result
    }

    @Test func responseHeadLineByLine() throws {
        let head = try #require(try Self.parse("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/100\r\nContent-Length: 10\r\nX-A: b\r\n\r\n"))
        #expect(head.status == 206)
        #expect(head.contentLength == 10)
        let range = try #require(head.contentRange)
        #expect([range.first, range.last] == [0, 9])
        #expect(range.total == 100)
        #expect(head.header("x-a") == "b")
        #expect(head.contentEncoding == nil)
        // HTTP/2 status lines, as libcurl writes them; a head isn't done before its blank line.
        #expect(try Self.parse("HTTP/2 200 \r\ncontent-length: 5\r\n\r\n")?.status == 200)
        #expect(try Self.parse("HTTP/1.1 200 OK\r\nA: b\r\n") == nil)
    }

    @Test func interimResponsesAreDropped() throws {
        let head = try #require(try Self.parse("HTTP/1.1 100 Continue\r\nX: 1\r\n\r\nHTTP/1.1 200 OK\r\nY: 2\r\n\r\n"))
        #expect(head.status == 200 && head.header("x") == nil && head.header("y") == "2")
        #expect(throws: FetchError.self) { try Self.parse(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 5) + "HTTP/1.1 200 OK\r\n\r\n") }
        #expect(throws: FetchError.self) { try Self.parse("HTTP/1.1 101 Switching Protocols\r\n\r\n") }
    }

    @Test func malformedHeads() {
        for text in ["ICY 200 OK\r\n\r\n", "HTTP/1.1 abc\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 +20 OK\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "HTTP/1.1 200 OK\r\n: no name\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nName : space\r\n\r\n", "HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n"] {
            #expect(throws: FetchError.self, "\(text)") { try Self.parse(text) }
        }
        #expect(throws: FetchError.self) { try Self.parse("HTTP/1.1 200 OK\r\n" + String(repeating: "A: 0123456789\r\n", count: 3000) + "\r\n") }
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
        #expect(range("bytes +5-9/10") == nil)
        #expect(range("bytes 5-9/+10") == nil)
        #expect(range("bytes 0x5-9/10") == nil)
        #expect(range("bytes 5-99999999999999999999/*") == nil)
    }

    @Test func headerRulesAgainstSmuggling() throws {
        // Two different lengths leave the body's end unknowable; lengths are digits only.
        #expect(throws: FetchError.self) { try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n") }
        for length in ["five", "+41", "-1", "4 1", "0x29", "", "41,41"] {
            #expect(throws: FetchError.self, "\(length)") { try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n") }
        }
        #expect(try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n")?.contentLength == 5)
        // Only exactly "chunked" is a transfer coding the HTTP stack undoes.
        #expect(throws: Never.self) { try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n")?.checkTransferCoding() }
        for coding in ["gzip, chunked", "notchunked", "chunked, gzip"] {
            let head = try #require(try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: \(coding)\r\n\r\n"))
            #expect(throws: FetchError.self) { try head.checkTransferCoding() }
        }
        // Repeated headers are joined.
        #expect(try Self.parse("HTTP/1.1 200 OK\r\nVary: a\r\nVary: b\r\n\r\n")?.header("vary") == "a, b")
        // A total that doesn't extend past the range contradicts it.
        #expect(HTTPResponseHead(status: 206, headers: ["content-range": "bytes 0-99/50"]).contentRange == nil)
    }

    /// Random and mutated heads, line by line: the parser never traps, its memory stays bounded
    /// (it refuses past 32 KiB), and whatever it accepts keeps its invariants.
    @Test func headParserFuzz() {
        var generator = SplitMix(seed: 0x1A6E_9B0B)
        let seeds = [
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-1023/5000\r\nContent-Length: 1024\r\nETag: \"v1\"\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
            "HTTP/2 302 \r\nlocation: /a\r\ncontent-length: 0\r\n\r\n",
        ].map { Array($0.utf8) }
        let alphabet = Array("HTTP/1.2 0123456789:-,;+*\r\n\t bytesContent-LengthRange\"".utf8) + [0, 0x7F, 0xFF, 0x0B]
        for _ in 0..<20_000 {
            var input = seeds[Int(generator.next() % UInt64(seeds.count))]
            for _ in 0..<Int(generator.next() % 8) {
                let position = Int(generator.next() % UInt64(input.count + 1))
                switch generator.next() % 3 {
                case 0: input.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                case 1: if position < input.count { input.remove(at: position) }
                default: if position < input.count { input[position] = UInt8(truncatingIfNeeded: generator.next()) }
                }
            }
            var parser = ResponseHeadParser()
            var start = 0
            lines: for index in input.indices where input[index] == 10 || index == input.count - 1 {
                let line = Array(input[start...index])
                start = index + 1
                do throws(FetchError) {
                    guard let head = try line.withUnsafeBytes({ raw in Result { () throws(FetchError) in try parser.take(raw) } }).get() else { continue }
                    #expect((200...999).contains(head.status))
                    if let length = head.header("content-length") {
                        #expect(head.contentLength != nil && length.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "\(length)")
                    }
                    if let range = head.contentRange { #expect(range.first <= range.last && (range.total ?? .max) > range.last) }
                    break lines
                } catch {
                    break lines
                }
            }
        }
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func addressBlocks() throws {
        func refused(_ text: String, _ policy: AddressPolicy = .publicOnly) -> Bool {
            guard let address = IPAddress(numeric: text) else { Issue.record("not an address: \(text)"); return false }
            return policy.refusal(address) != nil
        }
        for text in ["127.0.0.1", "127.255.0.9", "0.0.0.0", "0.1.2.3", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
                     "169.254.169.254", "100.64.0.1", "100.127.255.254", "224.0.0.1", "239.1.1.1", "255.255.255.255", "240.0.0.1",
                     "192.0.2.1", "198.18.0.1", "::", "::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1",
                     "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::1", "2002:7f00:1::", "2002:c0a8:101::1",
                     "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "fec0::1", "ff02::1", "2001:db8::1", "2001::1", "100::1", "4000::1"] {
            #expect(refused(text), "\(text) should be refused")
            #expect(!refused(text, .any))
        }
        for text in ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "169.253.1.1", "2606:4700::1111",
                     "2a00:1450:4001::1", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"] {
            #expect(!refused(text), "\(text) should be allowed")
        }
        // Exceptions, by CIDR block; a mapped form of an allowed IPv4 address is allowed too.
        let policy = AddressPolicy.publicOnly(allowing: [try #require(AddressRange("10.1.0.0/16")), try #require(AddressRange("fd00::/8"))])
        #expect(!refused("10.1.200.3", policy) && refused("10.2.0.1", policy))
        #expect(!refused("::ffff:10.1.0.9", policy) && !refused("fd00::5", policy) && refused("fc00::5", policy))
        #expect(AddressRange("10.0.0.0/33") == nil && AddressRange("10.0.0.0/+8") == nil && AddressRange("example.com") == nil)
        #expect(AddressRange("::1")?.description == "::1/128")
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

    /// A channel that never sends anything: for runs that are admitted, never begun.
    final class IdleChannel: ProbeChannel, @unchecked Sendable {
        var bytesReceived: Int { 0 }
        var requests: Int { 0 }
        func start(_ request: HTTPRequest, until deadline: Deadline, _ handler: ResponseHandler,
                   completion: @escaping @Sendable (Result<Exchange, FetchError>) -> Void) {
            completion(.failure(FetchError(.connection, "idle")))
        }
        func cancel() {}
    }

    @Test func admissionNeverExceedsItsLimit() async throws {
        let admission = Admission(limit: 3)
        let meter = Meter()
        let runs = (0..<30).map { _ in ProbeRun(url: URL(string: "http://x/")!, configuration: FetchConfiguration(), channel: IdleChannel()) }
        // The fifth run is cancelled while it waits: it starts out of turn, and ends at once.
        await withTaskGroup(of: Void.self) { group in
            for (index, run) in runs.enumerated() {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        admission.admit(run) {
                            Task {
                                await meter.enter()
                                if index != 4 { try? await pause(milliseconds: 2) }
                                await meter.leave()
                                admission.release()
                                done.resume()
                            }
                        }
                    }
                }
            }
            try? await pause(milliseconds: 1)
            runs[4].cancel()
            await group.waitForAll()
        }
        #expect(await meter.peak <= 4)
    }

    actor Meter {
        var current = 0
        var peak = 0
        func enter() { current += 1; peak = max(peak, current) }
        func leave() { current -= 1 }
    }
}
