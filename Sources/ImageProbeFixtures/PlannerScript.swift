import ImageProbe

/// Drives a `RangePlanner` with responses a hostile server could send, read from fuzz bytes:
/// each exchange takes a few bytes that choose its status, its fields (a Content-Range that
/// matches the request or not, lengths, validators, a content coding, a Location) and how
/// much body comes, and how the exchange ends. The body is `image`'s bytes at the requested
/// offsets, or the fuzz bytes themselves. Returns the invariants that broke: the planner must
/// settle within its request and redirect limits, never ask for a range past 2^64, stay
/// settled once settled, and count every byte it was given.
public enum PlannerScript {
    public static func failures(_ data: [UInt8], image: [UInt8]) -> [String] {
        var configuration = RangePlanner.Configuration()
        configuration.maxRequests = 12
        configuration.maxMetadataRequests = 4
        configuration.maxRedirects = 3
        configuration.maxBytes = 1 << 16
        var planner = RangePlanner(configuration: configuration, url: "http://images.example/a")
        // Half the scripts revalidate a held version, and their 500s become 304s.
        let revalidating = data.count % 2 == 1
        if revalidating && !planner.revalidate(entityTag: "\"v1\"", lastModified: "") { return ["revalidate refused"] }
        var cursor = 0
        func next() -> UInt8 {
            defer { cursor += 1 }
            return cursor < data.count ? data[cursor] : 0
        }
        var failures: [String] = []
        var steps = 0
        var sent = 0
        var given: UInt64 = 0
        while steps < 64 {
            steps += 1
            switch planner.next() {
            case .done, .failed, .notModified:
                // Settled: the same answer again, whatever is called after.
                planner.end(.complete)
                planner.fail(.connection)
                switch planner.next() {
                case .done, .failed, .notModified: break
                case .send: failures.append("the planner left its settled answer")
                }
                if sent > configuration.maxRequests { failures.append("\(sent) requests, more than maxRequests") }
                if planner.bytesReceived != given { failures.append("counted \(planner.bytesReceived) of \(given) bytes") }
                return failures
            case .send(let request):
                sent += 1
                guard request.first <= request.last else {
                    failures.append("a range \(request.first)-\(request.last)")
                    return failures
                }
                let choice = next()
                var status: Int = [206, 206, 206, 200, 302, 416, revalidating ? 304 : 500, 206][Int(choice & 7)]
                // Some of the 500s are rate limits that say when to come back (up to 15 s).
                if status == 500 && choice & 0x40 != 0 { status = 429 }
                var fields: [(String, String)] = []
                let length = UInt64(next()) * 8
                let first = choice & 0x08 != 0 ? request.first &+ UInt64(next()) : request.first
                let last = choice & 0x10 != 0 ? request.last : min(request.last, first &+ max(1, length) &- 1)
                let total = choice & 0x20 != 0 ? "*" : String(UInt64(image.count) &+ UInt64(next()))
                if status == 206 { fields.append(("Content-Range", "bytes \(first)-\(last)/\(total)")) }
                if status == 429 { fields.append(("Retry-After", String(next() & 15))) }
                if choice & 0x40 != 0 { fields.append(("Content-Length", String(length))) }
                if choice & 0x80 != 0 { fields.append(("ETag", "\"v\(next() & 3)\"")) }
                if next() & 0x0F == 0 { fields.append(("Content-Encoding", "gzip")) }
                if status == 302 && next() & 1 == 0 {
                    let kinds = ["/elsewhere", "/a", "ftp://x/", "", "http://other.example/b", "//images.example/../c", "http://:0/", "d e"]
                    fields.append(("Location", kinds[Int(next() & 7)]))
                }
                let head = UInt64(40 + Int(next()))
                given &+= head
                _ = planner.received(head)
                for (name, value) in fields { planner.field(name: name, value: value) }
                guard planner.head(status: status) else {
                    planner.end(.stopped)
                    continue
                }
                // The body: the image at the offsets asked for (clipped), in fuzz-sized runs.
                var offset = Int(clamping: first)
                var left = Int(length)
                var ended = RangePlanner.BodyEnd.complete
                while left > 0 {
                    let run = min(left, 1 + Int(next() & 0x3F))
                    var chunk: [UInt8] = []
                    for index in 0..<run {
                        // `offset` may be near Int.max (a server's range): compare without adding.
                        let inside = offset >= 0 && offset < image.count && index < image.count - offset
                        chunk.append(inside ? image[offset + index] : next())
                    }
                    given &+= UInt64(run)
                    let within = planner.received(UInt64(run))
                    let more = chunk.withUnsafeBytes { planner.body($0) }
                    offset &+= run
                    left -= run
                    if !more || !within {
                        ended = .stopped
                        break
                    }
                }
                switch next() & 0x1F {
                case 0: planner.fail(.timeout)
                case 1: planner.fail(.limitExceeded)
                case 2: planner.fail(.connection)
                case 3: planner.end(.closed)
                default: planner.end(ended)
                }
            }
        }
        failures.append("not settled after \(steps) steps (\(sent) requests)")
        return failures
    }

    /// The same invariants with the fuzz bytes as raw responses off a socket (`wire`), cut
    /// into runs the fuzz bytes choose: every byte counted, settled within the limits.
    public static func wireFailures(_ data: [UInt8]) -> [String] {
        var configuration = RangePlanner.Configuration()
        configuration.maxRequests = 8
        configuration.maxBytes = 1 << 16
        var planner = RangePlanner(configuration: configuration, url: "http://images.example/a")
        var given: UInt64 = 0
        var cursor = 0
        var sent = 0
        while true {
            guard case .send = planner.next() else { break }
            sent += 1
            if sent > 64 { return ["not settled after 64 requests"] }
            var progress = RangePlanner.WireProgress.readMore
            while progress == .readMore && cursor < data.count {
                let run = min(data.count - cursor, 1 + Int(data[cursor] & 0x3F))
                progress = data[cursor..<(cursor + run)].withUnsafeBytes { planner.wire($0) }
                given &+= UInt64(run)
                cursor += run
            }
            if progress == .readMore { planner.wireClosed() }
        }
        var failures: [String] = []
        if planner.bytesReceived != given { failures.append("counted \(planner.bytesReceived) of \(given) bytes") }
        if sent > configuration.maxRequests { failures.append("\(sent) requests, more than maxRequests") }
        return failures
    }
}
