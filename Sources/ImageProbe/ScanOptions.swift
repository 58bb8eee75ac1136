/// How far the scanner reads, and the limits that keep hostile input cheap.
public struct ScanOptions: Hashable, Sendable {
    /// What the scanner must settle before it answers.
    public enum Mode: Hashable, Sendable {
        /// Format, size and orientation, plus the facts the header gives for free. The scanner
        /// goes on until the orientation is found or the format guarantees it cannot come.
        case full
        /// Format and size only: the answer comes at the earliest byte where both are known.
        case dimensionsOnly
        /// Everything full mode reads, and for animations every frame: the frame count, the
        /// loop count, the durations and the largest frame, with each frame passed to
        /// `HeaderScanner.feed(_:onFrame:)` as it goes by. Walks the whole file; frame data is
        /// skipped by its length where the format allows (APNG, WebP, image sequences), so a
        /// seeking reader jumps it. Still images answer as in full mode.
        case animation
    }

    // The limits in the widths files state them in (the setters clamp; no limit loses meaning
    // by it, see each), the widest first so that no byte is padding.
    /// maxBytes.
    var byteLimit: UInt64 = 16 << 20
    /// maxPixels; nil for none.
    var pixelLimit: UInt64? = nil
    /// inputLength.
    var knownInputLength: UInt64? = nil
    /// maxWidth and maxHeight.
    var widthLimit: UInt32 = 1 << 30
    var heightLimit: UInt32 = 1 << 30
    /// maxEntries, in its stored width: compared with counts read from files without
    /// converting them to `Int` (SPEC.md §1.10).
    var entryLimit: UInt32 = 1 << 16
    /// maxDepth.
    var depthLimit: UInt16 = 16

    /// What the scanner settles before it answers. Default: `.full`.
    public var mode: Mode = .full
    /// Whether full mode looks past the image data for metadata a format allows there (a
    /// PNG's `eXIf` after IDAT, SPEC.md §3.2). Browsers ignore such metadata, and over HTTP
    /// every jump is a request, so the range planner turns it off (SPEC.md §6.1). Animation
    /// mode walks the whole file whatever this says.
    package var metadataAfterImageData = true

    /// Most bytes the scanner will consume through `feed`, including the bytes it discards by
    /// counting; having consumed this many without an answer, it fails with `limitExceeded`.
    /// Bytes a seeking reader passes over with `HeaderScanner.skip(_:)` don't count.
    /// Default: 16 MiB. Negative values act as 0.
    public var maxBytes: Int {
        get { Int(clamping: byteLimit) }
        set { byteLimit = UInt64(max(0, newValue)) }
    }

    /// `maxBytes` in full, for the C interface, whose `max_bytes` is 64 bits on every target.
    package var exactMaxBytes: UInt64 {
        get { byteLimit }
        set { byteLimit = newValue }
    }

    /// Widest image reported; wider ones give `limitExceeded`. Default: 2^30. Values are
    /// clamped to 0...2^32 − 1, the widest size any format can state but BigTIFF. Where `Int`
    /// is 32 bits no value above `Int.max` can be set, so every size reported fits an `Int`.
    public var maxWidth: Int {
        get { Int(clamping: widthLimit) }
        set { widthLimit = UInt32(clamping: newValue) }
    }

    /// Tallest image reported; taller ones give `limitExceeded`. Default: 2^30. Clamped as
    /// `maxWidth`.
    public var maxHeight: Int {
        get { Int(clamping: heightLimit) }
        set { heightLimit = UInt32(clamping: newValue) }
    }

    /// Most entries examined within one structure: TIFF/EXIF IFD entries, PNG and RIFF chunks,
    /// JPEG segments, and in animation mode an animation's frames (more give a partial answer
    /// with the size). Default: 65,536. Clamped to 0...2^32 − 1.
    public var maxEntries: Int {
        get { Int(clamping: entryLimit) }
        set { entryLimit = UInt32(clamping: newValue) }
    }

    /// Most pixels (width × height, and in animation mode width × height × frames) an image may
    /// have: one with more is refused with `ScanFailure.Code.tooManyPixels` and its size, before
    /// anything decodes it (a decompression bomb). Nil, the default, for no limit. Negative
    /// values act as 0.
    public var maxPixels: Int? {
        get { pixelLimit.map { Int(clamping: $0) } }
        set { pixelLimit = newValue.map { UInt64(max(0, $0)) } }
    }

    /// `maxPixels` in full, for the C interface (64 bits on every target; 0 for none there).
    package var exactMaxPixels: UInt64? {
        get { pixelLimit }
        set { pixelLimit = newValue }
    }

    /// Whether `pixels` is within `maxPixels`.
    func admits(pixels: UInt64) -> Bool { pixels <= pixelLimit ?? UInt64.max }

    /// Deepest nesting of boxes the scanner follows (ISOBMFF `meta` inside `moov`, say).
    /// Default: 16. Clamped to 0...65,535.
    public var maxDepth: Int {
        get { Int(depthLimit) }
        set { depthLimit = UInt16(clamping: newValue) }
    }

    /// The input's total length, when the caller knows it (a file's size, an HTTP
    /// Content-Length). Formats with information at the end use it: a TGA 2.0 footer, a box
    /// that runs "to the end of the file". Nil for streams of unknown length.
    public var inputLength: UInt64? {
        get { knownInputLength }
        set { knownInputLength = newValue }
    }

    /// The default for `maxBytes`: 16 MiB.
    public static let defaultMaxBytes = 16 << 20
    /// The default for `maxWidth` and `maxHeight`: 2^30, JPEG XL's own maximum. No real image
    /// comes near it; values above it are overflows or corruption.
    public static let defaultMaxDimension = 1 << 30
    /// The default for `maxEntries`.
    public static let defaultMaxEntries = 1 << 16
    /// The default for `maxDepth`.
    public static let defaultMaxDepth = 16

    /// The defaults: full mode and the default limits.
    public init() {}

    /// Options for `mode` with the default limits.
    public init(mode: Mode) {
        self.mode = mode
    }

    /// Whether a size is within `maxWidth` and `maxHeight`. Parsers check as soon as they
    /// learn the size, so an oversized image fails at that byte, whatever else full mode
    /// would still look for.
    /// Sizes above 2^32 − 1 are never admitted, whatever the limits: no format but BigTIFF
    /// can state one, and `ImageInfo` stores 32 bits.
    func admits(width: UInt64, height: UInt64) -> Bool {
        width <= UInt64(widthLimit) && height <= UInt64(heightLimit)
    }

    /// Whether a structure that ends at `end` (an offset) claims to run past the end of the
    /// input, when the input's length is known (SPEC.md §3, "Containers"). Unknown lengths
    /// never make it so.
    func runsPastInput(_ end: UInt64) -> Bool {
        guard let length = knownInputLength else { return false }
        return end > length
    }

    /// Whether `count` bytes from `start` run past the end of the input, when its length is
    /// known: `runsPastInput(start + count)` without the overflow.
    func runsPastInput(from start: UInt64, count: UInt64) -> Bool {
        guard let length = knownInputLength else { return false }
        return start > length || count > length &- start
    }

    /// Whether the caller wants only the size.
    var dimensionsOnly: Bool { mode == .dimensionsOnly }

    /// Whether the caller wants every frame of an animation walked.
    var animation: Bool { mode == .animation }
}
