"""``imageprobe.sphinx``: a Sphinx extension that gives every image of the HTML output its pixel
size as the ``<img>`` tag's ``width`` and ``height`` attributes, so that browsers reserve the
space before the image arrives and the page doesn't shift as it loads (CLS). Sphinx writes a
size only when the author gives one, and reads sizes (imagesize_py) only for ``:scale:``.

    extensions = ["imageprobe.sphinx"]                 # conf.py

    imageprobe_orientation = "display"    # or "stored": the size before the EXIF orientation
    imageprobe_remote_allow = []          # http(s) images to probe: URL prefixes, host names
    imageprobe_public_only = True         # remote: refuse loopback and private addresses
    imageprobe_cache_seconds = 86400      # remote: how long a size is used without asking

Only HTML builders (``html``, ``dirhtml``, ``singlehtml``, ``epub``, ...), and only images
whose author set none of ``:width:``, ``:height:`` and ``:scale:``: those are written as
Sphinx writes them. Local images are probed with ``probe_file`` as each page is written.
Remote images are off unless allowed; the allowed ones are probed all at once, with
``probe_urls``, when the first page is written, and their answers kept in
``<doctreedir>/imageprobe-url-cache/`` (a ``URLCache``, SPEC.md §6.7): a later build within
``imageprobe_cache_seconds`` (or the server's ``max-age``) sends no request, and after it one
conditional request per image, which a ``304 Not Modified`` answers in a few hundred bytes. An image without a size (not an image, broken, an SVG without an intrinsic
size, a failed fetch) is left as it was, with a warning of type ``imageprobe`` (subtype
``local`` or ``remote``; ``suppress_warnings = ["imageprobe"]`` silences them).

How the size gets into the HTML (the least invasive way found):

- Not as the image node's ``width`` and ``height`` on ``doctree-resolved``, the obvious hook:
  Sphinx's HTML builder then takes the image for one the author resized and wraps it in a link
  to the file (``html_scaled_image_link``); and docutils before 0.22 (all that Sphinx 8
  accepts: on Python 3.10, Sphinx 8.1 and docutils 0.21) write those values as
  ``style="width: 3px; height: 2px;"``, a fixed CSS height that defeats a theme's
  ``max-width: 100%``.
- So ``doctree-resolved`` (in the main process, after the post-transforms) only probes, and
  keeps the size in a private node attribute that no writer writes. An image visitor added
  with ``app.add_node(nodes.image, override=True, html=...)``, Sphinx's documented way to give
  its HTML translators a visitor (whatever their class: a theme's too), calls the translator's
  own ``visit_image``: with docutils 0.22 and later, with the size set on the node for that
  call only, as digits, which docutils writes as the ``<img>``'s ``width`` and ``height``
  attributes (it added that for the aspect ratio; anything else of the tag is unchanged);
  before 0.22, without, and the two attributes are added to the ``<img`` it wrote.
  Replacing the translator (``app.set_translator``) would clash with themes and extensions
  that set theirs.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple
from urllib.parse import urlsplit

import docutils
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import ENUM
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

import imageprobe
from imageprobe import URLCache

logger = logging.getLogger(__name__)

#: The remote sizes, in Sphinx's doctree folder: kept by ``-E`` and by a new output folder,
#: removed with the rest of the build (``make clean``).
CACHE_NAME = "imageprobe-url-cache"
#: Remote images probed at once.
JOBS = 8
#: The options by which an author sizes an image: a node with any of them is left alone.
AUTHOR_SIZE = ("width", "height", "scale")
#: docutils 0.22 writes unitless sizes as <img> attributes; before, as a style (above).
NATIVE_ATTRIBUTES = tuple(docutils.__version_info__[:2]) >= (0, 22)
#: The size to write, (width, height), for the image visitor.
SIZE_ATTRIBUTE = "imageprobe_size"
#: The environment's record of each document's remote images (pickled with it).
ENV_ATTRIBUTE = "imageprobe_remote_images"

Size = Tuple[int, int]


def setup(app: Sphinx) -> Dict[str, Any]:
    app.add_config_value("imageprobe_orientation", "display", "html", ENUM("display", "stored"))
    app.add_config_value("imageprobe_remote_allow", [], "html", (list, tuple))
    app.add_config_value("imageprobe_public_only", True, "html", bool)
    # How long the cache is trusted doesn't change any page: no rebuild.
    app.add_config_value("imageprobe_cache_seconds", 86400, "", (int, float))
    extension = _Extension(app)
    app.connect("doctree-read", extension.doctree_read)
    app.connect("env-purge-doc", extension.env_purge_doc)
    app.connect("env-merge-info", extension.env_merge_info)
    app.connect("env-updated", extension.env_updated)
    app.connect("doctree-resolved", extension.doctree_resolved)
    app.add_node(nodes.image, override=True, html=(_visit_image, _depart_image))
    return {"version": imageprobe.__version__, "parallel_read_safe": True, "parallel_write_safe": True}


def _wants_size(node: nodes.image) -> bool:
    return not any(option in node for option in AUTHOR_SIZE)


def _is_remote(uri: str) -> bool:
    return uri[:8].lower().startswith(("http://", "https://"))


def _remote_images(env: BuildEnvironment) -> Dict[str, Set[str]]:
    """Each document's remote image URLs, kept in the environment so that a build knows them
    all before it writes a page (the batch), unchanged documents' included."""
    found: Optional[Dict[str, Set[str]]] = getattr(env, ENV_ATTRIBUTE, None)
    if found is None:
        found = {}
        setattr(env, ENV_ATTRIBUTE, found)
    return found


