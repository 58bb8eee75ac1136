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
        var planner = RangePlanner(configuration: configuration, startHash: 1)
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
            case .done, .failed:
                // Settled: the same answer again, whatever is called after.
                planner.end(.complete)
                planner.fail(.other)
                switch planner.next() {
                case .done, .failed: break
                default: failures.append("the planner left its settled answer")
                }
                if sent > configuration.maxRequests { failures.append("\(sent) requests, more than maxRequests") }
                if planner.bytesReceived != given { failures.append("counted \(planner.bytesReceived) of \(given) bytes") }
                return failures
            case .followRedirect:
                planner.redirect(to: UInt64(next() & 7), isHTTP: next() & 15 != 0)
            case .send(let request):
                sent += 1
                guard request.first <= request.last else {
                    failures.append("a range \(request.first)-\(request.last)")
                    return failures
                }
                let choice = next()
                let status: Int = [206, 206, 206, 200, 302, 416, 500, 206][Int(choice & 7)]
                var fields = ResponseFields()
                let length = UInt64(next()) * 8
                let first = choice & 0x08 != 0 ? request.first &+ UInt64(next()) : request.first
                let last = choice & 0x10 != 0 ? request.last : min(request.last, first &+ max(1, length) &- 1)
                let total = choice & 0x20 != 0 ? "*" : String(UInt64(image.count) &+ UInt64(next()))
                if status == 206 { fields.take(name: "Content-Range", value: "bytes \(first)-\(last)/\(total)") }
                if choice & 0x40 != 0 { fields.take(name: "Content-Length", value: String(length)) }
                if choice & 0x80 != 0 { fields.take(name: "ETag", value: "\"v\(next() & 3)\"") }
                if next() & 0x0F == 0 { fields.take(name: "Content-Encoding", value: "gzip") }
                if status == 302 && next() & 1 == 0 { fields.take(name: "Location", value: "/elsewhere") }
                let head = UInt64(40 + Int(next()))
                given &+= head
                _ = planner.received(head)
                guard planner.head(status: status, fields: fields) else {
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
                    for index in 0..<run { chunk.append(offset + index < image.count && offset + index >= 0 ? image[offset + index] : next()) }
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
                case 2: planner.fail(.other)
                case 3: planner.end(.closed)
                default: planner.end(ended)
                }
            }
        }
        failures.append("not settled after \(steps) steps (\(sent) requests)")
        return failures
    }
}
