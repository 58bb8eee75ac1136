"""``probe_url`` and ``probe_urls``: sizes from URLs with the fewest bytes (SPEC.md §6).

The strategy is the core's own (imageprobe_planner_*, SPEC.md §6.1): which Range to ask for,
when to jump, when to grow, what a response means, when a limit ends the probe. This module is
only its transport, over the standard library's ``http.client``, and keeps what needs text or a
clock: the URL and ``Location``, the first 206 response's validators sent back as ``If-Range``,
the deadlines, and the address policy (§6.4), checked on the address actually connected.

Every byte that comes off the connection (status lines, header lines, chunk framing, bodies) is
counted as it is read from the socket and reported to the planner, which ends the probe past
``max_bytes``. Every read and write runs against the request's deadline (resolution, connecting
and TLS included), so a trickling server can't hold a probe past it.
"""

from __future__ import annotations

import collections
import ctypes
import http.client
import io
import ipaddress
import socket
import ssl
import threading
import time
import urllib.parse
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Tuple

from . import _native as native
from ._address import ANY, AddressPolicy
from ._info import Failure, INFO, Result, decode
from ._scan import Mode

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
#: libcurl's read size; also the receive buffer asked of the kernel (a small TCP window, so a
#: server ignoring Range has little in flight when the transfer stops, SPEC.md §6.2).
CHUNK = 16 * 1024
#: A response head is refused past this (SPEC.md §6.1), interim heads included.
HEAD_LIMIT = 32 * 1024
INTERIM_LIMIT = 4
#: The rest of a response is read through, for its connection's sake, only when this small.
DRAIN_LIMIT = 64 * 1024
DRAIN_TIME = 0.1
USER_AGENT = "ImageProbe/0.1 (Python)"

_ALLOWED = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._~:/?#[]@!$&'()*+,;=%")


class _TransportError(Exception):
    """An exchange that failed in the transport: reported as the probe's error."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class _Timeout(Exception):
    """The request's (or the probe's) deadline passed."""


class _OverBudget(Exception):
    """More than max_bytes received."""


def _encoded(text: bytes) -> str:
    """A URL or Location with every byte a URL may not hold percent-encoded (as browsers and
    libcurl do; what is already escaped stays)."""
    return "".join(chr(byte) if byte in _ALLOWED else f"%{byte:02X}" for byte in text)


class _Meter:
    """One probe's accounting: every byte read off a connection goes to the planner, every
    socket operation gets what is left of the deadline, and response heads are captured for
    the checks that http.client doesn't make."""

    __slots__ = ("planner", "deadline", "capture", "counting")

    def __init__(self, planner: int) -> None:
        self.planner = planner
        self.deadline = float("inf")
        self.capture: bytearray | None = None
        self.counting = True

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _Timeout()
        return left

    def received(self, data: Any, count: int) -> None:
        capture = self.capture
        if capture is not None:
            capture += data[:count]
            if len(capture) > HEAD_LIMIT + 2 * CHUNK:
                raise _TransportError("invalidResponse", "response head longer than 32 KiB")
        if self.counting and not native.planner_received(self.planner, count):
            raise _OverBudget()


class _Reader(io.RawIOBase):
    """The socket as http.client reads it: metered, under the deadline."""

    def __init__(self, channel: _Channel) -> None:
        super().__init__()
        self.channel = channel

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        channel = self.channel
        meter = channel.meter
        sock = channel.sock
        if meter is None:
            raise _TransportError("connection", "the connection is not in use")
        try:
            sock.settimeout(meter.remaining())
            count = sock.recv_into(buffer)
        except socket.timeout:
            raise _Timeout() from None
        if count:
            meter.received(buffer, count)
        return count

    def close(self) -> None:
        if not self.closed:
            super().close()
            self.channel.release()


