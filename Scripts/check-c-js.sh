#!/usr/bin/env bash
# Builds the C library and the WebAssembly module (Scripts/build-c.sh), then checks them against
# the command on every file given (directories are walked):
# - Examples/c/probe.c, compiled with -Wall -Wextra -Werror against the static library and run
#   under AddressSanitizer, prints exactly what `imageprobe --json` prints, in full and
#   dimensions-only modes;
# - Examples/js/probe.mjs in Node prints the same;
# - Tests/c/contract.c checks the streaming contract through the C interface (ASan, UBSan);
# - Tests/c/planner.c drives the range planner against simulated servers (ASan, UBSan);
# - Examples/js/test.mjs streams each file through probeStream in 1-byte and seeded random
#   chunks and checks the answer and that the stream was cancelled right after it.
#   Scripts/check-c-js.sh IMAGEPROBE PATH...
set -euo pipefail
cd "$(dirname "$0")/.."
imageprobe=$1
shift
Scripts/build-c.sh all
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$@" -type f | sort > "$work/files"
echo "$(wc -l < "$work/files") files"

cc -Wall -Wextra -Werror -std=c11 -fsanitize=address,undefined -fno-omit-frame-pointer -g \
    -I .build/c/include Examples/c/probe.c .build/c/libimageprobe.a -o "$work/probe"
# The static library alone, without ASan, links too (and the shared one loads).
cc -Wall -Wextra -Werror -std=c11 -O2 -I .build/c/include Examples/c/probe.c .build/c/libimageprobe.a -o "$work/probe-static"
cc -Wall -Wextra -Werror -std=c11 -O2 -I .build/c/include Examples/c/probe.c -L .build/c -limageprobe -o "$work/probe-shared"

failed=0
# The contract through the C interface: whole, in pieces, at every split, prefixes, sticky.
cc -Wall -Wextra -Werror -std=c11 -fsanitize=address,undefined -g -I .build/c/include \
    Tests/c/contract.c .build/c/libimageprobe.a -o "$work/contract"
if ! xargs -a "$work/files" -d '\n' env ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 "$work/contract" > "$work/contract.txt"; then
    failed=1
fi
grep -E 'FAIL|checks' "$work/contract.txt" | head -20
# The range planner through the C interface, against simulated servers (ASan, UBSan).
cc -Wall -Wextra -Werror -std=c11 -fsanitize=address,undefined -g -I .build/c/include \
    Tests/c/planner.c .build/c/libimageprobe.a -o "$work/planner"
if ! xargs -a "$work/files" -d '\n' env ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 "$work/planner" > "$work/planner.txt"; then
    failed=1
fi
grep -E 'FAIL|checks' "$work/planner.txt" | head -20

for mode in "" "--dimensions-only"; do
    xargs -a "$work/files" -d '\n' "$imageprobe" --json $mode > "$work/cli.txt" || true
    for program in c js c-static c-shared; do
        case $program in
            c) xargs -a "$work/files" -d '\n' env ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 "$work/probe" $mode > "$work/out.txt" 2> "$work/err.txt" || true ;;
            c-static) xargs -a "$work/files" -d '\n' "$work/probe-static" $mode > "$work/out.txt" 2> "$work/err.txt" || true ;;
            c-shared) xargs -a "$work/files" -d '\n' env LD_LIBRARY_PATH=.build/c "$work/probe-shared" $mode > "$work/out.txt" 2> "$work/err.txt" || true ;;
            js) xargs -a "$work/files" -d '\n' node Examples/js/probe.mjs $mode > "$work/out.txt" 2> "$work/err.txt" || true ;;
        esac
        if [ -s "$work/err.txt" ]; then
            echo "$program ${mode:-full}: errors:"; head -20 "$work/err.txt"; failed=1
        fi
        differing=$(diff "$work/cli.txt" "$work/out.txt" | grep -c '^>' || true)
        echo "$program ${mode:-full}: $(wc -l < "$work/out.txt") lines, $differing differ from imageprobe --json"
        if [ "$differing" != 0 ] || [ "$(wc -l < "$work/out.txt")" != "$(wc -l < "$work/cli.txt")" ]; then
            diff "$work/cli.txt" "$work/out.txt" | head -6
            failed=1
        fi
    done
done
xargs -a "$work/files" -d '\n' node Examples/js/test.mjs || failed=1
exit $failed
