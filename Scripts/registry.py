#!/usr/bin/env python3
"""Generates the format registry from its table, Sources/ImageProbe/Registry/formats.tsv.

    python3 Scripts/registry.py           # writes the generated files
    python3 Scripts/registry.py --check   # exit 1 if they are not what the table gives (CI)

One row per format in the table. From it come:
- Sources/ImageProbe/Registry/Registry.generated.swift: `ImageFormat.Kind`, its static
  members, names and MIME types; `ParserKind`, one case per parser; the one dispatch over
  parsers (`HeaderScanner.dispatch`, for feed, finish and start, and `ParserKind.visit`, for
  everything else), each arm a direct, specialised call; each parser's `kind`;
- the IMAGEPROBE_FORMAT_* numbers in Sources/CImageProbe/include/imageprobe.h;
- the build-time format selection: with `-D IMAGEPROBE_SELECT_FORMATS`, a parser is compiled
  only with `-D IMAGEPROBE_WITH_<PARSER>` (Scripts/build-c.sh's web build passes the web
  column's), and the scanner answers `unsupportedFeature` for the formats left out.
- the sniffer's table of two-byte signatures (`Sniffer.registeredSignature`), from the
  signature column, for formats whose first two bytes are a signature of their own.
And from the failure enums (CommonFailure and each parser's `Failure`, read by failures.py):
- Sources/ImageProbe/Registry/Messages.generated.swift: every message in one static text per
  owner, which the C interface copies from (`ScanFailure.messageUTF8`) without a String.
Adding a format: its parser file in Sources/ImageProbe/Formats/ and its row in the table (with
its signature, or `-` when Core/Sniffer.swift routes it by more than two bytes), then this
script.
"""
import os
import sys

from failures import enums

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "Sources/ImageProbe/Registry/formats.tsv")
SWIFT = os.path.join(ROOT, "Sources/ImageProbe/Registry/Registry.generated.swift")
HEADER = os.path.join(ROOT, "Sources/CImageProbe/include/imageprobe.h")
BEGIN = "    /* Generated from Sources/ImageProbe/Registry/formats.tsv by Scripts/registry.py. */\n"
END = "    /* End of the generated formats. */\n"


