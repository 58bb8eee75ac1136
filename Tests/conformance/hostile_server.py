#!/usr/bin/env python3
"""A hostile HTTP/1.1 server on loopback for the URL-probe conformance suite (SPEC.md §6.5).

One behaviour per path (behaviours.tsv lists them with what every front end must answer): floods,
lies, encodings, stalls and redirects, next to honest answers. Standard library only. Bounded:
it listens on 127.0.0.1 only, sends at most MAX_CONNECTION_BYTES on one connection, and exits by
itself after --lifetime seconds. A query's `run=ID` names the probe, so GET /_stats?run=ID tells
what the server sent for it (bytes, connections); GET /_stats alone counts every connection.

    python3 Tests/conformance/hostile_server.py [--port 0] [--lifetime 900]
prints "PORT n" once it listens.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import socket
import socketserver
import struct
import sys
import threading
import time
import urllib.parse
import zlib

MAX_CONNECTION_BYTES = 64 << 20
FLOOD_PIECE = 16 * 1024


def png(width: int, height: int, text: int = 0) -> bytes:
    """A valid PNG (RGBA, zero pixels), with a tEXt chunk of `text` bytes before its data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + bytes(4 * width) for _ in range(height))
    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    if text:
        body += chunk(b"tEXt", b"Comment\0" + b"x" * text)
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


IMAGE = png(7, 5)
BIG_IMAGE = png(9, 4, text=6000)
# A JPEG that never answers within any budget: its first segment claims 64 KiB, and more follow.
ENDLESS_JPEG_HEAD = b"\xff\xd8\xff\xe1\xff\xff"

stats_lock = threading.Lock()
sent_by_run: dict[str, int] = {}
connections_by_run: dict[str, int] = {}
connections_total = 0


class Closed(Exception):
    """The client went away, or the connection's byte bound was reached."""


class Connection:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sent = 0
        self.run = ""
        self.buffer = b""

    def send(self, data: bytes) -> None:
        if self.sent + len(data) > MAX_CONNECTION_BYTES:
            raise Closed()
        try:
            self.sock.sendall(data)
        except OSError:
            raise Closed() from None
        self.sent += len(data)
        with stats_lock:
            sent_by_run[self.run] = sent_by_run.get(self.run, 0) + len(data)

    def flood(self, piece: bytes) -> None:
        """Sends `piece` until the client goes away or the bound is reached."""
        while True:
            self.send(piece)

    def read_head(self) -> bytes | None:
        while b"\r\n\r\n" not in self.buffer:
            if len(self.buffer) > 65536:
                return None
            try:
                data = self.sock.recv(65536)
            except OSError:
                return None
            if not data:
                return None
            self.buffer += data
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head


def response(status: str, fields: list[str], body: bytes = b"") -> bytes:
    return (f"HTTP/1.1 {status}\r\n" + "".join(f"{field}\r\n" for field in fields) + "\r\n").encode() + body


def ranged(image: bytes, range_header: str | None, etag: str | None = None) -> bytes:
    """An honest answer to a Range request."""
    extra = [f"ETag: {etag}"] if etag else []
    if range_header and range_header.startswith("bytes="):
        first_text, _, last_text = range_header[6:].partition("-")
        first, last = int(first_text), int(last_text or len(image) - 1)
        if first >= len(image):
            return response("416 Range Not Satisfiable", [f"Content-Range: bytes */{len(image)}", "Content-Length: 0"])
        last = min(last, len(image) - 1)
        part = image[first:last + 1]
        return response("206 Partial Content", [f"Content-Range: bytes {first}-{last}/{len(image)}",
                                                f"Content-Length: {len(part)}"] + extra, part)
    return response("200 OK", [f"Content-Length: {len(image)}"] + extra, image)


