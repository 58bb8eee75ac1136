"""``probe_url`` and ``probe_urls``: sizes from URLs with the fewest bytes (SPEC.md §6).

Every rule of the exchange is the core's (imageprobe_planner_*, SPEC.md §6.1): which Range to
ask for and where, If-Range, redirects, the head's limits, chunked framing, the byte budget, the
error code of each failure. This module is only a transport over a socket: it connects
(checking each address against the address policy, §6.4), sends the request head the planner
writes, hands every byte it reads to the planner (``imageprobe_planner_wire``), and keeps the
clock: every socket operation runs against the request's deadline, name resolution included.
"""

from __future__ import annotations

import collections
import ctypes
import dataclasses
import os
import socket
import ssl
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Tuple

from . import _native as native
from ._address import ANY, AddressPolicy
from ._cache import Entry, URLCache, as_cache, cache_key
from ._info import Failure, INFO, ImageInfo, Result, decode
from ._scan import Mode

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
#: The read size, and the receive buffer asked of the kernel (a small TCP window, so a server
#: ignoring Range has little in flight when the transfer stops, SPEC.md §6.2).
CHUNK = 16 * 1024
USER_AGENT = f"{native.USER_AGENT} (Python)"
#: The longest a connection's last response is read through after the answer, to keep it.
DRAIN_TIME = 0.1


class _Failed(Exception):
    """The exchange failed in the transport: the planner's class (FAIL_*) and the words why."""

    def __init__(self, kind: int, detail: str = "") -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class _Pool:
    """Idle connections of one thread, by (TLS, host, port, policy, TLS context)."""

    def __init__(self, limit: int = 8) -> None:
        self.idle: "collections.OrderedDict[Tuple[Any, ...], socket.socket]" = collections.OrderedDict()
        self.limit = limit

    def take(self, key: Tuple[Any, ...]) -> socket.socket | None:
        return self.idle.pop(key, None)

    def give(self, key: Tuple[Any, ...], sock: socket.socket) -> None:
        old = self.idle.pop(key, None)
        if old is not None:
            old.close()
        self.idle[key] = sock
        while len(self.idle) > self.limit:
            self.idle.popitem(last=False)[1].close()

    def close(self) -> None:
        while self.idle:
            self.idle.popitem()[1].close()


