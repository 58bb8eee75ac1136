#!/usr/bin/env python3
"""Generate ground-truth sample files for 13 image formats and check a prober against them.

Usage:
    formats.py OUTDIR [--only eps,xpm,...] [--no-oracles] [--im-allow-ps]
    formats.py OUTDIR --check CMD [ARG...]

Generation writes OUTDIR/<format>/<files> and OUTDIR/manifest.jsonl, one JSON object per file:
    {"file", "format", "width", "height", "bitDepth"?, "frameCount"?/"pageCount"?, "encoder",
     "variant", "truthSource", "oracles": {tool: [w, h] | {"error": ...}}, "notes"?}

"width"/"height" are the size the format's specification gives for the file (SPEC.md, 3.27-3.39);
"oracles" are what other readers report, so disagreements between readers stay visible.

Encoders, each skipped with a message when missing (install hints in README.md beside this script):
    Debian: imagemagick, graphicsmagick, ghostscript, netpbm, astcenc, etc1tool, farbfeld,
            xpmutils (cxpm), libimage-exiftool-perl
    PyPI:   Pillow, srctools (VTF), sourcepp (VTF), etcpak (ETC/DXT payloads),
            aseprite + aseprite-reader (need Python >= 3.12: set ASEPRITE_PYTHON to such an
            interpreter that has them, default OUTDIR/../.venv312/bin/python or
            ./.venv312/bin/python beside this script)
Files whose bytes this script lays out itself from a specification are marked
encoder "spec-built" and name the section in "notes".

Debian's ImageMagick policy forbids PS/EPS and pictures wider or taller than 16K pixels. With
--im-allow-ps (root only) ImageMagick is run inside a private mount namespace (unshare -m) in
which /etc/ImageMagick-6/policy.xml is replaced by a copy without the PS/EPS/PDF lines and the
width/height/area/memory/map/disk limits; the system file is never changed.

--check runs `CMD --json FILE...` over the generated files (in batches), expects one JSON
object per line with path, format, width, height, bytesRead (or error), and prints a table per
format: files, right (format and size), bytes read median and max, then the failures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import harness  # beside this script: running tools, the manifest, running the prober

FORMATS = ["eps", "xpm", "fits", "dcx", "msp", "blp", "pvr", "pkm", "astc", "farbfeld", "vtf",
           "ilbm", "aseprite"]

HERE = Path(__file__).resolve().parent
LOG_SKIPS: list[str] = []


log = harness.log
which = harness.which


def skip(msg: str) -> None:
    LOG_SKIPS.append(msg)
    log("SKIP: " + msg)


def run(cmd, *, timeout=120, input=None, cwd=None, env=None):
    """Run a command at low priority. Returns (rc, stdout bytes, stderr text); rc -1 on failure."""
    rc, out, err, error = harness.execute(cmd, timeout=timeout, input=input, cwd=cwd, env=env, nice=True)
    if error is not None:
        return -1, b"", "timeout" if isinstance(error, subprocess.TimeoutExpired) else str(error)
    return rc, out, err


# --------------------------------------------------------------------------------------------
# Source pictures

def have_pillow() -> bool:
    try:
        import PIL  # noqa: F401
        return True
    except ImportError:
        return False


def src_image(w: int, h: int, alpha: bool = False, mode: str | None = None):
    from PIL import Image
    r = Image.linear_gradient("L").resize((w, h))
    g = Image.linear_gradient("L").rotate(90).resize((w, h))
    b = Image.radial_gradient("L").resize((w, h))
    im = Image.merge("RGB", (r, g, b))
    if alpha:
        im.putalpha(Image.linear_gradient("L").rotate(45).resize((w, h)))
    if mode:
        im = im.convert(mode)
    return im


def write_png(path: Path, w: int, h: int, alpha=False, mode=None) -> Path:
    src_image(w, h, alpha, mode).save(path)
    return path


def write_ppm(path: Path, w: int, h: int) -> Path:
    src_image(w, h).save(path, format="PPM")
    return path


# --------------------------------------------------------------------------------------------
# Records

class Gen:
    def __init__(self, out: Path, im_allow_ps: bool):
        self.out = out
        self.records: list[dict] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="encoder_check_"))
        self.im_allow_ps = im_allow_ps
        self.counts: dict[str, dict[str, int]] = {}
        self._policy = None

    def add(self, fmt, path: Path, w, h, encoder, variant, **extra):
        if not path.exists() or path.stat().st_size == 0:
            log(f"  (not written: {path.name})")
            return None
        rec = {"file": str(path.relative_to(self.out)), "format": fmt, "width": w, "height": h,
               "encoder": encoder, "variant": variant}
        for k, v in extra.items():
            if v is not None:
                rec[k] = v
        self.records.append(rec)
        self.counts.setdefault(fmt, {}).setdefault(encoder, 0)
        self.counts[fmt][encoder] += 1
        return rec

    def dir(self, fmt) -> Path:
        d = self.out / fmt
        d.mkdir(parents=True, exist_ok=True)
        return d

    # ImageMagick, with the PS policy lifted in a private mount namespace when asked to
    def im_cmd(self, args: list[str]) -> list[str]:
        if not self.im_allow_ps:
            return args
        if self._policy is None:
            src = Path("/etc/ImageMagick-6/policy.xml")
            if not src.exists() or os.geteuid() != 0 or not which("unshare"):
                self._policy = ""
            else:
                txt = src.read_text()
                txt = re.sub(r'\s*<policy domain="coder" rights="none" pattern="(PS|PS2|PS3|EPS|PDF|XPS)"\s*/>',
                             "", txt)
                txt = re.sub(r'\s*<policy domain="resource" name="(width|height|area|memory|map|disk)"[^>]*/>', "", txt)
                p = self.tmp / "policy-open.xml"
                p.write_text(txt)
                self._policy = str(p)
        if not self._policy:
            return args
        import shlex
        inner = "mount --bind {} /etc/ImageMagick-6/policy.xml && exec {}".format(
            shlex.quote(self._policy), " ".join(shlex.quote(a) for a in args))
        return ["unshare", "-m", "sh", "-c", inner]

    def im(self, *args, timeout=180):
        return run(self.im_cmd(list(args)), timeout=timeout)


SIZES_SMALL = [(1, 1), (1, 9), (9, 1), (13, 7), (64, 64), (100, 37), (257, 129)]


# --------------------------------------------------------------------------------------------
# EPS

EPS_BODY = "newpath {x0} {y0} moveto {x1} {y0} lineto {x1} {y1} lineto {x0} {y1} lineto closepath 0.2 0.4 0.8 setrgbcolor fill\n"


def eps_doc(bbox_lines: list[str], trailer_lines: list[str], draw, eol="\n", header="%!PS-Adobe-3.0 EPSF-3.0") -> bytes:
    lines = [header, "%%Creator: encoder-check formats.py (spec-built)", *bbox_lines, "%%Pages: 1", "%%EndComments",
             "%%Page: 1 1", EPS_BODY.format(**draw).rstrip("\n"), "showpage"]
    if trailer_lines:
        lines += ["%%Trailer", *trailer_lines]
    lines += ["%%EOF"]
    return (eol.join(lines) + eol).encode("latin-1")


def parse_bbox(data: bytes):
    """%%BoundingBox from the header comments, or the trailer's for (atend). DSC 3.0 sect. 5."""
    text = data.decode("latin-1")
    boxes = re.findall(r"%%BoundingBox:[ \t]*([^\r\n]*)", text)
    for v in boxes:
        parts = v.split()
        if len(parts) == 4 and v.strip() != "(atend)":
            try:
                llx, lly, urx, ury = (float(p) for p in parts)
                return llx, lly, urx, ury
            except ValueError:
                continue
    return None


