/// GIF 87a and 89a: the logical screen size from the Logical Screen Descriptor.
///
/// GIF carries no orientation, so both modes stop at byte 10; full mode reads one more byte
/// for the global colour table's depth.
@usableFromInline
struct GIFParser: FormatParser, Sendable {
    @inlinable static var occupant: SlotOccupant { .gif }

    @usableFromInline
    enum Phase: Sendable {
        /// "F87a"/"F89a" (after the sniffed "GI"), logical screen width and height.
        case header
        /// The packed fields byte.
        case packedFields
    }

    @usableFromInline var phase: Phase = .header
    @usableFromInline var facts = ImageFacts(format: .gif)

    /// Built on demand from the compact facts the parser keeps.
    @inlinable
    var info: ImageInfo { ImageInfo(facts) }

    @inlinable var firstStep: Step { .read(8) }

    @inlinable
    init() {}

    @inlinable
    var format: ImageFormat? { .gif }

    @inlinable
    func infoAtEndOfInput() -> ImageInfo? {
        switch phase {
        case .header: nil
        case .packedFields: info
        }
    }

    @inlinable @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            // "F87a" or "F89a" after the sniffed "GI".
            guard field.be32(0) == 0x4638_3761 || field.be32(0) == 0x4638_3961
            else { return .failed(ScanFailure(.unknownFormat, .notAGIF87aOrGIF89aSignature)) }
            let width = field.le16(4)
            let height = field.le16(6)
            guard width != 0 && height != 0 else { return .failed(.malformed(.gif, .logicalScreenSizeIsZero)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.gif)) }
            facts.width = Int(width)
            facts.height = Int(height)
            if options.dimensionsOnly { return .done }
            phase = .packedFields
            return .read(1)
        case .packedFields:
            let packed = field.u8(0)
            // With a global colour table, its size is 2^(n+1) entries: n+1 bits per pixel.
            if packed & 0x80 != 0 { facts.bitDepth = Int(packed & 0x07) + 1 }
            return .done
        }
    }
}
