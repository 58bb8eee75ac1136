/// What a parser asks for after consuming a field.
///
/// Parsers only ever see whole fields of the width they requested, so chunk boundaries are
/// invisible to them: the streaming contract holds by construction, in `FieldReader`.
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
enum RunResult: Sendable {
    /// The chunk is used up (or `maxBytes` reached) before the parser ended the run.
    case needMore
    case done
    case failed(ScanFailure)
}

/// Turns chunks into the fields parsers ask for: in place when a field lies inside the chunk,
/// through the fixed carry when it straddles two, and counts skipped bytes down without
/// looking at them. Holds the field asked for and every byte counter.
@usableFromInline
struct FieldReader: Sendable {
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
    var position: UInt64 { fed &+ jumped }

    /// Additional bytes needed to complete the current step, `carried` of its field held.
    func needed(carried: UInt8) -> UInt64 { skipRemaining &+ UInt64(truncatingIfNeeded: width &- Int(carried)) }

    /// Bytes `feed` may still consume before reaching `maxBytes`.
    func byteBudget(_ options: ScanOptions) -> UInt64 {
        let limit = options.byteLimit
        return fed < limit ? limit &- fed : 0
    }

    /// Sets up the next step; a parser asking for an impossible width or an offset past 2^64
    /// becomes a failure rather than a trap.
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

    /// The field loop: feeds `consumer` the fields it asks for until the chunk runs out or the
    /// consumer ends the run. After each step, in animation mode, the frames that step read go
    /// to `tally` and `onFrame`, so frames come out the same whatever the chunking.
    ///
    /// Each iteration consumes at least one byte or returns. The byte limit is enforced by the
    /// caller, which hands in a cursor clamped to the remaining budget.
    @inline(__always)  // into each parser's run: the loop and its parser optimised together
    mutating func run<Consumer: FieldConsumer>(
        _ consumer: inout Consumer, _ input: inout InputCursor, _ carry: inout Carry, _ options: ScanOptions,
        _ tally: inout FrameTally, _ onFrame: (FrameInfo) -> Void
    ) -> RunResult {
        // The conversions below are exact: `apply` keeps `width` in 1...64, and `taken` and
        // `copied` are byte counts of the chunk, never negative.
        return carry.gathering { carry in
            while true {
                if skipRemaining != 0 {
                    let taken = UInt64(truncatingIfNeeded: input.skip(upTo: skipRemaining))
                    skipRemaining &-= taken
                    fed &+= taken
                    if skipRemaining != 0 { return .needMore }
                }
                let field: FieldBytes
                if carry.count == 0 && input.remaining >= width {
                    // The whole field is in the chunk: read it in place.
                    field = input.take(width)
                    fed &+= UInt64(truncatingIfNeeded: width)
                } else {
                    // The field straddles chunks: gather it in the carry.
                    var copied = 0
                    let gathered = carry.gather(width, from: &input, copied: &copied)
                    fed &+= UInt64(truncatingIfNeeded: copied)
                    guard let gathered else { return .needMore }
                    field = gathered
                }
                let step = consumer.parse(field, at: position &- UInt64(truncatingIfNeeded: width), options: options)
                if Consumer.emitsFrames && options.animation {
                    while let frame = consumer.takeFrame() {
                        if let failure = tally.count(frame, options) { return .failed(failure) }
                        onFrame(tally.info(of: frame))
                    }
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
    }

    static func byteLimitFailure(_ format: ImageFormat?) -> ScanFailure {
        ScanFailure(.limitExceeded, .headerNotFoundWithinMaxBytes, format: format)
    }
}
