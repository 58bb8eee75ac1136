/// The scanner's answer after each `feed`, `skip` or `finish`.
public enum ScanStatus: Hashable, Sendable {
    /// At least `n` (≥ 1) more bytes are needed before anything new can be decided.
    ///
    /// `n` counts additional bytes, not a total. It is exact at the boundary of a step and a
    /// lower bound in general: it never asks for more than the next decision needs. It includes
    /// `HeaderScanner.pendingSkip`, the part the scanner will discard unseen. Saturates at
    /// `Int.max` on 32-bit platforms.
    case needMore(Int)
    /// The header was read. Terminal and sticky.
    case done(ImageInfo)
    /// The input is not a supported image, or not a valid one. Terminal and sticky.
    case unsupported(ScanFailure)
    /// The header was read, but the image is refused by a limit the caller set: it has more
    /// pixels than `ScanOptions.maxPixels` (the failure's code is `tooManyPixels`). The info
    /// has the format and size, so a caller can tell a decompression bomb from a broken file
    /// and say how large it is. Terminal and sticky.
    case refused(ImageInfo, ScanFailure)

    /// Whether this status is `done`, `unsupported` or `refused`.
    @inlinable
    public var isTerminal: Bool {
        switch self {
        case .needMore: false
        case .done, .unsupported, .refused: true
        }
    }

    /// The failure of an `unsupported` or `refused` status.
    @inlinable
    public var failure: ScanFailure? {
        switch self {
        case .needMore, .done: nil
        case .unsupported(let failure), .refused(_, let failure): failure
        }
    }
}

extension ScanStatus {
    /// A complete answer, unless the size is beyond the limits.
    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable @inline(__always)  // out of line, the answer is copied twice more (about 40 instructions)
    #endif
    static func settled(_ info: ImageInfo, _ options: ScanOptions) -> ScanStatus {
        guard options.admits(width: UInt64(info.facts.storedWidth), height: UInt64(info.facts.storedHeight)) else {
            return .unsupported(.tooLarge(info.format))
        }
        guard options.pixelLimit == UInt64.max || options.admits(pixels: info.pixelCount) else { return refused(info) }
        return .done(info)  // parsers leave partialReason nil
    }

    /// An image `maxPixels` refuses. Out of line: the common path then builds its answer once.
    @inlinable @inline(never)
    static func refused(_ info: ImageInfo) -> ScanStatus {
        .refused(info, ScanFailure(.tooManyPixels, .imageHasMorePixelsThanMaxPixels, format: info.format))
    }

    /// The answer when `failure` ended the scan: partial if the size is known, else the failure.
    #if IMAGEPROBE_COMPACT
    @inlinable @inline(never)
    #else
    @inlinable
    #endif
    static func settled(_ info: ImageInfo?, _ failure: ScanFailure, _ options: ScanOptions) -> ScanStatus {
        guard var info else { return .unsupported(failure) }
        info.partialReason = failure
        return settled(info, options)
    }
}