def rows():
    found = []
    for line in open(TABLE, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        number, name, parser, mime, web, signature, summary = line.rstrip("\n").split("\t")
        found.append({"number": int(number), "name": name, "parser": parser, "mime": mime, "web": web == "web",
                      "signature": None if signature == "-" else [route(part, name) for part in signature.split()],
                      "summary": summary})
    numbers = [row["number"] for row in found]
    if numbers != list(range(1, len(found) + 1)):
        sys.exit("registry.py: format numbers must run 1, 2, 3... in table order")
    if len({row["name"] for row in found}) != len(found):
        sys.exit("registry.py: a format name is listed twice")
    for row in found:
        for sig in row["signature"] or []:
            if sig[0] == "box":
                continue
            first, seconds = sig[1], sig[2]
            # The rules of Core/Sniffer.swift look at these first bytes (SPEC.md §3,
            # "Identification"): a second byte of 0 or 1 opens a TGA, the text bytes an XML
            # root, and `00 00`, `0A`, `/*` and `34` their own rules.
            if seconds[0] <= 1 or first in (0x00, 0x3C, 0xEF, 0x20, 0x09, 0x0A, 0x0D, 0x34) or (first, seconds[0]) == (0x2F, 0x2A):
                sys.exit(f"registry.py: {row['name']}'s signature starts bytes the sniffer's own rules read")
    return found


def route(text, name):
    """One signature: `8950` (two bytes), `5031-37` (a range of second bytes), or `box:66747970`
    (an ISOBMFF-style first box of that type, in hex)."""
    try:
        if text.startswith("box:"):
            assert len(text) == 12
            return ("box", int(text[4:], 16))
        first, rest = text[:2], text[2:]
        low, _, high = rest.partition("-")
        assert len(low) == 2 and len(high) in (0, 2)
        return ("bytes", int(first, 16), (int(low, 16), int(high or low, 16)))
    except (AssertionError, ValueError):
        sys.exit(f"registry.py: {name}'s signature {text!r} is not XXYY, XXYY-ZZ or box:TTTTTTTT in hex")


def parsers(table):
    """Parser types in order of first appearance, with the formats each serves."""
    order = []
    for row in table:
        if row["parser"] not in order:
            order.append(row["parser"])
    return [(name, [row for row in table if row["parser"] == name]) for name in order]


def case_name(parser):
    """JPEGParser → jpeg, SunRasterParser → sunRaster, JPEG2000Parser → jpeg2000."""
    stem = parser[: -len("Parser")]
    if stem == "WebP":
        return "webp"
    index = 0
    while index < len(stem) and stem[index].isupper():
        index += 1
    if index > 1 and index < len(stem) and stem[index].islower():
        index -= 1  # "ISOBMFF" stays whole; "SunRaster" → "sun" + "Raster"
    return stem[:index].lower() + stem[index:]


def flag(parser):
    return "IMAGEPROBE_WITH_" + case_name(parser).upper()


# Parsers that call another parser's code, which a build selecting them must keep: a TGA header
# that breaks a TGA rule may be Aseprite's (TGA.swift), and a DCX page is a PCX header.
PARSER_USES = {"TGAParser": ["AsepriteParser"], "DCXParser": ["PCXParser"]}


def excluded(parser):
    return f"IMAGEPROBE_SELECT_FORMATS && !{flag(parser)}"


def fourcc(value):
    text = value.to_bytes(4, "big").decode("latin-1")
    return text if text.isprintable() else f"0x{value:08X}"


def swift(table):
    out = ["// Generated from formats.tsv by Scripts/registry.py: edit the table and run the script.", ""]
    out.append("extension ImageFormat {")
    out.append("    enum Kind: UInt8, Sendable, CaseIterable {")
    for row in table:
        out.append(f"        case {row['name']} = {row['number']}")
    out.append("    }")
    out.append("")
    for row in table:
        out.append(f"    /// {row['summary']}")
        out.append(f"    public static let {row['name']} = ImageFormat(.{row['name']})")
    out.append("")
    out.append("    /// The lowercase name (SPEC.md §3, the CLI's JSON), as a literal of either type.")
    out.append("    package func spelledName<Text: ExpressibleByStringLiteral>() -> Text {")
    out.append("        switch kind {")
    for row in table:
        out.append(f"        case .{row['name']}: \"{row['name']}\"")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The media type, as a literal of either type. A build that leaves formats out")
    out.append("    /// (`IMAGEPROBE_SELECT_FORMATS`) has only its own formats' (a format left out is named,")
    out.append("    /// as `detected_format`, but never answered).")
    out.append("    package func spelledMIMEType<Text: ExpressibleByStringLiteral>() -> Text {")
    out.append("        switch kind {")
    for row in table:
        out.append(f"        #if !({excluded(row['parser'])})")
        out.append(f"        case .{row['name']}: \"{row['mime']}\"")
        out.append("        #endif")
    out.append("        #if IMAGEPROBE_SELECT_FORMATS")
    out.append("        default: \"\"")
    out.append("        #endif")
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("/// Every parser, one case each: which one the scanner's slot holds (SPEC.md §1.8).")
    out.append("@usableFromInline")
    out.append("enum ParserKind: UInt8, Sendable, CaseIterable {")
    for name, _ in parsers(table):
        out.append(f"    case {case_name(name)}")
    out.append("}")
    out.append("")
    out.append("extension ParserKind {")
    out.append("    /// The parser whose format's two-byte signature (formats.tsv) the input starts with:")
    out.append("    /// a switch on the first byte, then on the second.")
    out.append("    static func signature(_ first: UInt8, _ second: UInt8) -> ParserKind? {")
    out.append("        switch first {")
    by_first = {}
    for row in table:
        for sig in row["signature"] or []:
            if sig[0] == "bytes":
                by_first.setdefault(sig[1], []).append((sig[2], row))
    for first in sorted(by_first):
        cases = by_first[first]
        out.append(f"        case 0x{first:02X}:")
        out.append("            switch second {")
        for (low, high), row in sorted(cases, key=lambda c: c[0]):
            second = f"0x{low:02X}" if low == high else f"0x{low:02X}...0x{high:02X}"
            text = bytes([first, low]).decode("latin-1")
            note = f"  // {row['name']}" + (f", \"{text}\"" if text.isprintable() and text.isascii() else "")
            out.append(f"            case {second}: return .{case_name(row['parser'])}{note}")
        out.append("            default: return nil")
        out.append("            }")
    out.append("        default: return nil")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The parser whose format's first box (formats.tsv) has type `type`.")
    out.append("    static func box(type: UInt32) -> ParserKind? {")
    out.append("        switch type {")
    for row in table:
        for sig in row["signature"] or []:
            if sig[0] == "box":
                out.append(f"        case 0x{sig[1]:08X}: .{case_name(row['parser'])}  // \"{fourcc(sig[1])}\"")
    out.append("        default: nil")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The first format this parser reads: named when the build leaves the parser out.")
    out.append("    var primaryFormat: ImageFormat {")
    out.append("        switch self {")
    for name, formats in parsers(table):
        out.append(f"        case .{case_name(name)}: .{formats[0]['name']}")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// `visitor` for this kind's parser type; nil when the build leaves the parser out.")
    out.append("    func visit<Visitor: ParserVisitor>(_ visitor: Visitor) -> Visitor.Result? {")
    out.append("        switch self {")
    for name, _ in parsers(table):
        out.append(f"        #if !({excluded(name)})")
        out.append(f"        case .{case_name(name)}: visitor.visit({name}.self)")
        out.append("        #endif")
    out.append("        #if IMAGEPROBE_SELECT_FORMATS")
    out.append("        default: nil")
    out.append("        #endif")
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("extension HeaderScanner {")
    out.append("    /// Runs the parser of `kind` in the slot over the chunk, compiled for its type")
    out.append("    /// (Core/Engine.swift). Returns how its run ended, nil when the build leaves it out.")
    out.append("    mutating func run(_ kind: ParserKind, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void) -> RunResult? {")
    out.append("        switch kind {")
    for name, _ in parsers(table):
        out.append(f"        #if !({excluded(name)})")
        out.append(f"        case .{case_name(name)}: return run({name}.self, &input, onFrame)")
        out.append("        #endif")
    out.append("        #if IMAGEPROBE_SELECT_FORMATS")
    out.append("        default: return nil")
    out.append("        #endif")
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("extension ParserSlot {")
    out.append("    /// `visitor` on the parser the slot holds, in place, compiled for its type")
    out.append("    /// (Core/Engine.swift).")
    out.append("    mutating func visit<Visitor: SlotVisitor>(_ visitor: Visitor) -> Visitor.Result {")
    out.append("        guard case .parser(let kind) = occupant else { return Visitor.withoutParser }")
    out.append("        switch kind {")
    for name, _ in parsers(table):
        out.append(f"        #if !({excluded(name)})")
        out.append(f"        case .{case_name(name)}: return withParser({name}.self) {{ visitor.visit(&$0) }} ?? Visitor.withoutParser")
        out.append("        #endif")
    out.append("        #if IMAGEPROBE_SELECT_FORMATS")
    out.append("        default: return Visitor.withoutParser")
    out.append("        #endif")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// Puts the parser of `kind` in the slot, started on what the sniffer read; its first")
    out.append("    /// step, or nil when the build leaves the parser out.")
    out.append("    mutating func start(_ kind: ParserKind, _ sniffed: Sniffed) -> Step? {")
    out.append("        switch kind {")
    for name, _ in parsers(table):
        out.append(f"        #if !({excluded(name)})")
        out.append(f"        case .{case_name(name)}: return start({name}(sniffed: sniffed))")
        out.append("        #endif")
    out.append("        #if IMAGEPROBE_SELECT_FORMATS")
    out.append("        default: return nil")
    out.append("        #endif")
    out.append("        }")
    out.append("    }")
    out.append("}")
    for name, _ in parsers(table):
        out.append("")
        out.append(f"#if !({excluded(name)})")
        out.append(f"extension {name} {{")
        out.append(f"    static var kind: ParserKind {{ .{case_name(name)} }}")
        out.append("}")
        out.append("#endif")
    return "\n".join(out) + "\n"


def header(table):
    text = open(HEADER, encoding="utf-8").read()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    body = ["    IMAGEPROBE_FORMAT_NONE = 0,\n"]
    for row in table:
        body.append(f"    IMAGEPROBE_FORMAT_{row['name'].upper()} = {row['number']},\n")
    return text[:start] + "".join(body) + text[end:]


def web_flags(table):
    """The -D flags of the web build, one per line (Scripts/build-c.sh reads them)."""
    return [flag(name) for name, formats in parsers(table) if any(row["web"] for row in formats)]


def main():
    table = rows()
    if "--web-flags" in sys.argv:
        print(" ".join(["-D", "IMAGEPROBE_SELECT_FORMATS"] + [part for f in web_flags(table) for part in ("-D", f)]))
        return
    if "--flags" in sys.argv:
        # `--flags jpeg,png`: the -D flags of a build with those formats' parsers only.
        wanted = set(sys.argv[sys.argv.index("--flags") + 1].split(","))
        names = [name for name, formats in parsers(table) if any(row["name"] in wanted for row in formats)]
        # A parser brings the parsers whose code it calls, before its own flag.
        names = [used for name in names for used in PARSER_USES.get(name, [])] + names
        chosen = list(dict.fromkeys(flag(name) for name in names))
        print(" ".join(["-D", "IMAGEPROBE_SELECT_FORMATS"] + [part for f in chosen for part in ("-D", f)]))
        return
    outputs = {SWIFT: swift(table), HEADER: header(table)}
    if "--check" in sys.argv:
        stale = [os.path.relpath(path, ROOT) for path, text in outputs.items()
                 if not os.path.exists(path) or open(path, encoding="utf-8").read() != text]
        if stale:
            sys.exit("registry.py: out of date, run Scripts/registry.py: " + ", ".join(stale))
        print(f"registry.py: {len(table)} formats, {len(parsers(table))} parsers, generated files current")
        return
    for path, text in outputs.items():
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    print(f"registry.py: {len(table)} formats, {len(parsers(table))} parsers written")


main()
