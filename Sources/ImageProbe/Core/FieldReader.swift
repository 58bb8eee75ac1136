/// What a parser asks for after consuming a field.
///
/// Parsers only ever see whole fields of the width they requested, so chunk boundaries are
/// invisible to them: the streaming contract holds by construction, in `FieldReader`.
@usableFromInline
enum Step: Sendable {
    /// The next field is the next `width` bytes (1...Carry.capacity).
    case read(Int)
    /// Discard `count` bytes unseen, then read a field of `width` bytes.
    case skipThenRead(UInt64, Int)
    /// The answer is complete: see the parser's `info` (for the sniffer: it has decided).
    case done
    /// The input is not a valid image of this parser's format.
    case failed(ScanFailure)
}

/// How a run of the field loop ended.
@usableFromInline
enum RunResult: Sendable {
    case needMore
    case done
    case failed(ScanFailure)
}

/// Turns chunks into the fields parsers ask for: in place when a field lies inside the chunk,
/// through the fixed carry when it straddles two, and counts skipped bytes down without
/// looking at them. Holds every byte counter.
@usableFromInline
struct FieldReader: Sendable {
    @usableFromInline var carry = Carry()
    /// Width of the field being assembled.
    @usableFromInline var width: Int
    /// Bytes still to discard before that field.
    @usableFromInline var skipRemaining: UInt64 = 0
    /// Bytes consumed through `feed`, examined or discarded by counting.
    @usableFromInline var fed: UInt64 = 0
    /// Bytes the caller jumped over with `skip(_:)`.
    @usableFromInline var jumped: UInt64 = 0

    @inlinable
    init(firstWidth: Int) {
        self.width = firstWidth
    }

    /// Offset in the input of the next byte to consume.
    @inlinable
    var position: UInt64 { fed &+ jumped }

    /// Additional bytes needed to complete the current step.
    @inlinable
    var needed: UInt64 { skipRemaining &+ UInt64(truncatingIfNeeded: width &- Int(carry.count)) }

    /// Bytes `feed` may still consume before reaching `maxBytes`.
    @inlinable
    func byteBudget(_ options: ScanOptions) -> UInt64 {
        let limit = options.byteLimit
        return fed < limit ? limit &- fed : 0
    }

    /// Sets up the next step; a parser asking for an impossible width or an offset past 2^64
    /// becomes a failure rather than a trap.
    @inlinable
    mutating func apply(_ step: Step) -> ScanFailure? {
        switch step {
        case .read(let nextWidth):
            guard nextWidth >= 1 && nextWidth <= Carry.capacity else {
                return ScanFailure(.malformed, .internalFieldWidthOutOfRange)
            }
            width = nextWidth
            return nil
        case .skipThenRead(let count, let nextWidth):
            guard nextWidth >= 1 && nextWidth <= Carry.capacity else {
                return ScanFailure(.malformed, .internalFieldWidthOutOfRange)
            }
            guard count <= UInt64.max &- position &- UInt64(Carry.capacity) else {
                return ScanFailure(.malformed, .offsetBeyond2To64)
            }
            skipRemaining = count
            width = nextWidth
            return nil
        case .done, .failed:
            return nil
        }
    }

    /// Takes the whole of `bytes` when that can neither complete the current step nor reach
    /// `limit`: bytes that only count down a skip or fill the carry. The cost of most small
    /// chunks, so it runs before anything else in `feed`. Returns whether it took the chunk.
    @inlinable @inline(__always)
    mutating func absorbWhole(_ bytes: UnsafeRawBufferPointer, limit: UInt64) -> Bool {
        let count = UInt64(truncatingIfNeeded: bytes.count)  // a buffer's count is never negative
        guard count != 0 && fed < limit && count < limit &- fed else { return false }
        if skipRemaining > count {
            skipRemaining &-= count
            fed &+= count
            return true
        }
        // width is 1...64 and the carry holds fewer bytes than it: neither conversion traps.
        if skipRemaining == 0 && count < UInt64(truncatingIfNeeded: width &- Int(carry.count)) {
            var input = InputCursor(bytes)
            input.copy(Int(truncatingIfNeeded: count), into: &carry)  // count < 64
            fed &+= count
            return true
        }
        return false
    }

    /// Takes the whole of `input` when that cannot complete the current step: bytes that only
    /// count down a skip or fill the carry. The common case for small chunks, it spares the
    /// caller from touching the parser's state at all. Returns whether it took the chunk.
    @inlinable @inline(__always)
    mutating func absorb(_ input: inout InputCursor) -> Bool {
        let count = input.remaining
        let bytes = UInt64(truncatingIfNeeded: count)  // remaining is never negative
        if skipRemaining > bytes {
            skipRemaining &-= bytes
            fed &+= bytes
            _ = input.skip(upTo: bytes)
            return true
        }
        if skipRemaining == 0 && count > 0 && Int(carry.count) &+ count < width {
            input.copy(count, into: &carry)
            fed &+= bytes
            return true
        }
        return false
    }

    /// Feeds fields to `parser` until the chunk runs out or the parser ends the run.
    /// Each iteration consumes at least one byte or returns. The byte limit is enforced by
    /// the caller, which hands in a cursor clamped to the remaining budget.
    @inlinable @inline(__always)
    mutating func run<Parser: FieldConsumer>(
        _ parser: inout Parser, _ input: inout InputCursor, _ options: ScanOptions
    ) -> RunResult {
        var tally = FrameTally()
        return run(&parser, &input, options, &tally) { _ in }
    }

