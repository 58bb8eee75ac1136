#!/usr/bin/env bash
# The peers' own test suites against our stand-ins, installed as their users install them:
#   - image-size 2.x's specs (valid, invalid, others, fs-close) against @imageprobe/image-size:
#     `npm pack`, then `npm install --offline image-size@file:...tgz` (the alias by a route that
#     needs no registry); the specs import ../lib/*, which here re-exports the installed
#     `image-size` (peer-suites/image-size-lib.cjs); their TypeScript is turned into JavaScript
#     by Debian's node-typescript, and `glob` is a small stand-in (peer-suites/glob.cjs);
#   - probe-image-size 7.x's tests (formats, stream, sync, http against its own local server)
#     against @imageprobe/probe-image-size, installed likewise as `probe-image-size`; its tests
#     require('../'), here a file re-exporting the installed package, and ../lib/common for one
#     fixture helper (peer-suites/probe-image-size-common.cjs);
#   - imagesize_py 2.x's tests against the wheel in dist/ (Scripts/package.sh python) in a fresh
#     virtual environment with pytest, where a module named `imagesize` is imageprobe.compat
#     (peer-suites/imagesize.py): `import imageprobe.compat as imagesize`.
# Each DIR is a checkout of the peer; nothing of theirs is copied into this repository. The
# suites that test a peer's internal modules (image-size's utils and bit-reader specs,
# probe-image-size's test_common.js and test_exif.js: byte readers, its EXIF parser) are not
# run: a stand-in has no such modules. A failing test is a deliberate difference when
# peer-suites/differences.txt lists it (each with why; the package READMEs say the same); the
# exit status is 1 when any other test fails.
#   Scripts/peer-suites.sh [--compat] [--image-size DIR] [--probe-image-size DIR] [--imagesize-py DIR]
#   --compat: image-size's specs against imageprobe's own `imageprobe/compat` entry instead
# Needs node and npm, node-typescript (Debian), python3 with venv, and PyPI for pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
support=$root/Scripts/peer-suites
image_size= probe_image_size= imagesize_py= compat=0
usage="usage: Scripts/peer-suites.sh [--compat] [--image-size DIR] [--probe-image-size DIR] [--imagesize-py DIR]"
while [ $# -gt 0 ]; do
    case $1 in
        --image-size) image_size=$(realpath "$2"); shift 2 ;;
        --probe-image-size) probe_image_size=$(realpath "$2"); shift 2 ;;
        --imagesize-py) imagesize_py=$(realpath "$2"); shift 2 ;;
        --compat) compat=1; shift ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
