// Redirects: a `Location` resolved against the URL that answered (`HTTPURL`), refused when it
// loops, exceeds `maxRedirects` or leaves http and https; else the probe starts over there.
extension RangePlanner {
    /// The last response redirected: its `Location` resolved against `url`, then checked for
    /// loops, the redirect limit and the scheme; followed by starting over there.
    mutating func followRedirect() {
        redirects &+= 1
        var target = URLText()
        let outcome = locationTooLong ? .unusable
            : location.withBytes { HTTPURL.resolve($0, base: url, scratch: &line, into: &target) }
        line.removeAll()
        if case .resolved = outcome, visited.contains(target.hash) {
            return settleFailed(.redirectLoop, .redirectLoop, status: status)
        }
        guard redirects <= min(15, max(0, configuration.maxRedirects)) else {
            return settleFailed(.tooManyRedirects, .moreRedirectsThanMaxRedirects, status: status)
        }
        switch outcome {
        case .notHTTP: return settleFailed(.unsupportedURL, .redirectToNonHTTP, status: status)
        case .unusable: return settleFailed(.invalidResponse, .redirectToUnusableURL, status: status)
        case .resolved: break
        }
        url = target
        visited.insert(url.hash)
        // Another URL may be another resource: start over there.
        resetResource()
        restarts = 0
        phase = .idle
    }
}

/// The URLs a probe has visited, by hash: the first and up to 15 redirects. Fixed storage, so
/// the planner allocates nothing.
struct VisitedURLs: Sendable {
    private var hashes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                         UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    static let capacity = 16

    /// Adds `hash`; past the capacity the new one is dropped (the redirect limit ends the probe
    /// before that).
    mutating func insert(_ hash: UInt64) {
        guard count < Self.capacity else { return }
        self[count] = hash
        count &+= 1
    }

    func contains(_ hash: UInt64) -> Bool {
        var index = 0
        while index < count {
            if self[index] == hash { return true }
            index &+= 1
        }
        return false
    }

    /// The hash at `index`, 0...15 (past the last, the last).
    private subscript(index: Int) -> UInt64 {
        get {
            switch index {
            case 0: hashes.0
            case 1: hashes.1
            case 2: hashes.2
            case 3: hashes.3
            case 4: hashes.4
            case 5: hashes.5
            case 6: hashes.6
            case 7: hashes.7
            case 8: hashes.8
            case 9: hashes.9
            case 10: hashes.10
            case 11: hashes.11
            case 12: hashes.12
            case 13: hashes.13
            case 14: hashes.14
            default: hashes.15
            }
        }
        set {
            switch index {
            case 0: hashes.0 = newValue
            case 1: hashes.1 = newValue
            case 2: hashes.2 = newValue
            case 3: hashes.3 = newValue
            case 4: hashes.4 = newValue
            case 5: hashes.5 = newValue
            case 6: hashes.6 = newValue
            case 7: hashes.7 = newValue
            case 8: hashes.8 = newValue
            case 9: hashes.9 = newValue
            case 10: hashes.10 = newValue
            case 11: hashes.11 = newValue
            case 12: hashes.12 = newValue
            case 13: hashes.13 = newValue
            case 14: hashes.14 = newValue
            case 15: hashes.15 = newValue
            default: break
            }
        }
    }
}
