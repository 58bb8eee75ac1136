"""The scanner: ``Scanner`` (push), ``probe`` (bytes in memory) and ``probe_file`` (a path or a
binary file object, read the way the ``imageprobe`` command reads, SPEC.md §4)."""

from __future__ import annotations

import ctypes
import io
import os
import stat
import threading
from typing import IO, Any, Literal, Union

from . import _native as native
from ._info import Failure, ImageInfo, Result, decode, read_needed, INFO

Mode = Literal["full", "dimensions_only", "animation"]
PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

#: The command's read size and seek threshold (SPEC.md §4, "Reading").
CHUNK = 64 * 1024
SEEK_THRESHOLD = 64 * 1024
#: The scanner's default max_bytes (SPEC.md §1.5).
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
_INT64_MAX = (1 << 63) - 1


class Scanner:
    """A push scanner: feed it a file's or a download's bytes in chunks of any size, and it
    answers as soon as it can, the same answer however the input is split (SPEC.md §1).

        with Scanner() as scanner:
            for chunk in chunks:
                if (answer := scanner.feed(chunk)) is not None:
                    break
            else:
                answer = scanner.finish()

    ``feed`` returns None while more input is needed (at least ``needed`` bytes); the answer
    (an ``ImageInfo`` or a ``Failure``) is final: later calls return it again. A reader that
    can seek jumps ``pending_skip`` bytes and calls ``skip``; feeding them instead is always
    correct. The memory is the scanner's own (nothing is allocated by the library); leaving the
    ``with`` block, or ``close()``, releases it.
    """

    __slots__ = ("_owner", "_address", "_info_owner", "_info_address", "_info", "_result", "_closed")

    def __init__(self, *, mode: Mode = "full", max_bytes: int = 0, input_length: int | None = None,
                 max_width: int = 0, max_height: int = 0, max_entries: int = 0, max_depth: int = 0,
                 max_pixels: int = 0) -> None:
        """`mode`: "full" (everything the header gives), "dimensions_only" (the fewest bytes) or
        "animation" (every frame walked). Limits (0: the default, SPEC.md §1.5): `max_bytes`
        without an answer (16 MiB), `max_width` and `max_height` (2^30), `max_entries`
        (65,536), `max_depth` (16). `max_pixels` (0: no limit): an image of more pixels (width
        × height, × frames in animation mode) is refused, a ``Failure`` "tooManyPixels" with its
        ``detected_format``, ``width`` and ``height``: a decompression-bomb guard.
        `input_length`: the whole input's length, when known."""
        options = native.scan_options(mode, max_bytes, input_length or 0, max_width, max_height, max_entries, max_depth,
                                      max_pixels)
        self._owner, self._address = native.aligned(native.SCANNER_SIZE)
        self._info_owner, self._info_address, self._info = native.block(INFO.size)
        self._closed = False
        self._result: Result | None = None
        native.init(self._address, options)
        native.feed(self._address, None, 0, self._info_address)

    def _check(self) -> None:
        if self._closed:
            raise ValueError("the scanner is closed")

    def feed(self, data: Any) -> Result | None:
        """Consumes `data` (bytes, bytearray, memoryview...): the answer, or None when more is
        needed. Feed at most ``needed`` bytes at a time to see every chance to skip."""
        self._check()
        if self._result is not None:
            return self._result
        if isinstance(data, bytes):
            status = native.feed(self._address, data, len(data), self._info_address)
        else:
            view = memoryview(data).cast("B")
            if view.readonly:
                chunk = bytes(view)
                status = native.feed(self._address, chunk, len(chunk), self._info_address)
            elif len(view):
                pointer = (ctypes.c_char * len(view)).from_buffer(view)
                status = native.feed(self._address, ctypes.addressof(pointer), len(view), self._info_address)
                del pointer
            else:
                status = native.feed(self._address, None, 0, self._info_address)
            view.release()
        return self._settle(status)

    def finish(self) -> Result:
        """The input has ended: the final answer (``truncated`` when it ended inside the
        header, or a partial answer)."""
        self._check()
        if self._result is None:
            self._settle(native.finish(self._address, self._info_address))
        assert self._result is not None
        return self._result

    @property
    def needed(self) -> int:
        """While no answer: at least this many more bytes are needed (0 once answered)."""
        self._check()
        return 0 if self._result is not None else read_needed(self._info)

    @property
    def pending_skip(self) -> int:
        """How many of the next bytes the scanner doesn't need."""
        self._check()
        return int(native.pending_skip(self._address))

    def skip(self, count: int) -> int:
        """Passes over up to `count` bytes (at most ``pending_skip``) without reading them;
        returns how many were passed."""
        self._check()
        if count < 0:
            raise ValueError("count must not be negative")
        return int(native.skip(self._address, min(count, (1 << 64) - 1)))

    @property
    def result(self) -> Result | None:
        """The answer, once there is one."""
        return self._result

    def close(self) -> None:
        """Releases the scanner's memory; later calls raise ValueError."""
        self._closed = True
        self._owner = self._info_owner = None
        self._info = memoryview(b"")

    def __enter__(self) -> Scanner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _settle(self, status: int) -> Result | None:
        if status == native.NEED_MORE:
            return None
        self._result = decode(status, self._info)
        return self._result


