"""imageprobe.compat as imagesize_py 2.x answers: get, getDPI, get_info and ImageInfo, with its -1
conventions, file objects, bytes paths and URLs, on images built here. (imagesize_py's own
tests run against the installed wheel through Scripts/peer-suites.sh.)"""

from __future__ import annotations

import http.server
import io
import os
import struct
import threading
import zlib
from pathlib import Path
from typing import Iterator

import pytest

import imageprobe
import imageprobe.compat as imagesize


def tiff_ifd(order: str, entries: list) -> bytes:
    """A TIFF structure (byte order "<" or ">") whose IFD0 has `entries` (tag, type, value)."""
    head = (b"II*\0" if order == "<" else b"MM\0*") + struct.pack(order + "I", 8) + struct.pack(order + "H", len(entries))
    body = b""
    for tag, kind, value in entries:
        if kind == 3:
            body += struct.pack(order + "HHIHH", tag, kind, 1, value, 0)
        else:
            body += struct.pack(order + "HHII", tag, kind, 1, value)
    return head + body + b"\0\0\0\0"


def png(width: int, height: int, colour_type: int = 6, phys: tuple | None = None) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))
    if phys:
        body += chunk(b"pHYs", struct.pack(">IIB", *phys))
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IDAT", zlib.compress(b"\0" * 4)) + chunk(b"IEND", b"")


def jpeg(width: int, height: int, *, jfif: tuple | None = None, orientation: int | None = None, components: int = 3) -> bytes:
    def segment(marker: int, payload: bytes) -> bytes:
        return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload
    out = b"\xff\xd8"
    if jfif:
        units, x, y = jfif
        out += segment(0xE0, b"JFIF\0\x01\x01" + struct.pack(">BHHBB", units, x, y, 0, 0))
    if orientation:
        out += segment(0xE1, b"Exif\0\0" + tiff_ifd(">", [(0x112, 3, orientation)]))
    frame = struct.pack(">BHHB", 8, height, width, components) + b"".join(bytes([i + 1, 0x11, 0]) for i in range(components))
    return out + segment(0xC0, frame) + b"\xff\xd9"


def gif(width: int, height: int, table_bits: int | None) -> bytes:
    packed = 0x80 | (table_bits - 1) if table_bits else 0
    table = b"\0" * (3 * (1 << table_bits)) if table_bits else b""
    return b"GIF89a" + struct.pack("<HHBBB", width, height, packed, 0, 0) + table + b";"


def bmp(width: int, height: int, bits: int) -> bytes:
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, 0, 0, 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 40 + 4, 0, 0, 14 + 40) + info + b"\0" * 4


def box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def heif(width: int, height: int, *, exif_orientation: int | None = None, irot: int | None = None, brand: bytes = b"avif") -> bytes:
    """A HEIF/AVIF: item 1 (the primary, with ispe and an optional irot) and, optionally, an
    Exif item 2 whose IFD0 holds `exif_orientation`, its bytes in mdat."""
    codec = b"av01" if brand == b"avif" else b"hvc1"
    properties = box(b"ispe", b"\0" * 4 + struct.pack(">II", width, height))
    associations = [1]
    if irot is not None:
        properties += box(b"irot", bytes([irot]))
        associations.append(2)
    exif = struct.pack(">I", 0) + tiff_ifd("<", [(0x112, 3, exif_orientation)]) if exif_orientation else b""
    items = [(1, codec, b"\0" * 16)] + ([(2, b"Exif", exif)] if exif else [])
    infe = b"".join(box(b"infe", b"\x02\0\0\0" + struct.pack(">HH", item, 0) + kind + b"\0") for item, kind, _ in items)
    iinf = box(b"iinf", b"\0" * 4 + struct.pack(">H", len(items)) + infe)
    ipma = box(b"ipma", b"\0" * 4 + struct.pack(">IHB", 1, 1, len(associations)) + bytes(0x80 | a for a in associations))
    iprp = box(b"iprp", box(b"ipco", properties) + ipma)
    ftyp = box(b"ftyp", brand + b"\0\0\0\0" + brand + b"mif1miaf")

    def meta(mdat_start: int) -> bytes:
        at = mdat_start + 8
        entries = b""
        for item, _, payload in items:
            entries += struct.pack(">HHHII", item, 0, 1, at, len(payload))
            at += len(payload)
        iloc = box(b"iloc", b"\0" * 4 + b"\x44\x00" + struct.pack(">H", len(items)) + entries)
        hdlr = box(b"hdlr", b"\0" * 8 + b"pict" + b"\0" * 13)
        return box(b"meta", b"\0" * 4 + hdlr + box(b"pitm", b"\0" * 4 + struct.pack(">H", 1)) + iloc + iinf + iprp)

    size = len(meta(0))
    return ftyp + meta(len(ftyp) + size) + box(b"mdat", b"".join(payload for _, _, payload in items))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("compat")
    images = {
        "rgba.png": png(802, 670, 6, (2835, 2835, 1)),
        "grey.png": png(40, 30, 0),
        "palette.png": png(40, 30, 3, (72, 72, 0)),
        "jfif.jpg": jpeg(802, 670, jfif=(0, 72, 72)),
        "per-cm.jpg": jpeg(100, 50, jfif=(2, 118, 118), components=1),
        "rotated.jpg": jpeg(802, 670, orientation=6),
        "table.gif": gif(10, 20, 8),
        "no-table.gif": gif(10, 20, None),
        "rgb.bmp": bmp(100, 300, 24),
        "exif-item.avif": heif(630, 420, exif_orientation=6),
        "irot.heic": heif(1440, 960, irot=3, brand=b"heic"),
        "plain.avif": heif(64, 32),
        "text.txt": b"not an image",
        "broken.png": png(10, 10)[:20],
    }
    for name, data in images.items():
        (path / name).write_bytes(data)
    return path


