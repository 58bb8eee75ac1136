"""``URLCache``: URL answers kept on disk and revalidated, shared by processes and front ends
(SPEC.md §6.7). The conditional request and what a ``304`` means are the core planner's
(``imageprobe_planner_revalidate``); this module only keeps the entries: their names, their
format, their freshness, atomic writes, and a bound on their number.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
import threading
import time
from typing import Any, Dict, Optional, Tuple

from ._info import ImageInfo

#: The entry format's version: an entry of another is foreign, ignored and rewritten.
FORMAT = 1
#: How long an answer is used without asking the server, when its response set no max-age.
DEFAULT_FRESHNESS = 24 * 60 * 60
DEFAULT_MAX_ENTRIES = 10_000
#: The command's JSON names of the modes, which the key spells (SPEC.md §6.7).
_MODE_NAMES = {"full": "full", "dimensions_only": "dimensionsOnly", "animation": "animation"}
#: The answer's JSON keys that are the probe's costs, not the image's: never stored.
_COSTS = ("bytesRead", "bytesSkipped", "bytesTransferred", "requests", "fromCache")
_SNAKE = {field.name.replace("_", ""): field.name for field in dataclasses.fields(ImageInfo)}


def cache_key(url: str, mode: str, max_bytes: int, max_pixels: int) -> str:
    """The text an entry is named by and holds: everything that changes the answer."""
    return f"imageprobe-url-cache {FORMAT}\n{_MODE_NAMES.get(mode, mode)}\n{max_bytes}\n{max_pixels}\n{url}"


@dataclasses.dataclass(frozen=True)
class Entry:
    """A URL's answer (the command's JSON object, costs left out) and what revalidates it."""

    answer: Dict[str, Any]
    checked: float
    entity_tag: str
    last_modified: str
    freshness: Optional[int]

    def info(self, bytes_transferred: int, requests: int) -> ImageInfo:
        """The answer as an ``ImageInfo`` that came from the cache, with these costs."""
        values: Dict[str, Any] = {field.name: None for field in dataclasses.fields(ImageInfo)}
        values.update(bytes_read=0, bytes_skipped=0, partial=False)
        for key, value in self.answer.items():
            name = _SNAKE.get(key.lower())
            if name is not None:
                values[name] = tuple(value) if isinstance(value, list) else value
        values.update(bytes_transferred=bytes_transferred, requests=requests, from_cache=True)
        return ImageInfo(**values)


class URLCache:
    """A directory of URL answers (``probe_url(url, cache=...)``): a fresh one is answered
    without a request; a stale one with validators is revalidated by a conditional request, and
    a ``304`` keeps it. Corrupt, truncated or foreign entries are ignored and rewritten; writes
    are atomic (a temporary file renamed over the entry), so processes may share the directory;
    past `max_entries`, the oldest are removed."""

    def __init__(self, directory: str | os.PathLike[str], *, freshness: float = DEFAULT_FRESHNESS,
                 max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.directory = os.fspath(directory)
        self.freshness = freshness
        self.max_entries = max_entries
        self._writes = 0
        self._lock = threading.Lock()
        os.makedirs(self.directory, exist_ok=True)

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest() + ".json")

    def get(self, key: str) -> Optional[Entry]:
        """The entry for `key`, or None: none, unreadable, or not an entry of this key."""
        try:
            with open(self._path(key), "rb") as file:
                record = json.loads(file.read(1 << 20))
            answer = record["answer"]
            if record.get("imageprobe") != FORMAT or record.get("key") != key or not isinstance(answer, dict):
                return None
            if not isinstance(answer.get("format"), str) or not isinstance(answer.get("width"), int) \
                    or not isinstance(answer.get("height"), int):
                return None
            freshness = record.get("freshness")
            return Entry(answer=answer, checked=float(record["checked"]), entity_tag=str(record.get("entityTag", "")),
                         last_modified=str(record.get("lastModified", "")),
                         freshness=freshness if isinstance(freshness, int) and freshness >= 0 else None)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def is_fresh(self, entry: Entry, now: float) -> bool:
        """Younger than its response's max-age, or the cache's freshness without one."""
        age = now - entry.checked
        return 0 <= age < (entry.freshness if entry.freshness is not None else self.freshness)

    def put(self, key: str, entry: Entry) -> None:
        """Writes the entry atomically; a write that fails leaves the cache as it was."""
        record = {"imageprobe": FORMAT, "key": key, "checked": entry.checked, "entityTag": entry.entity_tag,
                  "lastModified": entry.last_modified, "freshness": entry.freshness,
                  "answer": {name: value for name, value in entry.answer.items() if name not in _COSTS}}
        path = self._path(key)
        try:
            handle, temporary = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=self.directory)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    json.dump(record, file, separators=(",", ":"))
                os.replace(temporary, path)
            except BaseException:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
                raise
        except OSError:
            return
        with self._lock:
            self._writes += 1
            check = self._writes % 64 == 1
        if check:
            self.prune()

    def prune(self) -> None:
        """Removes the oldest entries (by when they were written) past `max_entries`, down to
        nine tenths of it, and temporary files left by writers that died an hour ago or more."""
        now = time.time()
        entries: list[Tuple[float, str]] = []
        try:
            with os.scandir(self.directory) as listing:
                for item in listing:
                    try:
                        if item.name.endswith(".json"):
                            entries.append((item.stat().st_mtime, item.path))
                        elif item.name.startswith(".") and item.name.endswith(".tmp") and now - item.stat().st_mtime > 3600:
                            os.unlink(item.path)
                    except OSError:
                        continue
        except OSError:
            return
        if len(entries) <= self.max_entries:
            return
        entries.sort()
        for _, path in entries[:len(entries) - self.max_entries * 9 // 10]:
            try:
                os.unlink(path)
            except OSError:
                pass


def as_cache(cache: "URLCache | str | os.PathLike[str] | None") -> Optional[URLCache]:
    """``probe_url``'s `cache` argument: a URLCache, or a directory for one with the defaults."""
    if cache is None or isinstance(cache, URLCache):
        return cache
    return URLCache(cache)
