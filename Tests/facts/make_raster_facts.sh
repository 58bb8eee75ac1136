#!/bin/sh
# Makes TIFF, EXIF-in-JPEG, BMP and PSD files with stated resolutions and ICC profiles using
# real writers (ImageMagick, Pillow), then prints what exiftool, Pillow and imageprobe report
# for each: the ground truth for the resolution (dpi) and ICC-profile facts of SPEC §3.4,
# §3.6, §3.7 and §3.13.
#
#   Tests/facts/make_raster_facts.sh [OUT_DIR]     (default /tmp/raster-facts)
#
# imageprobe is taken from $IMAGEPROBE (default /tmp/facts-build/release/imageprobe, built
# with `swift build -c release --product imageprobe --scratch-path /tmp/facts-build`); its
# --json output is searched for the keys "dpi" and "iccProfile" (shown as "-" until the CLI
# prints them). Installs its tools when they are missing (Debian packages and PyPI only).
set -eu

OUT=${1:-/tmp/raster-facts}
IMAGEPROBE=${IMAGEPROBE:-/tmp/facts-build/release/imageprobe}

# ImageMagick's own binary: a stand-in `convert` earlier on PATH may only serve pictures.
if ! [ -x /usr/bin/convert ] || ! command -v exiftool >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq imagemagick libimage-exiftool-perl >/dev/null
fi
python3 -c 'import PIL' 2>/dev/null || python3 -m pip install -q pillow
CONVERT=/usr/bin/convert

