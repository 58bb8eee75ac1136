// Byte builders for EPS (and DOS EPS), XPM and FITS. Each returns the file and where its
// answers end, computed from the parameters, so tests never copy a constant off a built file.

/// Encapsulated PostScript documents and DOS EPS binary files.
public enum EPSBuilder {
    /// A small PostScript body: a filled rectangle.
    public static let body = ["%%Page: 1 1", "newpath 0 0 moveto 10 0 lineto 10 10 lineto closepath fill", "showpage"]

    /// `lines`, each followed by `lineEnd`. The size answer ends at the byte after the first
    /// line equal to `answer` (a `%%BoundingBox` line); nil when no line is.
    public static func document(_ lines: [String], lineEnd: String = "\n", answer: String? = nil) -> TextImage {
        var bytes: [UInt8] = []
        var end = 0
        for line in lines {
            if end == 0, let answer, line == answer { end = bytes.count + answer.utf8.count + 1 }
            bytes += ascii(line + lineEnd)
        }
        return TextImage(bytes: bytes, sizeEnd: end, headerEnd: end)
    }

    /// The usual layout: the version line, a creator, the box, `%%EndComments`, the body and
    /// `%%EOF`. `box` is the `%%BoundingBox` value; the answer is that line.
    public static func document(box: String, creator: String = "%%Creator: ImageProbeFixtures", lineEnd: String = "\n") -> TextImage {
        let boxLine = "%%BoundingBox: " + box
        return document(["%!PS-Adobe-3.0 EPSF-3.0", creator, boxLine, "%%EndComments"] + body + ["%%EOF"],
                        lineEnd: lineEnd, answer: boxLine)
    }

    /// A box deferred with `(atend)` to the trailer, after `bodyLines` copies of the body's
    /// drawing line.
    public static func deferred(box: String, bodyLines: Int = 1) -> TextImage {
        let boxLine = "%%BoundingBox: " + box
        let drawing = [String](repeating: body[1], count: bodyLines)
        return document(["%!PS-Adobe-3.0 EPSF-3.0", "%%BoundingBox: (atend)", "%%EndComments", body[0]] + drawing
                        + ["showpage", "%%Trailer", boxLine, "%%EOF"], answer: boxLine)
    }

    /// What a DOS EPS file's header says beside the PostScript.
    public enum Preview: Sendable {
        case none, tiff, windowsMetafile
    }

    /// A DOS EPS binary file: the 30-byte header, `postScript` at byte 30, then `previewBytes`
    /// of a preview (filler). Returns the file and where the PostScript starts.
    public static func dos(postScript: [UInt8], preview: Preview = .tiff, previewBytes: Int = 64) -> (bytes: [UInt8], postScriptStart: Int) {
        let start = 30
        let previewStart = start + postScript.count
        var bytes: [UInt8] = [0xC5, 0xD0, 0xD3, 0xC6]
        bytes.append32(start, .littleEndian)
        bytes.append32(postScript.count, .littleEndian)
        let metafile = preview == .windowsMetafile
        let tiff = preview == .tiff
        bytes.append32(metafile ? previewStart : 0, .littleEndian)
        bytes.append32(metafile ? previewBytes : 0, .littleEndian)
        bytes.append32(tiff ? previewStart : 0, .littleEndian)
        bytes.append32(tiff ? previewBytes : 0, .littleEndian)
        bytes.append16(0xFFFF, .littleEndian)  // checksum: ignore
        bytes += postScript
        if preview != .none {
            if tiff { bytes += ascii("II*\0") }
            bytes.appendFiller(previewBytes - (tiff ? 4 : 0))
        }
        return (bytes, start)
    }
}

/// X PixMap files.
public enum XPMBuilder {
    /// An XPM3 file: `/* XPM */`, `declaration`, `beforeValues` (say, a comment), then the
    /// values string `"w h colours cpp…"` with `separator` between the numbers and `extra`
    /// after them, a colour line per colour and one pixel row per line. The size ends at the
    /// byte after the height; the full header after the characters per pixel.
    public static func xpm3(
        width: Int, height: Int, colours: Int = 2, charsPerPixel: Int = 1, declaration: String = "static char * test_xpm[] = {\n",
        beforeValues: String = "", separator: String = " ", extra: String = ""
    ) -> TextImage {
        var bytes = ascii("/* XPM */\n" + declaration + beforeValues + "\"")
        let numbers = ["\(width)", "\(height)", "\(colours)", "\(charsPerPixel)"]
        var sizeEnd = 0
        var headerEnd = 0
        for (index, number) in numbers.enumerated() {
            if index > 0 { bytes += ascii(separator) }
            bytes += ascii(number)
            if index == 1 { sizeEnd = bytes.count + 1 }
            if index == 3 { headerEnd = bytes.count + 1 }
        }
        bytes += ascii(extra + "\",\n")
        func key(_ index: Int) -> String {
            String(repeating: String(UnicodeScalar(UInt8(0x61 + index % 26))), count: charsPerPixel)
        }
        for index in 0..<min(colours, 4) { bytes += ascii("\"\(key(index)) c #\(index % 2 == 0 ? "000000" : "FFFFFF")\",\n") }
        bytes += ascii("\"" + String(repeating: key(0), count: min(width, 8)) + "\"\n};\n")
        return TextImage(bytes: bytes, sizeEnd: sizeEnd, headerEnd: headerEnd)
    }

