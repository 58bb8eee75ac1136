"""probe_url and probe_urls against nginx (http and https) and scripted hostile servers."""

from __future__ import annotations

import os
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Iterator, List

import pytest

import imageprobe
from conftest import comparable, names, need, run_cli
from servers import Nginx, Request, ScriptedServer, ranged

MiB = 1 << 20


def jpeg(width: int, height: int, padding: int = 0) -> bytes:
    """A baseline JPEG header whose SOF comes after an APP1 segment of `padding` bytes."""
    out = b"\xff\xd8"
    if padding:
        out += b"\xff\xe1" + struct.pack(">H", padding + 2) + b"pad\0" + bytes(padding - 4)
    out += b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x11\x00\x02\x11\x01\x03\x11\x01"
    out += b"\xff\xda" + struct.pack(">HB", 12, 3) + b"\x01\x00\x02\x11\x03\x11\x00\x3f\x00" + bytes(200) + b"\xff\xd9"
    return out


def serve(servers: List[ScriptedServer], handler, host: str = "127.0.0.1") -> ScriptedServer:
    server = ScriptedServer(handler, host)
    servers.append(server)
    return server


# --- nginx: the same requests and bytes as the command ------------------------------------------

@pytest.mark.parametrize("https", [False, True], ids=["http", "https"])
def test_nginx_answers_equal_the_command(https: bool, nginx: Nginx, files: List[Path], cli: str) -> None:
    urls = [nginx.url(name, https=https) for name in names(files)]
    nginx.mark()
    started = time.monotonic()
    ours = list(imageprobe.probe_urls(urls, jobs=8, cafile=str(nginx.certificate)))
    our_time = time.monotonic() - started
    our_requests, our_sent = nginx.sent()
    nginx.mark()
    theirs = run_cli(cli, ["-j", "8", "--cacert", str(nginx.certificate)], urls)
    their_requests, their_sent = nginx.sent()
    drop = ("bytesTransferred", "requests")
    wrong = [(url, comparable(want, drop=drop), comparable(got.to_dict(), drop=drop))
             for url, want, got in zip(urls, theirs, ours) if comparable(want, drop=drop) != comparable(got.to_dict(), drop=drop)]
    assert not wrong, f"{len(wrong)} of {len(urls)} differ, first: {wrong[:3]}"
    counted = sum(result.bytes_transferred or 0 for result in ours)
    counted_by_command = sum(answer["bytesTransferred"] for answer in theirs)
    requests = sum(result.requests or 0 for result in ours)
    print(f"\n{'https' if https else 'http'}: {len(urls)} URLs in {our_time:.2f} s; requests {requests} "
          f"(nginx {our_requests}), the command {sum(a['requests'] for a in theirs)} (nginx {their_requests}); "
          f"bytes received {counted:,}, the command {counted_by_command:,}; nginx $bytes_sent {our_sent:,}, "
          f"for the command {their_sent:,}")
    assert requests == our_requests
    assert abs(our_requests - their_requests) <= 0.1 * their_requests
    assert abs(our_sent - their_sent) <= 0.1 * their_sent
    assert abs(counted - counted_by_command) <= 0.1 * counted_by_command


@pytest.fixture(scope="session")
def big_png(nginx: Nginx) -> str:
    """A 640×480 PNG whose IDAT is 64 MiB (sparse), in nginx's root."""
    path = nginx.root / "big.png"
    header = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", 640, 480, 8, 2, 0, 0, 0) + b"\0\0\0\0"
    with open(path, "wb") as handle:
        handle.write(header + struct.pack(">I", 64 * MiB) + b"IDAT")
        handle.truncate(len(header) + 8 + 64 * MiB + 4)
        handle.seek(0, os.SEEK_END)
        handle.write(struct.pack(">I", 0) + b"IEND\xaeB`\x82")
    return "big.png"