def gen_eps(g: Gen):
    d = g.dir("eps")
    tmp = g.tmp
    # ImageMagick (eps = level 1, eps2, eps3, ept = DOS EPS binary header with TIFF preview)
    if which("convert"):
        blocked = False
        for (w, h) in [(1, 1), (13, 7), (100, 37), (640, 480)]:
            if blocked:
                break
            src = write_png(tmp / f"e{w}x{h}.png", w, h)
            for kind, ext in [("eps", "eps"), ("eps2", "eps"), ("eps3", "eps"), ("ept", "ept")]:
                out = d / f"imagemagick_{kind}_{w}x{h}.{ext}"
                rc, _, err = g.im("convert", str(src), f"{kind}:{out}")
                if rc != 0:
                    out.unlink(missing_ok=True)
                    if "security policy" in err:
                        skip("ImageMagick EPS writing is blocked by Debian's policy; rerun with --im-allow-ps")
                        blocked = True
                        break
                    skip(f"ImageMagick {kind}: {err.strip()[:160]}")
                    continue
                g.add("eps", out, w, h, "imagemagick", kind, truthSource="image size written as %%BoundingBox 0 0 w h")
    else:
        skip("ImageMagick (convert) not installed: apt-get install imagemagick ghostscript")
    # GraphicsMagick
    if which("gm"):
        for (w, h) in [(1, 1), (13, 7), (257, 129)]:
            src = write_png(tmp / f"ge{w}x{h}.png", w, h)
            for kind, ext in [("eps", "eps"), ("eps2", "eps"), ("eps3", "eps"), ("ept", "ept")]:
                out = d / f"graphicsmagick_{kind}_{w}x{h}.{ext}"
                rc, _, err = run(["gm", "convert", str(src), f"{kind}:{out}"])
                if rc == 0:
                    g.add("eps", out, w, h, "graphicsmagick", kind, truthSource="image size written as %%BoundingBox")
                else:
                    skip(f"GraphicsMagick {kind}: {err.strip()[:160]}")
    else:
        skip("GraphicsMagick not installed: apt-get install graphicsmagick")
    # Pillow (writes %ImageData and %%BoundingBox 0 0 w h)
    if have_pillow():
        for (w, h) in [(1, 1), (9, 1), (13, 7), (300, 200)]:
            for mode in ("RGB", "L"):
                out = d / f"pillow_{mode}_{w}x{h}.eps"
                try:
                    src_image(w, h, mode=mode).save(out, format="EPS")
                    g.add("eps", out, w, h, "pillow", mode, truthSource="%%BoundingBox")
                except Exception as e:  # noqa: BLE001
                    skip(f"Pillow EPS: {e}")
    # Ghostscript eps2write: real fractional %%HiResBoundingBox with an integer %%BoundingBox
    if which("gs"):
        for i, (x0, y0, x1, y1) in enumerate([(10.3, 20.6, 110.2, 70.9), (0.5, 0.5, 1.4, 1.6),
                                              (72, 72, 172, 222), (33.25, 5.75, 333.75, 105.25)]):
            ps = tmp / f"gs{i}.ps"
            ps.write_text("%!PS\n" + EPS_BODY.format(x0=x0, y0=y0, x1=x1, y1=y1) + "showpage\n")
            out = d / f"ghostscript_eps2write_{i}.eps"
            rc, _, err = run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=eps2write",
                              f"-sOutputFile={out}", str(ps)])
            if rc != 0:
                skip(f"gs eps2write: {err.strip()[:160]}")
                continue
            bb = parse_bbox(out.read_bytes()[:65536])
            if bb:
                hires = re.search(rb"%%HiResBoundingBox:[ \t]*([^\r\n]*)", out.read_bytes())
                g.add("eps", out, int(bb[2] - bb[0]), int(bb[3] - bb[1]), "ghostscript", "eps2write",
                      truthSource="%%BoundingBox (integers); HiRes recorded",
                      boundingBox=list(bb), hiResBoundingBox=hires.group(1).decode().split() if hires else None)
    else:
        skip("Ghostscript not installed: apt-get install ghostscript")
    # spec-built variants (Adobe DSC 3.0 / EPSF 3.0, TN 5001, TN 5002)
    draw = dict(x0=110, y0=220, x1=190, y1=280)
    variants = [
        ("lf", ["%%BoundingBox: 100 200 200 300"], [], "\n", None, "LF line ends"),
        ("crlf", ["%%BoundingBox: 100 200 200 300"], [], "\r\n", None, "CRLF line ends"),
        ("cr", ["%%BoundingBox: 100 200 200 300"], [], "\r", None, "CR-only line ends (classic Mac)"),
        ("atend", ["%%BoundingBox: (atend)"], ["%%BoundingBox: 100 200 200 300"], "\n", None,
         "DSC 3.0 (atend): the value is in the %%Trailer"),
        ("hires", ["%%BoundingBox: 100 200 200 300", "%%HiResBoundingBox: 100.4 200.4 199.6 299.6"], [], "\n", None,
         "integer box 100x100, HiRes box 99.2x99.2"),
        ("hires_first", ["%%HiResBoundingBox: 100.0 200.0 150.5 260.5", "%%BoundingBox: 100 200 151 261"], [], "\n",
         None, "HiRes before the integer box; integer box 51x61, HiRes 50.5x60.5"),
        ("negative", ["%%BoundingBox: -50 -20 30 40"], [], "\n", None, "negative llx/lly"),
        ("float_bbox", ["%%BoundingBox: 0 0 100.6 50.4"], [], "\n", None,
         "non-conforming real numbers in %%BoundingBox (DSC says integers)"),
        ("nospace", ["%%BoundingBox:100 200 200 300"], [], "\n", None, "no space after the colon"),
        ("twice", ["%%BoundingBox: 100 200 200 300", "%%BoundingBox: 0 0 10 10"], [], "\n", None,
         "two header boxes: DSC says the first one counts"),
        ("ps2", ["%%BoundingBox: 100 200 200 300"], [], "\n", "%!PS-Adobe-2.0 EPSF-2.0", "EPSF-2.0 header"),
        ("psonly", ["%%BoundingBox: 100 200 200 300"], [], "\n", "%!PS-Adobe-3.0", "no EPSF-x.y in the first line"),
    ]
    for name, bl, tl, eol, header, note in variants:
        kw = {"header": header} if header else {}
        data = eps_doc(bl, tl, draw if name != "negative" else dict(x0=-40, y0=-10, x1=20, y1=30), eol, **kw)
        out = d / f"spec_{name}.eps"
        out.write_bytes(data)
        bb = parse_bbox(data) if name not in ("twice",) else (100, 200, 200, 300)
        w, h = int(bb[2] - bb[0]), int(bb[3] - bb[1])
        g.add("eps", out, w, h, "spec-built", name, truthSource="%%BoundingBox urx-llx, ury-lly",
              notes=note + "; Adobe TN 5001 (DSC 3.0) %%BoundingBox, TN 5002 (EPSF 3.0)")
    # DOS EPS binary header (EPSF 3.0, TN 5002 sect. 5.2 table 1) with a TIFF preview from Pillow
    if have_pillow():
        ps = eps_doc(["%%BoundingBox: 0 0 120 90"], [], dict(x0=10, y0=10, x1=110, y1=80))
        tif = io.BytesIO()
        src_image(120, 90).save(tif, format="TIFF")
        tif = tif.getvalue()
        for name, with_tiff in (("dos_tiff", True), ("dos_noprev", False)):
            hdr_len = 30
            ps_off, ps_len = hdr_len, len(ps)
            tiff_off, tiff_len = (ps_off + ps_len, len(tif)) if with_tiff else (0, 0)
            hdr = struct.pack("<IIIIIIIH", 0xC6D3D0C5, ps_off, ps_len, 0, 0, tiff_off, tiff_len, 0xFFFF)
            out = d / f"spec_{name}.eps"
            out.write_bytes(hdr + ps + (tif if with_tiff else b""))
            g.add("eps", out, 120, 90, "spec-built", name, truthSource="%%BoundingBox of the PostScript section",
                  notes="DOS EPS binary header C5 D0 D3 C6, TN 5002 sect. 5.2 Table 1; checksum FFFF = ignore")


# --------------------------------------------------------------------------------------------
# XPM

def gen_xpm(g: Gen):
    d = g.dir("xpm")
    tmp = g.tmp
    if which("convert"):
        for (w, h) in SIZES_SMALL + [(1000, 3)]:
            for alpha in (False, True):
                src = write_png(tmp / f"x{w}x{h}{alpha}.png", w, h, alpha)
                out = d / f"imagemagick_{'rgba' if alpha else 'rgb'}_{w}x{h}.xpm"
                rc, _, err = g.im("convert", str(src), "-colors", "200", f"xpm:{out}")
                if rc == 0:
                    g.add("xpm", out, w, h, "imagemagick", "rgba" if alpha else "rgb")
                else:
                    skip(f"ImageMagick XPM: {err[:160]}")
    else:
        skip("ImageMagick missing for XPM")
    if which("gm"):
        for (w, h) in [(1, 1), (13, 7), (64, 64)]:
            src = write_png(tmp / f"gx{w}x{h}.png", w, h)
            out = d / f"graphicsmagick_{w}x{h}.xpm"
            rc, _, err = run(["gm", "convert", str(src), "-colors", "64", f"xpm:{out}"])
            if rc == 0:
                g.add("xpm", out, w, h, "graphicsmagick", "rgb")
    if which("ppmtoxpm"):
        for (w, h) in [(1, 1), (13, 7), (100, 37)]:
            ppm = write_ppm(tmp / f"nx{w}x{h}.ppm", w, h)
            rc, data, err = run(["sh", "-c", f"pnmquant 64 {ppm} 2>/dev/null | ppmtoxpm -name img"])
            out = d / f"netpbm_{w}x{h}.xpm"
            if rc == 0 and data:
                out.write_bytes(data)
                g.add("xpm", out, w, h, "netpbm", "ppmtoxpm")
    else:
        skip("netpbm (ppmtoxpm) not installed: apt-get install netpbm")
    # spec-built (XPM Manual 3.4, ch. 2 "The XPM Format")
    def xpm3(values, w, h, cpp=1, name="img", pre="/* XPM */\n", decl=None, comments=""):
        chars = "abcdefghijklmnopqrstuvwxyz"
        keys = [c * cpp for c in chars[:2]]
        lines = [pre + (decl or f"static char *{name}[] = {{") + "\n" + comments,
                 f'"{values}",', f'"{keys[0]} c #FF0000",', f'"{keys[1]} c None",']
        rows = [('"' + "".join(keys[(x + y) % 2] for x in range(w)) + '"') for y in range(h)]
        return "\n".join(lines + [",\n".join(rows), "};", ""]).encode()
    specs = [
        ("hotspot", "13 7 2 1 6 3", 13, 7, 1, {}, "6 values: x_hotspot y_hotspot"),
        ("xpmext", "13 7 2 1 XPMEXT", 13, 7, 1, {}, "XPMEXT keyword; extensions would follow the pixels"),
        ("hotspot_ext", "13 7 2 1 0 0 XPMEXT", 13, 7, 1, {}, "hotspot + XPMEXT"),
        ("spaces", "  13   7\t2  1 ", 13, 7, 1, {}, "runs of blanks and a tab in the values string"),
        ("cpp2", "21 4 2 2", 21, 4, 2, {}, "2 characters per pixel"),
        ("comment", "9 5 2 1", 9, 5, 1, {"comments": "/* width height ncolors cpp */\n"},
         "a comment between the declaration and the values string"),
        ("const_decl", "9 5 2 1", 9, 5, 1, {"decl": "static const char * const icon_xpm[]={"},
         "const-qualified declaration, no spaces"),
        ("big", "70000 1 2 1", 70000, 1, 1, {}, "width above 65535"),
    ]
    for name, values, w, h, cpp, kw, note in specs:
        out = d / f"spec_{name}.xpm"
        out.write_bytes(xpm3(values, w, h, cpp, **kw))
        g.add("xpm", out, w, h, "spec-built", name, notes=note + "; XPM Manual 3.4 ch. 2")
    # XPM2 (XPM Manual 3.4, sect. 2.2 "XPM2"): "! XPM2" line, then the values line, no C syntax
    out = d / "spec_xpm2.xpm"
    rows = ["".join("ab"[(x + y) % 2] for x in range(11)) for y in range(3)]
    out.write_text("! XPM2\n11 3 2 1\na c #FF0000\nb c #0000FF\n" + "\n".join(rows) + "\n")
    g.add("xpm", out, 11, 3, "spec-built", "xpm2", notes="XPM2 plain form (XPM Manual sect. 2)")


