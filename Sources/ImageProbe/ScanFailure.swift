/// Why the scanner could not report an image's size.
///
/// A code from a small extensible set, a short static message for people, and the format
/// when it had been identified before the failure. Four bytes: the message is an index into a
/// static table, so a failure, and every parser step that may carry one, moves in registers.
public struct ScanFailure: Sendable, Hashable {
    /// The kind of failure. Extensible: new codes are new static members.
    public struct Code: Hashable, Sendable {
        @usableFromInline
        enum Kind: UInt8, Sendable {
            case unknownFormat = 1, malformed, truncated, limitExceeded, unsupportedFeature
        }

        @usableFromInline let kind: Kind

        @inlinable
        init(_ kind: Kind) { self.kind = kind }

        /// No supported format's signature matches the input.
        public static let unknownFormat = Code(.unknownFormat)
        /// The format was identified but its header breaks the specification.
        public static let malformed = Code(.malformed)
        /// The input ended before the header was complete.
        public static let truncated = Code(.truncated)
        /// A limit in `ScanOptions` was reached (bytes, dimensions, entries, nesting).
        public static let limitExceeded = Code(.limitExceeded)
        /// A valid file uses a feature the scanner does not handle.
        public static let unsupportedFeature = Code(.unsupportedFeature)

        /// The code's name as used in SPEC.md and the CLI's JSON (`"truncated"`). A literal:
        /// reading it allocates nothing.
        public var name: String {
            switch kind {
            case .unknownFormat: "unknownFormat"
            case .malformed: "malformed"
            case .truncated: "truncated"
            case .limitExceeded: "limitExceeded"
            case .unsupportedFeature: "unsupportedFeature"
            }
        }

        /// The message of a failure built from the code alone.
        @usableFromInline
        var genericReason: Reason {
            switch kind {
            case .unknownFormat: .genericUnknownFormat
            case .malformed: .genericMalformed
            case .truncated: .genericTruncated
            case .limitExceeded: .genericLimitExceeded
            case .unsupportedFeature: .genericUnsupportedFeature
            }
        }
    }

    /// Which message explains the failure: an index into the table of `Reason.message`.
    @usableFromInline var reason: Reason
    /// The kind of failure.
    public var code: Code
    /// The format, when it was identified before the failure.
    public var format: ImageFormat?

    /// A short explanation, fixed at compile time: a literal, so reading it allocates nothing.
    @inlinable
    public var message: String { reason.message }

    /// Creates a failure with the general message for `code`, for callers that report their
    /// own failures in the scanner's vocabulary (or stand in for a scanner in tests).
    @inlinable
    public init(_ code: Code, format: ImageFormat? = nil) {
        self.init(code, code.genericReason, format: format)
    }

    /// Creates a failure with one of the scanner's messages.
    @inlinable
    package init(_ code: Code, _ reason: Reason, format: ImageFormat? = nil) {
        self.reason = reason
        self.code = code
        self.format = format
    }
}

extension ScanFailure {
    @inlinable
    static func malformed(_ format: ImageFormat, _ reason: Reason) -> ScanFailure {
        ScanFailure(.malformed, reason, format: format)
    }

    @inlinable
    static func unsupported(_ format: ImageFormat, _ reason: Reason) -> ScanFailure {
        ScanFailure(.unsupportedFeature, reason, format: format)
    }

    @inlinable
    static func limit(_ format: ImageFormat?, _ reason: Reason) -> ScanFailure {
        ScanFailure(.limitExceeded, reason, format: format)
    }

    @inlinable
    static func tooLarge(_ format: ImageFormat) -> ScanFailure {
        ScanFailure(.limitExceeded, .imageLargerThanMaxWidthOrMaxHeight, format: format)
    }
}

#if !hasFeature(Embedded)
extension ScanFailure: Error, CustomStringConvertible {
    public var description: String {
        if let format {
            return "\(code.name) (\(format.name)): \(message)"
        }
        return "\(code.name): \(message)"
    }
}
#endif

