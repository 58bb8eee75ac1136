extension HeaderScanner {
    /// Consumes the bytes of `bytes`; see `feed(_: UnsafeRawBufferPointer)`.
    public mutating func feed(_ bytes: [UInt8]) -> ScanStatus {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Consumes the bytes of `bytes`; see `feed(_: UnsafeRawBufferPointer)`.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> ScanStatus {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Consumes the bytes of `bytes`, passing animation mode's frames to `onFrame`; see
    /// `feed(_:onFrame:)` on `UnsafeRawBufferPointer`.
    public mutating func feed(_ bytes: [UInt8], onFrame: (FrameInfo) -> Void) -> ScanStatus {
        bytes.withUnsafeBytes { feed($0, onFrame: onFrame) }
    }

    /// Consumes the bytes of `bytes`, passing animation mode's frames to `onFrame`.
    public mutating func feed(_ bytes: ArraySlice<UInt8>, onFrame: (FrameInfo) -> Void) -> ScanStatus {
        bytes.withUnsafeBytes { feed($0, onFrame: onFrame) }
    }

    /// Consumes bytes from any sequence, stopping at the answer: elements after the byte that
    /// completes it are not read from the sequence.
    ///
    /// Contiguous sequences are fed in place; others go through a 256-byte stack buffer.
    public mutating func feed<Bytes: Sequence>(contentsOf bytes: Bytes) -> ScanStatus where Bytes.Element == UInt8 {
        if let status = bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0)) }) {
            return status
        }
        var iterator = bytes.makeIterator()
        return StagingBuffer.with { staging in
            var status = self.status
            while !status.isTerminal {
                // Take no more than the scanner needs, so nothing past the answer is consumed
                // from the sequence.
                let wanted: Int
                if case .needMore(let count) = status { wanted = count } else { wanted = 1 }
                let filled = staging.fill(from: &iterator, upTo: wanted)
                if filled == 0 { break }
                status = feed(staging.bytes(filled))
            }
            return status
        }
    }

    /// Reads `bytes` whole, then calls `finish()`: the one-call form for a buffer in memory.
    public static func scan(_ bytes: UnsafeRawBufferPointer, options: ScanOptions = ScanOptions()) -> ScanStatus {
        var scanner = HeaderScanner(options: options)
        let status = scanner.feed(bytes)
        return status.isTerminal ? status : scanner.finish()
    }

    /// Reads `bytes` whole, then calls `finish()`.
    public static func scan(_ bytes: [UInt8], options: ScanOptions = ScanOptions()) -> ScanStatus {
        bytes.withUnsafeBytes { scan($0, options: options) }
    }
}

#if compiler(>=6.2) && !hasFeature(Embedded)
@available(macOS 10.14.4, iOS 12.2, watchOS 5.2, tvOS 12.2, visionOS 1.0, *)
extension HeaderScanner {
    /// Consumes the bytes of `bytes`; see `feed(_: UnsafeRawBufferPointer)`.
    public mutating func feed(_ bytes: RawSpan) -> ScanStatus {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Consumes the bytes of `bytes`; see `feed(_: UnsafeRawBufferPointer)`.
    public mutating func feed(_ bytes: Span<UInt8>) -> ScanStatus {
        bytes.withUnsafeBytes { feed($0) }
    }
}
#endif
