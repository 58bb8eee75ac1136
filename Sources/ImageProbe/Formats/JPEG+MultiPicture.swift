#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_JPEG)
/// JPEG's MPF index (CIPA DC-007 "Multi-Picture Format"), for gain maps kept as a second image.
///
/// Apple's HDR JPEGs keep their gain map as the second image of an MPF file: the primary carries
/// neither XMP nor the ISO 21496-1 marker, and the second image's own XMP says what it is
/// (`apdi:AuxiliaryImageType`, `urn:com:apple:photo:2020:aux:hdrgainmap`). So when full mode has
/// seen no gain map in the primary and the MPF index lists a second image of type "Undefined"
/// (gain maps and other auxiliary images; stereo views, thumbnails and panoramas have types of
/// their own), it jumps there after the primary's frame header and reads that image's APP
/// segments, up to its first other marker. The MPF index is a TIFF structure inside APP2: the
/// byte order, 42, the IFD's offset, then entries; MPEntry (0xB002) points at 16-byte entries,
/// the second of which gives the image's attributes, size and offset from the TIFF header.
extension JPEGParser {
    struct MultiPicture: Sendable {
        /// Where the MPF index's TIFF header starts (offsets count from it); 0 before one is read.
        var base: UInt64 = 0
        /// Where the second image starts, when it may be a gain map; 0 for none.
        var secondImage: UInt64 = 0
        /// The offset of the MP entries, from `base`; 0 before MPEntry is found.
        var entries: UInt32 = 0
        var entriesLeft: UInt16 = 0
        var bigEndian = false
        /// The walk has gone on to the second image's segments.
        var inSecondImage = false

        init() {}

        func u16(_ field: FieldBytes, _ index: Int) -> UInt16 { bigEndian ? field.be16(index) : field.le16(index) }

        func u32(_ field: FieldBytes, _ index: Int) -> UInt32 { bigEndian ? field.be32(index) : field.le32(index) }
    }

    /// The first 12 bytes of an MPF APP2 segment at `offset`: "MPF\0", then the TIFF header.
    mutating func startMultiPicture(_ field: FieldBytes, at offset: UInt64) -> Step {
        let position = offset &+ 12
        var index = MultiPicture()
        index.base = offset &+ 4
        switch field.be16(4) {
        case 0x4D4D: index.bigEndian = true
        case 0x4949: index.bigEndian = false
        default: return skipRest(from: position, to: segmentEnd)
        }
        let ifd = UInt64(index.u32(field, 8))
        guard index.u16(field, 6) == 42, ifd >= 8, ifd <= segmentEnd &- index.base, segmentEnd &- (index.base &+ ifd) >= 2 else {
            return skipRest(from: position, to: segmentEnd)
        }
        multiPicture = index
        phase = .mpfCount
        let at = index.base &+ ifd
        return at == position ? .read(2) : .skipThenRead(at &- position, 2)
    }

    /// The MPF index's fields: its entry count, each entry, the second MP entry.
    mutating func readMultiPicture(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        let position = offset &+ field.span
        switch phase {
        case .mpfCount:
            multiPicture.entriesLeft = min(multiPicture.u16(field, 0), UInt16(clamping: options.entryLimit))
            return nextMultiPictureEntry(from: position)
        case .mpfEntry:
            multiPicture.entriesLeft &-= 1
            // MPEntry: UNDEFINED, 16 bytes an image, at an offset from the TIFF header.
            if multiPicture.u16(field, 0) == 0xB002 && multiPicture.u16(field, 2) == 7 && multiPicture.u32(field, 4) >= 32 {
                multiPicture.entries = multiPicture.u32(field, 8)
                let second = multiPicture.base &+ UInt64(multiPicture.entries) &+ 16
                guard second >= position, second <= segmentEnd, segmentEnd &- second >= 16 else {
                    return skipRest(from: position, to: segmentEnd)
                }
                phase = .mpfSecondImage
                return second == position ? .read(16) : .skipThenRead(second &- position, 16)
            }
            return nextMultiPictureEntry(from: position)
        case .mpfSecondImage:
            // Attributes: the image data format in bits 24-26 (0: JPEG), the type in 0-23
            // (0: Undefined); then its size and its offset from the TIFF header.
            let attributes = multiPicture.u32(field, 0)
            let start = UInt64(multiPicture.u32(field, 8))
            if attributes & 0x0700_0000 == 0 && attributes & 0x00FF_FFFF == 0 && start != 0 {
                multiPicture.secondImage = multiPicture.base &+ start
            }
            return skipRest(from: position, to: segmentEnd)
        default:
            return skipRest(from: position, to: segmentEnd)
        }
    }

    /// The next 12-byte IFD entry of the MPF index, or past the segment when they are done.
    mutating func nextMultiPictureEntry(from position: UInt64) -> Step {
        guard multiPicture.entriesLeft > 0, segmentEnd > position, segmentEnd &- position >= 12 else {
            return skipRest(from: position, to: segmentEnd)
        }
        phase = .mpfEntry
        return .read(12)
    }

    /// After the primary's frame header, at `position`: the answer, or on to a second image
    /// that may be the gain map the primary doesn't show (`finishExtras` records an XMP one).
    mutating func afterPrimaryFrameHeader(at position: UInt64) -> Step {
        guard extras.hasGainMap != true, !xmp.hasGainMap, multiPicture.secondImage > position else { return finishExtras() }
        multiPicture.inSecondImage = true
        xmpSeen = false
        phase = .secondImageStart
        return .skipThenRead(multiPicture.secondImage &- position, 2)
    }

    /// Full mode's answer: what wasn't found isn't there. Out of line: inlined into
    /// `markerCode`, it made every marker save and restore two registers.
    @inline(never)
    mutating func finishExtras() -> Step {
        if xmp.hasGainMap { extras.hasGainMap = true }
        if extras.hasGainMap == nil { extras.hasGainMap = false }
        return .done
    }
}
#endif
