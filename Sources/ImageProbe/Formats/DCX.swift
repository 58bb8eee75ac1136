#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_DCX)
/// DCX, multi-page PCX (the DCA/Intel *Communicating Applications Specification*, with the
/// ZSoft *PCX Technical Reference Manual* for the pages): the ID 987654321 (`B1 68 DE 3A`),
/// then a directory of 32-bit little-endian page offsets ended by 0 (at most 1024 entries with
/// the 0), then the pages, each a PCX file.
///
/// The size is the first page's PCX window. Dimensions-only mode skips from byte 8 to the
/// first page (a seeking reader jumps the directory) and answers at its byte 12. Full mode
/// first reads the directory up to its 0 for the page count (`frameCount`); a directory
/// without its 0 before the first page, or longer than 1023 pages or `maxEntries`, costs the
/// count, never the image, so both modes agree on every file's validity.
struct DCXParser: FormatParser, Sendable {

    enum Phase: Sendable {
        /// ID bytes 2–3 (after the sniffed `B1 68`) and the first page's offset.
        case signature
        /// Directory entries after the first (full mode).
        case directory
        /// The first page's manufacturer, version, encoding, bits per pixel and window.
        case page
    }

    var phase: Phase = .signature
    var facts = ImageFacts(format: .dcx)
    /// Offset of the first page, which ends the directory.
    var firstPage: UInt64 = 0
    /// Pages counted so far (full mode).
    var pages: UInt32 = 0

    /// The most pages a directory lists: 1024 entries, the last of them the 0.
    static let maximumPages: UInt32 = 1023

    init() {}

    init(sniffed: Sniffed) { self.init() }

    var firstStep: Step { .read(6) }

    var format: ImageFormat? {
        switch phase {
        case .signature: nil
        case .directory, .page: .dcx
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        let position = offset &+ field.span
        switch phase {
        case .signature:
            guard field.u8(0) == 0xDE && field.u8(1) == 0x3A else { return .failed(Sniffer.unknown) }
            firstPage = UInt64(field.le32(2))
            // The ID, one entry and the 0 come before any page.
            guard firstPage >= 12 else { return .failed(.malformed(.dcx, Failure.firstPageInsideTheDirectory)) }
            guard !options.runsPastInput(firstPage &+ 12) else {
                return .failed(.malformed(.dcx, .boxOrChunkRunsPastTheEndOfTheInput))
            }
            if options.dimensionsOnly { return pageStep(from: position) }
            pages = 1
            phase = .directory
            return directoryStep(from: position)
        case .directory:
            var index = 0
            while index < field.count {
                if field.le32(index) == 0 {
                    facts.storedFrameCount = pages
                    return pageStep(from: position)
                }
                pages &+= 1
                guard pages <= Self.maximumPages && pages <= options.entryLimit else { return pageStep(from: position) }
                index &+= 4
            }
            return directoryStep(from: position)
        case .page:
            guard field.u8(0) == 0x0A else { return .failed(.malformed(.dcx, Failure.pageIsNotAPCX)) }
            switch field.u8(1) {
            case 0, 2, 3, 4, 5: break
            default: return .failed(.malformed(.dcx, Failure.pageIsNotAPCX))
            }
            switch PCXParser.window(field, at: 3, format: .dcx, options: options) {
            case .failed(let failure):
                return .failed(failure)
            case .size(let width, let height, let bitsPerPixel):
                facts.storedWidth = width
                facts.storedHeight = height
                facts.bitDepth = bitsPerPixel
                return .done
            }
        }
    }

    /// The next directory entries, up to 16 at a time and never into the first page. With no
    /// room left for an entry, the directory has no 0: the page count stays unknown.
    mutating func directoryStep(from position: UInt64) -> Step {
        let room = firstPage &- position
        guard position < firstPage && room >= 4 else { return pageStep(from: position) }
        return .read(Int(truncatingIfNeeded: min(room, 64) & ~3))  // 4...64
    }

    /// Skips to the first page's header.
    mutating func pageStep(from position: UInt64) -> Step {
        phase = .page
        return position >= firstPage ? .read(12) : .skipThenRead(firstPage &- position, 12)
    }
}

extension DCXParser {
    /// Why DCX input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case firstPageInsideTheDirectory
        case pageIsNotAPCX

        static var owner: UInt8 { DCXParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .firstPageInsideTheDirectory: "first DCX page offset lies inside the directory"
            case .pageIsNotAPCX: "DCX page is not a PCX"
            }
        }
    }
}
#endif
