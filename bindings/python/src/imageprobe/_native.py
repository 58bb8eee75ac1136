"""The bundled libimageprobe.so through ctypes.

The functions of imageprobe.h, and its structs as the library itself lays them out: every
offset comes from the exported ``imageprobe_*_layout`` functions, so nothing here hard-codes
one. A struct is described by the names of its fields in the order the header declares them
(``Layout``); the library's count of fields is checked against that list when the module loads,
so a header that grew and a binding that didn't can't silently read the wrong bytes.
"""

from __future__ import annotations

import ctypes
import math
import os
import struct
from typing import Any, Callable, Sequence

# Status codes (imageprobe.h).
NEED_MORE = 0
DONE = 1
UNSUPPORTED = 2
ERROR_ARGUMENT = -1
PLAN_SEND = 3
PLAN_NOT_MODIFIED = 4

MODES = {"full": 0, "dimensions_only": 1, "animation": 2}

IF_RANGE_NONE = 0
IF_RANGE_ETAG = 1
IF_RANGE_LAST_MODIFIED = 2

BODY_COMPLETE = 0
BODY_STOPPED = 1
BODY_CLOSED = 2

FAIL_TIMEOUT = 0
FAIL_LIMIT = 1
FAIL_CONNECTION = 2
FAIL_INVALID_RESPONSE = 3
FAIL_FORBIDDEN_ADDRESS = 4
FAIL_CANCELLED = 5

TEXT_URL = 0
TEXT_HEADERS = 1
TEXT_REQUEST_HEAD = 2
TEXT_HOST = 3
TEXT_USER_AGENT = 4
TEXT_ENTITY_TAG = 5
TEXT_LAST_MODIFIED = 6

WIRE_MORE = 0
WIRE_ENDED = 1
WIRE_ENDED_REUSABLE = 2


class Kind:
    """How one C field is stored (``code``, a ``struct`` format character, and its size) and
    what it becomes in Python: ``convert``, and the same as an expression of ``{v}`` for the
    decoder _info.py compiles (where ``{name}`` is another field's raw value, by its C name).
    Text fields take their size from the layout."""

    __slots__ = ("code", "size", "convert", "expression")

    def __init__(self, code: str, size: int, convert: Callable[[Any], Any] | None = None,
                 expression: str = "{v}") -> None:
        self.code = code
        self.size = size
        self.convert = convert
        self.expression = expression


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def _optional_text(raw: bytes) -> str | None:
    return _text(raw) or None


U64 = Kind("Q", 8)
U32 = Kind("I", 4)
I64 = Kind("q", 8)
I32 = Kind("i", 4)
#: A count or number where -1 means unknown.
I64_OPTIONAL = Kind("q", 8, lambda value: None if value < 0 else value, "(None if {v} < 0 else {v})")
I32_OPTIONAL = Kind("i", 4, lambda value: None if value < 0 else value, "(None if {v} < 0 else {v})")
#: EXIF orientation 1-8, 0 when the file records none.
ORIENTATION = Kind("i", 4, lambda value: value or None, "({v} or None)")
#: 1, 0, or -1 for unknown.
FLAG = Kind("b", 1, lambda value: None if value < 0 else value == 1, "(None if {v} < 0 else {v} == 1)")
BOOL = Kind("b", 1, lambda value: value == 1, "({v} == 1)")
#: A duration in milliseconds, NaN when unknown.
MILLISECONDS = Kind("d", 8, lambda value: None if math.isnan(value) else value, "(None if {v} != {v} else {v})")
#: A NUL-terminated char array; empty is kept as "" (TEXT) or becomes None (TEXT_OPTIONAL).
TEXT = Kind("s", 0, _text, "{v}.split(b'\\0', 1)[0].decode('utf-8', 'replace')")
TEXT_OPTIONAL = Kind("s", 0, _optional_text, "({v}.split(b'\\0', 1)[0].decode('utf-8', 'replace') or None)")
#: A nested struct, written as its bytes.
NESTED = Kind("s", 0)
U8 = Kind("B", 1)
#: Kinds whose value is read with a neighbour (the decoder's expression names it by its C
#: name; ``Layout.unpack`` gives the raw value):
#: the CICP, uint8_t[4] (primaries, transfer, matrix, full range 0/1), with has_cicp: a tuple
#: (primaries, transfer, matrix, full_range: bool), or None when has_cicp is 0;
CICP = Kind("4s", 4, None, "(({v}[0], {v}[1], {v}[2], {v}[3] == 1) if {has_cicp} == 1 else None)")
#: dots per inch, dpi_x with dpi_y (0 when the file states none): a tuple (x, y), or None.
DPI = Kind("i", 4, None, "(({v}, {dpi_y}) if {v} > 0 and {dpi_y} > 0 else None)")


