import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct EXRTests {
    typealias Channels = [(name: String, type: Int)]
    static let rgb: Channels = [("B", EXRBuilder.half), ("G", EXRBuilder.half), ("R", EXRBuilder.half)]
    static let rest = EXRBuilder.requiredAfterDataWindow(width: 8, height: 8)

    /// A single-part file whose header is `attributes` and the end byte.
    func file(_ attributes: [UInt8]..., flags: Int = 0) -> [UInt8] {
        EXRBuilder.file(header: attributes.flatMap { $0 } + [0], flags: flags)
    }

    @Test(arguments: [(100, 100, 0, 0), (1, 1, 0, 0), (1920, 1080, -100, -50), (7, 3, 1_000_000, 20)])
    func sizeRightAfterTheDataWindow(width: Int, height: Int, xMin: Int, yMin: Int) {
        let bytes = EXRBuilder.image(width: width, height: height, xMin: xMin, yMin: yMin)
        let answerPoint = 8 + EXRBuilder.channels(Self.rgb).count + EXRBuilder.compression.count
            + EXRBuilder.dataWindow(width: width, height: height).count
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            let found = info(outcome)
            #expect(found?.format == .exr)
            #expect(found?.size == [width, height])
            #expect(found?.isPartial == false)
            #expect(found?.orientation == nil)
            // The channel list came first, so full mode has its facts at the same byte.
            #expect(outcome.bytesConsumed == UInt64(answerPoint))
        }
        #expect(info(verified(bytes))?.bitDepth == 16)
        #expect(info(verified(bytes))?.hasAlpha == false)
        #expect(info(verified(bytes, dimensionsOnly))?.bitDepth == nil)
    }

    @Test func dataWindowFirst() {
        let window = EXRBuilder.dataWindow(width: 64, height: 32)
        let channels = EXRBuilder.channels([("A", EXRBuilder.half), ("Y", EXRBuilder.half)])
        let bytes = file(window, channels, EXRBuilder.compression, Self.rest)
        let quick = verified(bytes, dimensionsOnly)
        #expect(info(quick)?.size == [64, 32])
        #expect(quick.bytesConsumed == UInt64(8 + window.count))
        // Full mode reads on to the channel list.
        let full = verified(bytes)
        #expect(info(full)?.hasAlpha == true)
        #expect(full.bytesConsumed == UInt64(8 + window.count + channels.count))
        // Cut inside the channel list: a partial answer without its facts.
        let cut = info(verified(Array(bytes[0..<(8 + window.count + 10)])))
        #expect(cut?.size == [64, 32])
        #expect(cut?.isPartial == true)
        #expect(cut?.hasAlpha == nil)
    }

    @Test func dataWindowLast() {
        let before = EXRBuilder.channels(Self.rgb) + EXRBuilder.compression + Self.rest
            + EXRBuilder.attribute("comments", "string", ascii("a comment"))
        let window = EXRBuilder.dataWindow(width: 3, height: 5)
        let bytes = file(before, window)
        for options in [dimensionsOnly, ScanOptions()] {
            let outcome = verified(bytes, options)
            #expect(info(outcome)?.size == [3, 5])
            #expect(outcome.bytesConsumed == UInt64(8 + before.count + window.count))
        }
    }

    @Test func dataWindowMissing() {
        let bytes = file(EXRBuilder.channels(Self.rgb), EXRBuilder.compression, Self.rest)
        #expect(failureCode(verified(bytes)) == .malformed)
        #expect(failureCode(verified(bytes, dimensionsOnly)) == .malformed)
        // A header with no attribute at all.
        #expect(failureCode(verified(file())) == .malformed)
    }

    @Test func namesThatOnlyResembleTheOnesSought() {
        let decoys = EXRBuilder.attribute("dataWindo", "box2i", EXRBuilder.box(0, 0, 9, 9))
            + EXRBuilder.attribute("dataWindows", "box2i", EXRBuilder.box(0, 0, 9, 9))
            + EXRBuilder.attribute("DataWindow", "box2i", EXRBuilder.box(0, 0, 9, 9))
            + EXRBuilder.attribute("channel", "chlist", EXRBuilder.channelList([("A", EXRBuilder.uint)]))
            + EXRBuilder.attribute("channelsX", "chlist", EXRBuilder.channelList([("A", EXRBuilder.uint)]))
            + EXRBuilder.attribute("d", "int", [1, 2, 3, 4])
        let bytes = file(decoys, EXRBuilder.channels(Self.rgb), EXRBuilder.dataWindow(width: 21, height: 22), Self.rest)
        let found = info(verified(bytes))
        #expect(found?.size == [21, 22])
        #expect(found?.hasAlpha == false)
        #expect(info(verified(bytes, dimensionsOnly))?.size == [21, 22])
    }

    @Test func theFirstDataWindowAndChannelListCount() {
        let bytes = file(
            EXRBuilder.dataWindow(width: 10, height: 20), EXRBuilder.attribute("dataWindow", "box2i", EXRBuilder.box(0, 0, 99, 99)),
            EXRBuilder.channels([("Z", EXRBuilder.float)]), EXRBuilder.channels([("A", EXRBuilder.half)]), Self.rest)
        let found = info(verified(bytes))
        #expect(found?.size == [10, 20])
        #expect(found?.bitDepth == 32)
        #expect(found?.hasAlpha == false)
    }

    @Test(arguments: [
        ([("B", EXRBuilder.half), ("G", EXRBuilder.half), ("R", EXRBuilder.half)], 16, false),
        ([("A", EXRBuilder.half), ("B", EXRBuilder.half), ("G", EXRBuilder.half), ("R", EXRBuilder.half)], 16, true),
        ([("R", EXRBuilder.float), ("G", EXRBuilder.float), ("B", EXRBuilder.float)], 32, false),
        ([("id", EXRBuilder.uint), ("Z", EXRBuilder.float)], 32, false),
        ([("Y", EXRBuilder.half), ("Z", EXRBuilder.float)], nil, false),
        ([("AR", EXRBuilder.half), ("AG", EXRBuilder.half), ("AB", EXRBuilder.half)], 16, true),
        ([("diffuse.A", EXRBuilder.half), ("AX", EXRBuilder.half), ("a", EXRBuilder.half), ("ARG", EXRBuilder.half)], 16, false),
        ([("Y", 7)], nil, false),
        ([], nil, nil),
    ] as [(Channels, Int?, Bool?)])
    func channelListFacts(channels: Channels, bits: Int?, alpha: Bool?) {
        let bytes = file(EXRBuilder.channels(channels), EXRBuilder.compression, EXRBuilder.dataWindow(width: 2, height: 2), Self.rest)
        let found = info(verified(bytes))
        #expect(found?.size == [2, 2])
        #expect(found?.bitDepth == bits)
        #expect(found?.hasAlpha == alpha)
    }

    @Test func aBrokenChannelListCostsOnlyTheFacts() {
        let list = EXRBuilder.channelList([("A", EXRBuilder.half), ("Y", EXRBuilder.half)])
        let broken: [[UInt8]] = [
            Array(list.dropLast()),  // no terminating empty name
            list + [0, 0, 0],  // bytes after the terminator
            Array(list.prefix(12)),  // the value ends inside a channel's fields
            Array(list.prefix(1)),  // ... inside a channel name
            [],  // an empty value
            ascii(String(repeating: "N", count: 40)) + [0] + Array(list.dropFirst(2)),  // a name over 31 bytes
        ]
        for value in broken {
            let window = EXRBuilder.dataWindow(width: 6, height: 9)
            let bytes = file(EXRBuilder.attribute("channels", "chlist", value), window, Self.rest)
            let outcome = verified(bytes)
            let found = info(outcome)
            #expect(found?.size == [6, 9])
            #expect(found?.hasAlpha == nil)
            #expect(found?.bitDepth == nil)
            #expect(found?.isPartial == false)
            let channels = EXRBuilder.attribute("channels", "chlist", value)
            #expect(outcome.bytesConsumed == UInt64(8 + channels.count + window.count))
        }
        // A channel list of another type is not read.
        let retyped = file(EXRBuilder.attribute("channels", "chlisT", list), EXRBuilder.dataWindow(width: 6, height: 9))
        #expect(info(verified(retyped))?.hasAlpha == nil)
    }

    @Test func invalidDataWindows() {
        let limit = Int(Int32.max / 2)  // OpenEXR rejects windows reaching ±(2^31 − 1) / 2
        let boxes: [[Int]] = [
            [10, 0, 9, 0], [0, 10, 0, 9], [Int(Int32.min), 0, 0, 0], [0, Int(Int32.min), 0, 0],
            [0, 0, Int(Int32.max), 0], [0, 0, 0, Int(Int32.max)], [-limit, 0, 0, 0], [0, 0, limit, 0],
            [0, -limit, 0, 0], [0, 0, 0, limit],
        ]
        for box in boxes {
            let window = EXRBuilder.attribute("dataWindow", "box2i", EXRBuilder.box(box[0], box[1], box[2], box[3]))
            #expect(failureCode(verified(file(window), dimensionsOnly)) == .malformed, "\(box)")
        }
        // Just inside OpenEXR's bounds, the window is valid but wider than maxWidth.
        let widest = EXRBuilder.attribute("dataWindow", "box2i", EXRBuilder.box(1 - limit, 0, limit - 1, 0))
        #expect(failureCode(verified(file(widest))) == .limitExceeded)
        var options = ScanOptions()
        options.maxWidth = Int.max
        #expect(info(verified(file(widest), options))?.size == [2 * limit - 1, 1])
        // 2^30 rows, from −2^29: as tall as the default limit admits.
        let tallest = EXRBuilder.attribute("dataWindow", "box2i", EXRBuilder.box(5, -(1 << 29), 5, (1 << 29) - 1))
        #expect(info(verified(file(tallest)))?.size == [1, 1 << 30])
        let tooTall = EXRBuilder.attribute("dataWindow", "box2i", EXRBuilder.box(5, -(1 << 29), 5, 1 << 29))
        #expect(failureCode(verified(file(tooTall))) == .limitExceeded)
    }

    @Test func malformedAttributes() {
        let window = EXRBuilder.dataWindow(width: 4, height: 4)
        let cases: [[UInt8]] = [
            EXRBuilder.attribute("dataWindow", "box2f", [UInt8](repeating: 0, count: 16)),
            EXRBuilder.attribute("dataWindow", "box2", [UInt8](repeating: 0, count: 16)),
            EXRBuilder.attribute("dataWindow", "box2i", EXRBuilder.box(0, 0, 3, 3) + [0], declaredSize: 17),
            EXRBuilder.attribute("dataWindow", "box2i", EXRBuilder.box(0, 0, 3, 3), declaredSize: 15),
            EXRBuilder.attribute("comments", "string", [1, 2], declaredSize: -2) + window,
            EXRBuilder.attribute("comments", "", [1, 2]) + window,
        ]
        for header in cases {
            #expect(failureCode(verified(file(header), dimensionsOnly)) == .malformed)
        }
    }

    @Test func longNames() {
        let window = EXRBuilder.dataWindow(width: 4, height: 5)
        for length in [31, 32, 255, 256] {
            let name = String(repeating: "n", count: length)
            for (attribute, flags) in [
                (EXRBuilder.attribute(name, "int", [0, 0, 0, 0]), 0), (EXRBuilder.attribute(name, "int", [0, 0, 0, 0]), EXRBuilder.longNamesFlag),
                (EXRBuilder.attribute("a", name, [0, 0, 0, 0]), 0), (EXRBuilder.attribute("a", name, [0, 0, 0, 0]), EXRBuilder.longNamesFlag),
            ] {
                let limit = flags == 0 ? 31 : 255
                let outcome = verified(file(attribute, window, flags: flags), dimensionsOnly)
                if length <= limit {
                    #expect(info(outcome)?.size == [4, 5], "\(length) bytes, flags \(flags)")
                } else {
                    #expect(failureCode(outcome) == .malformed, "\(length) bytes, flags \(flags)")
                }
            }
        }
    }

    @Test func multiPartFilesAreSizedByTheFirstPart() {
        for deep in [false, true] {
            let bytes = EXRBuilder.multiPart(sizes: [(640, 480), (1920, 1080), (2, 2)], deep: deep)
            let found = info(verified(bytes))
            #expect(found?.size == [640, 480])
            #expect(found?.bitDepth == 32)
            #expect(info(verified(bytes, dimensionsOnly))?.size == [640, 480])
        }
    }

    @Test func tiledAndDeepSinglePartFiles() {
        let tiles = EXRBuilder.attribute("tiles", "tiledesc", [64, 0, 0, 0, 64, 0, 0, 0, 0])
        let tiled = file(EXRBuilder.channels(Self.rgb), EXRBuilder.dataWindow(width: 300, height: 200), tiles, flags: EXRBuilder.tiledFlag)
        #expect(info(verified(tiled))?.size == [300, 200])
        let deepAttributes = EXRBuilder.attribute("name", "string", ascii("deep")) + EXRBuilder.attribute("type", "string", ascii("deepscanline"))
        let deep = file(deepAttributes, EXRBuilder.dataWindow(width: 30, height: 20), flags: EXRBuilder.nonImageFlag)
        #expect(info(verified(deep))?.size == [30, 20])
    }

    @Test func versionField() {
        let header = EXRBuilder.header(width: 4, height: 4)
        #expect(failureCode(verified(EXRBuilder.file(header: header, version: 1))) == .unsupportedFeature)
        #expect(failureCode(verified(EXRBuilder.file(header: header, version: 3))) == .unsupportedFeature)
        for flag in [0x100, 0x2000, 0x80_0000, 0x4000_0000] {
            #expect(failureCode(verified(EXRBuilder.file(header: header, flags: flag))) == .unsupportedFeature, "flag \(flag)")
        }
        for flags in [EXRBuilder.tiledFlag | EXRBuilder.multiPartFlag, EXRBuilder.tiledFlag | EXRBuilder.nonImageFlag] {
            #expect(failureCode(verified(EXRBuilder.file(header: header, flags: flags))) == .malformed)
        }
        var magic = EXRBuilder.file(header: header)
        magic[3] = 0x02
        #expect(failureCode(verified(magic)) == .unknownFormat)
    }

    @Test func attributeValuesAreSkippedByTheirSize() {
        let empty = EXRBuilder.attribute("empty", "bytes", [])
        let preview = EXRBuilder.attribute("preview", "preview", [UInt8](repeating: 7, count: 5000))
        let bytes = file(empty, preview, EXRBuilder.dataWindow(width: 9, height: 8))
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.size == [9, 8])
        #expect(outcome.bytesConsumed == UInt64(8 + empty.count + preview.count + EXRBuilder.dataWindow(width: 9, height: 8).count))
        // A seeking reader jumps the value.
        var scanner = HeaderScanner(options: dimensionsOnly)
        _ = scanner.feed(Array(bytes[0..<(8 + empty.count + 20)]))  // up to the preview's size field
        #expect(scanner.pendingSkip == 5000)
        // A value claiming 2 GiB: the input ends first.
        let huge = file(EXRBuilder.attribute("preview", "preview", [1, 2, 3], declaredSize: 0x7FFF_FFFF))
        #expect(failureCode(verified(huge)) == .truncated)
    }

    @Test func attributeCountLimit() {
        var options = ScanOptions()
        options.maxEntries = 3
        let filler = EXRBuilder.attribute("a", "int", [0, 0, 0, 0]) + EXRBuilder.attribute("b", "int", [0, 0, 0, 0])
        let window = EXRBuilder.dataWindow(width: 4, height: 4)
        #expect(info(verified(file(filler, window), options))?.size == [4, 4])
        let more = filler + EXRBuilder.attribute("c", "int", [0, 0, 0, 0])
        #expect(failureCode(verified(file(more, window), options)) == .limitExceeded)
        // Once the size is known, the limit ends only the search for the channel list.
        let found = info(verified(file(window, more, EXRBuilder.channels(Self.rgb)), options))
        #expect(found?.size == [4, 4])
        #expect(found?.isPartial == true)
        // Channels count against the same limit.
        let channels = EXRBuilder.channels([("A", 1), ("B", 1), ("G", 1), ("R", 1)])
        #expect(failureCode(verified(file(channels, window), options)) == .limitExceeded)
        var quick = options
        quick.mode = .dimensionsOnly
        #expect(info(verified(file(channels, window), quick))?.size == [4, 4])
    }

    @Test func nameBytesHaveABudget() {
        // 260 attributes with 255-byte names: more than 64 KiB of names before the dataWindow.
        var attributes: [UInt8] = []
        for index in 0..<260 {
            let name = String(index) + String(repeating: "x", count: 255 - String(index).count)
            attributes += EXRBuilder.attribute(name, "int", [0, 0, 0, 0])
        }
        let bytes = file(attributes, EXRBuilder.dataWindow(width: 4, height: 4), flags: EXRBuilder.longNamesFlag)
        // Too long for the exhaustive verifier: a sample of chunkings and prefixes.
        let report = ChunkingVerifier(options: dimensionsOnly).verify(bytes, coverage: .sampled(seed: 9))
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(failureCode(report.reference) == .limitExceeded)
    }

    @Test func signatureFollowedByRandomBytes() {
        var random = SeededRandom(seed: 0xE8)
        for prefix in [[0x76, 0x2F, 0x31, 0x01], [0x76, 0x2F, 0x31, 0x01, 0x02, 0, 0, 0], [0x76, 0x2F, 0x31, 0x01, 0x02, 0x04, 0, 0]] as [[UInt8]] {
            for length in [0, 1, 5, 17, 60, 300] {
                for _ in 0..<8 {
                    let bytes = prefix + random.bytes(length)
                    verified(bytes)
                    verified(bytes, dimensionsOnly)
                }
            }
        }
        // Random bytes in place of a real header's values.
        for _ in 0..<8 {
            var bytes = EXRBuilder.image(width: 5, height: 5)
            for index in 8..<bytes.count where random.next() % 8 == 0 { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
            verified(bytes)
        }
    }
}
