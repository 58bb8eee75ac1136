#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_MSP)
/// Microsoft Paint files (Microsoft KB Q51077): "DanM" (version 1) or "LinS" (version 2),
/// then 16-bit little-endian words: width, height, bitmap and printer aspect ratios, printer
/// size, aspect correction, and a checksum that makes the XOR of the first 13 words zero.
///
/// The size is at bytes 4–7; the scanner answers at byte 26, once the checksum has confirmed
/// the four-byte key, in both modes. Pictures are 1 bit per pixel.
struct MSPParser: FormatParser, Sendable {

    var facts = ImageFacts(format: .msp)
    /// Version 2 ("LinS"), whose rows are run-length encoded.
    let version2: Bool

    /// After "Da" or "Li", which the sniffer consumed.
    init(version2: Bool) {
        self.version2 = version2
    }

    /// The rest of the key, then words 1 to 12 (width … y aspect correction) and the checksum.
    init(sniffed: Sniffed) { self.init(version2: sniffed.signatureFirst == 0x4C) }  // "Li", or "Da"

    var firstStep: Step { .read(24) }

    var format: ImageFormat? { .msp }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        guard field.matches(version2 ? "nS" : "nM", at: 0) else { return .failed(Sniffer.unknown) }
        // Word 0 is the key's first half, which the sniffer consumed: "Da" or "Li".
        var checksum: UInt16 = version2 ? 0x694C : 0x6144
        var index = 0
        while index < 24 {
            checksum ^= field.le16(index)
            index &+= 2
        }
        guard checksum == 0 else { return .failed(.malformed(.msp, Failure.mspChecksumMismatch)) }
        let width = field.le16(2)
        let height = field.le16(4)
        guard width != 0 && height != 0 else { return .failed(.malformed(.msp, .zeroWidthOrHeight)) }
        guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.msp)) }
        facts.width = Int(width)
        facts.height = Int(height)
        facts.bitDepth = 1
        facts.hasAlpha = false
        return .done
    }
}

extension MSPParser {
    /// Why MSP input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case mspChecksumMismatch

        static var owner: UInt8 { MSPParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .mspChecksumMismatch: "MSP header checksum does not match"
            }
        }
    }
}
#endif
