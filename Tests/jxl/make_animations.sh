#!/usr/bin/env bash
# Makes JPEG XL files with libjxl's cjxl from GIF, APNG, PNG, PPM and PGM inputs, and writes
# jxlinfo's output beside each (NAME.jxl, NAME.jxlinfo, NAME.jxlinfo-v): the ground truth that
# Tests/jxl/check.sh compares the scanner with.
#   Tests/jxl/make_animations.sh [OUT_DIR]     (default: /tmp/imageprobe-jxl)
# Installs what it uses: libjxl-tools (cjxl, jxlinfo), ImageMagick, libgs-common (ICC
# profiles), Pillow. The files vary frame counts, delays, tick rates, loop counts, sizes (one
# group or many), bare codestream and container, lossless and lossy, progressive passes and
# DC frames, group order (a permuted TOC), cropped and zero-delay frames, and ICC against
# enumerated colour (sRGB, P3, Rec.2100 PQ and HLG, DCI, linear, 709, gamma, grey).
set -euo pipefail
out=${1:-/tmp/imageprobe-jxl}
mkdir -p "$out"
cd "$out"

need=()
command -v cjxl >/dev/null && command -v jxlinfo >/dev/null || need+=(libjxl-tools)
command -v convert >/dev/null && convert -version 2>/dev/null | grep -q '^Version: ImageMagick' || need+=(imagemagick)
[ -f /usr/share/color/icc/ghostscript/a98.icc ] || need+=(libgs-common)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
python3 -c 'import PIL' 2>/dev/null || pip install -q pillow

# cjxl with a fixed effort (fast, and the same bytes every run), quietly.
enc() { local input=$1 output=$2; shift 2; cjxl "$input" "$output" -e 3 --num_threads=0 --quiet "$@" >/dev/null 2>&1; }
truth() { jxlinfo "$1.jxl" > "$1.jxlinfo" 2>&1 || true; jxlinfo -v "$1.jxl" > "$1.jxlinfo-v" 2>&1 || true; }

# GIF animations (ImageMagick): frame count, delay in centiseconds, loop count, size.
gif() {
    local name=$1 frames=$2 delay=$3 loops=$4 size=$5; shift 5
    local args=()
    for i in $(seq 1 "$frames"); do args+=(-delay "$delay" "xc:rgb($((i * 37 % 256)),$((i * 91 % 256)),$((255 - i * 23 % 256)))"); done
    convert -size "$size" "${args[@]}" -loop "$loops" "$name.gif"
    enc "$name.gif" "$name.jxl" "$@"
    truth "$name"
}
gif gif-3x100ms 3 10 0 40x30
gif gif-5x70ms-loop3-container 5 7 3 64x48 --container=1
gif gif-2x1s-lossy 2 100 0 96x64 -d 1
gif gif-12x40ms 12 4 0 33x17

# A GIF of frames with varied delays, zero among them, each changing a small area (Pillow
# writes such frames cropped to what changed).
python3 - <<'PY'
from PIL import Image, ImageDraw
frames = []
im = Image.new('RGB', (80, 60), (255, 255, 255))
for i, box in enumerate([(0, 0, 79, 59), (5, 5, 24, 14), (40, 30, 69, 49), (60, 40, 69, 49), (10, 45, 30, 55)]):
    im = im.copy()
    ImageDraw.Draw(im).rectangle(box, fill=((i * 60) % 256, (i * 100) % 256, 50))
    frames.append(im)
frames[0].save('gif-crops-and-zero-delays.gif', save_all=True, append_images=frames[1:], duration=[0, 50, 0, 100, 30], loop=0,
               optimize=False, disposal=1)
PY
enc gif-crops-and-zero-delays.gif gif-crops-and-zero-delays.jxl
truth gif-crops-and-zero-delays