# --------------------------------------------------------------------------------------------
# FITS

def fits_card(key: str, value=None, comment: str = "") -> bytes:
    """FITS 4.0 sect. 4.1-4.2: 80-byte cards, fixed-format values right-justified in cols 11-30."""
    if value is None:
        s = f"{key:<8}"
    else:
        if isinstance(value, bool):
            v = "T" if value else "F"
        elif isinstance(value, str):
            v = f"'{value:<8}'"
            s = f"{key:<8}= {v:<20}"
        else:
            v = str(value)
        if not isinstance(value, str):
            s = f"{key:<8}= {v:>20}"
        if comment:
            s += " / " + comment
    return s[:80].ljust(80).encode("ascii")


def fits_hdu(cards: list[bytes], data: bytes) -> bytes:
    hdr = b"".join(cards) + fits_card("END")
    hdr += b" " * (-len(hdr) % 2880)
    return hdr + data + b"\0" * (-len(data) % 2880)


def gen_fits(g: Gen):
    d = g.dir("fits")
    tmp = g.tmp
    if which("convert"):
        for (w, h) in SIZES_SMALL + [(70000, 1)]:
            for depth in (8, 16):
                src = write_png(tmp / f"f{w}x{h}.png", w, h, mode="L")
                out = d / f"imagemagick_d{depth}_{w}x{h}.fits"
                rc, _, err = g.im("convert", str(src), "-depth", str(depth), f"fits:{out}")
                if rc != 0:
                    skip(f"ImageMagick FITS {w}x{h} depth {depth}: {err.strip()[:160]}")
                else:
                    bp = re.search(rb"BITPIX\s*=\s*(-?\d+)", out.read_bytes()[:2880])
                    g.add("fits", out, w, h, "imagemagick", f"depth{depth}",
                          bitDepth=abs(int(bp.group(1))) if bp else None)
    if which("gm"):
        for (w, h) in [(1, 1), (13, 7), (100, 37)]:
            src = write_png(tmp / f"gf{w}x{h}.png", w, h, mode="L")
            out = d / f"graphicsmagick_{w}x{h}.fits"
            rc, _, err = run(["gm", "convert", str(src), f"fits:{out}"])
            if rc == 0:
                bp = re.search(rb"BITPIX\s*=\s*(-?\d+)", out.read_bytes()[:2880])
                g.add("fits", out, w, h, "graphicsmagick", "default", bitDepth=abs(int(bp.group(1))) if bp else None)
    if which("pamtofits"):
        for (w, h) in [(1, 1), (13, 7), (100, 37)]:
            for kind in ("gray", "rgb"):
                ppm = tmp / f"nf{w}x{h}{kind}.pnm"
                src_image(w, h, mode="L" if kind == "gray" else "RGB").save(ppm, format="PPM")
                rc, data, err = run(["pamtofits", str(ppm)])
                out = d / f"netpbm_{kind}_{w}x{h}.fits"
                if rc == 0 and data:
                    out.write_bytes(data)
                    naxis = re.search(rb"NAXIS\s*=\s*(\d+)", data[:2880])
                    bp = re.search(rb"BITPIX\s*=\s*(-?\d+)", data[:2880])
                    g.add("fits", out, w, h, "netpbm", kind, bitDepth=abs(int(bp.group(1))) if bp else None,
                          frameCount=3 if naxis and naxis.group(1) == b"3" else None,
                          notes="pamtofits writes NAXIS=3, NAXIS3=3 for colour" if kind == "rgb" else None)
    else:
        skip("netpbm pamtofits missing")
    # spec-built (FITS Standard 4.0, sect. 3.3, 4.4.1.1 Table 7/8, sect. 5.2, sect. 7.1)
    def prim(bitpix, axes, extra=()):
        cards = [fits_card("SIMPLE", True, "conforms to FITS standard"), fits_card("BITPIX", bitpix),
                 fits_card("NAXIS", len(axes))]
        cards += [fits_card(f"NAXIS{i + 1}", n) for i, n in enumerate(axes)]
        cards += list(extra)
        n = 1
        for a in axes:
            n *= a
        return cards, (abs(bitpix) // 8) * (n if axes else 0)
    specs = [
        ("bitpix8", 8, [13, 7], 13, 7, None, "8-bit unsigned"),
        ("bitpix16", 16, [13, 7], 13, 7, None, "16-bit signed"),
        ("bitpix32", 32, [5, 3], 5, 3, None, "32-bit signed"),
        ("bitpix-32", -32, [5, 3], 5, 3, None, "IEEE float"),
        ("bitpix-64", -64, [5, 3], 5, 3, None, "IEEE double"),
        ("naxis1", 8, [17], 17, 1, None, "1-D array: NAXIS1 is the row length; Pillow reports 1x17"),
        ("naxis3", 8, [6, 4, 3], 6, 4, 3, "3-D cube: 3 planes of 6x4"),
        ("naxis4", 8, [6, 4, 2, 1], 6, 4, 2, "4-D"),
        ("many_cards", 16, [31, 9], 31, 9, None, "40 extra cards: header spans two 2880-byte blocks"),
        ("big", 8, [100000, 1], 100000, 1, None, "NAXIS1 above 65535"),
    ]
    for name, bitpix, axes, w, h, planes, note in specs:
        extra = ()
        if name == "many_cards":
            extra = tuple(fits_card(f"KEY{i:04d}", i, "filler") for i in range(40))
        cards, nbytes = prim(bitpix, axes, extra)
        out = d / f"spec_{name}.fits"
        out.write_bytes(fits_hdu(cards, b"\0" * nbytes))
        g.add("fits", out, w, h, "spec-built", name, bitDepth=abs(bitpix), frameCount=planes,
              notes=note + "; FITS 4.0 sect. 4.4.1.1 (SIMPLE, BITPIX, NAXIS, NAXISn in that order)")
    # NAXIS = 0 primary HDU, image in an IMAGE extension (FITS 4.0 sect. 7.1)
    cards, _ = prim(8, [], (fits_card("EXTEND", True),))
    ext = [fits_card("XTENSION", "IMAGE"), fits_card("BITPIX", 16), fits_card("NAXIS", 2),
           fits_card("NAXIS1", 11), fits_card("NAXIS2", 5), fits_card("PCOUNT", 0), fits_card("GCOUNT", 1)]
    out = d / "spec_naxis0_image_ext.fits"
    out.write_bytes(fits_hdu(cards, b"") + fits_hdu(ext, b"\0" * (11 * 5 * 2)))
    g.add("fits", out, 11, 5, "spec-built", "naxis0_image_ext", bitDepth=16,
          notes="primary NAXIS=0 (no data); the picture is the first IMAGE extension (sect. 7.1). "
                "A header-only scanner may answer 'no image' or read on to the extension.")


# --------------------------------------------------------------------------------------------
# DCX (Intel/ZSoft multi-page PCX)

def pcx_bytes(w, h, mode="P"):
    b = io.BytesIO()
    src_image(w, h, mode=mode).save(b, format="PCX")
    return b.getvalue()


def gen_dcx(g: Gen):
    d = g.dir("dcx")
    tmp = g.tmp
    if which("convert"):
        for sizes in ([(13, 7)], [(13, 7), (40, 30), (1, 1)], [(640, 480), (3, 2)], [(1, 1)]):
            srcs = [str(write_png(tmp / f"d{i}_{w}x{h}.png", w, h)) for i, (w, h) in enumerate(sizes)]
            out = d / f"imagemagick_{len(sizes)}p_{sizes[0][0]}x{sizes[0][1]}.dcx"
            rc, _, err = g.im("convert", *srcs, f"dcx:{out}")
            if rc == 0:
                g.add("dcx", out, sizes[0][0], sizes[0][1], "imagemagick", f"{len(sizes)}pages",
                      pageCount=len(sizes), bitDepth=8, truthSource="first page's PCX window")
            else:
                skip(f"ImageMagick DCX: {err[:160]}")
    if which("gm"):
        for sizes in ([(13, 7), (5, 5)], [(100, 37)]):
            srcs = [str(write_png(tmp / f"gd{i}_{w}x{h}.png", w, h)) for i, (w, h) in enumerate(sizes)]
            out = d / f"graphicsmagick_{len(sizes)}p_{sizes[0][0]}x{sizes[0][1]}.dcx"
            rc, _, err = run(["gm", "convert", *srcs, f"dcx:{out}"])
            if rc == 0:
                g.add("dcx", out, sizes[0][0], sizes[0][1], "graphicsmagick", f"{len(sizes)}pages",
                      pageCount=len(sizes), truthSource="first page's PCX window")
    # spec-built container with Pillow-encoded PCX pages (DCX: 4-byte ID 987654321, then
    # offsets, 0-terminated, at most 1023 pages; Intel/DCA "DCX format")
    if have_pillow():
        for name, sizes, table in [("short_table", [(13, 7), (8, 8), (1, 1)], "short"),
                                   ("full_table", [(21, 3)], "full"),
                                   ("1bit", [(33, 9)], "short"),
                                   ("rgb24", [(17, 5)], "short")]:
            mode = "1" if name == "1bit" else ("RGB" if name == "rgb24" else "P")
            pages = [pcx_bytes(w, h, mode) for (w, h) in sizes]
            n_entries = (len(pages) + 1) if table == "short" else 1024
            off = 4 + 4 * n_entries
            offs = []
            for p in pages:
                offs.append(off)
                off += len(p)
            tbl = offs + [0] * (n_entries - len(offs))
            data = struct.pack("<I", 0x3ADE68B1) + struct.pack(f"<{n_entries}I", *tbl) + b"".join(pages)
            out = d / f"spec_{name}.dcx"
            out.write_bytes(data)
            g.add("dcx", out, sizes[0][0], sizes[0][1], "spec-built+pillow-pcx", name, pageCount=len(sizes),
                  bitDepth={"1": 1, "P": 8, "RGB": 8}[mode],
                  notes=f"offset table with {n_entries} entries; first page at {4 + 4 * n_entries}")


# --------------------------------------------------------------------------------------------
# MSP (Microsoft Paint v1 "DanM", v2 "LinS"; Microsoft KB Q51077)

def msp_header(key: bytes, w, h) -> bytes:
    words = [struct.unpack("<H", key[0:2])[0], struct.unpack("<H", key[2:4])[0], w, h, 1, 1, 1, 1, w, h, 0, 0]
    chk = 0
    for x in words:
        chk ^= x
    return struct.pack("<12H", *words) + struct.pack("<H", chk) + b"\0" * 6


def msp_rle_row(row: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(row):
        j = i
        while j < len(row) and row[j] == row[i] and j - i < 255:
            j += 1
        if j - i >= 3:
            out += bytes([0, j - i, row[i]])
            i = j
            continue
        k = i
        while k < len(row) and k - i < 255 and not (k + 2 < len(row) and row[k] == row[k + 1] == row[k + 2]):
            k += 1
        out += bytes([k - i]) + row[i:k]
        i = k
    return bytes(out)


def gen_msp(g: Gen):
    d = g.dir("msp")
    if not have_pillow():
        skip("Pillow missing: no MSP")
        return
    for (w, h) in SIZES_SMALL + [(640, 480), (2000, 3)]:
        out = d / f"pillow_v1_{w}x{h}.msp"
        try:
            src_image(w, h, mode="1").save(out, format="MSP")
            g.add("msp", out, w, h, "pillow", "v1", bitDepth=1)
        except Exception as e:  # noqa: BLE001
            skip(f"Pillow MSP: {e}")
    # v2: header, scan-line map (h WORDs of encoded row lengths), RLE rows (KB Q51077)
    for (w, h) in [(1, 1), (13, 7), (64, 64), (300, 17)]:
        im = src_image(w, h, mode="1")
        raw = im.tobytes()
        stride = (w + 7) // 8
        rows = [msp_rle_row(raw[y * stride:(y + 1) * stride]) for y in range(h)]
        data = msp_header(b"LinS", w, h) + struct.pack(f"<{h}H", *[len(r) for r in rows]) + b"".join(rows)
        out = d / f"spec_v2_{w}x{h}.msp"
        out.write_bytes(data)
        g.add("msp", out, w, h, "spec-built", "v2", bitDepth=1,
              notes="MSP v2 'LinS': 32-byte header, scan-line map, RLE rows (Microsoft KB Q51077)")


# --------------------------------------------------------------------------------------------
# BLP (Blizzard)

def gen_blp(g: Gen):
    d = g.dir("blp")
    if not have_pillow():
        skip("Pillow missing: no BLP")
        return
    from PIL import Image
    for ver in ("BLP2", "BLP1"):
        for (w, h) in [(1, 1), (13, 7), (64, 64), (256, 128), (1000, 3)]:
            for alpha in (False, True):
                im = src_image(w, h, alpha)
                if alpha:
                    pim = im.quantize(64)
                    # give the palette an alpha channel, which Pillow writes as alpha depth 1... (or 0)
                    pal = pim.getpalette()[:64 * 3]
                    pim.putpalette(sum(([pal[i * 3], pal[i * 3 + 1], pal[i * 3 + 2], 255 if i % 2 else 0]
                                        for i in range(64)), []), rawmode="RGBA")
                else:
                    pim = im.quantize(64)
                out = d / f"pillow_{ver.lower()}_{'a' if alpha else 'o'}_{w}x{h}.blp"
                try:
                    pim.save(out, format="BLP", blp_version=ver)
                except Exception as e:  # noqa: BLE001
                    skip(f"Pillow {ver} {w}x{h}: {e}")
                    continue
                hdr = out.read_bytes()[:24]
                if ver == "BLP2":
                    alpha_depth = hdr[9]
                else:
                    alpha_depth = struct.unpack("<I", hdr[8:12])[0]
                g.add("blp", out, w, h, "pillow", f"{ver.lower()}-palette", bitDepth=8,
                      alphaDepth=alpha_depth)
    # BLP2 DXT (wowdev.wiki BLP: colorEncoding 2, alphaEncoding 0 DXT1 / 1 DXT3 / 7 DXT5)
    try:
        import etcpak
    except ImportError:
        etcpak = None
    for name, alpha_depth, alpha_enc, (w, h) in [("dxt1", 0, 0, (64, 32)), ("dxt5", 8, 7, (32, 32)),
                                                ("dxt1_odd", 0, 0, (13, 7)), ("dxt3", 8, 1, (16, 8))]:
        pw, ph = (w + 3) // 4 * 4, (h + 3) // 4 * 4
        rgba = src_image(pw, ph, True).tobytes()
        block = 8 if alpha_enc == 0 else 16
        size = (pw // 4) * (ph // 4) * block
        payload = b"\0" * size
        if etcpak is not None and alpha_enc in (0, 7):
            try:
                payload = (etcpak.compress_bc1 if alpha_enc == 0 else etcpak.compress_bc3)(rgba, pw, ph)
            except Exception:  # noqa: BLE001
                pass
        data_off = 148 + 1024
        hdr = b"BLP2" + struct.pack("<I", 1) + bytes([2, alpha_depth, alpha_enc, 0]) + struct.pack("<II", w, h)
        hdr += struct.pack("<16I", data_off, *[0] * 15) + struct.pack("<16I", len(payload), *[0] * 15)
        out = d / f"spec_blp2_{name}_{w}x{h}.blp"
        out.write_bytes(hdr + b"\0" * 1024 + payload)
        g.add("blp", out, w, h, "spec-built" + ("+etcpak" if etcpak and alpha_enc in (0, 7) else ""), name,
              alphaDepth=alpha_depth, notes="BLP2 DXT, wowdev.wiki BLP header (148 bytes + 1024-byte palette)")
    # BLP1 JPEG-compressed (compression 0): header, mip tables, JPEG header size + shared header
    jpg = io.BytesIO()
    src_image(40, 24).convert("RGB").save(jpg, format="JPEG")
    jpg = jpg.getvalue()
    sos = jpg.find(b"\xff\xda")
    head, body = jpg[:sos], jpg[sos:]
    hdr = b"BLP1" + struct.pack("<III", 0, 0, 40) + struct.pack("<III", 24, 5, 0)
    off = 28 + 128 + 4 + len(head)
    hdr += struct.pack("<16I", off, *[0] * 15) + struct.pack("<16I", len(body), *[0] * 15)
    out = d / "spec_blp1_jpeg_40x24.blp"
    out.write_bytes(hdr + struct.pack("<I", len(head)) + head + body)
    g.add("blp", out, 40, 24, "spec-built+pillow-jpeg", "blp1-jpeg", alphaDepth=0,
          notes="BLP1 compression 0 (JPEG): JPEG header block shared by the mipmaps")


# --------------------------------------------------------------------------------------------
# PVR (PowerVR texture container; Imagination "PVR File Format Specification" 1.0 (v3) and
# "PVR File Format Specification (Legacy)" (v1/v2))

PVR3_MAGIC = 0x03525650


def pvr3(pixfmt: int, w, h, payload: bytes, *, depth=1, surfaces=1, faces=1, mips=1, colour=0, chan=0,
         flags=0, meta: bytes = b"") -> bytes:
    return struct.pack("<IIQIIIIIIIII", PVR3_MAGIC, flags, pixfmt, colour, chan, h, w, depth, surfaces,
                       faces, mips, len(meta)) + meta + payload


def pvr_meta(fourcc: bytes, key: int, data: bytes) -> bytes:
    return fourcc + struct.pack("<II", key, len(data)) + data


def pixfmt_uncompressed(chans: bytes, bits: bytes) -> int:
    return struct.unpack("<Q", chans.ljust(4, b"\0") + bits.ljust(4, b"\0"))[0]


def gen_pvr(g: Gen):
    d = g.dir("pvr")
    if not have_pillow():
        skip("Pillow missing: no PVR")
        return
    try:
        import etcpak
    except ImportError:
        etcpak = None
        skip("etcpak (pip install etcpak) missing: PVR ETC payloads are zeros")
    rgba_fmt = pixfmt_uncompressed(b"rgba", b"\x08\x08\x08\x08")
    rgb_fmt = pixfmt_uncompressed(b"rgb", b"\x08\x08\x08")
    for (w, h) in [(1, 1), (13, 7), (64, 64), (512, 256), (70000, 1)]:
        im = src_image(w, h, True)
        out = d / f"spec_v3_rgba8888_{w}x{h}.pvr"
        out.write_bytes(pvr3(rgba_fmt, w, h, im.tobytes()))
        g.add("pvr", out, w, h, "spec-built", "v3-rgba8888", bitDepth=8, alpha=True,
              notes="v3 header 52 bytes, height at 24 before width at 28; pixel format 'rgba'+8888")
    im = src_image(20, 10)
    out = d / "spec_v3_rgb888_20x10.pvr"
    out.write_bytes(pvr3(rgb_fmt, 20, 10, im.tobytes(), colour=1))
    g.add("pvr", out, 20, 10, "spec-built", "v3-rgb888-srgb", bitDepth=8, alpha=False)
    # compressed payloads
    for name, fmtid, fn, bpb in [("etc1", 6, "compress_etc1_rgb", 8), ("etc2_rgb", 22, "compress_etc2_rgb", 8),
                                 ("etc2_rgba", 23, "compress_etc2_rgba", 16), ("dxt1", 7, "compress_bc1", 8),
                                 ("dxt5", 11, "compress_bc3", 16), ("pvrtc4_rgba", 3, None, 0),
                                 ("pvrtc2_rgb", 0, None, 0), ("astc_4x4", 27, None, 16)]:
        for (w, h) in [(64, 32), (13, 7)]:
            pw, ph = (w + 3) // 4 * 4, (h + 3) // 4 * 4
            if fn and etcpak is not None:
                payload = getattr(etcpak, fn)(src_image(pw, ph, True).tobytes(), pw, ph)
                enc = "spec-built+etcpak"
            else:
                if name.startswith("pvrtc"):
                    bpp = 4 if "4" in name else 2
                    bw = 4 if bpp == 4 else 8
                    payload = b"\0" * (max(2, (w + bw - 1) // bw) * max(2, (h + 3) // 4) * 8)
                else:
                    payload = b"\0" * ((pw // 4) * (ph // 4) * (bpb or 8))
                enc = "spec-built"
            out = d / f"spec_v3_{name}_{w}x{h}.pvr"
            out.write_bytes(pvr3(fmtid, w, h, payload))
            g.add("pvr", out, w, h, enc, f"v3-{name}", notes=f"compressed pixel format {fmtid}")
    # mipmaps, cube faces, array surfaces, metadata (orientation key 3, padding key 5)
    base = src_image(32, 16, True).tobytes()
    meta = pvr_meta(b"PVR\x03", 3, bytes([0, 1, 0])) + pvr_meta(b"PVR\x03", 5, b"\0" * 7)
    out = d / "spec_v3_meta_orient_32x16.pvr"
    out.write_bytes(pvr3(rgba_fmt, 32, 16, base, meta=meta))
    g.add("pvr", out, 32, 16, "spec-built", "v3-metadata", bitDepth=8,
          notes="metadata: texture orientation (key 3, Y up) and padding (key 5); spec sect. 3")
    mip_payload = b"".join(b"\0" * (max(1, 32 >> i) * max(1, 16 >> i) * 4) for i in range(6))
    out = d / "spec_v3_mips6_32x16.pvr"
    out.write_bytes(pvr3(rgba_fmt, 32, 16, mip_payload, mips=6))
    g.add("pvr", out, 32, 16, "spec-built", "v3-mipmaps", bitDepth=8, notes="MIP-map count 6")
    out = d / "spec_v3_cube_16x16.pvr"
    out.write_bytes(pvr3(rgba_fmt, 16, 16, b"\0" * (16 * 16 * 4 * 6), faces=6))
    g.add("pvr", out, 16, 16, "spec-built", "v3-cubemap", bitDepth=8, notes="6 faces")
    out = d / "spec_v3_array4_8x8.pvr"
    out.write_bytes(pvr3(rgba_fmt, 8, 8, b"\0" * (8 * 8 * 4 * 4), surfaces=4))
    g.add("pvr", out, 8, 8, "spec-built", "v3-array", bitDepth=8, frameCount=4, notes="4 surfaces")
    out = d / "spec_v3_volume_8x8x4.pvr"
    out.write_bytes(pvr3(rgba_fmt, 8, 8, b"\0" * (8 * 8 * 4 * 4), depth=4))
    g.add("pvr", out, 8, 8, "spec-built", "v3-volume", bitDepth=8, notes="depth 4 (3-D texture)")
    # big-endian-written v3: the spec says a reader sees 0x50565203 when endianness differs
    out = d / "spec_v3_bigendian_24x12.pvr"
    out.write_bytes(struct.pack(">IIQIIIIIIIII", PVR3_MAGIC, 0, rgba_fmt, 0, 0, 12, 24, 1, 1, 1, 1, 0)
                    + b"\0" * (24 * 12 * 4))
    g.add("pvr", out, 24, 12, "spec-built", "v3-big-endian",
          notes="header written big-endian: starts 03 52 56 50 ('\\x03RVP'); spec: version reads 0x50565203")
    # legacy v2 (52 bytes, 'PVR!' at 44) and v1 (44 bytes, no tag): header size, height, width order
    for (w, h) in [(1, 1), (13, 7), (64, 32)]:
        data = src_image(w, h, True).tobytes()
        hdr = struct.pack("<13I", 52, h, w, 0, 0x12, len(data), 32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000,
                          0x21525650, 1)
        out = d / f"spec_v2_rgba8888_{w}x{h}.pvr"
        out.write_bytes(hdr + data)
        g.add("pvr", out, w, h, "spec-built", "v2-legacy", bitDepth=8,
              notes="legacy v2: dwHeaderSize 52, dwHeight at 4, dwWidth at 8, 'PVR!' at 44; pixel type OGL_RGBA_8888 0x12")
    data = src_image(10, 6).tobytes()
    hdr = struct.pack("<11I", 44, 6, 10, 0, 0x15, len(data), 24, 0xFF, 0xFF00, 0xFF0000, 0)
    out = d / "spec_v1_rgb888_10x6.pvr"
    out.write_bytes(hdr + data)
    g.add("pvr", out, 10, 6, "spec-built", "v1-legacy", bitDepth=8,
          notes="legacy v1: 44-byte header, no 'PVR!' tag; pixel type OGL_RGB_888 0x15")
    hdr = struct.pack("<13I", 52, 8, 8, 3, 0x0D | 0x100, 0, 4, 0, 0, 0, 0, 0x21525650, 1)
    out = d / "spec_v2_pvrtc4_mips_8x8.pvr"
    out.write_bytes(hdr + b"\0" * 200)
    g.add("pvr", out, 8, 8, "spec-built", "v2-legacy-pvrtc",
          notes="legacy MGL_PVRTC4 with MIP flag, 3 extra levels (legacy count excludes the top level)")


# --------------------------------------------------------------------------------------------
# PKM (ETC1 "PKM 10", ETC2 "PKM 20"; Android etc1_utils.cpp, Ericsson etcpack)

def pkm_header(ver: bytes, fmt: int, w, h, ew=None, eh=None) -> bytes:
    ew = (w + 3) // 4 * 4 if ew is None else ew
    eh = (h + 3) // 4 * 4 if eh is None else eh
    return b"PKM " + ver + struct.pack(">HHHHH", fmt, ew, eh, w, h)


def gen_pkm(g: Gen):
    d = g.dir("pkm")
    tmp = g.tmp
    if which("etc1tool"):
        for (w, h) in [(1, 1), (4, 4), (13, 7), (64, 64), (257, 129), (1023, 2)]:
            src = write_png(tmp / f"k{w}x{h}.png", w, h)
            out = d / f"etc1tool_{w}x{h}.pkm"
            rc, _, err = run(["etc1tool", str(src), "--encode", "-o", str(out)])
            if rc == 0:
                g.add("pkm", out, w, h, "etc1tool", "pkm10-etc1",
                      notes="etc1tool writes extended (multiple-of-4) size at 8/10, image size at 12/14")
            else:
                skip(f"etc1tool: {err[:160]}")
    else:
        skip("etc1tool missing: apt-get install etc1tool")
    try:
        import etcpak
    except ImportError:
        etcpak = None
    for name, ver, fmt, fn, (w, h) in [("etc2_rgb", b"20", 1, "compress_etc2_rgb", (13, 7)),
                                      ("etc2_rgba", b"20", 3, "compress_etc2_rgba", (64, 32)),
                                      ("etc2_rgba1", b"20", 4, None, (8, 8)),
                                      ("eac_r11", b"20", 5, "compress_eac_r", (16, 4)),
                                      ("etc2_rgb_big", b"20", 1, "compress_etc2_rgb", (4096, 4)),
                                      ("etc1_v20", b"20", 0, "compress_etc1_rgb", (5, 5)),
                                      ("etc1_hand", b"10", 0, "compress_etc1_rgb", (30, 2))]:
        pw, ph = (w + 3) // 4 * 4, (h + 3) // 4 * 4
        bpb = 16 if fmt in (3, 6, 8) else 8
        payload = b"\0" * ((pw // 4) * (ph // 4) * bpb)
        enc = "spec-built"
        if etcpak is not None and fn:
            try:
                payload = getattr(etcpak, fn)(src_image(pw, ph, True).tobytes(), pw, ph)
                enc = "spec-built+etcpak"
            except Exception:  # noqa: BLE001
                pass
        out = d / f"spec_{name}_{w}x{h}.pkm"
        out.write_bytes(pkm_header(ver, fmt, w, h) + payload)
        g.add("pkm", out, w, h, enc, name, notes=f"PKM {ver.decode()} data type {fmt} (etcpack numbering)")
    # extended size not a multiple of 4 / smaller than the size: invalid per etc1_pkm_is_valid
    out = d / "spec_bad_extended_10x10.pkm"
    out.write_bytes(pkm_header(b"10", 0, 10, 10, ew=8, eh=8) + b"\0" * 32)
    g.add("pkm", out, 10, 10, "spec-built", "bad-extended", expectInvalid=True,
          notes="extended 8x8 < image 10x10: Android etc1_pkm_is_valid() rejects; imagesize reports 10x10")


# --------------------------------------------------------------------------------------------
# ASTC (Arm "The .astc File Format", astc-encoder Docs/FileFormat.md)

def gen_astc(g: Gen):
    d = g.dir("astc")
    tmp = g.tmp
    if which("astcenc"):
        jobs = [((1, 1), "4x4", "-cl"), ((13, 7), "4x4", "-cl"), ((13, 7), "6x6", "-cs"), ((64, 64), "8x8", "-cl"),
                ((100, 37), "12x12", "-cl"), ((257, 129), "5x4", "-cl"), ((70000, 4), "8x8", "-cl"),
                ((3, 3000), "10x10", "-cl"), ((64, 32), "6x5", "-ch")]
        for (w, h), blk, prof in jobs:
            src = write_png(tmp / f"a{w}x{h}.png", w, h, alpha=True)
            out = d / f"astcenc_{blk}{prof}_{w}x{h}.astc"
            rc, _, err = run(["astcenc", prof, str(src), str(out), blk, "-fastest", "-j", "1", "-silent"],
                             timeout=300)
            if rc == 0:
                g.add("astc", out, w, h, "astcenc", f"{blk}{prof}", blockDims=blk)
            else:
                skip(f"astcenc {blk} {w}x{h}: {err.strip()[:160]}")
    else:
        skip("astcenc missing: apt-get install astcenc")
    # spec-built: 3-D block, big 24-bit sizes
    for name, blk, (w, h, z) in [("3d_4x4x4", (4, 4, 4), (16, 8, 4)), ("3d_3x3x3", (3, 3, 3), (7, 5, 3)),
                                 ("max24", (8, 8, 1), (0xFFFFFF, 1, 1))]:
        nblocks = -(-w // blk[0]) * -(-h // blk[1]) * -(-z // blk[2])
        payload = b"\0" * (16 * nblocks) if nblocks < 100000 else b"\0" * 16
        hdr = bytes([0x13, 0xAB, 0xA1, 0x5C, *blk]) + w.to_bytes(3, "little") + h.to_bytes(3, "little") \
            + z.to_bytes(3, "little")
        out = d / f"spec_{name}.astc"
        out.write_bytes(hdr + payload)
        g.add("astc", out, w, h, "spec-built", name, blockDims="x".join(map(str, blk)), depth=z,
              notes="16-byte header; payload truncated for the 16M-wide file" if name == "max24" else None)


# --------------------------------------------------------------------------------------------
# farbfeld (suckless FORMAT)

def gen_farbfeld(g: Gen):
    d = g.dir("farbfeld")
    tmp = g.tmp
    if which("png2ff"):
        for (w, h) in SIZES_SMALL + [(640, 480)]:
            for alpha in (False, True):
                src = write_png(tmp / f"ff{w}x{h}{alpha}.png", w, h, alpha)
                out = d / f"png2ff_{'rgba' if alpha else 'rgb'}_{w}x{h}.ff"
                rc, data, err = run(["png2ff"], input=src.read_bytes())
                if rc == 0 and data:
                    out.write_bytes(data)
                    g.add("farbfeld", out, w, h, "png2ff", "rgba" if alpha else "rgb", bitDepth=16, alpha=True)
                else:
                    skip(f"png2ff: {err[:160]}")
    else:
        skip("farbfeld tools missing: apt-get install farbfeld")
    for (w, h) in [(70000, 1), (1, 70000)]:
        out = d / f"spec_{w}x{h}.ff"
        out.write_bytes(b"farbfeld" + struct.pack(">II", w, h) + b"\0" * (8 * w * h))
        g.add("farbfeld", out, w, h, "spec-built", "big", bitDepth=16, alpha=True)


# --------------------------------------------------------------------------------------------
# VTF (Valve Developer Community "VTF (Valve Texture Format)")

def gen_vtf(g: Gen):
    d = g.dir("vtf")
    try:
        from srctools.vtf import VTF, ImageFormats
    except ImportError:
        VTF = None
        skip("srctools missing (pip install srctools): no srctools VTFs")
    if VTF is not None and have_pillow():
        jobs = [((64, 32), (7, 2), "RGBA8888", 1), ((64, 32), (7, 5), "DXT1", 1), ((16, 16), (7, 3), "DXT5", 3),
                ((16, 8), (7, 4), "BGR888", 1), ((1, 1), (7, 2), "RGBA8888", 1), ((256, 128), (7, 5), "I8", 2),
                ((512, 4), (7, 2), "BGRA8888", 1)]
        for (w, h), ver, fmt, frames in jobs:
            try:
                v = VTF(w, h, version=ver, fmt=getattr(ImageFormats, fmt), frames=frames)
                im = src_image(w, h, True)
                for f in range(frames):
                    v.get(frame=f).copy_from(im.tobytes())
                out = d / f"srctools_v{ver[0]}{ver[1]}_{fmt}_{w}x{h}.vtf"
                with open(out, "wb") as fh:
                    v.save(fh)
                g.add("vtf", out, w, h, "srctools", f"7.{ver[1]}-{fmt}", frameCount=frames)
            except Exception as e:  # noqa: BLE001
                skip(f"srctools VTF {ver} {fmt} {w}x{h}: {e}")
    try:
        from sourcepp import vtfpp
    except ImportError:
        vtfpp = None
        skip("sourcepp missing (pip install sourcepp): no vtfpp VTFs")
    if vtfpp is not None and have_pillow():
        RM = vtfpp.ImageConversion.ResizeMethod
        F = vtfpp.ImageFormat
        for (w, h), ver, fmt, frames in [((13, 7), 3, "RGBA8888", 1), ((100, 37), 5, "RGBA8888", 2),
                                         ((64, 64), 4, "DXT1", 1), ((33, 1), 1, "RGBA8888", 1),
                                         ((20, 10), 0, "BGRA8888", 1)]:
            try:
                o = vtfpp.VTF.CreationOptions()
                o.width_resize_method = RM.NONE
                o.height_resize_method = RM.NONE
                o.output_format = getattr(F, fmt)
                o.version = ver
                o.initial_frame_count = frames
                v = vtfpp.VTF.create(src_image(w, h, True).tobytes(), F.RGBA8888, w, h, o)
                out = d / f"vtfpp_v7{ver}_{fmt}_{w}x{h}.vtf"
                v.bake_to_file(str(out))
                g.add("vtf", out, w, h, "sourcepp-vtfpp", f"7.{ver}-{fmt}", frameCount=frames)
            except Exception as e:  # noqa: BLE001
                skip(f"vtfpp 7.{ver} {fmt} {w}x{h}: {e}")
    # spec-built 7.0 / 7.1 (64-byte header without depth) and 7.2 by hand
    for ver, (w, h), hdr_size in [(0, (16, 8), 64), (1, (8, 4), 64), (2, (32, 16), 80)]:
        body = b"VTF\0" + struct.pack("<III", 7, ver, hdr_size) + struct.pack("<HHIHH", w, h, 0x2000, 1, 0)
        body += b"\0" * 4 + struct.pack("<3f", 0.5, 0.5, 0.5) + b"\0" * 4 + struct.pack("<f", 1.0)
        body += struct.pack("<i", 0) + bytes([1]) + struct.pack("<i", -1) + bytes([0, 0])  # RGBA8888, 1 mip, no thumb
        if ver >= 2:
            body += struct.pack("<H", 1)
        body = body.ljust(hdr_size, b"\0")
        out = d / f"spec_v7{ver}_{w}x{h}.vtf"
        out.write_bytes(body + b"\0" * (w * h * 4))
        g.add("vtf", out, w, h, "spec-built", f"7.{ver}", frameCount=1,
              notes="VDC VTF header: width u16 at 16, height u16 at 18, frames u16 at 24; no low-res image (format -1)")


# --------------------------------------------------------------------------------------------
# ILBM (EA IFF 85; "ILBM IFF Interleaved Bitmap", Amiga ROM Kernel Reference Manual: Devices)

def iff_chunk(cid: bytes, data: bytes) -> bytes:
    return cid + struct.pack(">I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def bmhd(w, h, planes, masking=0, comp=0, x=0, y=0, tc=0) -> bytes:
    return iff_chunk(b"BMHD", struct.pack(">HHhhBBBBHBBhh", w, h, x, y, planes, masking, comp, 0, tc, 10, 11,
                                          min(w, 32767), min(h, 32767)))


def gen_ilbm(g: Gen):
    d = g.dir("ilbm")
    tmp = g.tmp
    if which("ppmtoilbm"):
        jobs = [("default", []), ("24force", ["-24force"]), ("nocompress", ["-cmethod", "none"]),
                ("ham6", ["-ham6"]), ("dcforce", ["-dcforce"]), ("maxplanes3", ["-maxplanes", "3", "-fixplanes", "3"])]
        for (w, h) in [(1, 1), (13, 7), (100, 37), (320, 200), (2000, 3)]:
            ppm = tmp / f"i{w}x{h}.ppm"
            src = src_image(w, h)
            src.save(ppm, format="PPM")
            q = tmp / f"i{w}x{h}q.ppm"
            run(["sh", "-c", f"pnmquant 16 {ppm} > {q} 2>/dev/null"])
            for name, opts in jobs:
                inp = q if name in ("default", "nocompress", "maxplanes3") else ppm
                rc, data, err = run(["ppmtoilbm", *opts, str(inp)])
                out = d / f"netpbm_{name}_{w}x{h}.iff"
                if rc == 0 and data[:4] == b"FORM":
                    out.write_bytes(data)
                    planes = data.find(b"BMHD")
                    np_ = data[planes + 16] if planes >= 0 else None
                    g.add("ilbm", out, w, h, "netpbm", name, bitDepth=np_,
                          notes="bitDepth = BMHD nPlanes")
                else:
                    skip(f"ppmtoilbm {name} {w}x{h}: {err.strip()[:120]}")
    else:
        skip("netpbm ppmtoilbm missing")
    # spec-built variants
    cmap = iff_chunk(b"CMAP", bytes(range(48)))
    def form(ftype, chunks):
        body = ftype + b"".join(chunks)
        return b"FORM" + struct.pack(">I", len(body)) + body
    w, h = 13, 7
    rowbytes = (w + 15) // 16 * 2
    body_planar = iff_chunk(b"BODY", b"\0" * rowbytes * 4 * h)
    specs = [
        ("anno_odd_first", b"ILBM", [iff_chunk(b"ANNO", b"odd"), bmhd(w, h, 4), cmap, body_planar],
         "odd-length ANNO chunk (pad byte) before BMHD"),
        ("cmap_first", b"ILBM", [cmap, bmhd(w, h, 4), body_planar], "CMAP before BMHD (spec: BMHD must come first)"),
        ("pbm_chunky", b"PBM ", [bmhd(w, h, 8), iff_chunk(b"CMAP", bytes(768)),
                                 iff_chunk(b"BODY", b"\0" * ((w + 1) // 2 * 2) * h)], "DPaint 'PBM ' chunky, 8 planes"),
        ("acbm", b"ACBM", [bmhd(w, h, 4), cmap, iff_chunk(b"ABIT", b"\0" * rowbytes * h * 4)],
         "Amiga Contiguous BitMap: BMHD + ABIT"),
        ("mask", b"ILBM", [bmhd(w, h, 4, masking=1), cmap, iff_chunk(b"BODY", b"\0" * rowbytes * 5 * h)],
         "masking 1 (hasMask)"),
        ("transparent", b"ILBM", [bmhd(w, h, 4, masking=2, tc=3), cmap, body_planar], "masking 2 (transparent colour 3)"),
        ("deep24", b"ILBM", [bmhd(w, h, 24), iff_chunk(b"BODY", b"\0" * rowbytes * 24 * h)], "24 planes, no CMAP"),
        ("big", b"ILBM", [bmhd(65535, 1, 1), iff_chunk(b"BODY", b"\0" * ((65535 + 15) // 16 * 2))], "width 65535"),
        ("offset_xy", b"ILBM", [iff_chunk(b"BMHD", struct.pack(">HHhhBBBBHBBhh", w, h, -5, 7, 4, 0, 0, 0, 0, 10, 11, 320, 200)),
                                cmap, body_planar], "x=-5, y=7, page 320x200: size is still w x h"),
    ]
    for name, ftype, chunks, note in specs:
        out = d / f"spec_{name}.iff"
        out.write_bytes(form(ftype, chunks))
        bw, bh = (65535, 1) if name == "big" else (w, h)
        planes = {"pbm_chunky": 8, "deep24": 24, "big": 1}.get(name, 4)
        g.add("ilbm", out, bw, bh, "spec-built", name, bitDepth=planes, notes=note)
    # an ANIM whose first frame is an ILBM
    out = d / "spec_anim.iff"
    frame = form(b"ILBM", [bmhd(w, h, 4), cmap, body_planar])
    out.write_bytes(form(b"ANIM", [frame, frame]))
    g.add("ilbm", out, w, h, "spec-built", "anim", bitDepth=4, expectInvalid=True,
          notes="FORM ANIM wrapping ILBM frames: a different FORM type; listed so a prober's answer is visible")


# --------------------------------------------------------------------------------------------
# Aseprite (aseprite/docs/ase-file-specs.md)

def aseprite_python(out: Path) -> str | None:
    cands = [os.environ.get("ASEPRITE_PYTHON"), str(HERE / ".venv312/bin/python"),
             str(out.parent / ".venv312/bin/python")]
    for c in cands:
        if c and Path(c).exists():
            rc, o, _ = run([c, "-c", "import aseprite, sys; print(sys.version_info[:2])"])
            if rc == 0:
                return c
    return None


ASE_WRITER = r"""
import json, sys
from aseprite import Sprite, ColorMode, Pixels
jobs = json.loads(sys.argv[1])
done = []
for j in jobs:
    try:
        mode = {"rgba": ColorMode.RGBA, "gray": ColorMode.GRAYSCALE, "indexed": ColorMode.INDEXED}[j["mode"]]
        s = Sprite(j["w"], j["h"], mode)
        for _ in range(j["frames"] - 1):
            s.add_frame()
        s.save(j["out"])
        done.append(j["out"])
    except Exception as e:
        print("ERR", j, e, file=sys.stderr)
print(json.dumps(done))
"""


def gen_aseprite(g: Gen):
    d = g.dir("aseprite")
    py = aseprite_python(g.out)
    if py:
        jobs = []
        for (w, h), mode, frames in [((1, 1), "rgba", 1), ((13, 7), "rgba", 1), ((64, 64), "gray", 3),
                                     ((100, 37), "indexed", 2), ((32, 16), "rgba", 12), ((1000, 3), "gray", 1),
                                     ((65535, 1), "indexed", 1)]:
            jobs.append({"w": w, "h": h, "mode": mode, "frames": frames,
                         "out": str(d / f"aseprite-py_{mode}_f{frames}_{w}x{h}.aseprite")})
        rc, o, err = run([py, "-c", ASE_WRITER, json.dumps(jobs)], timeout=300)
        if err.strip():
            log(err.strip()[:400])
        done = set(json.loads(o.decode() or "[]")) if rc == 0 else set()
        for j in jobs:
            if j["out"] in done:
                g.add("aseprite", Path(j["out"]), j["w"], j["h"], "aseprite-py", j["mode"], frameCount=j["frames"],
                      bitDepth={"rgba": 32, "gray": 16, "indexed": 8}[j["mode"]])
    else:
        skip("aseprite (PyPI, Python >= 3.12) not found: python3.12 -m venv .venv312 && "
             ".venv312/bin/pip install aseprite aseprite-reader; or set ASEPRITE_PYTHON")
    # spec-built: 128-byte header + frames of 16-byte headers with no chunks
    for name, (w, h), depth, frames in [("min_rgba", (7, 3), 32, 1), ("gray_f4", (40, 20), 16, 4),
                                        ("idx", (5, 9), 8, 1)]:
        frame = struct.pack("<IHHH6x", 16, 0xF1FA, 0, 100)
        size = 128 + 16 * frames
        hdr = struct.pack("<IHHHHHIHII", size, 0xA5E0, frames, w, h, depth, 1, 100, 0, 0)
        hdr += bytes([0, 0, 0, 0]) + struct.pack("<H", 0 if depth != 8 else 16) + bytes([1, 1])
        hdr = hdr.ljust(128, b"\0")
        out = d / f"spec_{name}.aseprite"
        out.write_bytes(hdr + frame * frames)
        g.add("aseprite", out, w, h, "spec-built", name, frameCount=frames, bitDepth=depth,
              notes="ase-file-specs.md sect. Header: magic A5E0 at 4, frames 6, width 8, height 10, depth 12")


GENERATORS = {"eps": gen_eps, "xpm": gen_xpm, "fits": gen_fits, "dcx": gen_dcx, "msp": gen_msp, "blp": gen_blp,
              "pvr": gen_pvr, "pkm": gen_pkm, "astc": gen_astc, "farbfeld": gen_farbfeld, "vtf": gen_vtf,
              "ilbm": gen_ilbm, "aseprite": gen_aseprite}


# --------------------------------------------------------------------------------------------
# Oracles

def pnm_size(data: bytes):
    m = re.match(rb"P[1-7]\s*(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)", data)
    if m:
        return [int(m.group(1)), int(m.group(2))]
    m = re.search(rb"WIDTH (\d+)\s+HEIGHT (\d+)", data[:200])
    if m:
        return [int(m.group(1)), int(m.group(2))]
    return None


def first_line_size(txt: str):
    for line in txt.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
            return [int(parts[0]), int(parts[1])]
    return None


def oracle_all(g: Gen):
    recs = g.records
    out = g.out
    pil = have_pillow()
    if pil:
        from PIL import Image
        Image.MAX_IMAGE_PIXELS = None
    # exiftool in one batch
    exif = {}
    if which("exiftool") and recs:
        files = [str(out / r["file"]) for r in recs]
        for i in range(0, len(files), 200):
            rc, o, _ = run(["exiftool", "-j", "-n", "-q", "-q", "-FileType", "-ImageWidth", "-ImageHeight",
                            *files[i:i + 200]], timeout=600)
            try:
                for obj in json.loads(o.decode() or "[]"):
                    exif[obj.get("SourceFile")] = obj
            except json.JSONDecodeError:
                pass
    aseprite_py = aseprite_python(out)
    ase_sizes = {}
    ase_files = [str(out / r["file"]) for r in recs if r["format"] == "aseprite"]
    if aseprite_py and ase_files:
        code = ("import json,sys\nres={}\nfrom aseprite_reader import AsepriteFile\n"
                "for p in sys.argv[1:]:\n"
                "  try:\n    a=AsepriteFile(p); h=a.header\n"
                "    res[p]=[h.width,h.height,getattr(h,'frames',None) or getattr(h,'num_frames',None)]\n"
                "  except Exception as e: res[p]={'error':str(e)[:120]}\n"
                "print(json.dumps(res))")
        rc, o, err = run([aseprite_py, "-c", code, *ase_files], timeout=300)
        try:
            ase_sizes = json.loads(o.decode())
        except json.JSONDecodeError:
            log("aseprite_reader oracle failed: " + err[:200])
    for n, r in enumerate(recs):
        p = out / r["file"]
        fmt = r["format"]
        orc: dict = {}
        # ImageMagick and GraphicsMagick
        if which("identify"):
            rc, o, err = g.im("identify", "-ping", "-format", "%w %h %m\\n", str(p), timeout=120)
            sz = first_line_size(o.decode("utf-8", "replace")) if rc == 0 else None
            orc["imagemagick_ping"] = sz if sz else {"error": (err.strip().splitlines() or ["?"])[-1][:120]}
            if sz:
                frames = len([ln for ln in o.decode().splitlines() if ln.strip()])
                if frames > 1:
                    orc["imagemagick_frames"] = frames
            if sz and fmt in ("eps", "fits", "xpm", "dcx"):
                rc2, o2, err2 = g.im("identify", "-format", "%w %h\\n", str(p) + "[0]", timeout=180)
                sz2 = first_line_size(o2.decode("utf-8", "replace")) if rc2 == 0 else None
                orc["imagemagick_decode"] = sz2 if sz2 else {"error": err2.strip()[-120:]}
        if which("gm"):
            rc, o, err = run(["gm", "identify", "-ping", "-format", "%w %h %m\\n", str(p)], timeout=120)
            sz = first_line_size(o.decode("utf-8", "replace")) if rc == 0 else None
            orc["graphicsmagick_ping"] = sz if sz else {"error": (err.strip().splitlines() or ["?"])[-1][:120]}
        if pil:
            try:
                with Image.open(p) as im:
                    orc["pillow"] = list(im.size)
                    if getattr(im, "n_frames", 1) > 1:
                        orc["pillow_frames"] = im.n_frames
                    orc["pillow_format"] = im.format
            except Exception as e:  # noqa: BLE001
                orc["pillow"] = {"error": f"{type(e).__name__}: {str(e)[:100]}"}
        e = exif.get(str(p))
        if e is not None:
            if "ImageWidth" in e and "ImageHeight" in e:
                orc["exiftool"] = [e["ImageWidth"], e["ImageHeight"]]
            else:
                orc["exiftool"] = {"error": f"no size (FileType {e.get('FileType')})"}
        # format decoders
        if fmt == "fits" and which("fitstopnm"):
            rc, o, err = run(["fitstopnm", str(p)], timeout=120)
            orc["netpbm_fitstopnm"] = pnm_size(o[:200]) if rc == 0 and o else {"error": err.strip()[-100:]}
        if fmt == "xpm" and which("xpmtoppm"):
            rc, o, err = run(["xpmtoppm", str(p)], timeout=120)
            orc["netpbm_xpmtoppm"] = pnm_size(o[:200]) if rc == 0 and o else {"error": err.strip()[-100:]}
        if fmt == "xpm" and which("cxpm"):
            rc, o, err = run(["cxpm", str(p)], timeout=60)
            orc["libxpm_cxpm"] = "ok" if rc == 0 else {"error": (err.strip() or str(rc))[-100:]}
        if fmt == "ilbm" and which("ilbmtoppm"):
            rc, o, err = run(["ilbmtoppm", str(p)], timeout=120)
            orc["netpbm_ilbmtoppm"] = pnm_size(o[:200]) if rc == 0 and o else {"error": err.strip()[-100:]}
        if fmt == "farbfeld" and which("ff2pam"):
            rc, o, err = run(["sh", "-c", f"ff2pam < '{p}' | head -c 200"], timeout=120)
            orc["farbfeld_ff2pam"] = pnm_size(o) if o else {"error": err.strip()[-100:]}
        if fmt == "astc" and which("astcenc") and r.get("encoder") == "astcenc":
            dec = g.tmp / f"astc_dec_{n}.png"
            rc, o, err = run(["astcenc", "-dl", str(p), str(dec), "-silent"], timeout=300)
            if rc == 0 and pil:
                with Image.open(dec) as im:
                    orc["astcenc_decode"] = list(im.size)
                dec.unlink(missing_ok=True)
            else:
                orc["astcenc_decode"] = {"error": err.strip()[-100:]}
        if fmt == "pkm" and which("etc1tool") and p.read_bytes()[4:6] == b"10":
            dec = g.tmp / f"pkm_dec_{n}.png"
            rc, o, err = run(["etc1tool", str(p), "--decode", "-o", str(dec)], timeout=120)
            if rc == 0 and pil and dec.exists():
                with Image.open(dec) as im:
                    orc["etc1tool_decode"] = list(im.size)
                dec.unlink(missing_ok=True)
            else:
                orc["etc1tool_decode"] = {"error": (err.strip() or f"rc {rc}")[-100:]}
        if fmt == "vtf":
            try:
                from srctools.vtf import VTF
                with open(p, "rb") as fh:
                    v = VTF.read(fh)
                    orc["srctools"] = [v.width, v.height]
            except ImportError:
                pass
            except Exception as ex:  # noqa: BLE001
                orc["srctools"] = {"error": str(ex)[:100]}
            try:
                from sourcepp import vtfpp
                v = vtfpp.VTF(str(p))
                orc["sourcepp_vtfpp"] = [v.width, v.height] if v.width else {"error": "not parsed"}
                orc["sourcepp_vtfpp_frames"] = v.frame_count
            except ImportError:
                pass
            except Exception as ex:  # noqa: BLE001
                orc["sourcepp_vtfpp"] = {"error": str(ex)[:100]}
        if fmt == "aseprite" and str(p) in ase_sizes:
            v = ase_sizes[str(p)]
            orc["aseprite_reader"] = v[:2] if isinstance(v, list) else v
        r["oracles"] = orc
        if (n + 1) % 25 == 0:
            log(f"  oracles: {n + 1}/{len(recs)}")


# --------------------------------------------------------------------------------------------
# --check

def check(outdir: Path, cmd: list[str]) -> int:
    recs = harness.read_manifest(outdir)
    results = {}
    paths = [str((outdir / r["file"]).resolve()) for r in recs]
    for batch, _, _, _, error, answers, _ in harness.probe(cmd, ["--json"], paths, batch=100, timeout=900):
        if error is not None:
            print(f"cannot run {cmd}: {error}", file=sys.stderr)
            return 2
        for j, obj in answers:
            key = obj.get("path")
            if key not in batch and j < len(batch):
                key = batch[j]
            results[key] = obj
    if not results:
        print(f"warning: {' '.join(cmd)} --json printed no JSON for any file", file=sys.stderr)
    by_fmt: dict[str, list] = {}
    for r, path in zip(recs, paths):
        by_fmt.setdefault(r["format"], []).append((r, results.get(path)))
    print(f"{'format':<10} {'files':>5} {'right':>5} {'read med':>9} {'read max':>9}")
    per_format, per_encoder = harness.Tally(), harness.Tally()
    order = FORMATS + sorted(set(by_fmt) - set(FORMATS))
    for fmt in order:
        items = by_fmt.get(fmt, [])
        if not items:
            continue
        for r, res in items:
            failure = None
            if res is None:
                failure = (r, "no output")
            else:
                ok = (res.get("format") == fmt and res.get("width") == r["width"] and res.get("height") == r["height"])
                if r.get("expectInvalid"):
                    ok = ok or ("error" in res)
                if not ok:
                    got = (f"{res.get('format')} {res.get('width')}x{res.get('height')}" if "error" not in res
                           else f"error {res.get('error')}: {str(res.get('message', ''))[:60]}")
                    failure = (r, got)
            read = res["bytesRead"] if res is not None and "bytesRead" in res else None
            per_format.count(fmt, res is not None, failure, read)
            per_encoder.count((fmt, r.get("encoder", "?")), res is not None, failure, read)
        s = per_format.groups[fmt]
        med, mx = harness.median_max(s["read"])
        print(f"{fmt:<10} {s['files']:>5} {s['right']:>5} {med:>9} {mx:>9}")
    # The same per encoder: which writers' files a prober reads, and how far it reads into them.
    print(f"\n{'format':<10} {'encoder':<24} {'files':>5} {'right':>5} {'read med':>9} {'read max':>9}")
    for fmt in order:
        for (group_fmt, encoder), s in sorted(per_encoder.groups.items()):
            if group_fmt != fmt:
                continue
            med, mx = harness.median_max(s["read"])
            print(f"{fmt:<10} {encoder:<24} {s['files']:>5} {s['right']:>5} {med:>9} {mx:>9}")
    failures = per_format.failures
    if failures:
        print(f"\nfailures ({len(failures)}):")
        for r, got in failures:
            print(f"  {r['file']}: want {r['format']} {r['width']}x{r['height']}, got {got}")
    return 0 if not failures else 1


# --------------------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--only", help="comma-separated formats to generate")
    ap.add_argument("--no-oracles", action="store_true")
    ap.add_argument("--im-allow-ps", action="store_true",
                    help="run ImageMagick in a private mount namespace with PS/EPS allowed (root)")
    ap.add_argument("--check", nargs=argparse.REMAINDER, metavar="CMD",
                    help="run CMD --json FILE... over OUTDIR's manifest and print a table")
    a = ap.parse_args()
    if a.check is not None:
        if not a.check:
            ap.error("--check needs a command")
        return check(a.outdir, a.check)
    if not have_pillow():
        log("Pillow is required for source pictures: pip install Pillow")
        return 2
    a.outdir.mkdir(parents=True, exist_ok=True)
    g = Gen(a.outdir.resolve(), a.im_allow_ps)
    fmts = a.only.split(",") if a.only else FORMATS
    for fmt in fmts:
        log(f"== {fmt}")
        try:
            GENERATORS[fmt](g)
        except Exception as e:  # noqa: BLE001  never fail the whole run
            import traceback
            skip(f"{fmt} generator crashed: {e}")
            traceback.print_exc()
    if not a.no_oracles:
        log(f"== oracles over {len(g.records)} files")
        oracle_all(g)
    harness.write_manifest(g.out, g.records)
    shutil.rmtree(g.tmp, ignore_errors=True)
    print("files per format and encoder:")
    for fmt in fmts:
        c = g.counts.get(fmt, {})
        print(f"  {fmt:<9} {sum(c.values()):>4}  " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    if LOG_SKIPS:
        print(f"skipped ({len(LOG_SKIPS)}):")
        for s in dict.fromkeys(LOG_SKIPS):
            print("  " + s)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(1)
