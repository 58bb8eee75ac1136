/// Which addresses a probe under the `publicOnly` policy may connect to (SPEC.md §6.4), the one
/// copy of the rule: the Swift fetcher, the C interface, JavaScript and Python all ask this.
/// An address is given as its 4 or 16 bytes (network order), as a resolver returns it.
public enum AddressClass: UInt8, Sendable, CaseIterable {
    /// A public unicast address: allowed.
    case publicAddress
    /// 0.0.0.0/8.
    case unspecified4
    /// 10.0.0.0/8.
    case private10
    /// 100.64.0.0/10 (CGNAT).
    case sharedAddressSpace
    /// 127.0.0.0/8.
    case loopback4
    /// 169.254.0.0/16 (cloud metadata services at 169.254.169.254).
    case linkLocal4
    /// 172.16.0.0/12.
    case private172
    /// 192.0.0.0/24.
    case protocolAssignments4
    /// 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24.
    case documentation4
    /// 192.168.0.0/16.
    case private192
    /// 198.18.0.0/15.
    case benchmarking
    /// 224.0.0.0/4.
    case multicast4
    /// 240.0.0.0/4, broadcast included.
    case reserved4
    /// ::.
    case unspecified6
    /// ::1.
    case loopback6
    /// fc00::/7.
    case uniqueLocal
    /// fe80::/10.
    case linkLocal6
    /// fec0::/10.
    case siteLocal
    /// ff00::/8.
    case multicast6
    /// 64:ff9b:1::/48.
    case localNAT64
    /// 2001:db8::/32, 3fff::/20.
    case documentation6
    /// 2001::/23 (Teredo, benchmarking, ORCHID).
    case protocolAssignments6
    /// Outside global unicast 2000::/3 (discard-only 100::/64, unassigned space).
    case notGlobalUnicast

    /// The block's name, as refusals say it.
    public var name: StaticString {
        switch self {
        case .publicAddress: "public"
        case .unspecified4: "unspecified (0.0.0.0/8)"
        case .private10: "private (10.0.0.0/8)"
        case .sharedAddressSpace: "shared address space (CGNAT, 100.64.0.0/10)"
        case .loopback4, .loopback6: "loopback"
        case .linkLocal4: "link-local (169.254.0.0/16)"
        case .private172: "private (172.16.0.0/12)"
        case .protocolAssignments4: "IETF protocol assignments (192.0.0.0/24)"
        case .documentation4, .documentation6: "documentation"
        case .private192: "private (192.168.0.0/16)"
        case .benchmarking: "benchmarking (198.18.0.0/15)"
        case .multicast4, .multicast6: "multicast"
        case .reserved4: "reserved or broadcast (240.0.0.0/4)"
        case .unspecified6: "unspecified"
        case .uniqueLocal: "unique local (private)"
        case .linkLocal6: "link-local"
        case .siteLocal: "site-local"
        case .localNAT64: "local-use NAT64"
        case .protocolAssignments6: "IETF protocol assignments (Teredo, benchmarking, ORCHID)"
        case .notGlobalUnicast: "not global unicast"
        }
    }

    /// The class of a 4- or 16-byte address; nil for any other length. An IPv6 address that
    /// stands for an IPv4 one (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64
    /// 64:ff9b::/96, 6to4 2002::/16) has that address's class, but for :: and ::1.
    public static func of(_ address: UnsafeRawBufferPointer) -> AddressClass? {
        if address.count == 4 { return ipv4(address[0], address[1], address[2]) }
        guard address.count == 16 else { return nil }
        if let at = embeddedIPv4Offset(address) {
            if isZero(address, 0, 15) {
                if address[15] == 0 { return .unspecified6 }
                if address[15] == 1 { return .loopback6 }
            }
            return ipv4(address[at], address[at &+ 1], address[at &+ 2])
        }
        let (a, b) = (address[0], address[1])
        if a & 0xFE == 0xFC { return .uniqueLocal }
        if a == 0xFE && b & 0xC0 == 0x80 { return .linkLocal6 }
        if a == 0xFE && b & 0xC0 == 0xC0 { return .siteLocal }
        if a == 0xFF { return .multicast6 }
        if a == 0x00 && b == 0x64 && address[2] == 0xFF && address[3] == 0x9B && address[4] == 0 && address[5] == 1 { return .localNAT64 }
        if a == 0x20 && b == 0x01 && address[2] == 0x0D && address[3] == 0xB8 { return .documentation6 }
        if a == 0x3F && b == 0xFF && address[2] & 0xF0 == 0 { return .documentation6 }
        if a == 0x20 && b == 0x01 && address[2] & 0xFE == 0 { return .protocolAssignments6 }
        if a & 0xE0 != 0x20 { return .notGlobalUnicast }
        return .publicAddress
    }

