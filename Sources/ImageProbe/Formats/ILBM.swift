#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_ILBM)
/// IFF pictures (EA IFF 85; *ILBM IFF Interleaved Bitmap*, EA 1986): a `FORM` of type `ILBM`
/// (planar), `PBM ` (Deluxe Paint's chunky form) or `ACBM` (contiguous bitplanes), whose
/// chunks are an ID, a 32-bit big-endian length and the data, padded to an even length.
///
/// The size is the `BMHD` chunk's width and height (16-bit big-endian), which the
/// specification puts first: the answer comes at byte 24 (30 in full mode, with the plane
/// count and masking). Chunks before `BMHD` are skipped by their length; a `BODY` (or
/// `ABIT`) before it is malformed. Other FORM types (`AIFF`, `8SVX`, `ANIM`, …) are not
/// images of this kind.
struct ILBMParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// "RM" (after the sniffed "FO"), the FORM's length and type.
        case form
        /// A chunk's ID and length.
        case chunkHeader
        /// BMHD's width and height (and in full mode x, y, planes and masking).
        case bitmapHeader
    }

    var phase: Phase = .form
    var facts = ImageFacts(format: .ilbm)
    /// Offset where the FORM ends, as its header declares.
    var formEnd: UInt64 = 0
    var chunks = 0

    static let bitmapHeaderID: UInt32 = 0x424D_4844  // "BMHD"
    static let bodyID: UInt32 = 0x424F_4459  // "BODY"
    static let contiguousBodyID: UInt32 = 0x4142_4954  // "ABIT"

    init() {}

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(10) }

    var format: ImageFormat? {
        switch phase {
        case .form: nil
        case .chunkHeader, .bitmapHeader: .ilbm
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        let position = offset &+ field.span
        switch phase {
        case .form:
            guard field.matches("RM", at: 0) else { return .failed(Sniffer.unknown) }
            switch field.tag(6) {
            case fourCC("ILBM"), fourCC("PBM "), fourCC("ACBM"): break
            default: return .failed(ScanFailure(.unknownFormat, Failure.iffFormOfNoImageType))
            }
            let length = UInt64(field.be32(2))
            // The type, then at least one chunk header.
            guard length >= 12 else { return .failed(.malformed(.ilbm, Failure.formHasNoBMHD)) }
            formEnd = 8 &+ length
            guard !options.runsPastInput(formEnd) else { return .failed(.malformed(.ilbm, .boxOrChunkRunsPastTheEndOfTheInput)) }
            phase = .chunkHeader
            return .read(8)
        case .chunkHeader:
            chunks &+= 1
            guard chunks <= options.maxEntries else { return .failed(.limit(.ilbm, .moreChunksThanMaxEntries)) }
            let length = UInt64(field.be32(4))
            let end = position &+ length
            guard end <= formEnd else { return .failed(.malformed(.ilbm, Failure.chunkRunsPastItsFORM)) }
            switch field.tag(0) {
            case Self.bitmapHeaderID:
                guard length >= 20 else { return .failed(.malformed(.ilbm, Failure.bmhdChunkTooShort)) }
                phase = .bitmapHeader
                return .read(options.dimensionsOnly ? 4 : 10)
            case Self.bodyID, Self.contiguousBodyID:
                return .failed(.malformed(.ilbm, Failure.bodyBeforeBMHD))
            default:
                // Odd lengths are followed by a pad byte.
                let next = end &+ (length & 1)
                guard next < formEnd && formEnd &- next >= 8 else { return .failed(.malformed(.ilbm, Failure.formHasNoBMHD)) }
                return .skipThenRead(next &- position, 8)
            }
        case .bitmapHeader:
            let width = field.be16(0)
            let height = field.be16(2)
            guard width != 0 && height != 0 else { return .failed(.malformed(.ilbm, .zeroWidthOrHeight)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.ilbm)) }
            facts.width = Int(width)
            facts.height = Int(height)
            if field.count >= 10 {
                let planes = field.u8(8)
                if planes != 0 { facts.bitDepth = Int(planes) }
                // 1: a mask plane; 2: a transparent colour. 0 and 3 (lasso) have none.
                switch field.u8(9) {
                case 1, 2: facts.hasAlpha = true
                case 0, 3: facts.hasAlpha = false
                default: break
                }
            }
            return .done
        }
    }
}

extension ILBMParser {
    /// Why ILBM input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case iffFormOfNoImageType
        case formHasNoBMHD
        case chunkRunsPastItsFORM
        case bmhdChunkTooShort
        case bodyBeforeBMHD

        static var owner: UInt8 { ILBMParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .iffFormOfNoImageType: "IFF FORM of no image type"
            case .formHasNoBMHD: "IFF FORM has no BMHD"
            case .chunkRunsPastItsFORM: "chunk runs past its FORM"
            case .bmhdChunkTooShort: "BMHD chunk too short"
            case .bodyBeforeBMHD: "BODY before BMHD"
            }
        }
    }
}
#endif
