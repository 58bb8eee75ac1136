"""The extra facts (hdr, gain_map, cicp, icc_profile, dpi, interlaced, motion_photo) and
max_pixels: on images made by Pillow and ImageMagick (tests/fixtures/README.md says how) and on
images written here, each answer checked, and against `imageprobe --json` in all three modes."""

from __future__ import annotations

import dataclasses
import io
import struct
import zlib
from pathlib import Path
from typing import List

import pytest

import imageprobe
from conftest import comparable, gif, names, run_cli
from servers import Nginx

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DPI_PNG = FIXTURES / "pillow-dpi300.png"            # Pillow, dpi=(300, 300); 64×48
INTERLACED_PNG = FIXTURES / "magick-interlaced.png"  # ImageMagick, -interlace PNG; 64×48
ICC_JPEG = FIXTURES / "pillow-icc.jpg"               # Pillow, an sRGB ICC profile; 64×48
MODES = {"full": [], "dimensions_only": ["--dimensions-only"], "animation": ["--animation"]}
EXTRA = ("hdr", "gain_map", "cicp", "icc_profile", "dpi", "interlaced", "motion_photo")


def cicp_png() -> bytes:
    """A 4×3 RGB PNG with cICP 9/16/0 full range (BT.2020, PQ: HDR) and pHYs 2835×3780 px/m
    (72×96 dpi)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + b"\x80" * 12 for _ in range(3))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 3, 8, 2, 0, 0, 0))
            + chunk(b"cICP", bytes([9, 16, 0, 1])) + chunk(b"pHYs", struct.pack(">IIB", 2835, 3780, 1))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    """The fixtures and the images written here, as files."""
    folder = tmp_path_factory.mktemp("facts")
    (folder / "cicp.png").write_bytes(cicp_png())
    (folder / "animated.gif").write_bytes(gif(5, 4))
    return [DPI_PNG, INTERLACED_PNG, ICC_JPEG, folder / "cicp.png", folder / "animated.gif"]


def test_dpi_from_pillow() -> None:
    info = imageprobe.probe_file(DPI_PNG)
    assert info.ok
    assert (info.format, info.width, info.height, info.dpi) == ("png", 64, 48, (300, 300))
    assert (info.interlaced, info.icc_profile, info.cicp, info.hdr) == (False, False, None, None)
    assert info.to_dict()["dpi"] == [300, 300]


def test_interlaced_png_from_imagemagick() -> None:
    info = imageprobe.probe(INTERLACED_PNG.read_bytes())
    assert info.ok
    assert (info.width, info.height, info.interlaced, info.progressive, info.dpi) == (64, 48, True, True, None)


def test_icc_profile_in_a_jpeg() -> None:
    info = imageprobe.probe_file(ICC_JPEG)
    assert info.ok
    assert (info.format, info.icc_profile, info.hdr, info.gain_map, info.motion_photo) == ("jpeg", True, False, False, False)
    assert info.interlaced is None and info.to_dict()["iccProfile"] is True


def test_cicp_and_dpi_written_here() -> None:
    info = imageprobe.probe(cicp_png())
    assert info.ok
    assert info.cicp == (9, 16, 0, True) and isinstance(info.cicp[3], bool)
    assert (info.hdr, info.dpi, info.gain_map) == (True, (72, 96), None)
    answer = info.to_dict()
    assert (answer["cicp"], answer["dpi"], answer["hdr"]) == ([9, 16, 0, True], [72, 96], True)
    assert "gainMap" not in answer and "motionPhoto" not in answer  # unknown: left out


def test_the_fields_are_declared_in_the_headers_order() -> None:
    """Each extra fact is an attribute (None when unknown), a JSON key in camelCase, and the
    C fields it is read from are in ImageInfo's list where imageprobe.h has them."""
    from imageprobe import _info
    public = [field.name for field in dataclasses.fields(imageprobe.ImageInfo)]
    assert all(name in public for name in EXTRA)
    c_names = _info.INFO.names
    start = c_names.index("eps_preview") + 1
    assert c_names[start:start + 9] == ["hdr", "gain_map", "icc_profile", "interlaced", "motion_photo", "has_cicp",
                                        "cicp", "dpi_x", "dpi_y"]
    assert c_names[start + 9] == "error"
    info = imageprobe.probe(cicp_png(), mode="dimensions_only")
    assert all(getattr(info, name) is None for name in EXTRA), "dimensions-only mode doesn't read them"


