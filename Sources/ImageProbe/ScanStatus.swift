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
    public var isTerminal: Bool {
        switch self {
        case .needMore: false
        case .done, .unsupported, .refused: true
        }
    }

    /// The failure of an `unsupported` or `refused` status.
    public var failure: ScanFailure? {
        switch self {
        case .needMore, .done: nil
        case .unsupported(let failure), .refused(_, let failure): failure
        }
    }
}

extension ScanStatus {
    /// The answer once a parser has ended the scan with `info`: complete when `failure` is
    /// nil, else made partial by it, with animation mode's `frames` counted in when
    /// `countsFrames`. A size beyond the limits is refused whatever else is known.
    static func settled(
        _ info: ImageInfo, _ failure: ScanFailure?, _ frames: FrameTally, countsFrames: Bool, _ options: ScanOptions
    ) -> ScanStatus {
        guard options.admits(width: UInt64(info.facts.storedWidth), height: UInt64(info.facts.storedHeight)) else {
            return .unsupported(.tooLarge(info.format))
        }
        // Most answers are the parser's as it stands: nothing to add, no pixel limit to check.
        guard failure != nil || countsFrames || options.maxPixels != nil else { return .done(info) }
        var info = info
        info.partialReason = failure
        if countsFrames { frames.apply(to: &info) }
        // The pixel count (with animation mode's frames) is computed only under a limit.
        guard options.maxPixels == nil || options.admits(pixels: info.pixelCount) else {
            return .refused(info, ScanFailure(.tooManyPixels, .imageHasMorePixelsThanMaxPixels, format: info.format))
        }
        return .done(info)
    }
}
