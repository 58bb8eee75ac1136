import ImageProbe

/// What a scan ended with, and where.
public struct ScanOutcome: Hashable, Sendable, CustomStringConvertible {
    public var status: ScanStatus
    public var bytesConsumed: UInt64
    public var bytesRead: UInt64
    /// Whether the status came from `feed` (true) or from `finish()` (false).
    public var decidedWhileFeeding: Bool
    /// The frame events, in the order `feed` reported them (animation mode).
    public var frames: [FrameInfo] = []

    public var description: String {
        let events = frames.isEmpty ? "" : ", \(frames.count) frame events"
        return "\(status) after \(bytesConsumed) bytes (read \(bytesRead))\(decidedWhileFeeding ? "" : " at finish()")\(events)"
    }
}

/// Re-feeds one input under many chunkings and checks the streaming contract (SPEC.md §1.7):
///
/// - the outcome (status, `bytesConsumed`, `bytesRead`) is identical under every chunking;
/// - `needMore(n)` has n ≥ 1, and `feed` consumes all it is given until it answers;
/// - terminal results are sticky: feeding more changes nothing and consumes nothing;
/// - every proper prefix before the answer gives `needMore`, with n no larger than the bytes
///   left to the answer; `finish()` on it gives `truncated`, or a partial `done` with the
///   same format and size; a prefix at or past the answer gives the answer;
/// - a seeking reader that calls `skip` whenever it can gets the same status and offset;
/// - in animation mode, the frame events are the same, in the same order, under every
///   chunking, and a prefix's events are the first of the whole input's.
///
/// `.exhaustive` coverage (the tests) feeds every chunk size (all of them up to
/// `exhaustiveLimit` bytes, a sample beyond), every split point, seeded random splits, and
/// every prefix. Each chunk is copied to a misaligned offset in a buffer of 0xFF bytes, so a
/// read outside the chunk changes the answer.
///
/// `.sampled` coverage (the fuzzer, per input) feeds one seeded random chunking, a one-byte
/// drip and a sample of prefixes. Each chunk is copied to a heap block of exactly its size,
/// so AddressSanitizer reports a read outside it.
public struct ChunkingVerifier: Sendable {
    public enum Coverage: Sendable {
        case exhaustive
        case sampled(seed: UInt64)
    }

