#!/usr/bin/env python3
"""Bytes an animation-mode scan reads and skips, per format, on animations large enough for
seeking to matter (12 frames of 320x240 noise, which no encoder can shrink much).

    python3 Benchmarks/animation-bytes.py [OUTDIR]     (default /tmp/imageprobe-animation-bytes)

Installs Pillow with pip if needed; uses cjxl (apt-get install libjxl-tools) when present for
JPEG XL. Builds imageprobe-bench, runs `imageprobe-bench check` on the files, and prints, per
format, the bytes read and skipped by a reader that jumps every pending skip (1460-byte reads),
next to the file sizes and what full mode reads.
"""
import os
import random
import re
import shutil
import subprocess
import sys


def ensure_pillow():
    try:
        import PIL  # noqa: F401
    except ImportError:
        cmd = [sys.executable, "-m", "pip", "install", "-q", "pillow"]
        if subprocess.run(cmd).returncode != 0:
            subprocess.run(cmd + ["--break-system-packages"], check=True)


def frames(count=12, size=(320, 240), seed=7):
    from PIL import Image
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        data = bytes(rng.getrandbits(8) for _ in range(size[0] * size[1] * 3))
        result.append(Image.frombytes("RGB", size, data))
    return result


def generate(outdir):
    os.makedirs(outdir, exist_ok=True)
    images = frames()
    delays = [40, 80, 120] * 4
    first, rest = images[0], images[1:]
    first.save(os.path.join(outdir, "noise.gif"), save_all=True, append_images=rest, duration=delays, loop=0)
    first.save(os.path.join(outdir, "noise.apng.png"), save_all=True, append_images=rest, duration=delays, loop=0)
    first.save(os.path.join(outdir, "noise.webp"), save_all=True, append_images=rest, duration=delays, loop=0,
               lossless=True)
    try:
        first.save(os.path.join(outdir, "noise.avif"), save_all=True, append_images=rest, duration=delays, quality=90)
    except Exception as error:  # noqa: BLE001 - Pillow without AVIF support
        print("no AVIF sequence: %s" % error, file=sys.stderr)
    cjxl = shutil.which("cjxl")
    if cjxl:
        subprocess.run([cjxl, os.path.join(outdir, "noise.gif"), os.path.join(outdir, "noise.jxl"), "-q", "90"],
                       capture_output=True)


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "/tmp/imageprobe-animation-bytes"
    ensure_pillow()
    generate(outdir)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(["swift", "build", "-c", "release", "--product", "imageprobe-bench"], cwd=root, check=True,
                   capture_output=True)
    output = subprocess.run([os.path.join(root, ".build/release/imageprobe-bench"), "check", outdir],
                            capture_output=True, text=True, check=True).stdout
    print("| file | bytes | full mode: read | animation mode: read | skipped | frames |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    rows = {}
    for line in output.splitlines():
        fields = line.split("\t")
        if fields[2] != "seek" or fields[1] not in ("full", "anim"):
            continue
        read = int(re.search(r"read=(\d+)", line).group(1))
        skipped = int(re.search(r"skipped=(\d+)", line).group(1))
        frames_found = re.search(r" frames (\S+)", line)
        rows.setdefault(fields[0], {})[fields[1]] = (read, skipped, frames_found.group(1) if frames_found else "-")
    for path in sorted(rows):
        full, anim = rows[path].get("full"), rows[path].get("anim")
        if not full or not anim:
            continue
        print("| %s | %d | %d | %d | %d | %s |" % (os.path.basename(path), os.path.getsize(path), full[0], anim[0],
                                                 anim[1], anim[2]))


if __name__ == "__main__":
    main()