class _Probe:
    """One URL: the planner's requests sent, the responses' bytes handed back."""

    def __init__(self, url: str, *, timeout: float, probe_timeout: float | None, max_bytes: int,
                 policy: AddressPolicy, mode: Mode, max_pixels: int, max_requests: int | None, max_redirects: int | None,
                 context: ssl.SSLContext | None, user_agent: str, pool: _Pool | None,
                 cancelled: threading.Event | None, cache: URLCache | None = None) -> None:
        self.url = url.encode("utf-8", "surrogateescape")
        self.cache = cache
        self.cache_key = cache_key(url, mode, max(0, max_bytes), max_pixels) if cache is not None else ""
        self.entry = cache.get(self.cache_key) if cache is not None else None
        self.timeout = timeout
        self.probe_timeout = max(30.0, 3 * timeout) if probe_timeout is None else probe_timeout
        self.policy = policy
        self.context = context
        self.user_agent = user_agent.encode("latin-1", "replace")
        self.pool = pool
        self.cancelled = cancelled
        self._planner_owner, self.planner = native.aligned(native.PLANNER_SIZE)
        self._info_owner, self.info_address, self.info = native.block(INFO.size)
        self._request_owner, self.request_address, self.request = native.block(native.PLAN_REQUEST.size)
        options = bytearray(native.PLANNER_OPTIONS.size)
        native.planner_defaults((ctypes.c_char * len(options)).from_buffer(options))
        native.PLANNER_OPTIONS.write(options, scan=native.scan_options(mode, max(0, max_bytes), 0, 0, 0, 0, 0, max_pixels),
                                     max_bytes=max(0, max_bytes))
        if max_requests is not None:
            native.PLANNER_OPTIONS.write(options, max_requests=max(0, max_requests))
        if max_redirects is not None:
            native.PLANNER_OPTIONS.write(options, max_redirects=max(0, min(15, max_redirects)))
        self.options = bytes(options)
        self.deadline = 0.0
        self.detail = ""
        self.sock: socket.socket | None = None
        self.key: Tuple[Any, ...] = ()

    def run(self) -> Result:
        if self.cache is not None and self.entry is not None and self.cache.is_fresh(self.entry, time.time()):
            return self.entry.info(bytes_transferred=0, requests=0)
        planner = self.planner
        native.planner_init(planner, self.options, self.url, len(self.url))
        if self.entry is not None and (self.entry.entity_tag or self.entry.last_modified):
            # The first request asks whether the held version is still current (a 304).
            tag = self.entry.entity_tag.encode("latin-1", "replace")
            date = self.entry.last_modified.encode("latin-1", "replace")
            native.planner_revalidate(planner, tag, len(tag), date, len(date))
        probe_deadline = time.monotonic() + self.probe_timeout
        try:
            while (step := native.planner_next(planner, self.request_address, self.info_address)) == native.PLAN_SEND:
                wait = native.PLAN_REQUEST.unpack(self.request)["wait_seconds"]
                if wait > 0:
                    # A 429 or 503's Retry-After, waited out unless the probe's time ends first
                    # (a cancel ends the wait).
                    if time.monotonic() + wait >= probe_deadline:
                        native.planner_fail(planner, native.FAIL_TIMEOUT)
                        continue
                    if self.cancelled is not None:
                        self.cancelled.wait(wait)
                    else:
                        time.sleep(wait)
                now = time.monotonic()
                if self.cancelled is not None and self.cancelled.is_set():
                    native.planner_fail(planner, native.FAIL_CANCELLED)
                elif now >= probe_deadline:
                    native.planner_fail(planner, native.FAIL_TIMEOUT)
                else:
                    self.deadline = min(probe_deadline, now + self.timeout)
                    try:
                        self._exchange()
                    except _Failed as failure:
                        self._close()
                        self.detail = failure.detail
                        native.planner_fail(planner, failure.kind)
            return self._answer(step)
        finally:
            self._release()

    def _answer(self, step: int) -> Result:
        extra = {"bytes_transferred": native.planner_bytes_received(self.planner),
                 "requests": native.planner_requests(self.planner)}
        if step == native.PLAN_NOT_MODIFIED and self.cache is not None and self.entry is not None:
            # The held answer stands: kept with the 304's validators and freshness.
            entry = self._entry(self.entry.answer)
            self.cache.put(self.cache_key, entry)
            return entry.info(**extra)
        result = decode(step, self.info, **extra)
        if self.cache is not None and isinstance(result, ImageInfo):
            result = dataclasses.replace(result, from_cache=False)
            # A partial answer is not the image's whole: it is probed again next time.
            if not result.partial:
                self.cache.put(self.cache_key, self._entry(result.to_dict()))
        if isinstance(result, Failure) and self.detail and INFO.unpack(self.info)["fetch_error"] in (
                "connection", "forbiddenAddress"):
            result = Failure(error=result.error, message=f"{result.message}: {self.detail}", status=result.status, **extra)
        return result

    def _entry(self, answer: Dict[str, Any]) -> Entry:
        """`answer` with the validators and freshness the planner settled on, checked now."""
        freshness = native.planner_freshness(self.planner)
        return Entry(answer=answer, checked=time.time(),
                     entity_tag=native.text(self.planner, native.TEXT_ENTITY_TAG).decode("latin-1"),
                     last_modified=native.text(self.planner, native.TEXT_LAST_MODIFIED).decode("latin-1"),
                     freshness=freshness if freshness >= 0 else None)

    def _exchange(self) -> None:
        """One request on the probe's connection (or a pooled or new one) and its response, every
        byte read handed to the planner. A reused connection the server closed meanwhile is
        replaced once, before any byte of the response came."""
        request = native.PLAN_REQUEST.unpack(self.request)
        host = native.text(self.planner, native.TEXT_HOST).decode("utf-8", "surrogateescape")
        # The context itself, not its id(): an id can be reused once a context is collected.
        key = (request["secure"], host, request["port"], self.policy.key(), self.context)
        head = native.text(self.planner, native.TEXT_REQUEST_HEAD) + b"User-Agent: " + self.user_agent + b"\r\n\r\n"
        for attempt in (0, 1):
            if self.sock is not None and self.key != key:
                self._release()
            if self.sock is None and self.pool is not None:
                self.sock, self.key = self.pool.take(key), key
            reused = self.sock is not None
            if self.sock is None:
                self.sock, self.key = self._open(host, request["port"], request["secure"] == 1), key
            sock = self.sock
            try:
                sock.settimeout(self._left())
                sock.sendall(head)
                progress, got = native.WIRE_MORE, 0
                while progress == native.WIRE_MORE:
                    sock.settimeout(self._left())
                    data = sock.recv(CHUNK)
                    if not data:
                        if reused and attempt == 0 and got == 0:
                            break  # the server closed the idle connection: once more, on a new one
                        native.planner_wire_closed(self.planner)
                        self._close()
                        return
                    got += len(data)
                    progress = native.planner_wire(self.planner, data, len(data))
            except (socket.timeout, TimeoutError):
                raise _Failed(native.FAIL_TIMEOUT) from None
            except OSError as error:
                if reused and attempt == 0 and not got:
                    self._close()
                    continue
                raise _Failed(native.FAIL_CONNECTION, f"{error.strerror or error}") from None
            if progress == native.WIRE_MORE:
                self._close()
                continue
            if progress == native.WIRE_ENDED and self.pool is not None and native.planner_drainable(self.planner):
                progress = self._drain()
            if progress != native.WIRE_ENDED_REUSABLE:
                self._close()
            return

    def _drain(self) -> int:
        """Reads the rest of a short response the planner stopped reading (the answer is had),
        for at most DRAIN_TIME, so the connection can carry the next request."""
        assert self.sock is not None
        deadline = min(self.deadline, time.monotonic() + DRAIN_TIME)
        progress = native.WIRE_MORE
        try:
            while progress == native.WIRE_MORE and time.monotonic() < deadline:
                self.sock.settimeout(max(0.001, deadline - time.monotonic()))
                data = self.sock.recv(CHUNK)
                if not data:
                    return native.WIRE_ENDED
                progress = native.planner_wire(self.planner, data, len(data))
        except OSError:
            return native.WIRE_ENDED
        return progress

    def _left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _Failed(native.FAIL_TIMEOUT)
        return left

    def _open(self, host: str, port: int, secure: bool) -> socket.socket:
        """Resolves `host`, checks each address against the policy, and connects to the first
        allowed one that answers (then TLS for https). A refused address gets no socket."""
        refusals: List[str] = []
        failures: List[str] = []
        for family, address in _resolve(host, port, self._left()):
            refusal = self.policy.refusal(address[0])
            if refusal is not None:
                refusals.append(refusal)
                continue
            sock = socket.socket(family, socket.SOCK_STREAM)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, CHUNK)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sock.settimeout(self._left())
                sock.connect(address)
                if secure:
                    sock = (self.context or _default_context()).wrap_socket(sock, server_hostname=host)
                return sock
            except (socket.timeout, TimeoutError):
                sock.close()
                raise _Failed(native.FAIL_TIMEOUT) from None
            except (ssl.SSLError, ssl.CertificateError) as error:
                sock.close()
                raise _Failed(native.FAIL_CONNECTION, f"TLS: {error}") from None
            except OSError as error:
                sock.close()
                failures.append(f"{address[0]}: {error.strerror or error}")
        if refusals:
            raise _Failed(native.FAIL_FORBIDDEN_ADDRESS, refusals[0])
        raise _Failed(native.FAIL_CONNECTION, f"cannot connect to {host} port {port}: {'; '.join(failures) or 'no address'}")

    def _close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def _release(self) -> None:
        """Gives the probe's connection to the pool (or closes it)."""
        if self.sock is not None and self.pool is not None:
            self.pool.give(self.key, self.sock)
            self.sock = None
        self._close()