def test_get_info_fields_as_imagesize(folder: Path) -> None:
    assert imagesize.get_info(folder / "rgba.png") == imagesize.ImageInfo(802, 670, -1, 72, 72, 16777216, 4)
    assert imagesize.get_info(folder / "grey.png") == imagesize.ImageInfo(40, 30, -1, -1, -1, 256, 1)
    # PNG pHYs without a unit: no dpi (imagesize_py reports the ratio's numbers).
    assert imagesize.get_info(folder / "palette.png") == imagesize.ImageInfo(40, 30, -1, -1, -1, 256, 1)
    # JFIF units 0 (an aspect ratio) and 1 are both taken as dots per inch, as imagesize_py does.
    assert imagesize.get_info(folder / "jfif.jpg") == imagesize.ImageInfo(802, 670, -1, 72, 72, -1, 3)
    assert imagesize.get_info(folder / "per-cm.jpg") == imagesize.ImageInfo(100, 50, -1, 300, 300, -1, 1)
    assert imagesize.get_info(folder / "table.gif") == imagesize.ImageInfo(10, 20, -1, -1, -1, 256, 3)
    assert imagesize.get_info(folder / "no-table.gif") == imagesize.ImageInfo(10, 20, -1, -1, -1, -1, 3)
    assert imagesize.get_info(folder / "rgb.bmp") == imagesize.ImageInfo(100, 300, -1, -1, -1, -1, 3)
    assert imagesize.get_info(folder / "text.txt") == imagesize.ImageInfo()


def test_rotation_and_exif_rotation(folder: Path) -> None:
    assert imagesize.get(folder / "rotated.jpg") == (670, 802)
    assert imagesize.get(folder / "rotated.jpg", exif_rotation=False) == (802, 670)
    assert imagesize.get_info(folder / "rotated.jpg", dpi=False, colors=False).rotation == 6
    # An AVIF's Exif item: imagesize_py applies it; the core (MIAF) and probe_file don't.
    assert imageprobe.probe_file(folder / "exif-item.avif").orientation is None
    assert imagesize.get(folder / "exif-item.avif") == (420, 630)
    assert imagesize.get(folder / "exif-item.avif", exif_rotation=False) == (630, 420)
    info = imagesize.get_info(folder / "exif-item.avif", exif_rotation=False)
    assert (info.width, info.height, info.rotation) == (630, 420, 6)
    # irot 3 (three quarter turns anticlockwise) is EXIF 6.
    assert imagesize.get_info(folder / "irot.heic", dpi=False, colors=False, channels=False) == imagesize.ImageInfo(960, 1440, 6)
    assert imagesize.get_info(folder / "plain.avif").rotation == -1


def test_what_is_not_asked_is_minus_one(folder: Path) -> None:
    info = imagesize.get_info(folder / "rgba.png", size=True, dpi=False, colors=False, channels=False, exif_rotation=False)
    assert info == imagesize.ImageInfo(802, 670, -1, -1, -1, -1, -1)
    assert imagesize.get_info(folder / "rgba.png", size=False) == imagesize.ImageInfo(-1, -1, -1, 72, 72, 16777216, 4)


def test_inputs_paths_bytes_file_objects(folder: Path) -> None:
    path = folder / "rgba.png"
    for given in (path, str(path), os.fsencode(path)):
        assert imagesize.get(given) == (802, 670)
        assert imagesize.getDPI(given) == (72, 72)
    with open(path, "rb") as handle:
        handle.read(10)  # read from the start whatever the position, as imagesize_py does
        assert imagesize.get(handle) == (802, 670)
    assert imagesize.get(io.BytesIO(path.read_bytes())) == (802, 670)

    class ReadSeek:  # read and seek only, as imagesize_py accepts
        def __init__(self, data: bytes) -> None:
            self._buffer = io.BytesIO(data)

        def read(self, size: int = -1) -> bytes:
            return self._buffer.read(size)

        def seek(self, offset: int, whence: int = 0) -> int:
            return self._buffer.seek(offset, whence)

    assert imagesize.get_info(ReadSeek((folder / "rotated.jpg").read_bytes())).width == 670


def test_failures_as_imagesize(folder: Path) -> None:
    missing = folder / "missing.png"
    with pytest.raises(FileNotFoundError):
        imagesize.get_info(missing)
    assert imagesize.get(missing) == (-1, -1)
    assert imagesize.getDPI(missing) == (-1, -1)
    with pytest.raises(ValueError):
        imagesize.get_info(folder / "broken.png")
    assert imagesize.get(folder / "broken.png") == (-1, -1)
    assert imagesize.get(io.BytesIO(b"not an image")) == (-1, -1)
    assert imagesize.getDPI(io.BytesIO(b"not an image")) == (-1, -1)
    assert imagesize.__all__ == ["get", "getDPI", "get_info", "ImageInfo", "__version__"]


@pytest.fixture()
def server(folder: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_urls_through_probe_url(server: str) -> None:
    assert imagesize.get(f"{server}/rotated.jpg") == (670, 802)
    assert imagesize.getDPI(f"{server}/rgba.png") == (72, 72)
    assert imagesize.get(f"{server}/missing.png") == (-1, -1)
