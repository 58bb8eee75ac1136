"""imagesize_py (PyPI ``imagesize``) 2.x's API over ImageProbe, for a one-line switch:

    import imageprobe.compat as imagesize

    width, height = imagesize.get("photo.jpg")       # (-1, -1) when it can't be read
    xdpi, ydpi = imagesize.getDPI("photo.jpg")       # (-1, -1) when unknown
    info = imagesize.get_info("photo.jpg")           # ImageInfo(width, height, rotation, xdpi, ydpi, colors, channels)

Each answers as imagesize_py 2.0 does, field by field, with its ``-1`` for what isn't asked or
known. Input is a path (str, bytes, os.PathLike), a binary file object (anything with
``read`` and ``seek``: read from the start) or an http(s) URL given as a str (probed with
``imageprobe.probe_url``: Range requests, bounded, where imagesize_py downloads the whole file).

The size is ImageProbe's, for every format it reads (SPEC.md §3), imagesize_py's included.
The rest follows imagesize_py's conventions rather than the core's, which is what its users
expect:

- ``rotation`` and ``exif_rotation`` (on by default: a quarter turn swaps width and height)
  for JPEG, TIFF, AVIF and HEIF/HEIC, the formats imagesize_py reads it from; -1 elsewhere. For
  AVIF and HEIF that is the primary item's ``irot``/``imir`` or, without them, the Orientation
  in the file's Exif item, as imagesize_py reads it. MIAF says readers ignore the Exif item,
  and the core and the ``imageprobe`` command do (their ``orientation`` is None there): only
  this module follows imagesize_py.
- ``xdpi``, ``ydpi`` for PNG (``pHYs`` in metres, as the core reads it) and JPEG (the JFIF
  segment's density, its units 0 and 1 both taken as dots per inch, as imagesize_py does);
  -1 for other formats, whose resolution imagesize_py doesn't read (``imageprobe.probe_file``'s
  ``dpi`` has TIFF's, BMP's, PSD's and EXIF's).
- ``colors`` for GIF (its global colour table) and PNG (2 ** bits per pixel of colour);
  ``channels`` for PNG (by colour type), JPEG (the frame's components), GIF (3) and BMP (by
  bits per pixel); -1 elsewhere.

``get_info`` raises as imagesize_py does: OSError from opening a path (FileNotFoundError...),
ValueError for a file of a known format that can't be read; ``get`` and ``getDPI`` never
raise, and answer (-1, -1). Over a URL only what ``probe_url`` answers is known: the size,
orientation (the core's), PNG's dpi and GIF's colours; the rest is -1.
"""

from __future__ import annotations

import os
import struct
from typing import IO, Any, NamedTuple, Optional, Protocol, Tuple, Union, runtime_checkable

from ._info import ImageInfo as _Answer
from ._scan import probe_file
from ._url import probe_url

__all__ = ["get", "getDPI", "get_info", "ImageInfo", "__version__"]

#: The imagesize_py API this module answers as (``imageprobe.__version__`` is the package's).
__version__ = "2.0.0"

#: The bytes of a file kept for the readings below: the first read, as SPEC.md §4 reads.
_HEAD = 64 * 1024
#: JPEG segments walked before the frame header, at most.
_MAX_SEGMENTS = 4096
#: The formats imagesize_py reads an orientation from.
_ROTATED = frozenset({"jpeg", "tiff", "heif", "avif"})


@runtime_checkable
class ReadSeekBinary(Protocol):
    """A binary file object as imagesize_py takes one: ``read`` and ``seek``."""

    def read(self, size: int = -1) -> bytes: ...

    def seek(self, offset: int, whence: int = 0) -> int: ...


PathInput = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
FileInput = Union[PathInput, IO[bytes], ReadSeekBinary]


class ImageInfo(NamedTuple):
    """imagesize_py's answer: -1 for what wasn't asked for or isn't known."""

    width: int = -1
    height: int = -1
    rotation: int = -1
    xdpi: int = -1
    ydpi: int = -1
    colors: int = -1
    channels: int = -1


