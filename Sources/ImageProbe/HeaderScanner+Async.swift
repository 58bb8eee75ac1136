#if !hasFeature(Embedded)
extension HeaderScanner {
    /// Scans an asynchronous sequence of byte chunks with a new scanner, stopping at the
    /// answer. A static function, so it can be called from any isolation domain (a
    /// `@MainActor` view model, top-level code) without a scanner variable to mutate across
    /// the suspension.
    ///
    /// ```swift
    /// let status = try await HeaderScanner.scan(chunks: response.body)
    /// ```
    public static func scan<Chunks: AsyncSequence>(
        chunks: Chunks, options: ScanOptions = ScanOptions()
    ) async throws -> ScanStatus where Chunks.Element: Collection, Chunks.Element.Element == UInt8 {
        var scanner = HeaderScanner(options: options)
        return try await scanner.scan(chunks: chunks)
    }

    /// Scans an asynchronous sequence of single bytes with a new scanner, stopping at the
    /// answer (see `scan(bytes:)`).
    public static func scan<Bytes: AsyncSequence>(
        bytes: Bytes, options: ScanOptions = ScanOptions()
    ) async throws -> ScanStatus where Bytes.Element == UInt8 {
        var scanner = HeaderScanner(options: options)
        return try await scanner.scan(bytes: bytes)
    }

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
