#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_FARBFELD)
/// farbfeld (suckless): "farbfeld", then the width and height as 32-bit big-endian values,
/// then 16-bit RGBA pixels.
///
/// The size is known at byte 16, in both modes. Every farbfeld image is 16 bits per channel
/// with alpha, so those facts come with it.
struct FarbfeldParser: FormatParser, Sendable {

    var facts = ImageFacts(format: .farbfeld)

    init() {}

    /// "rbfeld" (after the sniffed "fa"), width, height.
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(14) }

    var format: ImageFormat? { .farbfeld }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard field.matches("rbfeld", at: 0) else { return .failed(Sniffer.unknown) }
        let width = field.be32(6)
        let height = field.be32(10)
        guard width != 0 && height != 0 else { return .failed(.malformed(.farbfeld, .zeroWidthOrHeight)) }
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.farbfeld)) }
        facts.width = Int(truncatingIfNeeded: width)
        facts.height = Int(truncatingIfNeeded: height)
        facts.bitDepth = 16
        facts.hasAlpha = true
        return .done
    }
}
#endif