class _Workspace(threading.local):
    """Per-thread memory for probe and probe_file: a scanner, its imageprobe_info and the read
    buffer, allocated once."""

    def __init__(self) -> None:
        self.owner, self.scanner = native.aligned(native.SCANNER_SIZE)
        self.info_owner, self.info_address, self.info = native.block(INFO.size)
        self.buffer = bytearray(CHUNK)
        self.buffer_view = memoryview(self.buffer)
        self.buffer_pointer = (ctypes.c_char * CHUNK).from_buffer(self.buffer)
        self.buffer_address = ctypes.addressof(self.buffer_pointer)


_workspace = _Workspace()


def probe(data: Any, *, mode: Mode = "full", max_bytes: int = 0, max_width: int = 0, max_height: int = 0,
          max_entries: int = 0, max_depth: int = 0, max_pixels: int = 0) -> Result:
    """The answer for an image's bytes (or a prefix of them: a prefix that ends inside the
    header is ``truncated``). Skips are passed over, as a reader that seeks would. The
    options are ``Scanner``'s (`max_pixels`: refuse larger images with "tooManyPixels")."""
    space = _workspace
    if isinstance(data, bytes):
        buffer = data
    else:
        buffer = bytes(memoryview(data).cast("B"))
    length = len(buffer)
    native.init(space.scanner, native.scan_options(mode, max_bytes, length, max_width, max_height, max_entries, max_depth,
                                                   max_pixels))
    base = ctypes.cast(ctypes.c_char_p(buffer), ctypes.c_void_p).value or 0
    scanner, info_address, info = space.scanner, space.info_address, space.info
    position = 0
    status = native.feed(scanner, None, 0, info_address)
    while status == native.NEED_MORE:
        pending = native.pending_skip(scanner)
        if pending:
            passed = native.skip(scanner, min(pending, length - position))
            position += passed
            if position >= length:
                status = native.finish(scanner, info_address)
                break
            status = native.feed(scanner, None, 0, info_address)
            continue
        if position >= length:
            status = native.finish(scanner, info_address)
            break
        take = min(length - position, read_needed(info))
        status = native.feed(scanner, base + position, take, info_address)
        position += take
    del buffer
    return decode(status, info)


