/// How far the scanner reads, and the limits that keep hostile input cheap.
public struct ScanOptions: Hashable, Sendable {
    /// What the scanner must settle before it answers.
    public enum Mode: Hashable, Sendable {
        /// Format, size and orientation, plus the facts the header gives for free. The scanner
        /// goes on until the orientation is found or the format guarantees it cannot come.
        case full
        /// Format and size only: the answer comes at the earliest byte where both are known.
        case dimensionsOnly
    }

    /// Default: `.full`.
    public var mode: Mode = .full

    /// Most bytes the scanner will consume through `feed`, including the bytes it discards by
    /// counting; having consumed this many without an answer, it fails with `limitExceeded`.
    /// Bytes a seeking reader passes over with `HeaderScanner.skip(_:)` don't count.
    /// Default: 16 MiB.
    public var maxBytes: Int = ScanOptions.defaultMaxBytes

    /// Widest image reported; wider ones give `limitExceeded`. Default: 2^30.
    public var maxWidth: Int = ScanOptions.defaultMaxDimension

    /// Tallest image reported; taller ones give `limitExceeded`. Default: 2^30.
    public var maxHeight: Int = ScanOptions.defaultMaxDimension

    /// Most entries examined within one structure: TIFF/EXIF IFD entries, PNG and RIFF chunks,
    /// JPEG segments. Default: 65,536.
    public var maxEntries: Int = ScanOptions.defaultMaxEntries

    /// Deepest nesting of boxes the scanner follows (ISOBMFF `meta` inside `moov`, say).
    /// Default: 16.
    public var maxDepth: Int = ScanOptions.defaultMaxDepth

    /// The input's total length, when the caller knows it (a file's size, an HTTP
    /// Content-Length). Formats with information at the end use it: a TGA 2.0 footer, a box
    /// that runs "to the end of the file". Nil for streams of unknown length.
    public var inputLength: UInt64? = nil

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
    @inlinable
    public init() {}

    /// Options for `mode` with the default limits.
    @inlinable
    public init(mode: Mode) {
        self.mode = mode
    }

    /// Whether a size is within `maxWidth` and `maxHeight`. Parsers check as soon as they
    /// learn the size, so an oversized image fails at that byte, whatever else full mode
    /// would still look for.
    /// Sizes above 2^32 − 1 are never admitted, whatever the limits: no format but BigTIFF
    /// can state one, and `ImageInfo` stores 32 bits.
    @inlinable
    func admits(width: UInt64, height: UInt64) -> Bool {
        width <= min(UInt64(max(0, maxWidth)), UInt64(UInt32.max)) && height <= min(UInt64(max(0, maxHeight)), UInt64(UInt32.max))
    }

    /// Whether the caller wants only the size.
    @inlinable
    var dimensionsOnly: Bool {
        switch mode {
        case .dimensionsOnly: true
        case .full: false
        }
    }
}
