"""ImageProbe: an image's format, pixel size, orientation and animation facts from its first
bytes, over the ImageProbe core (libimageprobe, bundled; no dependencies).

    >>> import imageprobe
    >>> info = imageprobe.probe_file("photo.jpg")
    >>> if info.ok:
    ...     print(info.format, info.width, info.height, info.orientation)

- ``probe(data)``: bytes in memory; ``probe_file(path_or_file)``: a file, read as the
  ``imageprobe`` command reads it (seeking over what the scanner skips);
- ``Scanner``: push bytes as they arrive (``feed``, ``finish``, ``pending_skip``, ``skip``);
- ``probe_url(url)``: Range requests planned by the core, over ``http.client``;
  ``probe_urls(urls, jobs=32)``: many at once, results in order, bounded memory; with
  ``cache=DIR`` (or a ``URLCache``), answers kept on disk and revalidated;
- ``imageprobe.compat.get(path)``: ``imagesize.get``'s answer, for a drop-in switch.
- ``imageprobe.sphinx``: a Sphinx extension that writes each HTML image's width and height.

Every answer is an ``ImageInfo`` (``ok`` is True) or a ``Failure`` (``ok`` is False), frozen
dataclasses whose fields are the command's JSON names in snake_case (SPEC.md §4);
``to_dict()`` gives the JSON object itself.
"""

from ._cache import URLCache
from ._info import Failure, ImageInfo, Result
from ._native import LIBRARY_PATH as _LIBRARY_PATH
from ._scan import Mode, Scanner, probe, probe_file
from ._url import probe_url, probe_urls

try:
    from ._version import __version__  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # a source checkout that was never built
    __version__ = "0+unknown"

__all__ = ["Failure", "ImageInfo", "Mode", "Result", "Scanner", "URLCache", "probe", "probe_file", "probe_url",
           "probe_urls", "__version__"]