def chunked(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


etag_counter = 0
#: The runs (the `run` query) a /retry/once request has answered 429 once already.
retried_runs: set[str] = set()


def behave(connection: Connection, path: str, query: dict[str, str], headers: dict[str, str], port: int) -> bool:
    """Answers one request; returns whether the connection may carry another."""
    global etag_counter
    send = connection.send
    keep = f"?run={urllib.parse.quote(query['run'])}" if "run" in query else ""
    chunked_head = response("200 OK", ["Transfer-Encoding: chunked"])
    if path == "/ok/ranges":
        send(ranged(IMAGE, headers.get("range")))
        return True
    if path == "/ok/no-ranges":
        send(response("200 OK", [f"Content-Length: {len(IMAGE)}"], IMAGE))
        return True
    # Rate limits: a short Retry-After is waited out, a long one or none is the status.
    if path == "/retry/once":
        with stats_lock:
            first = query.get("run", "") not in retried_runs
            retried_runs.add(query.get("run", ""))
        if first:
            send(response("429 Too Many Requests", ["Retry-After: 1", "Content-Length: 0"]))
        else:
            send(ranged(IMAGE, headers.get("range")))
        return True
    if path == "/retry/long":
        send(response("429 Too Many Requests", ["Retry-After: 120", "Content-Length: 0"]))
        return True
    if path == "/retry/none":
        send(response("503 Service Unavailable", ["Content-Length: 0"]))
        return True
    # Floods: they end when the client goes away.
    if path == "/flood/chunk-extension":
        send(chunked_head + b"1;")
        connection.flood(b"a" * FLOOD_PIECE)
    if path == "/flood/extension-after-answer":
        send(chunked_head + chunked(IMAGE) + b"1;")
        connection.flood(b"a" * FLOOD_PIECE)
    if path == "/flood/status-line":
        send(b"HTTP/1.1 200 ")
        connection.flood(b"a" * FLOOD_PIECE)
    if path == "/flood/interim":
        connection.flood(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n" * 64)
    if path == "/flood/headers":
        send(b"HTTP/1.1 200 OK\r\n")
        connection.flood(b"X-Pad: 0123456789abcdef0123456789abcdef\r\n" * 256)
    if path == "/flood/padded-chunks":
        # One byte of body per chunk, each in about 21 bytes of framing.
        send(chunked_head + b"".join(b"00000001;pad=padpad\r\n" + bytes([byte]) + b"\r\n" for byte in ENDLESS_JPEG_HEAD))
        connection.flood(b"00000001;pad=padpad\r\n\0\r\n" * 1024)
    # Lies.
    if path == "/lie/content-length":
        send(response("200 OK", ["Content-Length: 1000000"], IMAGE[:20]))
        return False
    if path == "/lie/content-range":
        send(response("206 Partial Content", [f"Content-Range: bytes 5-{len(IMAGE) - 1}/{len(IMAGE)}",
                                              f"Content-Length: {len(IMAGE) - 5}"], IMAGE[5:]))
        return True
    if path == "/lie/changed-etag":
        with stats_lock:
            etag_counter += 1
            tag = f'"v{etag_counter}"'
        send(ranged(BIG_IMAGE, headers.get("range"), etag=tag))
        return True
    if path == "/lie/negative-chunk":
        send(chunked_head + b"-1\r\n" + IMAGE + b"\r\n0\r\n\r\n")
        return False
    if path == "/lie/huge-chunk":
        send(chunked_head + b"F" * 20 + b"\r\n" + IMAGE + b"\r\n0\r\n\r\n")
        return False
    if path == "/lie/http09":
        send(IMAGE)
        return False
    if path == "/lie/two-content-lengths":
        send(response("200 OK", [f"Content-Length: {len(IMAGE)}", f"Content-Length: {len(IMAGE) + 1}"], IMAGE))
        return False
    # Encodings.
    if path == "/encoding/gzip-bomb":
        bomb = gzip.compress(bytes(10 << 20), 9)
        send(response("200 OK", ["Content-Encoding: gzip", f"Content-Length: {len(bomb)}"], bomb))
        return True
    if path == "/encoding/transfer-gzip":
        send(response("200 OK", ["Transfer-Encoding: gzip"], gzip.compress(IMAGE)))
        return False
    # Stalls: the client's deadline ends them; the server gives up after a while.
    if path == "/stall/head":
        time.sleep(8)
        return False
    if path == "/stall/body":
        send(response("200 OK", [f"Content-Length: {len(IMAGE)}"], IMAGE[:10]))
        time.sleep(8)
        return False
    if path == "/stall/after-answer":
        send(response("200 OK", [f"Content-Length: {len(IMAGE) + 1000}"], IMAGE))
        time.sleep(8)
        return False
    # Redirects.
    if path == "/redirect/loop":
        send(response("302 Found", [f"Location: /redirect/loop{keep}", "Content-Length: 0"]))
        return True
    if path.startswith("/redirect/chain/"):
        step = int(path.rsplit("/", 1)[1] or 0)
        send(response("302 Found", [f"Location: /redirect/chain/{step + 1}{keep}", "Content-Length: 0"]))
        return True
    if path == "/redirect/empty-location":
        send(response("302 Found", ["Location:", "Content-Length: 0"]))
        return True
    if path == "/redirect/other-scheme":
        send(response("302 Found", [f"Location: ftp://127.0.0.1:{port}/image.png", "Content-Length: 0"]))
        return True
    if path == "/redirect/loopback":
        target = query.get("to", "127.0.0.2")
        send(response("302 Found", [f"Location: http://{target}:{port}/ok/ranges{keep}", "Content-Length: 0"]))
        return True
    if path == "/_stats":
        run = query.get("of")
        with stats_lock:
            value = {"sent": sent_by_run.get(run or "", 0), "connections": connections_by_run.get(run or "", 0),
                     "total_connections": connections_total}
        body = json.dumps(value).encode()
        send(response("200 OK", ["Content-Type: application/json", f"Content-Length: {len(body)}"], body))
        return True
    send(response("404 Not Found", ["Content-Length: 0"]))
    return True


class Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        global connections_total
        connection = Connection(self.request)
        counted: set[str] = set()
        with stats_lock:
            connections_total += 1
        try:
            while True:
                head = connection.read_head()
                if head is None:
                    return
                lines = head.decode("latin-1").split("\r\n")
                parts = lines[0].split(" ")
                if len(parts) < 2:
                    return
                target = urllib.parse.urlsplit(parts[1])
                query = dict(urllib.parse.parse_qsl(target.query))
                connection.run = query.get("run", "")
                if connection.run not in counted:
                    counted.add(connection.run)
                    with stats_lock:
                        connections_by_run[connection.run] = connections_by_run.get(connection.run, 0) + 1
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                if not behave(connection, target.path, query, headers, self.server.server_address[1]):
                    return
        except Closed:
            return
        finally:
            try:
                self.request.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=900, help="seconds before the server exits by itself")
    arguments = parser.parse_args()
    server = Server(("127.0.0.1", arguments.port), Handler)
    threading.Timer(arguments.lifetime, lambda: os._exit(0)).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
