"""probe_file, probe and compat.get against `imageprobe --json`, on every file, in all three modes."""

from __future__ import annotations

import dataclasses
import io
import os
from pathlib import Path
from typing import List

import pytest

import imageprobe
import imageprobe.compat
from conftest import comparable, run_cli

MODES = {"full": [], "dimensions_only": ["--dimensions-only"], "animation": ["--animation"]}


@pytest.fixture(scope="session")
def expected(cli: str, files: List[Path]) -> dict:
    """The command's answers, by mode, in file order."""
    return {mode: run_cli(cli, flags, [str(path) for path in files]) for mode, flags in MODES.items()}


def differences(pairs: list) -> list:
    return [(path, want, got) for path, want, got in pairs if want != got]


@pytest.mark.parametrize("mode", MODES)
def test_probe_file_equals_the_command(mode: str, files: List[Path], expected: dict) -> None:
    """Every field, byte counts included: probe_file reads as the command reads (SPEC.md §4)."""
    pairs = [(path, comparable(want), comparable(imageprobe.probe_file(path, mode=mode).to_dict()))
             for path, want in zip(files, expected[mode])]
    wrong = differences(pairs)
    assert not wrong, f"{len(wrong)} of {len(files)} differ, first: {wrong[:3]}"


def test_probe_file_with_a_small_max_bytes_equals_the_command(cli: str, files: List[Path]) -> None:
    """Files larger than max_bytes are read feeding no more than the scanner asks for, so
    skipped bytes don't count against the limit; smaller ones are fed as read. Both read as the
    command reads."""
    expected = run_cli(cli, ["--max-bytes", "4096"], [str(path) for path in files])
    pairs = [(path, comparable(want), comparable(imageprobe.probe_file(path, max_bytes=4096).to_dict()))
             for path, want in zip(files, expected)]
    wrong = differences(pairs)
    assert not wrong, f"{len(wrong)} of {len(files)} differ, first: {wrong[:3]}"


@pytest.mark.parametrize("mode", MODES)
def test_probe_bytes_equals_the_command(mode: str, files: List[Path], expected: dict) -> None:
    """The answer from memory is the same (byte counts differ: nothing is read from a disk)."""
    drop = ("bytesRead", "bytesSkipped")
    pairs = [(path, comparable(want, drop=drop), comparable(imageprobe.probe(path.read_bytes(), mode=mode).to_dict(), drop=drop))
             for path, want in zip(files, expected[mode])]
    wrong = differences(pairs)
    assert not wrong, f"{len(wrong)} of {len(files)} differ, first: {wrong[:3]}"


def test_file_objects_equal_paths(files: List[Path]) -> None:
    """A binary file object (seekable: skips jumped) and an in-memory stream answer as the path does."""
    for path in files[:: max(1, len(files) // 60)]:
        want = imageprobe.probe_file(path)
        with open(path, "rb") as handle:
            assert imageprobe.probe_file(handle) == want, path
        assert imageprobe.probe_file(io.BytesIO(path.read_bytes())) == want, path
        assert imageprobe.probe_file(os.fsencode(path)) == want, path


def test_compat_get_is_imagesize_get(files: List[Path]) -> None:
    """(width, height), swapped for the quarter-turn orientations of the formats imagesize_py
    reads one from (JPEG, TIFF, HEIF, AVIF) unless exif_rotation=False; (-1, -1) for anything
    that isn't an image or can't be read. (A HEIF's Exif-item orientation, which the core
    ignores: test_compat.py.)"""
    for path in files:
        info = imageprobe.probe_file(path)
        if not info.ok:
            assert imageprobe.compat.get(path) == (-1, -1)
            continue
        stored = (info.width, info.height)
        turns = info.format in ("jpeg", "tiff", "heif", "avif") and info.orientation in (5, 6, 7, 8)
        if info.format in ("jpeg", "tiff") or turns:
            assert imageprobe.compat.get(path) == ((info.height, info.width) if turns else stored), path
        assert imageprobe.compat.get(str(path), exif_rotation=False) == stored, path
    assert imageprobe.compat.get("/nonexistent/image.png") == (-1, -1)
    assert imageprobe.compat.get(Path(files[0]).parent) == (-1, -1)


def test_errors_are_oserrors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        imageprobe.probe_file(tmp_path / "missing.png")
    with pytest.raises(IsADirectoryError):
        imageprobe.probe_file(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError):  # at once: never blocks on a FIFO without a writer
        imageprobe.probe_file(fifo)
    with pytest.raises(ValueError):
        imageprobe.probe(b"", mode="fast")  # type: ignore[arg-type]


def test_answers_are_frozen_typed_dataclasses(files: List[Path]) -> None:
    from conftest import png
    info = imageprobe.probe(png(3, 2))
    assert isinstance(info, imageprobe.ImageInfo) and info.ok
    assert (info.format, info.mime, info.width, info.height, info.orientation) == ("png", "image/png", 3, 2, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.width = 4  # type: ignore[misc]
    assert info.to_dict()["displayWidth"] == 3 and "bytesRead" in info.to_dict()
    failure = imageprobe.probe(b"not an image")
    assert isinstance(failure, imageprobe.Failure) and not failure.ok
    assert failure.error == "unknownFormat" and failure.message
    truncated = imageprobe.probe(png(3, 2)[:20])
    assert not truncated.ok and truncated.error == "truncated" and truncated.detected_format == "png"
    assert (Path(imageprobe.__file__).parent / "py.typed").exists()
    if os.environ.get("IMAGEPROBE_REQUIRE_INSTALLED") == "1":
        assert imageprobe.__version__ != "0+unknown"


def test_the_info_fields_are_listed_once() -> None:
    """ImageInfo's declaration is the list of imageprobe_info's fields: its length is the
    library's, and a list that doesn't match the library is refused at import."""
    from imageprobe import _info, _native
    count = len(_info.INFO.names)
    assert _native.info_layout(count) == _info.INFO.size and _native.info_layout(count + 1) == 0
    assert _info.INFO.names[:3] == ["needed", "bytes_read", "bytes_skipped"]
    with pytest.raises(ImportError, match="different versions"):
        _native.Layout("imageprobe_info", _native.info_layout, [(name, _native.U64) for name in _info.INFO.names[:-1]])
    public = [field.name for field in dataclasses.fields(imageprobe.ImageInfo)]
    assert "display_width" in public and "needed" not in public
