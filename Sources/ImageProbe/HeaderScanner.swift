/// A push-based scanner that reads an image's format, size and orientation from the first
/// bytes of a file or download, fed in chunks of any size.
///
/// ```swift
/// var scanner = HeaderScanner()
/// for chunk in download {
///     if case .done(let info) = scanner.feed(chunk) { print(info.width, info.height); break }
/// }
/// ```
///
/// The result is the same however the input is split. The scanner never keeps a reference to
/// the caller's bytes: a field that straddles two chunks is copied into a fixed 64-byte carry,
/// and bytes it doesn't need are counted, not copied. `feed` never allocates.
///
/// `done` and `unsupported` are sticky: later calls return them again and consume nothing.
/// Call `finish()` at the end of the input to turn a pending `needMore` into an answer.
public struct HeaderScanner: Sendable {
    /// The mode and limits this scanner was created with.
    public let options: ScanOptions

    /// The widest field the scanner ever copies: fields that straddle chunks go through a
    /// fixed buffer of this size, and nothing else is kept.
    public static let carryCapacity = Carry.capacity
    @usableFromInline var reader: FieldReader
    /// The running parser, in place; its occupant is the scanner's state.
    @usableFromInline var slot: ParserSlot
    /// The sticky answer, once the slot's occupant is `finished`.
    @usableFromInline var answer: ScanStatus
    /// Animation mode: the frames counted so far.
    @usableFromInline var frames: FrameTally

