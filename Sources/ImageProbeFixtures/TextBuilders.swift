// Byte builders for the text-headed formats: Netpbm (PNM, PAM, PFM), Radiance HDR, XBM and
// SVG. Each returns the file and where the answers end, so tests derive their expectations
// from the parameters.

/// A built file and its two answer points.
public struct TextImage: Sendable {
    public var bytes: [UInt8]
    /// `bytesConsumed` in dimensions-only mode: just past the byte that ends the size.
    public var sizeEnd: Int
    /// `bytesConsumed` in full mode.
    public var headerEnd: Int

    public init(bytes: [UInt8], sizeEnd: Int, headerEnd: Int) {
        self.bytes = bytes
        self.sizeEnd = sizeEnd
        self.headerEnd = headerEnd
    }
}

/// Netpbm files: P1–P6, PAM (P7) and PFM.
public enum PNMBuilder {
    /// `P<magic>`, then each of `tokens` after the gap before it, then `end` and `raster`.
    /// `gaps[i]` precedes `tokens[i]` (white space and comments; the first follows the magic).
    /// The size ends at the byte after the second token; the header at the byte after the last.
    public static func netpbm(magic: String, tokens: [String], gaps: [String], end: String = "\n", raster: [UInt8] = []) -> TextImage {
        precondition(tokens.count == gaps.count && tokens.count >= 2)
        var bytes = ascii("P" + magic)
        var sizeEnd = 0
        for (index, token) in tokens.enumerated() {
            bytes += ascii(gaps[index]) + ascii(token)
            if index == 1 { sizeEnd = bytes.count + 1 }
        }
        let headerEnd = bytes.count + 1
        bytes += ascii(end) + raster
        return TextImage(bytes: bytes, sizeEnd: sizeEnd, headerEnd: headerEnd)
    }

    /// A P1–P6 file with the usual layout: the magic, width and height on one line, maxval on
    /// the next (not for P1 and P4), an optional comment line, and a little raster.
    public static func image(magic: Int, width: Int, height: Int, maxval: Int = 255, comment: String? = nil) -> TextImage {
        precondition((1...6).contains(magic))
        let bitmap = magic == 1 || magic == 4
        let first = comment.map { "\n# \($0)\n" } ?? "\n"
        var tokens = ["\(width)", "\(height)"]
        var gaps = [first, " "]
        if !bitmap {
            tokens.append("\(maxval)")
            gaps.append("\n")
        }
        var raster: [UInt8] = []
        if magic <= 3 {
            raster = ascii("0 1 0 1\n")
        } else {
            raster.appendFiller(12)
        }
        return netpbm(magic: "\(magic)", tokens: tokens, gaps: gaps, raster: raster)
    }

    /// Bits needed for `maxval`: what full mode reports as the bit depth.
    public static func bits(for maxval: Int) -> Int {
        Int.bitWidth - maxval.leadingZeroBitCount
    }

    /// A PFM file: `PF` (colour) or `Pf` (grey), the size, the scale, and a little raster.
    public static func floatMap(grey: Bool, width: Int, height: Int, scale: String = "-1.0", separator: String = "\n") -> TextImage {
        netpbm(magic: grey ? "f" : "F", tokens: ["\(width)", "\(height)", scale], gaps: ["\n", " ", separator],
               raster: [0, 0, 0x80, 0x3F, 0, 0, 0, 0x40])
    }

    /// One PAM header line.
    public enum PAMLine: Sendable {
        case width(Int), height(Int), depth(Int), maxval(Int), tupleType(String), comment(String), raw(String)

        var text: String {
            switch self {
            case .width(let value): "WIDTH \(value)"
            case .height(let value): "HEIGHT \(value)"
            case .depth(let value): "DEPTH \(value)"
            case .maxval(let value): "MAXVAL \(value)"
            case .tupleType(let value): "TUPLTYPE \(value)"
            case .comment(let text): "#\(text)"
            case .raw(let text): text
            }
        }

        var isSize: Bool {
            switch self {
            case .width, .height: true
            case .depth, .maxval, .tupleType, .comment, .raw: false
            }
        }
    }

    /// A PAM file: `P7`, the lines, `ENDHDR`, and a little raster. The size ends after the
    /// line that completes WIDTH and HEIGHT (the byte after its number); the header after
    /// ENDHDR's newline.
    public static func pam(_ lines: [PAMLine], newline: String = "\n") -> TextImage {
        var bytes = ascii("P7" + newline)
        var sizeLines = 0
        var sizeEnd = 0
        for line in lines {
            bytes += ascii(line.text)
            if line.isSize {
                sizeLines += 1
                if sizeLines == 2 { sizeEnd = bytes.count + 1 }
            }
            bytes += ascii(newline)
        }
        bytes += ascii("ENDHDR\n")
        let headerEnd = bytes.count
        bytes.appendFiller(8)
        return TextImage(bytes: bytes, sizeEnd: sizeEnd, headerEnd: headerEnd)
    }

    /// The PAM lines real writers produce.
    public static func pamLines(width: Int, height: Int, depth: Int = 4, maxval: Int = 255, tupleType: String = "RGB_ALPHA") -> [PAMLine] {
        [.width(width), .height(height), .depth(depth), .maxval(maxval), .tupleType(tupleType)]
    }
}

