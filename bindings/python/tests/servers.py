"""Servers on loopback for the tests, the benchmark and the Dask example's check: nginx (http
and https with a certificate made per run by openssl, Range on, and a location with Range off),
and a small Python server for what nginx won't do (a changed ETag, redirects, hostile heads,
silence). Every server listens on 127.0.0.x only and stops with the test run."""

from __future__ import annotations

import os
import shutil
import socket
import socketserver
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple


def free_port(host: str = "127.0.0.1") -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def nginx_binary() -> Optional[str]:
    for candidate in (shutil.which("nginx"), "/usr/sbin/nginx"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def make_certificate(directory: Path) -> Tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: (certificate, key)."""
    certificate, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True)
    return certificate, key


class Nginx:
    """nginx serving `root` on 127.0.0.1: `http_port` and `https_port`, and `/norange/` (the
    same files with Range off) on both. The access log has each request's `$bytes_sent`."""

    def __init__(self, root: str | os.PathLike[str], workdir: Optional[Path] = None) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
        self.root = Path(root).resolve()
        self.dir = Path(workdir or tempfile.mkdtemp(prefix="imageprobe-nginx-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.certificate, self.key = make_certificate(self.dir)
        self.http_port, self.https_port = free_port(), free_port()
        self.log = self.dir / "access.log"
        user = "user root;\n" if os.geteuid() == 0 else ""
        temp = "".join(f"    {name}_temp_path {self.dir / name};\n" for name in
                       ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (self.dir / "nginx.conf").write_text(f"""{user}worker_processes 1;
daemon off;
pid {self.dir / 'nginx.pid'};
error_log {self.dir / 'error.log'} warn;
events {{ worker_connections 1024; }}
http {{
{temp}    log_format probe '$request_uri $status $bytes_sent $connection $connection_requests';
    access_log {self.log} probe;
    types {{ image/jpeg jpg jpeg; image/png png; image/gif gif; image/webp webp; }}
    default_type application/octet-stream;
    keepalive_requests 100000;
    server {{
        listen 127.0.0.1:{self.http_port};
        listen 127.0.0.1:{self.https_port} ssl;
        ssl_certificate {self.certificate};
        ssl_certificate_key {self.key};
        root {self.root};
        location /norange/ {{ alias {self.root}/; max_ranges 0; }}
    }}
}}
""")
        self.process = subprocess.Popen([binary, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.https_port), timeout=0.2).close()
                socket.create_connection(("127.0.0.1", self.http_port), timeout=0.2).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx didn't start: {self.process.stderr.read().decode() if self.process.stderr else ''}")
                time.sleep(0.05)
        time.sleep(0.1)  # let the probes above reach the log
        self.mark()

    def url(self, name: str, *, https: bool = False, norange: bool = False) -> str:
        scheme, port = ("https", self.https_port) if https else ("http", self.http_port)
        return f"{scheme}://127.0.0.1:{port}/{'norange/' if norange else ''}{name}"

    def mark(self) -> None:
        """Forgets the log so far: `sent()` counts from here."""
        self._offset = self.log.stat().st_size if self.log.exists() else 0

    def entries(self) -> List[Tuple[str, int, int, str]]:
        """(URI, status, bytes sent, connection) of each request since `mark()`; waits for the
        log to settle."""
        previous = -1
        for _ in range(50):
            size = self.log.stat().st_size if self.log.exists() else 0
            if size == previous:
                break
            previous = size
            time.sleep(0.05)
        with open(self.log, "rb") as handle:
            handle.seek(self._offset)
            lines = handle.read().decode("utf-8", "replace").splitlines()
        out = []
        for line in lines:
            parts = line.split()
            if len(parts) >= 4:
                out.append((parts[0], int(parts[1]), int(parts[2]), parts[3]))
        return out

    def sent(self) -> Tuple[int, int]:
        """(requests, bytes sent) since `mark()`."""
        entries = self.entries()
        return len(entries), sum(entry[2] for entry in entries)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


Handler = Callable[["Request"], Optional[bytes]]


class Request:
    """A request as the scripted server sees it."""

    def __init__(self, method: str, path: str, headers: Dict[str, str], connection: socket.socket, number: int) -> None:
        self.method, self.path, self.headers, self.connection, self.number = method, path, headers, connection, number

    @property
    def range(self) -> Optional[Tuple[int, int]]:
        value = self.headers.get("range", "")
        if not value.startswith("bytes="):
            return None
        first, _, last = value[6:].partition("-")
        return int(first), int(last)


def ranged(data: bytes, request: Request, *, etag: Optional[str] = '"v1"', extra: str = "") -> bytes:
    """The 206 (or 416) an honest server sends for `data`."""
    asked = request.range
    if asked is None:
        return (f"HTTP/1.1 200 OK\r\nContent-Length: {len(data)}\r\n{extra}\r\n").encode() + data
    first, last = asked
    if first >= len(data):
        return f"HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len(data)}\r\nContent-Length: 0\r\n\r\n".encode()
    last = min(last, len(data) - 1)
    tag = f"ETag: {etag}\r\n" if etag else ""
    return (f"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {first}-{last}/{len(data)}\r\n"
            f"Content-Length: {last - first + 1}\r\n{tag}{extra}\r\n").encode() + data[first:last + 1]


class ScriptedServer:
    """An HTTP/1.1 server on `host` whose every answer is written by `handler(request)` as raw
    bytes (None: say nothing and hold the connection until the server stops). Counts the
    connections accepted and the bytes it sent."""

    def __init__(self, handler: Handler, host: str = "127.0.0.1") -> None:
        self.handler = handler
        self.host = host
        self.connections = 0
        self.requests: List[Request] = []
        self.sent = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        server = self

        class Handle(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                server._serve(self.request)

        family = socket.AF_INET6 if ":" in host else socket.AF_INET

        class Threaded(socketserver.ThreadingTCPServer):
            address_family = family
            allow_reuse_address = True
            daemon_threads = True

        self.server = Threaded((host, 0), Handle)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/") -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{path}"

    def _serve(self, connection: socket.socket) -> None:
        with self._lock:
            self.connections += 1
        connection.settimeout(30)
        buffered = b""
        try:
            while not self._stop.is_set():
                while b"\r\n\r\n" not in buffered:
                    data = connection.recv(65536)
                    if not data:
                        return
                    buffered += data
                head, _, buffered = buffered.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                with self._lock:
                    request = Request(method, path, headers, connection, len(self.requests))
                    self.requests.append(request)
                answer = self.handler(request)
                if answer is None:
                    self._stop.wait(30)
                    return
                try:
                    connection.sendall(answer)
                except OSError:
                    return
                with self._lock:
                    self.sent += len(answer)
        except (OSError, ValueError):
            return

    def stop(self) -> None:
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()
