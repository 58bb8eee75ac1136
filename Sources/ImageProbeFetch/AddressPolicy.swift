import ImageProbe

/// Which addresses a fetcher may connect to. SPEC.md §6.4.
///
/// The check is on the address actually connected, after name resolution, for every
/// connection (redirects included), before any byte is sent: a filter on the URL's text is
/// bypassed by DNS names that resolve to private addresses (DNS rebinding included) and by
/// numeric spellings (`2130706433`, `127.1`, `0x7f.1`, `[::ffff:127.0.0.1]`). The rule itself
/// is the core's (`AddressPolicyRule`), shared with the C interface, JavaScript and Python.
public struct AddressPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Publicly routable unicast addresses only.
    let publicOnly: Bool
    /// Addresses allowed even though `publicOnly` would refuse them.
    let exceptions: [AddressRange]
    /// `exceptions` as the core reads them: CIDR texts separated by commas.
    private let exceptionText: String

    private init(publicOnly: Bool, exceptions: [AddressRange]) {
        self.publicOnly = publicOnly
        self.exceptions = exceptions
        exceptionText = exceptions.map(\.description).joined(separator: ",")
    }

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

    /// Why connecting to `address` (4 or 16 bytes) is refused, or nil when it is allowed.
    func refusal(_ address: [UInt8]) -> String? {
        guard publicOnly else { return nil }
        guard address.count == 4 || address.count == 16 else {
            return "not an IP address; the address policy allows public addresses only"
        }
        var allow = exceptionText
        return address.withUnsafeBytes { bytes in
            allow.withUTF8 { text in
                AddressPolicyRule.refusal(bytes, allowing: UnsafeRawBufferPointer(text)).map {
                    "\(AddressRange.text(address)) \(AddressPolicyRule.refusalMessage(bytes, $0))"
                }
            }
        }
    }

    /// Why connecting to the numeric address `text` (`203.0.113.9`, `[::1]`, `fe80::1%en0`) is
    /// refused, or nil when it is allowed.
    func refusal(numeric text: String) -> String? {
        guard let address = AddressRange.parse(text) else {
            return publicOnly ? "the address connected to is not an IP address: \(text)" : nil
        }
        return refusal(address)
    }
}

/// An address block in CIDR notation: `10.1.0.0/16`, `fd12:3456::/32`, or one address.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    let network: [UInt8]
    let prefixLength: Int

    /// Nil when `text` is not an IPv4 or IPv6 address with an optional `/prefix` that fits it.
    public init?(_ text: String) {
        var checked = text
        guard !text.contains(","), !text.contains(" "),
              checked.withUTF8({ AddressPolicyRule.validExceptions(UnsafeRawBufferPointer($0)) }) else { return nil }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.parse(String(parts[0])) else { return nil }
        network = address
        prefixLength = parts.count == 2 ? Int(parts[1]) ?? 0 : address.count * 8
    }

    /// The bytes of a numeric address (the spellings a resolver accepts, brackets and zone
    /// allowed), or nil.
    static func parse(_ text: String) -> [UInt8]? {
        var text = text
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = text.withUTF8 { source in
            bytes.withUnsafeMutableBytes { AddressText.parse(UnsafeRawBufferPointer(source), into: $0) }
        }
        return count == 0 ? nil : Array(bytes[0..<count])
    }

    public var description: String { "\(Self.text(network))/\(prefixLength)" }

    /// The standard spelling of 4 or 16 bytes (RFC 5952: IPv4-mapped with its IPv4 address).
    static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        if bytes.count == 16 && bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return "::ffff:" + bytes[12..<16].map(String.init).joined(separator: ".")
        }
        return bytes.count == 16 ? ipv6Text(bytes) : "?"
    }

    /// RFC 5952's spelling of 16 bytes.
    static func ipv6Text(_ bytes: [UInt8]) -> String {
        let groups = stride(from: 0, to: 16, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
        var best = (start: -1, length: 1)
        var index = 0
        while index < 8 {
            var length = 0
            while index + length < 8 && groups[index + length] == 0 { length += 1 }
            if length > best.length { best = (index, length) }
            index += max(1, length)
        }
        var text = ""
        index = 0
        while index < 8 {
            if index == best.start {
                text += index == 0 ? "::" : ":"
                index += best.length
                continue
            }
            text += String(groups[index], radix: 16)
            index += 1
            if index < 8 { text += ":" }
        }
        return text
    }
}
