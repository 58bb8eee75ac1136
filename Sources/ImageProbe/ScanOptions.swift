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

    // Stored compactly (32 bytes) because every scanner holds a copy and parsers read it on
    // every step. Setters clamp to the stored widths; no limit loses meaning by it (see each).
    @usableFromInline var storedMaxBytes: UInt64
    @usableFromInline var storedInputLength: UInt64
    @usableFromInline var storedMaxWidth: UInt32
    @usableFromInline var storedMaxHeight: UInt32
    @usableFromInline var storedMaxEntries: UInt32
    @usableFromInline var storedMaxDepth: UInt16
    @usableFromInline var storedMode: UInt8
    @usableFromInline var hasInputLength: Bool

    /// Default: `.full`.
    @inlinable
    public var mode: Mode {
        get { storedMode == 0 ? .full : .dimensionsOnly }
        set {
            switch newValue {
            case .full: storedMode = 0
            case .dimensionsOnly: storedMode = 1
            }
        }
    }

    /// Most bytes the scanner will consume through `feed`, including the bytes it discards by
    /// counting; having consumed this many without an answer, it fails with `limitExceeded`.
    /// Bytes a seeking reader passes over with `HeaderScanner.skip(_:)` don't count.
    /// Default: 16 MiB. Negative values act as 0.
    @inlinable
    public var maxBytes: Int {
        get { Int(clamping: storedMaxBytes) }
        set { storedMaxBytes = UInt64(max(0, newValue)) }
    }

    /// Widest image reported; wider ones give `limitExceeded`. Default: 2^30. Values are
    /// clamped to 0...2^32 − 1, the widest size any format can state but BigTIFF.
    @inlinable
    public var maxWidth: Int {
        get { Int(storedMaxWidth) }
        set { storedMaxWidth = UInt32(clamping: newValue) }
    }

    /// Tallest image reported; taller ones give `limitExceeded`. Default: 2^30. Clamped as
    /// `maxWidth`.
    @inlinable
    public var maxHeight: Int {
        get { Int(storedMaxHeight) }
        set { storedMaxHeight = UInt32(clamping: newValue) }
    }

    /// Most entries examined within one structure: TIFF/EXIF IFD entries, PNG and RIFF chunks,
    /// JPEG segments. Default: 65,536. Clamped to 0...2^32 − 1.
    @inlinable
    public var maxEntries: Int {
        get { Int(storedMaxEntries) }
        set { storedMaxEntries = UInt32(clamping: newValue) }
    }

    /// Deepest nesting of boxes the scanner follows (ISOBMFF `meta` inside `moov`, say).
    /// Default: 16. Clamped to 0...65,535.
    @inlinable
    public var maxDepth: Int {
        get { Int(storedMaxDepth) }
        set { storedMaxDepth = UInt16(clamping: newValue) }
    }

    /// The input's total length, when the caller knows it (a file's size, an HTTP
    /// Content-Length). Formats with information at the end use it: a TGA 2.0 footer, a box
    /// that runs "to the end of the file". Nil for streams of unknown length.
    @inlinable
    public var inputLength: UInt64? {
        get { hasInputLength ? storedInputLength : nil }
        set {
            hasInputLength = newValue != nil
            storedInputLength = newValue ?? 0
        }
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
    @inlinable
    public init() {
        // The defaults' values, written out: a static constant is read through a lazy global.
        storedMaxBytes = 16 << 20
        storedInputLength = 0
        storedMaxWidth = 1 << 30
        storedMaxHeight = 1 << 30
        storedMaxEntries = 1 << 16
        storedMaxDepth = 16
        storedMode = 0
        hasInputLength = false
    }

    /// Options for `mode` with the default limits.
    @inlinable
    public init(mode: Mode) {
        self.init()
        self.mode = mode
    }

    /// Whether a size is within `maxWidth` and `maxHeight`. Parsers check as soon as they
    /// learn the size, so an oversized image fails at that byte, whatever else full mode
    /// would still look for.
    /// Sizes above 2^32 − 1 are never admitted, whatever the limits: no format but BigTIFF
    /// can state one, and `ImageInfo` stores 32 bits.
    @inlinable
    func admits(width: UInt64, height: UInt64) -> Bool {
        width <= UInt64(storedMaxWidth) && height <= UInt64(storedMaxHeight)
    }

    /// Whether the caller wants only the size.
    @inlinable
    var dimensionsOnly: Bool { storedMode != 0 }
}
