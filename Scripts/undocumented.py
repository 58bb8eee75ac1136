#!/usr/bin/env python3
"""Lists the public symbols of the given modules that have no documentation comment.

    python3 Scripts/undocumented.py SYMBOL_GRAPH_DIR MODULE...

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public` writes
(MODULE.symbols.json and MODULE@OTHER.symbols.json, the module's extensions to other modules).
Symbols the compiler synthesizes (memberwise conformances, default implementations inherited
from the standard library) are not counted: they have nothing of ours to document. Exits 1 if
any symbol is undocumented.
"""
import glob
import json
import os
import sys


def symbols_of(directory, module):
    paths = [os.path.join(directory, module + ".symbols.json")] + sorted(glob.glob(os.path.join(directory, module + "@*.symbols.json")))
    for path in paths:
        if not os.path.exists(path):
            continue
        graph = json.load(open(path))
        for symbol in graph.get("symbols", []):
            yield symbol


def main():
    directory, modules = sys.argv[1], sys.argv[2:]
    missing = 0
    for module in modules:
        undocumented = []
        total = 0
        for symbol in symbols_of(directory, module):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            location = symbol.get("location", {}).get("uri", "")
            if not location:  # declared outside this package's sources
                continue
            total += 1
            doc = symbol.get("docComment", {}).get("lines", [])
            if not any(line.get("text", "").strip() for line in doc):
                name = ".".join(symbol.get("pathComponents", [])) or symbol["names"]["title"]
                where = "%s:%d" % (os.path.relpath(location.replace("file://", "")), symbol["location"]["position"]["line"] + 1)
                undocumented.append("%s  %s" % (where, name))
        print("%-22s %4d public symbols, %d undocumented" % (module, total, len(undocumented)))
        for line in sorted(undocumented):
            print("    " + line)
        missing += len(undocumented)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
