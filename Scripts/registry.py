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
MESSAGES = os.path.join(ROOT, "Sources/ImageProbe/Registry/Messages.generated.swift")
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
                      "signature": None if signature == "-" else [int(part, 16) for part in signature.split()],
                      "summary": summary})
    numbers = [row["number"] for row in found]
    if numbers != list(range(1, len(found) + 1)):
        sys.exit("registry.py: format numbers must run 1, 2, 3... in table order")
    if len({row["name"] for row in found}) != len(found):
        sys.exit("registry.py: a format name is listed twice")
    for row in found:
        signature = row["signature"]
        if signature is None:
            continue
        # Two bytes the sniffer's own routes don't take (SPEC.md §3, "Identification"): a second
        # byte of 0 or 1 opens a TGA, and the text bytes an XML root.
        if len(signature) != 2 or not all(0 <= byte <= 255 for byte in signature):
            sys.exit(f"registry.py: {row['name']}'s signature must be two bytes in hex")
        if signature[1] <= 1 or signature[0] in (0x00, 0x3C, 0xEF, 0x20, 0x09, 0x0A, 0x0D):
            sys.exit(f"registry.py: {row['name']}'s signature starts a TGA or text: the sniffer can't route it")
    return found


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


def swift(table):
    out = ["// Generated from formats.tsv by Scripts/registry.py: edit the table and run the script.", ""]
    out.append("extension ImageFormat {")
    out.append("    @usableFromInline")
    out.append("    enum Kind: UInt8, Sendable, CaseIterable {")
    for row in table:
        out.append(f"        case {row['name']} = {row['number']}")
    out.append("    }")
    out.append("")
    for row in table:
        out.append(f"    /// {row['summary']}")
        out.append(f"    public static let {row['name']} = ImageFormat(.{row['name']})")
    out.append("")
    out.append("    /// The lowercase name used in SPEC.md and in the CLI's JSON output. A literal: reading it")
    out.append("    /// allocates nothing.")
    out.append("    public var name: String {")
    out.append("        switch kind {")
    for row in table:
        out.append(f"        case .{row['name']}: \"{row['name']}\"")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The media type to serve this format with (IANA-registered where one exists).")
    out.append("    public var mimeType: String {")
    out.append("        switch kind {")
    for row in table:
        out.append(f"        case .{row['name']}: \"{row['mime']}\"")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// How many formats there are: their numbers are 1 to this.")
    out.append(f"    @usableFromInline static var count: Int {{ {len(table)} }}")
    out.append("")
    out.append("    /// Every format's name, one per line in format-number order: what `nameUTF8` reads for")
    out.append("    /// the C interface, with no String built.")
    out.append("    @usableFromInline")
    out.append("    static var nameTable: StaticString {")
    out.append('        """')
    for row in table:
        out.append(f"        {row['name']}")
    out.append('        """')
    out.append("    }")
    out.append("")
    out.append("    /// Every media type, one per line in format-number order: what `mimeTypeUTF8` reads.")
    out.append("    @usableFromInline")
    out.append("    static var mimeTable: StaticString {")
    out.append('        """')
    for row in table:
        out.append(f"        {row['mime']}")
    out.append('        """')
    out.append("    }")
    out.append("")
    out.append("    #if IMAGEPROBE_SELECT_FORMATS")
    out.append("    /// `mimeTypeUTF8` in a build that leaves formats out: only its own formats' media types,")
    out.append("    /// one literal each, so the others' are not in the build (they are never reported: a")
    out.append("    /// format left out is named, as `detected_format`, but never answered).")
    out.append("    @usableFromInline")
    out.append("    var selectedMimeTypeUTF8: UnsafeRawBufferPointer {")
    out.append("        switch kind {")
    for row in table:
        out.append(f"        #if {flag(row['parser'])}")
        out.append(f"        case .{row['name']}: (\"{row['mime']}\" as StaticString).utf8Bytes")
        out.append("        #endif")
    out.append("        default: UnsafeRawBufferPointer(start: nil, count: 0)")
    out.append("        }")
    out.append("    }")
    out.append("    #endif")
    out.append("")
    out.append("    /// The parser that reads this format.")
    out.append("    @usableFromInline")
    out.append("    var parser: ParserKind {")
    out.append("        switch kind {")
    for row in table:
        out.append(f"        case .{row['name']}: .{case_name(row['parser'])}")
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("/// Every parser, one case each: which one the scanner's slot holds (SPEC.md §1.8).")
    out.append("@usableFromInline")
    out.append("enum ParserKind: UInt8, Sendable, CaseIterable {")
    for name, _ in parsers(table):
        out.append(f"    case {case_name(name)}")
    out.append("")
    out.append("    /// How many there are: their raw values are 0 to this − 1.")
    out.append(f"    @usableFromInline static var count: UInt8 {{ {len(parsers(table))} }}")
    out.append("}")
    out.append("")
    out.append("extension HeaderScanner {")
    out.append("    /// The one dispatch from a parser kind to its parser: `operation` specialised for the")
    out.append("    /// parser's type, a direct call. Parsers left out of the build (`IMAGEPROBE_SELECT_FORMATS`)")
    out.append("    /// go to `operation.unavailable`, all through one case.")
    out.append("    @usableFromInline @_transparent")
    out.append("    mutating func dispatch<Operation: ScannerOperation>(")
    out.append("        _ kind: ParserKind, _ operation: Operation.Type, _ input: inout InputCursor, _ onFrame: (FrameInfo) -> Void")
    out.append("    ) -> Bool {")
    out.append("        switch kind {")
    for name, _ in parsers(table):
        out.append(f"        #if !({excluded(name)})")
        out.append(f"        case .{case_name(name)}: return Operation.apply({name}.self, &self, &input, onFrame)")
        out.append("        #endif")
    out.append("        #if IMAGEPROBE_SELECT_FORMATS")
    out.append("        default: return Operation.unavailable(kind, &self)")
    out.append("        #endif")
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("extension ParserKind {")
    out.append("    /// The first format this parser reads: named when the build leaves the parser out.")
    out.append("    @inlinable")
    out.append("    var primaryFormat: ImageFormat {")
    out.append("        switch self {")
    for name, formats in parsers(table):
        out.append(f"        case .{case_name(name)}: .{formats[0]['name']}")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// `visitor` for this kind's parser type; nil when the build leaves the parser out.")
    out.append("    @inlinable")
    out.append("    func visit<Visitor: ParserVisitor>(_ visitor: Visitor) -> Visitor.Result? {")
    out.append("        switch self {")
    for name, _ in parsers(table):
        out.append(f"        case .{case_name(name)}:")
        out.append(f"            #if {excluded(name)}")
        out.append("            return nil")
        out.append("            #else")
        out.append(f"            return visitor.visit({name}.self)")
        out.append("            #endif")
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("extension Sniffer {")
    out.append("    /// The formats whose first two bytes formats.tsv declares as their signature, for")
    out.append("    /// `laterSignature`; formats the sniffer routes by more than two bytes aren't here.")
    out.append("    @inlinable")
    out.append("    static func registeredSignature(_ first: UInt8, _ second: UInt8) -> ParserKind? {")
    out.append("        switch (first, second) {")
    for row in table:
        if row["signature"]:
            first, second = row["signature"]
            out.append(f"        case (0x{first:02X}, 0x{second:02X}): .{case_name(row['parser'])}  // {row['name']}")
    out.append("        default: nil")
    out.append("        }")
    out.append("    }")
    out.append("}")
    for name, _ in parsers(table):
        out.append("")
        out.append(f"#if !({excluded(name)})")
        out.append(f"extension {name} {{")
        out.append("    @inlinable")
        out.append(f"    static var kind: ParserKind {{ .{case_name(name)} }}")
        out.append("}")
        out.append("#endif")
    return "\n".join(out) + "\n"


