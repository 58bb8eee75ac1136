#!/usr/bin/env bash
# The scanner where Int is 32 bits (watchOS's arm64_32, wasm32, Cortex-M, RISC-V): every input
# the 64-bit checks use goes through the WebAssembly module in Node, and must give the 64-bit
# build's answer without a trap (SPEC.md §1.10).
#   Scripts/check-32bit.sh IMAGEPROBE [--exported DIR] [--fuzz SECONDS] [MORE_FILES_OR_DIRS...]
# - Scripts/narrowing.py: no trapping conversion to a 32-bit Int in the core's source;
# - the fuzz seeds and regressions (Fuzz/) and the last fuzz run's corpus (.build-fuzz/corpus),
#   with their fuzz options, replayed whole, by the byte and in random chunks against
#   `ImageProbeFuzz describe` (Tests/wasm32/replay.mjs);
# - with --exported, the inputs `swift test` verified (IMAGEPROBE_REPLAY_EXPORT=DIR);
# - the sample catalog and MORE_FILES_OR_DIRS, read as the command reads them, in full,
#   dimensions-only and animation modes: Examples/js/probe.mjs must print what IMAGEPROBE
#   --json prints (animation mode: but for largestFrame and firstDelays, which the C
#   interface doesn't carry);
# - with --fuzz, the module fuzzed for SECONDS, and what it found answered on 64 bits too.
set -euo pipefail
cd "$(dirname "$0")/.."
imageprobe=$1
shift
exported=""
fuzz_seconds=0
extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --exported) exported=$2; shift 2 ;;
        --fuzz) fuzz_seconds=$2; shift 2 ;;
        *) extra+=("$1"); shift ;;
    esac
done
failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 Scripts/narrowing.py || failed=1
python3 Scripts/narrowing.py --self-test
[ -f .build/wasm/imageprobe.wasm ] || Scripts/build-c.sh wasm
wasm=.build/wasm/imageprobe.wasm
swift build --product ImageProbeFuzz > /dev/null
describe=.build/debug/ImageProbeFuzz

# The committed seeds and regressions, and what the last libFuzzer run (Fuzz/fuzz.sh) found.
fuzz_inputs=("$PWD"/Fuzz/corpus/* "$PWD"/Fuzz/regressions/*)
if [ -d .build-fuzz/corpus ]; then
    mapfile -t -O "${#fuzz_inputs[@]}" fuzz_inputs < <(find "$PWD/.build-fuzz/corpus" -type f)
fi
echo "${#fuzz_inputs[@]} fuzz inputs"
printf '%s\n' "${fuzz_inputs[@]}" | xargs -d '\n' "$describe" describe > "$work/fuzz.tsv"
node Tests/wasm32/replay.mjs "$wasm" "$work/fuzz.tsv" || failed=1

if [ -n "$exported" ]; then
    echo "$(wc -l < "$exported/cases.tsv") verifications exported by swift test"
    node Tests/wasm32/replay.mjs "$wasm" "$exported/cases.tsv" || failed=1
fi

mkdir -p "$work/samples"
"$describe" write-samples "$work/samples" > /dev/null
find "$work/samples" "${extra[@]}" -type f | sort > "$work/files"
for mode in "" --dimensions-only --animation; do
    xargs -a "$work/files" -d '\n' "$imageprobe" --json $mode > "$work/cli.txt" || true
    xargs -a "$work/files" -d '\n' node Examples/js/probe.mjs $mode > "$work/js.txt" || true
    # The command's animation extras, which the C interface doesn't report.
    sed -i -E 's/"largestFrame":\{[^}]*\},//; s/"firstDelays":\[[^]]*\],//' "$work/cli.txt"
    traps=$(grep -c '"error":"trap"' "$work/js.txt" || true)
    differing=$(diff "$work/cli.txt" "$work/js.txt" | grep -c '^>' || true)
    echo "wasm32 ${mode:-full}: $(wc -l < "$work/js.txt") files (the sample catalog and ${#extra[@]} more paths), $traps traps, $differing differ from imageprobe --json"
    if [ "$differing" != 0 ] || [ "$traps" != 0 ]; then
        diff "$work/cli.txt" "$work/js.txt" | head -6 || true
        failed=1
    fi
done

if [ "$fuzz_seconds" != 0 ]; then
    # Each manifest names its files relative to its own folder.
    node Tests/wasm32/replay.mjs "$wasm" --fuzz "$fuzz_seconds" --out "$work/found" "$work/fuzz.tsv" \
        ${exported:+"$exported/cases.tsv"} || failed=1
    if [ -f "$work/found/cases.tsv" ]; then
        "$describe" describe --cases "$work/found/cases.tsv" > "$work/found/64bit.tsv"
        node Tests/wasm32/replay.mjs "$wasm" "$work/found/64bit.tsv" || failed=1
    fi
fi
exit $failed
