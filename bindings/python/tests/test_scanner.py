"""Scanner: the same answer under every chunking (SPEC.md §1.7), skips, the context manager."""

from __future__ import annotations

import random
from pathlib import Path
from typing import List

import pytest

import imageprobe
from conftest import gif, png


def sample(files: List[Path], count: int = 24) -> List[Path]:
    """Up to `count` files, one per format first (by the scanner's answer), then spread."""
    chosen, seen = [], set()
    for path in files:
        answer = imageprobe.probe_file(path)
        kind = answer.format if answer.ok else answer.error
        # Files whose answer comes within 256 KiB: 1-byte chunks of more take long.
        small = answer.bytes_read + answer.bytes_skipped <= 256 << 10
        if kind not in seen and small:
            seen.add(kind)
            chosen.append(path)
    rest = [path for path in files if path not in chosen and path.stat().st_size <= 256 << 10]
    chosen += rest[:: max(1, len(rest) // max(1, count - len(chosen)))][: max(0, count - len(chosen))]
    return chosen[:count]


def chunked(data: bytes, sizes: List[int], *, mode: str = "full", use_skips: bool = False) -> imageprobe.Result:
    """Feeds `data` in chunks of the given sizes (cycled); with `use_skips`, passes over every
    pending skip with skip() instead of feeding it."""
    with imageprobe.Scanner(mode=mode, input_length=len(data)) as scanner:  # type: ignore[arg-type]
        position, index = 0, 0
        while position < len(data):
            if use_skips and scanner.pending_skip:
                position += scanner.skip(min(scanner.pending_skip, len(data) - position))
                if scanner.feed(b"") is not None:
                    break
                continue
            size = sizes[index % len(sizes)]
            index += 1
            answer = scanner.feed(memoryview(data)[position:position + size])
            position += size
            if answer is not None:
                return answer
        return scanner.finish()


def answer_only(result: imageprobe.Result) -> dict:
    return {k: v for k, v in result.to_dict().items() if k not in ("bytesRead", "bytesSkipped")}


@pytest.mark.parametrize("mode", ["full", "dimensions_only", "animation"])
def test_every_chunking_gives_the_same_answer(mode: str, files: List[Path]) -> None:
    for path in sample(files):
        data = path.read_bytes()
        whole = chunked(data, [len(data) or 1], mode=mode)
        want = answer_only(whole)
        # Every fixed chunk size up to 64, and some larger.
        for size in list(range(1, 65)) + [100, 1000, 4096, 65536]:
            assert answer_only(chunked(data, [size], mode=mode)) == want, (path, size)
        # Every split into two chunks within the bytes the answer needed (and just past them).
        needed = min(len(data), whole.bytes_read + whole.bytes_skipped + 2)
        for split in range(0, needed + 1, max(1, needed // 400)):
            assert answer_only(chunked(data, [split or 1, len(data)], mode=mode)) == want, (path, split)
        # Seeded random chunkings, and seeking over skips.
        generator = random.Random(len(data))
        for _ in range(20):
            sizes = [generator.choice([1, 2, 3, 5, 8, 13, 100, 511, 4096]) for _ in range(64)]
            assert answer_only(chunked(data, sizes, mode=mode)) == want, (path, sizes[:8])
            assert answer_only(chunked(data, sizes, mode=mode, use_skips=True)) == want, (path, "skips")


def test_scanner_protocol() -> None:
    data = png(5, 4, exif_orientation=6)
    scanner = imageprobe.Scanner()
    assert scanner.result is None and scanner.needed > 0
    assert scanner.feed(data[:10]) is None
    assert scanner.needed > 0
    answer = scanner.feed(bytearray(data[10:]))
    assert answer is None or answer.ok
    final = answer or scanner.finish()
    assert final.ok and (final.width, final.height, final.orientation) == (5, 4, 6)
    assert (final.display_width, final.display_height) == (4, 5)
    assert scanner.feed(b"more") is final and scanner.finish() is final and scanner.result is final
    scanner.close()
    with pytest.raises(ValueError):
        scanner.feed(b"x")
    with imageprobe.Scanner(mode="dimensions_only") as dims:
        assert dims.feed(data) is not None and dims.result is not None
    with pytest.raises(ValueError):
        dims.pending_skip


def test_finish_on_a_truncated_header() -> None:
    with imageprobe.Scanner() as scanner:
        assert scanner.feed(png(3, 2)[:16]) is None
        failure = scanner.finish()
    assert not failure.ok and failure.error == "truncated"


def test_animation_mode() -> None:
    info = imageprobe.probe(gif(5, 4, frames=3), mode="animation")
    assert info.ok and info.animated and info.frame_count == 3 and info.loop_count == 0
    assert info.duration == 150 and info.playback_duration == 150


def test_limits() -> None:
    limited = imageprobe.probe(png(300, 2), max_width=100)
    assert not limited.ok and limited.error == "limitExceeded"
    with pytest.raises(ValueError):
        imageprobe.Scanner(max_bytes=-1)