    static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> AddressClass {
        switch (a, b, c) {
        case (0, _, _): .unspecified4
        case (10, _, _): .private10
        case (100, 64...127, _): .sharedAddressSpace
        case (127, _, _): .loopback4
        case (169, 254, _): .linkLocal4
        case (172, 16...31, _): .private172
        case (192, 0, 0): .protocolAssignments4
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): .documentation4
        case (192, 168, _): .private192
        case (198, 18...19, _): .benchmarking
        case (224...239, _, _): .multicast4
        case (240...255, _, _): .reserved4
        default: .publicAddress
        }
    }

    /// Where the IPv4 address inside a 16-byte address starts, if it stands for one.
    static func embeddedIPv4Offset(_ address: UnsafeRawBufferPointer) -> Int? {
        guard address.count == 16 else { return nil }
        if isZero(address, 0, 10) && address[10] == 0xFF && address[11] == 0xFF { return 12 }  // mapped
        if isZero(address, 0, 12) { return 12 }  // compatible (and :: and ::1)
        if address[0] == 0 && address[1] == 0x64 && address[2] == 0xFF && address[3] == 0x9B && isZero(address, 4, 12) { return 12 }
        if address[0] == 0x20 && address[1] == 0x02 { return 2 }  // 6to4
        return nil
    }

    static func isZero(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            if bytes[index] != 0 { return false }
            index &+= 1
        }
        return true
    }
}

/// An IP address in text: parsing the numeric spellings a resolver accepts, and writing the
/// standard one.
public enum AddressText {
    /// The address `text` spells, into `out` (16 bytes): returns 4 or 16, or 0 when `text` is
    /// not numeric. IPv4 as `inet_aton` and `getaddrinfo` read it (1 to 4 parts, each decimal,
    /// octal with a leading 0, or hexadecimal with 0x: `127.1`, `0x7f.1`, `2130706433`,
    /// `0177.0.0.1`); IPv6 as RFC 4291 writes it, with an IPv4 tail, brackets and a `%zone`.
    public static func parse(_ text: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int {
        guard out.count >= 16 else { return 0 }
        var start = 0
        var end = text.count
        if end >= 2 && text[0] == 0x5B && text[end &- 1] == 0x5D {
            start = 1
            end &-= 1
            return parseIPv6(text, start, end, out) ? 16 : 0
        }
        if parseIPv4(text, start, end, out, strict: false) { return 4 }
        return parseIPv6(text, start, end, out) ? 16 : 0
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte &- 0x30
        case 0x41...0x46: byte &- 0x37
        case 0x61...0x66: byte &- 0x57
        default: nil
        }
    }