class _Channel:
    """What http.client takes for its socket: sends under the deadline, reads through a
    metered reader, and closes the real socket once no response reads from it."""

    __slots__ = ("sock", "meter", "readers", "closing", "key")

    def __init__(self, sock: socket.socket, key: Tuple[Any, ...]) -> None:
        self.sock = sock
        self.meter: _Meter | None = None
        self.readers = 0
        self.closing = False
        self.key = key

    def sendall(self, data: bytes) -> None:
        assert self.meter is not None
        try:
            self.sock.settimeout(self.meter.remaining())
            self.sock.sendall(data)
        except socket.timeout:
            raise _Timeout() from None

    def makefile(self, mode: str, *args: Any, **kwargs: Any) -> io.BufferedReader:
        self.readers += 1
        return io.BufferedReader(_Reader(self), CHUNK)

    def release(self) -> None:
        self.readers -= 1
        if self.closing and self.readers <= 0:
            self.sock.close()

    def close(self) -> None:
        self.closing = True
        if self.readers <= 0:
            self.sock.close()


class _Connection(http.client.HTTPConnection):
    """An HTTP/1.1 connection over a socket the probe opened itself (the address checked)."""

    def __init__(self, channel: _Channel) -> None:
        super().__init__("unused", 80)
        self.sock = channel
        self.channel = channel

    def connect(self) -> None:  # never reconnects by itself: the probe opens connections
        raise _TransportError("connection", "the connection was closed")


class _Pool:
    """Idle connections of one thread, by (scheme, host, port, policy, TLS context)."""

    def __init__(self, limit: int = 8) -> None:
        self.idle: "collections.OrderedDict[Tuple[Any, ...], _Connection]" = collections.OrderedDict()
        self.limit = limit

    def take(self, key: Tuple[Any, ...]) -> _Connection | None:
        return self.idle.pop(key, None)

    def give(self, connection: _Connection) -> None:
        key = connection.channel.key
        old = self.idle.pop(key, None)
        if old is not None:
            old.close()
        self.idle[key] = connection
        while len(self.idle) > self.limit:
            self.idle.popitem(last=False)[1].close()

    def close(self) -> None:
        while self.idle:
            self.idle.popitem()[1].close()


