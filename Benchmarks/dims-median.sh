#!/usr/bin/env bash
# The median instructions per dimensions-only probe over the first N files of one format in a
# corpus with a manifest (manifest.jsonl: file, format, expect): for each file, callgrind's
# total for `imageprobe-bench repeat-dims 1000 FILE` minus `repeat-dims 0 FILE`, divided by
# 1000, on a `strip --strip-debug` copy of the binary (BENCHMARKS.md, "What 0.2.0 costs
# dimensions-only probes").
#   Benchmarks/dims-median.sh .build/release/imageprobe-bench tiff ../shared/corpus [20]
set -euo pipefail
binary=$1 format=$2 corpus=$3 count=${4:-20}
command -v valgrind >/dev/null || { echo "dims-median.sh: needs valgrind" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/bench" "$binary"
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/bench" repeat-dims "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
mapfile -t files < <(python3 - "$corpus" "$format" "$count" <<'PY'
import json, sys
corpus, wanted, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
found = 0
for line in open(f"{corpus}/manifest.jsonl"):
    row = json.loads(line)
    if row["format"] == wanted and row["expect"] == "ok" and found < count:
        print(f"{corpus}/{row['file']}")
        found += 1
PY
)
[ ${#files[@]} -gt 0 ] || { echo "dims-median.sh: no $format files in $corpus" >&2; exit 1; }
for file in "${files[@]}"; do
    echo $(( ($(instructions 1000 "$file") - $(instructions 0 "$file")) / 1000 ))
done | sort -n | python3 -c "
import statistics, sys
values = [int(line) for line in sys.stdin]
print('$format', len(values), 'files, median', statistics.median(values), values)"
