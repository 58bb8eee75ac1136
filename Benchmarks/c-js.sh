#!/usr/bin/env bash
# The C library, the WebAssembly module in Node and the Swift package side by side: probes per
# second over a corpus in memory (every file whole, full mode, ROUNDS times), the C library's
# heap allocations (must be 0), and the artefacts' sizes.
#   Benchmarks/c-js.sh [CORPUS_DIR] [ROUNDS]        (default ../shared/corpus/files, 200)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus/files}
rounds=${2:-200}
Scripts/build-c.sh all
swift build -c release --product imageprobe-bench >/dev/null
work=$(mktemp -d)
cc -O2 -I .build/c/include Benchmarks/c/bench.c .build/c/libimageprobe.a \
    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign,--wrap=free -o "$work/bench"
mapfile -t files < <(find "$corpus" -type f | sort)
echo "${#files[@]} files, $rounds rounds"
"$work/bench" "$rounds" "${files[@]}" > "$work/c.txt"
node Benchmarks/js/bench.mjs "$rounds" "${files[@]}" > "$work/js.txt"
.build/release/imageprobe-bench repeat "$rounds" "${files[@]}" > "$work/swift.txt"
# The same answers: the sum of the widths found.
if ! cmp -s "$work/c.txt" "$work/js.txt" || ! cmp -s "$work/c.txt" "$work/swift.txt"; then
    echo "the three disagree: $(cat "$work/c.txt") $(cat "$work/js.txt") $(cat "$work/swift.txt")" >&2
    exit 1
fi
echo "sizes: libimageprobe.a $(stat -c %s .build/c/libimageprobe.a) bytes; imageprobe.wasm $(stat -c %s .build/wasm/imageprobe.wasm) bytes, $(gzip -9c .build/wasm/imageprobe.wasm | wc -c) gzipped"
rm -rf "$work"
