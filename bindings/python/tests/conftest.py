"""What the tests run against, from the environment (Scripts/check-packages.sh sets them):

- IMAGEPROBE_CLI: the `imageprobe` command whose `--json` output the package must equal;
- IMAGEPROBE_FILES: files and directories (os.pathsep-separated) to probe: the corpus and the
  builders' examples in CI; without it, images the tests write themselves;
- IMAGEPROBE_EXAMPLES: the folder of Examples/python (the Dask example);
- IMAGEPROBE_REQUIRE_INSTALLED=1: fail unless `imageprobe` is an installed package (not src/);
- IMAGEPROBE_REQUIRE_ALL=1: what a test needs (the command, nginx, openssl, dask) missing is a
  failure, not a skip (CI).
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Iterator, List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import imageprobe  # noqa: E402
from servers import Nginx, ScriptedServer, nginx_binary  # noqa: E402

REQUIRE_ALL = os.environ.get("IMAGEPROBE_REQUIRE_ALL") == "1"


def need(condition: object, reason: str) -> None:
    """Skips (or, with IMAGEPROBE_REQUIRE_ALL=1, fails) when `condition` is false."""
    if not condition:
        if REQUIRE_ALL:
            pytest.fail(f"required: {reason}")
        pytest.skip(reason)


def pytest_report_header(config: pytest.Config) -> str:
    return f"imageprobe {imageprobe.__version__} from {Path(imageprobe.__file__).parent}"


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("IMAGEPROBE_REQUIRE_INSTALLED") == "1":
        location = Path(imageprobe.__file__).resolve()
        if "site-packages" not in location.parts and "dist-packages" not in location.parts:
            raise pytest.UsageError(f"imageprobe was imported from {location}, not from an installed package")


def png(width: int, height: int, *, exif_orientation: int | None = None) -> bytes:
    """A small valid PNG (8-bit RGB), with an eXIf chunk after IDAT when asked."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + b"\x80" * (3 * width) for _ in range(height))
    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw))
    if exif_orientation is not None:
        tiff = b"MM\0*" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x112, 3, 1, exif_orientation, 0) + b"\0\0\0\0"
        body += chunk(b"eXIf", tiff)
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IEND", b"")


def gif(width: int, height: int, frames: int = 3) -> bytes:
    """An animated GIF: `frames` 1-colour frames of 50 ms, looping forever."""
    out = b"GIF89a" + struct.pack("<HH", width, height) + b"\x80\x00\x00" + b"\x00\x00\x00\xff\xff\xff"
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for _ in range(frames):
        out += b"\x21\xf9\x04\x00\x05\x00\x00\x00"
        out += b"\x2c" + struct.pack("<HHHH", 0, 0, width, height) + b"\x00" + b"\x02\x02\x44\x01\x00"
    return out + b"\x3b"


def _own_images(directory: Path) -> List[Path]:
    images = {
        "small.png": png(3, 2),
        "rotated.png": png(4, 3, exif_orientation=6),
        "anim.gif": gif(5, 4),
        "truncated.png": png(3, 2)[:20],
        "empty.bin": b"",
        "text.txt": b"not an image at all\n",
    }
    for name, data in images.items():
        (directory / name).write_bytes(data)
    return sorted(directory / name for name in images)


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    """Every file to probe, sorted; the tests' own images when IMAGEPROBE_FILES isn't set."""
    given = [entry for entry in os.environ.get("IMAGEPROBE_FILES", "").split(os.pathsep) if entry]
    found: List[Path] = []
    for entry in given:
        path = Path(entry)
        if path.is_dir():
            found += [item for item in path.rglob("*") if item.is_file()]
        elif path.is_file():
            found.append(path)
    if not found:
        found = _own_images(tmp_path_factory.mktemp("images"))
    return sorted(set(found))


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("IMAGEPROBE_CLI") or shutil.which("imageprobe")
    need(path and os.access(path, os.X_OK), "the imageprobe command (IMAGEPROBE_CLI)")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def nginx(files: List[Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    need(nginx_binary() is not None, "nginx (apt-get install nginx-light)")
    need(shutil.which("openssl") is not None, "openssl")
    root = tmp_path_factory.mktemp("www")
    # One folder of links: the files under simple names (f0000.ext), so URLs need no escaping.
    for index, path in enumerate(files):
        (root / f"f{index:04d}{path.suffix.lower()[:6]}").symlink_to(path.resolve())
    server = Nginx(root, tmp_path_factory.mktemp("nginx"))
    yield server
    server.stop()


@pytest.fixture
def scripted() -> Iterator[List[ScriptedServer]]:
    """Scripted servers a test starts (append them), stopped after it."""
    servers: List[ScriptedServer] = []
    yield servers
    for server in servers:
        server.stop()


def names(files: List[Path]) -> List[str]:
    """The names the nginx fixture serves `files` under."""
    return [f"f{index:04d}{path.suffix.lower()[:6]}" for index, path in enumerate(files)]


def run_cli(cli: str, flags: List[str], inputs: List[str]) -> List[dict]:
    """The command's --json objects for `inputs` (paths or URLs), in input order."""
    import json
    objects: List[dict] = []
    for start in range(0, len(inputs), 2000):
        part = inputs[start:start + 2000]
        done = subprocess.run([cli, "--json", *flags, *part], capture_output=True, text=True, timeout=600)
        lines = done.stdout.splitlines()
        assert len(lines) == len(part), done.stderr[-2000:]
        objects += [json.loads(line) for line in lines]
    return objects


def comparable(answer: dict, *, drop: tuple = ()) -> dict:
    """A JSON answer without unknown (null) values, the CLI-only animation fields and `drop`,
    durations to the command's 3 decimals."""
    skipped = {"path", "largestFrame", "firstDelays", *drop}
    return {key: (round(value, 3) if isinstance(value, float) else value)
            for key, value in answer.items() if value is not None and key not in skipped}
