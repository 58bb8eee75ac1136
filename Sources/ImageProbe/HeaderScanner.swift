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
    /// A field that straddles two chunks, as far as it has come.
    @usableFromInline var carry: Carry
    /// The sniffer, which runs first and decides which parser to start.
    @usableFromInline var sniffer: Sniffer
    /// The running parser, in place; its occupant is the scanner's state.
    @usableFromInline var slot: ParserSlot
    /// The sticky answer, once the slot's occupant is `finished`.
    @usableFromInline var answer: ScanStatus
    /// Animation mode: the frames counted so far.
    @usableFromInline var frames: FrameTally

    /// A scanner at the start of an input. Inlinable, so that it is built in place.
    @inlinable
    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
        self.reader = FieldReader(firstWidth: Sniffer.firstWidth)
        self.carry = Carry()
        self.sniffer = Sniffer()
        self.slot = ParserSlot()
        self.answer = .needMore(1)
        self.frames = FrameTally()
    }

    /// Consumes `bytes`, the next part of the input, and says what is known.
    ///
    /// Stops consuming at the byte that completes the answer: `bytesConsumed` then tells where
    /// the header ended. After a terminal status it consumes nothing.
    @inlinable
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> ScanStatus {
        consume(bytes) { _ in } ? answer : .needMore(neededCount)
    }

    /// Consumes `bytes` as `feed(_:)` does, and in animation mode passes each frame the scan
    /// reads to `onFrame`, in file order, as soon as the bytes that describe it are consumed.
    ///
    /// The frames come out the same, in the same order, however the input is split: a frame
    /// is reported during the `feed` call that completes its description. Nothing is kept:
    /// a caller that wants the frames stores them itself.
    @inlinable
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onFrame: (FrameInfo) -> Void) -> ScanStatus {
        consume(bytes, onFrame) ? answer : .needMore(neededCount)
    }

    /// Signals the end of the input and returns the final answer.
    ///
    /// A scan still waiting for bytes becomes `truncated`, unless the size is already known:
    /// then the answer is `done` with `ImageInfo.isPartial` set, because metadata that full
    /// mode was still looking for (an orientation after the image data, say) never came.
    public mutating func finish() -> ScanStatus {
        switch slot.occupant {
        case .finished:
            break
        case .sniffer:
            fail(ScanFailure(.truncated, .inputEndedInsideTheHeader))
        case .parser:
            endParser()
        }
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

    /// `needMore`'s count: the rest of the current step, but never past the byte at which
    /// `maxBytes` stops the scan.
    @usableFromInline var neededCount: Int {
        let needed = min(reader.needed(carried: carry.count), reader.byteBudget(options))
        return Int(clamping: max(1, needed))
    }
}
