#if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_EPS)
/// Encapsulated PostScript (Adobe TN 5002, *EPSF Specification* 3.0; TN 5001, *Document
/// Structuring Conventions* 3.0): PostScript text whose header comments give the picture's
/// `%%BoundingBox: llx lly urx ury` in points.
///
/// - The document opens with `%!PS-Adobe-` (the sniffer consumed `%!`). The header comments
///   are the `%` lines that follow; they end at `%%EndComments` or at the first line that does
///   not start with `%`. Empty lines are skipped, and CR, LF and CRLF all end a line.
/// - The first `%%BoundingBox` of four numbers in the header gives the size: urx − llx by
///   ury − lly, each coordinate truncated toward zero first (DSC wants integers; some writers
///   put reals, which Pillow truncates this way). A box whose value is not four numbers is
///   skipped. The answer comes at the byte after ury's last digit, in both modes.
/// - `(atend)` defers the box to the trailer: the scanner reads on to the `%%Trailer` line and
///   takes the first box after it. When the section's end is known (`inputLength`, or a DOS
///   EPS header), it skips to the last 16 KiB first.
/// - A DOS EPS binary header (`C5 D0 D3 C6`) locates the PostScript section (read as above)
///   and a TIFF or Windows Metafile preview, which `ImageInfo.epsPreview` reports. The
///   preview's own size is a thumbnail's, and is not read.
/// - When the section's end is known (a DOS EPS header, or `inputLength`), it ends the last
///   line; reaching it without a box is malformed.
struct EPSParser: FormatParser, Sendable {

    /// Where the text is: a plain enum, the word or number being read in the fields below it
    /// (a payload per case would cost an enum copy per byte).
    enum Phase: UInt8, Sendable {
        /// "PS-Adobe-" (after the sniffed "%!").
        case adobe
        /// The DOS EPS header's bytes 2–29 (after the sniffed `C5 D0`).
        case dosHeader
        /// "%!PS-Adobe-" at the start of a DOS EPS file's PostScript section.
        case dosPostScript
        /// The first byte of a line.
        case lineStart
        /// A comment's keyword, in `word`: the line's first word, up to `:`, a blank or the
        /// line's end.
        case keyword
        /// The rest of a line that says nothing about the size.
        case skipLine
        /// Blanks before the `index`-th coordinate.
        case gap
        /// `(atend)`: `matched` bytes so far.
        case deferred
        /// The `index`-th coordinate, in `coordinate`.
        case coordinate
    }

    /// Which comments the scan is looking for.
    enum Section: UInt8, Sendable {
        /// The header comments.
        case header
        /// After a header that deferred the box: looking for `%%Trailer`.
        case body
        /// After `%%Trailer`: looking for the box.
        case trailer
    }

    /// A coordinate in DSC's integer syntax, or a real (`100.6`), kept as its integer part.
    struct Coordinate: Sendable {
        var negative = false
        var integer = DecimalInteger()
        /// Any byte of it read: a sign may only come first.
        var started = false
        var digits = false
        var fraction = false

        init() {}

        /// The coordinate truncated toward zero.
        var value: Int64 { negative ? -Int64(integer.value) : Int64(integer.value) }
    }

    var phase: Phase
    var word = ShortWord()
    /// Which coordinate of the box (0...3) is being read or waited for.
    var index: UInt8 = 0
    var matched: UInt8 = 0
    var coordinate = Coordinate()
    var section: Section = .header
    var facts = ImageFacts(format: .eps)
    /// llx, lly and urx of the box being read.
    var lowerLeftX: Int64 = 0
    var lowerLeftY: Int64 = 0
    var upperRightX: Int64 = 0
    /// Where the PostScript section starts, and where it ends (nil: unknown).
    var sectionStart: UInt64 = 0
    var sectionEnd: UInt64? = nil
    /// A header said `%%BoundingBox: (atend)`.
    var deferred = false
    /// The preview a DOS EPS header locates.
    var preview: EPSPreview? = nil

    var info: ImageInfo {
        var info = ImageInfo(facts)
        if let preview { info.epsPreview = preview }
        return info
    }

    /// Bytes of header comments read before giving up.
    static let headerBudget: UInt64 = 65536
    /// How much of the section's end is searched for a deferred box, when the end is known.
    static let trailerWindow: UInt64 = 16384

    /// After `%!`, or after `C5 D0` for a DOS EPS binary file.
    init(dos: Bool) {
        phase = dos ? .dosHeader : .adobe
    }

    init(sniffed: Sniffed) { self.init(dos: sniffed.signatureFirst == 0xC5) }  // `C5 D0`, or "%!"

