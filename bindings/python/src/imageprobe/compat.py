"""Drop-in answers for code written against imagesize_py (PyPI ``imagesize``) 2.x.

``get(path)`` returns what ``imagesize.get(path)`` returns: ``(width, height)``, swapped when the
EXIF orientation (or a HEIF/AVIF ``irot``/``imir``) turns the image a quarter turn
(``exif_rotation=True``, imagesize 2.x's default), and ``(-1, -1)`` for anything that isn't a
readable image. It reads every format ImageProbe reads (SPEC.md §3), not only imagesize's.

    import imageprobe.compat as imagesize
    width, height = imagesize.get("photo.jpg")
"""

from __future__ import annotations

import os
from typing import IO, Tuple, Union

from ._scan import probe_file
from ._url import probe_url

FileInput = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", IO[bytes]]


def get(filepath: FileInput, *, exif_rotation: bool = True) -> Tuple[int, int]:
    """(width, height) of an image file, a binary file object, or an http(s) URL given as a
    str; (-1, -1) when it can't be read or isn't an image."""
    try:
        if isinstance(filepath, str) and filepath.startswith(("http://", "https://")):
            info = probe_url(filepath)
        else:
            info = probe_file(filepath)
    except (OSError, ValueError):
        return -1, -1
    if not info.ok:
        return -1, -1
    if exif_rotation and info.orientation in (5, 6, 7, 8):
        return info.height, info.width
    return info.width, info.height
