#!/usr/bin/env python3
"""Ground truth for animation mode: animated and still images made by real encoders, a manifest of
what each holds (cross-checked against identify, exiftool, webpmux, avifdec, jxlinfo and libheif),
and a score of the imageprobe CLI against it.

    animations.py --install                  install the encoders and tools below (apt-get, pip)
    animations.py OUTDIR                     generate files + OUTDIR/manifest.jsonl
    animations.py OUTDIR --check CMD [ARG...]
                                             run `CMD [ARG...] --json --animation FILE...` over the
                                             manifest's files and score the answers per format
    options for --check: --loop-semantics raw|plays (default raw), --batch N (default 100)

For example, from the package root:
    python3 Tests/encoders/animations.py --install
    python3 Tests/encoders/animations.py /tmp/animations
    swift build -c release --product imageprobe
    python3 Tests/encoders/animations.py /tmp/animations --check .build/release/imageprobe

Uses (each optional; a missing one is skipped with a message; --install installs them):
    apt-get install -y imagemagick webp libavif-bin libjxl-tools libimage-exiftool-perl gifsicle libheif-examples
    pip install pillow            (Pillow >= 11.2 also writes AVIF sequences through its bundled libavif)
    pip install pillow-heif       (its bundled libheif >= 1.20 writes and reads HEIF sequences, used via ctypes)

Manifest fields (one JSON object per line):
    file, format (the CLI's names: gif png webp avif heif jxl), width, height, animated, frameCount,
    loopCount     the value stored in the file, 0 = forever: GIF NETSCAPE2.0 loop (null when the file has
                  no NETSCAPE/ANIMEXTS block), APNG acTL num_plays, WebP ANIM loop count, JXL num_loops;
                  ISOBMFF has no stored count: libavif's repetitionCount + 1 (null when there is no edts,
                  libavif's AVIF_REPETITION_COUNT_UNKNOWN)
    playCount     how many times browsers play it (0 = forever): GIF stored+1 (1 without NETSCAPE),
                  the stored value elsewhere; null when unknown
    delaysMs      declared delay of each displayed frame, in ms (exact, may be fractional)
    durationMs    sum of delaysMs
    playbackDurationMs  sum with each delay under 11 ms counted as 100 ms (SPEC.md §3.3)
    largestFrameRect    [x, y, w, h] of the largest frame rectangle (by area; first wins)
    encoder, requested (what the generator asked for), oracles (what each tool printed, parsed, plus a raw
    excerpt), container (this script's own structural parse), disagreements (requested vs container vs
    oracles, after allowing for each tool's known conventions), notes.
Stills have animated false, frameCount 1 and null loop/duration fields.
"""

import json
import math
import os
import re
import shutil
import struct
import sys
import zlib
from fractions import Fraction

import harness  # beside this script: installing and running tools, the manifest, running the prober

# ----------------------------------------------------------------------------------------------
# small helpers


log = harness.log
tool = harness.tool  # /usr/local/bin/convert may be a stand-in: tool("convert") is ImageMagick's own


def run(cmd, timeout=180, stdin=None):
    """Runs cmd; never raises. Returns (returncode, stdout, stderr) as text."""
    rc, out, err = harness.run(cmd, timeout=timeout, input=stdin)
    return rc, out.decode("utf-8", "replace"), err


def r3(x):
    return None if x is None else round(float(x), 3)


def playback_ms(delays):
    return r3(sum(100.0 if d < 11 else d for d in delays))


def u16le(b, o):
    return b[o] | (b[o + 1] << 8)


def u24le(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)


def be32(b, o):
    return struct.unpack(">I", b[o:o + 4])[0]


def be64(b, o):
    return struct.unpack(">Q", b[o:o + 8])[0]


# ----------------------------------------------------------------------------------------------
# structural parsers (independent of the project; used as the "container" view)