def _allowed(url: str, allow: Iterable[str]) -> bool:
    """Whether `url` matches an entry of ``imageprobe_remote_allow``: a host name (any scheme
    and port), or a URL prefix (with ``://``) that ends at a boundary: with ``/``, or followed
    in `url` by ``/``, ``?``, ``#`` or nothing, so that ``https://example.com`` doesn't allow
    ``https://example.com.evil.net/``."""
    if isinstance(allow, str):
        allow = [allow]  # one entry written without the list's brackets
    host = (urlsplit(url).hostname or "").lower()
    for entry in allow:
        if "://" not in entry:
            if host and host == entry.strip().lower().rstrip("."):
                return True
        elif url.startswith(entry) and (entry.endswith("/") or url[len(entry):len(entry) + 1] in ("", "/", "?", "#")):
            return True
    return False


class _Extension:
    """One Sphinx application's state: the remote cache, and what this build found out."""

    def __init__(self, app: Sphinx) -> None:
        self.app = app
        #: Whether this build probed its remote images yet (once, before the first page).
        self.batched = False
        #: This build's remote answers, by URL (from the cache, revalidated, or probed), or a
        #: failure's message. Failures aren't cached: they may be passing, and each page's
        #: warning says where the image is.
        self.sizes: Dict[str, imageprobe.ImageInfo] = {}
        self.failures: Dict[str, str] = {}

    # --- reading: the remote images of each document --------------------------------------

    def doctree_read(self, app: Sphinx, doctree: nodes.document) -> None:
        # Every builder's: the environment (doctrees and this record) is shared by builders.
        urls = {node["uri"] for node in doctree.findall(nodes.image) if _wants_size(node) and _is_remote(node["uri"])}
        images = _remote_images(app.env)
        if urls:
            images[app.env.docname] = urls
        else:
            images.pop(app.env.docname, None)

    def env_purge_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _remote_images(env).pop(docname, None)

    def env_merge_info(self, app: Sphinx, env: BuildEnvironment, docnames: Iterable[str],
                       other: BuildEnvironment) -> None:
        # A parallel read's worker: its documents' records.
        theirs = _remote_images(other)
        ours = _remote_images(env)
        for docname in docnames:
            if docname in theirs:
                ours[docname] = theirs[docname]

    def env_updated(self, app: Sphinx, env: BuildEnvironment) -> None:
        # A new build of this application (tests and tools may build more than once).
        self.batched = False
        self.sizes = {}
        self.failures = {}

    # --- writing: the sizes ---------------------------------------------------------------

    def doctree_resolved(self, app: Sphinx, doctree: nodes.document, docname: str) -> None:
        if app.builder.format != "html":
            return
        for node in doctree.findall(nodes.image):
            if not _wants_size(node):
                continue  # the author's size: Sphinx's own (scale from imagesize for local files)
            uri = node["uri"]
            if _is_remote(uri):
                size = self._remote_size(uri, node)
            elif "://" in uri or uri.startswith("data:"):
                continue  # another scheme: nothing to probe
            else:
                size = self._local_size(node)
            if size is not None:
                node[SIZE_ATTRIBUTE] = size

    def _pick(self, info: imageprobe.ImageInfo) -> Optional[Size]:
        """The size to write: as browsers show the image (EXIF orientation applied), or as
        stored."""
        stored = self.app.config.imageprobe_orientation == "stored"
        names = ("width", "height") if stored else ("display_width", "display_height")
        width, height = getattr(info, names[0]), getattr(info, names[1])
        if not width or not height or width <= 0 or height <= 0:
            return None
        return int(width), int(height)

    def _local_size(self, node: nodes.image) -> Optional[Size]:
        env = self.app.env
        path = _source_path(node, self.app.builder.supported_image_types)
        if path is None:
            return None  # no candidate this builder shows: Sphinx warned
        full = os.path.join(str(env.srcdir), path)
        try:
            info = imageprobe.probe_file(full)
        except OSError as error:
            # A missing or unreadable file: Sphinx's "image file not readable" said so already.
            if os.access(full, os.R_OK):
                logger.warning("imageprobe: cannot read %s: %s", path, error.strerror or error, location=node,
                               type="imageprobe", subtype="local")
            return None
        if not info.ok:
            logger.warning("imageprobe: no size for %s: %s", path, info.message, location=node, type="imageprobe",
                           subtype="local")
            return None
        size = self._pick(info)
        if size is None:
            logger.warning("imageprobe: no size for %s", path, location=node, type="imageprobe", subtype="local")
        return size

    def _remote_size(self, url: str, node: nodes.image) -> Optional[Size]:
        config = self.app.config
        if not _allowed(url, config.imageprobe_remote_allow):
            return None  # remote images are off unless allowed: no request, no warning
        if not self.batched:
            # Every allowed remote image of the project at once, before the first page.
            self.batched = True
            known: Set[str] = set().union(*_remote_images(self.app.env).values())
            self._answer(sorted(url for url in known if _allowed(url, config.imageprobe_remote_allow)))
        if url not in self.sizes and url not in self.failures:
            self._answer([url])  # an image no document had when read (added by a transform)
        entry = self.sizes.get(url)
        if entry is None:
            logger.warning("imageprobe: no size for %s: %s", url, self.failures.get(url), location=node,
                           type="imageprobe", subtype="remote")
            return None
        return self._pick(entry)

    def _answer(self, urls: List[str]) -> None:
        """Answers `urls` through the cache (fresh entries without a request, stale ones
        revalidated), `JOBS` at a time."""
        urls = [url for url in urls if url not in self.sizes and url not in self.failures]
        if not urls:
            return
        config = self.app.config
        cache = None
        if config.imageprobe_cache_seconds > 0:
            cache = URLCache(os.path.join(str(self.app.doctreedir), CACHE_NAME), freshness=config.imageprobe_cache_seconds)
        results = list(imageprobe.probe_urls(urls, jobs=JOBS, public_only=config.imageprobe_public_only, cache=cache))
        sent = sum(1 for info in results if info.requests)
        if sent:
            logger.info("imageprobe: %d remote image%s asked for (%d from the cache)", sent, "" if sent == 1 else "s",
                        sum(1 for info in results if getattr(info, "from_cache", False)))
        for url, info in zip(urls, results):
            if not info.ok:
                self.failures[url] = f"{info.error}: {info.message}"
            elif self._pick(info) is None:
                self.failures[url] = f"{info.format} without a size"
            else:
                self.sizes[url] = info


