#!/usr/bin/env python3
"""Writes a few real images (pixel data and all) into a folder, for trying imageprobe.

Uses Pillow, installing it with pip when missing. Every file is made here, from scratch.
"""
import subprocess
import sys
from pathlib import Path


def pillow():
    try:
        import PIL  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pillow"], check=True)
    from PIL import Image
    return Image


def main(out: Path) -> None:
    Image = pillow()
    out.mkdir(parents=True, exist_ok=True)
    # A 4032x3024 landscape gradient, as a camera would store a portrait photo: orientation 6.
    photo = Image.linear_gradient("L").resize((4032, 3024)).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6
    photo.save(out / "photo.jpg", quality=80, exif=exif.tobytes())
    photo.resize((1600, 1200)).save(out / "progressive.jpg", progressive=True)
    small = photo.resize((640, 480))
    small.save(out / "image.png")
    small.save(out / "image.webp", quality=70)
    small.save(out / "image.gif")
    small.save(out / "image.bmp")
    small.save(out / "image.tiff")
    print(f"wrote {len(list(out.iterdir()))} images to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".build/examples"))
