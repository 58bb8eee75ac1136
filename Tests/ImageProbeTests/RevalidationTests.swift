@testable import ImageProbe
import ImageProbeFixtures
import Testing

/// A cache's revalidation, planned by the core (SPEC.md §6.1, "Revalidation"): the first request
/// made conditional on the version the caller holds, `304 Not Modified` settling the probe, and
/// the validators and freshness a cache keeps.
@Suite struct RevalidationTests {
    static let image = PNGBuilder.signature + PNGBuilder.header(width: 30, height: 20) + PNGBuilder.end
    static let tag = "\"v1\""
    static let date = "Wed, 21 Oct 2015 07:28:00 GMT"

    /// A planner for `http://images.example/a` whose first request is conditional on `tag` and `date`.
    static func revalidating(tag: String = tag, date: String = date) -> RangePlanner {
        var planner = RangePlanner(url: "http://images.example/a")
        let accepted = planner.revalidate(entityTag: tag, lastModified: date)
        #expect(accepted)
        return planner
    }

    /// Answers the request in flight with `status`, `fields` and, for a 206, the image's bytes.
    static func answer(_ planner: inout RangePlanner, status: Int, _ fields: [(String, String)]) {
        guard case .send(let request) = planner.next() else { Issue.record("no request"); return }
        let last = min(Int(request.last), image.count - 1)
        var all = fields
        if status == 206 { all.append(("Content-Range", "bytes \(request.first)-\(last)/\(image.count)")) }
        for (name, value) in all { planner.field(name: name, value: value) }
        _ = planner.received(200)
        guard planner.head(status: status) else { planner.end(.stopped); return }
        _ = planner.received(UInt64(last - Int(request.first) + 1))
        _ = image[Int(request.first)...last].withUnsafeBytes { planner.body($0) }
        planner.end(.complete)
    }

    @Test func theFirstRequestIsConditional() {
        var planner = Self.revalidating()
        guard case .send = planner.next() else { Issue.record("no request"); return }
        let lines = planner.requestHeaderLines
        #expect(lines.contains("If-None-Match: \"v1\"\r\n"))
        #expect(lines.contains("If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT\r\n"))
        #expect(lines.hasPrefix("Range: bytes=0-1023\r\n"), "still a small range: a changed image is probed at once")
        let late = planner.revalidate(entityTag: "\"v2\"", lastModified: "")
        #expect(!late, "too late: a request was planned")
    }

    /// 304: the held answer stands, after one request and the head's bytes; the 304's
    /// validators and freshness are the ones to keep.
    @Test func notModifiedSettlesTheProbe() {
        var planner = Self.revalidating()
        Self.answer(&planner, status: 304, [("ETag", "\"v1\""), ("Cache-Control", "public, max-age=600")])
        guard case .notModified = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(planner.requestCount == 1 && planner.bytesReceived == 200)
        #expect(planner.validators.entityTag == "\"v1\"")
        #expect(planner.validators.lastModified == Self.date, "a 304 without Last-Modified leaves the held one")
        #expect(planner.freshness == 600)
    }

    /// Any other answer is a probe as usual; its own validators are the ones to keep, and later
    /// requests are not conditional.
    @Test func aChangedResourceIsProbed() {
        var planner = Self.revalidating()
        Self.answer(&planner, status: 206, [("ETag", "\"v2\""), ("Cache-Control", "no-cache")])
        guard case .done(let info) = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(info.size == [30, 20])
        #expect(planner.validators == ("\"v2\"", ""))
        #expect(planner.freshness == 0, "no-cache: always ask again")
    }

    /// A 304 to a probe that didn't ask for one is an unexpected status, as before; so is one
    /// from a redirect's target, which is another resource (no conditional fields sent there).
    @Test func aNotModifiedNobodyAskedFor() {
        var plain = RangePlanner(url: "http://images.example/a")
        Self.answer(&plain, status: 304, [])
        guard case .failed(let failure) = plain.next() else { Issue.record("\(plain.next())"); return }
        #expect(failure.code == .invalidResponse && failure.status == 304)

        var redirected = Self.revalidating()
        Self.answer(&redirected, status: 302, [("Location", "/b")])
        guard case .send = redirected.next() else { Issue.record("no second request"); return }
        #expect(!redirected.requestHeaderLines.contains("If-None-Match"))
        Self.answer(&redirected, status: 304, [])
        guard case .failed(let second) = redirected.next() else { Issue.record("\(redirected.next())"); return }
        #expect(second.code == .invalidResponse)
    }