    /// A scanner at the start of an input. Creating one writes its fields once, in place.
    @inlinable
    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
        self.reader = FieldReader(firstWidth: Sniffer.firstWidth)
        self.answer = .needMore(1)
        self.frames = FrameTally()
        self.slot = ParserSlot()
        _ = slot.store(Sniffer())
    }

    /// Consumes `bytes`, the next part of the input, and says what is known.
    ///
    /// Stops consuming at the byte that completes the answer: `bytesConsumed` then tells where
    /// the header ended. After a terminal status it consumes nothing.
    @inlinable @inline(__always)
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> ScanStatus {
        feed(bytes) { _ in }
    }

    /// Consumes `bytes` as `feed(_:)` does, and in animation mode passes each frame the scan
    /// reads to `onFrame`, in file order, as soon as the bytes that describe it are consumed.
    ///
    /// The frames come out the same, in the same order, however the input is split: a frame
    /// is reported during the `feed` call that completes its description. Nothing is kept:
    /// a caller that wants the frames stores them itself.
    @inlinable @inline(__always)
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onFrame: (FrameInfo) -> Void) -> ScanStatus {
        // Most small chunks only count down a skip or fill the carry: no parser is involved,
        // and this short path, inlined into the caller, is all they cost.
        if slot.occupant != .finished && reader.absorbWhole(bytes, limit: options.byteLimit) {
            return .needMore(neededCount)
        }
        return feedParsers(bytes, onFrame) ? answer : .needMore(neededCount)
    }

    /// `feed` for chunks that reach a parser. Returns whether the scan has ended (its answer is
    /// then `answer`): the caller reads the answer in place, so one that looks at a few of its
    /// fields doesn't copy the whole of it.
    @usableFromInline @inline(never)
    mutating func feedParsers(_ bytes: UnsafeRawBufferPointer, _ onFrame: (FrameInfo) -> Void) -> Bool {
        if slot.occupant == .finished { return true }
        var input = InputCursor(bytes)
        // Bytes beyond maxBytes are hidden from the parsers: the scan stops when it has
        // consumed maxBytes without an answer.
        input.clamp(to: reader.byteBudget(options))
        // Most small chunks only count down a skip or fill the carry: no parser is involved.
        if reader.absorb(&input) && reader.byteBudget(options) != 0 { return false }
        while true {
            if slot.occupant == .finished { return true }
            guard let kind = slot.occupant.parser else {
                // The sniffer. The first two bytes decide almost every format: when they are
                // both in the first chunk, its first step runs here, straight to the parser.
                if reader.fed == 0 && reader.jumped == 0 && input.remaining >= Sniffer.firstWidth {
                    switch Self.sniffFirstField(&slot, &reader, &input, options) {
                    case .decided?:
                        #if IMAGEPROBE_COMPACT
                        start(&input)
                        continue
                        #else
                        guard let decision = slot.withParser(Sniffer.self, { $0.decision }) else {
                            conclude(nil, Self.missingParser)
                            return true
                        }
                        guard dispatch(decision.kind, Launch.self, &input, onFrame) else { return false }
                        slot.occupant = .finished
                        return true
                        #endif
                    case .failed(let failure)?:
                        conclude(nil, failure)
                        return true
                    case .running?:
                        break  // on in the general loop below
                    case nil:
                        conclude(nil, Self.missingParser)
                        return true
                    }
                }
                switch Self.sniff(&slot, &reader, &input, options) {
                case .done?:
                    start(&input)
                    continue
                case .needMore?:
                    if reader.byteBudget(options) != 0 { return false }
                    answer = .unsupported(FieldReader.byteLimitFailure(nil))
                case .failed(let failure)?:
                    answer = .unsupported(failure)
                case nil:
                    answer = .unsupported(Self.missingParser)
                }
                slot.occupant = .finished
                return true
            }
            guard dispatch(kind, Drive.self, &input, onFrame) else { return false }
            slot.occupant = .finished
            return true
        }
    }

    /// How the sniffer's first step ended.
    @usableFromInline
    enum FirstField {
        /// It has decided: the parser is to be started.
        case decided
        case failed(ScanFailure)
        /// The sniffer reads on; its next step is set up.
        case running
    }

    /// The sniffer's first step, on the first two bytes of the first chunk: `parse`'s first
    /// phase, called directly.
    @inlinable @inline(__always)
    static func sniffFirstField(
        _ slot: inout ParserSlot, _ reader: inout FieldReader, _ input: inout InputCursor, _ options: ScanOptions
    ) -> FirstField? {
        let field = input.take(Sniffer.firstWidth)
        reader.fed = UInt64(Sniffer.firstWidth)
        return slot.withParser(Sniffer.self) { sniffer -> FirstField in
            // The first step of a fresh sniffer: its phase is `firstTwo`.
            let step = sniffer.firstTwo(field.u8(0), field.u8(1))
            switch step {
            case .done:
                return .decided
            case .read(let width) where width >= 1 && width <= 4:
                // The first step reads 1, 2 or 4 more bytes: no skip, well inside the carry.
                reader.width = width
                return .running
            case .read, .skipThenRead:
                if let failure = reader.apply(step) { return .failed(failure) }
                return .running
            case .failed(let failure):
                return .failed(failure)
            }
        }
    }

    /// Runs the sniffer the slot holds, in place: how its run ended (`done`: it has decided).
    @inlinable @inline(__always)
    static func sniff(
        _ slot: inout ParserSlot, _ reader: inout FieldReader, _ input: inout InputCursor, _ options: ScanOptions
    ) -> RunResult? {
        #if IMAGEPROBE_COMPACT
        // The one field loop every parser shares (`runSteps`), rather than a copy of `run`.
        slot.withParser(Sniffer.self) { sniffer in
            reader.runSteps(&input, walksFrames: false, { sniffer.parse($0, at: $1, options: options) }, { nil })
        }
        #else
        slot.withParser(Sniffer.self) { sniffer in reader.run(&sniffer, &input, options) }
        #endif
    }

    /// Signals the end of the input and returns the final answer.
    ///
    /// A scan still waiting for bytes becomes `truncated`, unless the size is already known:
    /// then the answer is `done` with `ImageInfo.isPartial` set, because metadata that full
    /// mode was still looking for (an orientation after the image data, say) never came.
    public mutating func finish() -> ScanStatus {
        if slot.occupant == .finished { return answer }
        guard let kind = slot.occupant.parser else {
            conclude(nil, ScanFailure(.truncated, .inputEndedInsideTheHeader))
            return answer
        }
        var nothing = InputCursor(UnsafeRawBufferPointer(start: nil, count: 0))
        _ = dispatch(kind, Ending.self, &nothing) { _ in }
        return answer
    }

    /// The current status without feeding anything.
    public var status: ScanStatus {
        if slot.occupant == .finished { return answer }
        return .needMore(neededCount)
    }

    /// Bytes of the input accounted for so far: fed through `feed` or passed over with `skip`.
    /// After `done`, the offset just past the last header byte the answer needed.
    public var bytesConsumed: UInt64 { reader.position }

    /// Whether `status` is terminal, without building it.
    var hasEnded: Bool { slot.occupant == .finished }

    /// Bytes consumed through `feed`, including those the scanner discarded by counting.
    /// This is what a reader had to read; `bytesConsumed - bytesRead` it jumped over.
    public var bytesRead: UInt64 { reader.fed }

    /// Bytes passed over with `skip(_:)`.
    public var bytesSkipped: UInt64 { reader.jumped }

    /// How many of the upcoming bytes the scanner will discard without looking at them.
    ///
    /// A reader that can seek (a file, an HTTP range request) can jump over them and call
    /// `skip(_:)` instead of reading them. Zero once the scan is over.
    public var pendingSkip: UInt64 {
        if slot.occupant == .finished { return 0 }
        return reader.skipRemaining
    }

    /// Tells the scanner that the caller jumped over up to `count` upcoming bytes instead of
    /// feeding them. Only bytes in `pendingSkip` can be skipped; returns how many were, so the
    /// caller knows how far to seek. Skipped bytes don't count against `maxBytes`.
    @discardableResult
    public mutating func skip(_ count: UInt64) -> UInt64 {
        let skipped = min(count, pendingSkip)
        reader.skipRemaining &-= skipped
        reader.jumped &+= skipped
        return skipped
    }

    // MARK: - Driving the parsers

    @usableFromInline
    static let missingParser = ScanFailure(.malformed, .internalRunningParserMissing)

    /// Starts the parser the sniffer decided on, in the slot (where the sniffer was), and sets
    /// up its first step. A parser may fail before reading anything: that ends the scan.
    @inlinable
    mutating func start(_ input: inout InputCursor) {
        guard let decision = slot.withParser(Sniffer.self, { $0.decision }) else {
            conclude(nil, Self.missingParser)
            return
        }
        _ = dispatch(decision.kind, Start.self, &input) { _ in }
    }

    /// `needMore`'s count: the rest of the current step, but never past the byte at which
    /// `maxBytes` stops the scan.
    @inlinable
    var neededCount: Int {
        let needed = min(reader.needed, reader.byteBudget(options))
        return Int(clamping: max(1, needed))
    }

    /// Ends the scan with `info`, made partial by `failure`, or with `failure` alone when no
    /// size is known.
    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    mutating func conclude(_ info: ImageInfo?, _ failure: ScanFailure) {
        slot.occupant = .finished
        answer = ScanStatus.settled(info, failure, options)
    }
}