class _Head:
    """A response head, checked line by line as SPEC.md §6.1 asks (the checks of the Swift
    transport's ResponseHeadParser)."""

    __slots__ = ("status", "fields")

    def __init__(self, data: bytes) -> None:
        position = 0
        interim = 0
        status: int | None = None
        fields: List[Tuple[bytes, bytes]] = []
        while True:
            end = data.find(b"\n", position)
            if end < 0 or end >= HEAD_LIMIT:
                raise _TransportError("invalidResponse", "incomplete or over-long response head")
            line = data[position:end + 1]
            position = end + 1
            line = line.rstrip(b"\n")
            if line.endswith(b"\r"):
                line = line[:-1]
            if status is None:
                status = self._status(line)
                continue
            if line:
                fields.append(self._field(line, status, fields))
                continue
            if status == 101:
                raise _TransportError("invalidResponse", "the server switched protocols", 101)
            if status < 200:
                interim += 1
                if interim > INTERIM_LIMIT:
                    raise _TransportError("invalidResponse", "too many interim responses", status)
                status, fields = None, []
                continue
            self.status = status
            self.fields = fields
            return

    @staticmethod
    def _status(line: bytes) -> int:
        parts = line.split(b" ", 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or len(parts[1]) != 3 or not parts[1].isdigit():
            raise _TransportError("invalidResponse", "not an HTTP status line")
        return int(parts[1])

    @staticmethod
    def _field(line: bytes, status: int, fields: List[Tuple[bytes, bytes]]) -> Tuple[bytes, bytes]:
        colon = line.find(b":")
        if colon <= 0:
            raise _TransportError("invalidResponse", "header line without a name and a colon", status)
        name = line[:colon]
        # A field name is a token: no spaces ("Name :"), and no obsolete line folding.
        if any(byte <= 0x20 or byte >= 0x7F for byte in name):
            raise _TransportError("invalidResponse", "malformed header field name", status)
        value = line[colon + 1:].strip(b" \t")
        if name.lower() == b"content-length":
            earlier = [v for n, v in fields if n.lower() == b"content-length"]
            if not value.isdigit() or not value.isascii() or any(v != value for v in earlier):
                raise _TransportError("invalidResponse", "invalid or conflicting Content-Length", status)
        return name, value

    def get(self, name: bytes) -> bytes | None:
        values = [value for field, value in self.fields if field.lower() == name]
        return b", ".join(values) if values else None


class _Probe:
    """One URL: the planner's steps, each request sent and its response fed back."""

    def __init__(self, url: str, *, timeout: float, probe_timeout: float | None, max_bytes: int,
                 policy: AddressPolicy, mode: Mode, max_pixels: int, max_requests: int | None, max_redirects: int | None,
                 context: ssl.SSLContext | None, user_agent: str, pool: _Pool | None,
                 cancelled: threading.Event | None) -> None:
        self.url = url
        self.timeout = timeout
        self.probe_timeout = max(30.0, 3 * timeout) if probe_timeout is None else probe_timeout
        self.policy = policy
        self.context = context
        self.user_agent = user_agent
        self.pool = pool
        self.cancelled = cancelled
        self._planner_owner, self.planner = native.aligned(native.PLANNER_SIZE)
        self._info_owner, self.info_address, self.info = native.block(INFO.size)
        self._request_owner, self.request_address, self.request = native.block(native.PLAN_REQUEST.size)
        options = bytearray(native.PLANNER_OPTIONS.size)
        native.planner_defaults((ctypes.c_char * len(options)).from_buffer(options))
        native.PLANNER_OPTIONS.write(options, scan=native.scan_options(mode, 0, 0, 0, 0, 0, 0, max_pixels),
                                     max_bytes=max(0, max_bytes))
        if max_requests is not None:
            native.PLANNER_OPTIONS.write(options, max_requests=max(0, max_requests))
        if max_redirects is not None:
            native.PLANNER_OPTIONS.write(options, max_redirects=max(0, min(15, max_redirects)))
        self.options = bytes(options)
        self.meter = _Meter(self.planner)
        self.error: _TransportError | None = None
        self.validators: Dict[bytes, bytes] | None = None
        self.last_head: _Head | None = None
        self.connection: _Connection | None = None

    # --- the cycle -----------------------------------------------------------------------------

    def run(self) -> Result:
        encoded = _encoded(self.url.encode("utf-8", "surrogateescape"))
        target = self._parse(encoded)
        if target is None:
            return Failure(error="unsupportedURL", message="not an http or https URL", bytes_transferred=0, requests=0)
        self.current, self.target = encoded, target
        address = self.planner
        native.planner_init(address, self.options, self._hash(encoded))
        probe_deadline = time.monotonic() + self.probe_timeout
        try:
            while True:
                step = native.planner_next(address, self.request_address, self.info_address)
                if step == native.PLAN_SEND:
                    now = time.monotonic()
                    if now >= probe_deadline or (self.cancelled is not None and self.cancelled.is_set()):
                        if self.cancelled is not None and self.cancelled.is_set():
                            self.error = _TransportError("cancelled", "cancelled")
                            native.planner_fail(address, native.FAIL_OTHER)
                        else:
                            native.planner_fail(address, native.FAIL_TIMEOUT)
                        continue
                    self.meter.deadline = min(probe_deadline, now + self.timeout)
                    self._exchange()
                elif step == native.PLAN_REDIRECT:
                    self._redirect()
                else:
                    return self._answer(step)
        finally:
            self._release(reuse=False)

    def _answer(self, step: int) -> Result:
        extra = {"bytes_transferred": native.planner_bytes_received(self.planner),
                 "requests": native.planner_requests(self.planner)}
        result = decode(step, self.info, **extra)
        if isinstance(result, Failure):
            record = INFO.unpack(self.info)
            code = record["fetch_error"]
            error = self.error
            if error is not None and (code == "transport" or (code == "timeout" and error.code == "timeout")):
                result = Failure(error=error.code, message=error.message, status=error.status, **extra)
            elif code == "timeout":
                result = Failure(error="timeout", message=f"no answer within the time limit ({self.timeout:g} s a request, "
                                 f"{self.probe_timeout:g} s the probe)", **extra)
        return result

    @staticmethod
    def _hash(url: str) -> int:
        data = url.encode("ascii")
        return int(native.url_hash(data, len(data)))

    @staticmethod
    def _parse(url: str) -> Tuple[str, str, int, str, str] | None:
        """(scheme, host, port, Host header, request target), or None when not usable."""
        try:
            parts = urllib.parse.urlsplit(url)
            scheme = parts.scheme.lower()
            if scheme not in ("http", "https") or not parts.hostname:
                return None
            host = parts.hostname
            port = parts.port or (443 if scheme == "https" else 80)
            if not host.isascii():
                host = host.encode("idna").decode("ascii")
        except (ValueError, UnicodeError):
            return None
        shown = f"[{host}]" if ":" in host else host
        if parts.port is not None and port != (443 if scheme == "https" else 80):
            shown += f":{port}"
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return scheme, host, port, shown, target

    def _redirect(self) -> None:
        location = self.last_head.get(b"location") if self.last_head is not None else None
        status = self.last_head.status if self.last_head is not None else None
        if location is None:
            self.error = _TransportError("invalidResponse", "redirect without a usable Location", status)
            native.planner_fail(self.planner, native.FAIL_OTHER)
            return
        following = urllib.parse.urljoin(self.current, _encoded(location))
        target = self._parse(following)
        is_http = target is not None
        native.planner_redirect(self.planner, self._hash(following), 1 if is_http else 0)
        if target is not None:
            self.current, self.target = following, target
            self.validators = None

    # --- one exchange --------------------------------------------------------------------------

    def _exchange(self) -> None:
        planner = self.planner
        request = native.PLAN_REQUEST.unpack(self.request)
        first, last, if_range = request["first"], request["last"], request["if_range"]
        validator: bytes | None = None
        if self.validators is not None and if_range != native.IF_RANGE_NONE:
            validator = self.validators.get(b"etag" if if_range == native.IF_RANGE_ETAG else b"last-modified")
            if validator is not None and any(byte < 0x20 or byte == 0x7F for byte in validator):
                validator = None  # a validator holding a control character is not sent back
        try:
            response, head = self._send(first, last, validator)
        except (_Timeout, _OverBudget, _TransportError) as error:
            self._failed(planner, error, "no response")
            return
        self.last_head = head
        if head.status == 206 and first == 0:
            self.validators = {name: value for name in (b"etag", b"last-modified")
                               if (value := head.get(name)) is not None}
        for name, value in head.fields:
            native.planner_header(planner, name, len(name), value, len(value))
        wanted = native.planner_head(planner, head.status)
        if not wanted:
            self._drain(response, counted=True)
            native.planner_end(planner, native.BODY_STOPPED)
            return
        how = native.BODY_COMPLETE
        try:
            while True:
                chunk = response.read1(CHUNK)
                if not chunk:
                    if response.length:  # the connection closed inside a known length
                        how = native.BODY_CLOSED
                    break
                if not native.planner_body(planner, chunk, len(chunk)):
                    how = native.BODY_STOPPED
                    break
        except (_Timeout, _OverBudget, _TransportError) as error:
            self._failed(planner, error, "no answer")
            return
        except (http.client.IncompleteRead, OSError):
            # The connection closed (or broke) inside the body: the input ends here.
            self._close()
            how = native.BODY_CLOSED
        except http.client.HTTPException as error:
            # Framing that breaks HTTP (a chunk-size line past 64 KiB, ...).
            self._close()
            self.error = _TransportError("invalidResponse", f"invalid response body framing: {type(error).__name__}",
                                         head.status)
            native.planner_fail(planner, native.FAIL_OTHER)
            return
        if how == native.BODY_STOPPED:
            # The answer is in (or the response was refused): whatever is left of this
            # response is read after the answer, uncounted, when that keeps a pooled
            # connection for the next URL; otherwise the connection is dropped.
            if self.pool is not None:
                self._drain(response, counted=False)
            else:
                self._close()
        else:
            if how == native.BODY_COMPLETE and response.length == 0:
                response.close()  # read to its end: the connection can carry the next request
            if response.will_close or not response.isclosed():
                self._close()
        native.planner_end(planner, how)

    def _send(self, first: int, last: int, validator: bytes | None) -> Tuple[http.client.HTTPResponse, _Head]:
        """Sends the request (on the probe's connection, a pooled one, or a new one) and reads
        the response head. A reused connection the server has closed meanwhile is replaced
        once, before any byte of the response came."""
        scheme, host, port, shown, target = self.target
        key = (scheme, host, port, self.policy.key(), id(self.context))
        for attempt in (0, 1):
            reused = False
            if self.connection is not None and self.connection.channel.key != key:
                self._release(reuse=True)
            if self.connection is None and self.pool is not None:
                self.connection = self.pool.take(key)
            if self.connection is not None and not self.connection.channel.closing:
                reused = True
            else:
                self.connection = _Connection(self._open(scheme, host, port, key))
            connection = self.connection
            connection.channel.meter = self.meter
            try:
                connection.putrequest("GET", target, skip_host=True, skip_accept_encoding=True)
                connection.putheader("Host", shown)
                connection.putheader("User-Agent", self.user_agent)
                connection.putheader("Accept-Encoding", "identity")
                connection.putheader("Range", f"bytes={first}-{last}")
                if validator is not None:
                    connection.putheader("If-Range", validator.decode("latin-1"))
                connection.endheaders()
                self.meter.capture = bytearray()
                response = connection.getresponse()
            except (_Timeout, _OverBudget, _TransportError):
                self.meter.capture = None
                raise
            except (http.client.RemoteDisconnected, ConnectionError, http.client.CannotSendRequest) as error:
                captured = self.meter.capture
                self.meter.capture = None
                self._close()
                if reused and attempt == 0 and not captured:
                    continue
                raise _TransportError("connection", f"the connection closed before the response head: {error}") from None
            except http.client.HTTPException as error:
                self.meter.capture = None
                raise _TransportError("invalidResponse", f"invalid response head: {type(error).__name__} {error}") from None
            except OSError as error:
                self.meter.capture = None
                raise _TransportError("connection", f"connection failed: {error}") from None
            head = _Head(bytes(self.meter.capture or b""))
            self.meter.capture = None
            if head.status != response.status:
                raise _TransportError("invalidResponse", "an interim response other than 100 Continue", response.status)
            coding = head.get(b"transfer-encoding")
            if coding is not None and [part.strip(b" \t").lower() for part in coding.split(b",")] != [b"chunked"]:
                raise _TransportError("invalidResponse", f"unsupported Transfer-Encoding {coding.decode('latin-1')}",
                                      head.status)
            return response, head
        raise AssertionError("unreachable")

    def _open(self, scheme: str, host: str, port: int, key: Tuple[Any, ...]) -> _Channel:
        """Resolves `host`, checks each address against the policy, and connects to the first
        allowed one that answers (then TLS for https). A refused address gets no socket."""
        meter = self.meter
        refusals: List[str] = []
        failures: List[str] = []
        for family, address in _resolve(host, port, meter):
            refusal = self.policy.refusal(address[0])
            if refusal is not None:
                refusals.append(refusal)
                continue
            sock = socket.socket(family, socket.SOCK_STREAM)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, CHUNK)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sock.settimeout(meter.remaining())
                sock.connect(address)
            except (_Timeout, socket.timeout):
                sock.close()
                raise _Timeout() from None
            except OSError as error:
                sock.close()
                failures.append(f"{address[0]}: {error.strerror or error}")
                continue
            if scheme == "https":
                context = self.context or _default_context()
                try:
                    sock.settimeout(meter.remaining())
                    sock = context.wrap_socket(sock, server_hostname=host)
                except (_Timeout, socket.timeout):
                    sock.close()
                    raise _Timeout() from None
                except (ssl.SSLError, ssl.CertificateError) as error:
                    sock.close()
                    raise _TransportError("connection", f"TLS: {error}") from None
                except OSError as error:
                    sock.close()
                    raise _TransportError("connection", f"TLS: {error}") from None
            return _Channel(sock, key)
        if refusals:
            raise _TransportError("forbiddenAddress", refusals[0])
        raise _TransportError("connection", f"cannot connect to {host} port {port}: {'; '.join(failures) or 'no address'}")

    def _drain(self, response: http.client.HTTPResponse, *, counted: bool) -> None:
        """Reads the rest of a short response of known length so its connection can carry the
        next request; closes the connection otherwise."""
        left = response.length
        if response.isclosed() and not response.will_close:
            return
        if left is None or left > DRAIN_LIMIT or response.will_close or response.chunked:
            self._close()
            return
        if left == 0:
            response.close()
            return
        meter = self.meter
        saved = meter.deadline
        meter.counting = counted
        meter.deadline = min(saved, time.monotonic() + DRAIN_TIME)
        try:
            while response.length:
                if not response.read1(CHUNK):
                    break
            if response.length == 0:
                response.close()
        except (_Timeout, _OverBudget, _TransportError, OSError, http.client.HTTPException):
            self._close()
        finally:
            meter.counting = True
            meter.deadline = saved
        if not response.isclosed() or response.length:
            self._close()

    def _failed(self, planner: int, error: Exception, what: str) -> None:
        """Ends the exchange on a transport failure: the connection closed, the planner told
        why (a timeout, the byte budget spent, or the transport's own error)."""
        self._close()
        if isinstance(error, _Timeout):
            self.error = _TransportError("timeout", f"{what} within the time limit ({self.timeout:g} s)")
            native.planner_fail(planner, native.FAIL_TIMEOUT)
        elif isinstance(error, _OverBudget):
            native.planner_fail(planner, native.FAIL_LIMIT)
        else:
            assert isinstance(error, _TransportError)
            self.error = error
            native.planner_fail(planner, native.FAIL_OTHER)

    def _close(self) -> None:
        if self.connection is not None:
            self.connection.channel.meter = None
            self.connection.close()
            self.connection = None

    def _release(self, *, reuse: bool) -> None:
        """Gives the probe's connection to the pool (or closes it)."""
        connection = self.connection
        if connection is None:
            return
        self.connection = None
        connection.channel.meter = None
        if self.pool is not None and not connection.channel.closing and connection.sock is not None:
            self.pool.give(connection)
        else:
            connection.close()


