"""Answers: ``ImageInfo`` (an image) and ``Failure`` (anything else), frozen dataclasses with the
command's JSON names in snake_case (SPEC.md §4).

``ImageInfo``'s body is the one list of imageprobe_info's fields: one line per C field, in the
order imageprobe.h declares them. The struct's layout is read through
``imageprobe_info_layout`` in that order, so when the header gains a field (appended or
inserted), adding its line here at the same place is the whole change on the Python side: it is
read, converted by its kind, becomes an attribute of ``ImageInfo`` and a key of ``to_dict()``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, Literal, Union

from . import _native as native


def _c(name: str, kind: native.Kind) -> Any:
    """An attribute read from imageprobe_info's field `name`."""
    return field(metadata={"c": (name, kind)})


class _Hidden:
    """A field of imageprobe_info at its place in the struct that is the C interface's own
    (status details, failure fields), not an attribute of the answer."""

    __slots__ = ("c",)

    def __init__(self, name: str, kind: native.Kind) -> None:
        self.c = (name, kind)


@dataclass(frozen=True, slots=True, kw_only=True)
class ImageInfo:
    """What the header says about an image. Unknown values are None."""

    ok: ClassVar[Literal[True]] = True

    # --- imageprobe_info, field by field, in imageprobe.h's order ---------------------------
    _needed: ClassVar[_Hidden] = _Hidden("needed", native.U64)
    #: Bytes read (consumed by the scanner; for a file, read and not jumped).
    bytes_read: int = _c("bytes_read", native.U64)
    #: Bytes jumped over without being read (a seekable file's large skips).
    bytes_skipped: int = _c("bytes_skipped", native.U64)
    _format_number: ClassVar[_Hidden] = _Hidden("format", native.I32)
    #: "jpeg", "png", ... (SPEC.md §3)
    format: str = _c("format_name", native.TEXT)
    mime: str = _c("mime_type", native.TEXT)
    #: The stored size in pixels, before any orientation.
    width: int = _c("width", native.I64)
    height: int = _c("height", native.I64)
    #: After a HEIF clean aperture and the orientation.
    display_width: int = _c("display_width", native.I64)
    display_height: int = _c("display_height", native.I64)
    #: EXIF orientation 1-8; None when the file records none.
    orientation: int | None = _c("orientation", native.ORIENTATION)
    bit_depth: int | None = _c("bit_depth", native.I32_OPTIONAL)
    alpha: bool | None = _c("has_alpha", native.FLAG)
    progressive: bool | None = _c("is_progressive", native.FLAG)
    animated: bool | None = _c("is_animated", native.FLAG)
    #: A limit cut the scan short after the size was known: partial_reason says which.
    partial: bool = _c("is_partial", native.BOOL)
    frame_count: int | None = _c("frame_count", native.I64_OPTIONAL)
    loop_count: int | None = _c("loop_count", native.I64_OPTIONAL)
    #: Animation mode: the declared delays' sum, and as browsers play it (milliseconds).
    duration: float | None = _c("duration_ms", native.MILLISECONDS)
    playback_duration: float | None = _c("playback_duration_ms", native.MILLISECONDS)
    #: A DOS EPS file's preview: "tiff" or "wmf".
    preview: str | None = _c("eps_preview", native.TEXT_OPTIONAL)
    #: Full and animation modes' extra facts (SPEC.md §2), None when the file can't tell:
    #: a PQ or HLG transfer, or a gain map;
    hdr: bool | None = _c("hdr", native.FLAG)
    #: a gain map accompanies the image (ISO 21496-1, Apple's, Ultra HDR);
    gain_map: bool | None = _c("gain_map", native.FLAG)
    #: an ICC profile is embedded;
    icc_profile: bool | None = _c("icc_profile", native.FLAG)
    #: PNG Adam7, a GIF's first image interlaced;
    interlaced: bool | None = _c("interlaced", native.FLAG)
    #: an embedded video follows the image (a motion photo).
    motion_photo: bool | None = _c("motion_photo", native.FLAG)
    _has_cicp: ClassVar[_Hidden] = _Hidden("has_cicp", native.U8)
    #: The CICP (ITU-T H.273) the file declares: (colour primaries, transfer characteristics,
    #: matrix coefficients, full range).
    cicp: tuple[int, int, int, bool] | None = _c("cicp", native.CICP)
    #: Dots per inch (x, y), None when the file states none.
    dpi: tuple[int, int] | None = _c("dpi_x", native.DPI)
    _dpi_y: ClassVar[_Hidden] = _Hidden("dpi_y", native.I32)
    partial_reason: str | None = _c("error", native.TEXT_OPTIONAL)
    _message: ClassVar[_Hidden] = _Hidden("message", native.TEXT)
    _detected_format_number: ClassVar[_Hidden] = _Hidden("detected_format", native.I32)
    _detected_format: ClassVar[_Hidden] = _Hidden("detected_format_name", native.TEXT_OPTIONAL)
    _fetch_error: ClassVar[_Hidden] = _Hidden("fetch_error", native.TEXT_OPTIONAL)
    _http_status: ClassVar[_Hidden] = _Hidden("http_status", native.I32)
    # --- end of imageprobe_info ----------------------------------------------------------------

    #: URLs only: every byte received (response heads included), and the requests sent.
    bytes_transferred: int | None = None
    requests: int | None = None
    #: URLs probed with a cache only: whether the answer is the cache's (fresh, or revalidated
    #: by a ``304``), SPEC.md §6.7.
    from_cache: bool | None = None

    def to_dict(self) -> Dict[str, Any]:
        """The command's JSON object for this answer (``imageprobe --json``, without ``path``):
        camelCase names (``gainMap``, ``iccProfile``, ``motionPhoto``), ``cicp`` and ``dpi`` as
        lists, unknown values left out (``orientation`` is always there)."""
        return _json(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Failure:
    """Not an image the scanner reads, a broken one, or (URLs) a fetch that failed."""

    ok: ClassVar[Literal[False]] = False

    #: The scanner's code ("unknownFormat", "malformed", "truncated", "limitExceeded",
    #: "unsupportedFeature", "tooManyPixels"), or a fetch error's ("httpStatus", "connection", "timeout",
    #: "forbiddenAddress", ... SPEC.md §6.1).
    error: str
    message: str
    #: The format recognised before the failure.
    detected_format: str | None = None
    #: "tooManyPixels" (``max_pixels``) only: the refused image's size, and its frame count
    #: when known (its format is ``detected_format``).
    width: int | None = None
    height: int | None = None
    frame_count: int | None = None
    #: The HTTP status that caused a fetch error.
    status: int | None = None
    bytes_read: int = 0
    bytes_skipped: int = 0
    bytes_transferred: int | None = None
    requests: int | None = None

    def to_dict(self) -> Dict[str, Any]:
        """The command's JSON object for this input (without ``path``)."""
        return _json(self)


Result = Union[ImageInfo, Failure]

# The list above, read once: (C name, kind) for the layout, and where each value goes.
_ENTRIES: list[tuple[str, native.Kind, str | None]] = []
_fields = {f.name: f for f in dataclasses.fields(ImageInfo)}
for _name in ImageInfo.__annotations__:
    if _name in _fields and "c" in _fields[_name].metadata:
        _ENTRIES.append((*_fields[_name].metadata["c"], _name))
    elif isinstance(getattr(ImageInfo, _name, None), _Hidden):
        _ENTRIES.append((*getattr(ImageInfo, _name).c, None))
del _fields, _name

INFO = native.Layout("imageprobe_info", native.info_layout, [(name, kind) for name, kind, _ in _ENTRIES])
read_needed = INFO.reader("needed")


def _compile_image_info() -> Any:
    """A decoder of imageprobe_info into an ImageInfo, generated from the list above: one
    ``struct`` call, each field converted by its kind's expression and stored through its slot.
    (About 3 µs, where a dict of fields and the dataclass's __init__ took 12.)"""
    values = [f"v{index}" for index in range(len(_ENTRIES))]
    by_name = {name: value for value, (name, _, _) in zip(values, _ENTRIES)}
    lines = ["def image_info(buffer, read_adjust, bytes_transferred, requests, from_cache=None):",
             f"    ({', '.join(values)},) = unpack(buffer)",
             "    info = new(ImageInfo)"]
    namespace: Dict[str, Any] = {"unpack": INFO.struct.unpack_from, "new": object.__new__, "ImageInfo": ImageInfo}
    assigned = set()
    for value, (_, kind, attribute) in zip(values, _ENTRIES):
        if attribute is None:
            continue
        expression = kind.expression.format(v=value, **by_name)
        if attribute == "bytes_read":
            expression = f"{value} + read_adjust"
        elif attribute == "bytes_skipped":
            expression = f"{value} - read_adjust"
        namespace[f"set_{attribute}"] = ImageInfo.__dict__[attribute].__set__
        lines.append(f"    set_{attribute}(info, {expression})")
        assigned.add(attribute)
    for field in dataclasses.fields(ImageInfo):
        if field.name not in assigned:  # what a URL probe adds
            namespace[f"set_{field.name}"] = ImageInfo.__dict__[field.name].__set__
            lines.append(f"    set_{field.name}(info, {field.name})")
    lines.append("    return info")
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from the list above only
    return namespace["image_info"]


_image_info = _compile_image_info()


def decode(status: int, buffer: Any, read_adjust: int = 0, bytes_transferred: int | None = None,
           requests: int | None = None) -> Result:
    """The answer in an imageprobe_info, for a final status (DONE or UNSUPPORTED).
    `read_adjust`: skipped bytes that were read (counted in bytes_read, not bytes_skipped)."""
    if status == native.DONE:
        info: ImageInfo = _image_info(buffer, read_adjust, bytes_transferred, requests)
        return info
    record = INFO.unpack(buffer)
    # A refused image (max_pixels: "tooManyPixels") has its format and size filled in.
    refused = record["format"] != 0
    return Failure(error=record["error"] or "argument", message=record["message"],
                   detected_format=record["detected_format_name"] if record["detected_format"] else None,
                   width=record["width"] if refused else None, height=record["height"] if refused else None,
                   frame_count=record["frame_count"] if refused else None,
                   status=record["http_status"] or None, bytes_read=record["bytes_read"] + read_adjust,
                   bytes_skipped=record["bytes_skipped"] - read_adjust, bytes_transferred=bytes_transferred,
                   requests=requests)


def _camel(name: str) -> str:
    return re.sub(r"_([a-z])", lambda match: match.group(1).upper(), name)


_JSON_NAMES: dict[type, list[tuple[str, str]]] = {
    cls: [(f.name, _camel(f.name)) for f in dataclasses.fields(cls)] for cls in (ImageInfo, Failure)
}


def _json(result: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for name, key in _JSON_NAMES[type(result)]:
        value = getattr(result, name)
        if value is None and key != "orientation":
            continue
        out[key] = list(value) if isinstance(value, tuple) else value  # cicp, dpi: JSON arrays
    if not out.get("partial"):
        out.pop("partial", None)
    if result.bytes_transferred is not None:
        out.pop("bytesRead", None)
        out.pop("bytesSkipped", None)
    elif not out.get("bytesSkipped"):
        out.pop("bytesSkipped", None)
    if isinstance(result, Failure) and "orientation" in out:
        del out["orientation"]
    return out