/// Radiance RGBE pictures.
public enum RadianceBuilder {
    /// `#?<program>`, the header lines, an empty line, the resolution string
    /// `<first> <firstCount> <second> <secondCount>` and a few pixels. Both answers come at
    /// the byte after the second number.
    public static func image(
        program: String = "RADIANCE", header: [String] = ["FORMAT=32-bit_rle_rgbe", "EXPOSURE=1.0"],
        first: String = "-Y", firstCount: String, second: String = "+X", secondCount: String,
        separator: String = " ", newline: String = "\n"
    ) -> TextImage {
        var bytes = ascii("#?" + program + newline)
        for line in header { bytes += ascii(line + newline) }
        bytes += ascii(newline)
        bytes += ascii(first + separator + firstCount + separator + second + separator + secondCount)
        let end = bytes.count + 1
        bytes += ascii("\n") + [2, 2, 0, 8, 0x80, 0x80, 0x80, 0x81]
        return TextImage(bytes: bytes, sizeEnd: end, headerEnd: end)
    }

    /// The standard `-Y height +X width` picture.
    public static func image(width: Int, height: Int, header: [String] = ["FORMAT=32-bit_rle_rgbe", "EXPOSURE=1.0"]) -> TextImage {
        image(header: header, firstCount: "\(height)", secondCount: "\(width)")
    }
}

/// X BitMaps.
public enum XBMBuilder {
    /// `preamble` (say, a comment), `#define <name>_width`, `#define <name>_height` (or the other way round), optional hot
    /// spot lines, `extra` lines, and the bits. Both answers come at the byte after the second
    /// dimension's number.
    public static func image(
        name: String = "test", width: String, height: String, heightFirst: Bool = false,
        hotSpot: (Int, Int)? = nil, between: [String] = [], separator: String = " ", preamble: String = ""
    ) -> TextImage {
        var bytes = ascii(preamble)
        var lines = [("\(name)_width", width), ("\(name)_height", height)]
        if heightFirst { lines.reverse() }
        bytes += ascii("#define" + separator + lines[0].0 + separator + lines[0].1 + "\n")
        for line in between { bytes += ascii(line + "\n") }
        if let hotSpot {
            bytes += ascii("#define \(name)_x_hot \(hotSpot.0)\n#define \(name)_y_hot \(hotSpot.1)\n")
        }
        bytes += ascii("#define" + separator + lines[1].0 + separator + lines[1].1)
        let end = bytes.count + 1
        bytes += ascii("\nstatic unsigned char \(name)_bits[] = {\n   0x13, 0x00, 0x15, 0x00 };\n")
        return TextImage(bytes: bytes, sizeEnd: end, headerEnd: end)
    }

    public static func image(width: Int, height: Int, heightFirst: Bool = false, hotSpot: (Int, Int)? = nil) -> TextImage {
        image(width: "\(width)", height: "\(height)", heightFirst: heightFirst, hotSpot: hotSpot)
    }
}

/// SVG documents.
public enum SVGBuilder {
    /// A built document and where each root attribute ends.
    public struct Document: Sendable {
        public var bytes: [UInt8]
        /// Just past each attribute's closing quote, in order.
        public var attributeEnds: [Int]
        /// Just past the `>` of the root's start tag: the full-mode answer.
        public var tagEnd: Int
    }

    /// `prolog`, then `<rootName` with each attribute as `name="value"` (in `quote`s), `>`
    /// (or `/>` when `empty`), and a body.
    public static func document(
        prolog: String = "", rootName: String = "svg", attributes: [(String, String)],
        quote: String = "\"", separator: String = " ", empty: Bool = false
    ) -> Document {
        var bytes = ascii(prolog + "<" + rootName)
        var ends: [Int] = []
        for (name, value) in attributes {
            bytes += ascii(separator + name + "=" + quote + value + quote)
            ends.append(bytes.count)
        }
        bytes += ascii(empty ? "/>" : ">")
        let tagEnd = bytes.count
        if !empty { bytes += ascii("\n  <rect width=\"10\" height=\"10\" stroke-width=\"3\"/>\n</\(rootName)>\n") }
        return Document(bytes: bytes, attributeEnds: ends, tagEnd: tagEnd)
    }

    /// The SVG namespace declaration, which every real root carries first.
    public static let namespace = ("xmlns", "http://www.w3.org/2000/svg")

    /// An XML declaration, a comment and a DOCTYPE, as Inkscape and Illustrator write them.
    public static let fullProlog = """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <!-- Created with a tool: <svg width="1" height="1"> in a comment is not the root -->
        <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">

        """

    /// A DOCTYPE with an internal subset whose entities, comment and processing instruction
    /// hold `>`, `]`, quotes and a fake root.
    public static let subsetProlog = """
        <!DOCTYPE svg [
          <!ENTITY ns_svg "http://www.w3.org/2000/svg">
          <!ENTITY tricky '<svg width="9"> ] "'>
          <!-- a comment with ] and > and ' -->
          <?pi with ] and "quote ?>
        ]>
        """
}