def test_a_server_ignoring_range_is_bounded(nginx: Nginx, big_png: str) -> None:
    url = nginx.url(big_png, norange=True)
    nginx.mark()
    started = time.monotonic()
    info = imageprobe.probe_url(url, mode="dimensions_only")
    elapsed = time.monotonic() - started
    assert info.ok and (info.width, info.height) == (640, 480)
    assert info.requests == 1 and info.bytes_transferred is not None and info.bytes_transferred < MiB
    requests, sent = nginx.sent()
    assert requests == 1 and sent < 8 * MiB, sent  # what nginx's kernel accepted before the close
    assert elapsed < 5
    # Full mode stops at the image data over HTTP (SPEC.md §6.1), as dimensions-only does.
    full = imageprobe.probe_url(url, max_bytes=4 * MiB)
    assert full.ok and not full.partial and full.requests == 1, full
    # Animation mode reads on past IDAT, and without Range skipping is reading: up to the budget.
    walked = imageprobe.probe_url(url, max_bytes=4 * MiB, mode="animation")
    assert walked.ok and walked.partial and walked.partial_reason == "limitExceeded", walked
    assert walked.bytes_transferred is not None and walked.bytes_transferred <= 4 * MiB + 64 * 1024


def test_https_with_an_untrusted_certificate_fails(nginx: Nginx) -> None:
    failure = imageprobe.probe_url(nginx.url("big.png", https=True))
    assert not failure.ok and failure.error == "connection" and "TLS" in failure.message


# --- If-Range and validators that change -------------------------------------------------------

def test_a_changed_etag_restarts_the_probe(scripted: List[ScriptedServer]) -> None:
    first, second = jpeg(777, 555, padding=5000), jpeg(320, 200, padding=3000)

    def handler(request: Request) -> bytes:
        return ranged(first, request) if request.number == 0 else ranged(second, request, etag='"v2"')

    server = serve(scripted, handler)
    info = imageprobe.probe_url(server.url("/a.jpg"))
    assert info.ok and (info.width, info.height) == (320, 200), info
    assert info.requests == 4
    assert server.requests[1].headers.get("if-range") == '"v1"'


def test_a_resource_that_changes_on_every_request(scripted: List[ScriptedServer]) -> None:
    data = jpeg(777, 555, padding=5000)
    server = serve(scripted, lambda request: ranged(data, request, etag=f'"v{request.number}"'))
    failure = imageprobe.probe_url(server.url("/a.jpg"))
    assert not failure.ok and failure.error == "resourceChanged"


def test_if_range_carries_the_first_validator(scripted: List[ScriptedServer]) -> None:
    data = jpeg(640, 480, padding=5000)
    server = serve(scripted, lambda request: ranged(data, request, etag=None,
                                                    extra="Last-Modified: Tue, 01 Dec 2026 10:00:00 GMT\r\n"))
    info = imageprobe.probe_url(server.url("/a.jpg"))
    assert info.ok and info.requests is not None and info.requests >= 2
    assert "if-range" not in server.requests[0].headers
    assert server.requests[1].headers["if-range"] == "Tue, 01 Dec 2026 10:00:00 GMT"
    assert server.requests[0].headers["range"] == "bytes=0-1023"
    assert server.requests[0].headers["accept-encoding"] == "identity"


# --- redirects ---------------------------------------------------------------------------------

def test_redirects(scripted: List[ScriptedServer], nginx: Nginx, files: List[Path]) -> None:
    target = next(name for name, path in zip(names(files), files) if imageprobe.probe_file(path).ok)
    expected = imageprobe.probe_url(nginx.url(target))
    paths: List[str] = []

    def handler(request: Request) -> bytes:
        paths.append(request.path)
        path = request.path
        locations = {
            "/start": "/second",
            "/second": nginx.url(target),
            "/loop1": "/loop2",
            "/loop2": "/loop1",
            "/ftp": "ftp://127.0.0.1/a.png",
            "/spaces": "/x y\u00e9.png",
        }
        if path.startswith("/hop/"):
            return f"HTTP/1.1 302 Found\r\nLocation: /hop/{int(path[5:]) + 1}\r\nContent-Length: 0\r\n\r\n".encode()
        if path == "/nolocation":
            return b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\n\r\n"
        if path in locations:
            return (f"HTTP/1.1 302 Found\r\nLocation: {locations[path]}\r\nContent-Length: 5\r\n\r\nmoved").encode("utf-8")
        return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"

    server = serve(scripted, handler)
    followed = imageprobe.probe_url(server.url("/start"))
    assert followed.ok and followed.to_dict() | {"bytesTransferred": 0, "requests": 0} == \
        expected.to_dict() | {"bytesTransferred": 0, "requests": 0}
    assert followed.requests == (expected.requests or 0) + 2
    assert imageprobe.probe_url(server.url("/loop1")).error == "redirectLoop"  # type: ignore[union-attr]
    assert imageprobe.probe_url(server.url("/hop/0")).error == "tooManyRedirects"  # type: ignore[union-attr]
    assert imageprobe.probe_url(server.url("/hop/0"), max_redirects=0).error == "tooManyRedirects"  # type: ignore[union-attr]
    assert imageprobe.probe_url(server.url("/ftp")).error == "unsupportedURL"  # type: ignore[union-attr]
    assert imageprobe.probe_url(server.url("/nolocation")).error == "invalidResponse"  # type: ignore[union-attr]
    missing = imageprobe.probe_url(server.url("/spaces"))
    assert not missing.ok and missing.error == "httpStatus" and missing.status == 404
    assert "/x%20y%C3%A9.png" in paths
    assert imageprobe.probe_url("ftp://127.0.0.1/a.png").error == "unsupportedURL"  # type: ignore[union-attr]


