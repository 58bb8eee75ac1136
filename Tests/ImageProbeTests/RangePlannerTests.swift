@testable import ImageProbe
import Testing

/// The range planner driven directly, as a driver of its own would (SPEC.md §6.1). The Swift,
/// C and JavaScript drivers are tested against servers elsewhere; these cover what a driver
/// may do that those don't.
@Suite struct RangePlannerTests {
    /// A driver that ends an exchange with `end(.stopped)` once `received` says the budget is
    /// spent, rather than `fail(.limitExceeded)`: the planner sends nothing more.
    @Test(arguments: [302, 206])
    func noRequestIsPlannedPastTheBudget(status: Int) {
        var configuration = RangePlanner.Configuration()
        configuration.maxBytes = 4000
        var planner = RangePlanner(configuration: configuration, startHash: 1)
        guard case .send(let first) = planner.next() else { Issue.record("no first request"); return }
        #expect(first.first == 0)
        var fields = ResponseFields()
        if status == 302 {
            fields.take(name: "Location", value: "/moved")
        } else {
            // The first response names a version, the second another: the restart from byte 0
            // (§6.1) comes after the budget is spent.
            fields.take(name: "Content-Range", value: "bytes 0-1023/100000")
            fields.take(name: "ETag", value: "\"one\"")
            let reading = planner.head(status: 206, fields: fields)
            let within = planner.received(1200)
            #expect(reading && within)
            var body = [UInt8](repeating: 0, count: 1024)
            // A TIFF whose first directory is at 20,000: the next request jumps there.
            body[0] = 0x49; body[1] = 0x49; body[2] = 42; body[4] = 0x20; body[5] = 0x4E
            _ = body.withUnsafeBytes { planner.body($0) }
            planner.end(.complete)
            guard case .send(let second) = planner.next() else { Issue.record("no second request"); return }
            #expect(second.first > 0)
            fields = ResponseFields()
            fields.take(name: "Content-Range", value: "bytes \(second.first)-\(second.last)/100000")
            fields.take(name: "ETag", value: "\"two\"")
        }
        let reading = planner.head(status: status, fields: fields)
        let within = planner.received(5000)
        #expect(!reading && !within)
        planner.end(.stopped)
        if status == 302 {
            guard case .followRedirect = planner.next() else { Issue.record("no redirect"); return }
            planner.redirect(to: 2, isHTTP: true)
        }
        guard case .failed(let failure) = planner.next() else { Issue.record("a request past the budget"); return }
        #expect(failure.code == .limitExceeded)
    }

    /// The codes' names and the reasons' messages are lines of two literals read by raw value
    /// (a table, not a switch): one line per case, in the cases' order.
    @Test func theTablesHaveALinePerCase() {
        typealias Failure = RangePlanner.Failure
        var raw: UInt8 = 0
        while let code = Failure.Code(rawValue: raw) {
            #expect(code.name == String(describing: code))
            raw += 1
        }
        #expect(raw == 12)
        raw = 0
        while let reason = Failure.Reason(rawValue: raw) {
            let text = String(decoding: reason.textUTF8, as: UTF8.self)
            #expect(!text.isEmpty && !text.contains("\n"), "\(reason)")
            raw += 1
        }
        #expect(raw == 21)
        // The first and the last line belong to the first and the last case.
        #expect(Failure(.limitExceeded, .moreRequestsThanMaxRequests).message == "more requests than maxRequests without an answer")
        #expect(Failure(.unsupportedURL, .redirectToNonHTTP).message == "redirect to a non-HTTP URL")
    }
}