_context_lock = threading.Lock()
_context: ssl.SSLContext | None = None


def _default_context() -> ssl.SSLContext:
    global _context
    with _context_lock:
        if _context is None:
            _context = ssl.create_default_context()
        return _context


def _resolve(host: str, port: int, left: float) -> List[Tuple[int, Tuple[Any, ...]]]:
    """The addresses of `host`, in the resolver's order, within `left` seconds."""
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
    if not done.wait(left):
        raise _Failed(native.FAIL_TIMEOUT)
    if "error" in outcome:
        error = outcome["error"]
        raise _Failed(native.FAIL_CONNECTION, f"cannot resolve {host}: {getattr(error, 'strerror', None) or error}")
    return [(family, address) for family, _, _, _, address in outcome["value"]]


def probe_url(url: str, *, timeout: float = 10.0, max_bytes: int = DEFAULT_MAX_BYTES, public_only: bool = False,
              allow: Iterable[str] = (), mode: Mode = "full", max_pixels: int = 0, probe_timeout: Optional[float] = None,
              max_requests: Optional[int] = None, max_redirects: Optional[int] = None,
              cafile: Optional[str] = None, context: Optional[ssl.SSLContext] = None,
              user_agent: str = USER_AGENT, cache: "URLCache | str | os.PathLike[str] | None" = None,
              _pool: Optional[_Pool] = None, _cancelled: Optional[threading.Event] = None) -> Result:
    """The answer for an http or https URL, with the fewest bytes (SPEC.md §6.1): Range
    requests planned by the core, jumps over what the scanner skips, If-Range with the first
    response's validator, redirects followed (5 at most), the same rules and error codes as the
    ``imageprobe`` command, C and JavaScript.

    `timeout`: each request's deadline in seconds, name resolution, connecting and TLS
    included (the probe's own is ``probe_timeout``, by default the larger of 30 s and 3 ×
    `timeout`). `max_bytes`: every byte received, status lines, heads, interim responses,
    chunk framing and extensions included (and the scanner's limit with it).
    `public_only`: connect only to public addresses (SPEC.md §6.4), checked on every address
    actually connected, redirects included; `allow` lists blocks allowed all the same
    ("10.8.0.0/16"). `cafile` or `context` for https with other certificate authorities.
    `max_pixels` (0: no limit): an image of more pixels (width × height, × frames in
    animation mode) is a ``Failure`` "tooManyPixels" with its ``detected_format``, ``width``
    and ``height``.

    `cache`: a ``URLCache`` or a directory for one (SPEC.md §6.7): an answer younger than its
    freshness (the response's max-age, else a day) is the cache's, with no request
    (``from_cache`` True, ``bytes_transferred`` and ``requests`` 0); an older one is revalidated
    by a conditional first request, and a ``304`` keeps it (``from_cache`` True, with the 304's
    costs); any other answer is probed and stored (``from_cache`` False). Failures are not
    stored.

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
                   pool=_pool, cancelled=_cancelled, cache=as_cache(cache))
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
    if options.get("context") is None and options.get("cafile") is not None:
        # One context for every URL, so that their connections can be pooled and reused.
        options["context"] = ssl.create_default_context(cafile=options["cafile"])
    if options.get("cache") is not None:
        options["cache"] = as_cache(options["cache"])

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
