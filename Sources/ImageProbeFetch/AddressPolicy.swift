#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Which addresses a fetcher may connect to. SPEC.md §6.4.
///
/// The check is on the address actually connected, after name resolution, for every
/// connection (redirects included), before any byte is sent: a filter on the URL's text is
/// bypassed by DNS names that resolve to private addresses (DNS rebinding included) and by
/// numeric spellings (`2130706433`, `127.1`, `0x7f.1`, `[::ffff:127.0.0.1]`).
public struct AddressPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Publicly routable unicast addresses only.
    let publicOnly: Bool
    /// Addresses allowed even though `publicOnly` would refuse them.
    let exceptions: [AddressRange]

    /// Any address (the default): a probe goes wherever the URL and its redirects lead, like
    /// any HTTP client. Right for apps and tools that probe URLs their user chose.
    public static let any = AddressPolicy(publicOnly: false, exceptions: [])

    /// Only public unicast addresses. Refused, with `FetchError.Code.forbiddenAddress`:
    /// loopback (127.0.0.0/8, ::1), unspecified (0.0.0.0/8, ::), private (10/8, 172.16/12,
    /// 192.168/16, fc00::/7), link-local (169.254/16, which holds cloud metadata services at
    /// 169.254.169.254, and fe80::/10), shared CGNAT space (100.64/10), multicast and
    /// broadcast, the documentation, benchmarking and reserved blocks, every IPv6 address
    /// outside global unicast 2000::/3, and the IPv4-mapped (::ffff:0:0/96), IPv4-compatible,
    /// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) forms of refused IPv4 addresses. For servers
    /// that probe URLs from untrusted users (link previews, upload by URL). Proxies from the
    /// environment are not used under this policy: only a direct connection's address can be
    /// checked.
    public static let publicOnly = AddressPolicy(publicOnly: true, exceptions: [])

    /// `publicOnly`, except for `ranges` (an image service of your own on a private network).
    public static func publicOnly(allowing ranges: [AddressRange]) -> AddressPolicy {
        AddressPolicy(publicOnly: true, exceptions: ranges)
    }

    public var description: String {
        guard publicOnly else { return "any" }
        return exceptions.isEmpty ? "publicOnly" : "publicOnly(allowing: \(exceptions.map(\.description)))"
    }

    /// Why connecting to `address` is refused, or nil when it is allowed.
    func refusal(_ address: IPAddress) -> String? {
        guard publicOnly else { return nil }
        if exceptions.contains(where: { $0.contains(address) }) { return nil }
        if let embedded = address.embeddedIPv4, exceptions.contains(where: { $0.contains(embedded) }) { return nil }
        guard let block = address.nonPublicBlock else { return nil }
        return "\(address) is \(block); the address policy allows public addresses only"
    }
}

/// An address block in CIDR notation: `10.1.0.0/16`, `fd12:3456::/32`, or one address.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    let network: IPAddress
    let prefixLength: Int

    /// Nil when `text` is not an IPv4 or IPv6 address with an optional `/prefix` that fits it.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(numeric: String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let value = Int(parts[1]), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), value <= bits else { return nil }
            length = value
        }
        network = address
        prefixLength = length
    }

    public var description: String { "\(network)/\(prefixLength)" }

    func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        return IPAddress.prefix(address.bytes, network.bytes, bits: prefixLength)
    }
}

/// An IPv4 (4 bytes) or IPv6 (16 bytes) address, network byte order.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// A numeric address in its standard form only (`inet_pton`): `127.0.0.1`, `::1`.
    init?(numeric text: String) {
        var v4 = [UInt8](repeating: 0, count: 4)
        var v6 = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = v4
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = v6
        } else {
            return nil
        }
    }

    var description: String {
        var text = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, bytes, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func prefix(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        var left = bits
        for index in 0..<a.count where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if a[index] & mask != b[index] & mask { return false }
            left -= 8
        }
        return true
    }

    private func starts(with block: [UInt8], bits: Int) -> Bool {
        Self.prefix(bytes, block + [UInt8](repeating: 0, count: bytes.count - block.count), bits: bits)
    }

    /// The IPv4 address an IPv6 address stands for, where a translation or tunnel mechanism
    /// would deliver to it: IPv4-mapped, IPv4-compatible, NAT64 well-known prefix, 6to4.
    var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        if starts(with: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF], bits: 96)
            || starts(with: [], bits: 96)
            || starts(with: [0x00, 0x64, 0xFF, 0x9B], bits: 96) {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if starts(with: [0x20, 0x02], bits: 16) { return IPAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }

    /// The name of the non-public block holding this address, or nil for a public address.
    var nonPublicBlock: String? {
        if bytes.count == 4 { return Self.ipv4Block(bytes) }
        if let v4 = embeddedIPv4 {
            if bytes[0..<12].allSatisfy({ $0 == 0 }) && bytes[12..<16].allSatisfy({ $0 == 0 }) { return "unspecified" }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return "loopback" }
            return Self.ipv4Block(v4.bytes).map { "\($0) (as \(v4) inside IPv6)" }
        }
        let blocks: [(prefix: [UInt8], bits: Int, name: String)] = [
            ([0xFC], 7, "unique local (private)"),
            ([0xFE, 0x80], 10, "link-local"),
            ([0xFE, 0xC0], 10, "site-local"),
            ([0xFF], 8, "multicast"),
            ([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01], 48, "local-use NAT64"),
            ([0x20, 0x01, 0x0D, 0xB8], 32, "documentation"),
            ([0x3F, 0xFF], 20, "documentation"),
            ([0x20, 0x01], 23, "IETF protocol assignments (Teredo, benchmarking, ORCHID)"),
        ]
        for block in blocks where starts(with: block.prefix, bits: block.bits) { return block.name }
        // Everything outside global unicast: ::, ::1, discard-only 100::/64, and unassigned space.
        guard bytes[0] & 0xE0 == 0x20 else { return "not global unicast" }
        return nil
    }

    private static func ipv4Block(_ b: [UInt8]) -> String? {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): return "unspecified (0.0.0.0/8)"
        case (10, _, _): return "private (10.0.0.0/8)"
        case (100, 64...127, _): return "shared address space (CGNAT, 100.64.0.0/10)"
        case (127, _, _): return "loopback"
        case (169, 254, _): return "link-local (169.254.0.0/16)"
        case (172, 16...31, _): return "private (172.16.0.0/12)"
        case (192, 0, 0): return "IETF protocol assignments (192.0.0.0/24)"
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): return "documentation"
        case (192, 168, _): return "private (192.168.0.0/16)"
        case (198, 18...19, _): return "benchmarking (198.18.0.0/15)"
        case (224...239, _, _): return "multicast"
        case (240...255, _, _): return "reserved or broadcast (240.0.0.0/4)"
        default: return nil
        }
    }
}
