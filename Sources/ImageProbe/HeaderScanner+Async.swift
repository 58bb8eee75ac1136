#if !hasFeature(Embedded)
extension HeaderScanner {
    /// Scans an asynchronous sequence of byte chunks (`[UInt8]`, `ArraySlice<UInt8>`, `Data`,
    /// any contiguous collection of bytes), stopping at the answer: no chunk after the one
    /// that completes it is requested. Calls `finish()` if the sequence ends first.
    ///
    /// ```swift
    /// var scanner = HeaderScanner()
    /// let status = try await scanner.scan(chunks: response.body)   // e.g. an HTTP client's body
    /// ```
    public mutating func scan<Chunks: AsyncSequence>(chunks: Chunks) async throws -> ScanStatus
    where Chunks.Element: Collection, Chunks.Element.Element == UInt8 {
        var status = self.status
        for try await chunk in chunks {
            if let fed = chunk.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0)) }) {
                status = fed
            } else {
                status = feed(contentsOf: chunk)
            }
            if status.isTerminal { return status }
        }
        return finish()
    }

    /// Scans an asynchronous sequence of single bytes (`FileHandle.bytes`, `URL.resourceBytes`),
    /// in 4 KiB batches, stopping at the answer. Calls `finish()` if the sequence ends first.
    public mutating func scan<Bytes: AsyncSequence>(bytes: Bytes) async throws -> ScanStatus
    where Bytes.Element == UInt8 {
        var batch: [UInt8] = []
        batch.reserveCapacity(4096)
        var status = self.status
        for try await byte in bytes {
            batch.append(byte)
            // Feed no more than the scanner needs, so nothing past the answer is consumed.
            let wanted: Int
            if case .needMore(let count) = status { wanted = min(count, 4096) } else { wanted = 1 }
            if batch.count >= wanted {
                status = feed(batch)
                batch.removeAll(keepingCapacity: true)
                if status.isTerminal { return status }
            }
        }
        if !batch.isEmpty {
            status = feed(batch)
            if status.isTerminal { return status }
        }
        return finish()
    }
}
#endif