class Layout:
    """A C struct as the library lays it out: ``fields`` are (name, Kind) in the header's order,
    ``offsets`` come from ``function(index)`` (the struct's size after the last field, 0 past
    that). ``unpack`` reads every field at once (one ``struct`` call), converted."""

    def __init__(self, name: str, function: Callable[[int], int], fields: Sequence[tuple[str, Kind]]) -> None:
        offsets = [function(index) for index in range(len(fields) + 1)]
        size = offsets[-1]
        if size == 0 or function(len(fields) + 1) != 0:
            declared = len(fields)
            while declared < 4096 and function(declared + 1) != 0:
                declared += 1
            raise ImportError(
                f"{name} has {declared} fields in this libimageprobe, and the binding lists {len(fields)}: "
                "the binding and the library are from different versions"
            )
        fmt = "="
        position = 0
        self.offsets: dict[str, int] = {}
        self.codes: dict[str, str] = {}
        converters: list[Callable[[Any], Any] | None] = []
        for index, (field, kind) in enumerate(fields):
            offset, following = offsets[index], offsets[index + 1]
            width = following - offset if kind.size == 0 else kind.size
            if offset < position or following - offset < max(1, kind.size):
                raise ImportError(f"{name}.{field}: the library's layout doesn't fit a {kind.code} field")
            if offset > position:
                fmt += f"{offset - position}x"
            code = f"{width}s" if kind.size == 0 else kind.code
            fmt += code
            position = offset + width
            self.offsets[field] = offset
            self.codes[field] = code
            converters.append(kind.convert)
        if size > position:
            fmt += f"{size - position}x"
        self.name = name
        self.size = size
        self.names = [field for field, _ in fields]
        self.struct = struct.Struct(fmt)
        self._converters = converters

    def unpack(self, buffer: Any) -> dict[str, Any]:
        """Every field of the struct at the start of `buffer`, converted, by C name."""
        values = self.struct.unpack_from(buffer)
        return {
            name: (convert(value) if convert else value)
            for name, value, convert in zip(self.names, values, self._converters)
        }

    def write(self, buffer: Any, base: int = 0, **values: Any) -> None:
        """Writes fields by C name into `buffer` (at `base`)."""
        for field, value in values.items():
            struct.pack_into("=" + self.codes[field], buffer, base + self.offsets[field], value)

    def reader(self, field: str) -> Callable[[Any], Any]:
        """A fast reader of one field: ``reader(buffer)`` is its raw value."""
        single = struct.Struct("=" + self.codes[field])
        offset = self.offsets[field]
        return lambda buffer: single.unpack_from(buffer, offset)[0]


def _library_path() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    bundled = os.path.join(here, "libimageprobe.so")
    if os.path.exists(bundled):
        return bundled
    # A source checkout (bindings/python/src/imageprobe): the library Scripts/build-c.sh built,
    # or one named explicitly. An installed package always has its own.
    named = os.environ.get("IMAGEPROBE_LIBRARY")
    if named:
        return named
    built = os.path.join(here, "..", "..", "..", "..", ".build", "c", "libimageprobe.so")
    if os.path.exists(built):
        return os.path.normpath(built)
    raise ImportError(
        "libimageprobe.so is not bundled with this imageprobe package (a source checkout: run "
        "Scripts/build-c.sh, or set IMAGEPROBE_LIBRARY to a libimageprobe.so)"
    )


LIBRARY_PATH = _library_path()
lib = ctypes.CDLL(LIBRARY_PATH)

_p = ctypes.c_void_p
_size = ctypes.c_size_t
_u64 = ctypes.c_uint64
_i64 = ctypes.c_int64
_i32 = ctypes.c_int32
_u32 = ctypes.c_uint32
_int = ctypes.c_int


def _declare(name: str, restype: Any, *argtypes: Any) -> Any:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


scanner_size = _declare("imageprobe_scanner_size", _size)
scanner_align = _declare("imageprobe_scanner_align", _size)
init = _declare("imageprobe_init", _int, _p, _p)
feed = _declare("imageprobe_feed", _int, _p, _p, _size, _p)
finish = _declare("imageprobe_finish", _int, _p, _p)
pending_skip = _declare("imageprobe_pending_skip", _u64, _p)
skip = _declare("imageprobe_skip", _u64, _p, _u64)

