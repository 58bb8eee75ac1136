#!/usr/bin/env python3
"""Memory per input is O(1) (SPEC.md §4): the command probes COUNT URLs (default 30,000) of a
local server in one run, and its peak resident memory must stay under LIMIT_MB (default 100).

    python3 Tests/cli/many_urls.py .build/release/imageprobe [COUNT] [LIMIT_MB]

The server (asyncio, on loopback) answers every GET with a small PNG, as a 206 for the range
asked, on kept-alive connections. Every line of output must be the PNG's answer, in order.
"""
import asyncio
import json
import resource
import struct
import subprocess
import sys
import threading
import zlib

COMMAND = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 30_000
LIMIT_MB = int(sys.argv[3]) if len(sys.argv) > 3 else 100


def png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 4)) + chunk(b"IEND", b""))


IMAGE = png(321, 123)
served = 0


async def serve(reader, writer):
    global served
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            first, last = 0, len(IMAGE) - 1
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"range: bytes="):
                    bounds = line[13:].split(b"-")
                    first, last = int(bounds[0]), min(int(bounds[1]), len(IMAGE) - 1)
            body = IMAGE[first:last + 1]
            writer.write(b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\nContent-Length: %d\r\n\r\n"
                         % (first, last, len(IMAGE), len(body)) + body)
            served += 1
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


def start_server():
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(asyncio.start_server(serve, "127.0.0.1", 0, backlog=1024))
    port = server.sockets[0].getsockname()[1]
    threading.Thread(target=loop.run_forever, daemon=True).start()
    return port


port = start_server()
urls = [f"http://127.0.0.1:{port}/image/{index}.png" for index in range(COUNT)]
# The URLs as arguments would pass the kernel's limit on their total size: through xargs-like
# batches would mean several processes, so the list goes through one process's argv, split
# only if it must be.
arguments = [COMMAND, "--json", "--dimensions-only", "-j", "16"]
process = subprocess.run(arguments + urls, capture_output=True)
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
lines = process.stdout.decode().splitlines()
wrong = [line for line in lines if json.loads(line).get("width") != 321]
paths_in_order = all(json.loads(line)["path"] == url for line, url in zip(lines, urls))
print(f"many_urls: {COUNT} URLs, {len(lines)} lines, {len(wrong)} wrong, in order: {paths_in_order}, "
      f"{served} requests served, exit {process.returncode}, peak RSS {peak_mb:.1f} MB (limit {LIMIT_MB} MB)")
if len(lines) != COUNT or wrong or not paths_in_order or process.returncode != 0 or peak_mb >= LIMIT_MB:
    print(process.stderr.decode()[-2000:])
    sys.exit(1)