def _source_path(node: nodes.image, supported: Iterable[str]) -> Optional[str]:
    """The image file the builder will copy, relative to the source folder (or absolute), as
    Sphinx's ``post_process_images`` picks it: the one candidate, or the first of the builder's
    supported types among an ``image.*``'s candidates."""
    candidates: Dict[str, str] = node.get("candidates", {})
    if "*" in candidates:
        return str(node["uri"])
    for mimetype in supported:
        if mimetype in candidates:
            return candidates[mimetype]
    return None


def _visit_image(self: Any, node: nodes.image) -> None:
    """The translator's own visit_image, and the size probed for the image, if any."""
    size: Optional[Size] = node.get(SIZE_ATTRIBUTE)
    if size is None:
        type(self).visit_image(self, node)
    elif NATIVE_ATTRIBUTES:
        # Digits without a unit: docutils writes them as the <img>'s width and height. Only
        # for this call: the node stays as Sphinx left it.
        node["width"], node["height"] = str(size[0]), str(size[1])
        try:
            type(self).visit_image(self, node)
        finally:
            del node["width"], node["height"]
    else:
        # Added to the <img ...> written (after any <span id> anchors before it; a video or an
        # embedded SVG has none and gets none).
        start = len(self.body)
        type(self).visit_image(self, node)
        for index in range(start, len(self.body)):
            text = self.body[index]
            at = text.find("<img ")
            if at >= 0:
                self.body[index] = f'{text[:at]}<img width="{size[0]}" height="{size[1]}" {text[at + 5:]}'
                break


def _depart_image(self: Any, node: nodes.image) -> None:
    type(self).depart_image(self, node)