def get(filepath: FileInput, *, exif_rotation: bool = True) -> Tuple[int, int]:
    """(width, height), turned by the orientation unless `exif_rotation` is False; (-1, -1)
    when the input can't be read or isn't an image."""
    try:
        info = get_info(filepath, size=True, dpi=False, colors=False, exif_rotation=exif_rotation, channels=False)
    except Exception:
        return -1, -1
    return info.width, info.height


def getDPI(filepath: FileInput) -> Tuple[int, int]:
    """(x DPI, y DPI) as imagesize_py reads them; (-1, -1) when unknown or unreadable."""
    try:
        info = get_info(filepath, size=False, dpi=True, colors=False, exif_rotation=False, channels=False)
    except Exception:
        return -1, -1
    return info.xdpi, info.ydpi


def get_info(filepath: FileInput, *, size: bool = True, dpi: bool = True, colors: bool = True,
             exif_rotation: bool = True, channels: bool = True) -> ImageInfo:
    """imagesize_py's get_info: the fields asked for, -1 for the others and for what isn't
    known. Raises OSError for a path that can't be opened, ValueError for a file of a known
    format that can't be read."""
    if isinstance(filepath, str) and filepath.startswith(("http://", "https://")):
        return _from_answer(_answer(probe_url(filepath)), None, size, dpi, colors, exif_rotation, channels)
    # A path first: isinstance() against a runtime-checkable Protocol costs 9 µs, half a probe.
    if isinstance(filepath, (str, bytes, os.PathLike)) or not (hasattr(filepath, "read") and hasattr(filepath, "seek")):
        file = _File(None, filepath)  # type: ignore[arg-type]
    else:
        filepath.seek(0)  # imagesize_py reads a file object from its start
        file = _File(filepath)
    try:
        answer = _answer(probe_file(file.handle if file.handle is not None else filepath))  # type: ignore[arg-type]
        return _from_answer(answer, file, size, dpi, colors, exif_rotation, channels)
    finally:
        file.close()


def _answer(result: Any) -> Optional[_Answer]:
    """The image, None for what isn't one (imagesize_py's -1), ValueError for a broken one."""
    if result.ok:
        return result  # type: ignore[no-any-return]
    if result.detected_format:
        raise ValueError(f"Invalid {result.detected_format} file: {result.message}")
    return None


class _File:
    """The input's bytes for the readings below, read only when one needs them: a prefix
    (``head``, grown on demand up to 64 KiB) and reads elsewhere (bounded by the callers). A
    path is opened then, and closed by ``close()``; a file object is the caller's."""

    #: The first read: a PNG's IHDR, a JPEG's first segments, most HEIF `meta` boxes.
    FIRST = 4096

    def __init__(self, handle: Any, path: Optional[PathInput] = None) -> None:
        self.handle = handle
        self.path = path
        self.opened = False
        self._head = b""
        self._asked = 0

    def _open(self) -> Any:
        if self.handle is None:
            self.handle = open(self.path, "rb")  # type: ignore[arg-type]
            self.opened = True
        return self.handle

    def prefix(self, length: int) -> bytes:
        """The first `length` bytes (at most 64 KiB; fewer at the end of the file)."""
        length = min(length, _HEAD)
        if length > self._asked:
            handle = self._open()
            handle.seek(0)
            self._head = bytes(handle.read(length))
            self._asked = length
        return self._head[:length]

    @property
    def head(self) -> bytes:
        return self.prefix(max(self.FIRST, self._asked))

    def read(self, offset: int, length: int) -> bytes:
        if offset + length <= len(self.head):
            return self.head[offset:offset + length]
        handle = self._open()
        handle.seek(offset)
        return bytes(handle.read(length))

    def close(self) -> None:
        if self.opened:
            self.handle.close()


