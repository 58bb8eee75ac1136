/// A rectangle on an animation's canvas, in pixels.
public struct FrameRect: Hashable, Sendable {
    /// The left edge, from the canvas's left.
    public var x: Int
    /// The top edge, from the canvas's top.
    public var y: Int
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// A rectangle with the given origin and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One frame of an animation, as an animation-mode scan passes it: see
/// `HeaderScanner.feed(_:onFrame:)`. Frames come in file order, the same whatever the chunking.
public struct FrameInfo: Hashable, Sendable {
    /// The frame's position, from 0.
    public var index: Int
    /// How long the frame is shown, in milliseconds, as the file declares it: a GIF's
    /// centiseconds, an APNG's `delay_num / delay_den` (a denominator of 0 meaning 100), a WebP
    /// frame's milliseconds, an image sequence's sample duration over its timescale.
    public var delay: Double
    /// Where the frame is drawn on the canvas.
    public var rectangle: FrameRect

    /// How long browsers and SDWebImage show the frame: a declared delay under 11 ms plays as
    /// 100 ms (WebKit, SDWebImage; Firefox and Chromium use ≤ 10 ms, the same for every
    /// whole-millisecond delay).
    public var playbackDelay: Double { delay < 11 ? 100 : delay }

    /// A frame with the given facts.
    public init(index: Int, delay: Double, rectangle: FrameRect) {
        self.index = index
        self.delay = delay
        self.rectangle = rectangle
    }
}

/// Frames a parser has read and not yet handed to the scanner: `count` frames (a run of
/// samples in an image sequence, or a single frame) with the same delay and rectangle.
struct PendingFrames: Sendable {
    var count: UInt32 = 0
    /// The delay is `numerator / denominator` seconds.
    var numerator: UInt32 = 0
    var denominator: UInt32 = 1
    var x: UInt32 = 0
    var y: UInt32 = 0
    var width: UInt32 = 0
    var height: UInt32 = 0

    init() {}

    init(numerator: UInt32, denominator: UInt32, x: UInt32, y: UInt32, width: UInt32, height: UInt32, count: UInt32 = 1) {
        self.count = count
        self.numerator = numerator
        self.denominator = denominator == 0 ? 1 : denominator
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Takes one frame off the run.
    mutating func take() -> PendingFrames? {
        guard count > 0 else { return nil }
        count &-= 1
        var one = self
        one.count = 1
        return one
    }
}

/// What an animation-mode scan has counted so far, frame by frame.
@usableFromInline
struct FrameTally: Sendable {
    @usableFromInline var frames: UInt32 = 0
    /// The sums of the declared and the played delays, in microseconds (each delay rounded).
    @usableFromInline var durationMicros: UInt64 = 0
    @usableFromInline var playbackMicros: UInt64 = 0
    /// The largest frame rectangle by area; the first of equal areas.
    @usableFromInline var largestX: UInt32 = 0
    @usableFromInline var largestY: UInt32 = 0
    @usableFromInline var largestWidth: UInt32 = 0
    @usableFromInline var largestHeight: UInt32 = 0

    @inlinable
    init() {}

    /// Counts `frame`, unless that makes more frames than `maxEntries`: then the failure
    /// that ends the scan (a partial answer, once the size is known).
    mutating func count(_ frame: PendingFrames, _ options: ScanOptions) -> ScanFailure? {
        guard frames < options.entryLimit && frames < UInt32.max else {
            return ScanFailure(.limitExceeded, .moreFramesThanMaxEntries)
        }
        frames &+= 1
        // numerator < 2^32 and 10^6 < 2^20: the product fits in 64 bits.
        let micros = (UInt64(frame.numerator) &* 1_000_000 &+ UInt64(frame.denominator) / 2) / UInt64(frame.denominator)
        durationMicros = durationMicros &+ micros  // 2^32 frames of at most 2^52 µs: no wrap in practice
        // Played as 100 ms when under 11 ms: numerator / denominator < 11 / 1000, exactly.
        let tooShort = UInt64(frame.numerator) &* 1000 < 11 &* UInt64(frame.denominator)
        playbackMicros = playbackMicros &+ (tooShort ? 100_000 : micros)
        let area = UInt64(frame.width) &* UInt64(frame.height)
        if frames == 1 || area > UInt64(largestWidth) &* UInt64(largestHeight) {
            (largestX, largestY, largestWidth, largestHeight) = (frame.x, frame.y, frame.width, frame.height)
        }
        return nil
    }


    /// The public view of the frame just counted.
    func info(of frame: PendingFrames) -> FrameInfo {
        FrameInfo(
            index: Int(clamping: frames) &- 1, delay: Double(frame.numerator) * 1000 / Double(frame.denominator),
            rectangle: FrameRect(x: Int(clamping: frame.x), y: Int(clamping: frame.y),
                                 width: Int(clamping: frame.width), height: Int(clamping: frame.height)))
    }

    /// Puts the totals into `info`: animation mode walked every frame. No frames leaves the
    /// format's answer (a PNG without `acTL`, a VP8 WebP: still images); one frame is a still
    /// image too, whatever flag the file sets, and has no timing worth reporting.
    func apply(to info: inout ImageInfo) {
        guard frames > 0 else { return }
        info.facts.storedFrameCount = frames
        info.isAnimated = frames > 1
        guard frames > 1 else { return }
        info.animationTotals = AnimationTotals(
            durations: AnimationDurations(declaredMicros: durationMicros, playbackMicros: playbackMicros),
            largestX: largestX, largestY: largestY, largestWidth: largestWidth, largestHeight: largestHeight)
    }
}

/// The sums of a walk's delays, in microseconds: as declared, and as played (§1.9).
struct AnimationDurations: Hashable, Sendable {
    var declaredMicros: UInt64
    var playbackMicros: UInt64

    init(declaredMicros: UInt64, playbackMicros: UInt64) {
        self.declaredMicros = declaredMicros
        self.playbackMicros = playbackMicros
    }
}

/// What animation mode adds to an answer: the sums of the delays and the largest frame.
struct AnimationTotals: Hashable, Sendable {
    var durations: AnimationDurations
    var largestX: UInt32
    var largestY: UInt32
    var largestWidth: UInt32
    var largestHeight: UInt32

    init(durations: AnimationDurations, largestX: UInt32, largestY: UInt32, largestWidth: UInt32, largestHeight: UInt32) {
        self.durations = durations
        self.largestX = largestX
        self.largestY = largestY
        self.largestWidth = largestWidth
        self.largestHeight = largestHeight
    }
}
