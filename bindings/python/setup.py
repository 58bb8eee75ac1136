"""Builds the wheel: the pure-Python package plus libimageprobe.so, tagged manylinux.

Where libimageprobe.so comes from, in order:
1. IMAGEPROBE_LIBRARY: a libimageprobe.so built already (Scripts/package.sh passes the one
   Scripts/build-c.sh made, so the library is compiled once for the C SDK and the wheel);
2. otherwise Scripts/build-c.sh with the Swift toolchain on PATH: from native/ in an sdist
   (Scripts/package.sh puts the core's sources there), or from the repository in a checkout.

The wheel holds no Python extension, so its tag is py3-none-PLATFORM: one wheel for every
Python 3.10+. The platform is manylinux_2_N for the newest glibc symbol version the library
refers to (memcpy@GLIBC_2.14 on x86_64: manylinux_2_17, the oldest policy that has it).
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent


def native_root() -> Path | None:
    """The folder with CHANGELOG.md, Scripts/build-c.sh and the core's Sources."""
    for candidate in (HERE / "native", HERE.parent.parent):
        if (candidate / "Scripts" / "build-c.sh").is_file() and (candidate / "CHANGELOG.md").is_file():
            return candidate
    return None


@lru_cache(maxsize=None)
def version() -> str:
    root = native_root()
    if root is None:
        raise SystemExit("CHANGELOG.md not found: build from the repository or from an sdist made by Scripts/package.sh")
    match = re.search(r"^## (\d+\.\d+\.\d+)", (root / "CHANGELOG.md").read_text(encoding="utf-8"), re.MULTILINE)
    if match is None:
        raise SystemExit("CHANGELOG.md has no release heading (## X.Y.Z)")
    return match.group(1)


@lru_cache(maxsize=None)
def library() -> Path:
    named = os.environ.get("IMAGEPROBE_LIBRARY")
    if named:
        path = Path(named).resolve()
        if not path.is_file():
            raise SystemExit(f"IMAGEPROBE_LIBRARY={named}: no such file")
        return path
    root = native_root()
    if root is None:
        raise SystemExit("no libimageprobe.so: set IMAGEPROBE_LIBRARY, or build from an sdist or the repository")
    if shutil.which("swiftc") is None:
        raise SystemExit(
            "building libimageprobe.so needs a Swift 6 toolchain (swiftc on PATH, https://swift.org/install) and "
            "binutils; or set IMAGEPROBE_LIBRARY to a libimageprobe.so built by Scripts/build-c.sh"
        )
    subprocess.run(["bash", str(root / "Scripts" / "build-c.sh"), "c"], check=True)
    path = root / ".build" / "c" / f"libimageprobe.so.{version()}"
    if not path.is_file():
        raise SystemExit(f"Scripts/build-c.sh didn't make {path}")
    return path


def platform_tag(path: Path) -> str:
    """manylinux_2_N_ARCH for the newest GLIBC_2.N the library refers to (2.17 at least)."""
    machine = platform.machine()
    if platform.system() != "Linux":
        raise SystemExit(f"libimageprobe.so is built for Linux; this is {platform.system()}")
    minors = [int(minor) for minor in re.findall(rb"GLIBC_2\.(\d+)", path.read_bytes())]
    floor = max([17, *minors])
    tags = [f"manylinux_2_{floor}_{machine}"]
    if floor == 17:
        tags.append(f"manylinux2014_{machine}")
    return ".".join(tags)


class BuildPy(build_py):
    """Adds libimageprobe.so and _version.py to the package."""

    def run(self) -> None:
        super().run()
        package = Path(self.build_lib) / "imageprobe"
        package.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library(), package / "libimageprobe.so")
        (package / "_version.py").write_text(f'__version__ = "{version()}"\n', encoding="utf-8")


class BinaryDistribution(Distribution):
    """A distribution with a platform library: installed into platlib, at the wheel's root."""

    def has_ext_modules(self) -> bool:
        return True


class BdistWheel(bdist_wheel):
    """py3-none-manylinux: the library, for any Python 3."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self) -> tuple[str, str, str]:
        return "py3", "none", platform_tag(library())


setup(version=version(), distclass=BinaryDistribution, cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel})
