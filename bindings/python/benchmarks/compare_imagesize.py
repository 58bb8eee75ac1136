"""ImageProbe's Python package against imagesize_py 2.x (PyPI `imagesize`) on a corpus with
ground truth (shared/corpus: manifest.jsonl, files/), in one run: accuracy, and probes per
second through probe_file (one thread, warm page cache, best of several rounds).

    pip install pyimageprobe imagesize==2.*
    python bindings/python/benchmarks/compare_imagesize.py ../shared/corpus [--write bindings/python/BENCHMARKS.md]

Accuracy, per file of the manifest:
- an `ok` file is sized right when (width, height) is the stored size (imagesize:
  get(path, exif_rotation=False); ImageProbe: probe_file's width and height);
- an `error` file (broken on purpose) is handled right when no size comes back (imagesize:
  (-1, -1); ImageProbe: a Failure);
- orientation, for JPEG, PNG, WebP and TIFF files (whose manifest value is the file's EXIF
  orientation): ImageProbe's `orientation`, imagesize's get_info(...).rotation (-1: none).
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import imagesize

import imageprobe
import imageprobe.compat


def load(corpus: Path) -> List[Dict[str, Any]]:
    rows = [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines() if line.strip()]
    for row in rows:
        row["path"] = str(corpus / row["file"])
    return rows


def ours(path: str) -> Tuple[int, int, int | None, bool]:
    info = imageprobe.probe_file(path)
    if not info.ok:
        return -1, -1, None, False
    return info.width, info.height, info.orientation, True


def theirs(path: str) -> Tuple[int, int, int | None, bool]:
    width, height = imagesize.get(path, exif_rotation=False)
    try:
        rotation = imagesize.get_info(path, dpi=False, colors=False, channels=False).rotation
    except Exception:  # get_info raises where get answers (-1, -1)
        rotation = -1
    return width, height, (None if rotation == -1 else rotation), (width, height) != (-1, -1)


def accuracy(rows: List[Dict[str, Any]], probe: Callable[[str], Tuple[int, int, int | None, bool]]) -> Dict[str, Any]:
    by_format: Dict[str, List[int]] = collections.defaultdict(lambda: [0, 0])
    sized = rejected = oriented = orientation_files = 0
    for row in rows:
        width, height, orientation, answered = probe(row["path"])
        if row["expect"] == "ok":
            right = (width, height) == (row["width"], row["height"])
            sized += right
            by_format[row["format"]][0] += 1
            by_format[row["format"]][1] += right
            if row["format"] in ("jpeg", "png", "webp", "tiff"):
                orientation_files += 1
                oriented += orientation == row["orientation"]
        else:
            rejected += not answered
    return {"sized": sized, "rejected": rejected, "oriented": oriented, "orientation_files": orientation_files,
            "by_format": dict(by_format)}


def speed(paths: List[str], probe: Callable[[str], Any], rounds: int) -> float:
    """Probes per second, the best of `rounds` passes over every file."""
    for path in paths:  # warm the page cache
        probe(path)
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for path in paths:
            probe(path)
        best = min(best, time.perf_counter() - started)
    return len(paths) / best


def quiet(function: Callable[[str], Any]) -> Callable[[str], Any]:
    def call(path: str) -> Any:
        try:
            return function(path)
        except Exception:
            return None
    return call


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="a folder with manifest.jsonl and files/ (../shared/corpus)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--write", type=Path, help="write the tables to this Markdown file")
    options = parser.parse_args()
    rows = load(options.corpus)
    paths = [row["path"] for row in rows]
    ok = sum(row["expect"] == "ok" for row in rows)
    broken = len(rows) - ok

    mine, other = accuracy(rows, ours), accuracy(rows, theirs)
    speeds = {
        "imageprobe.probe_file(path)": speed(paths, imageprobe.probe_file, options.rounds),
        'imageprobe.probe_file(path, mode="dimensions_only")':
            speed(paths, lambda path: imageprobe.probe_file(path, mode="dimensions_only"), options.rounds),
        "imageprobe.compat.get(path)": speed(paths, imageprobe.compat.get, options.rounds),
        "imagesize.get(path)": speed(paths, imagesize.get, options.rounds),
        "imagesize.get(path, exif_rotation=False)":
            speed(paths, lambda path: imagesize.get(path, exif_rotation=False), options.rounds),
        "imagesize.get_info(path)": speed(paths, quiet(imagesize.get_info), options.rounds),
    }

    def percent(part: int, whole: int) -> str:
        return f"{part} / {whole} ({100 * part / whole:.1f} %)" if whole else "-"

    lines = [
        f"| | ImageProbe {imageprobe.__version__} (`probe_file`) | imagesize_py {imagesize.__version__} |",
        "|---|---:|---:|",
        f"| `ok` files sized right (stored width and height) | {percent(mine['sized'], ok)} | {percent(other['sized'], ok)} |",
        f"| broken files refused (`error`) | {percent(mine['rejected'], broken)} | {percent(other['rejected'], broken)} |",
        f"| EXIF orientation right (JPEG, PNG, WebP, TIFF) | {percent(mine['oriented'], mine['orientation_files'])} | "
        f"{percent(other['oriented'], other['orientation_files'])} |",
        "",
        "| format | `ok` files | ImageProbe sized right | imagesize_py sized right |",
        "|---|---:|---:|---:|",
    ]
    for name in sorted(mine["by_format"], key=lambda name: (-mine["by_format"][name][0], name)):
        count, right = mine["by_format"][name]
        lines.append(f"| {name} | {count} | {right} | {other['by_format'][name][1]} |")
    lines += ["", "| call | probes per second | µs per file |", "|---|---:|---:|"]
    for name, rate in speeds.items():
        lines.append(f"| `{name}` | {rate:,.0f} | {1e6 / rate:.1f} |")
    table = "\n".join(lines)
    print(table)

    if options.write:
        command = ("python bindings/python/benchmarks/compare_imagesize.py ../shared/corpus "
                   "--write bindings/python/BENCHMARKS.md")
        options.write.write_text(f"""# The Python package against imagesize_py

