"""imageprobe.sphinx: small Sphinx projects built in a temporary folder, their HTML read back.

Local images are written by the tests (a PNG, a JPEG with EXIF orientation 6, a broken file);
remote ones are served by a ScriptedServer on loopback (Range requests, every request
recorded), so the tests see which requests a build sends and that a warm cache sends none."""

from __future__ import annotations

import json
import re
import struct
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest

from conftest import REQUIRE_ALL, png
from servers import Request, ScriptedServer, ranged

if REQUIRE_ALL:
    import sphinx  # noqa: F401 - CI installs it: missing is a failure, not a skip
else:
    pytest.importorskip("sphinx")

from sphinx.cmd.build import build_main  # noqa: E402

import imageprobe  # noqa: E402
import imageprobe.sphinx as extension  # noqa: E402


def jpeg(width: int, height: int, orientation: Optional[int] = None) -> bytes:
    """A baseline JPEG header: an APP1 Exif segment with the Orientation when asked, then SOF0."""
    out = b"\xff\xd8"
    if orientation is not None:
        tiff = b"MM\0*" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x112, 3, 1, orientation, 0) + b"\0\0\0\0"
        body = b"Exif\0\0" + tiff
        out += b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body
    out += b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x11\x00\x02\x11\x01\x03\x11\x01"
    out += b"\xff\xda" + struct.pack(">HB", 12, 3) + b"\x01\x00\x02\x11\x03\x11\x00\x3f\x00" + bytes(200) + b"\xff\xd9"
    return out


REMOTE = {
    "/allowed/remote.png": png(7, 5),
    "/allowed/remote-rotated.jpg": jpeg(60, 20, orientation=6),
    "/private/other.png": png(9, 9),
}


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    def handle(request: Request) -> bytes:
        data = REMOTE.get(request.path)
        if data is None:
            return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
        if request.headers.get("if-none-match") == '"v1"':
            return b'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n'
        return ranged(data, request)

    running = ScriptedServer(handle)
    yield running
    running.stop()


def cached(doctrees: Path) -> Dict[str, dict]:
    """The URL cache's entries in the doctree folder, by URL (the key's last line)."""
    records = [json.loads(path.read_text()) for path in (doctrees / extension.CACHE_NAME).glob("*.json")]
    return {record["key"].rsplit("\n", 1)[1]: record for record in records}


def requested(server: ScriptedServer) -> List[str]:
    return [request.path for request in server.requests]


class _Images(HTMLParser):
    """Each <img>'s attributes, by its alt text."""

    def __init__(self) -> None:
        super().__init__()
        self.found: Dict[str, Dict[str, Optional[str]]] = {}

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        if tag == "img":
            attributes = dict(attrs)
            self.found[attributes.get("alt") or ""] = attributes

    handle_startendtag = handle_starttag


def images(html: str) -> Dict[str, Dict[str, Optional[str]]]:
    parser = _Images()
    parser.feed(html)
    return parser.found


def size(attributes: Dict[str, Optional[str]]) -> Tuple[Optional[str], Optional[str]]:
    return attributes.get("width"), attributes.get("height")


def without_sizes(html: str) -> str:
    """`html` without any <img> width or height attribute (for comparing the rest)."""
    return re.sub(r'<img [^>]*>', lambda tag: re.sub(r' (?:width|height)="\d+"', "", tag.group(0)), html)


INDEX = """\
Images
======

.. image:: local.png
   :alt: local

.. image:: rotated.jpg
   :alt: rotated

.. image:: local.png
   :alt: author-width
   :width: 50px

.. image:: local.png
   :alt: author-scale
   :scale: 50

.. figure:: wildcard.*
   :alt: wildcard

   A figure of whichever format the builder takes.

.. image:: broken.png
   :alt: broken

.. image:: missing.png
   :alt: missing

An inline |inline| image.

.. |inline| image:: local.png
   :alt: inline
"""