def probe_file(file: PathLike | IO[bytes], *, mode: Mode = "full", max_bytes: int = 0, max_width: int = 0,
               max_height: int = 0, max_entries: int = 0, max_depth: int = 0, max_pixels: int = 0) -> Result:
    """The answer for a file, read as the command reads it (SPEC.md §4): 64 KiB reads, no more
    fed than the scanner asks for, a pending skip of 64 KiB or more jumped with a seek (in
    ``bytes_skipped``), shorter ones passed over in the buffer (in ``bytes_read``). So the
    answer and both byte counts equal ``imageprobe --json``'s.

    `file` is a path (str, bytes, os.PathLike) or a binary file object (read from its current
    position; seeked over skips when ``seekable()``). A path that isn't a regular file, or can't
    be opened or read, raises OSError, as ``open`` does. The options are ``Scanner``'s."""
    options = (mode, max_bytes, max_width, max_height, max_entries, max_depth, max_pixels)
    if isinstance(file, (str, bytes, os.PathLike)):
        descriptor = os.open(file, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        try:
            facts = os.fstat(descriptor)
            if not stat.S_ISREG(facts.st_mode):
                if stat.S_ISDIR(facts.st_mode):
                    raise IsADirectoryError(21, "Is a directory", os.fsdecode(file))
                raise OSError(6, "not a regular file (read pipes and devices through a file object)", os.fsdecode(file))
            return _probe_descriptor(descriptor, facts.st_size, options)
        finally:
            os.close(descriptor)
    return _probe_stream(file, options)


def _probe_descriptor(descriptor: int, size: int, options: tuple[Any, ...]) -> Result:
    """The command's reading (64 KiB reads; skips of 64 KiB or more at the end of a read
    jumped; shorter ones, and what of a skip lies in the last read, passed over as read), with
    the same answer and byte counts, but only the bytes the scanner is fed are read from the
    file: the command's 64 KiB read buffer is followed as a window of the file's offsets
    [window_start, window_end), and bytes of it are read (pread) only when they are fed."""
    space = _workspace
    scanner, info_address, info = space.scanner, space.info_address, space.info
    buffer, base = space.buffer_view, space.buffer_address
    mode, max_bytes, max_width, max_height, max_entries, max_depth, max_pixels = options
    native.init(scanner, native.scan_options(mode, max_bytes, size if size > 0 else 0, max_width, max_height,
                                             max_entries, max_depth, max_pixels))
    # Feeding no more than the scanner asks for shows it every skip, so skipped bytes don't count
    # against its max_bytes (SPEC.md §4). A file smaller than that limit can't reach it, and the
    # answer and the byte counts are then the same whatever is fed (§1.7): what is read is fed
    # at once, in far fewer calls.
    bulk = 0 < size < (max_bytes or DEFAULT_MAX_BYTES)
    position = window_end = 0         # the next offset to feed; the end of the command's last read
    cached_start = cached_end = 0     # offsets held in `buffer`
    skipped_after_reading = 0
    feed, skip, pending_skip, needed = native.feed, native.skip, native.pending_skip, read_needed
    NEED_MORE = native.NEED_MORE
    status = feed(scanner, None, 0, info_address)
    while status == NEED_MORE:
        pending = pending_skip(scanner)
        if pending:
            if position < window_end:
                left = window_end - position
                passed = skip(scanner, pending if pending < left else left)
                skipped_after_reading += passed
                position += passed
                status = feed(scanner, None, 0, info_address)
                continue
            if pending >= SEEK_THRESHOLD:
                # The command's lseek; past any offset a file can have, the input ends there.
                skip(scanner, pending)
                if pending > _INT64_MAX - position:
                    status = native.finish(scanner, info_address)
                    break
                position = window_end = position + pending
                status = feed(scanner, None, 0, info_address)
                continue
        if position == window_end:
            # The command's read(64 KiB) at `position`: what the file holds there.
            if position >= size:
                size = max(size, os.fstat(descriptor).st_size)  # a file that grew, or procfs
                if position >= size and not os.pread(descriptor, 1, position):
                    status = native.finish(scanner, info_address)
                    break
            window_end = position + (CHUNK if size - position > CHUNK or size <= position else size - position)
        take = window_end - position
        wanted = needed(info)
        if position < cached_start or position + (1 if bulk else min(take, wanted)) > cached_end:
            if wanted < take and take > 4096:
                take = wanted if wanted > 4096 else 4096
            count = os.preadv(descriptor, [buffer[:take]], position)
            cached_start, cached_end = position, position + count
            if not count:  # the file ended (shrank) inside the window
                window_end = position
                status = native.finish(scanner, info_address)
                break
            if count < take:
                window_end = cached_end
        take = cached_end - position
        if not bulk and wanted < take:
            take = wanted
        status = feed(scanner, base + (position - cached_start), take, info_address)
        position += take
    return decode(status, info, skipped_after_reading)


def _probe_stream(stream: IO[bytes], options: tuple[Any, ...]) -> Result:
    space = _workspace
    scanner, info_address, info = space.scanner, space.info_address, space.info
    view, base = space.buffer_view, space.buffer_address
    mode, max_bytes, max_width, max_height, max_entries, max_depth, max_pixels = options
    seekable = False
    length = 0
    try:
        seekable = stream.seekable()
        if seekable:
            here = stream.tell()
            length = max(0, stream.seek(0, io.SEEK_END) - here)
            stream.seek(here)
    except (AttributeError, OSError, ValueError):
        seekable = False
    native.init(scanner, native.scan_options(mode, max_bytes, length, max_width, max_height, max_entries, max_depth,
                                             max_pixels))
    start = end = 0
    skipped_after_reading = 0
    status = native.feed(scanner, None, 0, info_address)
    while status == native.NEED_MORE:
        pending = native.pending_skip(scanner) if seekable else 0
        if pending and start < end:
            passed = native.skip(scanner, min(pending, end - start))
            skipped_after_reading += passed
            start += passed
            status = native.feed(scanner, None, 0, info_address)
            continue
        if pending >= SEEK_THRESHOLD and start == end:
            if pending > _INT64_MAX:
                native.skip(scanner, pending)
                status = native.finish(scanner, info_address)
                break
            stream.seek(pending, io.SEEK_CUR)
            native.skip(scanner, pending)
            status = native.feed(scanner, None, 0, info_address)
            continue
        if start == end:
            if hasattr(stream, "readinto"):
                count = stream.readinto(view)
            else:
                chunk = stream.read(CHUNK)
                count = len(chunk)
                view[:count] = chunk
            if not count:
                status = native.finish(scanner, info_address)
                break
            start, end = 0, count
        take = min(end - start, read_needed(info))
        status = native.feed(scanner, base + start, take, info_address)
        start += take
    # Skipped bytes that were in the read buffer were read: in bytes_read, not bytes_skipped.
    return decode(status, info, skipped_after_reading)
