#!/usr/bin/env python3
"""Finds integer conversions in the core that can trap where `Int` is 32 bits.

`Int(x)` traps when x doesn't fit. On a 64-bit host a UInt32 or Int64 always fits, so the
fuzzer and the tests never see the trap that watchOS (arm64_32), wasm32 and microcontrollers
hit. This reads the type-checked AST of Sources/ImageProbe and Sources/ImageProbeC, compiled
for a 32-bit Embedded target, and lists every trapping conversion (`init(_:)`) into `Int` or
`UInt` from a type that is wider there (UInt32, Int64, UInt64, UInt or Int), and from
floating point. SPEC.md §1.10 says what to use instead: `Int(clamping:)` at the public API,
a check against a limit first, or `Int(truncatingIfNeeded:)` where the value is bounded by
construction.

    Scripts/narrowing.py            # exit 1 and a list when there is one
    Scripts/narrowing.py --self-test # shows that a planted Int(UInt32) is found
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = "armv7em-none-none-eabi"
# Sources wider than a 32-bit Int or UInt (value ranges that don't fit).
WIDER = {
    "Int": {"UInt32", "Int64", "UInt64", "UInt"},
    "UInt": {"Int64", "UInt64", "Int", "Int8", "Int16", "Int32"},
}
FLOATS = {"Double", "Float", "Float16", "Float80"}

CALL = re.compile(r'\(constructor_ref_call_expr type="\((\w+)\) -> (\w+)" location=([^ ]+)')
DECL = re.compile(r'decl="Swift\.\(file\)\.([\w ]+?)\.init\((\w*):?\)')


def sources():
    found = []
    for folder in ("Sources/ImageProbe", "Sources/ImageProbeC"):
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            found += [os.path.join(directory, name) for name in files if name.endswith(".swift")]
    return sorted(found)


def dump(files):
    command = ["swiftc", "-dump-ast", "-target", TARGET, "-enable-experimental-feature", "Embedded",
               "-parse-as-library", "-package-name", "ImageProbe", "-module-name", "ImageProbe",
               "-D", "IMAGEPROBE_C_SINGLE_MODULE",
               "-Xcc", "-fmodule-map-file=" + os.path.join(ROOT, "Sources/CImageProbe/include/module.modulemap"),
               "-I", os.path.join(ROOT, "Sources/CImageProbe/include")] + files
    result = subprocess.run(command, capture_output=True)
    if result.returncode != 0:
        errors = [line for line in result.stderr.decode(errors="replace").splitlines() if "error:" in line]
        sys.stderr.write("\n".join(errors[:20]) + "\n")
        sys.exit("narrowing.py: the core does not type-check for " + TARGET)
    return result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")


def findings(ast):
    lines = ast.splitlines()
    seen = set()
    for index, line in enumerate(lines):
        call = CALL.search(line)
        if not call:
            continue
        source, destination, location = call.groups()
        declaration = DECL.search(lines[index + 1]) if index + 1 < len(lines) else None
        if not declaration or declaration.group(2) != "_":
            continue  # clamping:, truncatingIfNeeded:, bitPattern:, exactly: ... never trap
        narrowing = source in WIDER.get(destination, ()) or (destination in WIDER and source in FLOATS)
        if narrowing and location not in seen:
            seen.add(location)
            yield location, source, destination


def main():
    files = sources()
    if "--self-test" in sys.argv:
        with tempfile.TemporaryDirectory() as scratch:
            planted = os.path.join(scratch, "Planted.swift")
            with open(planted, "w") as out:
                out.write("func planted(_ count: UInt32) -> Int { Int(count) }\n")
            found = list(findings(dump(files + [planted])))
            assert any("Planted.swift" in location for location, _, _ in found), "the planted Int(UInt32) was missed"
            print("narrowing.py self-test: the planted Int(UInt32) is found")
            return
    found = sorted(findings(dump(files)))
    for location, source, destination in found:
        print(f"{os.path.relpath(location, ROOT)}: {destination}({source}) can trap where Int is 32 bits")
    if found:
        sys.exit(f"{len(found)} narrowing conversions (SPEC.md §1.10)")
    print(f"narrowing.py: no trapping conversion to a 32-bit Int in {len(files)} files")


main()
