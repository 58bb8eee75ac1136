/// http and https URLs as the probe uses them (SPEC.md §6.1): the first URL checked and
/// normalised, a redirect's `Location` resolved against the URL that answered (RFC 3986 §5.2),
/// bytes a URL may not hold percent-encoded as browsers and libcurl do, and the parts a
/// socket-level driver needs (host, port, request target). One copy for every front end.
enum HTTPURL {
    /// What resolving a URL gave.
    enum Outcome: Sendable {
        case resolved
        /// A URL of another scheme.
        case notHTTP
        /// Not a URL the probe can request (no host, a bad port, credentials), or one longer
        /// than the planner keeps.
        case unusable
    }

    /// The components of a URL reference (RFC 3986 Appendix B), as offsets into its bytes.
    struct Parts {
        var scheme: Range<Int>? = nil
        var authority: Range<Int>? = nil
        var path: Range<Int> = 0..<0
        var query: Range<Int>? = nil
    }

    static func split(_ text: UnsafeRawBufferPointer) -> Parts {
        var parts = Parts()
        var index = 0
        let end = text.count
        // scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" before any of "/?#".
        var colon = 0
        while colon < end, !isDelimiter(text[colon]), text[colon] != 0x3A { colon &+= 1 }
        if colon < end, colon > 0, text[colon] == 0x3A, isAlpha(text[0]) {
            var valid = true
            var at = 1
            while at < colon {
                let byte = text[at]
                if !(isAlpha(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E) { valid = false }
                at &+= 1
            }
            if valid {
                parts.scheme = 0..<colon
                index = colon &+ 1
            }
        }
        if end &- index >= 2 && text[index] == 0x2F && text[index &+ 1] == 0x2F {
            var stop = index &+ 2
            while stop < end, text[stop] != 0x2F, text[stop] != 0x3F, text[stop] != 0x23 { stop &+= 1 }
            parts.authority = (index &+ 2)..<stop
            index = stop
        }
        var stop = index
        while stop < end, text[stop] != 0x3F, text[stop] != 0x23 { stop &+= 1 }
        parts.path = index..<stop
        index = stop
        if index < end && text[index] == 0x3F {
            stop = index &+ 1
            while stop < end, text[stop] != 0x23 { stop &+= 1 }
            parts.query = (index &+ 1)..<stop
        }
        return parts
    }

    static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isDelimiter(_ byte: UInt8) -> Bool { byte == 0x2F || byte == 0x3F || byte == 0x23 }

    /// RFC 3986's unreserved and reserved characters, and `%`: kept; every other byte is
    /// percent-encoded (spaces, controls, non-ASCII, `"<>\^`{|}`).
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x2D, 0x2E, 0x5F, 0x7E, 0x3A, 0x2F, 0x3F, 0x23, 0x5B, 0x5D, 0x40, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29,
             0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x25: true
        default: false
        }
    }

    /// `reference` percent-encoded into `out`; false when it doesn't fit.
    static func encode<Storage>(_ reference: UnsafeRawBufferPointer, into out: inout FixedText<Storage>) -> Bool {
        out.removeAll()
        for byte in reference {
            if isAllowed(byte) {
                guard out.append(byte) else { return false }
            } else {
                guard out.append(0x25), out.append(hexDigit(byte >> 4)), out.append(hexDigit(byte & 15)) else { return false }
            }
        }
        return true
    }

    /// The uppercase hexadecimal digit of `value` (0...15), as percent-encoding writes it.
    static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 &+ value : 0x37 &+ value }

    /// Resolves `reference` against `base` (an absolute URL this function made, or none for the
    /// first URL) into `out`; `scratch` holds the encoded reference meanwhile. The result is
    /// absolute, its scheme and host in lowercase, its dot segments removed, without fragment.
    static func resolve<Scratch>(_ reference: UnsafeRawBufferPointer, base: URLText?, scratch: inout FixedText<Scratch>,
                                 into out: inout URLText) -> Outcome {
        guard encode(reference, into: &scratch) else { return .unusable }
        return scratch.withBytes { ref in
            let parts = split(ref)
            var target = URLText()
            let written: Outcome
            if let scheme = parts.scheme {
                guard isHTTP(UnsafeRawBufferPointer(rebasing: ref[scheme])) else { return .notHTTP }
                guard let authority = parts.authority else { return .unusable }
                written = assemble(scheme: UnsafeRawBufferPointer(rebasing: ref[scheme]), authority: UnsafeRawBufferPointer(rebasing: ref[authority]),
                                   directory: nil, path: UnsafeRawBufferPointer(rebasing: ref[parts.path]),
                                   query: parts.query.map { UnsafeRawBufferPointer(rebasing: ref[$0]) }, into: &target)
            } else if let base {
                written = base.withBytes { baseBytes in
                    let baseParts = split(baseBytes)
                    guard let scheme = baseParts.scheme, let baseAuthority = baseParts.authority else { return .unusable }
                    let schemeBytes = UnsafeRawBufferPointer(rebasing: baseBytes[scheme])
                    let refPath = UnsafeRawBufferPointer(rebasing: ref[parts.path])
                    let refQuery = parts.query.map { UnsafeRawBufferPointer(rebasing: ref[$0]) }
                    if let authority = parts.authority {
                        return assemble(scheme: schemeBytes, authority: UnsafeRawBufferPointer(rebasing: ref[authority]), directory: nil,
                                        path: refPath, query: refQuery, into: &target)
                    }
                    let authority = UnsafeRawBufferPointer(rebasing: baseBytes[baseAuthority])
                    let basePath = UnsafeRawBufferPointer(rebasing: baseBytes[baseParts.path])
                    if refPath.isEmpty {
                        let query = refQuery ?? baseParts.query.map { UnsafeRawBufferPointer(rebasing: baseBytes[$0]) }
                        return assemble(scheme: schemeBytes, authority: authority, directory: nil, path: basePath, query: query, into: &target)
                    }
                    if refPath[0] == 0x2F {
                        return assemble(scheme: schemeBytes, authority: authority, directory: nil, path: refPath, query: refQuery, into: &target)
                    }
                    // Merged: the base path up to its last "/", then the reference's.
                    var slash = basePath.count
                    while slash > 0 && basePath[slash &- 1] != 0x2F { slash &-= 1 }
                    let directory = UnsafeRawBufferPointer(rebasing: basePath[0..<slash])
                    return assemble(scheme: schemeBytes, authority: authority, directory: directory, path: refPath, query: refQuery, into: &target)
                }
            } else {
                return .notHTTP
            }
            guard case .resolved = written else { return written }
            out.set(target)
            return .resolved
        }
    }

    static func isHTTP(_ scheme: UnsafeRawBufferPointer) -> Bool {
        ResponseFields.equals(scheme, "http") || ResponseFields.equals(scheme, "https")
    }

    /// scheme "://" authority path ["?" query], checked and normalised.
    private static func assemble(scheme: UnsafeRawBufferPointer, authority: UnsafeRawBufferPointer, directory: UnsafeRawBufferPointer?,
                                 path: UnsafeRawBufferPointer, query: UnsafeRawBufferPointer?, into out: inout URLText) -> Outcome {
        guard isHTTP(scheme), let (host, port) = hostAndPort(authority), !host.isEmpty else { return .unusable }
        out.removeAll()
        for byte in scheme { out.append(byte | 0x20) }
        out.append("://")
        for byte in host { out.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        if let port {
            out.append(0x3A)
            guard out.append(port) else { return .unusable }
        }
        let pathStart = out.count
        if let directory {
            if directory.isEmpty { out.append(0x2F) }  // an empty base path is "/"
            guard out.append(directory) else { return .unusable }
        }
        guard out.append(path) else { return .unusable }
        if out.count == pathStart { out.append(0x2F) }
        out.withMutableBytes { removeDotSegments($0, from: pathStart) }.map { out.truncate(to: $0) }
        if let query {
            guard out.append(0x3F), out.append(query) else { return .unusable }
        }
        return out.count < URLText.capacity ? .resolved : .unusable
    }

    /// The host (brackets kept for IPv6) and the port's digits, when `authority` is usable: no
    /// credentials, a port of digits up to 65535.
    static func hostAndPort(_ authority: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer?)? {
        var index = 0
        while index < authority.count {
            if authority[index] == 0x40 { return nil }  // userinfo: credentials are not sent
            index &+= 1
        }
        var hostEnd = authority.count
        if authority.count > 0 && authority[0] == 0x5B {
            var close = 0
            while close < authority.count && authority[close] != 0x5D { close &+= 1 }
            guard close < authority.count else { return nil }
            hostEnd = close &+ 1
            guard hostEnd == authority.count || authority[hostEnd] == 0x3A else { return nil }
        } else {
            var colon = 0
            while colon < authority.count && authority[colon] != 0x3A { colon &+= 1 }
            hostEnd = colon
        }
        let host = UnsafeRawBufferPointer(rebasing: authority[0..<hostEnd])
        for byte in host where byte == 0x25 || byte < 0x21 || byte > 0x7E {
            // An escaped or non-ASCII host would need IDNA: not a host a probe can reach.
            if !(byte == 0x25 && host.count > 0 && host[0] == 0x5B) { return nil }
        }
        guard hostEnd < authority.count else { return (host, nil) }
        let digits = UnsafeRawBufferPointer(rebasing: authority[(hostEnd &+ 1)...])
        if digits.isEmpty { return (host, nil) }
        guard digits.count <= 5, let port = ResponseFields.decimal(digits, from: 0, to: digits.count), port <= 65535 else { return nil }
        for byte in digits where byte < 0x30 || byte > 0x39 { return nil }
        return (host, digits)
    }

    /// RFC 3986 §5.2.4 on `bytes[start...]`, in place; returns the new length of `bytes`.
    static func removeDotSegments(_ bytes: UnsafeMutableRawBufferPointer, from start: Int) -> Int? {
        var read = start
        var write = start
        let end = bytes.count
        while read < end {
            // Each segment is "/" followed by bytes up to the next "/".
            var next = read &+ 1
            while next < end && bytes[next] != 0x2F { next &+= 1 }
            let length = next &- read &- 1
            let isDot = length == 1 && bytes[read &+ 1] == 0x2E
            let isDotDot = length == 2 && bytes[read &+ 1] == 0x2E && bytes[read &+ 2] == 0x2E
            if isDot || isDotDot {
                if isDotDot {
                    // Back to the start of the last segment written.
                    while write > start && bytes[write &- 1] != 0x2F { write &-= 1 }
                    if write > start { write &-= 1 }
                }
                if next == end {
                    bytes[write] = 0x2F
                    write &+= 1
                }
            } else {
                var at = read
                while at < next {
                    bytes[write] = bytes[at]
                    write &+= 1
                    at &+= 1
                }
            }
            read = next
        }
        if write == start {
            bytes[write] = 0x2F
            write &+= 1
        }
        return write
    }

    /// The parts a socket-level driver needs from an absolute URL this type made: whether it
    /// is https, the host to resolve (without brackets), the port, and the request target
    /// (path and query) and `Host` header value.
    struct Origin {
        var secure: Bool
        var host: Range<Int>
        var port: UInt16
        var authority: Range<Int>
        var target: Range<Int>
    }

    static func origin(_ url: UnsafeRawBufferPointer) -> Origin? {
        let parts = split(url)
        guard let scheme = parts.scheme, let authority = parts.authority,
              let (host, portDigits) = hostAndPort(UnsafeRawBufferPointer(rebasing: url[authority])) else { return nil }
        let secure = ResponseFields.equals(UnsafeRawBufferPointer(rebasing: url[scheme]), "https")
        var port: UInt16 = secure ? 443 : 80
        if let portDigits, let value = ResponseFields.decimal(portDigits, from: 0, to: portDigits.count) { port = UInt16(truncatingIfNeeded: value) }
        var hostRange = authority.lowerBound..<(authority.lowerBound &+ host.count)
        if host.count >= 2 && host[0] == 0x5B { hostRange = (hostRange.lowerBound &+ 1)..<(hostRange.upperBound &- 1) }
        let targetEnd = parts.query?.upperBound ?? parts.path.upperBound
        return Origin(secure: secure, host: hostRange, port: port, authority: authority, target: parts.path.lowerBound..<targetEnd)
    }
}
