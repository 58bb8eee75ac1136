#!/usr/bin/env python3
"""How many gzipped bytes each function of a WebAssembly module is worth: the module is linked
with its names from Scripts/build-c.sh's object, passed through the JavaScript package's
wasm-opt passes, then each function's body in turn is replaced by `unreachable` and the module
compressed again (zlib level 9, as gzip -9). Names are demangled with `swift demangle`.

    Scripts/build-c.sh wasm-web && Scripts/wasm-weights.py imageprobe-web [--top N]
    Scripts/build-c.sh wasm && Scripts/wasm-weights.py imageprobe

Needs wasm-ld (the Swift toolchain's) and binaryen's wasm-opt. Prints: gzipped bytes, raw
bytes, function.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# bindings/js/build.mjs's passes, with -g so that the names stay.
PASSES = ["--low-memory-unused", "-Oz", "--strip-debug", "--strip-producers", "--flatten", "--rereloop", "-Oz",
          "--flatten", "--rereloop", "-Oz", "--precompute-propagate", "-Oz", "--converge"]
FEATURES = ["--enable-bulk-memory", "--enable-sign-ext", "--enable-nontrapping-float-to-int", "--enable-mutable-globals"]


def leb(data, index):
    value, shift = 0, 0
    while True:
        byte = data[index]
        index += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, index


def encode(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def link(name, directory):
    """The module NAME, linked as build-c.sh links it but with its names, then optimised."""
    wasm = os.path.join(ROOT, ".build", "wasm")
    header = open(os.path.join(ROOT, "Sources/CImageProbe/include/imageprobe.h"), encoding="utf-8").read()
    exports = sorted(set(re.findall(r"^[a-z0-9_]+ \*?(imageprobe_[a-z_]+)\(", header, re.M)))
    linker = os.path.join(os.path.dirname(shutil.which("swiftc")), "wasm-ld")
    linked, optimised = os.path.join(directory, "linked.wasm"), os.path.join(directory, "optimised.wasm")
    subprocess.run([linker, "--no-entry", "--gc-sections", *[f"--export={e}" for e in exports], "--export=__heap_base",
                    "--export-memory", "--initial-memory=1048576", "-o", linked, os.path.join(wasm, f"{name}.o"),
                    os.path.join(wasm, "support.o"), os.path.join(wasm, "layout.o")], check=True)
    subprocess.run(["wasm-opt", "-g", *PASSES, *FEATURES, linked, "-o", optimised], check=True)
    return open(optimised, "rb").read()


def sections(data):
    """The module without its custom sections, as (before the code, function bodies, after),
    and the function names by index."""
    index, imported, names = 8, 0, {}
    before, after, bodies = b"", b"", None
    while index < len(data):
        start, kind = index, data[index]
        size, index = leb(data, index + 1)
        end = index + size
        if kind == 2:  # imports: function imports shift the indices
            count, at = leb(data, index)
            for _ in range(count):
                for _ in range(2):
                    length, at = leb(data, at)
                    at += length
                what = data[at]
                at += 1
                if what == 0:
                    _, at = leb(data, at)
                    imported += 1
                elif what == 1:
                    at += 1
                    flags, at = leb(data, at)
                    _, at = leb(data, at)
                    if flags & 1:
                        _, at = leb(data, at)
                elif what == 2:
                    flags, at = leb(data, at)
                    _, at = leb(data, at)
                    if flags & 1:
                        _, at = leb(data, at)
                else:
                    at += 2
        if kind == 0:
            length, at = leb(data, index)
            if data[at:at + length] == b"name":
                at += length
                while at < end:
                    sub = data[at]
                    subsize, at = leb(data, at + 1)
                    if sub == 1:
                        count, cursor = leb(data, at)
                        for _ in range(count):
                            function, cursor = leb(data, cursor)
                            length, cursor = leb(data, cursor)
                            names[function - imported] = data[cursor:cursor + length].decode()
                            cursor += length
                    at += subsize
        elif kind == 10:
            count, at = leb(data, index)
            bodies = []
            for _ in range(count):
                length, at = leb(data, at)
                bodies.append(data[at:at + length])
                at += length
        elif bodies is None:
            before += data[start:end]
        else:
            after += data[start:end]
        index = end
    return before, bodies, after, names


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 60
    with tempfile.TemporaryDirectory() as directory:
        data = link(sys.argv[1], directory)
    before, bodies, after, names = sections(data)

    def module(functions):
        code = encode(len(functions)) + b"".join(encode(len(body)) + body for body in functions)
        return before + b"\x0a" + encode(len(code)) + code + after

    whole = len(zlib.compress(module(bodies), 9))
    weights = []
    for index, body in enumerate(bodies):
        trial = list(bodies)
        trial[index] = b"\x00\x00\x0b"  # no locals, unreachable, end
        weights.append((whole - len(zlib.compress(module(trial), 9)), len(body), names.get(index, f"function {index}")))
    weights.sort(reverse=True)
    shown = weights[:top]
    demangled = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(n for *_, n in shown),
                               capture_output=True, text=True).stdout.split("\n")
    # The simplified names drop the type a generic is specialised for: add it back.
    full = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(n for *_, n in shown),
                          capture_output=True, text=True).stdout.split("\n")
    for index, text in enumerate(full[:len(demangled)]):
        specialised = re.search(r"generic specialization <ImageProbe\.(\w+)>", text)
        if specialised:
            demangled[index] += f" <{specialised.group(1)}>"
    print(f"{len(module(bodies))} bytes, {whole} compressed, {len(bodies)} functions")
    for (gzipped, raw, _), name in zip(shown, demangled):
        print(f"{gzipped:6} {raw:6}  {name[:150]}")


main()