# APNG animations (Pillow): per-frame durations in milliseconds, loop count, any size.
python3 - <<'PY'
from PIL import Image
def apng(name, size, durations, loop, icc=None, mode='RGB'):
    w, h = size
    frames = []
    for i, _ in enumerate(durations):
        im = Image.new(mode, size)
        px = im.load()
        for y in range(0, h, max(1, h // 16)):
            for x in range(0, w, max(1, w // 16)):
                px[x, y] = ((x * 7 + i * 40) % 256, (y * 5 + i * 90) % 256, (x + y + i * 13) % 256) if mode == 'RGB' else (x + y + i * 30) % 256
        frames.append(im)
    extra = {'icc_profile': icc} if icc else {}
    frames[0].save(name + '.png', save_all=True, append_images=frames[1:], duration=durations, loop=loop, **extra)
apng('apng-4-varied', (300, 200), [40, 80, 120, 40], 2)
apng('apng-6-big', (600, 400), [100, 100, 100, 200, 200, 300], 0)
apng('apng-3-progressive', (520, 300), [50, 60, 70], 0)
apng('apng-3-group-order', (520, 300), [50, 60, 70], 0)
apng('apng-2-icc', (64, 64), [100, 250], 0, icc=open('/usr/share/color/icc/ghostscript/a98.icc', 'rb').read())
apng('apng-20-small', (16, 16), [30] * 20, 0)
apng('apng-3-grey', (48, 32), [100, 200, 300], 0, mode='L')
PY
enc apng-4-varied.png apng-4-varied.jxl -d 1
enc apng-6-big.png apng-6-big.jxl -d 0 --container=1
enc apng-3-progressive.png apng-3-progressive.jxl -d 1 -p --progressive_dc=1
enc apng-3-group-order.png apng-3-group-order.jxl -d 1 --group_order=1
enc apng-2-icc.png apng-2-icc.jxl -d 0
enc apng-20-small.png apng-20-small.jxl -d 0 --container=1
enc apng-3-grey.png apng-3-grey.jxl -d 2
for name in apng-4-varied apng-6-big apng-3-progressive apng-3-group-order apng-2-icc apng-20-small apng-3-grey; do truth "$name"; done

# Stills: enumerated colour from PPM/PGM with a colour_space hint (libjxl's descriptor syntax:
# space_whitepoint_primaries_intent_transfer), PNG with an sRGB default, PNG with an ICC
# profile.
convert -size 24x16 gradient:red-blue -depth 16 still.ppm
convert -size 24x16 gradient:white-black -depth 16 still.pgm
for space in RGB_D65_SRG_Rel_SRG RGB_D65_SRG_Per_Lin RGB_D65_SRG_Rel_709 RGB_D65_202_Rel_PeQ RGB_D65_202_Rel_HLG \
             RGB_D65_DCI_Rel_SRG RGB_DCI_DCI_Rel_DCI RGB_D65_SRG_Rel_g0.45455 RGB_D65_SRG_Rel_g0.35714 RGB_D65_SRG_Rel_g0.5; do
    enc still.ppm "still-$space.jxl" -d 0 -x color_space=$space
    truth "still-$space"
done
for space in Gra_D65_Rel_SRG Gra_D65_Rel_PeQ Gra_D65_Rel_g0.45455; do
    enc still.pgm "still-$space.jxl" -d 0 -x color_space=$space
    truth "still-$space"
done
python3 - <<'PY'
from PIL import Image
im = Image.new('RGB', (30, 20), (10, 200, 30))
im.save('still-png-srgb.png')
im.save('still-png-icc-a98.png', icc_profile=open('/usr/share/color/icc/ghostscript/a98.icc', 'rb').read())
im.save('still-png-icc-romm.png', icc_profile=open('/usr/share/color/icc/ghostscript/rommrgb.icc', 'rb').read())
PY
enc still-png-srgb.png still-png-srgb.jxl
enc still-png-icc-a98.png still-png-icc-a98.jxl -d 0 --container=1
enc still-png-icc-romm.png still-png-icc-romm.jxl -d 1
for name in still-png-srgb still-png-icc-a98 still-png-icc-romm; do truth "$name"; done
rm -f ./*.gif ./*.png ./*.ppm ./*.pgm
ls -1 ./*.jxl | wc -l | xargs echo "JPEG XL files in $out:"