    /// `inet_aton`'s forms (`strict`: four decimal parts only, as in an IPv6 tail).
    static func parseIPv4(_ text: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ out: UnsafeMutableRawBufferPointer,
                          strict: Bool) -> Bool {
        guard start < end else { return false }
        var parts: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        var index = start
        while true {
            guard count < 4, index < end else { return false }
            var base: UInt64 = 10
            if !strict && text[index] == 0x30 && index &+ 1 < end && (text[index &+ 1] | 0x20) == 0x78 {
                base = 16
                index &+= 2
            } else if !strict && text[index] == 0x30 && index &+ 1 < end && text[index &+ 1] != 0x2E {
                base = 8
            }
            var value: UInt64 = 0
            var digits = 0
            while index < end && text[index] != 0x2E {
                guard let digit = hexValue(text[index]), UInt64(digit) < base else { return false }
                value = value &* base &+ UInt64(digit)
                guard value <= 0xFFFF_FFFF else { return false }
                digits &+= 1
                index &+= 1
            }
            // "0x" alone is 0 to inet_aton; an empty part is nothing.
            guard digits > 0 || base == 16 else { return false }
            if strict && (digits > 3 || value > 255 || (digits > 1 && text[index &- digits] == 0x30)) { return false }
            switch count {
            case 0: parts.0 = value
            case 1: parts.1 = value
            case 2: parts.2 = value
            default: parts.3 = value  // count < 4, checked above
            }
            count &+= 1
            if index == end { break }
            index &+= 1  // the dot
            guard index < end else { return false }  // a trailing dot
        }
        if strict && count != 4 { return false }
        var word: UInt64
        switch count {
        case 1: word = parts.0
        case 2:
            guard parts.0 <= 0xFF, parts.1 <= 0xFF_FFFF else { return false }
            word = parts.0 << 24 | parts.1
        case 3:
            guard parts.0 <= 0xFF, parts.1 <= 0xFF, parts.2 <= 0xFFFF else { return false }
            word = parts.0 << 24 | parts.1 << 16 | parts.2
        default:
            guard parts.0 <= 0xFF, parts.1 <= 0xFF, parts.2 <= 0xFF, parts.3 <= 0xFF else { return false }
            word = parts.0 << 24 | parts.1 << 16 | parts.2 << 8 | parts.3
        }
        out[0] = UInt8(truncatingIfNeeded: word >> 24)
        out[1] = UInt8(truncatingIfNeeded: word >> 16)
        out[2] = UInt8(truncatingIfNeeded: word >> 8)
        out[3] = UInt8(truncatingIfNeeded: word)
        return true
    }

    static func parseIPv6(_ text: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ out: UnsafeMutableRawBufferPointer) -> Bool {
        var end = end
        // A zone (`%eth0`, `%25eth0` in a URL) names an interface, not part of the address.
        var percent = start
        while percent < end && text[percent] != 0x25 { percent &+= 1 }
        if percent < end {
            guard percent &+ 1 < end else { return false }
            end = percent
        }
        var scratch = FixedBytes<Bytes16>()
        return scratch.withMutableBytes(16) { bytes in
            var filled = 0
            var gap = -1
            var index = start
            if end &- start >= 2 && text[start] == 0x3A && text[start &+ 1] == 0x3A {
                gap = 0
                index &+= 2
                if index == end { return copy(bytes, filled: 0, gap: 0, out) }
            }
            while index < end {
                // A dotted IPv4 tail fills the last 4 bytes.
                var dot = index
                while dot < end && text[dot] != 0x3A && text[dot] != 0x2E { dot &+= 1 }
                if dot < end && text[dot] == 0x2E {
                    guard filled <= 12 else { return false }
                    let tail = UnsafeMutableRawBufferPointer(rebasing: bytes[filled..<(filled &+ 4)])
                    guard parseIPv4(text, index, end, tail, strict: true) else { return false }
                    filled &+= 4
                    index = end
                    break
                }
                var value = 0
                var digits = 0
                while index < end, let digit = hexValue(text[index]) {
                    guard digits < 4 else { return false }
                    value = value << 4 | Int(digit)
                    digits &+= 1
                    index &+= 1
                }
                guard digits > 0, filled <= 14 else { return false }
                bytes[filled] = UInt8(truncatingIfNeeded: value >> 8)
                bytes[filled &+ 1] = UInt8(truncatingIfNeeded: value)
                filled &+= 2
                if index == end { break }
                guard text[index] == 0x3A else { return false }
                index &+= 1
                if index < end && text[index] == 0x3A {
                    guard gap < 0 else { return false }
                    gap = filled
                    index &+= 1
                    if index == end { break }
                } else if index == end {
                    return false  // a trailing single colon
                }
            }
            return copy(bytes, filled: filled, gap: gap, out)
        }
    }

    /// The parsed groups, with the `::` gap widened to make 16 bytes, into `out`.
    private static func copy(_ bytes: UnsafeMutableRawBufferPointer, filled: Int, gap: Int, _ out: UnsafeMutableRawBufferPointer) -> Bool {
        if gap < 0 {
            guard filled == 16 else { return false }
        } else {
            guard filled <= 14 else { return false }
        }
        var index = 0
        while index < 16 { out[index] = 0; index &+= 1 }
        if gap < 0 {
            index = 0
            while index < 16 { out[index] = bytes[index]; index &+= 1 }
            return true
        }
        index = 0
        while index < gap { out[index] = bytes[index]; index &+= 1 }
        let tail = filled &- gap
        index = 0
        while index < tail { out[16 &- tail &+ index] = bytes[gap &+ index]; index &+= 1 }
        return true
    }
}

