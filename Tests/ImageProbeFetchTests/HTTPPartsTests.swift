import Foundation
@testable import ImageProbeFetch
import ImageProbe
import ImageProbeTestSupport
import Testing

@Suite struct HTTPPartsTests {
    @Test func addressBlocks() throws {
        func refused(_ text: String, _ policy: AddressPolicy = .publicOnly) -> Bool {
            guard AddressRange.parse(text) != nil else { Issue.record("not an address: \(text)"); return false }
            return policy.refusal(numeric: text) != nil
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
        // The spellings a resolver accepts are the addresses they spell.
        for text in ["127.1", "0x7f.1", "0x7f000001", "2130706433", "017700000001", "0177.0.0.1", "[::1]", "::ffff:7f00:1",
                     "[::ffff:127.0.0.1]", "0:0:0:0:0:0:0:1", "fe80::1%eth0"] {
            #expect(refused(text), "\(text)")
        }
        #expect(AddressPolicy.publicOnly.refusal(numeric: "::ffff:127.0.0.1") == "::ffff:127.0.0.1 is loopback (as IPv4 inside IPv6); the address policy allows public addresses only")
        #expect(AddressPolicy.publicOnly.refusal(numeric: "0x7f.1") == "127.0.0.1 is loopback; the address policy allows public addresses only")
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
        var requests: Int { 0 }
        func start(_ request: HTTPRequest, until deadline: Deadline, _ handler: ResponseHandler,
                   completion: @escaping @Sendable (Result<RangePlanner.BodyEnd, TransportError>) -> Void) {
            completion(.failure(TransportError(kind: .connection, detail: "idle")))
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