@pytest.mark.parametrize("mode", MODES)
def test_the_answers_equal_the_command(mode: str, made: List[Path], cli: str) -> None:
    expected = run_cli(cli, MODES[mode], [str(path) for path in made])
    for path, want in zip(made, expected):
        got = imageprobe.probe_file(path, mode=mode).to_dict()  # type: ignore[arg-type]
        assert comparable(got) == comparable(want), path
        # The command prints each extra fact in full and animation modes, null when unknown.
        keys = ("hdr", "gainMap", "cicp", "iccProfile", "dpi", "interlaced", "motionPhoto")
        assert all((key in want) == (mode != "dimensions_only") for key in keys), want


# --- max_pixels ------------------------------------------------------------------------------

def refused(answer: imageprobe.Result, width: int = 64, height: int = 48, frames: int | None = None,
            format: str = "png") -> bool:
    return (not answer.ok and answer.error == "tooManyPixels" and answer.detected_format == format
            and (answer.width, answer.height, answer.frame_count) == (width, height, frames))


def test_max_pixels_refuses_a_larger_image_with_its_size() -> None:
    data = DPI_PNG.read_bytes()  # 64 × 48 = 3,072 pixels
    assert refused(imageprobe.probe(data, max_pixels=1000))
    assert refused(imageprobe.probe_file(DPI_PNG, max_pixels=1000))
    assert refused(imageprobe.probe_file(io.BytesIO(data), max_pixels=1000))
    with open(DPI_PNG, "rb") as handle:
        assert refused(imageprobe.probe_file(handle, max_pixels=1000))
    with imageprobe.Scanner(max_pixels=1000) as scanner:
        for offset in range(0, len(data), 7):
            if scanner.feed(data[offset:offset + 7]) is not None:
                break
        assert refused(scanner.finish())
    failure = imageprobe.probe_file(DPI_PNG, max_pixels=1000)
    assert failure.message and failure.to_dict() == {
        "error": "tooManyPixels", "message": failure.message, "detectedFormat": "png", "width": 64, "height": 48,
        "bytesRead": failure.bytes_read}
    # At the limit, far above it, and 0 (no limit): answers.
    for limit in (64 * 48, (1 << 64) - 1, 0):
        assert imageprobe.probe(data, max_pixels=limit).ok, limit
    with pytest.raises(ValueError):
        imageprobe.probe(data, max_pixels=-1)


def test_max_pixels_counts_frames_in_animation_mode() -> None:
    data = gif(5, 4)  # 3 frames: 60 pixels in animation mode
    assert imageprobe.probe(data, max_pixels=50).ok
    assert refused(imageprobe.probe(data, mode="animation", max_pixels=50), 5, 4, 3, "gif")
    assert imageprobe.probe(data, mode="animation", max_pixels=60).frame_count == 3


@pytest.mark.parametrize("mode", MODES)
def test_max_pixels_equals_the_command(mode: str, files: List[Path], made: List[Path], cli: str) -> None:
    """--max-pixels 1000: the same refusals (format, size, frame count, bytes read) and answers."""
    paths = [*made, *files]
    expected = run_cli(cli, [*MODES[mode], "--max-pixels", "1000"], [str(path) for path in paths])
    answers = [imageprobe.probe_file(path, mode=mode, max_pixels=1000) for path in paths]  # type: ignore[arg-type]
    wrong = [(path, comparable(want), comparable(got.to_dict()))
             for path, want, got in zip(paths, expected, answers) if comparable(want) != comparable(got.to_dict())]
    assert not wrong, f"{len(wrong)} of {len(paths)} differ, first: {wrong[:3]}"
    assert any(not answer.ok and answer.error == "tooManyPixels" for answer in answers)


def test_max_pixels_over_urls_equals_the_command(nginx: Nginx, files: List[Path], cli: str) -> None:
    urls = [nginx.url(name) for name in names(files)][:200]
    drop = ("bytesTransferred", "requests")
    for flags, options in (([], {}), (["--animation"], {"mode": "animation"})):
        theirs = run_cli(cli, [*flags, "--max-pixels", "1000"], urls)
        ours = list(imageprobe.probe_urls(urls, jobs=8, max_pixels=1000, **options))
        wrong = [(url, comparable(want, drop=drop), comparable(got.to_dict(), drop=drop))
                 for url, want, got in zip(urls, theirs, ours) if comparable(want, drop=drop) != comparable(got.to_dict(), drop=drop)]
        assert not wrong, f"{len(wrong)} of {len(urls)} differ, first: {wrong[:3]}"
    refusal = next((answer for answer in ours if not answer.ok and answer.error == "tooManyPixels"), None)
    assert refusal is not None and refusal.width and refusal.height and refusal.detected_format
    assert refusal.requests and refusal.bytes_transferred
    single = imageprobe.probe_url(urls[ours.index(refusal)], mode="animation", max_pixels=1000)
    assert (single.error, single.width, single.height) == ("tooManyPixels", refusal.width, refusal.height)
