#!/usr/bin/env bash
# Compares the scanner with jxlinfo on the files Tests/jxl/make_animations.sh made: frame
# counts, durations, loop counts, the ICC flag, CICP and HDR. Prints a table and exits 1 on a
# mismatch.
#   Tests/jxl/check.sh [DIR]          (default: /tmp/imageprobe-jxl; made first if missing)
#
# Frames, durations and loop counts come from the release CLI (`imageprobe --json
# --animation`). The colour facts come from the CLI's JSON when it prints them; otherwise from
# the test `JXLTests/groundTruthDump`, which scans DIR with the library and writes
# DIR/imageprobe.tsv (the CLI does not print `cicp` or `hasICCProfile` yet).
#
# jxlinfo (libjxl 0.7) turns off coalescing, so it prints every layer: "frame:" for a frame
# with a duration, "layer:" for one of duration 0, which is blended into the next frame. The
# scanner counts the frames a decoder shows (libjxl's coalesced frames, as browsers play
# them): the "frame:" lines, and the last line when it is a "layer:" (the last frame, shown
# however long it lasts). A file of one frame prints none.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-/tmp/imageprobe-jxl}
[ -d "$dir" ] && ls "$dir"/*.jxl >/dev/null 2>&1 || Tests/jxl/make_animations.sh "$dir"

scratch=${JXL_SCRATCH:-/tmp/jxl-build}
swift build -c release --product imageprobe --scratch-path "$scratch" 2>&1 | grep -E 'error|Compiling|Build complete' | tail -3
cli="$scratch/release/imageprobe"

for file in "$dir"/*.jxl; do
    "$cli" --json --animation "$file" > "${file%.jxl}.animation.json" || true
    "$cli" --json "$file" > "${file%.jxl}.full.json" || true
done

if ! grep -q '"cicp"\|"hasICCProfile"\|"iccProfile"' "$dir"/*.full.json 2>/dev/null; then
    echo "the CLI prints no colour facts: scanning with the library (swift test --filter JXLTests/groundTruthDump)"
    rm -f "$dir/imageprobe.tsv"
    IMAGEPROBE_JXL_DIR="$dir" swift test --scratch-path "$scratch" --filter 'JXLTests/groundTruthDump' 2>&1 \
        | grep -E 'error:|✘|passed after|failed after' | tail -3
fi

python3 - "$dir" <<'PY'
import glob, json, os, re, sys

directory = sys.argv[1]

def jxlinfo(name):
    text = open(os.path.join(directory, name + '.jxlinfo')).read()
    verbose = open(os.path.join(directory, name + '.jxlinfo-v')).read()
    lines = [l for l in text.splitlines() if l.startswith(('frame:', 'layer:'))]
    durations = [float(m.group(1)) for l in lines for m in [re.search(r'duration: ([0-9.]+) ms', l)] if m]
    shown = sum(1 for l in lines if l.startswith('frame:')) + (1 if lines and lines[-1].startswith('layer:') else 0)
    loops = re.search(r'num_loops: (\d+)', verbose)
    colour = re.search(r'Color space: (.*)', text).group(1)
    icc = 'ICC profile' in colour
    return {'layers': len(lines), 'shown': shown, 'duration': sum(durations), 'loops': int(loops.group(1)) if loops else None,
            'animated': 'JPEG XL animation' in text, 'icc': icc, 'cicp': None if icc else cicp(colour), 'colour': colour}

def cicp(colour):
    """The CICP that jxlinfo's colour description maps to (JXLColour.swift's rule)."""
    parts = [p.strip() for p in colour.split(',')]
    space, white = parts[0], parts[1]
    transfer = next(p for p in parts if 'transfer function' in p).replace(' transfer function', '')
    gamma = re.match(r'gamma\(([0-9.]+)\)', transfer)
    if gamma:
        g = float(gamma.group(1))
        tc = 4 if abs(g - 1 / 2.2) < 0.001 else 5 if abs(g - 1 / 2.8) < 0.001 else None
    else:
        tc = {'709': 1, 'Linear': 8, 'sRGB': 13, 'PQ': 16, 'DCI': 17, 'HLG': 18}.get(transfer)
    if tc is None:
        return None
    if space == 'Grayscale':
        return (2, tc, 2, True)
    if space != 'RGB':
        return None
    primaries = next((p.replace(' primaries', '') for p in parts if p.endswith(' primaries')), None)
    cp = {('sRGB', 'D65'): 1, ('Rec.2100', 'D65'): 9, ('P3', 'D65'): 12, ('P3', 'P3'): 11}.get((primaries, white))
    return None if cp is None else (cp, tc, 0, True)

def ours(name):
    animation = json.load(open(os.path.join(directory, name + '.animation.json')))
    full = json.load(open(os.path.join(directory, name + '.full.json')))
    result = {'frames': animation.get('frameCount'), 'duration': animation.get('duration'), 'loops': animation.get('loopCount'),
              'partial': animation.get('partialReason'), 'animated': full.get('animated'), 'fullPartial': full.get('partialReason')}
    if 'cicp' in full or 'hasICCProfile' in full or 'iccProfile' in full:
        c = full.get('cicp')
        result['cicp'] = None if c is None else (c['colourPrimaries'], c['transferCharacteristics'], c['matrixCoefficients'], c['isFullRange']) if isinstance(c, dict) else tuple(c)
        result['icc'] = full.get('hasICCProfile', full.get('iccProfile'))
        result['hdr'] = full.get('isHDR', full.get('hdr'))
    return result

tsv = {}
path = os.path.join(directory, 'imageprobe.tsv')
if os.path.exists(path):
    for line in open(path):
        name, mode, c, icc, hdr = line.rstrip('\n').split('\t')[:5]
        if mode == 'full':
            tsv[name] = {'cicp': None if c == '-' else tuple(int(x) if x.isdigit() else x == 'true' for x in c.split('/')),
                         'icc': {'true': True, 'false': False}.get(icc), 'hdr': {'true': True, 'false': False}.get(hdr)}

rows, failures = [], 0
def show(value):
    return '-' if value is None else '/'.join(str(int(v) if isinstance(v, bool) else v) for v in value) if isinstance(value, tuple) else str(value)
for file in sorted(glob.glob(os.path.join(directory, '*.jxl'))):
    name = os.path.basename(file)[:-4]
    truth, mine = jxlinfo(name), ours(name)
    mine.update({k: v for k, v in tsv.get(name, {}).items() if k not in mine})
    notes = []
    if truth['animated']:
        if mine['partial']:
            notes.append('partial: ' + mine['partial'])
        else:
            frames_ok = mine['frames'] == truth['shown'] or (truth['shown'] <= 1 and mine['frames'] in (None, 1))
            if not frames_ok: notes.append('frames')
            if truth['shown'] > 1 and abs((mine['duration'] or 0) - truth['duration']) > 0.01: notes.append('duration')
    if truth['loops'] is not None and truth['animated'] and mine['loops'] != truth['loops']: notes.append('loops')
    if mine['fullPartial']: notes.append('full mode partial: ' + mine['fullPartial'])
    if 'icc' in mine:
        if mine['icc'] != truth['icc']: notes.append('icc')
        if mine['cicp'] != truth['cicp']: notes.append('cicp')
        expected_hdr = truth['cicp'] is not None and truth['cicp'][1] in (16, 18)
        if (mine['hdr'] is True) != expected_hdr: notes.append('hdr')
    # A partial answer is expected only where the walk meets what it does not follow.
    expected_partial = truth['icc'] and truth['animated'] or 'group-order' in name
    ok = (not notes) or (notes == ['partial: unsupportedFeature'] and expected_partial)
    failures += 0 if ok else 1
    rows.append((name, f"{truth['layers']}/{truth['shown']}", show(mine['frames']), f"{truth['duration']:g}" if truth['animated'] else '-',
                 show(mine['duration']) if truth['animated'] else '-', show(truth['loops']), show(mine['loops']),
                 show(truth['icc']), show(mine.get('icc')), show(truth['cicp']), show(mine.get('cicp')), show(mine.get('hdr')),
                 'ok' if ok and not notes else 'ok (' + ', '.join(notes) + ')' if ok else 'MISMATCH: ' + ', '.join(notes)))

header = ('file', 'jxlinfo layers/shown', 'frames', 'jxlinfo ms', 'ms', 'jxlinfo loops', 'loops', 'jxlinfo ICC', 'ICC',
          'jxlinfo CICP', 'CICP', 'HDR', 'result')
print('| ' + ' | '.join(header) + ' |')
print('|' + '---|' * len(header))
for row in rows:
    print('| ' + ' | '.join(str(c) for c in row) + ' |')
print(f"{len(rows) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
PY
