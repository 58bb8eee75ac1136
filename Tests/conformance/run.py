#!/usr/bin/env python3
"""Runs the URL-probe conformance table (behaviours.tsv, SPEC.md §6.5) against every front end
given, over the hostile server (hostile_server.py), and fails when any cell differs from the
table: the answer or error code, the bytes reported, a flood's time (3 s) or the server's bytes
sent (40 MiB), or a connection opened under the guard.

    python3 Tests/conformance/run.py [--command .build/release/imageprobe] [--c-library .build/c]
        [--js-package bindings/js] [--python-wheel .build/dist/imageprobe-*.whl] [--markdown]
Standard library only; loopback only; the server exits by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAX_BYTES = 1 << 20
TIMEOUT = 2
FLOOD_SECONDS = 3.0
FLOOD_SERVER_BYTES = 40 << 20


def rows() -> list[dict[str, str]]:
    table = []
    for line in (HERE / "behaviours.tsv").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        behaviour, host, path, guard, expected, bound = line.split("\t")
        table.append({"behaviour": behaviour, "host": host, "path": path, "guard": guard, "expected": expected,
                      "bound": bound})
    return table


def front_ends(arguments: argparse.Namespace, work: Path) -> dict[str, list[str]]:
    """Each front end as a command prefix: URL, max bytes, timeout and guard follow."""
    ends: dict[str, list[str]] = {}
    if arguments.command:
        ends["command"] = [str(Path(arguments.command).resolve())]
    if arguments.c_library:
        library = Path(arguments.c_library).resolve()
        driver = work / "probe"
        subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-I", str(library / "include"),
                        str(HERE / "probe.c"), str(library / "libimageprobe.a"), "-o", str(driver)], check=True)
        ends["C"] = [str(driver)]
    if arguments.js_package:
        package = Path(arguments.js_package).resolve()
        subprocess.run(["npm", "pack", "--silent", "--pack-destination", str(work)], cwd=package, check=True,
                       stdout=subprocess.DEVNULL)
        tarball = next(work.glob("imageprobe-*.tgz"))
        project = work / "js"
        project.mkdir()
        (project / "package.json").write_text('{ "name": "conformance", "private": true, "type": "module" }')
        subprocess.run(["npm", "install", "--offline", "--no-audit", "--no-fund", "--silent", str(tarball)], cwd=project,
                       check=True)
        shutil.copy(HERE / "probe.mjs", project / "probe.mjs")
        ends["JavaScript"] = ["node", str(project / "probe.mjs")]
    if arguments.python_source:
        ends["Python"] = [sys.executable, str(HERE / "probe.py")]
        os.environ["PYTHONPATH"] = str(Path(arguments.python_source).resolve())
    if arguments.python_wheel:
        target = work / "python"
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                        arguments.python_wheel], check=True)
        ends["Python"] = [sys.executable, str(HERE / "probe.py")]
        os.environ["PYTHONPATH"] = str(target)
    return ends


def invocation(name: str, prefix: list[str], url: str, guard: str) -> list[str]:
    allow = guard.partition(":")[2] if guard != "-" else None
    if name == "command":
        command = prefix + ["--json", "--max-bytes", str(MAX_BYTES), "--timeout", str(TIMEOUT)]
        if guard != "-":
            command += ["--public-only"] + [option for block in allow.split(",") if block for option in ("--allow", block)]
        return command + [url]
    if name == "C":
        command = prefix + [url, "--max-bytes", str(MAX_BYTES), "--timeout", str(TIMEOUT)]
        if guard != "-":
            command += ["--public-only", "--allow", allow]
        return command
    return prefix + [url, str(MAX_BYTES), str(TIMEOUT), allow if guard != "-" else "-"]


def stats(port: int, run: str) -> dict[str, int]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stats?of={run}", timeout=5) as response:
        return json.loads(response.read())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--command")
    parser.add_argument("--c-library")
    parser.add_argument("--js-package")
    parser.add_argument("--python-wheel")
    parser.add_argument("--python-source", help="a source checkout's bindings/python/src instead of a wheel (development)")
    parser.add_argument("--markdown", action="store_true", help="print the table as SPEC.md shows it")
    arguments = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="conformance-"))
    server = subprocess.Popen([sys.executable, str(HERE / "hostile_server.py"), "--lifetime", "900"],
                              stdout=subprocess.PIPE, text=True)
    failures: list[str] = []
    try:
        port = int(server.stdout.readline().split()[1])
        ends = front_ends(arguments, work)
        if not ends:
            parser.error("no front end given")
        table = rows()
        results: dict[tuple[str, str], str] = {}
        for index, row in enumerate(table):
            for name, prefix in ends.items():
                run = f"{index}-{name}"
                separator = "&" if "?" in row["path"] else "?"
                url = f"http://{row['host']}:{port}{row['path']}{separator}run={run}"
                before = stats(port, run)["total_connections"]
                started = time.monotonic()
                process = subprocess.run(invocation(name, prefix, url, row["guard"]), capture_output=True, text=True,
                                         timeout=60)
                elapsed = time.monotonic() - started
                try:
                    answer = json.loads(process.stdout.strip().splitlines()[0])
                except (IndexError, json.JSONDecodeError):
                    answer = {"error": f"no JSON (exit {process.returncode}): {process.stderr.strip()[:200]}"}
                code = answer.get("format") or answer.get("error")
                transferred = answer.get("bytesTransferred", 0) or 0
                after = stats(port, run)
                cell = code
                if code != row["expected"]:
                    failures.append(f"{row['behaviour']} / {name}: {code} ({answer.get('message', '')}), "
                                    f"expected {row['expected']}")
                    cell = f"**{code}**"
                if transferred > int(row["bound"]):
                    failures.append(f"{row['behaviour']} / {name}: {transferred} bytes transferred, over {row['bound']}")
                    cell += f" ({transferred} B)"
                if row["path"].startswith("/flood/"):
                    if elapsed > FLOOD_SECONDS:
                        failures.append(f"{row['behaviour']} / {name}: {elapsed:.1f} s, over {FLOOD_SECONDS:g} s")
                    if after["sent"] > FLOOD_SERVER_BYTES:
                        failures.append(f"{row['behaviour']} / {name}: the server sent {after['sent']} bytes")
                    cell += f" ({elapsed:.1f} s, {after['sent'] / 1048576:.1f} MiB sent)"
                if row["guard"] == "public":
                    opened = after["total_connections"] - before - 1  # the stats request's own
                    if opened > 0:
                        failures.append(f"{row['behaviour']} / {name}: {opened} connections under the guard")
                        cell += f" ({opened} connections)"
                results[(row["behaviour"], name)] = cell
        if "command" in ends:
            # The command's --max-bytes bounds the wire: 100,000 on the padded-chunk flood.
            run = "max-bytes-100000"
            process = subprocess.run(ends["command"] + ["--json", "--max-bytes", "100000", "--timeout", str(TIMEOUT),
                                     f"http://127.0.0.1:{port}/flood/padded-chunks?run={run}"], capture_output=True,
                                     text=True, timeout=60)
            transferred = json.loads(process.stdout.splitlines()[0]).get("bytesTransferred", 0)
            print(f"imageprobe --max-bytes 100000 on the padded-chunk flood: {transferred:,} bytes transferred, "
                  f"the server sent {stats(port, run)['sent']:,}")
            if transferred > 200_000:
                failures.append(f"--max-bytes 100000: {transferred} bytes transferred, over 200,000")
        names = list(ends)
        if arguments.markdown:
            print("| behaviour | expected | " + " | ".join(names) + " |")
            print("|---|---|" + "---|" * len(names))
        for row in table:
            cells = [results[(row["behaviour"], name)] for name in names]
            if arguments.markdown:
                print(f"| {row['behaviour']} | {row['expected']} | " + " | ".join(cells) + " |")
            else:
                print(f"{row['behaviour']:<45} {row['expected']:<17} " + "  ".join(f"{name}={cell}" for name, cell in zip(names, cells)))
    finally:
        server.kill()
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(f"FAIL {failure}")
    print(f"{len(table) * len(ends) - len(failures)} passed, {len(failures)} failed")  # cells, roughly: a cell may fail twice
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
