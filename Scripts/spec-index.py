#!/usr/bin/env python3
"""SPEC.md's table of contents, from the headings of spec/*.md.

    python3 Scripts/spec-index.py           # rewrites the list between "## Contents" and "## Files"
    python3 Scripts/spec-index.py --check   # exits 1 when SPEC.md's list is stale (CI)

Every `##` and `###` heading of the part files, in file order (spec/0-… to spec/7-…, the
numbered parts by their first section), linked to its file and GitHub's anchor for it.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "SPEC.md"
PARTS = ROOT / "spec"


def anchor(title):
    """GitHub's anchor: lowercase, punctuation dropped, spaces to hyphens."""
    text = title.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def first_section(path):
    """The file's first section number as a sortable key: §3's intro before §3.1."""
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#{2,3} (\d+)(?:\.(\d+))?", line)
        if match:
            return (int(match.group(1)), int(match.group(2) or 0))
    return (99, 0)


def entries():
    """Every heading in section order. Unnumbered headings ("Identification") stay right after
    the numbered one before them in their file; a part may hold non-adjacent ranges (§3.11–§3.23
    and §3.30–§3.39), so the whole list is ordered by number."""
    keyed = []
    for path in sorted(PARTS.glob("*.md"), key=lambda p: (first_section(p), p.name)):
        fence = False
        key = (first_section(path), 0)
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            match = re.match(r"(#{2,3}) (.+)", line)
            if not match:
                continue
            level, title = len(match.group(1)), match.group(2).strip()
            number = re.match(r"(\d+)(?:\.(\d+))?", title)
            if number:
                key = ((int(number.group(1)), int(number.group(2) or 0)), 0)
            else:
                key = (key[0], key[1] + 1)
            indent = "" if level == 2 else "  "
            keyed.append((key, f"{indent}- [{title}](spec/{path.name}#{anchor(title)})"))
    return [line for _, line in sorted(keyed, key=lambda item: item[0])]


def rewritten(text):
    start = text.index("## Contents\n") + len("## Contents\n")
    end = text.index("## Files\n")
    return text[:start] + "\n" + "\n".join(entries()) + "\n\n" + text[end:]


def main():
    text = SPEC.read_text(encoding="utf-8")
    new = rewritten(text)
    if "--check" in sys.argv:
        if new != text:
            print("SPEC.md's contents are stale: run python3 Scripts/spec-index.py", file=sys.stderr)
            sys.exit(1)
        print("SPEC.md's contents match spec/")
        return
    SPEC.write_text(new, encoding="utf-8")
    print(f"SPEC.md: {len(entries())} entries")


if __name__ == "__main__":
    main()