The corpus: `shared/corpus` ({len(rows)} real images from public test suites, {ok} valid and
{broken} broken on purpose, {sum(os.path.getsize(p) for p in paths) / 1e6:.1f} MB), with ground
truth cross-checked by several tools (its README). Both libraries read every file through
their own file API, in one process, one thread, with the page cache warm: the best of
{options.rounds} passes over all {len(rows)} files.

```
pip install {'pyimageprobe'} imagesize==2.*
{command}
```

Measured {datetime.date.today().isoformat()}, Python {platform.python_version()}, {platform.machine()},
`{platform.processor() or platform.machine()}`, {os.cpu_count()} cores (shared).

{table}

- Sized right: `(width, height)` equals the manifest's stored size. imagesize_py's `get` is
  called with `exif_rotation=False` for this (its default swaps them for orientations 5 to 8;
  `imageprobe.compat.get` does the same by default, for JPEG, TIFF, AVIF and HEIF as
  imagesize_py does; for an AVIF or HEIF whose primary item has no `irot`/`imir` it also reads
  the Exif item, as imagesize_py does, opening the file a second time). imagesize_py reads 12
  formats; files of the others count as not sized.
- Refused: no size for a file broken on purpose (imagesize_py answers `(-1, -1)`; ImageProbe a
  `Failure` with the reason).
- Orientation: the manifest's value is the EXIF tag as stored. Its two files whose tag is 0
  (out of range, `recurser_exif-orientation-examples__*_0.jpg`) count against ImageProbe, which
  reports no orientation for them, as its command does (SPEC.md §3.7).
- `probe_file` reads as the `imageprobe` command reads (same answers and byte counts); in full
  mode it reads on after the size for the orientation and the other facts (bit depth, alpha,
  animation); `dimensions_only` stops at the size. The machine is shared: figures vary by about
  20 % from run to run, both libraries alike.
""")
        print(f"\nwritten to {options.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