    /// Counts and reports the frames the parser's last step read.
    @usableFromInline @inline(never)
    static func reportFrames<Parser: FieldConsumer>(
        _ parser: inout Parser, _ tally: inout FrameTally, _ options: ScanOptions, _ onFrame: (FrameInfo) -> Void
    ) -> ScanFailure? {
        while let frame = parser.takeFrame() {
            #if IMAGEPROBE_COMPACT
            if let failure = tally.report(frame, options, onFrame) { return failure }
            #else
            if let failure = tally.count(frame, options) { return failure }
            onFrame(tally.info(of: frame))
            #endif
        }
        return nil
    }

    /// The field loop, reporting each frame a parser reads to `tally` and `onFrame` as soon as
    /// the step that read it ends, so frames come out the same whatever the chunking.
    @inlinable @inline(__always)
    mutating func run<Parser: FieldConsumer>(
        _ parser: inout Parser, _ input: inout InputCursor, _ options: ScanOptions,
        _ tally: inout FrameTally, _ onFrame: (FrameInfo) -> Void
    ) -> RunResult {
        // The conversions below are exact: `apply` keeps `width` in 1...64, and `taken` and
        // `count` are byte counts of the chunk, never negative (a trapping conversion costs
        // a test and a branch per field).
        while true {
            if skipRemaining != 0 {
                let taken = input.skip(upTo: skipRemaining)
                skipRemaining &-= UInt64(truncatingIfNeeded: taken)
                fed &+= UInt64(truncatingIfNeeded: taken)
                if skipRemaining != 0 { return .needMore }
            }
            let step: Step
            if carry.count == 0 && input.remaining >= width {
                let offset = position
                let field = input.take(width)
                fed &+= UInt64(truncatingIfNeeded: width)
                step = Self.parse(&parser, field, at: offset, options)
            } else {
                if input.remaining == 0 { return .needMore }
                let count = min(width &- Int(carry.count), input.remaining)
                input.copy(count, into: &carry)
                fed &+= UInt64(truncatingIfNeeded: count)
                if Int(carry.count) < width { return .needMore }
                let offset = position &- UInt64(truncatingIfNeeded: width)
                step = carry.withField(width: width) { Self.parse(&parser, $0, at: offset, options) }
                carry.count = 0
            }
            // Out of line, and only in animation mode: the other modes' field loop stays tight.
            if Parser.emitsFrames && options.animation, let failure = Self.reportFrames(&parser, &tally, options, onFrame) {
                return .failed(failure)
            }
            switch step {
            case .read, .skipThenRead:
                if let failure = apply(step) { return .failed(failure) }
            case .done:
                return .done
            case .failed(let failure):
                return .failed(failure)
            }
        }
    }

    #if IMAGEPROBE_COMPACT
    /// The field loop of `run`, compiled once for every parser in a size-optimised build:
    /// `step` consumes a field (at its offset) and says what comes next; when `walksFrames`,
    /// `frames` then reports the frames it read. Each format keeps only its grammar and two
    /// closures, not a copy of the loop (the optimizer copies a callee for a closure passed
    /// alone, not for two). Kept apart from `run`, which the native builds inline per format:
    /// `run` written over this loop measured the same on most formats but 7 % slower on TIFF.
    @usableFromInline @inline(never)
    mutating func runSteps(
        _ input: inout InputCursor, walksFrames: Bool, _ step: (FieldBytes, UInt64) -> Step,
        _ frames: () -> ScanFailure?
    ) -> RunResult {
        // The conversions below are exact: `apply` keeps `width` in 1...64, and `taken` and
        // `count` are byte counts of the chunk, never negative (a trapping conversion costs
        // a test and a branch per field).
        while true {
            if skipRemaining != 0 {
                let taken = input.skip(upTo: skipRemaining)
                skipRemaining &-= UInt64(truncatingIfNeeded: taken)
                fed &+= UInt64(truncatingIfNeeded: taken)
                if skipRemaining != 0 { return .needMore }
            }
            let next: Step
            if carry.count == 0 && input.remaining >= width {
                let offset = position
                let field = input.take(width)
                fed &+= UInt64(truncatingIfNeeded: width)
                next = step(field, offset)
            } else {
                if input.remaining == 0 { return .needMore }
                let count = min(width &- Int(carry.count), input.remaining)
                input.copy(count, into: &carry)
                fed &+= UInt64(truncatingIfNeeded: count)
                if Int(carry.count) < width { return .needMore }
                let offset = position &- UInt64(truncatingIfNeeded: width)
                next = carry.withField(width: width) { step($0, offset) }
                carry.count = 0
            }
            if walksFrames, let failure = frames() { return .failed(failure) }
            switch next {
            case .read, .skipThenRead:
                if let failure = apply(next) { return .failed(failure) }
            case .done:
                return .done
            case .failed(let failure):
                return .failed(failure)
            }
        }
    }
    #endif

    /// One step of `parser`. The loop calls it at two places (a field in the chunk, a field
    /// from the carry): inlined at both for speed, or in a size-optimised build
    /// (`IMAGEPROBE_COMPACT`, the WebAssembly module) kept out of line, so each parser's
    /// grammar is compiled once.
    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable @inline(__always)
    #endif
    static func parse<Parser: FieldConsumer>(
        _ parser: inout Parser, _ field: FieldBytes, at offset: UInt64, _ options: ScanOptions
    ) -> Step {
        parser.parse(field, at: offset, options: options)
    }

    @usableFromInline
    static func byteLimitFailure(_ format: ImageFormat?) -> ScanFailure {
        ScanFailure(.limitExceeded, .headerNotFoundWithinMaxBytes, format: format)
    }
}
