import ImageProbe
import ImageProbeFixtures
import Testing

@Suite struct TGATests {
    typealias Header = TGABuilder.Header

    /// Options for a seekable input of `bytes.count` bytes, so the footer may be consulted.
    static func seekable(_ bytes: [UInt8], _ mode: ScanOptions.Mode = .full) -> ScanOptions {
        var options = ScanOptions(mode: mode)
        options.inputLength = UInt64(bytes.count)
        return options
    }

    static func header(type: Int, depth: Int, width: Int = 20, height: Int = 10) -> Header {
        var header = type & 7 == 1 ? Header.colourMapped(width: width, height: height, rle: type == 9) : Header(width: width, height: height)
        header.imageType = type
        header.depth = depth
        return header
    }

    @Test(arguments: [(1, 8), (1, 16), (9, 8), (2, 15), (2, 16), (2, 24), (2, 32), (10, 24), (10, 32), (3, 8), (3, 16), (11, 8)])
    func everyImageTypeAndDepth(type: Int, depth: Int) {
        let bytes = TGABuilder.file(Self.header(type: type, depth: depth, width: 640, height: 480))
        let outcome = verified(bytes, dimensionsOnly)
        #expect(info(outcome)?.format == .tga)
        #expect(info(outcome)?.size == [640, 480])
        #expect(outcome.bytesConsumed == UInt64(TGABuilder.dimensionsAnswerEnd))
        let full = verified(bytes)
        #expect(info(full)?.bitDepth == depth)
        #expect(info(full)?.hasAlpha == false)
        #expect(full.bytesConsumed == UInt64(TGABuilder.headerLength))
    }

    @Test func theSnifferHandsOverTwoFourOrSixBytes() {
        // ID length 5 (2 bytes known), `00 00 0A 00` (4), `00 00 02 00 00 00` (6).
        var withID = Header(width: 300, height: 200)
        withID.idLength = 5
        var rle = Header(width: 300, height: 200)
        rle.imageType = 10
        let plain = Header(width: 300, height: 200)
        for header in [withID, rle, plain] {
            let bytes = TGABuilder.file(header)
            let outcome = verified(bytes, dimensionsOnly)
            #expect(info(outcome)?.size == [300, 200])
            #expect(outcome.bytesConsumed == 17)
        }
    }

    @Test func everyImageIDLength() {
        // The ID length is the first byte, so it can look like a signature: `0A 00` also starts
        // a version-0 PCX, and the TGA image type in the third byte tells them apart.
        for idLength in 0...255 {
            var headers: [Header] = [2, 3, 10, 11].map { type in
                var header = Header(width: 17, height: 5)
                header.imageType = type
                header.depth = type == 3 || type == 11 ? 8 : 24
                return header
            }
            headers.append(.colourMapped(width: 17, height: 5, mapLength: 4))
            headers.append(.colourMapped(width: 17, height: 5, rle: true, mapLength: 4))
            for var header in headers {
                header.idLength = idLength
                let found = info(ChunkingVerifier.scanWhole(TGABuilder.file(header)))
                #expect(found?.format == .tga && found?.size == [17, 5], "ID length \(idLength), type \(header.imageType)")
            }
        }
        // The PCX look-alikes through every chunking, against a real version-0 PCX.
        for type in [2, 3, 10, 11] {
            var header = Header(width: 17, height: 5)
            header.idLength = 0x0A
            header.imageType = type
            header.depth = type == 3 || type == 11 ? 8 : 24
            let outcome = verified(TGABuilder.file(header), dimensionsOnly)
            #expect(info(outcome)?.format == .tga)
            #expect(outcome.bytesConsumed == 17)
        }
        #expect(info(verified(PCXBuilder.file(version: 0, encoding: 0, xMax: 16, yMax: 4)))?.format == .pcx)
    }

    @Test func largestSizeAndOriginBits() {
        var header = Header(width: 65535, height: 65535)
        header.xOrigin = 100
        header.yOrigin = 7
        for descriptor in [0x00, 0x10, 0x20, 0x30] {
            header.descriptor = descriptor
            let found = info(verified(TGABuilder.file(header)))
            #expect(found?.size == [65535, 65535])
            #expect(found?.orientation == nil)  // the origin is not an EXIF orientation
        }
    }