def _from_answer(answer: Optional[_Answer], file: Optional[_File], size: bool, dpi: bool, colors: bool,
                 exif_rotation: bool, channels: bool) -> ImageInfo:
    if answer is None:
        return ImageInfo()
    fields = {}
    if size:
        rotation = _rotation(answer, file)
        width, height = answer.width, answer.height
        if exif_rotation and rotation in (5, 6, 7, 8):
            width, height = height, width
        fields.update(width=width, height=height, rotation=rotation)
    jpeg = _jpeg_segments(file) if file is not None and answer.format == "jpeg" and (dpi or channels) else None
    if dpi:
        if answer.format == "png" and answer.dpi:
            fields.update(xdpi=answer.dpi[0], ydpi=answer.dpi[1])
        elif jpeg is not None and jpeg.density is not None:
            fields.update(xdpi=jpeg.density[0], ydpi=jpeg.density[1])
    if colors:
        fields.update(colors=_colors(answer, file))
    if channels:
        fields.update(channels=_channels(answer, file, jpeg))
    return ImageInfo(**fields)


def _rotation(answer: _Answer, file: Optional[_File]) -> int:
    if answer.format not in _ROTATED:
        return -1
    if answer.orientation is not None:
        return answer.orientation
    if answer.format in ("heif", "avif") and file is not None:
        return _heif_exif_orientation(file) or -1
    return -1


def _colors(answer: _Answer, file: Optional[_File]) -> int:
    if answer.format == "gif" and answer.bit_depth:
        return 2 ** answer.bit_depth  # the global colour table's entries
    if answer.format == "png" and answer.bit_depth and file is not None and len(file.head) >= 26:
        colour_channels = {0: 1, 2: 3, 3: 1, 4: 1, 6: 3}.get(file.head[25])
        if colour_channels:
            return 2 ** (answer.bit_depth * colour_channels)  # type: ignore[no-any-return]
    return -1


