"""The Python package's conformance driver: probe_url from the installed wheel, one URL, one JSON
line as the command's: {"format":...} or {"error":...}.
    python3 probe.py URL MAX_BYTES TIMEOUT_SECONDS [ALLOW|-]    (ALLOW: public-only, with these blocks)
"""

import json
import sys

import imageprobe

url, max_bytes, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
allow = sys.argv[4] if len(sys.argv) > 4 else "-"
options = {"public_only": True, "allow": [block for block in allow.split(",") if block]} if allow != "-" else {}
result = imageprobe.probe_url(url, max_bytes=max_bytes, timeout=timeout, **options)
if result.ok:
    print(json.dumps({"format": result.format, "width": result.width, "height": result.height,
                      "bytesTransferred": result.bytes_transferred, "requests": result.requests}))
else:
    print(json.dumps({"error": result.error, "message": result.message, "bytesTransferred": result.bytes_transferred or 0,
                      "requests": result.requests or 0}))
