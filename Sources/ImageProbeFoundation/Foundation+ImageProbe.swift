import Foundation
import ImageProbe

extension HeaderScanner {
    /// Consumes `data` as `feed(_: UnsafeRawBufferPointer)` does: through its contiguous
    /// bytes when it has them (the usual case), without copying.
    @inlinable
    public mutating func feed(_ data: Data) -> ScanStatus {
        feed(data) { _ in }
    }

    /// Consumes `data`, passing animation mode's frames to `onFrame` (SPEC.md §1.9).
    @inlinable
    public mutating func feed(_ data: Data, onFrame: (FrameInfo) -> Void) -> ScanStatus {
        // A Data's regions are contiguous pieces: feeding them in order is feeding the whole.
        var status = self.status
        for region in data.regions {
            status = region.withUnsafeBytes { feed($0, onFrame: onFrame) }
            if status.isTerminal { break }
        }
        return status
    }
}

extension ImageInfo {
    /// Probes the image file at `path`: reads just far enough, jumping skipped regions.
    ///
    /// - Returns: the answer, possibly partial (`isPartial`) when the file ends early or a
    ///   limit stops the metadata search after the size is known (SPEC.md §1.6).
    /// - Throws: `FileError` when the file can't be read; `ScanFailure` when it is not an
    ///   image the scanner can size (`unknownFormat`, `malformed`, `truncated`, ...).
    public init(contentsOfFile path: String, options: ScanOptions = ScanOptions()) throws {
        self = try Self.answer(FileProber(options: options).probe(path: path))
    }

    /// Probes the file a `file:` URL names. Other schemes throw `FileError.Code.cannotOpen`;
    /// `ImageProbeFetcher` (in `ImageProbeFetch`) probes `http` and `https` URLs.
    public init(contentsOf url: URL, options: ScanOptions = ScanOptions()) throws {
        guard url.isFileURL else {
            throw FileError(code: .cannotOpen, message: "not a file URL (use ImageProbeFetcher for http and https)", path: url.absoluteString)
        }
        try self.init(contentsOfFile: url.path, options: options)
    }

    /// Probes an open file from its current offset. The handle stays open; its offset moves.
    public init(fileHandle: FileHandle, options: ScanOptions = ScanOptions()) throws {
        self = try Self.answer(FileProber(options: options).probe(descriptor: fileHandle.fileDescriptor))
    }

    /// The answer of a probe, or its failure thrown.
    static func answer(_ result: FileProbeResult) throws -> ImageInfo {
        switch result.status {
        case .done(let info): return info
        case .unsupported(let failure), .refused(_, let failure): throw failure
        case .needMore: throw ScanFailure(.truncated)
        }
    }
}