# --- hostile servers -----------------------------------------------------------------------------

def test_hostile_heads(scripted: List[ScriptedServer]) -> None:
    data = jpeg(64, 48)
    answers = {
        "/plus": b"HTTP/1.1 200 OK\r\nContent-Length: +41\r\n\r\n" + data[:41],
        "/two-lengths": b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Length: 11\r\n\r\n" + data[:11],
        "/coding": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n",
        "/space": b"HTTP/1.1 200 OK\r\nContent-Length : 10\r\n\r\n" + data[:10],
        "/gzip": b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\n" + data[:10],
        "/error": b"HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n",
        "/range": b"HTTP/1.1 206 Partial\r\nContent-Range: bytes 5-9/100\r\nContent-Length: 5\r\n\r\n" + data[5:10],
        "/nohead": b"garbage\r\n\r\n",
        "/switch": b"HTTP/1.1 101 Switching\r\n\r\n",
        "/ok": b"HTTP/1.1 200 OK\r\nContent-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data,
    }
    server = serve(scripted, lambda request: answers[request.path])
    expect = {"/plus": "invalidResponse", "/two-lengths": "invalidResponse", "/coding": "invalidResponse",
              "/space": "invalidResponse", "/gzip": "contentEncoded", "/error": "httpStatus",
              "/range": "badContentRange", "/nohead": "invalidResponse", "/switch": "invalidResponse"}
    for path, code in expect.items():
        result = imageprobe.probe_url(server.url(path), timeout=3)
        assert not result.ok and result.error == code, (path, result)
    assert imageprobe.probe_url(server.url("/error")).status == 500  # type: ignore[union-attr]
    ok = imageprobe.probe_url(server.url("/ok"))
    assert ok.ok and (ok.width, ok.height) == (64, 48)


def _stream(request: Request, head: bytes, piece: bytes, limit: int = 256 * MiB) -> bytes:
    """Sends `head`, then `piece` over and over until the client goes or `limit` is sent."""
    try:
        request.connection.sendall(head)
        sent = 0
        while sent < limit:
            request.connection.sendall(piece)
            sent += len(piece)
    except OSError:
        pass
    return b""


def test_framing_counts_against_the_budget(scripted: List[ScriptedServer]) -> None:
    """Every byte off the connection counts, framing too: 1-byte chunks with 16-digit sizes of
    an endless JPEG, and a chunk extension that never ends, are stopped near the budget."""
    endless = b"\xff\xd8" + (b"\xff\xe1\xff\xff" + bytes(65533)) * 4

    def handler(request: Request) -> bytes:
        head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        if request.path == "/tiny-chunks":
            return _stream(request, head, b"".join(b"%016x\r\n%c\r\n" % (1, byte) for byte in endless[:4096]))
        return _stream(request, head + b"1;", b"a" * 65536)

    server = serve(scripted, handler)
    budget = 256 * 1024
    tiny = imageprobe.probe_url(server.url("/tiny-chunks"), max_bytes=budget)
    assert not tiny.ok and tiny.error == "limitExceeded", tiny
    assert tiny.bytes_transferred is not None and budget < tiny.bytes_transferred <= budget + 64 * 1024
    extension = imageprobe.probe_url(server.url("/extension"), max_bytes=budget)
    assert not extension.ok and extension.error in ("invalidResponse", "limitExceeded"), extension
    assert extension.bytes_transferred is not None and extension.bytes_transferred <= budget + 64 * 1024