def project(root: Path, conf: str, remote: str = "") -> Path:
    source = root / "source"
    source.mkdir(parents=True, exist_ok=True)
    (source / "conf.py").write_text(conf)
    (source / "index.rst").write_text(INDEX + remote)
    (source / "local.png").write_bytes(png(3, 2))
    (source / "rotated.jpg").write_bytes(jpeg(40, 30, orientation=6))
    (source / "wildcard.png").write_bytes(png(5, 4))
    (source / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    return source


def build(source: Path, out: Path, doctrees: Path, *, builder: str = "html", fresh: bool = False) -> str:
    """Builds `source` into `out`; returns the warnings."""
    warnings = out.parent / f"{out.name}-warnings.txt"
    arguments = ["-b", builder, "-q", "-N", "-d", str(doctrees), "-w", str(warnings)]
    status = build_main([*arguments, *(["-E"] if fresh else []), str(source), str(out)])
    assert status == 0
    return warnings.read_text()


#: conf.py without the extension (and the same project name and date, for LaTeX).
PLAIN = 'project = "demo"\ntoday = "1 January 2025"\nextensions = []\n'


def conf(**values: object) -> str:
    lines = [f"{name} = {value!r}" for name, value in values.items()]
    return PLAIN.replace("extensions = []", 'extensions = ["imageprobe.sphinx"]') + "".join(f"{line}\n" for line in lines)


def remote_images(server: ScriptedServer) -> str:
    return "".join(f"\n.. image:: {server.url(path)}\n   :alt: {alt}\n" for alt, path in (
        ("remote", "/allowed/remote.png"), ("remote-rotated", "/allowed/remote-rotated.jpg"),
        ("not-allowed", "/private/other.png")))


def test_html_images_get_their_size_and_a_warm_cache_sends_no_request(tmp_path: Path, server: ScriptedServer) -> None:
    source = project(tmp_path, conf(imageprobe_remote_allow=[server.url("/allowed/")], imageprobe_public_only=False),
                     remote_images(server))
    doctrees = tmp_path / "doctrees"
    warnings = build(source, tmp_path / "html", doctrees)
    html = (tmp_path / "html" / "index.html").read_text()
    found = images(html)

    assert size(found["local"]) == ("3", "2")
    assert size(found["inline"]) == ("3", "2")
    assert size(found["rotated"]) == ("30", "40")  # 40×30 stored, orientation 6: shown 30×40
    assert size(found["wildcard"]) == ("5", "4")
    assert size(found["remote"]) == ("7", "5")
    assert size(found["remote-rotated"]) == ("20", "60")
    # The author's sizes, as Sphinx writes them without the extension (the scale from its imagesize).
    (tmp_path / "plain").mkdir()
    plain = project(tmp_path / "plain", PLAIN, remote_images(server))
    build(plain, tmp_path / "plain" / "html", tmp_path / "plain" / "doctrees")
    plain_html = (tmp_path / "plain" / "html" / "index.html").read_text()
    assert size(found["author-width"]) == (None, None) and found["author-width"]["style"] == "width: 50px;"
    assert found["author-scale"] == images(plain_html)["author-scale"]
    for alt in ("broken", "missing", "not-allowed"):
        assert size(found[alt]) == (None, None), alt
    # The whole tag: docutils 0.22 writes the attributes (sorted); before, the extension adds them.
    if extension.NATIVE_ATTRIBUTES:
        assert '<img alt="local" height="2" src="_images/local.png" width="3" />' in html
    else:
        assert '<img width="3" height="2" alt="local" src="_images/local.png" />' in html

    assert "imageprobe: no size for broken.png" in warnings and "[imageprobe.local]" in warnings
    assert "missing.png" in warnings  # Sphinx's own warning, not repeated
    assert "imageprobe" not in "".join(line for line in warnings.splitlines(True) if "missing.png" in line)
    assert "other.png" not in warnings

    # Each allowed remote image once (Range requests), the other never.
    paths = requested(server)
    assert set(paths) == {"/allowed/remote.png", "/allowed/remote-rotated.jpg"}
    cache = cached(doctrees)
    entry = cache[server.url("/allowed/remote-rotated.jpg")]["answer"]
    assert {key: entry[key] for key in ("width", "height", "displayWidth", "displayHeight", "format")} == {
        "width": 60, "height": 20, "displayWidth": 20, "displayHeight": 60, "format": "jpeg"}
    assert set(cache) == {server.url("/allowed/remote.png"), server.url("/allowed/remote-rotated.jpg")}

    # Nothing else of the page changed: the same build without the extension.
    assert without_sizes(html) == without_sizes(plain_html)

    # Again, everything read anew into a new folder: the cache answers, no request.
    server.requests.clear()
    again = build(source, tmp_path / "html-again", doctrees, fresh=True)
    assert requested(server) == []
    assert (tmp_path / "html-again" / "index.html").read_text() == html
    assert again == warnings


def test_public_only_refuses_loopback(tmp_path: Path, server: ScriptedServer) -> None:
    url = server.url("/allowed/remote.png")
    source = project(tmp_path, conf(imageprobe_remote_allow=[url]), f"\n.. image:: {url}\n   :alt: remote\n")
    warnings = build(source, tmp_path / "html", tmp_path / "doctrees")
    assert size(images((tmp_path / "html" / "index.html").read_text())["remote"]) == (None, None)
    assert f"imageprobe: no size for {url}: forbiddenAddress" in warnings and "[imageprobe.remote]" in warnings
    assert server.connections == 0 and requested(server) == []
    assert cached(tmp_path / "doctrees") == {}  # failures aren't cached


def test_stored_orientation(tmp_path: Path) -> None:
    source = project(tmp_path, conf(imageprobe_orientation="stored"))
    build(source, tmp_path / "html", tmp_path / "doctrees")
    found = images((tmp_path / "html" / "index.html").read_text())
    assert size(found["rotated"]) == ("40", "30")
    assert size(found["local"]) == ("3", "2")


def test_a_corrupt_or_stale_cache_is_probed_again_and_rewritten(tmp_path: Path, server: ScriptedServer) -> None:
    url, gone = server.url("/allowed/remote.png"), server.url("/allowed/gone.png")
    settings = dict(imageprobe_remote_allow=[server.url("/")], imageprobe_public_only=False)
    source = project(tmp_path, conf(**settings), f"\n.. image:: {url}\n   :alt: remote\n\n.. image:: {gone}\n   :alt: gone\n")
    doctrees = tmp_path / "doctrees"
    doctrees.mkdir()
    build(source, tmp_path / "html-first", doctrees)
    [entry_file] = (doctrees / extension.CACHE_NAME).glob("*.json")
    entry_file.write_text('{"imageprobe": 1, "key": ')
    server.requests.clear()
    warnings = build(source, tmp_path / "html", doctrees, fresh=True)
    found = images((tmp_path / "html" / "index.html").read_text())
    assert size(found["remote"]) == ("7", "5") and size(found["gone"]) == (None, None)
    assert f"imageprobe: no size for {gone}: httpStatus" in warnings
    assert sorted(set(requested(server))) == ["/allowed/gone.png", "/allowed/remote.png"]
    assert set(cached(doctrees)) == {url}  # the corrupt entry rewritten; failures not kept
    assert not list((doctrees / extension.CACHE_NAME).glob(".*.tmp"))

    # An entry older than imageprobe_cache_seconds is revalidated: one conditional request, a 304.
    record = cached(doctrees)[url]
    record["checked"] -= 86400
    entry_file.write_text(json.dumps(record))
    server.requests.clear()
    build(source, tmp_path / "html-again", doctrees, fresh=True)
    [revalidation] = [request for request in server.requests if request.path == "/allowed/remote.png"]
    assert revalidation.headers.get("if-none-match") == '"v1"'
    assert size(images((tmp_path / "html-again" / "index.html").read_text())["remote"]) == ("7", "5")
    assert cached(doctrees)[url]["checked"] > record["checked"]

    # imageprobe_cache_seconds = 0: no cache, each build probes.
    (source / "conf.py").write_text(conf(**settings, imageprobe_cache_seconds=0))
    server.requests.clear()
    build(source, tmp_path / "html-uncached", doctrees, fresh=True)
    assert [request.headers.get("if-none-match") for request in server.requests if request.path == "/allowed/remote.png"] == [None]
    assert size(images((tmp_path / "html-uncached" / "index.html").read_text())["remote"]) == ("7", "5")


def test_other_builders_are_left_alone(tmp_path: Path) -> None:
    source = project(tmp_path, conf())
    build(source, tmp_path / "latex", tmp_path / "doctrees", builder="latex")
    (tmp_path / "plain").mkdir()
    plain = project(tmp_path / "plain", PLAIN)
    build(plain, tmp_path / "plain" / "latex", tmp_path / "plain" / "doctrees", builder="latex")
    ours = (tmp_path / "latex" / "demo.tex").read_text()
    assert "sphinxincludegraphics{{local}.png}" in ours
    assert ours == (tmp_path / "plain" / "latex" / "demo.tex").read_text()


def test_allow_list() -> None:
    allow = ["https://example.com/docs/", "https://cdn.example.net", "Images.Example.org"]
    assert extension._allowed("https://example.com/docs/a.png", allow)
    assert not extension._allowed("https://example.com/other/a.png", allow)
    assert extension._allowed("https://cdn.example.net/a.png", allow)
    assert extension._allowed("https://cdn.example.net", allow)
    assert not extension._allowed("https://cdn.example.net.evil.com/a.png", allow)
    assert not extension._allowed("http://cdn.example.net/a.png", allow)
    assert extension._allowed("http://images.example.org:8080/a.png", allow)
    assert not extension._allowed("https://sub.images.example.org/a.png", allow)
    assert not extension._allowed("https://example.com/a.png", [])
    assert extension._allowed("https://example.com/a.png", "example.com")  # a str, not a list


def test_setup_metadata(tmp_path: Path) -> None:
    from sphinx.application import Sphinx

    source = project(tmp_path, conf())
    app = Sphinx(str(source), str(source), str(tmp_path / "html"), str(tmp_path / "doctrees"), "html",
                 status=None, warning=None)
    metadata = app.extensions["imageprobe.sphinx"]
    assert metadata.version == imageprobe.__version__
    assert metadata.parallel_read_safe and metadata.parallel_write_safe