    @Test func alphaBitsInFullMode() {
        for (depth, alphaBits) in [(32, 8), (32, 0), (16, 1), (16, 0), (24, 0)] {
            var header = Header(width: 4, height: 4)
            header.depth = depth
            header.descriptor = 0x20 | alphaBits
            let found = info(verified(TGABuilder.file(header)))
            #expect(found?.hasAlpha == (alphaBits > 0))
            #expect(found?.isPartial == false)
        }
        // Colour-mapped: the attribute bits belong to the 32-bit map entries, not the index.
        var mapped = Header.colourMapped(width: 4, height: 4, entrySize: 32)
        mapped.descriptor = 8
        #expect(info(verified(TGABuilder.file(mapped)))?.hasAlpha == true)
    }

    @Test func aBadDescriptorGivesAPartialAnswerInFullMode() {
        for (depth, descriptor) in [(24, 0xC0), (8, 0x09)] {
            var header = Header(width: 9, height: 8)
            header.imageType = depth == 8 ? 3 : 2
            header.depth = depth
            header.descriptor = descriptor
            let bytes = TGABuilder.file(header)
            let found = info(verified(bytes))
            #expect(found?.size == [9, 8])
            #expect(found?.isPartial == true)
            #expect(found?.hasAlpha == nil)
            #expect(info(verified(bytes, dimensionsOnly))?.isPartial == false)
        }
    }

    @Test func hardRulesRejectTheHeader() {
        var cases: [Header] = []
        func add(_ change: (inout Header) -> Void) {
            var header = Header(width: 10, height: 10)
            header.idLength = 1  // so that no other format claims the first bytes
            change(&header)
            cases.append(header)
        }
        add { $0.mapType = 2 }
        add { $0.imageType = 0 }
        add { $0.imageType = 32 }
        add { $0.imageType = 4 }
        add { $0.imageType = 1; $0.depth = 8 }  // colour-mapped without a map
        add { $0.imageType = 9; $0.mapType = 1; $0.mapLength = 0; $0.entrySize = 24; $0.depth = 8 }
        add { $0.depth = 8 }  // true colour at 8 bits
        add { $0.imageType = 3; $0.depth = 24 }
        add { $0.mapType = 1; $0.mapLength = 4; $0.entrySize = 12 }
        add { $0.width = 0 }
        add { $0.height = 0 }
        for header in cases {
            let bytes = TGABuilder.file(header, footer: true)
            for options in [ScanOptions(), dimensionsOnly, Self.seekable(bytes), Self.seekable(bytes, .dimensionsOnly)] {
                let outcome = verified(bytes, options)
                #expect(failureCode(outcome) == .unknownFormat, "\(header.bytes)")
                #expect(outcome.bytesConsumed <= 17)
            }
        }
    }

    /// Headers that break only a soft rule, with and without the footer and a known length.
    @Test func softRulesNeedTheFooter() {
        var mapFieldsWithoutMap = Header(width: 33, height: 22)
        mapFieldsWithoutMap.entrySize = 24
        var emptyMap = Header(width: 33, height: 22)
        emptyMap.mapType = 1
        emptyMap.entrySize = 24
        var indexWithoutMap = Header(width: 33, height: 22)
        indexWithoutMap.idLength = 2
        indexWithoutMap.firstIndex = 0x100
        for header in [mapFieldsWithoutMap, emptyMap, indexWithoutMap] {
            let withFooter = TGABuilder.file(header, pixelBytes: 40, footer: true)
            let withoutFooter = TGABuilder.file(header, pixelBytes: 66)
            for mode in [ScanOptions.Mode.full, .dimensionsOnly] {
                // Seekable, with the footer: accepted, after reading the footer.
                let outcome = verified(withFooter, Self.seekable(withFooter, mode))
                #expect(info(outcome)?.format == .tga)
                #expect(info(outcome)?.size == [33, 22])
                #expect(info(outcome)?.isPartial == false)
                #expect(outcome.bytesConsumed == UInt64(withFooter.count))
                // Not seekable: the footer can't be used.
                let stream = verified(withFooter, ScanOptions(mode: mode))
                #expect(failureCode(stream) == .unknownFormat)
                #expect(stream.bytesConsumed == 17)
                // Seekable, but the last 26 bytes are not a footer.
                let noFooter = verified(withoutFooter, Self.seekable(withoutFooter, mode))
                #expect(failureCode(noFooter) == .unknownFormat)
                #expect(noFooter.bytesConsumed == UInt64(withoutFooter.count))
            }
        }
    }