extension ScanFailure {
    /// The scanner's failure messages, by name. Each case is a message in `message`'s table;
    /// the CLI, SPEC.md and tests quote the text, never the number.
    @usableFromInline
    package enum Reason: UInt16, Sendable, CaseIterable {
        case genericUnknownFormat
        case genericMalformed
        case genericTruncated
        case genericLimitExceeded
        case genericUnsupportedFeature
        case formatLeftOutOfThisBuild
        case internalFieldWidthOutOfRange
        case offsetBeyond2To64
        case headerNotFoundWithinMaxBytes
        case noKnownImageSignature
        case isobmffStyleFileOfNoImageType
        case iconDirectoryListsNoImages
        case ifd0OffsetPointsBackwards
        case ifd0LiesOutsideTheTIFFData
        case zeroWidthOrHeight
        case unknownDIBHeaderSize
        case widthIsNotPositive
        case badHeight
        case ddsMagicDamaged
        case ddsHeaderSizeIsNot124
        case openEXRMagicDamaged
        case tiledFlagWithDeepOrMultiPart
        case headerHasNoDataWindowAttribute
        case emptyAttributeTypeName
        case dataWindowIsNotABox2i
        case negativeAttributeSize
        case dataWindowSizeIsNot16
        case invalidDataWindow
        case openEXRVersionOtherThan2
        case unknownOpenEXRVersionFlags
        case namesLongerThan64KiBInAll
        case moreAttributesThanMaxEntries
        case moreChannelsThanMaxEntries
        case attributeNameTooLong
        case attributeTypeNameTooLong
        case notAGIF87aOrGIF89aSignature
        case logicalScreenSizeIsZero
        case icnsMagicDamaged
        case iconFamilyHoldsNoElement
        case elementLengthBelow8
        case elementRunsPastTheFamilySLength
        case bytesAfterTheLastElementAreNotAnElement
        case noIconElementOfAKnownType
        case moreElementsThanMaxEntries
        case directoryEntrySReservedByteIsNot0
        case directoryEntryHasNoImageData
        case imageDataOverlapsTheDirectory
        case moreDirectoryEntriesThanMaxEntries
        case isobmffFileWithoutAnImageBrand
        case ipmaBeforeIpcoAndPitmAfterBoth
        case ftypBoxTooSmall
        case boxSmallerThanItsHeader
        case bad64BitBoxSize
        case ipmaEntryOverrunsItsBox
        case boxOverrunsItsContainer
        case metaBoxTooSmall
        case noMetaBoxBeforeTheEndOfTheFile
        case boxOverlapsTheOneBefore
        case noPrimaryItemPitm
        case primaryItemHasNoIspeProperty
        case ipmaEntriesOverrunTheirBox
        case ispeSizeIsZero
        case moreBoxesThanMaxEntries
        case boxesNestedDeeperThanMaxDepth
        case moreThan32767Properties
        case moreItemsThanTheScannerTracksBeforePitm
        case moreBrandsThanMaxEntries
        case tooManyAssociationsBeforeIpco
        case moreItemPropertiesThanTheScannerTracks
        case moreIpmaEntriesThanMaxEntries
        case internalEXIFReaderMissing
        case segmentLengthBelow2
        case frameHeaderTooShort
        case frameWidthIsZero
        case secondSOIMarker
        case eoiBeforeAnyFrameHeader
        case scanBeforeAnyFrameHeader
        case heightDefinedLaterByADNLMarker
        case jpegLSFrame
        case moreSegmentsThanMaxEntries
        case jp2cBoxDoesNotStartWithSOC
        case sizDoesNotFollowSOC
        case sizSegmentTooShort
        case imageOffsetNotBelowTheGridSize
        case sizLengthDoesNotMatchItsComponentCount
        case boxEndsBeyond2To64
        case boxRunsPastJp2h
        case jp2hHasNoIhdr
        case ihdrBoxTooShort
        case jp2cBoxTooShortForSIZ
        case boxRunsToEndBeforeJp2h
        case motionJPEG2000KeepsItsHeaderInATrack
        case jpmCompoundImagesKeepTheirHeadersInPages
        case signatureBoxDamaged
        case signatureBoxSizeIsNot12
        case secondBoxIsNotFtyp
        case ftypMajorBrandIsNotJxl
        case jxlcBoxAfterJxlpBoxes
        case emptyJxlcBox
        case jxlpBoxTooSmallForItsIndex
        case ftypBoxAfterTheSecondBox
        case boxRunsToEndBeforeCodestream
        case codestreamEndsInsideItsHeader
        case codestreamSignatureMissing
        case ktxIdentifierDamaged
        case ktxIdentifierOfAnUnknownVersion
        case ktxEndiannessFieldIsNeitherByteOrder
        case onlyOneOfGlTypeAndGlFormatIsZero
        case pixelWidthIsZero
        case bitsPerPixelIsNot1_2_4Or8
        case imageWindowEndsBeforeItStarts
        case pngSignatureDamaged
        case badCgBIChunkLength
        case firstChunkIsNotIHDR
        case cgBIIsNotFollowedByIHDR
        case ihdrLengthIsNot13
        case ihdrSizeOutOfRange
        case chunkLengthOver2To31
        case moreChunksThanMaxEntries
        case xvThumbnailP7332NotPAM
        case headerLongerThan8KiB
        case noWhiteSpaceAfterTheMagicNumber
        case expectedADecimalNumber
        case numberTooLarge
        case aNumberMustEndWithWhiteSpace
        case pfmScaleIsNotANumber
        case pfmScaleMustBeANonzeroNumber
        case textAfterP7
        case pamValueIsNotADecimalNumber
        case moreThanOneValueOnAPAMHeaderLine
        case textAfterENDHDR
        case zeroWidth
        case zeroHeight
        case maxvalOutOfRange
        case endhdrBeforeWIDTHAndHEIGHT
        case unknownPAMHeaderKeyword
        case pamHeaderLineWithoutAValue
        case zeroDepth
        case notAPhotoshopSignature
        case channelCountOutOfRange
        case depthIsNot1_8_16Or32
        case unknownColourMode
        case unknownPhotoshopFileVersion
        case notAQOISignature
        case channelsIsNot3Or4
        case colourSpaceIsNot0Or1
        case programLineIsNotRadianceOrRGBE
        case formatIsNotRGBEOrXYZE
        case resolutionStringExpected
        case resolutionAxisIsNotXOrY
        case resolutionStringNamesOneAxisTwice
        case resolutionIsNotADecimalNumber
        case resolutionTooLarge
        case zeroResolution
        case resolutionStringHasOneAxis
        case storageIsNot0Or1
        case bytesPerChannelIsNot1Or2
        case dimensionIsNot1_2Or3
        case zeroChannels
        case notAnXMLDocument
        case xmlRootElementIsNotSvg
        case lessThanInAttributeValue
        case entityReferenceInWidthHeightOrViewBox
        case zeroWidthOrHeightNothingIsRendered
        case noIntrinsicSize
        case svgStartTagLongerThan64KiB
        case attributeValueWithoutQuotes
        case repeatedAttribute
        case slashNotFollowedByGreaterThan
        case attributesNotSeparatedByWhiteSpace
        case unexpectedByteInTheSvgStartTag
        case attributeWithoutEquals
        case notASunRasterSignature
        case depthIsNot1_8_24Or32
        case tgaRuleBrokenAndNoFooter
        case tgaRuleBrokenAndFooterMissing
        case imageDescriptorBreaksTheSpecification
        case notATGAColourMapTypeIsNot0Or1
        case notATGAColourMappedImageWithoutAColourMap
        case notATGABadColourIndexDepth
        case notATGABadTrueColourPixelDepth
        case notATGABadGreyscalePixelDepth
        case notATGABadColourMapEntrySize
        case notATGAZeroWidthOrHeight
        case byteOrderMarkWithoutTheTIFFMagicNumber
        case internalDirectoryReaderMissing
        case badBigTIFFHeader
        case ifd0LacksImageWidthOrImageLength
        case moreIFDEntriesThanMaxEntries
        case notARIFFFile
        case riffFileIsNotWebP
        case firstChunkIsNotVP8VP8LOrVP8X
        case vp8DataIsNotAKeyFrame
        case vp8StartCodeMissing
        case vp8lSignatureMissing
        case vp8xChunkTooShort
        case unknownVP8LVersion
        case noXBMWidthOrHeightInTheFirst8KiB
        case notAnXBMDefine
        case cSourceWithoutAnXBMWidthOrHeight
        case noWidthAndHeightInTheFirst8KiB
        case defineWithoutAName
        case defineWithoutAValue
        case widthOrHeightIsNotADecimalNumber
        case widthOrHeightTooLarge
        case bitmapDataBeforeWidthAndHeight
        case boxOrChunkRunsPastTheEndOfTheInput
        case postScriptSectionOutsideTheFile
        case postScriptSectionIsNotDSC
        case noBoundingBoxInTheHeaderComments
        case noBoundingBoxInTheFirst64KiB
        case deferredBoundingBoxMissingFromTheTrailer
        case emptyBoundingBox
        case noXPMValuesInTheFirst8KiB
        case stringBeforeTheXPMArray
        case xpmArrayDoesNotStartWithTheValues
        case xpmValueIsNotADecimalNumber
        case xpmValueTooLarge
        case xpmColourCountIsZero
        case xpmValuesStringHasFewerThan4Numbers
        case mandatoryFITSKeywordMissingOrOutOfOrder
        case fitsKeywordWithoutAValue
        case fitsSimpleIsFalse
        case fitsValueIsNotAnInteger
        case fitsValueTooLarge
        case bitpixIsNot8_16_32_64OrAFloat
        case naxisOutside0To999
        case moreFITSCardsThanMaxEntries
        case fitsPrimaryWithoutDataAndNoExtension
        case firstFITSExtensionIsNotAnImage
        case fitsImageExtensionWithoutData
        case firstPageInsideTheDirectory
        case pageIsNotAPCX
        case mspChecksumMismatch
        case unknownBLPVersion
        case unknownBLPEncoding
        case alphaBitsIsNot0_1_4Or8
        case unknownPKMVersion
        case unknownPKMDataType
        case extendedSizeDoesNotCoverTheImage
        case unknownASTCBlockFootprint
        case unknownVTFVersion
        case vtfHeaderSizeBelow64
        case iffFormOfNoImageType
        case formHasNoBMHD
        case chunkRunsPastItsFORM
        case bmhdChunkTooShort
        case bodyBeforeBMHD
        case asepriteColourDepthIsNot8_16Or32
        case asepriteFileWithoutFrames
        case inputEndedInsideTheHeader
        case internalRunningParserMissing
        case imageLargerThanMaxWidthOrMaxHeight
        case metadataRequestLimit
        case metadataTransferLimit
        case metadataTimeLimit
        case moreFramesThanMaxEntries
        case unknownGIFBlock
        case moreBlocksThanMaxEntries
        case sttsEntriesOverrunTheirBox
    }
}