def messages(table):
    """The message table: per owner, its messages in raw-value order, one per line."""
    kinds = {name: number for number, (name, _) in enumerate(parsers(table))}
    out = ["// Generated by Scripts/registry.py from the failure enums (CommonFailure and each parser's",
           "// `Failure`): edit the messages there and run the script.", "",
           "extension ScanFailure {",
           "    /// The messages of the reasons `owner` declares (`CommonFailure.owner`, or a parser's",
           "    /// `ParserKind` raw value), one per line in their raw values' order: what `messageUTF8`",
           "    /// reads. A parser the build leaves out has none.",
           "    @usableFromInline",
           "    static func messageTable(owner: UInt8) -> StaticString {",
           "        switch owner {"]
    for enum in enums():
        lines = []
        for name, message, _ in enum["cases"]:
            if message is None or "\\n" in message or "\\(" in message:
                sys.exit(f"registry.py: {enum['path'].name}: {name} needs a message literal of one line")
            lines.append(message)
        if enum["owner"] is None:
            label, number, condition = "CommonFailure", "0xFF", None
        else:
            if enum["owner"] not in kinds:
                sys.exit(f"registry.py: {enum['path'].name}: its owner {enum['owner']} is not a parser of formats.tsv")
            label, number, condition = f"{enum['owner']}.Failure", str(kinds[enum["owner"]]), excluded(enum["owner"])
        if condition:
            out.append(f"        #if !({condition})")
        out.append(f"        case {number}:  // {label}")
        out.append('            """')
        out += [f"            {line}" for line in lines]
        out.append('            """')
        if condition:
            out.append("        #endif")
    out += ["        default:", '            ""', "        }", "    }", "}"]
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
    outputs = {SWIFT: swift(table), HEADER: header(table), MESSAGES: messages(table)}
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