_context_lock = threading.Lock()
_context: ssl.SSLContext | None = None


def _default_context() -> ssl.SSLContext:
    global _context
    with _context_lock:
        if _context is None:
            _context = ssl.create_default_context()
        return _context


def _resolve(host: str, port: int, meter: _Meter) -> List[Tuple[int, Tuple[Any, ...]]]:
    """The addresses of `host`, in the resolver's order, within the deadline."""
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        if literal.version == 4:
            return [(socket.AF_INET, (host, port))]
        return [(socket.AF_INET6, (host, port, 0, 0))]
    outcome: Dict[str, Any] = {}
    done = threading.Event()

    def lookup() -> None:
        try:
            outcome["value"] = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        except OSError as error:
            outcome["error"] = error
        finally:
            done.set()

    # A resolver that never answers can't hold the probe past its deadline: the lookup runs on
    # a thread of its own, abandoned (it ends when getaddrinfo returns) at the deadline.
    threading.Thread(target=lookup, name="imageprobe-resolve", daemon=True).start()
    if not done.wait(meter.remaining()):
        raise _Timeout()
    if "error" in outcome:
        error = outcome["error"]
        raise _TransportError("connection", f"cannot resolve {host}: {getattr(error, 'strerror', None) or error}")
    return [(family, address) for family, _, _, _, address in outcome["value"]]


