#!/usr/bin/env python3
"""Checks that every Swift snippet in README.md is quoted from the package in Examples/Consumer,
which CI builds: each ```swift block, with its indentation removed, must appear as consecutive
lines (also with indentation removed) in one of that package's files. A snippet edited in
README alone, or code changed in the package alone, fails the check.

It also runs each sample command of the README on the images Examples/demo.sh writes (a line
`.build/release/imageprobe ... .build/examples/...   # OUTPUT`) and checks that the first line
the command prints is the comment, so the samples say what a newcomer sees.

    Examples/demo.sh && python3 Scripts/check-readme.py
"""
import pathlib
import re
import shlex
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = (root / "README.md").read_text()
sources = {path: [line.strip() for line in path.read_text().splitlines()]
           for path in sorted((root / "Examples" / "Consumer").rglob("*.swift")) if ".build" not in path.parts}

snippets = re.findall(r"^```swift\n(.*?)^```", readme, flags=re.S | re.M)
failures = 0
for number, snippet in enumerate(snippets, 1):
    lines = [line.strip() for line in snippet.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    found = None
    for path, file_lines in sources.items():
        for start in range(len(file_lines) - len(lines) + 1):
            if file_lines[start:start + len(lines)] == lines:
                found = path
                break
        if found:
            break
    if found:
        print("snippet %d (%s...): %s" % (number, lines[0][:40], found.relative_to(root)))
    else:
        failures += 1
        print("snippet %d is not quoted from Examples/Consumer:\n    %s" % (number, "\n    ".join(lines[:6])))
print("%d snippets, %d not found" % (len(snippets), failures))

samples = re.findall(r"^(\.build/release/imageprobe [^#\n]*?\.build/examples/[^#\n]*?)[ \t]+# (.+)$", readme, flags=re.M)
wrong = 0
if not (root / ".build/release/imageprobe").exists() or not (root / ".build/examples").is_dir():
    wrong = len(samples)
    print("the README's %d sample commands need the release build and .build/examples: run Examples/demo.sh" % wrong)
else:
    for command, expected in samples:
        run = subprocess.run(shlex.split(command), cwd=root, capture_output=True, text=True)
        printed = (run.stdout or run.stderr).splitlines()[0] if (run.stdout or run.stderr) else ""
        if printed.strip() != expected.strip():
            wrong += 1
            print("sample differs: %s\n    README:  %s\n    printed: %s" % (command, expected.strip(), printed.strip()))
    print("%d sample commands, %d differ from what they print" % (len(samples), wrong))
sys.exit(1 if failures or not snippets or wrong else 0)
