#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
/// JPEG (ITU-T T.81): walks marker segments from SOI to the first frame header (SOFn).
///
/// Segment payloads are skipped by their length, never scanned for marker bytes (an EXIF
/// thumbnail holds its own SOF). Fill bytes (0xFF) and stray bytes between segments are
/// tolerated the way libjpeg's `next_marker` does. In full mode the first Exif APP1 segment's
/// IFD0 is read for the orientation; later Exif segments are ignored. Full mode also reads the
/// openings of APP0 (JFIF density) and APP2 (an ICC profile's chunks, the ISO 21496-1 gain-map
/// marker, the MPF index), all of which come before the frame header. When the MPF index lists a
/// second image that may be a gain map and the primary shows none, full mode goes on to that
/// image's own segments (JPEG+MultiPicture.swift).
struct JPEGParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// Two bytes, normally 0xFF and a marker code.
        case marker
        /// One byte after an 0xFF: a marker code, or another fill byte.
        case markerCode
        /// One byte at a time after stray bytes, until the next 0xFF.
        case resync
        /// The two-byte length of the segment that `marker` opens.
        case segmentLength
        /// Length, precision, height and width of the frame header that `marker` opens.
        case frameHeader
        /// An APP1 payload that may be the first Exif block, read by `exif`.
        case exif
        /// The opening of an APP0 or APP2 payload: its identifier and what follows it.
        case applicationHead
        /// An APP1 payload's first eight bytes: "Exif\0\0" and the byte order, or the start of
        /// XMP's namespace identifier.
        case app1Head
        /// The rest of XMP's identifier, "s.adobe.com/xap/1.0/\0".
        case xmpIdentifier
        /// A run of the XMP packet, for `xmp`.
        case xmp
        /// The rest of the ISO 21496-1 URN, after "urn:iso:std:".
        case gainMapIdentifierRest
        /// The MPF index (CIPA DC-007): its entry count, its entries, the second MP entry.
        case mpfCount, mpfEntry, mpfSecondImage
        /// The second image's SOI, where the MPF index puts it.
        case secondImageStart
    }

    var exif = ExifReader()
    var facts = ImageFacts(format: .jpeg)
    var extras = ExtraFacts()
    /// Where the APP segment whose head is being read ends.
    var segmentEnd: UInt64 = 0
    /// The XMP packet's properties: gain maps and motion photos.
    var xmp = XMPMatcher()
    var xmpSeen = false
    var phase: Phase = .marker
    /// The marker whose segment or frame header is being read.
    var marker: UInt8 = 0

    var exifSeen = false
    var segments = 0
    /// The MPF index: where its TIFF header starts (offsets count from it), its byte order,
    /// the entries left to read, and where the MP entries are.
    var multiPicture = MultiPicture()

    /// After SOI (which the sniffer consumed): the first marker.
    @inline(__always)
    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(2) }

    @inline(__always)
    init() {}

    var format: ImageFormat? { .jpeg }

    /// The size comes at SOF; full mode may go on to an MPF second image after it.
    func infoAtEndOfInput() -> ImageInfo? { multiPicture.inSecondImage ? info : nil }

    var info: ImageInfo { ImageInfo(facts, extras) }

    /// APP2's identifiers (ICC.1:2022 B.4; ISO/TS 21496-1 uses a URN), and APP0's (JFIF 1.02).
    static let iccIdentifier: StaticString = "ICC_PROFILE\0"
    static let gainMapIdentifierStart: StaticString = "urn:iso:std:"
    static let gainMapIdentifierRest: StaticString = "iso:ts:21496:-1\0"
    static let jfifIdentifier: StaticString = "JFIF\0"
    /// APP1's identifiers: Exif's, and XMP's (XMP Part 3 §1.1.3) in two parts.
    static let exifIdentifier: StaticString = "Exif\0\0"
    static let xmpIdentifierStart: StaticString = "http://n"
    static let xmpIdentifierRest: StaticString = "s.adobe.com/xap/1.0/\0"
    /// APP2's MPF identifier (CIPA DC-007 §5.2).
    static let mpfIdentifier: StaticString = "MPF\0"

    @inline(__always)
    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .marker:
            let first = field.u8(0)
            let second = field.u8(1)
            if first == 0xFF { return markerCode(second, options: options) }
            // Stray bytes before a marker: libjpeg skips them with a warning.
            phase = second == 0xFF ? .markerCode : .resync
            return .read(1)
        case .markerCode:
            return markerCode(field.u8(0), options: options)
        case .resync:
            if field.u8(0) == 0xFF { phase = .markerCode }
            return .read(1)
        case .segmentLength:
            let length = field.be16(0)
            guard length >= 2 else {
                // libjpeg-turbo reads COM and APPn through skip_variable and
                // get_interesting_appn, which take a length below 2 as no payload at all.
                guard marker == 0xFE || marker & 0xF0 == 0xE0 else {
                    return .failed(.malformed(.jpeg, Failure.segmentLengthBelow2))
                }
                phase = .marker
                return .read(2)
            }
            let payload = UInt64(length &- 2)
            let payloadStart = offset &+ 2
            // The APP segments whose head is read: in the primary (full mode only), APP1 while
            // Exif or XMP is still unseen (Exif's identifier and byte order, or the start of
            // XMP's identifier), APP0 and APP2 (JFIF's identifier, version, units and
            // densities; APP2's identifiers); in an MPF second image, whose own segments
            // matter only for their XMP and their gain-map marker, APP1 while XMP is unseen
            // and APP2. One tail for all of them.
            let second = multiPicture.inSecondImage
            if second || !options.dimensionsOnly {
                var head = 0
                if marker == 0xE1 {
                    if payload >= 14 && (!xmpSeen || (!second && !exifSeen)) { head = 8 }
                } else if marker == 0xE2 || (marker == 0xE0 && !second) {
                    if payload >= (second ? 28 : 12) { head = 12 }
                }
                if head != 0 {
                    segmentEnd = payloadStart &+ payload
                    phase = head == 8 ? .app1Head : .applicationHead
                    return .read(head)
                }
            }
            phase = .marker
            return payload == 0 ? .read(2) : .skipThenRead(payload, 2)
        case .app1Head:
            let position = offset &+ 8
            if !exifSeen && !multiPicture.inSecondImage && field.matches(Self.exifIdentifier, at: 0) {
                // The reader's first field is these eight bytes.
                exif = ExifReader(start: offset, end: segmentEnd, requiresIdentifier: true)
                phase = .exif
                return readExif(field, at: offset, options: options)
            }
            if !xmpSeen && field.matches(Self.xmpIdentifierStart, at: 0) && segmentEnd &- position >= 21 {
                phase = .xmpIdentifier
                return .read(21)
            }
            return skipRest(from: position, to: segmentEnd)
        case .xmpIdentifier:
            let position = offset &+ 21
            guard field.matches(Self.xmpIdentifierRest, at: 0) else { return skipRest(from: position, to: segmentEnd) }
            xmpSeen = true
            return nextXMPRun(from: position)
        case .xmp:
            xmp.consume(field)
            return nextXMPRun(from: offset &+ field.span)
        case .applicationHead:
            if marker == 0xE0 {
                // The first JFIF segment's density: units 1 dots per inch, 2 per centimetre,
                // 0 an aspect ratio only.
                if field.matches(Self.jfifIdentifier, at: 0) && extras.dpiX == 0 {
                    let units = field.u8(7)
                    let micrometres: UInt64 = units == 1 ? 25_400 : units == 2 ? 10_000 : 0
                    if micrometres != 0 {
                        extras.setResolution(
                            x: (UInt32(field.be16(8)), 1), y: (UInt32(field.be16(10)), 1), perMicrometres: micrometres)
                    }
                }
            } else if field.matches(Self.gainMapIdentifierStart, at: 0) && segmentEnd &- (offset &+ 12) >= 16 {
                phase = .gainMapIdentifierRest
                return .read(16)
            } else if multiPicture.inSecondImage {
                // Nothing else of the second image's APP2 matters.
            } else if field.matches(Self.iccIdentifier, at: 0) {
                extras.hasICCProfile = true
            } else if field.matches(Self.mpfIdentifier, at: 0) && multiPicture.base == 0 {
                return startMultiPicture(field, at: offset)
            }
            return skipRest(from: offset &+ field.span, to: segmentEnd)
        case .gainMapIdentifierRest:
            if field.matches(Self.gainMapIdentifierRest, at: 0) { extras.hasGainMap = true }
            return skipRest(from: offset &+ 16, to: segmentEnd)
        case .mpfCount, .mpfEntry, .mpfSecondImage:
            return readMultiPicture(field, at: offset, options: options)
        case .secondImageStart:
            guard field.u8(0) == 0xFF && field.u8(1) == 0xD8 else { return finishExtras() }
            phase = .marker
            return .read(2)
        case .frameHeader:
            // Lf (2), P (1), Y (2), X (2); Lf covers at least one 3-byte component spec.
            guard field.be16(0) >= 11 else { return .failed(.malformed(.jpeg, Failure.frameHeaderTooShort)) }
            let height = field.be16(3)
            let width = field.be16(5)
            guard height != 0 else {
                return .failed(.unsupported(.jpeg, Failure.heightDefinedLaterByADNLMarker))
            }
            guard width != 0 else { return .failed(.malformed(.jpeg, Failure.frameWidthIsZero)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.jpeg)) }
            facts.width = Int(width)
            facts.height = Int(height)
            facts.bitDepth = Int(field.u8(2))
            // SOF2, SOF6, SOF10 and SOF14 are the progressive processes.
            facts.isProgressive = marker & 0x03 == 0x02
            if options.dimensionsOnly { return .done }
            // Every APP segment came before the frame header: what wasn't seen isn't there.
            if extras.hasICCProfile == nil { extras.hasICCProfile = false }
            extras.isMotionPhoto = xmp.motionPhoto ?? false
            return afterPrimaryFrameHeader(at: offset &+ field.span)
        case .exif:
            return readExif(field, at: offset, options: options)
        }
    }

    /// A field of the Exif block, for `exif`.
    mutating func readExif(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch exif.parse(field, at: offset, options: options) {
        case .step(let step):
            return step
        case .finished:
            // Only the first Exif segment counts, even when it proves unreadable. Its resolution
            // wins over JFIF's density, as exiftool ranks them (SPEC.md §3.1).
            if exif.sawIdentifier {
                exifSeen = true
                facts.orientation = exif.orientation
                let exifFacts = exif.facts
                if exifFacts.dpiX != 0 { extras.takeResolution(of: exifFacts) }
            }
            return skipRest(from: offset &+ field.span, to: exif.end)
        }
    }

    /// The next run of the XMP packet, up to 64 bytes, or past the segment once it is read.
    mutating func nextXMPRun(from position: UInt64) -> Step {
        guard position < segmentEnd else { return skipRest(from: position, to: segmentEnd) }
        phase = .xmp
        return .read(Int(truncatingIfNeeded: min(segmentEnd &- position, 64)))
    }

    mutating func markerCode(_ code: UInt8, options: ScanOptions) -> Step {
        // An MPF second image's segments end at its first marker that isn't a table or an APP
        // segment (SOI, EOI, SOS, a frame header): checked in those cases only, off the path
        // every segment takes.
        switch code {
        case 0xFF:  // fill byte
            phase = .markerCode
            return .read(1)
        case 0x00:  // a stuffed zero is not a marker: keep looking
            phase = .resync
            return .read(1)
        case 0xD8:
            if multiPicture.inSecondImage { return finishExtras() }
            return .failed(.malformed(.jpeg, Failure.secondSOIMarker))
        case 0xD9:
            if multiPicture.inSecondImage { return finishExtras() }
            return .failed(.malformed(.jpeg, Failure.eoiBeforeAnyFrameHeader))
        case 0xDA:
            if multiPicture.inSecondImage { return finishExtras() }
            return .failed(.malformed(.jpeg, Failure.scanBeforeAnyFrameHeader))
        case 0xF7:  // SOF55: a JPEG-LS file shares JPEG's markers but is another codec
            return .failed(.unsupported(.jpeg, Failure.jpegLSFrame))
        case 0x01, 0xD0...0xD7:  // TEM, RSTn: no length
            phase = .marker
            return .read(2)
        default:
            segments &+= 1
            guard segments <= options.maxEntries else {
                return .failed(.limit(.jpeg, Failure.moreSegmentsThanMaxEntries))
            }
            // SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if code >= 0xC0 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC {
                if multiPicture.inSecondImage { return finishExtras() }
                phase = .frameHeader
                marker = code
                return .read(7)
            }
            phase = .segmentLength
            marker = code
            return .read(2)
        }
    }

    mutating func skipRest(from position: UInt64, to payloadEnd: UInt64) -> Step {
        phase = .marker
        return position >= payloadEnd ? .read(2) : .skipThenRead(payloadEnd &- position, 2)
    }
}

extension JPEGParser {
    /// Why JPEG input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case segmentLengthBelow2
        case frameHeaderTooShort
        case frameWidthIsZero
        case secondSOIMarker
        case eoiBeforeAnyFrameHeader
        case scanBeforeAnyFrameHeader
        case heightDefinedLaterByADNLMarker
        case jpegLSFrame
        case moreSegmentsThanMaxEntries

        static var owner: UInt8 { JPEGParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .segmentLengthBelow2: "segment length below 2"
            case .frameHeaderTooShort: "frame header too short"
            case .frameWidthIsZero: "frame width is zero"
            case .secondSOIMarker: "second SOI marker"
            case .eoiBeforeAnyFrameHeader: "EOI before any frame header"
            case .scanBeforeAnyFrameHeader: "scan before any frame header"
            case .heightDefinedLaterByADNLMarker: "height defined later by a DNL marker"
            case .jpegLSFrame: "JPEG-LS (ITU-T T.87) frame, not a JPEG one"
            case .moreSegmentsThanMaxEntries: "more segments than maxEntries"
            }
        }
    }
}
#endif
