@testable import ImageProbe
import ImageProbeFixtures
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
        var planner = RangePlanner(configuration: configuration, url: "http://images.example/a")
        guard case .send(let first) = planner.next() else { Issue.record("no first request"); return }
        #expect(first.first == 0)
        var fields: [(String, String)] = []
        if status == 302 {
            fields = [("Location", "/moved")]
        } else {
            // The first response names a version, the second another: the restart from byte 0
            // (§6.1) comes after the budget is spent.
            planner.field(name: "Content-Range", value: "bytes 0-1023/100000")
            planner.field(name: "ETag", value: "\"one\"")
            let reading = planner.head(status: 206)
            let within = planner.received(1200)
            #expect(reading && within)
            var body = [UInt8](repeating: 0, count: 1024)
            // A TIFF whose first directory is at 20,000: the next request jumps there.
            body[0] = 0x49; body[1] = 0x49; body[2] = 42; body[4] = 0x20; body[5] = 0x4E
            _ = body.withUnsafeBytes { planner.body($0) }
            planner.end(.complete)
            guard case .send(let second) = planner.next() else { Issue.record("no second request"); return }
            #expect(second.first > 0)
            #expect(planner.requestHeaderLines.contains("If-Range: \"one\"\r\n"))
            fields = [("Content-Range", "bytes \(second.first)-\(second.last)/100000"), ("ETag", "\"two\"")]
        }
        for (name, value) in fields { planner.field(name: name, value: value) }
        let reading = planner.head(status: status)
        let within = planner.received(5000)
        #expect(!reading && !within)
        planner.end(.stopped)
        guard case .failed(let failure) = planner.next() else { Issue.record("a request past the budget"); return }
        #expect(failure.code == .limitExceeded)
        #expect(failure.scanFailure == nil, "the network's limit, not the scanner's")
    }

    /// Each code's name is its case's, and each reason has a one-line message.
    @Test func namesAndMessages() {
        typealias Failure = RangePlanner.Failure
        for code in Failure.Code.allCases { #expect(code.name == String(describing: code)) }
        for reason in Failure.Reason.allCases {
            let text: String = reason.spelled()
            #expect(!text.isEmpty && !text.contains("\n"), "\(reason)")
        }
        #expect(RangePlanner.userAgent.description.hasPrefix("ImageProbe/"))
    }

    /// A raw response, in every split, through `wire`: the same answer and the same count.
    static func wire(_ responses: [[UInt8]], url: String = "http://images.example/a", split: Int = 0,
                     configure: (inout RangePlanner.Configuration) -> Void = { _ in }) -> (RangePlanner.Action, RangePlanner) {
        var configuration = RangePlanner.Configuration()
        configure(&configuration)
        var planner = RangePlanner(configuration: configuration, url: url)
        var index = 0
        while case .send = planner.next() {
            guard index < responses.count else { planner.wireClosed(); continue }
            let bytes = responses[index]
            index += 1
            var progress = RangePlanner.WireProgress.readMore
            var at = 0
            while progress == .readMore && at < bytes.count {
                let run = split > 0 ? min(split, bytes.count - at) : bytes.count - at
                progress = bytes[at..<(at + run)].withUnsafeBytes { planner.wire($0) }
                at += run
            }
            if progress == .readMore { planner.wireClosed() }
        }
        return (planner.next(), planner)
    }

    static func code(_ action: RangePlanner.Action) -> String {
        switch action {
        case .done(let info): "\(info.format)"
        case .failed(let failure): failure.code.name
        case .notModified: "notModified"
        case .send: "send"
        }
    }

    static let png = PNGBuilder.image(width: 7, height: 5)

    @Test(arguments: [0, 1, 7])
    func rawResponses(split: Int) {
        let png = Self.png
        func expect(_ responses: [[UInt8]], _ expected: String, _ comment: Comment? = nil,
                    configure: (inout RangePlanner.Configuration) -> Void = { _ in }) {
            #expect(Self.code(Self.wire(responses, split: split, configure: configure).0) == expected, comment)
        }
        func expect(_ responses: [String], _ expected: String, _ comment: Comment? = nil,
                    configure: (inout RangePlanner.Configuration) -> Void = { _ in }) {
            expect(responses.map { Array($0.utf8) }, expected, comment, configure: configure)
        }
        let ranged = Array("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-\(png.count - 1)/\(png.count)\r\nContent-Length: \(png.count)\r\n\r\n".utf8) + png
        expect([ranged], "png")
        let rest = String(png.count - 5, radix: 16)
        expect([Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\n".utf8) + png.prefix(5) + Array("\r\n\(rest)\r\n".utf8)
                + png.dropFirst(5) + Array("\r\n0\r\n\r\n".utf8)], "png")
        expect([Array("HTTP/1.1 200 OK\r\n\r\n".utf8) + png], "png", "a body to the connection's end")
        expect([Array("HTTP/1.1 100 Continue\r\n\r\n".utf8) + ranged], "png")
        expect([Array(String(repeating: "HTTP/1.1 103 Early Hints\r\n\r\n", count: 5).utf8) + ranged], "invalidResponse")
        expect([Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8)], "invalidResponse")
        expect([png], "invalidResponse", "HTTP/0.9")
        let jpeg = "\u{FF}\u{D8}\u{FF}\u{E1}\u{FF}\u{FF}".unicodeScalars.map { UInt8($0.value) }
        let padded = jpeg.flatMap { Array("00000001;pad\r\n".utf8) + [$0] + Array("\r\n".utf8) }
            + Array(String(repeating: "00000001;pad\r\nx\r\n", count: 3000).utf8)
        expect([Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + padded],
               "limitExceeded", "padded chunks") { $0.maxBytes = 20_000; $0.scanOptions.maxBytes = 1 << 20 }
        expect(["HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxx"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nxx"], "contentEncoded")
        expect(["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nxx"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "f", count: 20) + "\r\nxx"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\n" + String(repeating: "X-Pad: 0123456789012345678901234567890123456789\r\n", count: 1000) + "\r\n"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 9000) + "\r\n\r\n"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\nName : value\r\n\r\n"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n"], "invalidResponse")
        expect(["HTTP/1.1 200 OK\r\nContent-"], "connection", "closed inside the head")
        expect([[UInt8]](), "connection", "closed before the head")
        expect(["HTTP/1.1 302 Found\r\nLocation:\r\nContent-Length: 0\r\n\r\n"], "invalidResponse", "an empty Location")
        expect(["HTTP/1.1 302 Found\r\nLocation: ftp://x/a\r\n\r\n"], "unsupportedURL")
        expect(["HTTP/1.1 302 Found\r\nLocation: /a\r\n\r\n"], "redirectLoop")
        expect((0..<6).map { "HTTP/1.1 302 Found\r\nLocation: /\($0)\r\nContent-Length: 0\r\n\r\n" }, "tooManyRedirects")
        expect(["HTTP/1.1 302 Found\r\nLocation: http://x:99999/\r\n\r\n"], "invalidResponse")
        // A chunk extension without end: the byte budget ends it.
        expect(["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 5000)], "limitExceeded") {
            $0.maxBytes = 2000
        }
    }

    @Test func theBudgetCountsEveryWireByte() {
        // A JPEG whose first segment is 64 KiB long, in 1-byte chunks each padded 20:1.
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n\u{FF}\u{D8}\u{FF}\u{E1}\u{FF}\u{FF}\r\n"
            + String(repeating: "00000001;padpadpadpad\r\n\0\r\n", count: 1000)
        let (action, planner) = Self.wire([text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }]) {
            $0.maxBytes = 10_000
            $0.scanOptions.maxBytes = 1 << 20
        }
        #expect(Self.code(action) == "limitExceeded")
        #expect(planner.bytesReceived < 40_000)
    }

    /// A server that answers every range faithfully with 206 and the resource's length; the
    /// planner's answer and the requests it sent.
    static func served(_ resource: [UInt8], configure: (inout RangePlanner.Configuration) -> Void = { _ in })
        -> (info: ImageInfo?, requests: Int) {
        var configuration = RangePlanner.Configuration()
        configure(&configuration)
        var planner = RangePlanner(configuration: configuration, url: "http://images.example/a")
        var requests = 0
        while case .send(let request) = planner.next(), requests < 64 {
            requests += 1
            let first = Int(request.first), last = min(Int(request.last), resource.count - 1)
            planner.field(name: "Content-Range", value: "bytes \(first)-\(last)/\(resource.count)")
            _ = planner.received(100)
            guard planner.head(status: 206) else { planner.end(.stopped); continue }
            _ = planner.received(UInt64(last - first + 1))
            _ = resource[first...last].withUnsafeBytes { planner.body($0) }
            planner.end(.complete)
        }
        guard case .done(let info) = planner.next() else { return (nil, requests) }
        return (info, requests)
    }

    /// Over HTTP, full mode stops a PNG at its image data, as browsers do: an `eXIf` behind
    /// 20 KB of image data costs no jump. Animation mode, and a file, still read it (§6.1).
    @Test func aPNGIsReadToItsImageDataOnly() {
        let exif = PNGBuilder.exif(TIFFBuilder(entries: [.orientation(6)]).build())
        let bulk = PNGBuilder.chunk("IDAT", [UInt8](repeating: 0x55, count: 20_000))
        let late = PNGBuilder.signature + PNGBuilder.header(width: 30, height: 20) + bulk + exif + PNGBuilder.end
        let early = PNGBuilder.signature + PNGBuilder.header(width: 30, height: 20) + exif + bulk + PNGBuilder.end

        let overHTTP = Self.served(late)
        #expect(overHTTP.info?.size == [30, 20] && overHTTP.info?.orientation == nil && overHTTP.info?.isPartial == false)
        #expect(overHTTP.requests == 1)
        #expect(Self.served(early).info?.orientation == .rotate90Clockwise)
        let walked = Self.served(late) { $0.scanOptions.mode = .animation }
        #expect(walked.info?.orientation == .rotate90Clockwise && walked.requests == 2)
        #expect(info(verified(late))?.orientation == .rotate90Clockwise, "a file is walked to IEND")
    }

    @Test func addressesAndSpellings() {
        func check(_ text: String) -> AddressClass? {
            var bytes = [UInt8](repeating: 0, count: 16)
            var text = text
            let count = text.withUTF8 { source in bytes.withUnsafeMutableBytes { AddressText.parse(UnsafeRawBufferPointer(source), into: $0) } }
            guard count > 0 else { return nil }
            return bytes[0..<count].withUnsafeBytes { AddressClass.of($0) }
        }
        for text in ["127.0.0.1", "127.1", "0x7f.1", "0x7f000001", "2130706433", "017700000001", "0177.0.0.1", "[::1]", "::1",
                     "::ffff:127.0.0.1", "::ffff:7f00:1", "0:0:0:0:0:0:0:1", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::"] {
            let kind = check(text)
            #expect(kind == .loopback4 || kind == .loopback6, "\(text): \(String(describing: kind))")
        }
        #expect(check("8.8.8.8") == .publicAddress && check("2606:4700::1111") == .publicAddress)
        #expect(check("example.com") == nil && check("1.2.3.4.5") == nil && check("256.1.1.1") == nil && check("1::2::3") == nil)
        #expect(check("0x100000000") == nil && check("09.1.1.1") == nil && check("::ffff:1.2.3") == nil)
    }
}