def test_deadlines(scripted: List[ScriptedServer]) -> None:
    def trickle(request: Request) -> bytes:
        try:
            request.connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n\xff\xd8")
            for _ in range(100):
                time.sleep(0.1)
                request.connection.sendall(b"\xff\xe1\xff\xff"[:1])
        except OSError:
            pass
        return b""

    silent = serve(scripted, lambda request: None)
    slow = serve(scripted, trickle)
    for server in (silent, slow):
        started = time.monotonic()
        result = imageprobe.probe_url(server.url("/a.jpg"), timeout=1)
        elapsed = time.monotonic() - started
        assert not result.ok and result.error == "timeout", result
        assert 0.9 <= elapsed < 2.5, elapsed
    # A probe's own deadline bounds the requests together.
    started = time.monotonic()
    result = imageprobe.probe_url(silent.url("/b.jpg"), timeout=5, probe_timeout=1)
    assert not result.ok and result.error == "timeout" and time.monotonic() - started < 2.5


# --- the address policy ------------------------------------------------------------------------

def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


def test_public_only_refuses_loopback_spellings(scripted: List[ScriptedServer]) -> None:
    """Each spelling of loopback is refused before any connection: the server listening there
    accepts none (SPEC.md §6.4)."""
    server = serve(scripted, lambda request: ranged(jpeg(10, 10), request))
    servers = [server]
    port = server.port
    spellings = ["127.0.0.1", "127.1", "0x7f.1", "0x7f000001", "2130706433", "017700000001", "localhost",
                 "0.0.0.0", "127.0.0.2", "[::ffff:127.0.0.1]"]
    urls = [f"http://{host}:{port}/a.jpg" for host in spellings]
    if _ipv6_loopback():
        six = serve(scripted, lambda request: ranged(jpeg(10, 10), request), host="::1")
        servers.append(six)
        urls.append(f"http://[::1]:{six.port}/a.jpg")
        urls.append(f"http://localhost:{six.port}/a.jpg")
    for url in urls:
        result = imageprobe.probe_url(url, public_only=True, timeout=3)
        assert not result.ok and result.error == "forbiddenAddress", (url, result)
    results = list(imageprobe.probe_urls(urls, jobs=4, public_only=True, timeout=3))
    assert all(not result.ok and result.error == "forbiddenAddress" for result in results)
    assert [s.connections for s in servers] == [0] * len(servers)
    # Without the policy the same server answers (so the zero above means something).
    assert imageprobe.probe_url(urls[0]).ok
    assert server.connections == 1


def test_public_only_checks_every_redirect(scripted: List[ScriptedServer]) -> None:
    data = jpeg(10, 10)
    try:
        target = serve(scripted, lambda request: ranged(data, request), host="127.0.0.2")
    except OSError:
        pytest.skip("127.0.0.2 can't be bound here")
    start = serve(scripted, lambda request: f"HTTP/1.1 302 Found\r\nLocation: {target.url('/a.jpg')}\r\n"
                                            "Content-Length: 0\r\n\r\n".encode())
    refused = imageprobe.probe_url(start.url("/r"), public_only=True, allow=["127.0.0.1"])
    assert not refused.ok and refused.error == "forbiddenAddress" and "127.0.0.2" in refused.message
    assert start.connections == 1 and target.connections == 0
    allowed = imageprobe.probe_url(start.url("/r"), public_only=True, allow=["127.0.0.0/8"])
    assert allowed.ok and target.connections == 1


# --- probe_urls ------------------------------------------------------------------------------