    @Test func footerEdgeCases() {
        var header = Header(width: 5, height: 6)
        header.entrySize = 16  // soft: colour map fields without a map
        // Header and footer only: the smallest file the footer can confirm.
        let tight = header.bytes + TGABuilder.footer
        #expect(info(verified(tight, Self.seekable(tight)))?.size == [5, 6])
        #expect(info(verified(tight, Self.seekable(tight, .dimensionsOnly)))?.size == [5, 6])
        // A length too short to hold header and footer.
        var short = ScanOptions()
        short.inputLength = 43
        #expect(failureCode(verified(tight, short)) == .unknownFormat)
        // A declared length beyond the real end: the footer never arrives.
        var long = ScanOptions()
        long.inputLength = UInt64(tight.count + 100)
        let outcome = verified(tight, long)
        #expect(failureCode(outcome) == .truncated)
        guard case .unsupported(let failure) = outcome.status else { return }
        #expect(failure.format == nil)
        // A valid header never reads the footer, even when it could.
        let valid = TGABuilder.file(Header(width: 5, height: 6), footer: true)
        #expect(verified(valid, Self.seekable(valid)).bytesConsumed == 18)
        #expect(verified(valid, Self.seekable(valid, .dimensionsOnly)).bytesConsumed == 17)
        // A dimension limit applies once the footer confirms the size.
        var limited = Self.seekable(tight)
        limited.maxHeight = 5
        #expect(failureCode(verified(tight, limited)) == .limitExceeded)
    }

    @Test func truncatedHeader() {
        let bytes = TGABuilder.file(Header(width: 5, height: 6))
        for length in 0..<17 {
            let outcome = ChunkingVerifier.scanWhole(Array(bytes[0..<length]))
            #expect(failureCode(outcome) == .truncated)
        }
        // Full mode, cut before the descriptor: the size is certain, a partial answer.
        let found = info(verified(Array(bytes[0..<17])))
        #expect(found?.size == [5, 6])
        #expect(found?.isPartial == true)
    }

    /// The header rules of SPEC, written again independently of the parser.
    enum Judgement: Equatable { case valid, soft, hard }

    static func judge(_ h: [UInt8]) -> Judgement {
        let mapType = h[1], type = h[2], entrySize = h[7], depth = h[16]
        let firstIndex = Int(h[3]) | Int(h[4]) << 8
        let mapLength = Int(h[5]) | Int(h[6]) << 8
        let width = Int(h[12]) | Int(h[13]) << 8
        let height = Int(h[14]) | Int(h[15]) << 8
        guard mapType <= 1, [1, 2, 3, 9, 10, 11].contains(type), width > 0, height > 0 else { return .hard }
        let depths: [UInt8] = [1, 9].contains(type) ? [8, 15, 16] : [2, 10].contains(type) ? [15, 16, 24, 32] : [8, 16]
        guard depths.contains(depth) else { return .hard }
        if [1, 9].contains(type) && (mapType != 1 || mapLength == 0) { return .hard }
        if mapType == 1 && ![15, 16, 24, 32].contains(entrySize) { return .hard }
        if mapType == 0 && (firstIndex != 0 || mapLength != 0 || entrySize != 0) { return .soft }
        if mapType == 1 && mapLength == 0 { return .soft }
        return .valid
    }

    /// Whether the sniffer hands these first bytes to the TGA parser (no other format claims
    /// them); written from SPEC's identification table.
    static func reachesTGA(_ h: [UInt8]) -> Bool {
        guard h[1] <= 1 else { return false }
        if h[0] == 0x0A && h[1] == 0 { return false }  // PCX version 0
        if h[0] == 0 && h[1] == 0 {
            if h[2] == 0 { return false }  // an ISOBMFF box size
            if h[3] == 0 && h[2] == 1 { return false }  // an icon
            if h[3] == 0 && h[2] == 2 { return h[4] == 0 && h[5] == 0 }  // a cursor, unless it has no images
        }
        return true
    }