/// The `publicOnly` policy with its exceptions: CIDR blocks (`10.8.0.0/16`, `fd00::/8`, or one
/// address) given as text, separated by commas or spaces.
public enum AddressPolicyRule {
    /// Why `address` (4 or 16 bytes) is refused under `publicOnly` allowing `exceptions`, or
    /// nil when it is allowed. `exceptions` must be valid (`validExceptions`).
    public static func refusal(_ address: UnsafeRawBufferPointer, allowing exceptions: UnsafeRawBufferPointer) -> AddressClass? {
        guard let kind = AddressClass.of(address) else { return .notGlobalUnicast }
        guard kind != .publicAddress else { return nil }
        let embedded = AddressClass.embeddedIPv4Offset(address).map { UnsafeRawBufferPointer(rebasing: address[$0..<($0 &+ 4)]) }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let allowed = eachRange(exceptions, address, embedded ?? empty) == .matched
        return allowed ? nil : kind
    }

    /// Whether every entry of `exceptions` is an address with an optional `/prefix` that fits it.
    public static func validExceptions(_ exceptions: UnsafeRawBufferPointer) -> Bool {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        return eachRange(exceptions, empty, empty) != .invalid
    }

    /// The refusal's words after the address: "is loopback; the address policy allows public
    /// addresses only" (the driver, which has the address's text, writes it before them).
    public static func withRefusal<Result>(_ address: UnsafeRawBufferPointer, _ kind: AddressClass,
                                           _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var text = ValidatorText()
        text.append("is ")
        text.append(kind.name)
        if address.count == 16, AddressClass.embeddedIPv4Offset(address) != nil, kind != .unspecified6, kind != .loopback6 {
            text.append(" (as IPv4 inside IPv6)")
        }
        text.append("; the address policy allows public addresses only")
        return text.withBytes(body)
    }

    private static func matches(_ address: UnsafeRawBufferPointer, _ network: UnsafeRawBufferPointer, _ length: Int, _ bits: Int) -> Bool {
        guard address.count == length else { return false }
        var left = bits
        var index = 0
        while index < length && left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if address[index] & mask != network[index] & mask { return false }
            left &-= 8
            index &+= 1
        }
        return true
    }

    private enum Search { case matched, none, invalid }

    /// Reads each block of `text`: whether `address` or `embedded` is in one, or an entry isn't
    /// a block.
    private static func eachRange(_ text: UnsafeRawBufferPointer, _ address: UnsafeRawBufferPointer,
                                  _ embedded: UnsafeRawBufferPointer) -> Search {
        var scratch = FixedBytes<Bytes16>()
        return scratch.withMutableBytes(16) { network in
            var found = Search.none
            var index = 0
            while index < text.count {
                let byte = text[index]
                if byte == 0x2C || byte == 0x20 || byte == 0x09 || byte == 0x0A { index &+= 1; continue }
                var end = index
                var slash = -1
                while end < text.count && text[end] != 0x2C && text[end] != 0x20 && text[end] != 0x09 && text[end] != 0x0A {
                    if text[end] == 0x2F && slash < 0 { slash = end }
                    end &+= 1
                }
                let addressEnd = slash < 0 ? end : slash
                let length = AddressText.parse(UnsafeRawBufferPointer(rebasing: text[index..<addressEnd]), into: network)
                guard length > 0 else { return .invalid }
                var bits = length &* 8
                if slash >= 0 {
                    guard let prefix = ResponseFields.decimal(text, from: slash &+ 1, to: end), slash &+ 1 < end,
                          prefix <= UInt64(bits) else { return .invalid }
                    var digit = slash &+ 1
                    while digit < end { guard text[digit] >= 0x30 && text[digit] <= 0x39 else { return .invalid }; digit &+= 1 }
                    bits = Int(truncatingIfNeeded: prefix)  // at most 128
                }
                let block = UnsafeRawBufferPointer(network)
                if matches(address, block, length, bits) || matches(embedded, block, length, bits) { found = .matched }
                index = end
            }
            return found
        }
    }
}