    /// What can't be sent is refused, and nothing is sent for it.
    @Test func unsendableValidators() {
        var planner = RangePlanner(url: "http://images.example/a")
        let empty = planner.revalidate(entityTag: "", lastModified: "")
        let injected = planner.revalidate(entityTag: "\"a\"\r\nX-Injected: 1", lastModified: "")
        let long = planner.revalidate(entityTag: String(repeating: "a", count: RangePlanner.Limits.validatorBytes + 1), lastModified: "")
        #expect(!empty && !injected && !long)
        let weak = planner.revalidate(entityTag: "W/\"weak\"", lastModified: "")
        #expect(weak, "If-None-Match compares weakly")
        guard case .send = planner.next() else { Issue.record("no request"); return }
        #expect(planner.requestHeaderLines.contains("If-None-Match: W/\"weak\"\r\n"))
        #expect(!planner.requestHeaderLines.contains("If-Modified-Since"))
    }

    @Test(arguments: [
        ("max-age=3600", 3600), ("public, max-age=\"120\"", 120), ("max-age=60, no-cache", 0), ("no-store", 0),
        ("max-age=abc", nil), ("private", nil), ("max-age=5, max-age=9", 5), ("s-maxage=10", nil),
    ] as [(String, UInt64?)])
    func freshnessFromCacheControl(value: String, seconds: UInt64?) {
        var fields = ResponseFields()
        fields.take(name: "Cache-Control", value: value)
        #expect(fields.freshness == seconds, "\(value)")
    }
}

/// A 429 or 503 that says when to come back (SPEC.md §6.1, "Retry-After"): the request is
/// planned again with that wait, twice at most; a long wait, none, or a third is the error.
@Suite struct RetryAfterTests {
    /// Answers the request in flight with `status` and `fields`, no body.
    static func refuse(_ planner: inout RangePlanner, _ status: Int, _ fields: [(String, String)]) {
        for (name, value) in fields { planner.field(name: name, value: value) }
        _ = planner.received(120)
        _ = planner.head(status: status)
        planner.end(.stopped)
    }

    @Test func aShortRetryAfterIsWaitedOutTwice() {
        var planner = RangePlanner(url: "http://images.example/a")
        guard case .send(let first) = planner.next() else { Issue.record("no request"); return }
        #expect(first.wait == 0)
        Self.refuse(&planner, 429, [("Retry-After", "2")])
        guard case .send(let second) = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(second.wait == 2 && second.first == 0 && second.last == first.last)
        Self.refuse(&planner, 503, [("Retry-After", " 1 ")])
        guard case .send(let third) = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(third.wait == 1)
        Self.refuse(&planner, 429, [("Retry-After", "1")])
        guard case .failed(let failure) = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(failure.code == .httpStatus && failure.status == 429 && planner.requestCount == 3)
        let reason: String = failure.spelledReason()
        #expect(reason.contains("Retry-After"))
    }

    @Test(arguments: [
        (429, [("Retry-After", "11")]), (503, []), (429, [("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")]),
        (429, [("Retry-After", "-1")]),
    ] as [(Int, [(String, String)])])
    func otherwiseTheStatusIsTheError(status: Int, fields: [(String, String)]) {
        var planner = RangePlanner(url: "http://images.example/a")
        _ = planner.next()
        Self.refuse(&planner, status, fields)
        guard case .failed(let failure) = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(failure.code == .httpStatus && failure.status == status && planner.requestCount == 1)
    }

    /// The retry is the request itself: a revalidating probe's stays conditional, and the
    /// image's answer follows.
    @Test func theRetryIsTheSameRequest() {
        var planner = RevalidationTests.revalidating()
        guard case .send = planner.next() else { Issue.record("no request"); return }
        Self.refuse(&planner, 429, [("Retry-After", "0")])
        guard case .send(let retry) = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(retry.wait == 0)
        #expect(planner.requestHeaderLines.contains("If-None-Match: \"v1\"\r\n"))
        RevalidationTests.answer(&planner, status: 206, [("ETag", "\"v2\"")])
        guard case .done(let info) = planner.next() else { Issue.record("\(planner.next())"); return }
        #expect(info.size == [30, 20] && planner.requestCount == 2)
    }
}