    var firstStep: Step {
        switch phase {
        case .dosHeader: .read(28)
        default: .read(9)
        }
    }

    var format: ImageFormat? {
        switch phase {
        case .adobe, .dosHeader: nil
        default: .eps
        }
    }

    mutating func parse(_ field: FieldBytes, at offset: UInt64, options: ScanOptions) -> Step {
        switch phase {
        case .adobe:
            guard field.matches("PS-Adobe-", at: 0) else { return .failed(Sniffer.unknown) }
            sectionEnd = options.inputLength
            phase = .skipLine
            return .read(1)
        case .dosHeader:
            guard field.u8(0) == 0xD3 && field.u8(1) == 0xC6 else { return .failed(Sniffer.unknown) }
            let start = UInt64(field.le32(2))
            let length = UInt64(field.le32(6))
            // The header is 30 bytes; the section holds at least "%!PS-Adobe-".
            guard start >= 30 && length >= 11 else { return .failed(.malformed(.eps, Failure.postScriptSectionOutsideTheFile)) }
            let end = start &+ length
            guard !options.runsPastInput(end) else { return .failed(.malformed(.eps, .boxOrChunkRunsPastTheEndOfTheInput)) }
            sectionStart = start
            sectionEnd = end
            // "Either the Metafile or the TIFF position and length fields are zero."
            if field.le32(22) != 0 {
                preview = .tiff
            } else if field.le32(14) != 0 {
                preview = .windowsMetafile
            }
            phase = .dosPostScript
            return .skipThenRead(start &- (offset &+ 28), 11)
        case .dosPostScript:
            guard field.matches("%!PS-Adobe-", at: 0) else { return .failed(.malformed(.eps, Failure.postScriptSectionIsNotDSC)) }
            phase = .skipLine
            return .read(1)
        default:
            break
        }
        let step = text(field.u8(0), at: offset, options: options)
        // The section's last byte: its end ends the last line too.
        guard case .read = step, let end = sectionEnd, offset &+ 1 >= end else { return step }
        if phase == .coordinate && index == 3 && coordinate.digits {
            return ended(coordinate.value, index: 3, endOfLine: true, options: options)
        }
        return ended()
    }

    /// One byte of the PostScript text, at `offset`.
    mutating func text(_ byte: UInt8, at offset: UInt64, options: ScanOptions) -> Step {
        if let end = sectionEnd, offset >= end { return ended() }
        if section == .header && offset &- sectionStart >= Self.headerBudget {
            return .failed(.limit(.eps, Failure.noBoundingBoxInTheFirst64KiB))
        }
        let endOfLine = byte == ASCII.newline || byte == ASCII.carriageReturn
        switch phase {
        case .lineStart:
            if endOfLine { break }
            guard byte == 0x25 else {  // "%"
                if section == .header { return headerEnded(at: offset &+ 1, lineEnded: false) }
                phase = .skipLine
                break
            }
            word = ShortWord()
            word.append(byte)
            phase = .keyword
        case .keyword:
            if byte == 0x3A {  // ":"
                index = 0
                phase = section != .body && word.equals("%%BoundingBox") ? .gap : .skipLine
                break
            }
            guard ASCII.isBlank(byte) || endOfLine else {
                word.append(byte)
                break
            }
            phase = endOfLine ? .lineStart : .skipLine
            switch section {
            case .header:
                if word.equals("%%EndComments") { return headerEnded(at: offset &+ 1, lineEnded: endOfLine) }
            case .body:
                if word.equals("%%Trailer") { section = .trailer }
            case .trailer:
                if word.equals("%%EOF") { return .failed(.malformed(.eps, Failure.deferredBoundingBoxMissingFromTheTrailer)) }
            }
        case .skipLine:
            if endOfLine { phase = .lineStart }
        case .gap:
            if ASCII.isBlank(byte) { break }
            if index == 0 && byte == 0x28 {  // "("
                matched = 1
                phase = .deferred
                break
            }
            coordinate = Coordinate()
            phase = .coordinate
            return coordinateByte(byte, endOfLine: endOfLine, options: options)
        case .deferred:
            if byte == ASCII.byte(of: "(atend)", at: Int(matched)) {
                if matched == 6 {
                    // In the trailer a deferral means nothing; in the header it sends the
                    // scan there.
                    if section == .header { deferred = true }
                    phase = .skipLine
                } else {
                    matched &+= 1
                }
            } else {
                phase = endOfLine ? .lineStart : .skipLine
            }
        case .coordinate:
            return coordinateByte(byte, endOfLine: endOfLine, options: options)
        case .adobe, .dosHeader, .dosPostScript:
            break
        }
        return .read(1)
    }