mkdir -p "$OUT"
cd "$OUT"
rm -f ./*.tif ./*.jpg ./*.bmp ./*.psd ./*.icc ./*.png

# A source picture and an sRGB ICC profile (Little CMS's, through Pillow: 588 bytes).
python3 - <<'PY'
from PIL import Image, ImageCms
Image.new("RGB", (40, 30), (200, 100, 50)).save("src.png")
open("srgb.icc", "wb").write(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
PY

# TIFF: ImageMagick (libtiff) and Pillow.
$CONVERT src.png -units PixelsPerInch -density 300 tif_im_300ppi.tif
$CONVERT src.png -units PixelsPerCentimeter -density 118.11 tif_im_118.11ppcm.tif
$CONVERT src.png -units Undefined -density 72 tif_im_unit1.tif
$CONVERT src.png -profile srgb.icc tif_im_icc.tif
$CONVERT src.png -units PixelsPerInch -density 300 -profile srgb.icc tif_im_300ppi_icc.tif
$CONVERT src.png -define tiff:endian=msb -units PixelsPerInch -density 150 tif_im_msb_150ppi.tif
$CONVERT src.png -units PixelsPerInch -density 300 TIFF64:tif_im_bigtiff_300ppi.tif
python3 - <<'PY'
from PIL import Image
im = Image.open("src.png")
im.save("tif_pil_300dpi.tif", dpi=(300, 300))
im.save("tif_pil_72x150dpi.tif", dpi=(72, 150))
im.save("tif_pil_icc.tif", icc_profile=open("srgb.icc", "rb").read())
PY

# JPEG with EXIF resolution: Pillow writes JFIF's density from dpi= and the EXIF given.
python3 - <<'PY'
from PIL import Image
im = Image.open("src.png")
def exif(x, y, unit):
    e = Image.Exif()
    e[282], e[283], e[296] = x, y, unit
    return e
im.save("jpg_jfif72_exif300.jpg", dpi=(72, 72), exif=exif(300, 300, 2))
im.save("jpg_exif300_only.jpg", exif=exif(300, 300, 2))  # JFIF unit 0: no density
im.save("jpg_exif118.11ppcm.jpg", exif=exif(118.11, 118.11, 3))
im.save("jpg_exif_unit1.jpg", exif=exif(72, 72, 1))
PY

# BMP: Pillow writes BITMAPINFOHEADER with dpi= as pixels per metre; ImageMagick writes a
# BITMAPV5HEADER with PROFILE_EMBEDDED when the picture has a profile.
python3 - <<'PY'
from PIL import Image
im = Image.open("src.png")
for dpi in (72, 96, 300):
    im.save(f"bmp_pil_{dpi}dpi.bmp", dpi=(dpi, dpi))
im.save("bmp_pil_72x300dpi.bmp", dpi=(72, 300))
PY
$CONVERT src.png -units PixelsPerInch -density 300 bmp_im_300ppi.bmp
$CONVERT src.png -profile srgb.icc bmp_im_v5_icc.bmp
$CONVERT src.png -define bmp:format=bmp5 bmp_im_v5_noicc.bmp
# No writer at hand makes PROFILE_LINKED: the V5 file above, its colour space type made 'LINK'.
python3 - <<'PY'
data = bytearray(open("bmp_im_v5_icc.bmp", "rb").read())
assert data[14] == 124 and data[70:74] == b"DEBM"
data[70:74] = b"KNIL"
open("bmp_patched_v5_linked.bmp", "wb").write(bytes(data))
PY

# PSD: ImageMagick's ResolutionInfo (1005) and ICC profile (1039) resources.
$CONVERT src.png -units PixelsPerInch -density 300 psd_im_300ppi.psd
$CONVERT src.png -units PixelsPerCentimeter -density 118.11 psd_im_118.11ppcm.psd
$CONVERT src.png -units PixelsPerInch -density 72 -profile srgb.icc psd_im_72ppi_icc.psd

# The table.
python3 - "$IMAGEPROBE" <<'PY'
import glob, json, math, subprocess, sys
from PIL import Image

imageprobe = sys.argv[1]

def exiftool(path):
    tags = ["-XResolution", "-YResolution", "-ResolutionUnit", "-PixelsPerMeterX", "-PixelsPerMeterY",
            "-ICC-header:ProfileFileSignature", "-ColorSpace", "-ProfileSize"]
    out = subprocess.run(["exiftool", "-j", "-n", "-G1"] + tags + [path], capture_output=True, text=True).stdout
    return json.loads(out)[0]

def dpi_text(x, y):
    return "-" if x is None else f"{round(x)},{round(y)}"

def exiftool_facts(path, tags):
    # exiftool's own pick: EXIF/TIFF IFD0 over JFIF (JFIF's are Priority -1), PSD's
    # Photoshop:XResolution always in pixels per inch, BMP in pixels per metre.
    def first(name):
        for group in ("IFD0", "Photoshop", "JFIF", "File"):
            if f"{group}:{name}" in tags:
                return group, tags[f"{group}:{name}"]
        return None, None
    dpi = None
    group, x = first("XResolution")
    _, y = first("YResolution")
    if x is not None and y is not None:
        if group == "Photoshop":
            dpi = (x, y)
        else:
            unit = tags.get(f"{group}:ResolutionUnit", 2 if group == "IFD0" else None)
            # IFD0: 1 none, 2 inches, 3 cm. JFIF: 0 none, 1 inches, 2 cm.
            per_inch = {("IFD0", 2): 1, ("IFD0", 3): 2.54, ("JFIF", 1): 1, ("JFIF", 2): 2.54}.get((group, unit))
            if per_inch and x and y:
                dpi = (x * per_inch, y * per_inch)
    if "File:PixelsPerMeterX" in tags and tags["File:PixelsPerMeterX"] and tags["File:PixelsPerMeterY"]:
        dpi = (tags["File:PixelsPerMeterX"] * 0.0254, tags["File:PixelsPerMeterY"] * 0.0254)
    icc = any(key.startswith("ICC-header:") for key in tags)
    return dpi_text(*(dpi or (None, None))), "yes" if icc else "no"

def pillow_facts(path):
    try:
        im = Image.open(path)
    except Exception as error:  # noqa: BLE001
        return f"error {error}", "-"
    dpi = im.info.get("dpi")
    text = "-" if dpi is None else ",".join("nan" if math.isnan(float(v)) else f"{float(v):g}" for v in dpi)
    return text, "yes" if im.info.get("icc_profile") else "no"

def ours(path):
    try:
        out = subprocess.run([imageprobe, "--json", path], capture_output=True, text=True, timeout=10).stdout
        record = json.loads(out.splitlines()[0]) if out.strip() else {}
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return "(no imageprobe)", "-"
    dpi = record.get("dpi")
    if isinstance(dpi, dict):
        dpi = f"{dpi.get('x')},{dpi.get('y')}"
    elif isinstance(dpi, list):
        dpi = ",".join(str(v) for v in dpi)
    icc = record.get("iccProfile")
    return ("-" if dpi is None else str(dpi)), ("-" if icc is None else ("yes" if icc else "no"))

rows = [("file", "exiftool dpi", "exiftool ICC", "Pillow dpi", "Pillow ICC", "ours dpi", "ours ICC")]
for path in sorted(glob.glob("*.tif") + glob.glob("*.jpg") + glob.glob("*.bmp") + glob.glob("*.psd")):
    tags = exiftool(path)
    rows.append((path, *exiftool_facts(path, tags), *pillow_facts(path), *ours(path)))
widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
for row in rows:
    print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
PY
