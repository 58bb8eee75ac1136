/// The failures no single format owns: the scanner's own, and those several formats share (SPEC.md §1, §5).
package enum CommonFailure: UInt8, FailureReason, CaseIterable, Sendable {
    /// Defensive: ScanFailure(code) for callers; the scanner names a reason.
    case genericUnknownFormat
    /// Defensive: ScanFailure(code) for callers; the scanner names a reason.
    case genericMalformed
    /// Defensive: ScanFailure(code) for callers; the scanner names a reason.
    case genericTruncated
    /// Defensive: ScanFailure(code) for callers; the scanner names a reason.
    case genericLimitExceeded
    /// Defensive: ScanFailure(code) for callers; the scanner names a reason.
    case genericUnsupportedFeature
    /// Defensive: only IMAGEPROBE_SELECT_FORMATS builds leave a parser out.
    case formatLeftOutOfThisBuild
    /// Defensive: parsers ask only for fields of 1...64 bytes.
    case internalFieldWidthOutOfRange
    case offsetBeyond2To64
    case headerNotFoundWithinMaxBytes
    case noKnownImageSignature
    case isobmffStyleFileOfNoImageType
    case iconDirectoryListsNoImages
    case ifd0OffsetPointsBackwards
    case ifd0LiesOutsideTheTIFFData
    case zeroWidthOrHeight
    case ftypBoxTooSmall
    case boxSmallerThanItsHeader
    case moreBoxesThanMaxEntries
    case boxesNestedDeeperThanMaxDepth
    case moreChunksThanMaxEntries
    case headerLongerThan8KiB
    case zeroWidth
    case zeroHeight
    case zeroDepth
    case boxOrChunkRunsPastTheEndOfTheInput
    case inputEndedInsideTheHeader
    /// Defensive: the slot always holds the running parser.
    case internalRunningParserMissing
    case imageLargerThanMaxWidthOrMaxHeight
    /// Defensive: raised by the range planner (URL fetches), not the scanner.
    case metadataRequestLimit
    /// Defensive: raised by the range planner (URL fetches), not the scanner.
    case metadataTransferLimit
    /// Defensive: raised by the range planner (URL fetches), not the scanner.
    case metadataTimeLimit
    case moreFramesThanMaxEntries
    case imageHasMorePixelsThanMaxPixels
    // The box-structured start JPEG 2000 and JPEG XL share (JPEG2000Boxes.swift).
    case signatureBoxDamaged
    case signatureBoxSizeIsNot12
    case secondBoxIsNotFtyp

    package static var owner: UInt8 { 0xFF }

    /// The message, as a literal of either type.
    package func spelled<Text: ExpressibleByStringLiteral>() -> Text {
        switch self {
        case .genericUnknownFormat: "not a supported image"
        case .genericMalformed: "the header breaks its format's specification"
        case .genericTruncated: "the input ended inside the header"
        case .genericLimitExceeded: "a limit in ScanOptions was reached"
        case .genericUnsupportedFeature: "a feature the scanner does not handle"
        case .formatLeftOutOfThisBuild: "this build of the scanner leaves the format out"
        case .internalFieldWidthOutOfRange: "internal: field width out of range"
        case .offsetBeyond2To64: "offset beyond 2^64"
        case .headerNotFoundWithinMaxBytes: "header not found within maxBytes"
        case .noKnownImageSignature: "no known image signature"
        case .isobmffStyleFileOfNoImageType: "ISOBMFF-style file of no image type"
        case .iconDirectoryListsNoImages: "icon directory lists no images"
        case .ifd0OffsetPointsBackwards: "IFD0 offset points backwards"
        case .ifd0LiesOutsideTheTIFFData: "IFD0 lies outside the TIFF data"
        case .zeroWidthOrHeight: "zero width or height"
        case .ftypBoxTooSmall: "ftyp box too small"
        case .boxSmallerThanItsHeader: "box smaller than its header"
        case .moreBoxesThanMaxEntries: "more boxes than maxEntries"
        case .boxesNestedDeeperThanMaxDepth: "boxes nested deeper than maxDepth"
        case .moreChunksThanMaxEntries: "more chunks than maxEntries"
        case .headerLongerThan8KiB: "header longer than 8 KiB"
        case .zeroWidth: "zero width"
        case .zeroHeight: "zero height"
        case .zeroDepth: "zero depth"
        case .boxOrChunkRunsPastTheEndOfTheInput: "box or chunk runs past the end of the input"
        case .inputEndedInsideTheHeader: "input ended inside the header"
        case .internalRunningParserMissing: "internal: the running parser is missing"
        case .imageLargerThanMaxWidthOrMaxHeight: "image larger than maxWidth or maxHeight"
        case .metadataRequestLimit: "size known; the metadata search needed more than maxMetadataRequests requests"
        case .metadataTransferLimit: "size known; maxRequests or maxBytes ended the metadata search"
        case .metadataTimeLimit: "size known; a time limit ended the metadata search"
        case .moreFramesThanMaxEntries: "more frames than maxEntries"
        case .imageHasMorePixelsThanMaxPixels: "the image has more pixels than maxPixels"
        case .signatureBoxDamaged: "signature box damaged"
        case .signatureBoxSizeIsNot12: "signature box size is not 12"
        case .secondBoxIsNotFtyp: "second box is not ftyp"
        }
    }
}