def _channels(answer: _Answer, file: Optional[_File], jpeg: Optional[_JPEG]) -> int:
    if answer.format == "png" and file is not None and len(file.head) >= 26:
        return {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(file.head[25], -1)
    if answer.format == "jpeg" and jpeg is not None and jpeg.components is not None:
        return jpeg.components
    if answer.format == "gif":
        return 3
    if answer.format == "bmp" and answer.bit_depth:
        return 1 if answer.bit_depth <= 8 else {24: 3, 32: 4}.get(answer.bit_depth, -1)
    return -1


class _JPEG(NamedTuple):
    #: The first JFIF segment's density in dots per inch (units 0 and 1 as they are, 2 per cm).
    density: Optional[Tuple[int, int]]
    #: The frame header's component count.
    components: Optional[int]


def _jpeg_segments(file: _File) -> _JPEG:
    """Walks a JPEG's marker segments (which the core has read as a JPEG) to the frame
    header, for the two facts of imagesize_py's that the core doesn't report."""
    density = None
    offset = 2
    for _ in range(_MAX_SEGMENTS):
        header = file.read(offset, 4)
        if len(header) < 4 or header[0] != 0xFF:
            return _JPEG(density, None)
        marker = header[1]
        if marker == 0xFF:  # fill bytes
            offset += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # standalone markers
            offset += 2
            continue
        length = struct.unpack(">H", header[2:4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            frame = file.read(offset + 4, 6)
            return _JPEG(density, frame[5] if len(frame) == 6 else None)
        if marker == 0xE0 and density is None and length >= 16:
            jfif = file.read(offset + 4, 12)
            if jfif[:5] == b"JFIF\0":
                units, x, y = struct.unpack(">BHH", jfif[7:12])
                if units in (0, 1):
                    density = (x, y)
                elif units == 2:
                    density = (int(x * 2.54 + 0.5), int(y * 2.54 + 0.5))
        if length < 2:
            return _JPEG(density, None)
        offset += 2 + length
    return _JPEG(density, None)


def _boxes(data: bytes, start: int, end: int) -> Any:
    """The ISOBMFF boxes in data[start:end]: (type, payload start, end)."""
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">L4s", data[offset:offset + 8])
        header = 8
        if size == 1:
            if offset + 16 > end:
                return
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
            header = 16
        elif size == 0:
            size = end - offset
        if size < header or offset + size > end:
            return
        yield kind, offset + header, offset + size
        offset += size


def _child(data: bytes, start: int, end: int, kind: bytes) -> Optional[Tuple[int, int]]:
    for found, payload, box_end in _boxes(data, start, end):
        if found == kind:
            return payload, box_end
    return None


def _heif_exif_orientation(file: _File) -> Optional[int]:
    """The Orientation in a HEIF's or AVIF's first Exif item (found through iinf and iloc in the
    `meta` box among the first bytes), or None."""
    head = file.head
    meta = None
    # The meta box whole: read on to its end when the first read stopped inside it.
    offset = 0
    while offset + 8 <= len(head):
        size, kind = struct.unpack(">L4s", head[offset:offset + 8])
        if kind == b"meta" and offset + size > len(head):
            head = file.prefix(offset + size)
        if kind == b"meta" or size < 8:
            break
        offset += size
    for kind, payload, end in _boxes(head, 0, len(head)):
        if kind == b"meta":
            meta = (payload + 4, end)
            break
    if meta is None:
        return None
    iinf = _child(head, *meta, b"iinf")
    iloc = _child(head, *meta, b"iloc")
    if iinf is None or iloc is None:
        return None
    item = _exif_item_id(head, *iinf)
    location = _item_location(head, *iloc, item) if item is not None else None
    if location is None:
        return None
    offset, length = location
    if length < 8 or length > _HEAD:
        return None
    data = file.read(offset, length)
    if len(data) < 8:
        return None
    start = 4 + struct.unpack(">L", data[:4])[0]
    return _tiff_orientation(data[start:]) if start < len(data) else None


def _exif_item_id(data: bytes, start: int, end: int) -> Optional[int]:
    version = data[start] if start < end else 0
    entries = start + 4 + (2 if version == 0 else 4)
    for kind, payload, box_end in _boxes(data, entries, end):
        if kind != b"infe" or box_end - payload < 12 or data[payload] < 2:
            continue
        wide = data[payload] >= 3
        type_at = payload + 4 + (4 if wide else 2) + 2
        if type_at + 4 <= box_end and data[type_at:type_at + 4] == b"Exif":
            return struct.unpack(">L" if wide else ">H", data[payload + 4:payload + (8 if wide else 6)])[0]  # type: ignore[no-any-return]
    return None


def _item_location(data: bytes, start: int, end: int, item: int) -> Optional[Tuple[int, int]]:
    """Where an item's bytes are in the file (one extent: construction method 0), from iloc."""
    if end - start < 8 or data[start] > 2:
        return None
    version = data[start]
    offset_size, length_size = data[start + 4] >> 4, data[start + 4] & 15
    base_size, index_size = data[start + 5] >> 4, (data[start + 5] & 15 if version else 0)
    id_size = 2 if version < 2 else 4
    at = start + 6
    if at + id_size > end:
        return None

    def number(position: int, width: int) -> int:
        return int.from_bytes(data[position:position + width], "big")

    count = number(at, id_size)
    at += id_size
    for _ in range(min(count, _MAX_SEGMENTS)):
        if at + id_size + (2 if version else 0) + 2 + base_size + 2 > end:
            return None
        item_id = number(at, id_size)
        at += id_size
        method = 0
        if version:
            method = number(at, 2) & 15
            at += 2
        at += 2  # data_reference_index
        base = number(at, base_size)
        at += base_size
        extents = number(at, 2)
        at += 2
        extent = index_size + offset_size + length_size
        if at + extents * extent > end:
            return None
        if item_id == item:
            if extents != 1 or method != 0:
                return None
            return base + number(at + index_size, offset_size), number(at + index_size + offset_size, length_size)
        at += extents * extent
    return None


def _tiff_orientation(tiff: bytes) -> Optional[int]:
    """IFD0's Orientation (one SHORT), as imagesize_py reads it, or None."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return None
    order = "<" if tiff[:2] == b"II" else ">"
    ifd = struct.unpack(order + "L", tiff[4:8])[0]
    if ifd + 2 > len(tiff):
        return None
    count = struct.unpack(order + "H", tiff[ifd:ifd + 2])[0]
    for index in range(count):
        at = ifd + 2 + index * 12
        if at + 12 > len(tiff):
            return None
        tag, kind, number = struct.unpack(order + "HHL", tiff[at:at + 8])
        if tag == 0x0112 and kind == 3 and number == 1:
            value = struct.unpack(order + "H", tiff[at + 8:at + 10])[0]
            return value if 1 <= value <= 8 else None  # type: ignore[no-any-return]
    return None