def test_probe_urls_streams_in_order_with_bounded_memory(nginx: Nginx, files: List[Path]) -> None:
    served = names(files)
    urls = [nginx.url(served[index % len(served)]) for index in range(3000)]
    consumed = 0
    ahead = 0

    def source() -> Iterator[str]:
        nonlocal consumed
        for url in urls:
            consumed += 1
            yield url

    jobs = 4
    results = []
    for result in imageprobe.probe_urls(source(), jobs=jobs):
        ahead = max(ahead, consumed - len(results))
        results.append(result)
    assert len(results) == len(urls)
    assert ahead <= max(16, 4 * jobs) + 1, ahead
    singles = {url: imageprobe.probe_url(url) for url in urls[: len(served)]}
    for url, result in zip(urls, results):
        want = singles[url]
        assert (result.ok, result.to_dict().get("width"), result.to_dict().get("error")) == \
            (want.ok, want.to_dict().get("width"), want.to_dict().get("error")), url
    # Stopping early stops the rest.
    iterator = imageprobe.probe_urls(iter(urls), jobs=2)
    next(iterator)
    iterator.close()


@pytest.mark.parametrize("https", [False, True], ids=["http", "https"])
def test_probe_urls_reuses_connections(https: bool, nginx: Nginx, files: List[Path]) -> None:
    urls = [nginx.url(name, https=https) for name in names(files)[:200]]
    nginx.mark()
    # With cafile, one context serves every URL, so each worker's connections are reused.
    list(imageprobe.probe_urls(urls, jobs=2, cafile=str(nginx.certificate)))
    entries = nginx.entries()
    connections = {entry[3] for entry in entries}
    assert len(connections) < len(entries) / 2, (len(connections), len(entries))


# --- Chunk framing, read by the core as the command reads it ------------------------------------

def test_invalid_chunk_sizes_are_invalid_responses(scripted: List[ScriptedServer]) -> None:
    """``-1`` and 20 hex digits, which http.client accepted: ``invalidResponse``, an I/O
    failure, as in the command and JavaScript (SPEC.md §6.6)."""
    data = jpeg(640, 480, padding=200)
    for size in (b"-1", b"F" * 20):
        server = serve(scripted, lambda request, size=size: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                       + size + b"\r\n" + data + b"\r\n0\r\n\r\n")
        failure = imageprobe.probe_url(server.url("/a.jpg"))
        assert not failure.ok and failure.error == "invalidResponse", (size, failure)


def test_an_answer_had_is_kept_whatever_framing_follows(scripted: List[ScriptedServer]) -> None:
    """The answer in the first chunk, then a chunk-size line that never ends: the answer."""
    data = jpeg(640, 480, padding=200)
    server = serve(scripted, lambda request: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                   + f"{len(data):x}\r\n".encode() + data + b"\r\n" + b"f" * 70000)
    info = imageprobe.probe_url(server.url("/a.jpg"), mode="dimensions_only")
    assert info.ok and (info.width, info.height) == (640, 480), info


def test_framing_counts_against_max_bytes(scripted: List[ScriptedServer]) -> None:
    """1-byte chunks padded 20:1: the budget counts the framing, not only the body."""
    body = b"".join(b"00000001;pad=padpad\r\n" + bytes([byte]) + b"\r\n" for byte in b"\xff\xd8\xff\xe1\xff\xff" + bytes(20000))
    server = serve(scripted, lambda request: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
    failure = imageprobe.probe_url(server.url("/a.jpg"), max_bytes=100_000)
    assert not failure.ok and failure.error == "limitExceeded", failure
    assert failure.bytes_transferred is not None and failure.bytes_transferred <= 100_000 + 16 * 1024


def test_a_short_retry_after_is_waited_out(scripted: List[ScriptedServer]) -> None:
    image = jpeg(64, 48)

    def handler(request: Request) -> bytes:
        if request.number == 0:
            return b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n"
        return ranged(image, request)

    server = serve(scripted, handler)
    started = time.monotonic()
    info = imageprobe.probe_url(server.url("/limited.jpg"))
    assert info.ok and (info.width, info.height) == (64, 48) and info.requests == 2
    assert time.monotonic() - started >= 1.0
    # A wait past the probe's own deadline is a timeout at once, not a wait.
    long = serve(scripted, lambda request: b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Length: 0\r\n\r\n")
    started = time.monotonic()
    failure = imageprobe.probe_url(long.url("/busy.jpg"), probe_timeout=2)
    assert not failure.ok and failure.error == "timeout"
    assert time.monotonic() - started < 1.5