def parse_gif(b):
    if b[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("not a GIF")
    res = {"version": b[3:6].decode(), "width": u16le(b, 6), "height": u16le(b, 8), "frames": [],
           "loop": None, "loopBlockAfterFirstImage": None, "trailer": False, "gceWithoutImage": 0,
           "truncated": False, "extensionsAfterLastImage": 0}
    flags = b[10]
    p = 13 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
    gce = None
    try:
        while True:
            if p >= len(b):
                res["truncated"] = True
                break
            t = b[p]
            if t == 0x3B:
                res["trailer"] = True
                break
            if t == 0x21:
                label = b[p + 1]
                p += 2
                blocks = []
                while True:
                    n = b[p]
                    p += 1
                    if n == 0:
                        break
                    if p + n > len(b):
                        raise IndexError
                    blocks.append(b[p:p + n])
                    p += n
                if res["frames"]:
                    res["extensionsAfterLastImage"] += 1
                if label == 0xF9 and blocks and len(blocks[0]) >= 4:
                    if gce is not None:
                        res["gceWithoutImage"] += 1
                    gce = {"delayCs": u16le(blocks[0], 1), "dispose": (blocks[0][0] >> 2) & 7}
                elif label == 0xFF and blocks and blocks[0][:11] in (b"NETSCAPE2.0", b"ANIMEXTS1.0"):
                    for sb in blocks[1:]:
                        # The first loop extension wins (SPEC.md §3.3).
                        if len(sb) >= 3 and (sb[0] & 7) == 1 and res["loop"] is None:
                            res["loop"] = u16le(sb, 1)
                            res["loopBlockAfterFirstImage"] = bool(res["frames"])
                continue
            if t == 0x2C:
                x, y, w, h = struct.unpack("<HHHH", b[p + 1:p + 9])
                f = b[p + 9]
                p += 10
                if f & 0x80:
                    p += 3 * (2 << (f & 7))
                p += 1  # LZW minimum code size
                res["frames"].append({"x": x, "y": y, "w": w, "h": h,
                                      "delayCs": gce["delayCs"] if gce else None, "hasGCE": gce is not None})
                res["extensionsAfterLastImage"] = 0
                gce = None
                while True:
                    n = b[p]
                    p += 1
                    if n == 0:
                        break
                    p += n
                    if p > len(b):
                        raise IndexError
                continue
            res["garbageAt"] = p
            break
    except IndexError:
        res["truncated"] = True
    if gce is not None:
        res["gceWithoutImage"] += 1
    fr = res["frames"]
    delays = [10.0 * (f["delayCs"] or 0) for f in fr]
    loop = res["loop"]
    return {"format": "gif", "width": res["width"], "height": res["height"], "frameCount": len(fr),
            "animated": len(fr) > 1, "loopCount": loop,
            "playCount": (1 if loop is None else (0 if loop == 0 else loop + 1)),
            "delaysMs": delays, "rects": [[f["x"], f["y"], f["w"], f["h"]] for f in fr], "detail": res}


def png_chunks(b):
    if b[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    p = 8
    while p + 8 <= len(b):
        n = be32(b, p)
        typ = b[p + 4:p + 8]
        yield typ, p, b[p + 8:p + 8 + n]
        p += 12 + n
        if typ == b"IEND":
            break


def parse_png(b):
    width = height = None
    actl = None
    actl_after_idat = False
    fctls = []
    seen_idat = False
    default_is_frame = False
    for typ, _, data in png_chunks(b):
        if typ == b"IHDR":
            width, height = be32(data, 0), be32(data, 4)
        elif typ == b"acTL":
            if seen_idat:
                actl_after_idat = True
            elif actl is None:
                actl = {"numFrames": be32(data, 0), "numPlays": be32(data, 4)}
        elif typ == b"fcTL" and len(data) >= 26:
            dn, dd = struct.unpack(">HH", data[20:24])
            fctls.append({"seq": be32(data, 0), "w": be32(data, 4), "h": be32(data, 8), "x": be32(data, 12),
                          "y": be32(data, 16), "delayNum": dn, "delayDen": dd, "dispose": data[24],
                          "blend": data[25], "beforeIDAT": not seen_idat})
        elif typ == b"IDAT":
            if not seen_idat and fctls:
                default_is_frame = True
            seen_idat = True
    if actl is None:
        return {"format": "png", "width": width, "height": height, "frameCount": 1, "animated": False,
                "loopCount": None, "playCount": None, "delaysMs": [], "rects": [[0, 0, width, height]],
                "detail": {"acTL": None, "acTLAfterIDAT": actl_after_idat, "fcTL": len(fctls)}}
    delays = [d["delayNum"] * 1000.0 / (d["delayDen"] or 100) for d in fctls]
    return {"format": "png", "width": width, "height": height, "frameCount": len(fctls),
            "animated": len(fctls) > 1, "loopCount": actl["numPlays"], "playCount": actl["numPlays"],
            "delaysMs": delays, "rects": [[d["x"], d["y"], d["w"], d["h"]] for d in fctls],
            "detail": {"acTL": actl, "defaultImageIsFrame": default_is_frame, "fcTL": fctls,
                       "numFramesMatches": actl["numFrames"] == len(fctls)}}


def parse_webp(b):
    if b[:4] != b"RIFF" or b[8:12] != b"WEBP":
        raise ValueError("not a WebP")
    p = 12
    flags = None
    canvas = None
    anim = None
    frames = []
    first = None
    simple = None
    while p + 8 <= len(b):
        typ = b[p:p + 4]
        n = struct.unpack("<I", b[p + 4:p + 8])[0]
        d = b[p + 8:p + 8 + n]
        if first is None:
            first = typ.decode("latin-1")
        if typ == b"VP8X":
            flags = d[0]
            canvas = (u24le(d, 4) + 1, u24le(d, 7) + 1)
        elif typ == b"ANIM":
            anim = {"background": struct.unpack("<I", d[0:4])[0], "loop": u16le(d, 4)}
        elif typ == b"ANMF":
            frames.append({"x": 2 * u24le(d, 0), "y": 2 * u24le(d, 3), "w": u24le(d, 6) + 1,
                           "h": u24le(d, 9) + 1, "duration": u24le(d, 12), "flags": d[15]})
        elif typ == b"VP8 " and simple is None and len(d) >= 10:
            simple = (u16le(d, 6) & 0x3FFF, u16le(d, 8) & 0x3FFF)
        elif typ == b"VP8L" and simple is None and len(d) >= 5:
            bits = struct.unpack("<I", d[1:5])[0]
            simple = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        p += 8 + n + (n & 1)
    w, h = canvas if canvas else (simple or (None, None))
    animated_flag = bool(flags is not None and flags & 0x02)
    if animated_flag and len(frames) != 1:
        delays = [float(f["duration"]) for f in frames]
        loop = anim["loop"] if anim else None
        return {"format": "webp", "width": w, "height": h, "frameCount": len(frames), "animated": True,
                "loopCount": loop, "playCount": loop, "delaysMs": delays,
                "rects": [[f["x"], f["y"], f["w"], f["h"]] for f in frames],
                "detail": {"firstChunk": first, "vp8xFlags": flags, "anim": anim, "frames": frames}}
    return {"format": "webp", "width": w, "height": h, "frameCount": 1, "animated": False, "loopCount": None,
            "playCount": None, "delaysMs": [], "rects": [[0, 0, w, h]],
            "detail": {"firstChunk": first, "vp8xFlags": flags}}


CONTAINER_BOXES = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"dinf", b"iprp", b"ipco", b"tref"}
INDEFINITE32 = 0xFFFFFFFF
INDEFINITE64 = 0xFFFFFFFFFFFFFFFF


def iter_boxes(b, start, end):
    p = start
    while p + 8 <= end:
        size = be32(b, p)
        typ = b[p + 4:p + 8]
        hdr = 8
        if size == 1:
            size = be64(b, p + 8)
            hdr = 16
        elif size == 0:
            size = end - p
        if size < hdr or p + size > end:
            yield typ, p + hdr, end, True
            return
        yield typ, p + hdr, p + size, False
        p += size


def parse_track(b, s, e):
    t = {"id": None, "tkhdDuration": None, "width": None, "height": None, "edts": False, "elst": None,
         "handler": None, "timescale": None, "mdhdDuration": None, "format": None, "stts": [],
         "stszCount": None, "stcoCount": None, "auxlFor": None}

    def walk(s, e):
        for typ, a, z, _ in iter_boxes(b, s, e):
            if typ == b"tkhd":
                v = b[a]
                if v == 1:
                    t["id"] = be32(b, a + 20)
                    t["tkhdDuration"] = be64(b, a + 28)
                    o = a + 36
                else:
                    t["id"] = be32(b, a + 12)
                    d = be32(b, a + 20)
                    t["tkhdDuration"] = INDEFINITE64 if d == INDEFINITE32 else d
                    o = a + 24
                o += 52
                t["width"], t["height"] = be32(b, o) >> 16, be32(b, o + 4) >> 16
            elif typ == b"edts":
                t["edts"] = True
                walk(a, z)
            elif typ == b"elst":
                v, flags = b[a], be32(b, a) & 0xFFFFFF
                count = be32(b, a + 4)
                seg = None
                if count >= 1:
                    seg = be64(b, a + 8) if v == 1 else be32(b, a + 8)
                t["elst"] = {"version": v, "flags": flags, "entries": count, "segmentDuration": seg}
            elif typ == b"mdhd":
                v = b[a]
                if v == 1:
                    t["timescale"], t["mdhdDuration"] = be32(b, a + 20), be64(b, a + 24)
                else:
                    t["timescale"], t["mdhdDuration"] = be32(b, a + 12), be32(b, a + 16)
            elif typ == b"hdlr":
                t["handler"] = b[a + 8:a + 12].decode("latin-1")
            elif typ == b"stsd":
                if be32(b, a + 4) >= 1:
                    t["format"] = b[a + 12:a + 16].decode("latin-1")
            elif typ == b"stts":
                n = be32(b, a + 4)
                t["stts"] = [(be32(b, a + 8 + 8 * i), be32(b, a + 12 + 8 * i)) for i in range(n)]
            elif typ == b"stsz":
                t["stszCount"] = be32(b, a + 8)
            elif typ in (b"stco", b"co64"):
                t["stcoCount"] = be32(b, a + 4)
            elif typ == b"auxl":
                t["auxlFor"] = be32(b, a)
            elif typ in CONTAINER_BOXES:
                walk(a, z)
    walk(s, e)
    return t


def parse_meta_primary_size(b, s, e):
    """Width/height of the primary item from ispe (ignores irot; good enough for our stills)."""
    a0 = s + 4
    pitm = None
    ispe = []
    assoc = {}
    for typ, a, z, _ in iter_boxes(b, a0, e):
        if typ == b"pitm":
            pitm = struct.unpack(">H", b[a + 4:a + 6])[0] if b[a] == 0 else be32(b, a + 4)
        elif typ == b"iprp":
            for t2, a2, z2, _ in iter_boxes(b, a, z):
                if t2 == b"ipco":
                    for t3, a3, z3, _ in iter_boxes(b, a2, z2):
                        ispe.append((be32(b, a3 + 4), be32(b, a3 + 8)) if t3 == b"ispe" else None)
                elif t2 == b"ipma":
                    v, flags = b[a2], be32(b, a2) & 0xFFFFFF
                    n = be32(b, a2 + 4)
                    p = a2 + 8
                    for _ in range(n):
                        if v < 1:
                            item = struct.unpack(">H", b[p:p + 2])[0]
                            p += 2
                        else:
                            item = be32(b, p)
                            p += 4
                        cnt = b[p]
                        p += 1
                        props = []
                        for _ in range(cnt):
                            if flags & 1:
                                props.append(struct.unpack(">H", b[p:p + 2])[0] & 0x7FFF)
                                p += 2
                            else:
                                props.append(b[p] & 0x7F)
                                p += 1
                        assoc[item] = props
    for idx in assoc.get(pitm, []):
        if 1 <= idx <= len(ispe) and ispe[idx - 1]:
            return ispe[idx - 1]
    return None


def parse_isobmff(b):
    major = None
    compat = []
    tracks = []
    still = None
    mvhd_timescale = None
    for typ, a, z, _ in iter_boxes(b, 0, len(b)):
        if typ == b"ftyp":
            major = b[a:a + 4].decode("latin-1")
            compat = [b[i:i + 4].decode("latin-1") for i in range(a + 8, z - 3, 4)]
        elif typ == b"meta":
            try:
                still = parse_meta_primary_size(b, a, z)
            except Exception:  # noqa: BLE001
                still = None
        elif typ == b"moov":
            for t2, a2, z2, _ in iter_boxes(b, a, z):
                if t2 == b"trak":
                    tracks.append(parse_track(b, a2, z2))
                elif t2 == b"mvhd":
                    mvhd_timescale = be32(b, a2 + (20 if b[a2] == 1 else 12))
    fmt = "avif" if major in ("avif", "avis") or ("avif" in compat and major not in ("heic", "heix", "mif1", "msf1", "hevc")) else "heif"
    if any(t["format"] == "av01" for t in tracks) and major not in ("heic", "heix", "hevc"):
        fmt = "avif"
    # libavif's colour-track choice (read.c, avifDecoderReset): first track with a sample table, a track id,
    # at least one chunk, a known codec, and no 'auxl' reference; the handler type is not checked.
    color = None
    for t in tracks:
        if t["id"] and t["stcoCount"] and t["format"] in ("av01", "hvc1", "hev1", "avc1", "avc3") and not t["auxlFor"]:
            color = t
            break
    detail = {"majorBrand": major, "compatible": compat, "tracks": tracks, "mvhdTimescale": mvhd_timescale,
              "primaryItemSize": still}
    if color is None:
        w, h = still if still else (None, None)
        return {"format": fmt, "width": w, "height": h, "frameCount": 1, "animated": False, "loopCount": None,
                "playCount": None, "delaysMs": [], "rects": [[0, 0, w, h]], "detail": detail}
    ts = color["timescale"] or 1
    delays = []
    for count, delta in color["stts"]:
        delays += [delta * 1000.0 / ts] * count
    n = color["stszCount"] if color["stszCount"] is not None else len(delays)
    # libavif repetitionCount (read.c, avifParseTrackBox)
    if not color["edts"]:
        rep = None  # AVIF_REPETITION_COUNT_UNKNOWN
    elif color["elst"] and color["elst"]["flags"] & 1:
        seg = color["elst"]["segmentDuration"] or 0
        if color["tkhdDuration"] == INDEFINITE64:
            rep = -1
        elif seg:
            rep = math.ceil(color["tkhdDuration"] / seg) - 1
        else:
            rep = "invalid"
    else:
        rep = 0
    detail["colorTrackId"] = color["id"]
    detail["libavifRepetitionCount"] = rep
    detail["mdhdDurationMs"] = r3(color["mdhdDuration"] * 1000.0 / ts) if color["mdhdDuration"] is not None else None
    detail["sttsSampleCount"] = len(delays)
    plays = None if rep is None or rep == "invalid" else (0 if rep == -1 else rep + 1)
    w, h = color["width"], color["height"]
    return {"format": fmt, "width": w, "height": h, "frameCount": n, "animated": n > 1, "loopCount": plays,
            "playCount": plays, "delaysMs": delays[:n], "rects": [[0, 0, w, h]] * n, "detail": detail}


def parse_container(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:6] in (b"GIF87a", b"GIF89a"):
        return parse_gif(b)
    if b[:8] == b"\x89PNG\r\n\x1a\n":
        return parse_png(b)
    if b[:4] == b"RIFF" and b[8:12] == b"WEBP":
        return parse_webp(b)
    if b[4:8] == b"ftyp":
        return parse_isobmff(b)
    if b[:2] == b"\xff\x0a" or b[:12] == b"\x00\x00\x00\x0cJXL \r\n\x87\n":
        return None  # JPEG XL: taken from jxlinfo
    return None


# ----------------------------------------------------------------------------------------------
# oracles: run each tool and parse what it prints


def excerpt(text, n=1500):
    return text if len(text) <= n else text[:n] + "...[cut]"


def oracle_identify(path):
    conv = tool("convert")
    ident = "/usr/bin/identify" if os.path.exists("/usr/bin/identify") else tool("identify")
    if not conv or not ident:
        return None
    rc, out, err = run([ident, "-format", "%m %w %h %W %H %X %Y %T\n", path], timeout=60)
    res = {"rc": rc, "raw": excerpt(out + err, 600)}
    frames = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 8:
            try:
                frames.append({"m": parts[0], "w": int(parts[1]), "h": int(parts[2]), "W": int(parts[3]),
                               "H": int(parts[4]), "x": int(parts[5]), "y": int(parts[6]), "ticks": int(parts[7])})
            except ValueError:
                pass
    if frames:
        res["format"] = frames[0]["m"]
        res["frames"] = len(frames)
        res["width"], res["height"] = frames[0]["W"], frames[0]["H"]
        res["delaysMs"] = [10.0 * f["ticks"] for f in frames]  # %T is in ticks of 1/100 s by default
    rc2, out2, _ = run([ident, "-verbose", path + "[0]"], timeout=60)
    m = re.search(r"^\s*Iterations:\s*(\d+)", out2, re.M)
    res["iterations"] = int(m.group(1)) if m else None  # ImageMagick's plays (GIF: NETSCAPE value + 1)
    return res


def oracle_exiftool(path):
    if not tool("exiftool"):
        return None
    tags = ["-FrameCount", "-Duration", "-AnimationIterations", "-AnimationFrames", "-AnimationPlays",
            "-ImageWidth", "-ImageHeight", "-FileType", "-MajorBrand"]
    rc, out, err = run([tool("exiftool"), "-j", "-n"] + tags + [path], timeout=60)
    res = {"rc": rc}
    try:
        d = json.loads(out)[0]
        d.pop("SourceFile", None)
        res.update(d)
    except Exception:  # noqa: BLE001
        res["raw"] = excerpt(out + err, 400)
    return res


def oracle_gifsicle(path):
    if not tool("gifsicle"):
        return None
    rc, out, err = run([tool("gifsicle"), "--info", path], timeout=60)
    res = {"rc": rc, "raw": excerpt(out + err, 800)}
    m = re.search(r"(\d+) images?", out)
    res["frames"] = int(m.group(1)) if m else None
    if "loop forever" in out:
        res["loop"] = 0
    else:
        m = re.search(r"loop count (\d+)", out)
        res["loop"] = int(m.group(1)) if m else None
    delays = []
    for block in re.split(r"\n\s*\+ image #", out)[1:]:
        m = re.search(r"delay ([\d.]+)s", block)
        delays.append(round(float(m.group(1)) * 1000, 3) if m else 0.0)
    res["delaysMs"] = delays
    m = re.search(r"logical screen (\d+)x(\d+)", out)
    if m:
        res["width"], res["height"] = int(m.group(1)), int(m.group(2))
    return res


def oracle_webpmux(path):
    if not tool("webpmux"):
        return None
    rc, out, err = run([tool("webpmux"), "-info", path], timeout=60)
    res = {"rc": rc, "raw": excerpt(out + err, 800)}
    m = re.search(r"Canvas size: (\d+) x (\d+)", out)
    if m:
        res["width"], res["height"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"Loop Count : (\d+)", out)
    res["loop"] = int(m.group(1)) if m else None
    m = re.search(r"Number of frames: (\d+)", out)
    res["frames"] = int(m.group(1)) if m else (1 if rc == 0 else None)
    durs, rects = [], []
    for line in out.splitlines():
        mm = re.match(r"\s*\d+:\s+(\d+)\s+(\d+)\s+(yes|no)\s+(\d+)\s+(\d+)\s+(\d+)\s", line)
        if mm:
            w, h, _, x, y, d = mm.groups()
            durs.append(float(d))
            rects.append([int(x), int(y), int(w), int(h)])
    if durs:
        res["delaysMs"] = durs
        res["rects"] = rects
    res["animated"] = "animation" in out.split("Features present:")[-1].splitlines()[0] if "Features present:" in out else False
    return res


def oracle_avifdec(path):
    if not tool("avifdec"):
        return None
    rc, out, err = run([tool("avifdec"), "--info", path], timeout=300)
    res = {"rc": rc, "raw": excerpt(out + err, 1200)}
    m = re.search(r"Resolution\s*:\s*(\d+)x(\d+)", out)
    if m:
        res["width"], res["height"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"\* (\d+) timescales per second, ([\d.]+) seconds \((\d+) timescales\), (\d+) frames?", out)
    if m:
        res["timescale"] = int(m.group(1))
        res["durationTimescales"] = int(m.group(3))
        res["frames"] = int(m.group(4))
        if res["timescale"]:
            res["durationMs"] = r3(int(m.group(3)) * 1000.0 / res["timescale"])
    d = re.findall(r"\[duration [\d.]+ \((\d+) timescales\)\]", out)
    if d and res.get("timescale"):
        res["delaysMs"] = [r3(int(x) * 1000.0 / res["timescale"]) for x in d]
    m = re.search(r"Repeat Count\s*:\s*(\S+)", out)  # libavif >= 1.0 only
    res["repeatCount"] = m.group(1) if m else None
    return res


def oracle_jxlinfo(path):
    if not tool("jxlinfo"):
        return None
    rc, out, err = run([tool("jxlinfo"), "-v", path], timeout=120)
    res = {"rc": rc, "raw": excerpt(out + err, 1500)}
    m = re.search(r"JPEG XL (animation|image), (\d+)x(\d+)", out)
    if m:
        res["animationHeader"] = m.group(1) == "animation"
        res["width"], res["height"] = int(m.group(2)), int(m.group(3))
    m = re.search(r"num_loops:\s*(\d+)", out, re.I) or re.search(r"Num loops:\s*(\d+)", out)
    res["numLoops"] = int(m.group(1)) if m else None
    m = re.search(r"ticks per second \(numerator / denominator\): (\d+) / (\d+)", out, re.I)
    if m:
        res["tps"] = [int(m.group(1)), int(m.group(2))]
    entries = []
    for line in out.splitlines():
        mm = re.match(r"\s*(frame|layer):\s*(.*)", line, re.I)
        if mm:
            dm = re.search(r"duration: ([\d.]+) ms", mm.group(2))
            entries.append({"kind": mm.group(1).lower(), "ms": float(dm.group(1)) if dm else None,
                            "crop": "position" in mm.group(2)})
    res["entries"] = entries
    m = re.search(r"Intrinsic dimensions: (\d+)x(\d+)", out)
    if m:
        res["intrinsic"] = [int(m.group(1)), int(m.group(2))]
    return res


def jxl_from_jxlinfo(o):
    """Expected values for a JXL file from jxlinfo: displayed frames are those with a duration, and the last
    one (libjxl decode.h, JXL_DEC_FRAME); zero-duration frames before it are layers blended into the next."""
    if not o or "width" not in o:
        return None
    ents = o.get("entries") or []
    anim = bool(o.get("animationHeader"))
    if not anim:
        return {"format": "jxl", "width": o["width"], "height": o["height"], "frameCount": 1, "animated": False,
                "loopCount": None, "playCount": None, "delaysMs": [], "rects": [[0, 0, o["width"], o["height"]]],
                "detail": {"jxlinfoEntries": len(ents)}}
    shown = [e for i, e in enumerate(ents) if (e["ms"] or 0) > 0 or i == len(ents) - 1]
    delays = [e["ms"] or 0.0 for e in shown]
    nl = o.get("numLoops")
    return {"format": "jxl", "width": o["width"], "height": o["height"], "frameCount": len(shown),
            "animated": len(shown) > 1, "loopCount": nl, "playCount": nl, "delaysMs": delays,
            "rects": [[0, 0, o["width"], o["height"]]] * len(shown),
            "detail": {"jxlinfoEntries": len(ents), "layers": sum(1 for e in ents if e["kind"] == "layer"),
                       "tps": o.get("tps")}}


# ----------------------------------------------------------------------------------------------
# frame synthesis (Pillow)

try:
    from PIL import Image, ImageDraw
    HAVE_PIL = True
except Exception:  # noqa: BLE001
    HAVE_PIL = False

PALETTE = [(230, 40, 40), (40, 200, 60), (40, 80, 230), (240, 220, 40), (200, 60, 200), (40, 210, 210),
           (250, 140, 20), (120, 120, 120)]


def make_frames(n, w, h, mode="RGB", local=False):
    """n distinct frames. local=True keeps a fixed background and moves a small square, so encoders that
    crop to the changed area (Pillow GIF/APNG, libwebp's anim encoder) write frames smaller than the canvas."""
    out = []
    for i in range(n):
        bg = (250, 250, 250) if local else PALETTE[i % len(PALETTE)]
        if mode == "RGBA":
            im = Image.new("RGBA", (w, h), bg + (255,))
        else:
            im = Image.new("RGB", (w, h), bg)
        d = ImageDraw.Draw(im)
        s = max(4, min(w, h) // 4)
        x = (i * max(1, (w - s) // max(1, n))) % max(1, w - s)
        y = (i * max(1, (h - s) // max(1, n))) % max(1, h - s)
        colour = PALETTE[(i + 3) % len(PALETTE)]
        d.rectangle([x, y, x + s - 1, y + s - 1], fill=colour + ((255,) if mode == "RGBA" else ()))
        if mode == "RGBA":
            d.rectangle([0, 0, w // 5, h // 5], fill=(0, 0, 0, 0))
        out.append(im)
    return out


def save_pngs(frames, stem):
    paths = []
    for i, im in enumerate(frames):
        p = "%s_%02d.png" % (stem, i)
        im.save(p)
        paths.append(p)
    return paths


# ----------------------------------------------------------------------------------------------
# byte-level rewrites of encoder output (each labelled in the manifest's encoder field)


def png_chunk(typ, data):
    return struct.pack(">I", len(data)) + typ + data + struct.pack(">I", zlib.crc32(typ + data) & 0xFFFFFFFF)


def rewrite_apng_delays(src, dst, delays):
    """Sets each fcTL's (delay_num, delay_den) to the given pairs, recomputing CRCs."""
    with open(src, "rb") as f:
        b = f.read()
    out = bytearray(b[:8])
    k = 0
    for typ, p, data in png_chunks(b):
        if typ == b"fcTL" and k < len(delays):
            data = bytearray(data)
            data[20:24] = struct.pack(">HH", *delays[k])
            k += 1
            out += png_chunk(typ, bytes(data))
        else:
            out += b[p:p + 12 + len(data)]
    with open(dst, "wb") as f:
        f.write(out)


def gif_blocks(b):
    """Splits a GIF into (kind, bytes) blocks: header (incl. global colour table), ext, image, trailer."""
    flags = b[10]
    p = 13 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
    blocks = [("header", b[:p])]
    while p < len(b):
        t = b[p]
        start = p
        if t == 0x3B:
            blocks.append(("trailer", b[p:p + 1]))
            break
        if t == 0x21:
            label = b[p + 1]
            p += 2
            while b[p]:
                p += 1 + b[p]
            p += 1
            kind = {0xF9: "gce", 0xFF: "app", 0xFE: "comment"}.get(label, "ext")
            blocks.append((kind, b[start:p]))
            continue
        if t == 0x2C:
            f = b[p + 9]
            p += 10 + (3 * (2 << (f & 7)) if f & 0x80 else 0) + 1
            while b[p]:
                p += 1 + b[p]
            p += 1
            blocks.append(("image", b[start:p]))
            continue
        raise ValueError("unexpected byte %d at %d" % (t, p))
    return blocks


def write_blocks(dst, blocks):
    with open(dst, "wb") as f:
        f.write(b"".join(x for _, x in blocks))


def netscape_block(loop):
    return b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"


def patch_isobmff_loop(src, dst, mode, plays=None):
    """Edits an AVIF sequence written by libavif >= 1.0 (edts/elst with flags 1, tkhd duration indefinite):
    mode 'finite': tkhd and mvhd durations = plays x segment_duration (what libavif writes for
    repetitionCount = plays - 1); 'once': elst flags 0; 'noedts': the edts box renamed 'free'."""
    with open(src, "rb") as f:
        b = bytearray(f.read())

    def find(typ, s, e, path=()):
        for t, a, z, _ in iter_boxes(bytes(b), s, e):
            if t == typ:
                yield a, z
            if t in CONTAINER_BOXES:
                yield from find(typ, a, z)
    moov = next(find(b"moov", 0, len(b)))
    seg = None
    for a, z in find(b"elst", moov[0], moov[1]):
        v = b[a]
        seg = be64(b, a + 8) if v == 1 else be32(b, a + 8)
        if mode == "once":
            b[a + 1:a + 4] = b"\x00\x00\x00"
    if mode == "noedts":
        for a, z in find(b"edts", moov[0], moov[1]):
            b[a - 4:a] = b"free"
    if mode == "finite":
        total = seg * plays
        for a, z in list(find(b"tkhd", moov[0], moov[1])):
            if b[a] == 1:
                b[a + 28:a + 36] = struct.pack(">Q", total)
            else:
                b[a + 20:a + 24] = struct.pack(">I", total)
        for a, z in find(b"mvhd", moov[0], moov[1]):
            if b[a] == 1:
                b[a + 24:a + 32] = struct.pack(">Q", total)
            else:
                b[a + 16:a + 20] = struct.pack(">I", total)
    with open(dst, "wb") as f:
        f.write(b)


# ----------------------------------------------------------------------------------------------
# HEIF image sequence: HEVC samples from heif-enc stills, put in a 'pict' track by this script


def _box(typ, payload):
    return struct.pack(">I", 8 + len(payload)) + typ + payload


def _fullbox(typ, v, flags, payload):
    return _box(typ, struct.pack(">I", (v << 24) | flags) + payload)


def heic_item_data(path):
    """(hvcC payload, width, height, coded bytes) of the primary item of a single-image HEIC from heif-enc."""
    with open(path, "rb") as f:
        b = f.read()
    meta = None
    for t, a, z, _ in iter_boxes(b, 0, len(b)):
        if t == b"meta":
            meta = (a + 4, z)
    hvcc = None
    size = None
    loc = None
    pitm = None
    for t, a, z, _ in iter_boxes(b, *meta):
        if t == b"pitm":
            pitm = struct.unpack(">H", b[a + 4:a + 6])[0]
        elif t == b"iprp":
            for t2, a2, z2, _ in iter_boxes(b, a, z):
                if t2 == b"ipco":
                    for t3, a3, z3, _ in iter_boxes(b, a2, z2):
                        if t3 == b"hvcC" and hvcc is None:
                            hvcc = b[a3:z3]
                        elif t3 == b"ispe" and size is None:
                            size = (be32(b, a3 + 4), be32(b, a3 + 8))
        elif t == b"iloc":
            v = b[a]
            sizes = b[a + 4]
            off_size, len_size, base_size = sizes >> 4, sizes & 15, b[a + 5] >> 4
            idx_size = (b[a + 5] & 15) if v in (1, 2) else 0
            p = a + 6
            if v < 2:
                n = struct.unpack(">H", b[p:p + 2])[0]
                p += 2
            else:
                n = be32(b, p)
                p += 4

            def rd(k):
                nonlocal p
                val = int.from_bytes(b[p:p + k], "big") if k else 0
                p += k
                return val
            for _ in range(n):
                item = rd(2) if v < 2 else rd(4)
                if v in (1, 2):
                    rd(2)
                rd(2)
                base = rd(base_size)
                ext = rd(2)
                exts = []
                for _ in range(ext):
                    if idx_size:
                        rd(idx_size)
                    exts.append((base + rd(off_size), rd(len_size)))
                if item == pitm or loc is None:
                    loc = (item, exts)
    data = b"".join(b[o:o + ln] for o, ln in loc[1])
    return hvcc, size[0], size[1], data


def mux_heif_sequence(stills, dst, delta_ts, timescale, loop_plays=None):
    """Writes an HEIF image sequence ('msf1', handler 'pict', hvc1 samples) from heif-enc stills.
    loop_plays None: no edts; 0: elst flags 1 with indefinite track duration; N: finite N plays."""
    items = [heic_item_data(p) for p in stills]
    hvcc, w, h, _ = items[0]
    samples = [it[3] for it in items]
    ftyp = _box(b"ftyp", b"msf1" + struct.pack(">I", 0) + b"msf1hevciso8")
    seg = sum(delta_ts)
    if loop_plays is None or loop_plays == 0:
        tk_dur = seg if loop_plays is None else INDEFINITE32
    else:
        tk_dur = seg * loop_plays
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    mvhd = _fullbox(b"mvhd", 0, 0, struct.pack(">IIII", 0, 0, timescale, tk_dur) + struct.pack(">IH", 0x10000, 0x100)
                    + b"\x00" * 10 + matrix + b"\x00" * 24 + struct.pack(">I", 2))
    tkhd = _fullbox(b"tkhd", 0, 3, struct.pack(">IIIII", 0, 0, 1, 0, tk_dur) + b"\x00" * 8
                    + struct.pack(">hhhH", 0, 0, 0, 0) + matrix + struct.pack(">II", w << 16, h << 16))
    edts = b""
    if loop_plays is not None:
        edts = _box(b"edts", _fullbox(b"elst", 0, 1 if loop_plays != 1 else 0,
                                      struct.pack(">IIiHH", 1, seg, 0, 1, 0)))
    mdhd = _fullbox(b"mdhd", 0, 0, struct.pack(">IIII", 0, 0, timescale, seg) + struct.pack(">HH", 0x55C4, 0))
    hdlr = _fullbox(b"hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + b"\x00" * 12 + b"\x00")
    vmhd = _fullbox(b"vmhd", 0, 1, b"\x00" * 8)
    dinf = _box(b"dinf", _fullbox(b"dref", 0, 0, struct.pack(">I", 1) + _fullbox(b"url ", 0, 1, b"")))
    hvc1 = _box(b"hvc1", b"\x00" * 6 + struct.pack(">H", 1) + b"\x00" * 16 + struct.pack(">HH", w, h)
                + struct.pack(">II", 0x480000, 0x480000) + struct.pack(">I", 0) + struct.pack(">H", 1)
                + b"\x00" * 32 + struct.pack(">Hh", 0x18, -1) + _box(b"hvcC", hvcc))
    stsd = _fullbox(b"stsd", 0, 0, struct.pack(">I", 1) + hvc1)
    runs = []
    for d in delta_ts:
        if runs and runs[-1][1] == d:
            runs[-1][0] += 1
        else:
            runs.append([1, d])
    stts = _fullbox(b"stts", 0, 0, struct.pack(">I", len(runs)) + b"".join(struct.pack(">II", c, d) for c, d in runs))
    stsc = _fullbox(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, len(samples), 1))
    stsz = _fullbox(b"stsz", 0, 0, struct.pack(">II", 0, len(samples)) + b"".join(struct.pack(">I", len(s)) for s in samples))
    stss = _fullbox(b"stss", 0, 0, struct.pack(">I", len(samples)) + b"".join(struct.pack(">I", i + 1) for i in range(len(samples))))

    def build(chunk_offset):
        stco = _fullbox(b"stco", 0, 0, struct.pack(">II", 1, chunk_offset))
        stbl = _box(b"stbl", stsd + stts + stsc + stsz + stco + stss)
        minf = _box(b"minf", vmhd + dinf + stbl)
        mdia = _box(b"mdia", mdhd + hdlr + minf)
        trak = _box(b"trak", tkhd + edts + mdia)
        return _box(b"moov", mvhd + trak)
    moov = build(0)
    offset = len(ftyp) + len(moov) + 8
    moov = build(offset)
    mdat = _box(b"mdat", b"".join(samples))
    with open(dst, "wb") as f:
        f.write(ftyp + moov + mdat)



# ----------------------------------------------------------------------------------------------
# libheif (sequence writer and reader) through ctypes

import ctypes  # noqa: E402
import glob  # noqa: E402
from ctypes import c_int, c_uint16, c_uint32, c_uint64, c_void_p, c_char_p, POINTER, byref, Structure  # noqa: E402
class HeifError(Structure):
    _fields_ = [("code", c_int), ("subcode", c_int), ("message", c_char_p)]
def libheif_load():
    cands = []
    try:
        import pillow_heif
        d = os.path.dirname(pillow_heif.__file__)
        cands += sorted(glob.glob(os.path.join(d, "..", "pillow_heif.libs", "libheif*.so*")))
    except Exception: pass
    cands += ["libheif.so.1"]
    for c in cands:
        try:
            lib = ctypes.CDLL(c)
            lib.heif_track_get_number_of_repetitions
            break
        except (OSError, AttributeError):
            lib = None
    if lib is None: return None
    for name, res, args in [
        ("heif_init", HeifError, [c_void_p]),
        ("heif_context_alloc", c_void_p, []), ("heif_context_free", None, [c_void_p]),
        ("heif_context_read_from_file", HeifError, [c_void_p, c_char_p, c_void_p]),
        ("heif_context_has_sequence", c_int, [c_void_p]),
        ("heif_context_get_sequence_timescale", c_uint32, [c_void_p]),
        ("heif_context_get_sequence_duration", c_uint64, [c_void_p]),
        ("heif_context_number_of_sequence_tracks", c_int, [c_void_p]),
        ("heif_context_get_track", c_void_p, [c_void_p, c_uint32]),
        ("heif_track_get_id", c_uint32, [c_void_p]),
        ("heif_track_get_timescale", c_uint32, [c_void_p]),
        ("heif_track_get_track_handler_type", c_uint32, [c_void_p]),
        ("heif_track_get_number_of_repetitions", c_uint32, [c_void_p]),
        ("heif_track_get_image_resolution", HeifError, [c_void_p, POINTER(c_uint16), POINTER(c_uint16)]),
        ("heif_track_decode_next_image", HeifError, [c_void_p, POINTER(c_void_p), c_int, c_int, c_void_p]),
        ("heif_image_get_duration", c_uint32, [c_void_p]),
        ("heif_image_release", None, [c_void_p]), ("heif_track_release", None, [c_void_p]),
        ("heif_context_set_sequence_timescale", None, [c_void_p, c_uint32]),
        ("heif_context_set_number_of_sequence_repetitions", None, [c_void_p, c_uint32]),
        ("heif_context_add_visual_sequence_track", HeifError, [c_void_p, c_uint16, c_uint16, c_uint32, c_void_p, c_void_p, POINTER(c_void_p)]),
        ("heif_image_create", HeifError, [c_int, c_int, c_int, c_int, POINTER(c_void_p)]),
        ("heif_image_add_plane", HeifError, [c_void_p, c_int, c_int, c_int, c_int]),
        ("heif_image_get_plane", c_void_p, [c_void_p, c_int, POINTER(c_int)]),
        ("heif_image_set_duration", None, [c_void_p, c_uint32]),
        ("heif_context_get_encoder_for_format", HeifError, [c_void_p, c_int, POINTER(c_void_p)]),
        ("heif_encoder_set_lossy_quality", HeifError, [c_void_p, c_int]),
        ("heif_encoder_release", None, [c_void_p]),
        ("heif_track_encode_sequence_image", HeifError, [c_void_p, c_void_p, c_void_p, c_void_p]),
        ("heif_track_encode_end_of_sequence", HeifError, [c_void_p, c_void_p]),
        ("heif_context_write_to_file", HeifError, [c_void_p, c_char_p]),
        ("heif_track_options_alloc", c_void_p, []), ("heif_track_options_release", None, [c_void_p]),
        ("heif_track_options_set_timescale", None, [c_void_p, c_uint32]),
    ]:
        f = getattr(lib, name); f.restype = res; f.argtypes = args
    lib.heif_init(None)
    return lib


_LIBHEIF = []


def libheif():
    """libheif >= 1.20 (sequence API) through ctypes: pillow-heif's bundled copy, else the system one."""
    if not _LIBHEIF:
        try:
            _LIBHEIF.append(libheif_load())
        except Exception as e:  # noqa: BLE001
            log("libheif via ctypes unavailable: %r" % (e,))
            _LIBHEIF.append(None)
    return _LIBHEIF[0]

def libheif_encode(lib, path, frames_rgb, durations, timescale, reps):
    ctx = lib.heif_context_alloc()
    try:
        lib.heif_context_set_sequence_timescale(ctx, timescale)
        lib.heif_context_set_number_of_sequence_repetitions(ctx, reps)
        w, h = frames_rgb[0].size
        track = c_void_p()
        opts = lib.heif_track_options_alloc()
        lib.heif_track_options_set_timescale(opts, timescale)
        e = lib.heif_context_add_visual_sequence_track(ctx, w, h, 0x70696374, opts, None, byref(track))
        lib.heif_track_options_release(opts)
        if e.code: raise RuntimeError(e.message)
        enc = c_void_p()
        e = lib.heif_context_get_encoder_for_format(ctx, 1, byref(enc))
        if e.code: raise RuntimeError(e.message)
        lib.heif_encoder_set_lossy_quality(enc, 50)
        for im, d in zip(frames_rgb, durations):
            img = c_void_p()
            e = lib.heif_image_create(w, h, 1, 10, byref(img)); assert not e.code, e.message
            e = lib.heif_image_add_plane(img, 10, w, h, 8); assert not e.code, e.message
            stride = c_int()
            ptr = lib.heif_image_get_plane(img, 10, byref(stride))
            raw = im.convert("RGB").tobytes()
            for y in range(h):
                ctypes.memmove(ptr + y * stride.value, raw[y*w*3:(y+1)*w*3], w*3)
            lib.heif_image_set_duration(img, d)
            e = lib.heif_track_encode_sequence_image(track, img, enc, None)
            lib.heif_image_release(img)
            if e.code: raise RuntimeError(e.message)
        e = lib.heif_track_encode_end_of_sequence(track, enc)
        if e.code: raise RuntimeError(e.message)
        e = lib.heif_context_write_to_file(ctx, path.encode())
        lib.heif_encoder_release(enc)
        lib.heif_track_release(track)
        if e.code: raise RuntimeError(e.message)
    finally:
        lib.heif_context_free(ctx)

def libheif_read(lib, path, cap):
    ctx = lib.heif_context_alloc()
    res = {}
    try:
        e = lib.heif_context_read_from_file(ctx, path.encode(), None)
        if e.code: return {"error": e.message.decode()}
        res["hasSequence"] = bool(lib.heif_context_has_sequence(ctx))
        if not res["hasSequence"]: return res
        res["sequenceTimescale"] = lib.heif_context_get_sequence_timescale(ctx)
        res["sequenceDuration"] = lib.heif_context_get_sequence_duration(ctx)
        res["tracks"] = lib.heif_context_number_of_sequence_tracks(ctx)
        tr = lib.heif_context_get_track(ctx, 0)
        if not tr: return res
        res["trackId"] = lib.heif_track_get_id(tr)
        res["handler"] = lib.heif_track_get_track_handler_type(tr).to_bytes(4, "big").decode("latin-1")
        ts = lib.heif_track_get_timescale(tr); res["timescale"] = ts
        rep = lib.heif_track_get_number_of_repetitions(tr)
        res["repetitions"] = "infinite" if rep == 0xFFFFFFFF else rep
        w, h = c_uint16(), c_uint16()
        lib.heif_track_get_image_resolution(tr, byref(w), byref(h)); res["width"], res["height"] = w.value, h.value
        durs = []
        for i in range(cap):
            img = c_void_p()
            e = lib.heif_track_decode_next_image(tr, byref(img), 99, 99, None)
            if e.code:
                if i == 0:
                    res["decodeError"] = (e.message or b"").decode("utf-8", "replace")
                break
            durs.append(lib.heif_image_get_duration(img)); lib.heif_image_release(img)
        res["decodedDurations"] = durs
        lib.heif_track_release(tr)
        return res
    finally:
        lib.heif_context_free(ctx)



# ----------------------------------------------------------------------------------------------
# generation


class Gen:
    def __init__(self, outdir):
        self.out = outdir
        self.tmp = os.path.join(outdir, "_work")
        os.makedirs(self.tmp, exist_ok=True)
        self.entries = []
        self.skipped = []

    def path(self, name):
        return os.path.join(self.out, name)

    def t(self, name):
        return os.path.join(self.tmp, name)

    def add(self, name, fmt, encoder, requested=None, notes=None):
        p = self.path(name)
        if not os.path.exists(p) or os.path.getsize(p) == 0:
            self.skip(name, "encoder produced no file")
            return
        self.entries.append({"file": name, "format": fmt, "encoder": encoder, "requested": requested or {},
                             "notes": notes or []})

    def skip(self, what, why):
        self.skipped.append({"what": what, "why": why})
        log("skip %s: %s" % (what, why))

    def cmd(self, name, argv, timeout=300):
        rc, out, err = run(argv, timeout=timeout)
        if rc != 0:
            self.skip(name, "%s exited %d: %s" % (os.path.basename(argv[0]), rc, (err or out).strip()[-300:]))
            return False
        return True


def req(frames, delays, loop, w, h, **kw):
    d = {"frameCount": frames, "delaysMs": delays, "loopCount": loop, "width": w, "height": h,
         "animated": frames > 1}
    d.update(kw)
    return d


def gen_pillow(g):
    if not HAVE_PIL:
        g.skip("pillow", "Pillow is not installed (pip install pillow)")
        return
    import PIL
    enc = "pillow %s" % PIL.__version__
    W, H = 120, 80
    exact = make_frames(4, W, H)
    delays = [10, 100, 200, 0]
    cases = [
        ("p_exact_l3", exact, delays, 3, {}),
        ("p_loop0", make_frames(3, 96, 64), [50, 50, 50], 0, {}),
        ("p_loop1", make_frames(3, 96, 64), [80, 40, 120], 1, {}),
        ("p_zero_delays", make_frames(3, 64, 64), [0, 0, 0], 0, {}),
        ("p_10ms", make_frames(5, 64, 48), [10, 10, 10, 10, 10], 0, {}),
        ("p_local_rects", make_frames(6, 160, 100, local=True), [30, 60, 90, 120, 150, 180], 2, {}),
        ("p_odd", make_frames(2, 33, 17), [1000, 2500], 0, {}),
    ]
    for stem, frames, dl, loop, _ in cases:
        w, h = frames[0].size
        # GIF (Pillow writes the duration in centiseconds, truncating: int(ms / 10))
        name = stem + ".gif"
        try:
            frames[0].save(g.path(name), save_all=True, append_images=frames[1:], duration=dl, loop=loop)
            g.add(name, "gif", enc, req(len(frames), [10.0 * int(d / 10) for d in dl], loop, w, h,
                                        requestedDelaysMs=dl))
        except Exception as e:  # noqa: BLE001
            g.skip(name, repr(e))
        # APNG
        name = stem + ".apng.png"
        try:
            frames[0].save(g.path(name), save_all=True, append_images=frames[1:], duration=dl, loop=loop)
            g.add(name, "png", enc, req(len(frames), [float(d) for d in dl], loop, w, h))
        except Exception as e:  # noqa: BLE001
            g.skip(name, repr(e))
        # animated WebP, lossless and lossy
        for sfx, kw in ((".ll.webp", {"lossless": True}), (".lossy.webp", {"quality": 70})):
            name = stem + sfx
            try:
                frames[0].save(g.path(name), save_all=True, append_images=frames[1:], duration=dl, loop=loop, **kw)
                g.add(name, "webp", enc, req(len(frames), [float(d) for d in dl], loop, w, h))
            except Exception as e:  # noqa: BLE001
                g.skip(name, repr(e))

    # GIF without NETSCAPE block (Pillow writes it only when loop is given)
    fr = make_frames(3, 80, 60)
    try:
        fr[0].save(g.path("p_noloop.gif"), save_all=True, append_images=fr[1:], duration=[70, 70, 70])
        g.add("p_noloop.gif", "gif", enc, req(3, [70.0] * 3, None, 80, 60),
              ["no NETSCAPE2.0 block: browsers play once"])
    except Exception as e:  # noqa: BLE001
        g.skip("p_noloop.gif", repr(e))
    # APNG whose IDAT default image is not part of the animation
    fr = make_frames(4, 90, 60)
    try:
        fr[0].save(g.path("p_hidden_default.apng.png"), save_all=True, append_images=fr[1:],
                   duration=[100, 200, 300, 400], loop=0, default_image=True)
        g.add("p_hidden_default.apng.png", "png", enc, req(3, [100.0, 200.0, 300.0], 0, 90, 60),
              ["default_image=True: IDAT precedes the first fcTL, so it is not a frame; acTL num_frames = 3",
               "Pillow gives duration[i] to the i-th fcTL frame, so the last duration (400) is unused"])
    except Exception as e:  # noqa: BLE001
        g.skip("p_hidden_default.apng.png", repr(e))
    # APNG with delay_den 0 (means 100) and a 10.53 ms frame (1/95 s), rewritten from Pillow's output
    fr = make_frames(4, 64, 64)
    try:
        src = g.t("den.png")
        fr[0].save(src, save_all=True, append_images=fr[1:], duration=[10, 10, 10, 10], loop=2)
        rewrite_apng_delays(src, g.path("p_delay_den.apng.png"), [(5, 0), (1, 95), (0, 0), (3, 1)])
        g.add("p_delay_den.apng.png", "png", enc + " + fcTL delay rewrite",
              req(4, [50.0, 1000.0 / 95, 0.0, 3000.0], 2, 64, 64),
              ["fcTL delays (5,0)=50 ms, (1,95)=10.526 ms, (0,0)=0, (3,1)=3 s; 10.526 ms: under 11 ms -> 100 ms"
               " in WebKit/SDWebImage, kept by Chromium's <= 10 ms test"])
    except Exception as e:  # noqa: BLE001
        g.skip("p_delay_den.apng.png", repr(e))

    # stills
    st = make_frames(1, 100, 75)[0]
    sta = make_frames(1, 100, 75, mode="RGBA")[0]
    stills = [("p_still.png", "png", lambda p: st.save(p)),
              ("p_still.gif", "gif", lambda p: st.save(p)),
              ("p_still_lossy.webp", "webp", lambda p: st.save(p, quality=80)),
              ("p_still_lossless.webp", "webp", lambda p: st.save(p, lossless=True)),
              ("p_still_alpha.webp", "webp", lambda p: sta.save(p, quality=80)),
              ("p_still_1frame_anim.webp", "webp", lambda p: st.save(p, save_all=True, duration=[500], loop=0))]
    for name, fmt, fn in stills:
        try:
            fn(g.path(name))
            g.add(name, fmt, enc, {"width": 100, "height": 75, "animated": False, "frameCount": 1})
        except Exception as e:  # noqa: BLE001
            g.skip(name, repr(e))

    # AVIF through Pillow's bundled libavif (>= 1.0 writes edts/elst)
    try:
        from PIL import features
        has_avif = features.check("avif")
    except Exception:  # noqa: BLE001
        has_avif = False
    if not has_avif:
        g.skip("pillow-avif", "this Pillow has no AVIF support")
        return
    aenc = "pillow %s (libavif %s)" % (PIL.__version__, features.version("avif"))
    for stem, frames, dl in (("pa_exact", exact, delays), ("pa_var", make_frames(4, 120, 80), [40, 100, 200, 50]),
                             ("pa_alpha", make_frames(3, 64, 48, mode="RGBA"), [100, 100, 100])):
        name = stem + ".avif"
        try:
            frames[0].save(g.path(name), save_all=True, append_images=frames[1:], duration=dl, speed=10, quality=60)
            g.add(name, "avif", aenc, req(len(frames), [float(d) for d in dl], 0, frames[0].size[0], frames[0].size[1]),
                  ["libavif writes elst flags 1 and an indefinite tkhd duration: repetitionCount infinite"] +
                  (["a 0 ms request is stored as 1 timescale (libavif refuses 0)"] if 0 in dl else []))
        except Exception as e:  # noqa: BLE001
            g.skip(name, repr(e))
    src = g.path("pa_var.avif")
    if os.path.exists(src):
        for mode, plays, name, note in (("finite", 3, "pa_var_plays3.avif", "tkhd/mvhd duration = 3 x segment: repetitionCount 2"),
                                        ("once", None, "pa_var_once.avif", "elst flags 0: repetitionCount 0 (play once)"),
                                        ("noedts", None, "pa_var_noedts.avif", "edts renamed free: repetitionCount unknown")):
            try:
                patch_isobmff_loop(src, g.path(name), mode, plays)
                lc = {"finite": 3, "once": 1, "noedts": None}[mode]
                g.add(name, "avif", aenc + " + %s patch" % mode, req(4, [40.0, 100.0, 200.0, 50.0], lc, 120, 80), [note])
            except Exception as e:  # noqa: BLE001
                g.skip(name, repr(e))
    try:
        st.save(g.path("pa_still.avif"), quality=60, speed=10)
        g.add("pa_still.avif", "avif", aenc, {"width": 100, "height": 75, "animated": False, "frameCount": 1})
    except Exception as e:  # noqa: BLE001
        g.skip("pa_still.avif", repr(e))


def gen_imagemagick(g):
    conv = tool("convert")
    if not conv:
        g.skip("imagemagick", "ImageMagick's convert not found (apt-get install imagemagick)")
        return
    rc, out, _ = run([conv, "-version"])
    enc = "imagemagick " + (out.split()[2] if rc == 0 and len(out.split()) > 2 else "?")
    # frames of different rectangles via -page; ImageMagick's -loop N means N plays: it writes NETSCAPE N-1,
    # none for N = 1 and NETSCAPE 0 when -loop is not given (checked with gifsicle --info on 6.9.11).
    base = [conv, "-dispose", "none",
            "-delay", "20", "-size", "120x80", "xc:#dd2222",
            "-delay", "5", "-size", "40x30", "-page", "120x80+10+5", "xc:#2222dd",
            "-delay", "1", "-size", "60x20", "-page", "120x80+50+50", "xc:#22aa22",
            "-delay", "0", "-size", "100x70", "-page", "120x80+20+10", "xc:#dddd22"]
    for loop, name in ((None, "im_rects_default.gif"), (0, "im_rects_l0.gif"), (1, "im_rects_l1.gif"),
                       (3, "im_rects_l3.gif")):
        argv = base + (["-loop", str(loop)] if loop is not None else []) + [g.path(name)]
        if g.cmd(name, argv):
            stored = {None: 0, 0: 0, 1: None, 3: 2}[loop]
            g.add(name, "gif", enc, req(4, [200.0, 50.0, 10.0, 0.0], stored, 120, 80, imLoopArg=loop,
                                        rects=[[0, 0, 120, 80], [10, 5, 40, 30], [50, 50, 60, 20], [20, 10, 100, 70]]),
                  ["ImageMagick -loop %s" % loop])
    # delays in other tick units: -delay 1x50 = 20 ms, 3x1000 = 3 ms -> GIF centiseconds
    name = "im_ticks.gif"
    if g.cmd(name, [conv, "-delay", "1x50", "-size", "50x40", "xc:red", "-delay", "3x1000", "xc:blue",
                    "-delay", "7", "xc:green", "-loop", "0", g.path(name)]):
        g.add(name, "gif", enc, req(3, [20.0, 0.0, 70.0], 0, 50, 40, requestedDelaysMs=[20, 3, 70]),
              ["3 ms cannot be stored in centiseconds"])
    name = "im_still.gif"
    if g.cmd(name, [conv, "-size", "70x30", "gradient:red-blue", g.path(name)]):
        g.add(name, "gif", enc, {"width": 70, "height": 30, "animated": False, "frameCount": 1})


def gen_gif_rewrites(g):
    """gifsicle and block-level rewrites for GIF corner cases."""
    gs = tool("gifsicle")
    src = g.path("p_exact_l3.gif")
    if not os.path.exists(src):
        g.skip("gif rewrites", "p_exact_l3.gif missing")
        return
    if gs:
        rc, out, _ = run([gs, "--version"])
        enc = "gifsicle " + (out.split()[2] if rc == 0 else "?")
        for name, args, loop in (("gs_loop2.gif", ["--loopcount=2"], 2), ("gs_noloop.gif", ["--no-loopcount"], None),
                                 ("gs_forever.gif", ["--loopcount=forever"], 0)):
            if g.cmd(name, [gs] + args + [src, "-o", g.path(name)]):
                g.add(name, "gif", enc, req(4, [10.0, 100.0, 200.0, 0.0], loop, 120, 80))
        name = "gs_delay_comment.gif"
        if g.cmd(name, [gs, "--delay", "3", "--comment", "made by animations.py", src, "-o", g.path(name)]):
            g.add(name, "gif", enc, req(4, [30.0] * 4, 3, 120, 80))
    else:
        g.skip("gifsicle", "not installed")
    enc = "pillow + block rewrite"
    with open(src, "rb") as f:
        b = f.read()
    try:
        blocks = gif_blocks(b)
    except Exception as e:  # noqa: BLE001
        g.skip("gif rewrites", repr(e))
        return
    app = [x for x in blocks if x[0] == "app"]
    rest = [x for x in blocks if x[0] != "app"]
    # NETSCAPE block moved after the last image (just before the trailer)
    write_blocks(g.path("rw_loop_at_end.gif"), rest[:-1] + app + rest[-1:])
    g.add("rw_loop_at_end.gif", "gif", enc, req(4, [10.0, 100.0, 200.0, 0.0], 3, 120, 80),
          ["NETSCAPE2.0 after the last image: Firefox and Skia still read it; a scanner must walk to the trailer"])
    # NETSCAPE between the first and second image
    first_img = next(i for i, x in enumerate(rest) if x[0] == "image")
    write_blocks(g.path("rw_loop_mid.gif"), rest[:first_img + 1] + app + rest[first_img + 1:])
    g.add("rw_loop_mid.gif", "gif", enc, req(4, [10.0, 100.0, 200.0, 0.0], 3, 120, 80))
    # no trailer
    write_blocks(g.path("rw_no_trailer.gif"), blocks[:-1])
    g.add("rw_no_trailer.gif", "gif", enc, req(4, [10.0, 100.0, 200.0, 0.0], 3, 120, 80),
          ["no 0x3B trailer: browsers still show all 4 frames"])
    # a GCE (500 cs) and a comment after the last image
    gce = b"\x21\xf9\x04\x00\xf4\x01\x00\x00"
    comment = b"\x21\xfe\x05trail\x00"
    write_blocks(g.path("rw_gce_without_image.gif"), blocks[:-1] + [("gce", gce), ("comment", comment)] + blocks[-1:])
    g.add("rw_gce_without_image.gif", "gif", enc, req(4, [10.0, 100.0, 200.0, 0.0], 3, 120, 80),
          ["a trailing GCE with no image after it is ignored (no frame, its delay not counted)"])
    # every GCE removed: 4 frames without any delay -> 100 ms each in browsers
    write_blocks(g.path("rw_no_gce.gif"), [x for x in blocks if x[0] != "gce"])
    g.add("rw_no_gce.gif", "gif", enc, req(4, [0.0] * 4, 3, 120, 80),
          ["no Graphic Control Extension at all: still animated (several images); each delay 0 -> 100 ms"])
    # two NETSCAPE blocks: 3 first, 7 later. Decoders differ: Firefox keeps the last one read,
    # Skia's loop-count query and ImageMagick the first. ImageProbe takes the first (SPEC.md §3.3).
    write_blocks(g.path("rw_two_loops.gif"), blocks[:-1] + [("app", netscape_block(7))] + blocks[-1:])
    g.add("rw_two_loops.gif", "gif", enc, req(4, [10.0, 100.0, 200.0, 0.0], 3, 120, 80),
          ["two NETSCAPE blocks (3, then 7 after the images): the first wins (Firefox keeps 7)"])


def gen_libwebp(g):
    g2w, i2w, cw = tool("gif2webp"), tool("img2webp"), tool("cwebp")
    rc, out, _ = run([tool("cwebp") or "cwebp", "-version"])
    ver = out.strip() if rc == 0 else "?"
    if g2w:
        for srcname, stored, note in (("p_exact_l3.gif", 4, "gif2webp turns GIF loop N into WebP N+1 (same plays)"),
                                      ("p_noloop.gif", 1, "no NETSCAPE -> WebP loop 1"),
                                      ("im_rects_l0.gif", 0, "forever stays 0"),
                                      ("im_rects_l3.gif", 3, "NETSCAPE 2 -> WebP 3")):
            src = g.path(srcname)
            if not os.path.exists(src):
                continue
            name = "g2w_" + srcname.replace(".gif", ".webp")
            if g.cmd(name, [g2w, "-q", "70", src, "-o", g.path(name)]):
                c = parse_gif(open(src, "rb").read())
                g.add(name, "webp", "gif2webp " + ver,
                      req(c["frameCount"], [100.0 if d <= 10 else d for d in c["delaysMs"]], stored, c["width"], c["height"]),
                      [note, "gif2webp forces delays <= 10 ms to 100 ms (examples/gif2webp.c)"])
        src = g.path("p_exact_l3.gif")
        name = "g2w_compat_exact.webp"
        if os.path.exists(src) and g.cmd(name, [g2w, "-loop_compatibility", "-lossy", src, "-o", g.path(name)]):
            g.add(name, "webp", "gif2webp -loop_compatibility " + ver, req(4, [100.0, 100.0, 200.0, 100.0], 3, 120, 80),
                  ["-loop_compatibility keeps the GIF number (3): plays 3 in Chrome >= 63, 4 before"])
    else:
        g.skip("gif2webp", "not installed (apt-get install webp)")
    if i2w and HAVE_PIL:
        fr = make_frames(4, 72, 48)
        pngs = save_pngs(fr, g.t("i2w"))
        name = "i2w_mixed.webp"
        argv = [i2w, "-loop", "2", "-lossless", "-d", "80", pngs[0], "-d", "1", pngs[1], "-lossy", "-q", "60",
                "-d", "250", pngs[2], "-d", "5", pngs[3], "-o", g.path(name)]
        if g.cmd(name, argv):
            g.add(name, "webp", "img2webp " + ver, req(4, [80.0, 1.0, 250.0, 5.0], 2, 72, 48),
                  ["img2webp refuses -d 0; 1 ms and 5 ms frames; mixed lossless/lossy frames"])
    else:
        g.skip("img2webp", "not installed or no Pillow")
    if cw and HAVE_PIL:
        st = make_frames(1, 101, 67)[0]
        sta = make_frames(1, 101, 67, mode="RGBA")[0]
        p1, p2 = g.t("cw.png"), g.t("cwa.png")
        st.save(p1)
        sta.save(p2)
        for name, argv in (("cw_lossy.webp", [cw, "-q", "75", p1]), ("cw_lossless.webp", [cw, "-lossless", p1]),
                           ("cw_alpha_vp8x.webp", [cw, "-q", "75", p2]), ("cw_alpha_lossless.webp", [cw, "-lossless", p2])):
            if g.cmd(name, argv + ["-o", g.path(name)]):
                g.add(name, "webp", "cwebp " + ver, {"width": 101, "height": 67, "animated": False, "frameCount": 1})


def write_y4m(path, frames, fps_num, fps_den):
    """8-bit 4:2:0 y4m from RGB frames (BT.601 limited range)."""
    w, h = frames[0].size
    with open(path, "wb") as f:
        f.write(("YUV4MPEG2 W%d H%d F%d:%d Ip A1:1 C420jpeg\n" % (w, h, fps_num, fps_den)).encode())
        for im in frames:
            ycc = im.convert("YCbCr")
            yy, cb, cr = ycc.split()
            f.write(b"FRAME\n")
            f.write(yy.tobytes())
            f.write(cb.resize((w // 2, h // 2)).tobytes())
            f.write(cr.resize((w // 2, h // 2)).tobytes())


def gen_avifenc(g):
    ae = tool("avifenc")
    if not ae or not HAVE_PIL:
        g.skip("avifenc", "avifenc or Pillow missing (apt-get install libavif-bin)")
        return
    rc, out, _ = run([ae, "--version"])
    m = re.search(r"Version: (\S+)", out)
    enc = "avifenc " + (m.group(1) if m else "?")
    fr = make_frames(5, 96, 64)
    pngs = save_pngs(fr, g.t("ae"))
    name = "ae_fps10.avif"
    if g.cmd(name, [ae, "-s", "10", "--fps", "10"] + pngs + [g.path(name)]):
        g.add(name, "avif", enc, req(5, [100.0] * 5, None, 96, 64),
              ["--fps 10: timescale 10, every sample delta 1; libavif < 1.0 writes no edts (repetition unknown)"])
    name = "ae_durations.avif"
    argv = [ae, "-s", "10", "--timescale", "1000"]
    dl = [40, 100, 200, 5, 1000]
    for d, p in zip(dl, pngs):
        argv += ["--duration", str(d), p]
    if g.cmd(name, argv + [g.path(name)]):
        g.add(name, "avif", enc, req(5, [float(d) for d in dl], None, 96, 64))
    y4m = g.t("ae.y4m")
    write_y4m(y4m, make_frames(6, 64, 48), 25, 1)
    name = "ae_y4m_25fps.avif"
    if g.cmd(name, [ae, "-s", "10", y4m, g.path(name)]):
        g.add(name, "avif", enc, req(6, [40.0] * 6, None, 64, 48), ["framerate from the y4m header (25 fps)"])
    fra = make_frames(3, 80, 60, mode="RGBA")
    pa = save_pngs(fra, g.t("aea"))
    name = "ae_alpha_seq.avif"
    if g.cmd(name, [ae, "-s", "10", "--fps", "4"] + pa + [g.path(name)]):
        g.add(name, "avif", enc, req(3, [250.0] * 3, None, 80, 60),
              ["two tracks: colour, and alpha with tref auxl -> the colour track is the first non-auxl one"])
    name = "ae_still.avif"
    if g.cmd(name, [ae, "-s", "10", pngs[0], g.path(name)]):
        g.add(name, "avif", enc, {"width": 96, "height": 64, "animated": False, "frameCount": 1})
    name = "ae_still_alpha.avif"
    if g.cmd(name, [ae, "-s", "10", pa[0], g.path(name)]):
        g.add(name, "avif", enc, {"width": 80, "height": 60, "animated": False, "frameCount": 1})


def gen_heif(g):
    he = tool("heif-enc")
    if not he or not HAVE_PIL:
        g.skip("heif", "heif-enc or Pillow missing (apt-get install libheif-examples)")
        return
    enc = "heif-enc"
    st = make_frames(1, 96, 64)[0]
    p = g.t("he.png")
    st.save(p)
    name = "he_still.heic"
    if g.cmd(name, [he, "-q", "50", p, "-o", g.path(name)]):
        g.add(name, "heif", enc, {"width": 96, "height": 64, "animated": False, "frameCount": 1})
    # sequences: HEVC samples from heif-enc stills, muxed here (no HEIF sequence writer is packaged here)
    fr = make_frames(4, 96, 64)
    stills = []
    for i, im in enumerate(fr):
        pp, hp = g.t("hs%d.png" % i), g.t("hs%d.heic" % i)
        im.save(pp)
        if not g.cmd("heif sequence frame %d" % i, [he, "-q", "50", pp, "-o", hp]):
            return
        stills.append(hp)
    for name, deltas, ts, plays, note in (
            ("hs_noedts.heic", [1, 2, 3, 1], 10, None, "no edts"),
            ("hs_forever.heic", [40, 100, 200, 0], 1000, 0, "elst flags 1, tkhd duration indefinite"),
            ("hs_plays2.heic", [30, 30, 30, 30], 600, 2, "elst flags 1, tkhd duration 2 x segment")):
        try:
            mux_heif_sequence(stills, g.path(name), deltas, ts, plays)
            lc = None if plays is None else plays
            g.add(name, "heif", "heif-enc samples + animations.py muxer",
                  req(4, [d * 1000.0 / ts for d in deltas], lc, 96, 64),
                  ["ftyp msf1, one 'pict' track of hvc1 samples, no meta box: " + note])
        except Exception as e:  # noqa: BLE001
            g.skip(name, repr(e))


def gen_libheif(g):
    lib = libheif()
    if lib is None or not HAVE_PIL:
        g.skip("libheif sequences", "no libheif >= 1.20 loadable (pip install pillow-heif) or no Pillow")
        return
    try:
        import pillow_heif
        enc = "libheif %s (pillow-heif %s, ctypes)" % (pillow_heif.libheif_version(), pillow_heif.__version__)
    except Exception:  # noqa: BLE001
        enc = "libheif (ctypes)"
    fr = make_frames(4, 96, 64)
    for name, dl, ts, reps, lc in (("lh_plays3.heic", [40, 100, 200, 50], 1000, 3, 3),
                                   ("lh_forever.heic", [40, 100, 200, 50], 1000, 0, 0),
                                   ("lh_once.heic", [1, 1, 1, 1], 10, 1, None),
                                   ("lh_exact.heic", [10, 100, 200, 1], 1000, 3, 3)):
        try:
            libheif_encode(lib, g.path(name), fr, dl, ts, reps)
            g.add(name, "heif", enc, req(4, [d * 1000.0 / ts for d in dl], lc, 96, 64),
                  ["heif_context_set_number_of_sequence_repetitions(%d); libheif writes no edts for 1 play" % reps])
        except Exception as e:  # noqa: BLE001
            g.skip(name, repr(e))


def gen_cjxl(g):
    cj = tool("cjxl")
    if not cj:
        g.skip("cjxl", "not installed (apt-get install libjxl-tools)")
        return
    rc, out, err = run([cj, "--version"])
    m = re.search(r"cjxl (v[\d.]+)", out + err)
    enc = "cjxl " + (m.group(1) if m else "?")
    for srcname in ("p_exact_l3.gif", "p_loop1.gif", "im_rects_l3.gif", "p_zero_delays.gif", "p_odd.gif",
                    "p_loop0.apng.png"):
        src = g.path(srcname)
        if not os.path.exists(src):
            continue
        name = "cj_" + srcname.replace(".apng.png", "_apng").replace(".gif", "_gif") + ".jxl"
        if g.cmd(name, [cj, src, g.path(name), "-d", "0", "-e", "3"]):
            c = parse_container(src)
            g.add(name, "jxl", enc, req(c["frameCount"], c["delaysMs"], c["loopCount"], c["width"], c["height"]),
                  ["cjxl 0.7 does not carry the GIF/APNG loop count: num_loops is 0",
                   "a 0 ms frame before the last becomes a zero-duration layer blended into the next frame"])
    # a GIF with a 0 ms frame in the middle: JXL shows 3 frames, not 4
    if HAVE_PIL:
        fr = make_frames(4, 64, 48)
        src = g.t("mid0.gif")
        fr[0].save(src, save_all=True, append_images=fr[1:], duration=[100, 0, 200, 300], loop=0)
        name = "cj_mid_zero_gif.jxl"
        if g.cmd(name, [cj, src, g.path(name), "-d", "0", "-e", "3"]):
            g.add(name, "jxl", enc, req(4, [100.0, 0.0, 200.0, 300.0], 0, 64, 48),
                  ["source GIF 100/0/200/300 ms: the 0 ms frame is a layer, so 3 displayed frames"])
        st = make_frames(1, 100, 75)[0]
        p = g.t("cj.png")
        st.save(p)
        jp = g.t("cj.jpg")
        st.save(jp, quality=85)
        for name, argv in (("cj_still_lossless.jxl", [cj, p, g.path("cj_still_lossless.jxl"), "-d", "0"]),
                           ("cj_still_lossy.jxl", [cj, p, g.path("cj_still_lossy.jxl"), "-d", "1.5"]),
                           ("cj_still_container.jxl", [cj, p, g.path("cj_still_container.jxl"), "-d", "1", "--container=1"]),
                           ("cj_still_from_jpeg.jxl", [cj, jp, g.path("cj_still_from_jpeg.jxl")])):
            if g.cmd(name, argv):
                g.add(name, "jxl", enc, {"width": 100, "height": 75, "animated": False, "frameCount": 1})


# ----------------------------------------------------------------------------------------------
# expected values and disagreements


def close(a, b, tol=0.6):
    return a is not None and b is not None and abs(float(a) - float(b)) <= tol


def lists_close(a, b, tol=0.6):
    return a is not None and b is not None and len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))


def largest_rect(rects):
    best = None
    for r in rects or []:
        if None in r:
            continue
        if best is None or r[2] * r[3] > best[2] * best[3]:
            best = r
    return best


def oracles_for(path, fmt, nframes=1):
    o = {}
    if fmt in ("gif", "webp", "png"):
        o["identify"] = oracle_identify(path)
    o["exiftool"] = oracle_exiftool(path)
    if fmt == "gif":
        o["gifsicle"] = oracle_gifsicle(path)
    if fmt == "webp":
        o["webpmux"] = oracle_webpmux(path)
    if fmt == "avif":
        o["avifdec"] = oracle_avifdec(path)
    if fmt == "heif":
        o["heif-info"] = None
        if tool("heif-info"):
            rc, out, err = run([tool("heif-info"), path], timeout=60)
            o["heif-info"] = {"rc": rc, "raw": excerpt(out + err, 600)}
        o["avifdec"] = None
    if fmt == "jxl":
        o["jxlinfo"] = oracle_jxlinfo(path)
    if fmt in ("heif", "avif") and libheif() is not None:
        try:
            o["libheif"] = libheif_read(libheif(), path, max(1, min(nframes, 1000)))
        except Exception as e:  # noqa: BLE001
            o["libheif"] = {"error": repr(e)}
    return {k: v for k, v in o.items() if v is not None}


def disagreements(exp, requested, orc):
    out = []

    def flag(src, field, want, got, note=""):
        out.append("%s.%s: expected %s, got %s%s" % (src, field, json.dumps(want), json.dumps(got),
                                                      (" (" + note + ")") if note else ""))
    fmt = exp["format"]
    # requested vs what the container holds
    for f in ("width", "height", "frameCount", "animated"):
        if f in requested and requested[f] is not None and requested[f] != exp.get(f):
            flag("requested", f, requested[f], exp.get(f))
    if exp["animated"]:
        if "loopCount" in requested and requested["loopCount"] != exp.get("loopCount"):
            flag("requested", "loopCount", requested["loopCount"], exp.get("loopCount"))
        if requested.get("delaysMs") is not None and not lists_close(requested["delaysMs"], exp["delaysMs"]):
            flag("requested", "delaysMs", requested["delaysMs"], exp["delaysMs"])
        if "rects" in requested and requested["rects"] != exp.get("rects"):
            flag("requested", "rects", requested["rects"], exp.get("rects"))
    # oracles
    n = exp["frameCount"]
    idf = orc.get("identify")
    if idf and idf.get("frames") is not None and fmt in ("gif", "webp"):
        if idf["frames"] != n:
            flag("identify", "frames", n, idf["frames"])
        if exp["animated"] and not lists_close([10.0 * int(round(d / 10.0)) for d in exp["delaysMs"]], idf.get("delaysMs"), 10.1):
            flag("identify", "delaysMs", exp["delaysMs"], idf.get("delaysMs"), "%T ticks x 10")
        if (idf.get("width"), idf.get("height")) != (exp["width"], exp["height"]):
            flag("identify", "size", [exp["width"], exp["height"]], [idf.get("width"), idf.get("height")])
        if fmt == "gif" and exp["animated"]:
            im_plays = idf.get("iterations")
            want = exp["playCount"] if exp["loopCount"] is not None else None
            if im_plays != want and not (want == 1 and im_plays is None):
                flag("identify", "Iterations", want, im_plays, "ImageMagick reports plays: NETSCAPE + 1")
    if fmt == "png" and idf and idf.get("frames") not in (None, 1):
        flag("identify", "frames", 1, idf.get("frames"), "ImageMagick 6 reads only the default image")
    ex = orc.get("exiftool") or {}
    if fmt == "gif" and exp["animated"]:
        if ex.get("FrameCount") is not None and ex["FrameCount"] != n:
            flag("exiftool", "FrameCount", n, ex["FrameCount"])
        if ex.get("Duration") is not None and not close(ex["Duration"] * 1000, exp["durationMs"], 5):
            flag("exiftool", "Duration", exp["durationMs"], ex["Duration"] * 1000, "ms; sum of raw GCE delays")
        ai = ex.get("AnimationIterations")
        if ai != exp["loopCount"]:
            flag("exiftool", "AnimationIterations", exp["loopCount"], ai, "raw NETSCAPE value, 0 = forever")
    if fmt == "png" and exp["animated"]:
        if ex.get("AnimationFrames") != exp["detail"]["acTL"]["numFrames"]:
            flag("exiftool", "AnimationFrames", exp["detail"]["acTL"]["numFrames"], ex.get("AnimationFrames"))
        if ex.get("AnimationPlays") != exp["loopCount"]:
            flag("exiftool", "AnimationPlays", exp["loopCount"], ex.get("AnimationPlays"))
    if fmt == "webp" and exp["animated"] and ex.get("Duration") is not None:
        if not close(ex["Duration"] * 1000, exp["durationMs"], 5):
            flag("exiftool", "Duration", exp["durationMs"], ex["Duration"] * 1000)
    gs = orc.get("gifsicle")
    if gs and gs.get("frames") is not None:
        if gs["frames"] != n:
            flag("gifsicle", "frames", n, gs["frames"])
        if gs.get("loop") != exp["loopCount"]:
            flag("gifsicle", "loop", exp["loopCount"], gs.get("loop"))
        if exp["animated"] and not lists_close(exp["delaysMs"], gs.get("delaysMs"), 0.6):
            flag("gifsicle", "delaysMs", exp["delaysMs"], gs.get("delaysMs"))
    wm = orc.get("webpmux")
    if wm and wm.get("rc") == 0:
        if (wm.get("width"), wm.get("height")) != (exp["width"], exp["height"]) and wm.get("width") is not None:
            flag("webpmux", "size", [exp["width"], exp["height"]], [wm.get("width"), wm.get("height")])
        if exp["animated"]:
            if wm.get("frames") != n:
                flag("webpmux", "frames", n, wm.get("frames"))
            if wm.get("loop") != exp["loopCount"]:
                flag("webpmux", "loop", exp["loopCount"], wm.get("loop"))
            if not lists_close(exp["delaysMs"], wm.get("delaysMs")):
                flag("webpmux", "delaysMs", exp["delaysMs"], wm.get("delaysMs"))
            if wm.get("rects") and wm["rects"] != exp["rects"]:
                flag("webpmux", "rects", exp["rects"], wm["rects"])
    ad = orc.get("avifdec")
    if ad and ad.get("rc") == 0 and fmt == "avif":
        if (ad.get("width"), ad.get("height")) != (exp["width"], exp["height"]):
            flag("avifdec", "size", [exp["width"], exp["height"]], [ad.get("width"), ad.get("height")])
        if ad.get("frames") is not None and ad["frames"] != n:
            flag("avifdec", "frames", n, ad["frames"])
        if exp["animated"] and ad.get("delaysMs") is not None and not lists_close(exp["delaysMs"], ad["delaysMs"], 0.01):
            flag("avifdec", "delaysMs", exp["delaysMs"], ad["delaysMs"])
        if exp["animated"] and ad.get("durationMs") is not None and not close(ad["durationMs"], exp["durationMs"], 0.01):
            flag("avifdec", "durationMs", exp["durationMs"], ad["durationMs"], "mdhd duration vs sum of stts")
        if ad.get("repeatCount") is not None:
            rep = exp["detail"].get("libavifRepetitionCount")
            want = {None: "Unknown", -1: "Infinite"}.get(rep, str(rep))
            if ad["repeatCount"] != want:
                flag("avifdec", "Repeat Count", want, ad["repeatCount"])
    elif ad and ad.get("rc") not in (None, 0) and fmt == "avif":
        flag("avifdec", "rc", 0, ad.get("rc"), ad.get("raw", "")[-200:])
    lh = orc.get("libheif")
    if lh and lh.get("hasSequence") and exp["animated"]:
        reps = lh.get("repetitions")
        want = {None: 1, 0: "infinite"}.get(exp["playCount"], exp["playCount"])
        if reps != want:
            note = ""
            if exp["playCount"] is None and reps == 1:
                note = "no edts: libheif says 1 play, libavif 'unknown' (Chrome: forever)"
            elif reps == 0:
                note = "libheif 0 = an edit list it does not read as a loop count"
            flag("libheif", "repetitions", want, reps, note)
        ts = lh.get("timescale") or 0
        dd = lh.get("decodedDurations")
        if dd and ts and not lists_close([d * 1000.0 / ts for d in dd], exp["delaysMs"][:len(dd)], 0.01):
            flag("libheif", "decodedDurations", exp["delaysMs"], [r3(d * 1000.0 / ts) for d in dd])
        if dd is not None and fmt == "heif" and len(dd) != n and not lh.get("decodeError"):
            flag("libheif", "decodedFrames", n, len(dd))
        if lh.get("decodeError") and fmt == "heif":
            flag("libheif", "decode", "ok", lh["decodeError"])
    jx = orc.get("jxlinfo")
    if jx and fmt == "jxl":
        if jx.get("rc") != 0:
            flag("jxlinfo", "rc", 0, jx.get("rc"))
        elif exp["animated"] and exp["detail"].get("jxlinfoEntries", n) != n:
            flag("jxlinfo", "frames", n, exp["detail"]["jxlinfoEntries"],
                 "jxlinfo lists zero-duration layers too (coalescing off)")
    if exp["animated"] and fmt in ("avif", "heif"):
        md = exp["detail"].get("mdhdDurationMs")
        if md is not None and not close(md, exp["durationMs"], 0.01):
            flag("container", "mdhdDuration", exp["durationMs"], md, "mdhd duration differs from the sum of stts deltas")
        if exp["detail"].get("sttsSampleCount") != n:
            flag("container", "sttsSampleCount", n, exp["detail"].get("sttsSampleCount"), "stts total vs stsz count")
    if fmt == "png" and exp["animated"] and not exp["detail"].get("numFramesMatches", True):
        flag("container", "acTL.num_frames", len(exp["detail"]["fcTL"]), exp["detail"]["acTL"]["numFrames"])
    return out


def describe(g, entry):
    path = g.path(entry["file"])
    fmt = entry["format"]
    c = None
    if fmt != "jxl":
        try:
            c = parse_container(path)
        except Exception as e:  # noqa: BLE001
            entry["notes"].append("container parse failed: %r" % (e,))
    orc = oracles_for(path, fmt, c["frameCount"] if c else entry["requested"].get("frameCount", 1))
    if fmt == "jxl":
        c = jxl_from_jxlinfo(orc.get("jxlinfo"))
    if c is None:
        r = entry["requested"]
        c = {"format": fmt, "width": r.get("width"), "height": r.get("height"), "frameCount": r.get("frameCount", 1),
             "animated": r.get("animated", False), "loopCount": r.get("loopCount"), "playCount": None,
             "delaysMs": r.get("delaysMs") or [], "rects": [], "detail": {"source": "requested (no parse)"}}
    anim = c["animated"]
    c["durationMs"] = r3(sum(c["delaysMs"])) if anim else None
    rec = {
        "file": entry["file"], "format": c["format"], "width": c["width"], "height": c["height"],
        "animated": anim, "frameCount": c["frameCount"],
        "loopCount": c["loopCount"] if anim else None, "playCount": c["playCount"] if anim else None,
        "delaysMs": [r3(d) for d in c["delaysMs"]] if anim else [],
        "durationMs": c["durationMs"], "playbackDurationMs": playback_ms(c["delaysMs"]) if anim else None,
        "largestFrameRect": largest_rect(c["rects"]), "encoder": entry["encoder"], "bytes": os.path.getsize(path),
        "requested": entry["requested"], "container": c["detail"], "oracles": orc,
        "disagreements": disagreements(c, entry["requested"], orc), "notes": entry["notes"],
    }
    return rec


def generate(outdir):
    os.makedirs(outdir, exist_ok=True)
    g = Gen(outdir)
    log("tools: " + ", ".join("%s=%s" % (t, tool(t) or "missing") for t in
                               ("convert", "identify", "exiftool", "gifsicle", "gif2webp", "img2webp", "cwebp",
                                "webpmux", "avifenc", "avifdec", "cjxl", "jxlinfo", "heif-enc", "heif-info")))
    for step in (gen_pillow, gen_imagemagick, gen_gif_rewrites, gen_libwebp, gen_avifenc, gen_heif, gen_libheif,
                 gen_cjxl):
        try:
            step(g)
        except Exception as e:  # noqa: BLE001 - one generator failing must not stop the others
            g.skip(step.__name__, "crashed: %r" % (e,))
    lines = []
    for entry in g.entries:
        try:
            lines.append(describe(g, entry))
        except Exception as e:  # noqa: BLE001
            g.skip(entry["file"], "describe crashed: %r" % (e,))
    harness.write_manifest(outdir, lines)
    with open(os.path.join(outdir, "skipped.json"), "w") as f:
        json.dump(g.skipped, f, indent=1)
    shutil.rmtree(g.tmp, ignore_errors=True)
    by = {}
    for rec in lines:
        k = rec["format"] + (" anim" if rec["animated"] else " still")
        by[k] = by.get(k, 0) + 1
    dis = [r for r in lines if r["disagreements"]]
    print("wrote %d files + manifest.jsonl to %s" % (len(lines), outdir))
    print("  " + ", ".join("%s: %d" % kv for kv in sorted(by.items())))
    print("  skipped: %d (see skipped.json)" % len(g.skipped))
    print("  files with disagreements: %d" % len(dis))
    for r in dis:
        for d in r["disagreements"]:
            print("    %s: %s" % (r["file"], d))
    return 0


# ----------------------------------------------------------------------------------------------
# --check


def check(outdir, cmd, loop_semantics="raw", batch=100):
    try:
        manifest = harness.read_manifest(outdir)
    except OSError as e:
        print("cannot read %s: %s (generate first: animations.py %s)" % (harness.manifest_path(outdir), e, outdir))
        return 2
    answers = {}
    errors = []
    files = [os.path.join(outdir, m["file"]) for m in manifest]
    for chunk, rc, out, err, _, objects, unparsable in harness.probe(cmd, ["--json", "--animation"], files,
                                                                     batch=batch, timeout=600):
        for line in unparsable:
            errors.append("unparsable output line: " + line[:200])
        got = 0
        for _, obj in objects:
            p = obj.get("path")
            if p is not None:
                answers[os.path.realpath(p)] = obj
                got += 1
        if got == 0:
            errors.append("`%s` (exit %d) printed no JSON for %d files: %s" % (
                " ".join(cmd + ["--json", "--animation", "FILE..."]), rc, len(chunk),
                " | ".join((err or out).strip().splitlines()[:2])[:300]))
            if rc in (2, 127) or "unknown option" in (err + out):
                break  # usage error or no such program: every batch will fail the same way
    for e in errors:
        print("ERROR: " + e)
    if not answers:
        print("no answers at all from %s: nothing to score (%d files in the manifest)" % (" ".join(cmd), len(manifest)))
        return 2
    loop_field = "loopCount" if loop_semantics == "raw" else "playCount"
    tally = harness.Tally()
    for m in manifest:
        fmt = m["format"]
        a = answers.get(os.path.realpath(os.path.join(outdir, m["file"])))
        if a is None:
            tally.count(fmt, False, (m["file"], ["no answer"]))
            continue
        bad = []
        if "error" in a:
            bad.append("error %s: %s" % (a.get("error"), a.get("message")))
        want = {"format": m["format"], "width": m["width"], "height": m["height"], "animated": m["animated"]}
        if m["animated"]:
            want.update({"frameCount": m["frameCount"], "loopCount": m[loop_field],
                         "duration": m["durationMs"], "playbackDuration": m["playbackDurationMs"]})
        for k, v in want.items():
            g = a.get(k)
            if k in ("duration", "playbackDuration"):
                if v is not None and not close(g, v, 1.0):
                    bad.append("%s: want %s got %s" % (k, v, g))
            elif k == "loopCount" and v is None:
                if g not in (None,):
                    bad.append("loopCount: want absent/null (%s) got %s" % ("no stored count", g))
            elif g != v:
                bad.append("%s: want %s got %s" % (k, json.dumps(v), json.dumps(g)))
        if not m["animated"]:
            if a.get("frameCount") not in (None, 1):
                bad.append("frameCount: want 1 or absent got %s" % a.get("frameCount"))
            for k in ("duration", "playbackDuration"):
                if a.get(k) not in (None, 0):
                    bad.append("%s: want absent for a still, got %s" % (k, a.get(k)))
        if "delays" in a and m["animated"]:
            dl = a["delays"]
            if not lists_close(dl, m["delaysMs"][:len(dl)], 1.0):
                bad.append("delays: want %s (first) got %s" % (m["delaysMs"][:len(dl)], dl))
        tally.count(fmt, True, (m["file"], bad) if bad else None,
                    read=int(a.get("bytesRead", 0) or 0), skipped=int(a.get("bytesSkipped", 0) or 0))
    per = tally.groups
    print("%-6s %6s %9s %6s   %-22s %-22s" % ("format", "files", "answered", "right", "bytesRead med/max",
                                               "bytesSkipped med/max"))
    for fmt in sorted(per):
        s = per[fmt]
        rd = "%d/%d" % harness.median_max(s["read"]) if s["read"] else "-"
        sk = "%d/%d" % harness.median_max(s["skipped"]) if s["skipped"] else "-"
        print("%-6s %6d %9d %6d   %-22s %-22s" % (fmt, s["files"], s["answered"], s["right"], rd, sk))
    tot = sum(s["files"] for s in per.values())
    right = sum(s["right"] for s in per.values())
    print("%d of %d right (loopCount compared as %s)" % (right, tot, loop_field))
    if tally.failures:
        print("failures:")
        for f, bad in tally.failures:
            print("  %s: %s" % (f, "; ".join(bad)))
    return 0 if right == tot and not errors else 1


APT_PACKAGES = ["imagemagick", "webp", "libavif-bin", "libjxl-tools", "libimage-exiftool-perl", "gifsicle",
                "libheif-examples"]
PIP_PACKAGES = ["pillow", "pillow-heif"]


def install():
    """Installs what the generator and the oracles use: apt packages (as root), then pip packages."""
    return harness.install(APT_PACKAGES, PIP_PACKAGES)


def main(argv):
    if len(argv) < 1 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    if argv[0] == "--install":
        return install()
    outdir = argv[0]
    rest = argv[1:]
    if not rest:
        return generate(outdir)
    loop_sem = "raw"
    batch = 100
    cmd = None
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--check":
            cmd = rest[i + 1:]
            break
        if a == "--loop-semantics" and i + 1 < len(rest):
            loop_sem = rest[i + 1]
            i += 2
            continue
        if a == "--batch" and i + 1 < len(rest):
            batch = max(1, int(rest[i + 1]))
            i += 2
            continue
        print("unknown argument %r\n%s" % (a, __doc__))
        return 2
    if not cmd:
        print("--check needs a command, e.g. --check .build/release/imageprobe")
        return 2
    if loop_sem not in ("raw", "plays"):
        print("--loop-semantics is raw or plays")
        return 2
    return check(outdir, cmd, loop_sem, batch)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