extension ScanFailure.Reason {
    /// The message's text.
    @inlinable
    package var message: String {
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
        case .unknownDIBHeaderSize: "unknown DIB header size"
        case .widthIsNotPositive: "width is not positive"
        case .badHeight: "bad height"
        case .ddsMagicDamaged: "DDS magic damaged"
        case .ddsHeaderSizeIsNot124: "DDS header size is not 124"
        case .openEXRMagicDamaged: "OpenEXR magic damaged"
        case .tiledFlagWithDeepOrMultiPart: "tiled flag combined with deep or multi-part flags"
        case .headerHasNoDataWindowAttribute: "header has no dataWindow attribute"
        case .emptyAttributeTypeName: "empty attribute type name"
        case .dataWindowIsNotABox2i: "dataWindow is not a box2i"
        case .negativeAttributeSize: "negative attribute size"
        case .dataWindowSizeIsNot16: "dataWindow size is not 16"
        case .invalidDataWindow: "invalid data window"
        case .openEXRVersionOtherThan2: "OpenEXR version other than 2"
        case .unknownOpenEXRVersionFlags: "unknown OpenEXR version flags"
        case .namesLongerThan64KiBInAll: "names longer than 64 KiB in all"
        case .moreAttributesThanMaxEntries: "more attributes than maxEntries"
        case .moreChannelsThanMaxEntries: "more channels than maxEntries"
        case .attributeNameTooLong: "attribute name too long"
        case .attributeTypeNameTooLong: "attribute type name too long"
        case .notAGIF87aOrGIF89aSignature: "not a GIF87a or GIF89a signature"
        case .logicalScreenSizeIsZero: "logical screen size is zero"
        case .icnsMagicDamaged: "icns magic damaged"
        case .iconFamilyHoldsNoElement: "icon family holds no element"
        case .elementLengthBelow8: "element length below 8"
        case .elementRunsPastTheFamilySLength: "element runs past the family's length"
        case .bytesAfterTheLastElementAreNotAnElement: "bytes after the last element are not an element"
        case .noIconElementOfAKnownType: "no icon element of a known type"
        case .moreElementsThanMaxEntries: "more elements than maxEntries"
        case .directoryEntrySReservedByteIsNot0: "directory entry's reserved byte is not 0"
        case .directoryEntryHasNoImageData: "directory entry has no image data"
        case .imageDataOverlapsTheDirectory: "image data overlaps the directory"
        case .moreDirectoryEntriesThanMaxEntries: "more directory entries than maxEntries"
        case .isobmffFileWithoutAnImageBrand: "ISOBMFF file without an image brand"
        case .ipmaBeforeIpcoAndPitmAfterBoth: "ipma before ipco, and pitm after both"
        case .ftypBoxTooSmall: "ftyp box too small"
        case .boxSmallerThanItsHeader: "box smaller than its header"
        case .bad64BitBoxSize: "bad 64-bit box size"
        case .ipmaEntryOverrunsItsBox: "ipma entry overruns its box"
        case .boxOverrunsItsContainer: "box overruns its container"
        case .metaBoxTooSmall: "meta box too small"
        case .noMetaBoxBeforeTheEndOfTheFile: "no meta box before the end of the file"
        case .boxOverlapsTheOneBefore: "box overlaps the one before"
        case .noPrimaryItemPitm: "no primary item (pitm)"
        case .primaryItemHasNoIspeProperty: "primary item has no ispe property"
        case .ipmaEntriesOverrunTheirBox: "ipma entries overrun their box"
        case .ispeSizeIsZero: "ispe size is zero"
        case .moreBoxesThanMaxEntries: "more boxes than maxEntries"
        case .boxesNestedDeeperThanMaxDepth: "boxes nested deeper than maxDepth"
        case .moreThan32767Properties: "more than 32767 properties"
        case .moreItemsThanTheScannerTracksBeforePitm: "more items than the scanner tracks before pitm"
        case .moreBrandsThanMaxEntries: "more brands than maxEntries"
        case .tooManyAssociationsBeforeIpco: "too many associations before ipco"
        case .moreItemPropertiesThanTheScannerTracks: "more item properties than the scanner tracks"
        case .moreIpmaEntriesThanMaxEntries: "more ipma entries than maxEntries"
        case .internalEXIFReaderMissing: "internal: EXIF reader missing"
        case .segmentLengthBelow2: "segment length below 2"
        case .frameHeaderTooShort: "frame header too short"
        case .frameWidthIsZero: "frame width is zero"
        case .secondSOIMarker: "second SOI marker"
        case .eoiBeforeAnyFrameHeader: "EOI before any frame header"
        case .scanBeforeAnyFrameHeader: "scan before any frame header"
        case .heightDefinedLaterByADNLMarker: "height defined later by a DNL marker"
        case .jpegLSFrame: "JPEG-LS (ITU-T T.87) frame, not a JPEG one"
        case .moreSegmentsThanMaxEntries: "more segments than maxEntries"
        case .jp2cBoxDoesNotStartWithSOC: "jp2c box does not start with SOC"
        case .sizDoesNotFollowSOC: "SIZ does not follow SOC"
        case .sizSegmentTooShort: "SIZ segment too short"
        case .imageOffsetNotBelowTheGridSize: "image offset not below the grid size"
        case .sizLengthDoesNotMatchItsComponentCount: "SIZ length does not match its component count"
        case .boxEndsBeyond2To64: "box ends beyond 2^64"
        case .boxRunsPastJp2h: "box runs past jp2h"
        case .jp2hHasNoIhdr: "jp2h has no ihdr"
        case .ihdrBoxTooShort: "ihdr box too short"
        case .jp2cBoxTooShortForSIZ: "jp2c box too short for SIZ"
        case .boxRunsToEndBeforeJp2h: "box runs to the end of the file before jp2h"
        case .motionJPEG2000KeepsItsHeaderInATrack: "Motion JPEG 2000 keeps its header in a track"
        case .jpmCompoundImagesKeepTheirHeadersInPages: "JPM compound images keep their headers in pages"
        case .signatureBoxDamaged: "signature box damaged"
        case .signatureBoxSizeIsNot12: "signature box size is not 12"
        case .secondBoxIsNotFtyp: "second box is not ftyp"
        case .ftypMajorBrandIsNotJxl: "ftyp major brand is not jxl"
        case .jxlcBoxAfterJxlpBoxes: "jxlc box after jxlp boxes"
        case .emptyJxlcBox: "empty jxlc box"
        case .jxlpBoxTooSmallForItsIndex: "jxlp box too small for its index"
        case .ftypBoxAfterTheSecondBox: "ftyp box after the second box"
        case .boxRunsToEndBeforeCodestream: "box runs to the end of the file before the codestream"
        case .codestreamEndsInsideItsHeader: "codestream ends inside its header"
        case .codestreamSignatureMissing: "codestream signature missing"
        case .ktxIdentifierDamaged: "KTX identifier damaged"
        case .ktxIdentifierOfAnUnknownVersion: "KTX identifier of an unknown version"
        case .ktxEndiannessFieldIsNeitherByteOrder: "KTX endianness field is neither byte order"
        case .onlyOneOfGlTypeAndGlFormatIsZero: "only one of glType and glFormat is zero"
        case .pixelWidthIsZero: "pixelWidth is zero"
        case .bitsPerPixelIsNot1_2_4Or8: "bits per pixel is not 1, 2, 4 or 8"
        case .imageWindowEndsBeforeItStarts: "image window ends before it starts"
        case .pngSignatureDamaged: "PNG signature damaged"
        case .badCgBIChunkLength: "bad CgBI chunk length"
        case .firstChunkIsNotIHDR: "first chunk is not IHDR"
        case .cgBIIsNotFollowedByIHDR: "CgBI is not followed by IHDR"
        case .ihdrLengthIsNot13: "IHDR length is not 13"
        case .ihdrSizeOutOfRange: "IHDR size out of range"
        case .chunkLengthOver2To31: "chunk length over 2^31-1"
        case .moreChunksThanMaxEntries: "more chunks than maxEntries"
        case .xvThumbnailP7332NotPAM: "XV thumbnail (P7 332), not PAM"
        case .headerLongerThan8KiB: "header longer than 8 KiB"
        case .noWhiteSpaceAfterTheMagicNumber: "no white space after the magic number"
        case .expectedADecimalNumber: "expected a decimal number"
        case .numberTooLarge: "number too large"
        case .aNumberMustEndWithWhiteSpace: "a number must end with white space"
        case .pfmScaleIsNotANumber: "PFM scale is not a number"
        case .pfmScaleMustBeANonzeroNumber: "PFM scale must be a nonzero number"
        case .textAfterP7: "text after P7"
        case .pamValueIsNotADecimalNumber: "PAM value is not a decimal number"
        case .moreThanOneValueOnAPAMHeaderLine: "more than one value on a PAM header line"
        case .textAfterENDHDR: "text after ENDHDR"
        case .zeroWidth: "zero width"
        case .zeroHeight: "zero height"
        case .maxvalOutOfRange: "maxval outside 1...65535"
        case .endhdrBeforeWIDTHAndHEIGHT: "ENDHDR before WIDTH and HEIGHT"
        case .unknownPAMHeaderKeyword: "unknown PAM header keyword"
        case .pamHeaderLineWithoutAValue: "PAM header line without a value"
        case .zeroDepth: "zero depth"
        case .notAPhotoshopSignature: "not a Photoshop signature"
        case .channelCountOutOfRange: "channel count outside 1...56"
        case .depthIsNot1_8_16Or32: "depth is not 1, 8, 16 or 32"
        case .unknownColourMode: "unknown colour mode"
        case .unknownPhotoshopFileVersion: "unknown Photoshop file version"
        case .notAQOISignature: "not a QOI signature"
        case .channelsIsNot3Or4: "channels is not 3 or 4"
        case .colourSpaceIsNot0Or1: "colour space is not 0 or 1"
        case .programLineIsNotRadianceOrRGBE: "#? line is not RADIANCE or RGBE"
        case .formatIsNotRGBEOrXYZE: "FORMAT is not 32-bit_rle_rgbe or 32-bit_rle_xyze"
        case .resolutionStringExpected: "resolution string expected, as in -Y 480 +X 640"
        case .resolutionAxisIsNotXOrY: "resolution axis is not X or Y"
        case .resolutionStringNamesOneAxisTwice: "resolution string names one axis twice"
        case .resolutionIsNotADecimalNumber: "resolution is not a decimal number"
        case .resolutionTooLarge: "resolution too large"
        case .zeroResolution: "zero resolution"
        case .resolutionStringHasOneAxis: "resolution string has one axis"
        case .storageIsNot0Or1: "storage is not 0 or 1"
        case .bytesPerChannelIsNot1Or2: "bytes per channel is not 1 or 2"
        case .dimensionIsNot1_2Or3: "dimension is not 1, 2 or 3"
        case .zeroChannels: "zero channels"
        case .notAnXMLDocument: "not an XML document"
        case .xmlRootElementIsNotSvg: "XML root element is not svg"
        case .lessThanInAttributeValue: "< in an attribute value"
        case .entityReferenceInWidthHeightOrViewBox: "entity reference in width, height or viewBox"
        case .zeroWidthOrHeightNothingIsRendered: "zero width or height: nothing is rendered"
        case .noIntrinsicSize: "no intrinsic size: width or height missing or relative, and no viewBox"
        case .svgStartTagLongerThan64KiB: "no end of the svg start tag in the first 64 KiB"
        case .attributeValueWithoutQuotes: "attribute value without quotes"
        case .repeatedAttribute: "repeated attribute"
        case .slashNotFollowedByGreaterThan: "/ not followed by > in the svg start tag"
        case .attributesNotSeparatedByWhiteSpace: "attributes not separated by white space"
        case .unexpectedByteInTheSvgStartTag: "unexpected byte in the svg start tag"
        case .attributeWithoutEquals: "attribute without ="
        case .notASunRasterSignature: "not a Sun raster signature"
        case .depthIsNot1_8_24Or32: "depth is not 1, 8, 24 or 32"
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
        case .byteOrderMarkWithoutTheTIFFMagicNumber: "byte-order mark without the TIFF magic number"
        case .internalDirectoryReaderMissing: "internal: directory reader missing"
        case .badBigTIFFHeader: "bad BigTIFF header"
        case .ifd0LacksImageWidthOrImageLength: "IFD0 lacks ImageWidth or ImageLength"
        case .moreIFDEntriesThanMaxEntries: "more IFD entries than maxEntries"
        case .notARIFFFile: "not a RIFF file"
        case .riffFileIsNotWebP: "RIFF file is not WebP"
        case .firstChunkIsNotVP8VP8LOrVP8X: "first chunk is not VP8, VP8L or VP8X"
        case .vp8DataIsNotAKeyFrame: "VP8 data is not a key frame"
        case .vp8StartCodeMissing: "VP8 start code missing"
        case .vp8lSignatureMissing: "VP8L signature missing"
        case .vp8xChunkTooShort: "VP8X chunk too short"
        case .unknownVP8LVersion: "unknown VP8L version"
        case .noXBMWidthOrHeightInTheFirst8KiB: "no XBM width or height in the first 8 KiB"
        case .notAnXBMDefine: "not an XBM #define"
        case .cSourceWithoutAnXBMWidthOrHeight: "C source without an XBM width or height"
        case .noWidthAndHeightInTheFirst8KiB: "no width and height in the first 8 KiB"
        case .defineWithoutAName: "#define without a name"
        case .defineWithoutAValue: "#define without a value"
        case .widthOrHeightIsNotADecimalNumber: "width or height is not a decimal number"
        case .widthOrHeightTooLarge: "width or height too large"
        case .bitmapDataBeforeWidthAndHeight: "bitmap data before width and height"
        case .boxOrChunkRunsPastTheEndOfTheInput: "box or chunk runs past the end of the input"
        case .postScriptSectionOutsideTheFile: "DOS EPS header puts the PostScript section inside the header"
        case .postScriptSectionIsNotDSC: "DOS EPS PostScript section does not start with %!PS-Adobe-"
        case .noBoundingBoxInTheHeaderComments: "no %%BoundingBox in the EPS header comments"
        case .noBoundingBoxInTheFirst64KiB: "no %%BoundingBox in the first 64 KiB of header comments"
        case .deferredBoundingBoxMissingFromTheTrailer: "%%BoundingBox: (atend), and no box after %%Trailer"
        case .emptyBoundingBox: "empty %%BoundingBox"
        case .noXPMValuesInTheFirst8KiB: "no XPM values string in the first 8 KiB"
        case .stringBeforeTheXPMArray: "a string before the XPM array's {"
        case .xpmArrayDoesNotStartWithTheValues: "XPM array does not start with the values string"
        case .xpmValueIsNotADecimalNumber: "XPM value is not a decimal number"
        case .xpmValueTooLarge: "XPM value too large"
        case .xpmColourCountIsZero: "XPM colour count is zero"
        case .xpmValuesStringHasFewerThan4Numbers: "XPM values string has fewer than 4 numbers"
        case .mandatoryFITSKeywordMissingOrOutOfOrder: "mandatory FITS keyword missing or out of order"
        case .fitsKeywordWithoutAValue: "FITS keyword without a value"
        case .fitsSimpleIsFalse: "SIMPLE = F: the file does not conform to FITS"
        case .fitsValueIsNotAnInteger: "FITS value is not an integer"
        case .fitsValueTooLarge: "FITS value too large"
        case .bitpixIsNot8_16_32_64OrAFloat: "BITPIX is not 8, 16, 32, 64, -32 or -64"
        case .naxisOutside0To999: "NAXIS outside 0...999"
        case .moreFITSCardsThanMaxEntries: "more FITS header cards than maxEntries"
        case .fitsPrimaryWithoutDataAndNoExtension: "FITS primary header without data, and no extension after it"
        case .firstFITSExtensionIsNotAnImage: "first FITS extension is not an IMAGE"
        case .fitsImageExtensionWithoutData: "FITS IMAGE extension without data"
        case .firstPageInsideTheDirectory: "first DCX page offset lies inside the directory"
        case .pageIsNotAPCX: "DCX page is not a PCX"
        case .mspChecksumMismatch: "MSP header checksum does not match"
        case .unknownBLPVersion: "unknown BLP version"
        case .unknownBLPEncoding: "unknown BLP compression or colour encoding"
        case .alphaBitsIsNot0_1_4Or8: "alpha bits is not 0, 1, 4 or 8"
        case .unknownPKMVersion: "unknown PKM version"
        case .unknownPKMDataType: "unknown PKM data type"
        case .extendedSizeDoesNotCoverTheImage: "PKM extended size does not cover the image"
        case .unknownASTCBlockFootprint: "unknown ASTC block footprint"
        case .unknownVTFVersion: "unknown VTF version"
        case .vtfHeaderSizeBelow64: "VTF header size below 64"
        case .iffFormOfNoImageType: "IFF FORM of no image type"
        case .formHasNoBMHD: "IFF FORM has no BMHD"
        case .chunkRunsPastItsFORM: "chunk runs past its FORM"
        case .bmhdChunkTooShort: "BMHD chunk too short"
        case .bodyBeforeBMHD: "BODY before BMHD"
        case .asepriteColourDepthIsNot8_16Or32: "not an Aseprite file: colour depth is not 8, 16 or 32"
        case .asepriteFileWithoutFrames: "Aseprite file without frames"
        case .inputEndedInsideTheHeader: "input ended inside the header"
        case .internalRunningParserMissing: "internal: the running parser is missing"
        case .imageLargerThanMaxWidthOrMaxHeight: "image larger than maxWidth or maxHeight"
        case .metadataRequestLimit: "size known; the metadata search needed more than maxMetadataRequests requests"
        case .metadataTransferLimit: "size known; maxRequests or maxBytes ended the metadata search"
        case .metadataTimeLimit: "size known; a time limit ended the metadata search"
        case .moreFramesThanMaxEntries: "more frames than maxEntries"
        case .unknownGIFBlock: "a block that is not an extension, an image or the trailer"
        case .moreBlocksThanMaxEntries: "more extension blocks than maxEntries"
        case .sttsEntriesOverrunTheirBox: "stts entries overrun their box"
        }
    }
}