    public var options: ScanOptions
    /// Inputs up to this length are fed in every chunk size; longer ones in a sample.
    public var exhaustiveLimit = 4096
    /// Inputs up to this length are split at every point; longer ones at a sample.
    public var splitPointLimit = 1 << 17
    public var randomChunkings = 24
    public var seed: UInt64 = 0x5EED_1234
    /// Failures recorded before the verifier stops looking.
    public var maxFailures = 8

    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
    }

    public struct Report: Sendable {
        public var reference: ScanOutcome
        public var failures: [String]
        public var chunkingsRun: Int
    }

    /// The outcome of feeding `input` whole, then `finish()` if needed.
    public static func scanWhole(_ input: [UInt8], options: ScanOptions = ScanOptions()) -> ScanOutcome {
        var scanner = HeaderScanner(options: options)
        var frames: [FrameInfo] = []
        var status = input.withUnsafeBytes { scanner.feed($0) { frames.append($0) } }
        let fed = status.isTerminal
        if !fed { status = scanner.finish() }
        return ScanOutcome(
            status: status, bytesConsumed: scanner.bytesConsumed, bytesRead: scanner.bytesRead, decidedWhileFeeding: fed,
            frames: frames)
    }

    public func verify(_ input: [UInt8], coverage: Coverage = .exhaustive) -> Report {
        var run = Run(verifier: self, input: input, reference: Self.scanWhole(input, options: options))
        switch coverage {
        case .exhaustive:
            run.exhaustiveChunkings()
            run.checkPrefixes(Array(stride(from: 0, through: input.count, by: run.prefixStride)))
        case .sampled(let seed):
            var random = SeededRandom(seed: seed)
            run.check("random chunking", Self.randomBoundaries(input.count, &random), exact: true)
            run.check("one-byte drip", Array(stride(from: 1, to: input.count, by: 1)), exact: true)
            var lengths = Set<Int>()
            if input.count <= 256 {
                lengths.formUnion(0...input.count)
            } else {
                for _ in 0..<48 { lengths.insert(Int(random.next() % UInt64(input.count + 1))) }
                let answer = Int(clamping: run.reference.bytesConsumed)
                lengths.formUnion([0, 1, answer - 1, answer, answer + 1, input.count].filter { $0 >= 0 && $0 <= input.count })
            }
            run.checkPrefixes(lengths.sorted())
        }
        run.checkSeekingReader()
        return Report(reference: run.reference, failures: run.failures, chunkingsRun: run.chunkingsRun)
    }

    /// Mostly small chunks, sometimes a large one.
    static func randomBoundaries(_ count: Int, _ random: inout SeededRandom) -> [Int] {
        guard count > 1 else { return [] }
        var boundaries: [Int] = []
        var position = 0
        while true {
            let large = random.next() % 4 == 0
            position += large ? Int(random.next() % UInt64(count)) + 1 : Int(random.next() % 64) + 1
            if position >= count { return boundaries }
            boundaries.append(position)
        }
    }

    /// One verification: the input, its reference outcome and the failures found so far.
    struct Run {
        let verifier: ChunkingVerifier
        let input: [UInt8]
        let reference: ScanOutcome
        var failures: [String] = []
        var chunkingsRun = 0

        init(verifier: ChunkingVerifier, input: [UInt8], reference: ScanOutcome) {
            self.verifier = verifier
            self.input = input
            self.reference = reference
        }

        var options: ScanOptions { verifier.options }
        var full: Bool { failures.count >= verifier.maxFailures }

        var prefixStride: Int {
            input.count <= verifier.splitPointLimit ? 1 : max(1, input.count / verifier.splitPointLimit)
        }

        mutating func fail(_ message: @autoclosure () -> String) {
            if !full { failures.append(message()) }
        }

        mutating func exhaustiveChunkings() {
            let count = input.count
            for size in chunkSizes(count) where size > 0 && !full {
                check("chunk size \(size)", Array(stride(from: size, to: count, by: size)), exact: false)
            }
            for split in stride(from: 1, to: count, by: prefixStride) where !full {
                check("split at \(split)", [split], exact: false)
            }
            var random = SeededRandom(seed: verifier.seed ^ UInt64(count))
            for round in 0..<verifier.randomChunkings where count > 1 && !full {
                let boundaries = ChunkingVerifier.randomBoundaries(count, &random)
                check("random chunking #\(round) \(boundaries.prefix(8))…", boundaries, exact: false)
            }
        }

        func chunkSizes(_ count: Int) -> [Int] {
            if count <= verifier.exhaustiveLimit { return Array(1...max(1, count)) }
            var sizes = Set(1...64)
            var power = 128
            while power < count {
                sizes.insert(power)
                sizes.insert(power - 1)
                power *= 2
            }
            sizes.formUnion([1460, 4096, 65536, count - 1, count])
            var random = SeededRandom(seed: verifier.seed)
            for _ in 0..<32 { sizes.insert(Int(random.next() % UInt64(count)) + 1) }
            return sizes.filter { $0 <= count }.sorted()
        }

        /// Feeds the input split before each index in `boundaries` and compares with the
        /// reference, checking the per-call rules on the way.
        mutating func check(_ label: @autoclosure () -> String, _ boundaries: [Int], exact: Bool) {
            chunkingsRun += 1
            let reference = self.reference
            var scanner = HeaderScanner(options: options)
            var terminal: ScanStatus? = nil
            var consumedAtAnswer: UInt64 = 0
            var frames: [FrameInfo] = []
            var start = 0
            for end in boundaries + [input.count] where end > start || input.isEmpty {
                let before = scanner.bytesConsumed
                let chunk = input[start..<end]
                let framesBefore = frames.count
                let status = exact
                    ? ChunkingVerifier.feedExact(&scanner, chunk) { frames.append($0) }
                    : ChunkingVerifier.feedMisaligned(&scanner, chunk, padding: (start % 7) + 1) { frames.append($0) }
                if terminal != nil && frames.count != framesBefore { fail("\(label()): frame events after answering") }
                if let terminal {
                    if status != terminal { fail("\(label()): terminal result changed to \(status)") }
                    if scanner.bytesConsumed != consumedAtAnswer { fail("\(label()): consumed bytes after answering") }
                } else if case .needMore(let n) = status {
                    if n < 1 { fail("\(label()): needMore(\(n))") }
                    if scanner.bytesConsumed - before != UInt64(end - start) {
                        fail("\(label()): needMore without consuming the whole chunk at \(start) (no progress)")
                    }
                } else {
                    terminal = status
                    consumedAtAnswer = scanner.bytesConsumed
                }
                start = end
                if input.isEmpty { break }
            }
            let fed = terminal != nil
            let status = terminal ?? scanner.finish()
            if scanner.finish() != status { fail("\(label()): finish() changed a terminal result") }
            let outcome = ScanOutcome(
                status: status, bytesConsumed: scanner.bytesConsumed, bytesRead: scanner.bytesRead, decidedWhileFeeding: fed,
                frames: frames)
            if outcome != reference {
                let firstDifference = zip(outcome.frames, reference.frames).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                let detail = firstDifference.map { "; frame event \($0) is \(outcome.frames[$0]), not \(reference.frames[$0])" } ?? ""
                fail("\(label()): \(outcome) but whole input gives \(reference)\(detail)")
            }
        }

        mutating func checkPrefixes(_ lengths: [Int]) {
            let reference = self.reference
            let answer = Int(clamping: reference.bytesConsumed)
            for length in lengths where !full {
                var scanner = HeaderScanner(options: options)
                var frames: [FrameInfo] = []
                let status = input.withUnsafeBytes {
                    scanner.feed(UnsafeRawBufferPointer(rebasing: $0[0..<length])) { frames.append($0) }
                }
                if !reference.frames.starts(with: frames) {
                    fail("prefix of \(length) bytes reports frame events that the whole input doesn't")
                }
                if length < answer || !reference.decidedWhileFeeding {
                    if length == input.count { continue }  // the whole input, checked elsewhere
                    guard case .needMore(let n) = status else {
                        fail("prefix of \(length) bytes gives \(status), not needMore")
                        continue
                    }
                    if reference.decidedWhileFeeding && n > answer - length {
                        fail("prefix of \(length) bytes asks for \(n) more, but the answer comes after \(answer - length)")
                    }
                    let final = scanner.finish()
                    switch final {
                    case .unsupported(let failure) where failure.code == .truncated:
                        break
                    case .done(let info) where info.isPartial, .refused(let info, _) where info.isPartial:
                        // A partial answer is the whole input's image, refused by maxPixels only
                        // when the whole input's is (animation mode's frames only grow).
                        let whole: ImageInfo?
                        switch reference.status {
                        case .done(let image): whole = image
                        case .refused(let image, _): whole = image
                        case .needMore, .unsupported: whole = nil
                        }
                        var refusedEarly = false
                        if case .refused = final, case .done = reference.status { refusedEarly = true }
                        if let whole, !refusedEarly,
                            whole.format == info.format && whole.width == info.width && whole.height == info.height
                        {
                            break
                        }
                        fail("finish() after \(length) bytes gives \(final), not a subset of \(reference.status)")
                    default:
                        fail("finish() after \(length) bytes gives \(final), not truncated")
                    }
                } else if status != reference.status || scanner.bytesConsumed != reference.bytesConsumed {
                    fail("prefix of \(length) bytes gives \(status) after \(scanner.bytesConsumed), not the answer")
                }
            }
        }

        mutating func checkSeekingReader() {
            let reference = self.reference
            // Skipped bytes don't count against maxBytes, so a limit-bound outcome may differ.
            if reference.bytesRead >= UInt64(options.maxBytes) { return }
            var scanner = HeaderScanner(options: options)
            var index = 0
            var status = scanner.status
            var frames: [FrameInfo] = []
            while !status.isTerminal && index < input.count {
                index += Int(scanner.skip(UInt64(input.count - index)))
                let end = min(input.count, index + 7)
                if index < end {
                    status = input.withUnsafeBytes {
                        scanner.feed(UnsafeRawBufferPointer(rebasing: $0[index..<end])) { frames.append($0) }
                    }
                }
                index = end
            }
            if !status.isTerminal { status = scanner.finish() }
            if frames != reference.frames { fail("seeking reader gets \(frames.count) frame events, not \(reference.frames.count)") }
            if status != reference.status || scanner.bytesConsumed != reference.bytesConsumed {
                fail("seeking reader gets \(status) after \(scanner.bytesConsumed), not \(reference)")
            }
        }
    }

    /// Copies `chunk` to offset `padding` of a buffer filled with 0xFF, and feeds that slice.
    static func feedMisaligned(
        _ scanner: inout HeaderScanner, _ chunk: ArraySlice<UInt8>, padding: Int, onFrame: (FrameInfo) -> Void
    ) -> ScanStatus {
        var buffer = [UInt8](repeating: 0xFF, count: chunk.count + 2 * padding)
        buffer.replaceSubrange(padding..<(padding + chunk.count), with: chunk)
        return buffer.withUnsafeBytes { raw in
            scanner.feed(UnsafeRawBufferPointer(rebasing: raw[padding..<(padding + chunk.count)]), onFrame: onFrame)
        }
    }

    /// Copies `chunk` to a heap block of exactly its size, so AddressSanitizer sees any read
    /// past either end.
    static func feedExact(_ scanner: inout HeaderScanner, _ chunk: ArraySlice<UInt8>, onFrame: (FrameInfo) -> Void) -> ScanStatus {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk.count, alignment: 1)
        defer { block.deallocate() }
        if !chunk.isEmpty { block.copyBytes(from: chunk) }
        return scanner.feed(UnsafeRawBufferPointer(block), onFrame: onFrame)
    }
}
