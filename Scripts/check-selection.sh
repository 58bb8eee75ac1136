#!/usr/bin/env bash
# Build-time format selection (Scripts/build-c.sh wasm-web, IMAGEPROBE_FORMATS): every selection
# must compile. Type-checks the core with the C functions, with the flags Scripts/build-c.sh
# builds them with, under
#   - every format (no selection flag) and every parser's flag with IMAGEPROBE_SELECT_FORMATS;
#   - IMAGEPROBE_SELECT_FORMATS and no parser;
#   - each parser alone (one per parser in Sources/ImageProbe/Registry/formats.tsv);
#   - the web set (registry.py --web-flags) and JPEG + PNG;
#   - with --thorough, also every parser but one, for each parser;
# and checks that every file of a parser in Sources/ImageProbe/Formats/ (one that declares or
# extends it, or any file in the parser's own folder there) opens with the parser's guard,
#   #if !(IMAGEPROBE_SELECT_FORMATS && !IMAGEPROBE_WITH_<PARSER>)
# (Scripts/registry.py's `excluded`) and closes with `#endif`, so that a left-out parser is not
# compiled at all. Code two parsers share, or the sniffer needs, goes in a file of its own with
# no guard (Formats/ or Readers/) and raises CommonFailure reasons, whose messages don't depend
# on a parser being in the build. One swiftc at a time, about 1.5 s each: a minute in all (two
# with --thorough). Ends with "N passed, N failed"; exit 1 on any failure, with its errors.
#   Scripts/check-selection.sh [--thorough] [--target TRIPLE]   (default wasm32-unknown-none-wasm)
set -euo pipefail
cd "$(dirname "$0")/.."
thorough=0
target=wasm32-unknown-none-wasm
while [ $# -gt 0 ]; do
    case $1 in
        --thorough) thorough=1 ;;
        --target) target=$2; shift ;;
        *) echo "usage: Scripts/check-selection.sh [--thorough] [--target TRIPLE]" >&2; exit 2 ;;
    esac
    shift
done
table=Sources/ImageProbe/Registry/formats.tsv
mapfile -t sources < <(find Sources/ImageProbe Sources/ImageProbeC -name '*.swift' | sort)
# As Scripts/build-c.sh compiles them: one module, the core and the C functions.
common=(-enable-experimental-feature Embedded -wmo -parse-as-library
        -package-name ImageProbe -module-name ImageProbe -D IMAGEPROBE_C_SINGLE_MODULE
        -Xcc -fmodule-map-file=Sources/CImageProbe/include/module.modulemap -I Sources/CImageProbe/include)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
failures=()

# Each parser with the first format it reads: "JPEGParser jpeg", in table order.
mapfile -t parsers < <(awk -F'\t' '!/^#/ && NF > 1 && !seen[$3]++ { print $3, $2 }' "$table")

# The guards: a file of Sources/ImageProbe/Formats that declares or extends a parser at the top
# level belongs to it, and so does every file in a folder of Formats/ whose files do (Formats/JXL/
# is JXL's); such a file opens with the parser's guard and closes with `#endif`. A file directly
# in Formats/ that declares no parser is shared (as are Sources/ImageProbe/Readers/), and has none.
declare -A guard_of
for entry in "${parsers[@]}"; do
    read -r parser format <<< "$entry"
    flag=$(python3 Scripts/registry.py --flags "$format" | awk '{ print $NF }')
    guard_of[$parser]="#if !(IMAGEPROBE_SELECT_FORMATS && !$flag)"
    if ! grep -rqE "^(@[A-Za-z_]+ )*(public |package )?struct $parser\b" Sources/ImageProbe/Formats; then
        echo "FAIL guard: no file in Sources/ImageProbe/Formats declares $parser"
        failed=$((failed + 1)); failures+=("guard $parser")
    fi
done
# owners FILE...: the registry's parsers the files declare or extend at the top level.
owners() {
    grep -hoE "^(@[A-Za-z_]+ )*(public |package )?(struct|extension) [A-Za-z0-9]+Parser\b" "$@" \
        | awk '{ print $NF }' | sort -u | while read -r name; do [ -n "${guard_of[$name]:-}" ] && echo "$name"; done
}
while IFS= read -r file; do
    folder=$(dirname "$file")
    if [ "$folder" = Sources/ImageProbe/Formats ]; then
        mapfile -t owner < <(owners "$file")
    else
        mapfile -t owner < <(owners "$folder"/*.swift)
    fi
    [ ${#owner[@]} = 0 ] && continue
    if [ ${#owner[@]} -gt 1 ]; then
        echo "FAIL guard: $file belongs to several parsers (${owner[*]}): one file or folder, one parser"
        failed=$((failed + 1)); failures+=("guard $file"); continue
    fi
    guard=${guard_of[${owner[0]}]}
    if [ "$(head -n1 "$file")" != "$guard" ] || [ "$(tail -n1 "$file")" != "#endif" ]; then
        echo "FAIL guard: $file must open with '$guard' and close with '#endif'"
        failed=$((failed + 1)); failures+=("guard $file")
    else
        passed=$((passed + 1))
    fi
done < <(find Sources/ImageProbe/Formats -name '*.swift' | sort)

# check NAME FLAG...: type-checks with the flags, counts and reports.
check() {
    local name=$1
    shift
    if swiftc -typecheck -target "$target" "${common[@]}" "$@" "${sources[@]}" > "$work/out.txt" 2>&1; then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed=$((failed + 1)); failures+=("$name")
        echo "FAIL $name ($*)"
        grep -E 'error:' "$work/out.txt" | grep -vE '^\s*\|' | sort -u | head -8 | sed 's/^/     /'
    fi
}

flags_of() { read -ra flags <<< "$(python3 Scripts/registry.py --flags "$1")"; }

check "every format"
every=$(awk -F'\t' '!/^#/ && NF > 1 { printf "%s%s", sep, $2; sep = "," }' "$table")
flags_of "$every"
check "every parser, selected" "${flags[@]}"
check "no parser" -D IMAGEPROBE_SELECT_FORMATS
for entry in "${parsers[@]}"; do
    read -r parser format <<< "$entry"
    flags_of "$format"
    check "$parser alone" "${flags[@]}"
done
read -ra flags <<< "$(python3 Scripts/registry.py --web-flags)"
check "web" "${flags[@]}"
flags_of jpeg,png
check "jpeg,png" "${flags[@]}"
if [ "$thorough" = 1 ]; then
    for entry in "${parsers[@]}"; do
        read -r parser format <<< "$entry"
        others=$(awk -F'\t' -v parser="$parser" '!/^#/ && NF > 1 && $3 != parser { printf "%s%s", sep, $2; sep = "," }' "$table")
        flags_of "$others"
        check "every parser but $parser" "${flags[@]}"
    done
fi

echo
if [ "$failed" -gt 0 ]; then
    echo "format selection: failing: ${failures[*]}"
fi
echo "selection: $passed passed, $failed failed"
[ "$failed" = 0 ]
