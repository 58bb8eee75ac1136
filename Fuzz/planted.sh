#!/usr/bin/env bash
# Shows that the plain `swift build -Xswiftc -sanitize=fuzzer` build finds a bug: copies the
# package to a scratch directory, plants a trap on a magic prefix ("!PLA") in the copy's
# harness, builds it with exactly that command, and fuzzes from the committed seeds for at
# most SECONDS (default 120). Exit 0 when libFuzzer reports the planted trap.
#   Fuzz/planted.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} cp --parents {} "$scratch"
harness="$scratch/Fuzz/Sources/ImageProbeFuzz/FuzzEntry.swift"
# The planted bug: the first statement of the fuzz callback traps on the magic prefix.
python3 - "$harness" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
marker = 'public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {\n'
assert marker in text
# The trap: an image (after the harness's two parameter bytes) that starts with "!PLA", as a
# parser's bug would hide behind a format signature.
planted = ('    if count >= 6, UnsafeRawPointer(start! + 2).loadUnaligned(as: UInt32.self) == 0x414C_5021 {\n'
           '        fatalError("the planted bug")\n'
           '    }\n')
open(path, "w").write(text.replace(marker, marker + planted))
PY
cd "$scratch"
swift build -Xswiftc -sanitize=fuzzer 2>&1 | tail -1

mkdir -p found
set +e
SWIFT_BACKTRACE=enable=no timeout $((seconds + 60)) .build/debug/ImageProbeFuzz found Fuzz/corpus \
    -max_total_time="$seconds" -max_len=8192 -artifact_prefix=found/crash- > fuzz.log 2>&1
status=$?
set -e
grep -E 'the planted bug|deadly signal|Test unit written|^#[0-9]+ +(INITED|DONE|NEW)' fuzz.log | grep -v NEW | head -8 || tail -20 fuzz.log
grep -E '^#[0-9]+' fuzz.log | tail -1
if grep -q 'the planted bug' fuzz.log; then
    echo "planted bug found (libFuzzer exit $status): $(ls found/crash-* | head -1 | xargs od -An -c | head -1)"
    exit 0
fi
echo "planted bug NOT found in $seconds s" >&2
exit 1
