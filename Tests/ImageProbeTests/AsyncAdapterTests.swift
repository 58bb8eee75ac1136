import ImageProbe
import ImageProbeFixtures
import Testing

/// `scan(chunks:)` and `scan(bytes:)`: the same answers as feeding the whole input, nothing
/// pulled after the answer, `finish()` at the end of the sequence, errors passed on.
@Suite struct AsyncAdapterTests {
    /// An async sequence over `bytes` in chunks of `size`, counting the chunks pulled.
    struct CountingChunks: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        var bytes: [UInt8]
        var size: Int
        var failAfter: Int? = nil
        let pulled = Counter()

        struct AsyncIterator: AsyncIteratorProtocol {
            var source: CountingChunks
            var offset = 0
            mutating func next() async throws -> ArraySlice<UInt8>? {
                if let limit = source.failAfter, offset >= limit { throw SourceFailure() }
                guard offset < source.bytes.count else { return nil }
                let end = Swift.min(source.bytes.count, offset + source.size)
                defer { offset = end }
                await source.pulled.add(end - offset)
                return source.bytes[offset..<end]
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
    }

    /// The single bytes of `bytes`, counting those pulled.
    struct CountingBytes: AsyncSequence, Sendable {
        typealias Element = UInt8
        var bytes: [UInt8]
        let pulled = Counter()

        struct AsyncIterator: AsyncIteratorProtocol {
            var source: CountingBytes
            var offset = 0
            mutating func next() async -> UInt8? {
                guard offset < source.bytes.count else { return nil }
                defer { offset += 1 }
                await source.pulled.add(1)
                return source.bytes[offset]
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
    }

    struct SourceFailure: Error {}

    actor Counter {
        var value = 0
        func add(_ count: Int) { value += count }
    }

    static func wholeScan(_ bytes: [UInt8]) -> (status: ScanStatus, consumed: UInt64, beforeEnd: Bool) {
        var scanner = HeaderScanner()
        var status = scanner.feed(bytes)
        let beforeEnd = status.isTerminal
        if !beforeEnd { status = scanner.finish() }
        return (status, scanner.bytesConsumed, beforeEnd)
    }

    @Test(arguments: [1, 5, 64, 4096])
    func chunksGiveTheWholeInputsAnswer(size: Int) async throws {
        for sample in SampleCatalog.all {
            let chunks = CountingChunks(bytes: sample.bytes, size: size)
            var scanner = HeaderScanner()
            let status = try await scanner.scan(chunks: chunks)
            let whole = Self.wholeScan(sample.bytes)
            #expect(status == whole.status, "\(sample.name)")
            // Pulling stops with the chunk that holds the answer.
            let pulled = await chunks.pulled.value
            if whole.beforeEnd {
                #expect(UInt64(pulled) < whole.consumed + UInt64(size) + 1, "\(sample.name) pulled \(pulled)")
            }
        }
    }

    @Test func bytesGiveTheWholeInputsAnswerAndStopAtIt() async throws {
        for sample in SampleCatalog.all {
            let source = CountingBytes(bytes: sample.bytes)
            var scanner = HeaderScanner()
            let status = try await scanner.scan(bytes: source)
            let whole = Self.wholeScan(sample.bytes)
            #expect(status == whole.status, "\(sample.name)")
            // Bytes are batched only up to what the scanner asks for: none past the answer.
            let pulled = await source.pulled.value
            #expect(whole.beforeEnd ? UInt64(pulled) <= whole.consumed : pulled == sample.bytes.count,
                    "\(sample.name): pulled \(pulled), answer at \(whole.consumed)")
        }
    }

    @Test func endOfSequenceFinishes() async throws {
        let png = PNGBuilder.image(width: 3, height: 2)
        var scanner = HeaderScanner()
        let status = try await scanner.scan(chunks: CountingChunks(bytes: Array(png.prefix(20)), size: 7))
        guard case .unsupported(let failure) = status else {
            Issue.record("expected truncated, got \(status)")
            return
        }
        #expect(failure.code == .truncated)
    }

    @Test func sequenceErrorsPassThrough() async {
        let jpeg = JPEGBuilder.image(width: 9, height: 9).bytes
        var scanner = HeaderScanner()
        await #expect(throws: SourceFailure.self) {
            try await scanner.scan(chunks: CountingChunks(bytes: jpeg, size: 4, failAfter: 8))
        }
    }

    /// The static forms need no scanner variable, so a main-actor caller can use them.
    @MainActor @Test func staticFormsWorkFromTheMainActor() async throws {
        let webp = WebPBuilder.lossless(width: 40, height: 30, alpha: false)
        let chunks = try await HeaderScanner.scan(chunks: CountingChunks(bytes: webp, size: 5))
        let bytes = try await HeaderScanner.scan(bytes: CountingBytes(bytes: webp), options: ScanOptions(mode: .dimensionsOnly))
        guard case .done(let fromChunks) = chunks, case .done(let fromBytes) = bytes else {
            Issue.record("expected answers, got \(chunks) and \(bytes)")
            return
        }
        #expect(fromChunks.width == 40 && fromBytes.height == 30)
    }
}
