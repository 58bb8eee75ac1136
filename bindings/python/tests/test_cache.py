"""probe_url's cache (SPEC.md §6.7): answers kept on disk, fresh ones used without a request,
stale ones revalidated by a conditional request the core plans, corrupt entries rewritten,
several processes on one directory."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import imageprobe
from conftest import comparable, names, png
from servers import Nginx, Request, ScriptedServer, ranged

COSTS = ("bytesTransferred", "requests", "fromCache")


def entries(directory: Path) -> List[Path]:
    return sorted(directory.glob("*.json"))


def test_cold_warm_stale_and_changed(nginx: Nginx, tmp_path: Path) -> None:
    (nginx.root / "cached.png").write_bytes(png(64, 48))
    url = nginx.url("cached.png")
    cache = tmp_path / "cache"

    nginx.mark()
    cold = imageprobe.probe_url(url, cache=cache)
    assert cold.ok and cold.from_cache is False and cold.requests == 1 and (cold.width, cold.height) == (64, 48)
    assert len(entries(cache)) == 1 and nginx.sent()[0] == 1

    # Fresh: no request at all, and the same answer.
    nginx.mark()
    warm = imageprobe.probe_url(url, cache=cache)
    assert warm.ok and warm.from_cache is True and warm.requests == 0 and warm.bytes_transferred == 0
    assert comparable(warm.to_dict(), drop=COSTS) == comparable(cold.to_dict(), drop=COSTS)
    assert nginx.sent()[0] == 0

    # Stale: one conditional request, answered 304 (nginx compares If-None-Match before Range).
    nginx.mark()
    stale = imageprobe.probe_url(url, cache=imageprobe.URLCache(cache, freshness=0))
    assert stale.ok and stale.from_cache is True and stale.requests == 1, stale
    assert stale.bytes_transferred is not None and stale.bytes_transferred < 400
    assert [entry[1] for entry in nginx.entries()] == [304]
    assert comparable(stale.to_dict(), drop=COSTS) == comparable(cold.to_dict(), drop=COSTS)

    # Changed: a new version is probed in the same round trip, and replaces the entry.
    (nginx.root / "cached.png").write_bytes(png(20, 10))
    os.utime(nginx.root / "cached.png", (time.time() + 5, time.time() + 5))
    changed = imageprobe.probe_url(url, cache=imageprobe.URLCache(cache, freshness=0))
    assert changed.ok and changed.from_cache is False and (changed.width, changed.height) == (20, 10)
    assert changed.requests == 1
    again = imageprobe.probe_url(url, cache=cache)
    assert again.from_cache is True and (again.width, again.height) == (20, 10)


def test_every_mode_and_limit_has_its_own_entry(nginx: Nginx, files: List[Path], tmp_path: Path) -> None:
    url = nginx.url(names(files)[0])
    full = imageprobe.probe_url(url, cache=tmp_path)
    dimensions = imageprobe.probe_url(url, cache=tmp_path, mode="dimensions_only")
    assert full.from_cache is False and dimensions.from_cache is False
    assert len(entries(tmp_path)) == 2
    assert imageprobe.probe_url(url, cache=tmp_path, max_pixels=1).ok is False, "not answered from the full mode's entry"


def test_corrupt_truncated_and_foreign_entries_are_rewritten(nginx: Nginx, files: List[Path], tmp_path: Path) -> None:
    (nginx.root / "corrupt.png").write_bytes(png(12, 9))
    url = nginx.url("corrupt.png")
    first = imageprobe.probe_url(url, cache=tmp_path)
    assert first.ok
    [entry] = entries(tmp_path)
    good = entry.read_text()
    record = json.loads(good)
    for damaged in ["", good[: len(good) // 2], "\0" * 40, json.dumps({**record, "imageprobe": 99}),
                    json.dumps({**record, "key": record["key"] + "x"}), json.dumps({**record, "answer": []})]:
        entry.write_text(damaged)
        result = imageprobe.probe_url(url, cache=tmp_path)
        assert result.ok and result.from_cache is False, damaged[:40]
        assert json.loads(entry.read_text())["key"] == record["key"], "rewritten"
    assert not list(tmp_path.glob(".*.tmp")), "no temporary file left"


def test_max_age_and_no_cache_set_the_freshness(scripted: List[ScriptedServer], tmp_path: Path) -> None:
    image = png(30, 20)
    seen: List[str] = []

    def handler(request: Request) -> bytes:
        seen.append(request.headers.get("if-none-match", ""))
        control = "no-cache" if request.path == "/no-cache" else "max-age=3600"
        if request.headers.get("if-none-match") == '"v1"':
            return f'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\nCache-Control: {control}\r\n\r\n'.encode()
        return ranged(image, request, extra=f"Cache-Control: {control}\r\n")

    server = ScriptedServer(handler)
    scripted.append(server)
    short = imageprobe.URLCache(tmp_path, freshness=0)
    # max-age=3600 wins over the cache's own freshness of 0: the second probe sends nothing.
    assert imageprobe.probe_url(server.url("/long"), cache=short).from_cache is False
    assert imageprobe.probe_url(server.url("/long"), cache=short).requests == 0
    # no-cache: every probe asks, and a 304 keeps the answer.
    long = imageprobe.URLCache(tmp_path, freshness=86400)
    assert imageprobe.probe_url(server.url("/no-cache"), cache=long).from_cache is False
    revalidated = imageprobe.probe_url(server.url("/no-cache"), cache=long)
    assert revalidated.from_cache is True and revalidated.requests == 1 and (revalidated.width, revalidated.height) == (30, 20)
    assert seen == ["", "", '"v1"']


def test_failures_are_not_stored(scripted: List[ScriptedServer], tmp_path: Path) -> None:
    server = ScriptedServer(lambda request: b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    scripted.append(server)
    failure = imageprobe.probe_url(server.url("/gone.png"), cache=tmp_path)
    assert not failure.ok and failure.error == "httpStatus"
    assert entries(tmp_path) == []


def test_the_number_of_entries_is_bounded(nginx: Nginx, files: List[Path], tmp_path: Path) -> None:
    cache = imageprobe.URLCache(tmp_path, max_entries=10)
    urls = [nginx.url(name) for name in names(files)[:80]]
    results = list(imageprobe.probe_urls(urls, jobs=4, cache=cache))
    assert all(result.ok or result.error for result in results)
    cache.prune()
    assert 0 < len(entries(tmp_path)) <= 10


def test_two_processes_share_a_directory(nginx: Nginx, files: List[Path], tmp_path: Path) -> None:
    urls = [nginx.url(name) for name in names(files)[:120]]
    script = ("import imageprobe, json, sys\n"
              "urls = sys.argv[2:]\n"
              "results = list(imageprobe.probe_urls(urls, jobs=8, cache=sys.argv[1]))\n"
              "print(json.dumps([r.to_dict() for r in results]))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    runs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path), *urls], stdout=subprocess.PIPE, env=env)
            for _ in range(2)]
    outputs = [json.loads(run.communicate(timeout=300)[0]) for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert [comparable(a, drop=COSTS) for a in outputs[0]] == [comparable(b, drop=COSTS) for b in outputs[1]]
    # Every entry either process wrote is whole, and a third run answers from them alone.
    for entry in entries(tmp_path):
        assert json.loads(entry.read_text())["imageprobe"] == 1
    nginx.mark()
    third = list(imageprobe.probe_urls(urls, jobs=8, cache=tmp_path))
    stored = [result for result in third if result.ok and not result.partial]
    assert stored and all(result.from_cache and result.requests == 0 for result in stored)
    assert nginx.sent()[0] == len(third) - len(stored), "only failures and partial answers are fetched again"


def test_an_entry_as_the_javascript_package_writes_it(tmp_path: Path) -> None:
    """SPEC.md §6.7: one format and one naming for both front ends."""
    url = "http://127.0.0.1:9/shared.png"  # the discard port: nothing answers there
    key = f"imageprobe-url-cache 1\nfull\n16777216\n0\n{url}"
    record = {"imageprobe": 1, "key": key, "url": url, "checked": time.time(), "entityTag": '"a"', "lastModified": "",
              "freshness": None, "answer": {"format": "png", "mime": "image/png", "width": 5, "height": 4,
                                            "orientation": None, "displayWidth": 5, "displayHeight": 4, "bitDepth": 8,
                                            "alpha": True, "dpi": [72, 72]}}
    (tmp_path / f"{hashlib.sha256(key.encode()).hexdigest()}.json").write_text(json.dumps(record))
    info = imageprobe.probe_url(url, cache=tmp_path)
    assert info.ok and info.from_cache is True and info.requests == 0
    assert (info.width, info.display_height, info.bit_depth, info.alpha, info.dpi, info.cicp) == (5, 4, 8, True, (72, 72), None)