    /// An XPM2 file: `! XPM2`, then the values line and the colours, unquoted.
    public static func xpm2(width: Int, height: Int, lineEnd: String = "\n") -> TextImage {
        var bytes = ascii("! XPM2" + lineEnd + "\(width) \(height)")
        let sizeEnd = bytes.count + 1
        bytes += ascii(" 2 1")
        let headerEnd = bytes.count + 1
        bytes += ascii(lineEnd + "a c #000000" + lineEnd + "b c None" + lineEnd + "abab" + lineEnd)
        return TextImage(bytes: bytes, sizeEnd: sizeEnd, headerEnd: headerEnd)
    }
}

/// FITS files: 80-byte cards in 2,880-byte blocks.
public enum FITSBuilder {
    /// `text` cut or padded with blanks to `length` characters.
    static func padded(_ text: String, _ length: Int) -> String {
        String(text.prefix(length)) + String(repeating: " ", count: max(0, length - text.count))
    }

    public static let cardLength = 80
    public static let blockLength = 2880

    /// One card: the keyword padded to 8 columns, `= ` and the value in the fixed format
    /// (numbers and logicals right-justified in columns 11–30, strings from column 11), or
    /// written right after `= ` when `free`, then an optional ` / comment`, padded with blanks.
    public static func card(_ keyword: String, _ value: String, free: Bool = false, comment: String? = nil) -> [UInt8] {
        var text = padded(keyword, 8) + "= "
        text += free || value.hasPrefix("'") ? value : String(repeating: " ", count: max(0, 20 - value.count)) + value
        if let comment { text += " / " + comment }
        return ascii(padded(text, cardLength))
    }

    /// A card without a value (`END`, `COMMENT …`).
    public static func keywordCard(_ text: String) -> [UInt8] {
        ascii(padded(text, cardLength))
    }

    /// A header: the cards, `END`, padded to a whole block.
    public static func header(_ cards: [[UInt8]]) -> [UInt8] {
        var bytes = cards.flatMap { $0 } + keywordCard("END")
        while bytes.count % blockLength != 0 { bytes.append(0x20) }
        return bytes
    }

    /// The mandatory cards of a primary header.
    public static func primaryCards(bitpix: Int, axes: [Int], free: Bool = false) -> [[UInt8]] {
        var cards = [card("SIMPLE", "T", free: free), card("BITPIX", "\(bitpix)", free: free), card("NAXIS", "\(axes.count)", free: free)]
        for (index, length) in axes.enumerated() { cards.append(card("NAXIS\(index + 1)", "\(length)", free: free)) }
        return cards
    }

    /// A primary image with `extraCards` after the mandatory ones and `dataBytes` of data.
    /// The size ends at the byte after the last digit of NAXIS2 (NAXIS1 with one axis).
    public static func image(bitpix: Int = 16, axes: [Int], free: Bool = false, extraCards: [[UInt8]] = [], dataBytes: Int = 64) -> TextImage {
        let cards = primaryCards(bitpix: bitpix, axes: axes, free: free)
        var bytes = header(cards + [card("EXTEND", "T")] + extraCards)
        let sizeCard = min(axes.count, 2) + 2
        let end = valueEnd(in: bytes, card: sizeCard)
        bytes.appendFiller(dataBytes)
        while bytes.count % blockLength != 0 { bytes.append(0) }
        return TextImage(bytes: bytes, sizeEnd: end, headerEnd: end)
    }

    /// A primary header without data (`NAXIS = 0`) and an `xtension` extension with the image.
    public static func withExtension(_ xtension: String = "IMAGE", bitpix: Int = 16, axes: [Int], primaryCards extra: Int = 3) -> TextImage {
        var primary = primaryCards(bitpix: 8, axes: [])
        primary.append(card("EXTEND", "T"))
        for index in 0..<extra { primary.append(card("KEY\(index)", "\(index)")) }
        var bytes = header(primary)
        let extensionStart = bytes.count
        var cards = [card("XTENSION", "'\(padded(xtension, 8))'"),
                     card("BITPIX", "\(bitpix)"), card("NAXIS", "\(axes.count)")]
        for (index, length) in axes.enumerated() { cards.append(card("NAXIS\(index + 1)", "\(length)")) }
        cards += [card("PCOUNT", "0"), card("GCOUNT", "1")]
        bytes += header(cards)
        let end = valueEnd(in: bytes, card: extensionStart / cardLength + min(axes.count, 2) + 2)
        bytes.appendFiller(64)
        return TextImage(bytes: bytes, sizeEnd: end, headerEnd: end)
    }

    /// Just past the byte that ends the integer value of card `index`.
    public static func valueEnd(in bytes: [UInt8], card index: Int) -> Int {
        let start = index * cardLength
        var position = start + 10
        while bytes[position] == 0x20 { position += 1 }
        if bytes[position] == 0x2B || bytes[position] == 0x2D { position += 1 }
        while position < start + cardLength && (0x30...0x39).contains(bytes[position]) { position += 1 }
        // The byte after the last digit ends the number; a digit in column 80 ends it itself.
        return min(position + 1, start + cardLength)
    }
}
