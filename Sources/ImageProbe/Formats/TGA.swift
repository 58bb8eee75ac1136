#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_TGA)
/// Truevision TGA (TGA 2.0, and TGA 1.0 files without a footer): an 18-byte header and no
/// signature.
///
/// The sniffer tries TGA last and hands over the first 2, 4 or 6 header bytes it consumed.
/// Because any bytes could be a TGA header, the header is validated strictly (SPEC): *hard*
/// rules reject it outright; a header that breaks only a *soft* rule is accepted only when the
/// TGA 2.0 footer ("TRUEVISION-XFILE.\0" in the last 26 bytes) confirms it, which needs a
/// seekable input of known length (`ScanOptions.inputLength`). A rejected header is
/// `unknownFormat`: without a signature, nothing says the input was ever a TGA.
///
/// The size is known at byte 17 (through the pixel depth). Full mode reads the image
/// descriptor (byte 17) for the alpha bits. The origin bits are not an EXIF orientation.
struct TGAParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// The header through the pixel depth (byte 16), minus the bytes the sniffer consumed.
        case header
        /// The image descriptor byte (full mode).
        case descriptor
        /// The 26-byte TGA 2.0 footer, when the header broke a soft rule.
        case footer
    }

    /// What the header's first 17 bytes say.
    enum Verdict: Sendable {
        case valid
        /// Breaks only a soft rule: a TGA if the footer says so.
        case doubtful
        /// Not a TGA: the failure to report (unknownFormat).
        case invalid(ScanFailure)
    }

    var phase: Phase = .header
    var facts = ImageFacts(format: .tga)

    let known: KnownBytes
    /// Whether the header broke a soft rule, so the footer must confirm it.
    var needsFooter = false
    /// Set once the input is known to be a TGA (the size is then certain).
    var confirmed = false
    /// The most alpha (attribute) bits a pixel can carry: its own depth, or a colour map
    /// entry's for colour-mapped images.
    var attributeLimit: UInt8 = 0
    /// A full-mode descriptor that breaks the specification, reported once confirmed.
    var descriptorIsBad = false

    /// The header bytes the size needs: ID length through pixel depth.
    static let sizedHeaderLength = 17
    /// The whole header, which a footer may not overlap.
    static let headerLength: UInt64 = 18
    static let footerLength: UInt64 = 26

    init(known: KnownBytes) {
        self.known = known
    }

    init(sniffed: Sniffed) {
        guard case .headerStart(let known) = sniffed else { self.init(known: KnownBytes(storage: 0, count: 0)); return }  // defensive
        self.init(known: known)
    }

    var firstStep: Step { .read(Self.sizedHeaderLength &- known.count) }

    var format: ImageFormat? { confirmed ? facts.format : nil }

    func infoAtEndOfInput() -> ImageInfo? { confirmed ? info : nil }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .header:
            let fieldEnd = offset &+ field.span
            let verdict = judge(field)
            if case .valid = verdict {
                confirmed = true
                guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(facts.storedHeight)) else {
                    return .failed(.tooLarge(.tga))
                }
            } else {
                // One call for both kinds of broken header.
                if let step = aseprite(field, options: options) { return step }
                if case .invalid(let failure) = verdict { return .failed(failure) }
                // Only a seekable input of known length can have its footer consulted.
                guard let length = options.inputLength, length >= Self.headerLength &+ Self.footerLength else {
                    return .failed(ScanFailure(.unknownFormat, Failure.tgaRuleBrokenAndNoFooter))
                }
                needsFooter = true
            }
            if !options.dimensionsOnly {
                phase = .descriptor
                return .read(1)
            }
            return needsFooter ? footerStep(after: fieldEnd, options: options) : .done
        case .descriptor:
            let descriptor = field.u8(0)
            let alphaBits = descriptor & 0x0F
            // Bits 6-7: TGA 1.0's interleaving (0, 1 or 2; 3 is reserved). TGA 2.0 wants 0.
            descriptorIsBad = descriptor >> 6 == 3 || alphaBits > attributeLimit
            if !descriptorIsBad { facts.hasAlpha = alphaBits > 0 }
            if needsFooter { return footerStep(after: offset &+ 1, options: options) }
            return finish()
        case .footer:
            guard field.matches("TRUEVISION-XFILE.", at: 8), field.u8(25) == 0 else {
                return .failed(ScanFailure(.unknownFormat, Failure.tgaRuleBrokenAndFooterMissing))
            }
            confirmed = true
            guard options.admits(width: UInt64(facts.storedWidth), height: UInt64(facts.storedHeight)) else {
                return .failed(.tooLarge(.tga))
            }
            return finish()
        }
    }

    /// A small Aseprite file: its size's second byte is 0 or 1, like a colour-map type, and its
    /// magic A5E0 is at byte 4 (SPEC.md §3.39). Its header always breaks a TGA rule: the magic
    /// makes the first colour-map index nonzero in a header without a map, and a mapped header
    /// would need over 3,839 frames for a valid entry size. So it is looked for only in
    /// headers that break one.
    ///
    /// The header's frame count, size and depth (bytes 6–13) when the magic is there and the
    /// file size (bytes 0–3) covers the header; nil when the depth shows it is no Aseprite file.
    mutating func aseprite(_ field: FieldBytes, options: ScanOptions) -> Step? {
        guard byte(4, field) == 0xE0 && byte(5, field) == 0xA5 else { return nil }
        let size = UInt32(le16(0, field)) | UInt32(le16(2, field)) << 16
        guard size >= AsepriteParser.headerLength else { return nil }
        switch AsepriteParser.header(frames: le16(6, field), width: le16(8, field), height: le16(10, field), depth: le16(12, field), options: options) {
        case .facts(let header):
            facts = header
            confirmed = true
            return .done
        case .failed(let failure):
            return .failed(failure)
        case .notAseprite:
            return nil
        }
    }

    /// The end of the scan once the header is confirmed. A bad descriptor comes after the
    /// size, so it ends the scan with a partial answer.
    func finish() -> Step {
        descriptorIsBad ? .failed(.malformed(.tga, Failure.imageDescriptorBreaksTheSpecification)) : .done
    }

    /// Skips from `position` to the footer. The header step checked that it lies ahead.
    mutating func footerStep(after position: UInt64, options: ScanOptions) -> Step {
        phase = .footer
        let footerStart = (options.inputLength ?? 0) &- Self.footerLength
        let gap = footerStart &- position
        let length = Int(truncatingIfNeeded: Self.footerLength)  // 26
        return gap == 0 ? .read(length) : .skipThenRead(gap, length)
    }

    /// Header byte `index` (below 17): from the sniffer's bytes or from `field`.
    func byte(_ index: Int, _ field: FieldBytes) -> UInt8 {
        index < known.count ? known[index] : field.u8(index &- known.count)
    }

    func le16(_ index: Int, _ field: FieldBytes) -> UInt16 {
        UInt16(byte(index, field)) | UInt16(byte(index &+ 1, field)) << 8
    }

    /// Applies the header rules (SPEC) and records the size and depth.
    mutating func judge(_ field: FieldBytes) -> Verdict {
        let mapType = byte(1, field)
        let imageType = byte(2, field)
        let firstIndex = le16(3, field)
        let mapLength = le16(5, field)
        let entrySize = byte(7, field)
        let width = le16(12, field)
        let height = le16(14, field)
        let depth = byte(16, field)

        // Hard rules.
        guard mapType <= 1 else { return .invalid(ScanFailure(.unknownFormat, Failure.notATGAColourMapTypeIsNot0Or1)) }
        let mapped: Bool
        switch imageType {
        case 1, 9:
            guard mapType == 1 && mapLength != 0 else { return .invalid(ScanFailure(.unknownFormat, Failure.notATGAColourMappedImageWithoutAColourMap)) }
            guard depth == 8 || depth == 15 || depth == 16 else { return .invalid(ScanFailure(.unknownFormat, Failure.notATGABadColourIndexDepth)) }
            mapped = true
        case 2, 10:
            guard depth == 15 || depth == 16 || depth == 24 || depth == 32 else {
                return .invalid(ScanFailure(.unknownFormat, Failure.notATGABadTrueColourPixelDepth))
            }
            mapped = false
        case 3, 11:
            guard depth == 8 || depth == 16 else { return .invalid(ScanFailure(.unknownFormat, Failure.notATGABadGreyscalePixelDepth)) }
            mapped = false
        default:
            // Not a TGA image type: nothing says the input looked like a TGA at all.
            return .invalid(ScanFailure(.unknownFormat, CommonFailure.noKnownImageSignature))
        }
        if mapType == 1 {
            guard entrySize == 15 || entrySize == 16 || entrySize == 24 || entrySize == 32 else {
                return .invalid(ScanFailure(.unknownFormat, Failure.notATGABadColourMapEntrySize))
            }
        }
        guard width != 0 && height != 0 else { return .invalid(ScanFailure(.unknownFormat, Failure.notATGAZeroWidthOrHeight)) }

        facts.width = Int(width)
        facts.height = Int(height)
        facts.bitDepth = Int(depth)
        attributeLimit = mapped ? entrySize : depth

        // Soft rules: a header that says "no colour map" should leave the colour map fields
        // zero, and one that declares a map should give it entries.
        if mapType == 0 && (firstIndex != 0 || mapLength != 0 || entrySize != 0) { return .doubtful }
        if mapType == 1 && mapLength == 0 { return .doubtful }
        return .valid
    }
}

