#!/usr/bin/env bash
# Differential testing of the scanner against another commit: the same generated inputs, in
# the three modes, whole, in random chunks and by a seeking reader, under random limits, must
# give the same answers and byte counts (imageprobe-bench pack). For a reshaping that must not
# change behaviour.
#   Fuzz/differential.sh BASE_COMMIT COUNT SEED [SEED_DIR_OR_FILE...]
# Seeds default to Fuzz/corpus and Fuzz/regressions. Exit 1 on any difference, printing the
# first few inputs' outcomes from both builds.
set -euo pipefail
cd "$(dirname "$0")/.."
base=$1 count=$2 seed=$3
shift 3
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(Fuzz/corpus Fuzz/regressions)
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# The base build, with this tree's pack command added if it lacks one.
git worktree add --detach "$work/base" "$base" >/dev/null
cp Benchmarks/Sources/ImageProbeBench/Differential.swift "$work/base/Benchmarks/Sources/ImageProbeBench/"
if ! grep -q '"pack"' "$work/base/Benchmarks/Sources/ImageProbeBench/main.swift"; then
    python3 - "$work/base/Benchmarks/Sources/ImageProbeBench/main.swift" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
anchor = 'if CommandLine.arguments.count > 2 && CommandLine.arguments[1] == "check" {'
text = text.replace(anchor, 'if CommandLine.arguments.count > 2 && CommandLine.arguments[1] == "pack" {\n'
                    '    differentialPack(Array(CommandLine.arguments.dropFirst(2)))\n    exit(0)\n}\n\n' + anchor, 1)
open(path, "w").write(text)
PY
fi
(cd "$work/base" && swift build -c release --product imageprobe-bench --scratch-path "$PWD/../.build-base" >/dev/null)
swift build -c release --product imageprobe-bench >/dev/null
old="$work/.build-base/release/imageprobe-bench" new=.build/release/imageprobe-bench

python3 Fuzz/differential.py "$work/packs" "$count" "$seed" "${seeds[@]}"
differ=0
for pack in "$work"/packs/pack-*.bin; do
    "$old" pack "$pack" > "$work/old.txt" &
    "$new" pack "$pack" > "$work/new.txt"
    wait
    if ! cmp -s "$work/old.txt" "$work/new.txt"; then
        mapfile -t indices < <(diff "$work/old.txt" "$work/new.txt" | sed -n 's/^< \([0-9]*\)\t.*/\1/p')
        differ=$((differ + ${#indices[@]}))
        for index in "${indices[@]:0:3}"; do
            echo "== $(basename "$pack") input $index"
            diff <("$old" pack "$pack" --verbose "$index") <("$new" pack "$pack" --verbose "$index") || true
        done
    fi
done
inputs=$(cat "$work"/packs/pack-*.bin | python3 -c 'import sys,struct
data=sys.stdin.buffer.read(); n=o=0
while o+4<=len(data): l=struct.unpack_from("<I",data,o)[0]; o+=4+l; n+=1
print(n)')
echo "differential.sh: $inputs inputs, 9 outcomes each, against $base: $differ differ"
[ "$differ" -eq 0 ]