    /// A byte of the `index`-th coordinate. A box that turns out not to be four numbers is
    /// skipped with its line, as Pillow skips it.
    mutating func coordinateByte(_ byte: UInt8, endOfLine: Bool, options: ScanOptions) -> Step {
        if ASCII.isDigit(byte) {
            // The fraction's digits are dropped: the value is truncated toward zero.
            if !coordinate.fraction {
                guard coordinate.integer.append(byte) else { return skipBox(endOfLine: false) }
            }
            coordinate.digits = true
        } else if byte == 0x2E && !coordinate.fraction {  // "."
            coordinate.fraction = true
        } else if (byte == 0x2B || byte == 0x2D) && !coordinate.started {  // "+", "-"
            coordinate.negative = byte == 0x2D
        } else if (ASCII.isBlank(byte) || endOfLine) && coordinate.digits {
            return ended(coordinate.value, index: index, endOfLine: endOfLine, options: options)
        } else {
            return skipBox(endOfLine: endOfLine)
        }
        coordinate.started = true
        return .read(1)
    }

    /// The `index`-th coordinate ended at a blank or the line's end.
    mutating func ended(_ value: Int64, index: UInt8, endOfLine: Bool, options: ScanOptions) -> Step {
        switch index {
        case 0: lowerLeftX = value
        case 1: lowerLeftY = value
        case 2: upperRightX = value
        default:
            let width = upperRightX &- lowerLeftX
            let height = value &- lowerLeftY
            guard width > 0 && height > 0 else { return .failed(.malformed(.eps, Failure.emptyBoundingBox)) }
            guard options.admits(width: UInt64(width), height: UInt64(height)) else { return .failed(.tooLarge(.eps)) }
            facts.storedWidth = UInt32(truncatingIfNeeded: width)  // admitted: 1...2^32 − 1
            facts.storedHeight = UInt32(truncatingIfNeeded: height)
            return .done
        }
        // Fewer than four numbers on the line.
        guard !endOfLine else { return skipBox(endOfLine: true) }
        self.index = index &+ 1
        phase = .gap
        return .read(1)
    }

    mutating func skipBox(endOfLine: Bool) -> Step {
        phase = endOfLine ? .lineStart : .skipLine
        return .read(1)
    }

    /// The header comments ended at `position`, without a box. A deferred box is looked for
    /// after the `%%Trailer` line, near the section's end when that is known.
    mutating func headerEnded(at position: UInt64, lineEnded: Bool) -> Step {
        guard deferred else { return .failed(.malformed(.eps, Failure.noBoundingBoxInTheHeaderComments)) }
        section = .body
        // `position` is the first byte not yet handled: the one ending the header, unless the
        // line already ended with it.
        phase = lineEnded ? .lineStart : .skipLine
        if let end = sectionEnd, end > position, end &- position > Self.trailerWindow &+ 1 {
            // Land one byte before the window: its line ends there or continues into it.
            phase = .skipLine
            return .skipThenRead(end &- Self.trailerWindow &- 1 &- position, 1)
        }
        return .read(1)
    }

    /// The PostScript section ended without an answer.
    func ended() -> Step {
        switch section {
        case .header: .failed(.malformed(.eps, Failure.noBoundingBoxInTheHeaderComments))
        case .body, .trailer: .failed(.malformed(.eps, Failure.deferredBoundingBoxMissingFromTheTrailer))
        }
    }
}

extension EPSParser {
    /// Why EPS input can't be read: each failure with its message (SPEC.md §3).
    enum Failure: UInt8, FailureReason, CaseIterable, Sendable {
        case postScriptSectionOutsideTheFile
        case postScriptSectionIsNotDSC
        case noBoundingBoxInTheHeaderComments
        case noBoundingBoxInTheFirst64KiB
        case deferredBoundingBoxMissingFromTheTrailer
        case emptyBoundingBox

        static var owner: UInt8 { EPSParser.kind.rawValue }

        /// The message, as a literal of either type.
        func spelled<Text: ExpressibleByStringLiteral>() -> Text {
            switch self {
            case .postScriptSectionOutsideTheFile: "DOS EPS header puts the PostScript section inside the header"
            case .postScriptSectionIsNotDSC: "DOS EPS PostScript section does not start with %!PS-Adobe-"
            case .noBoundingBoxInTheHeaderComments: "no %%BoundingBox in the EPS header comments"
            case .noBoundingBoxInTheFirst64KiB: "no %%BoundingBox in the first 64 KiB of header comments"
            case .deferredBoundingBoxMissingFromTheTrailer: "%%BoundingBox: (atend), and no box after %%Trailer"
            case .emptyBoundingBox: "empty %%BoundingBox"
            }
        }
    }
}
#endif