[ -n "$image_size$probe_image_size$imagesize_py" ] || { echo "$usage" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unexpected=0
summary=()

# Counts a suite's results ("pass|fail<TAB>test path" lines): each failure is a deliberate
# difference when differences.txt lists "SUITE | test path | why", else a failure.
count() {  # count SUITE RESULTS LABEL
    local suite=$1 results=$2 label=$3 pass fail listed deliberate=0 other=0
    pass=$(grep -c '^pass' "$results" || true)
    fail=$(grep -c '^fail' "$results" || true)
    listed=$( (grep -v '^#' "$support/differences.txt" || true) | awk -F' [|] ' -v s="$suite" '$1 == s { print $2 }')
    while IFS= read -r name; do
        if grep -qxF -- "$name" <<< "$listed"; then
            deliberate=$((deliberate + 1)); echo "  deliberate difference: $name"
        else
            other=$((other + 1)); echo "  FAILED: $name"
        fi
    done < <(grep '^fail' "$results" | cut -f2-)
    summary+=("$label: $pass of $((pass + fail)) pass; $deliberate failing as deliberate differences; $other other failures")
    [ "$other" = 0 ] || unexpected=1
    # No result at all is the runner failing (node or pytest didn't start): its log says why.
    if [ $((pass + fail)) = 0 ]; then tail -20 "$results.log" 2> /dev/null || true; unexpected=1; fi
}

# Runs node --test on FILES in FOLDER, results to OUT (peer-suites/reporter.mjs's lines).
node_suite() {  # node_suite FOLDER OUT FILES...
    local folder=$1 out=$2
    shift 2
    (cd "$folder" && node --test --test-concurrency=1 --test-reporter="$support/reporter.mjs" --test-reporter-destination="$out" \
        "$@" > "$out.log" 2>&1) || true
}

pack() {  # pack FOLDER: npm pack into $work, prints the tarball's path
    (cd "$1" && npm pack --silent --pack-destination "$work" 2> "$work/pack.log" | tail -1 | sed "s|^|$work/|") \
        || { cat "$work/pack.log" >&2; exit 1; }
}

if [ -n "$image_size" ]; then
    version=$(node -p "require('$image_size/package.json').version")
    echo "== image-size $version's specs"
    project=$work/image-size
    mkdir -p "$project/lib"
    echo '{ "name": "scratch", "private": true }' > "$project/package.json"
    if [ $compat = 1 ]; then
        spec=$(pack bindings/js)
        target=imageprobe/compat
    else
        spec=image-size@file:$(pack bindings/image-size)
        target=image-size
    fi
    (cd "$project" && npm install --offline --no-audit --no-fund --silent "$spec")
    mkdir -p "$project/node_modules/glob"
    cp -R "$image_size/specs" "$project/specs"
    for name in index fromFile detector; do cp "$support/image-size-lib.cjs" "$project/lib/$name.js"; done
    cp "$support/glob.cjs" "$project/node_modules/glob/index.js"
    node "$support/transpile.cjs" "$project"/specs/{valid,invalid,others,fs-close}.spec.ts
    PEER_TARGET=$target node_suite "$project" "$work/image-size.txt" specs/{valid,invalid,others,fs-close}.spec.js
    label="image-size $version specs (valid, invalid, others, fs-close)"
    [ $compat = 1 ] && label="$label against imageprobe/compat"
    count image-size "$work/image-size.txt" "$label"
fi

if [ -n "$probe_image_size" ]; then
    version=$(node -p "require('$probe_image_size/package.json').version")
    echo "== probe-image-size $version's tests"
    project=$work/probe-image-size
    mkdir -p "$project/lib"
    echo '{ "name": "scratch", "private": true, "main": "index.js" }' > "$project/package.json"
    spec=probe-image-size@file:$(pack bindings/probe-image-size)
    (cd "$project" && npm install --offline --no-audit --no-fund --silent "$spec")
    echo "module.exports = require('probe-image-size');" > "$project/index.js"
    cp "$support/probe-image-size-common.cjs" "$project/lib/common.js"
    cp -R "$probe_image_size/test" "$project/test"
    node_suite "$project" "$work/probe-image-size.txt" test/test_{formats,stream,sync,http}.js
    count probe-image-size "$work/probe-image-size.txt" "probe-image-size $version tests (formats, stream, sync, http)"
fi

if [ -n "$imagesize_py" ]; then
    version=$(sed -nE 's/^__version__ = "(.*)"/\1/p' "$imagesize_py/imagesize/__init__.py")
    echo "== imagesize_py $version's tests"
    wheel=$(ls -t dist/pyimageprobe-*-py3-none-*.whl 2> /dev/null | head -1 || true)
    [ -n "$wheel" ] || { echo "no wheel in dist/: run Scripts/package.sh python first" >&2; exit 1; }
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install -q pytest
    "$work/venv/bin/pip" install -q --no-deps "$wheel"
    site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    cp "$support/imagesize.py" "$site/imagesize.py"
    mkdir -p "$work/imagesize_py"
    cp -R "$imagesize_py/test" "$work/imagesize_py/test"
    (cd "$work/imagesize_py" && "$work/venv/bin/python" -m pytest -p no:cacheprovider -q -rA test > "$work/imagesize_py.txt.log" 2>&1) || true
    # pytest -rA: "PASSED test/x.py::Class::test" and "FAILED test/x.py::test - why" lines.
    sed -nE 's/^PASSED (.*)$/pass\t\1/p; s/^FAILED ([^ ]*)( - .*)?$/fail\t\1/p; s/^ERROR ([^ ]*)( - .*)?$/fail\t\1/p' \
        "$work/imagesize_py.txt.log" > "$work/imagesize_py.txt"
    tail -1 "$work/imagesize_py.txt.log"
    count imagesize_py "$work/imagesize_py.txt" "imagesize_py $version tests, with $(basename "$wheel")"
fi

echo
printf '%s\n' "${summary[@]}"
exit $unexpected