    /// A valid header of a random kind, then, half the time, one or two fields replaced by
    /// values drawn from a pool of edge cases and noise.
    static func randomHeader(_ random: inout SeededRandom) -> [UInt8] {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let type = pick([1, 2, 3, 9, 10, 11])
        var header = Header(width: 1 + Int(random.next() % 2000), height: 1 + Int(random.next() % 2000))
        header.idLength = pick([0, 0, 3, 26, Int(random.next() & 0xFF)])
        header.imageType = type
        switch type & 7 {
        case 1: header.depth = pick([8, 15, 16])
        case 2: header.depth = pick([15, 16, 24, 32])
        default: header.depth = pick([8, 16])
        }
        if type & 7 == 1 || random.next() % 4 == 0 {
            header.mapType = 1
            header.firstIndex = pick([0, 0, 1, 200])
            header.mapLength = pick([2, 16, 256])
            header.entrySize = pick([15, 16, 24, 32])
        }
        header.descriptor = pick([0, 0x20, 0x08, 0x28, 0x01, Int(random.next() & 0xFF)])
        var bytes = header.bytes
        if random.next() % 2 == 0 {
            for _ in 0..<(1 + random.next() % 2) {
                let position = pick([0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16])  // not the origin
                bytes[position] = pick([0, 1, 2, 8, 9, 15, 16, 24, 32, 255, UInt8(truncatingIfNeeded: random.next())])
            }
        }
        return bytes
    }

    /// Seeded random headers, half structured (fields drawn from valid and invalid values),
    /// half pure noise: none is reported as a TGA unless the rules say it is one.
    @Test func randomHeadersAreTGAOnlyWhenValid() {
        var random = SeededRandom(seed: 0x76A)
        var accepted = 0
        var checked = 0
        for index in 0..<6000 {
            let header = index % 2 == 0 ? Self.randomHeader(&random) : random.bytes(18)
            let bytes = header + random.bytes(Int(random.next() % 48))
            let expectTGA = Self.reachesTGA(header) && Self.judge(header) == .valid
            // The chunking verifier on a sample; the whole input on every one.
            let outcome = index % 10 == 0 ? verified(bytes, dimensionsOnly) : ChunkingVerifier.scanWhole(bytes, options: dimensionsOnly)
            let reportedTGA: Bool
            if case .done(let found) = outcome.status, found.format == .tga {
                reportedTGA = true
                #expect(found.size == [Int(header[12]) | Int(header[13]) << 8, Int(header[14]) | Int(header[15]) << 8])
            } else {
                reportedTGA = false
            }
            #expect(reportedTGA == expectTGA, "\(header)")
            if expectTGA {
                accepted += 1
                // Full mode agrees, partially when the descriptor breaks the specification.
                let full = ChunkingVerifier.scanWhole(bytes)
                guard case .done(let found) = full.status else {
                    Issue.record("full mode rejected \(header)")
                    continue
                }
                let attributeLimit = [1, 9].contains(header[2]) ? header[7] : header[16]
                #expect(found.isPartial == (header[17] >> 6 == 3 || header[17] & 0x0F > attributeLimit))
            }
            if Self.reachesTGA(header) { checked += 1 }
        }
        // The structured half must exercise both outcomes.
        #expect(accepted > 1000)
        #expect(checked - accepted > 400)
    }

    /// Soft-rule headers among the random ones: accepted only with the footer and a length.
    @Test func randomSoftHeadersWithTheFooter() {
        var random = SeededRandom(seed: 0xF007)
        var seen = 0
        for _ in 0..<4000 {
            let header = Self.randomHeader(&random)
            guard Self.reachesTGA(header), Self.judge(header) == .soft else { continue }
            seen += 1
            let bytes = header + random.bytes(10) + TGABuilder.footer
            let seekable = ChunkingVerifier.scanWhole(bytes, options: Self.seekable(bytes, .dimensionsOnly))
            #expect(info(seekable)?.format == .tga)
            #expect(failureCode(ChunkingVerifier.scanWhole(bytes, options: dimensionsOnly)) == .unknownFormat)
        }
        #expect(seen > 50)
    }
}