def probe_url(url: str, *, timeout: float = 10.0, max_bytes: int = DEFAULT_MAX_BYTES, public_only: bool = False,
              allow: Iterable[str] = (), mode: Mode = "full", max_pixels: int = 0, probe_timeout: Optional[float] = None,
              max_requests: Optional[int] = None, max_redirects: Optional[int] = None,
              cafile: Optional[str] = None, context: Optional[ssl.SSLContext] = None,
              user_agent: str = USER_AGENT, _pool: Optional[_Pool] = None,
              _cancelled: Optional[threading.Event] = None) -> Result:
    """The answer for an http or https URL, with the fewest bytes (SPEC.md §6.1): Range
    requests planned by the core, jumps over what the scanner skips, If-Range with the first
    response's validator, redirects followed (5 at most).

    `timeout`: each request's deadline in seconds, name resolution, connecting and TLS
    included (the probe's own is ``probe_timeout``, by default the larger of 30 s and 3 ×
    `timeout`). `max_bytes`: every byte received, response heads and framing included.
    `public_only`: connect only to public addresses (SPEC.md §6.4), checked on every address
    actually connected, redirects included; `allow` lists blocks allowed all the same
    ("10.8.0.0/16"). `cafile` or `context` for https with other certificate authorities.
    `max_pixels` (0: no limit): an image of more pixels (width × height, × frames in
    animation mode) is a ``Failure`` "tooManyPixels" with its ``detected_format``, ``width``
    and ``height``.

    Never raises for the network: a fetch that fails is a ``Failure`` whose ``error`` is the
    fetch code ("connection", "timeout", "httpStatus" with ``status``, "forbiddenAddress",
    "redirectLoop", "badContentRange", "resourceChanged", "limitExceeded", ...). Results carry
    ``bytes_transferred`` and ``requests``."""
    if context is None and cafile is not None:
        context = ssl.create_default_context(cafile=cafile)
    policy = AddressPolicy(True, allow) if public_only else ANY
    probe = _Probe(url, timeout=timeout, probe_timeout=probe_timeout, max_bytes=max_bytes, policy=policy, mode=mode,
                   max_pixels=max_pixels,
                   max_requests=max_requests, max_redirects=max_redirects, context=context, user_agent=user_agent,
                   pool=_pool, cancelled=_cancelled)
    return probe.run()


