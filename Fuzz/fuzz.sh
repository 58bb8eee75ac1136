#!/usr/bin/env bash
# Builds the libFuzzer harness and fuzzes for the given number of seconds (default 60).
#   Fuzz/fuzz.sh [seconds] [more libFuzzer options, e.g. -jobs=2 -workers=2]
# A crash (any breach of the streaming contract, or an AddressSanitizer report) fails with
# exit status 1 and prints the crashing input. Minimize it with
#   .build-fuzz/release/ImageProbeFuzz -minimize_crash=1 -runs=100000 CRASH_FILE
# and commit the result to Fuzz/regressions/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true

# The plain fuzzer flag (as `swift build -Xswiftc -sanitize=fuzzer` at the root), with
# AddressSanitizer and optimisation, for the harness alone, in a build folder of its own.
swift build -c release -Xswiftc -sanitize=fuzzer,address --product ImageProbeFuzz --scratch-path .build-fuzz

work=.build-fuzz/corpus
artifacts=.build-fuzz/artifacts/
mkdir -p "$work" "$artifacts"
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=0
set +e
# New inputs go to the first directory only; Fuzz/corpus and Fuzz/regressions stay as committed.
.build-fuzz/release/ImageProbeFuzz "$work" Fuzz/corpus Fuzz/regressions \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts" -print_final_stats=1 "$@" 2>&1 | tee .build-fuzz/last-run.log | grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)'
status=${PIPESTATUS[0]}
set -e
grep -E '^#[0-9]+\s+DONE|stat::' .build-fuzz/last-run.log | tail -8 || true
if [ "$status" -ne 0 ]; then
    echo "fuzzer failed (exit $status); crashing inputs:"
    for file in "$artifacts"*; do
        [ -f "$file" ] || continue
        echo "== $file"
        od -A x -t x1z "$file" | head -40
    done
    exit 1
fi