extension TGAParser {
    /// Why TGA input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case tgaRuleBrokenAndNoFooter
        case tgaRuleBrokenAndFooterMissing
        case imageDescriptorBreaksTheSpecification
        /// Defensive: the sniffer starts TGA only with map type 0 or 1.
        case notATGAColourMapTypeIsNot0Or1
        case notATGAColourMappedImageWithoutAColourMap
        case notATGABadColourIndexDepth
        case notATGABadTrueColourPixelDepth
        case notATGABadGreyscalePixelDepth
        case notATGABadColourMapEntrySize
        case notATGAZeroWidthOrHeight

        static var owner: UInt8 { TGAParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .tgaRuleBrokenAndNoFooter: "not a TGA: header breaks a rule and no footer can confirm it"
            case .tgaRuleBrokenAndFooterMissing: "not a TGA: header breaks a rule and the footer is missing"
            case .imageDescriptorBreaksTheSpecification: "image descriptor breaks the specification"
            case .notATGAColourMapTypeIsNot0Or1: "not a TGA: colour map type is not 0 or 1"
            case .notATGAColourMappedImageWithoutAColourMap: "not a TGA: colour-mapped image without a colour map"
            case .notATGABadColourIndexDepth: "not a TGA: bad colour index depth"
            case .notATGABadTrueColourPixelDepth: "not a TGA: bad true-colour pixel depth"
            case .notATGABadGreyscalePixelDepth: "not a TGA: bad greyscale pixel depth"
            case .notATGABadColourMapEntrySize: "not a TGA: bad colour map entry size"
            case .notATGAZeroWidthOrHeight: "not a TGA: zero width or height"
            }
        }
    }
}
#endif