planner_defaults = _declare("imageprobe_planner_defaults", None, _p)
planner_size = _declare("imageprobe_planner_size", _size)
planner_init = _declare("imageprobe_planner_init", _int, _p, _p, ctypes.c_char_p, _size)
planner_text = _declare("imageprobe_planner_text", _size, _p, _i32, ctypes.c_char_p, _size)
planner_wire = _declare("imageprobe_planner_wire", _int, _p, ctypes.c_char_p, _size)
planner_wire_closed = _declare("imageprobe_planner_wire_closed", _int, _p)
planner_next = _declare("imageprobe_planner_next", _int, _p, _p, _p)
planner_header = _declare("imageprobe_planner_header", _int, _p, ctypes.c_char_p, _size, ctypes.c_char_p, _size)
planner_head = _declare("imageprobe_planner_head", _int, _p, _i32)
planner_body = _declare("imageprobe_planner_body", _int, _p, _p, _size)
planner_received = _declare("imageprobe_planner_received", _int, _p, _u64)
planner_end = _declare("imageprobe_planner_end", _int, _p, _i32)
planner_fail = _declare("imageprobe_planner_fail", _int, _p, _i32)
planner_bytes_received = _declare("imageprobe_planner_bytes_received", _u64, _p)
planner_requests = _declare("imageprobe_planner_requests", _u32, _p)
planner_drainable = _declare("imageprobe_planner_drainable", _int, _p)
planner_revalidate = _declare("imageprobe_planner_revalidate", _int, _p, ctypes.c_char_p, _size, ctypes.c_char_p, _size)
planner_freshness = _declare("imageprobe_planner_freshness", _i64, _p)
address_parse = _declare("imageprobe_address_parse", _int, ctypes.c_char_p, _size, ctypes.c_char_p)
address_check = _declare("imageprobe_address_check", _int, ctypes.c_char_p, _size, ctypes.c_char_p, _size,
                         ctypes.c_char_p, _size)
info_layout = _declare("imageprobe_info_layout", _u32, _u32)
options_layout = _declare("imageprobe_options_layout", _u32, _u32)
planner_options_layout = _declare("imageprobe_planner_options_layout", _u32, _u32)
plan_request_layout = _declare("imageprobe_plan_request_layout", _u32, _u32)

SCANNER_SIZE: int = scanner_size()
ALIGN: int = max(16, scanner_align())
PLANNER_SIZE: int = planner_size()

# imageprobe_options, imageprobe_planner_options and imageprobe_plan_request, field by field in
# the header's order. (imageprobe_info's list is ImageInfo's declaration, in _info.py.)
OPTIONS = Layout("imageprobe_options", options_layout, [
    ("mode", I32),
    ("max_bytes", U64),
    ("input_length", U64),
    ("max_width", U32),
    ("max_height", U32),
    ("max_entries", U32),
    ("max_depth", U32),
    ("max_pixels", U64),
])
PLANNER_OPTIONS = Layout("imageprobe_planner_options", planner_options_layout, [
    ("scan", NESTED),
    ("max_bytes", U64),
    ("max_requests", U32),
    ("max_metadata_requests", U32),
    ("max_redirects", U32),
    ("request_growth", U32),
    ("initial_range", U64),
    ("minimum_request", U64),
    ("jump_threshold", U64),
])
PLAN_REQUEST = Layout("imageprobe_plan_request", plan_request_layout, [
    ("first", U64),
    ("last", U64),
    ("if_range", I32),
    ("port", I32),
    ("secure", I32),
    ("wait_seconds", I32),
])


def text(planner: int | None, which: int) -> bytes:
    """A text of the planner's request (TEXT_*), as bytes."""
    size = 4096
    while True:
        buffer = ctypes.create_string_buffer(size)
        length = planner_text(planner, which, buffer, size)
        if length < size:
            return buffer.raw[:length]
        size = length + 1


USER_AGENT: str = text(None, TEXT_USER_AGENT).decode("ascii")


def aligned(size: int) -> tuple[Any, int]:
    """Zeroed memory of `size` bytes at an address aligned for the library: (owner, address).
    Keep the owner alive as long as the address is used."""
    owner = (ctypes.c_char * (size + ALIGN))()
    address = ctypes.addressof(owner)
    return owner, address + (-address) % ALIGN


def block(size: int) -> tuple[Any, int, memoryview]:
    """Aligned memory for a struct: (owner, address, a writable view of exactly `size` bytes)."""
    owner, address = aligned(size)
    start = address - ctypes.addressof(owner)
    return owner, address, memoryview(owner).cast("B")[start:start + size]


_pack_options = OPTIONS.struct.pack


def scan_options(mode: str, max_bytes: int, input_length: int, max_width: int, max_height: int,
                 max_entries: int, max_depth: int, max_pixels: int = 0) -> bytes:
    """An imageprobe_options, as bytes (0: the default for each limit; no limit for max_pixels)."""
    try:
        number = MODES[mode]
    except KeyError:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}") from None
    if max_bytes or max_width or max_height or max_entries or max_depth or max_pixels:
        max_bytes, max_width = _limit(max_bytes, "max_bytes", 64), _limit(max_width, "max_width", 32)
        max_height, max_entries = _limit(max_height, "max_height", 32), _limit(max_entries, "max_entries", 32)
        max_depth, max_pixels = _limit(max_depth, "max_depth", 32), _limit(max_pixels, "max_pixels", 64)
    else:
        max_pixels = 0  # None too
    # In the header's order: mode, max_bytes, input_length, max_width, max_height, max_entries,
    # max_depth, max_pixels.
    return _pack_options(number, max_bytes, _limit(input_length, "input_length", 64), max_width, max_height,
                         max_entries, max_depth, max_pixels)


def _limit(value: int | None, name: str, bits: int) -> int:
    if value is None:
        return 0
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative int, not {value!r}")
    return min(value, (1 << bits) - 1)