class _Pools:
    """The worker threads' connection pools of one probe_urls call."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.all: List[_Pool] = []
        self.lock = threading.Lock()

    def current(self) -> _Pool:
        pool = getattr(self.local, "pool", None)
        if pool is None:
            pool = self.local.pool = _Pool()
            with self.lock:
                self.all.append(pool)
        return pool

    def close(self) -> None:
        with self.lock:
            for pool in self.all:
                pool.close()
            self.all.clear()


def probe_urls(urls: Iterable[str], jobs: int = 32, **options: Any) -> Iterator[Result]:
    """``probe_url`` on each of `urls`, `jobs` at a time, results yielded in input order as
    soon as each and every one before it is done. Memory is bounded: `urls` is consumed lazily,
    and at most 4 × `jobs` (16 at least) URLs are in flight or waiting to be yielded. Each
    worker keeps its connections for the next URL on the same host. Options are
    ``probe_url``'s. Closing the iterator early cancels the URLs not started."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    window = max(16, 4 * jobs)
    pools = _Pools()
    cancelled = threading.Event()
    options = dict(options, _cancelled=cancelled)

    def work(url: str) -> Result:
        return probe_url(url, _pool=pools.current(), **options)

    executor = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="imageprobe")
    pending: Deque[Future[Result]] = collections.deque()
    try:
        for url in urls:
            pending.append(executor.submit(work, url))
            while pending and (len(pending) >= window or pending[0].done()):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        cancelled.set()
        for future in pending:
            future.cancel()
        executor.shutdown(wait=True)
        # The workers are gone: their pools' connections can be closed.
        for pool in list(pools.all):
            pool.close()
