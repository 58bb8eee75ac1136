#!/usr/bin/env python3
"""File names are bytes (SPEC.md §4): the command opens each name as the file system holds it,
and every output mode shows it unambiguously.

    python3 Tests/cli/names.py .build/debug/imageprobe

Makes a directory of images with hostile names (a comma before a combining mark, CR LF,
bytes that aren't UTF-8, escape sequences, C1 controls, the Unicode line separator), then runs
the command on them, as arguments and through -r, in text, --json, --csv and --format output,
and parses every output back with Python's json and csv modules. Exit 1 on any failure.
"""
import csv
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

COMMAND = sys.argv[1]


def png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 4)) + chunk(b"IEND", b""))


GIF = b"GIF89a" + struct.pack("<HH", 9, 9) + b"\x00\x00\x00;"

# name (bytes) -> width of the PNG written under it; the height is always 7.
NAMES = {
    "a,\u0301b.png".encode(): 11,            # a comma followed by a combining mark
    b"crlf\r\n.png": 12,                      # CR LF: one Character, two bytes
    b"x\xff.png": 13,                         # not UTF-8
    b"lone\xc3.png": 14,                      # a truncated sequence
    "esc\x1b[31mred.png".encode(): 15,        # an escape sequence
    "nel\u0085.png".encode(): 16,             # C1: next line
    "csi\u009b2J.png".encode(): 17,           # C1: control sequence introducer
    "ls\u2028.png".encode(): 18,              # the Unicode line separator
    'quote"d.png'.encode(): 19,
    "back\\slash.png".encode(): 20,
    "tab\t.png".encode(): 21,
}
DECOY = "x\ufffd.png".encode()  # what a lossy decoding of b"x\xff.png" would open

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(arguments):
    return subprocess.run([COMMAND] + arguments, capture_output=True)


def has_raw_controls(text_bytes):
    """Control bytes other than the line feeds that end lines, C1 controls and U+2028/9."""
    for byte in text_bytes:
        if (byte < 0x20 and byte != 0x0A) or byte == 0x7F:
            return True
    decoded = text_bytes.decode("utf-8", errors="replace")
    return any(0x80 <= ord(c) < 0xA0 or c in "\u2028\u2029" for c in decoded)


with tempfile.TemporaryDirectory() as folder:
    root = folder.encode() + b"/tree"
    os.mkdir(root)
    paths = []
    for name, width in sorted(NAMES.items()):
        path = root + b"/" + name
        with open(path, "wb") as out:
            out.write(png(width, 7))
        paths.append(path)
    pair = folder.encode() + b"/pair"
    os.mkdir(pair)
    with open(pair + b"/x\xff.png", "wb") as out:
        out.write(png(13, 7))
    with open(pair + b"/" + DECOY, "wb") as out:
        out.write(GIF)

    # The argument that isn't UTF-8 opens itself, not the decoy its lossy decoding names.
    single = run(["--json", pair + b"/x\xff.png"])
    record = json.loads(single.stdout)
    check(single.returncode == 0 and record.get("format") == "png" and record.get("width") == 13,
          f"x\\xff.png as an argument: {single.stdout!r}")
    check(record.get("pathBytes", "").endswith("/x%FF.png"), f"pathBytes: {record!r}")

    for how, arguments in (("arguments", paths), ("-r", ["-r", root])):
        # JSON: one object per line, each name's bytes given back.
        result = run(["--json", "--images-only"] + arguments)
        lines = result.stdout.decode("utf-8").splitlines()
        records = [json.loads(line) for line in lines]
        pngs = [r for r in records if r.get("format") == "png"]
        check(len(pngs) == len(NAMES), f"{how} json: {len(pngs)} PNG records for {len(NAMES)} files")
        for r in pngs:
            name = r["path"].encode("utf-8")
            if "pathBytes" in r:
                from urllib.parse import unquote_to_bytes
                name = unquote_to_bytes(r["pathBytes"])
            width = NAMES.get(name.rsplit(b"/", 1)[-1])
            check(width == r["width"], f"{how} json: {r['path']!r} is {r['width']} wide, expected {width}")

        # CSV: one header and one record per file, each with every column.
        result = run(["--csv", "--images-only"] + arguments)
        rows = list(csv.reader(io.StringIO(result.stdout.decode("utf-8"), newline="")))
        check(len(rows) == 1 + len(NAMES), f"{how} csv: {len(rows)} rows")
        check(len({len(row) for row in rows}) == 1, f"{how} csv: column counts {sorted({len(row) for row in rows})}")
        header = rows[0]
        for row in rows[1:]:
            fields = dict(zip(header, row))
            name = fields["path"].encode("utf-8")
            if fields["pathBytes"]:
                from urllib.parse import unquote_to_bytes
                name = unquote_to_bytes(fields["pathBytes"])
            width = NAMES.get(name.rsplit(b"/", 1)[-1])
            check(str(width) == fields["width"], f"{how} csv: {fields['path']!r} width {fields['width']}, expected {width}")

        # Text and --format: one line per file, no raw control reaches the terminal.
        for style in (["--images-only"], ["--format", "%f %w\\n"]):
            result = run(style + arguments)
            out = result.stdout
            lines = out.split(b"\n")[:-1]
            check(len(lines) == len(NAMES), f"{how} {style[0]}: {len(lines)} lines for {len(NAMES)} files: {out!r}")
            check(not has_raw_controls(out), f"{how} {style[0]}: raw control characters in {out!r}")

        # %F and --raw-names print names as they are.
        raw = run(["--format", "%F\\n"] + arguments).stdout
        check(b"\x1b[31m" in raw, f"{how} %F keeps the name as it is")

if failures:
    print("\n".join("FAIL " + f for f in failures))
    sys.exit(1)
print(f"names: {len(NAMES)} hostile names, as arguments and through -r, in text, json, csv and --format: ok")
