import ImageProbe

/// What a scan ended with, and where.
public struct ScanOutcome: Hashable, Sendable, CustomStringConvertible {
    public var status: ScanStatus
    public var bytesConsumed: UInt64
    public var bytesRead: UInt64
    /// Whether the status came from `feed` (true) or from `finish()` (false).
    public var decidedWhileFeeding: Bool

    public var description: String {
        "\(status) after \(bytesConsumed) bytes (read \(bytesRead))\(decidedWhileFeeding ? "" : " at finish()")"
    }
}

/// Re-feeds one input under many chunkings and checks the streaming contract (SPEC.md,
/// "Streaming contract"):
///
/// - the outcome (status, `bytesConsumed`, `bytesRead`) is identical for the whole input,
///   every chunk size (all of them up to `exhaustiveLimit` bytes, a sample beyond), every
///   single split point, seeded random splits and a one-byte drip;
/// - `needMore(n)` has n ≥ 1, and `feed` consumes all it is given until it answers;
/// - terminal results are sticky: feeding more changes nothing and consumes nothing;
/// - every proper prefix before the answer gives `needMore`, with n no larger than the bytes
///   left to the answer; `finish()` on it gives `truncated`, or a partial `done` with the
///   same format and size; a prefix at or past the answer gives the answer;
/// - a seeking reader that calls `skip` whenever it can gets the same status and offset.
///
/// Each chunk is copied to a misaligned offset inside a larger buffer whose other bytes are
/// 0xFF, so a parser that reads outside its chunk gets a wrong answer and is caught.
public struct ChunkingVerifier: Sendable {
    public var options: ScanOptions
    /// Inputs up to this length are fed in every chunk size; longer ones in a sample.
    public var exhaustiveLimit = 4096
    /// Inputs up to this length are split at every point; longer ones at a sample.
    public var splitPointLimit = 1 << 17
    public var randomChunkings = 24
    public var seed: UInt64 = 0x5EED_1234

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
        var status = input.withUnsafeBytes { scanner.feed($0) }
        let fed = status.isTerminal
        if !fed { status = scanner.finish() }
        return ScanOutcome(
            status: status, bytesConsumed: scanner.bytesConsumed, bytesRead: scanner.bytesRead, decidedWhileFeeding: fed)
    }

    public func verify(_ input: [UInt8]) -> Report {
        var failures: [String] = []
        let reference = Self.scanWhole(input, options: options)
        var runs = 0

        func check(_ label: @autoclosure () -> String, _ boundaries: [Int]) {
            runs += 1
            let (outcome, violations) = feed(input, boundaries: boundaries)
            for violation in violations where failures.count < 8 { failures.append("\(label()): \(violation)") }
            if outcome != reference && failures.count < 8 {
                failures.append("\(label()): \(outcome) but whole input gives \(reference)")
            }
        }

        let count = input.count
        for size in chunkSizes(count) where size > 0 {
            check("chunk size \(size)", Array(stride(from: size, to: count, by: size)))
        }
        let splitStride = count <= splitPointLimit ? 1 : max(1, count / splitPointLimit)
        for split in stride(from: 1, to: count, by: splitStride) {
            check("split at \(split)", [split])
        }
        var random = SeededRandom(seed: seed ^ UInt64(count))
        for round in 0..<randomChunkings where count > 1 {
            var boundaries: [Int] = []
            var position = 0
            while true {
                // Mostly small chunks, sometimes a large one.
                let step = random.next() % 4 == 0 ? Int(random.next() % UInt64(count)) + 1 : Int(random.next() % 64) + 1
                position += step
                if position >= count { break }
                boundaries.append(position)
            }
            check("random chunking #\(round) \(boundaries.prefix(8))…", boundaries)
        }
        checkPrefixes(input, reference, &failures)
        checkSeekingReader(input, reference, &failures)
        return Report(reference: reference, failures: failures, chunkingsRun: runs)
    }

    private func chunkSizes(_ count: Int) -> [Int] {
        if count <= exhaustiveLimit { return Array(1...max(1, count)) }
        var sizes = Set(1...64)
        var power = 128
        while power < count {
            sizes.insert(power)
            sizes.insert(power - 1)
            power *= 2
        }
        sizes.formUnion([1460, 4096, 65536, count - 1, count])
        var random = SeededRandom(seed: seed)
        for _ in 0..<32 { sizes.insert(Int(random.next() % UInt64(count)) + 1) }
        return sizes.filter { $0 <= count }.sorted()
    }

    /// Feeds `input` split before each index in `boundaries`, checking the per-call rules.
    private func feed(_ input: [UInt8], boundaries: [Int]) -> (ScanOutcome, [String]) {
        var violations: [String] = []
        var scanner = HeaderScanner(options: options)
        var terminal: ScanStatus? = nil
        var consumedAtAnswer: UInt64 = 0
        var start = 0
        for end in boundaries + [input.count] where end > start || input.isEmpty {
            let before = scanner.bytesConsumed
            let status = Self.feedMisaligned(&scanner, input[start..<end], padding: (start % 7) + 1)
            if let terminal {
                if status != terminal { violations.append("terminal result changed to \(status)") }
                if scanner.bytesConsumed != consumedAtAnswer { violations.append("consumed bytes after answering") }
            } else if case .needMore(let n) = status {
                if n < 1 { violations.append("needMore(\(n))") }
                if scanner.bytesConsumed - before != UInt64(end - start) {
                    violations.append("needMore without consuming the whole chunk at \(start)")
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
        if scanner.finish() != status { violations.append("finish() changed a terminal result") }
        return (ScanOutcome(status: status, bytesConsumed: scanner.bytesConsumed, bytesRead: scanner.bytesRead,
                            decidedWhileFeeding: fed), violations)
    }

    /// Copies `chunk` to offset `padding` of a buffer filled with 0xFF, and feeds that slice.
    static func feedMisaligned(_ scanner: inout HeaderScanner, _ chunk: ArraySlice<UInt8>, padding: Int) -> ScanStatus {
        var buffer = [UInt8](repeating: 0xFF, count: chunk.count + 2 * padding)
        buffer.replaceSubrange(padding..<(padding + chunk.count), with: chunk)
        return buffer.withUnsafeBytes { raw in
            scanner.feed(UnsafeRawBufferPointer(rebasing: raw[padding..<(padding + chunk.count)]))
        }
    }

    private func checkPrefixes(_ input: [UInt8], _ reference: ScanOutcome, _ failures: inout [String]) {
        let answer = Int(clamping: reference.bytesConsumed)
        let step = input.count <= splitPointLimit ? 1 : max(1, input.count / splitPointLimit)
        for length in stride(from: 0, through: input.count, by: step) where failures.count < 8 {
            var scanner = HeaderScanner(options: options)
            let status = input.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            if length < answer || !reference.decidedWhileFeeding {
                if length == input.count { continue }  // the whole input, checked elsewhere
                guard case .needMore(let n) = status else {
                    failures.append("prefix of \(length) bytes gives \(status), not needMore")
                    continue
                }
                if reference.decidedWhileFeeding && n > answer - length {
                    failures.append("prefix of \(length) bytes asks for \(n) more, but the answer comes after \(answer - length)")
                }
                let final = scanner.finish()
                switch final {
                case .unsupported(let failure) where failure.code == .truncated:
                    break
                case .done(let info) where info.isPartial:
                    if case .done(let whole) = reference.status,
                        whole.format == info.format && whole.width == info.width && whole.height == info.height
                    {
                        break
                    }
                    failures.append("finish() after \(length) bytes gives \(final), not a subset of \(reference.status)")
                default:
                    failures.append("finish() after \(length) bytes gives \(final), not truncated")
                }
            } else if status != reference.status || scanner.bytesConsumed != reference.bytesConsumed {
                failures.append("prefix of \(length) bytes gives \(status) after \(scanner.bytesConsumed), not the answer")
            }
        }
    }

    private func checkSeekingReader(_ input: [UInt8], _ reference: ScanOutcome, _ failures: inout [String]) {
        // Skipped bytes don't count against maxBytes, so a limit-bound outcome may differ.
        if reference.bytesRead >= UInt64(options.maxBytes) { return }
        var scanner = HeaderScanner(options: options)
        var index = 0
        var status = scanner.status
        while !status.isTerminal && index < input.count {
            let jumped = scanner.skip(UInt64(input.count - index))
            index += Int(jumped)
            let end = min(input.count, index + 7)
            if index < end {
                status = input.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[index..<end])) }
            }
            index = end
        }
        if !status.isTerminal { status = scanner.finish() }
        if status != reference.status || scanner.bytesConsumed != reference.bytesConsumed {
            failures.append("seeking reader gets \(status) after \(scanner.bytesConsumed), not \(reference)")
        }
    }
}
