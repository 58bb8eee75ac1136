#!/usr/bin/env bash
# Installs and tests what Scripts/package.sh put in dist/, as each ecosystem's users would:
# - the command's tarball, unpacked and run with the Swift toolchain hidden (env -i, a PATH and
#   no library path into it): ldd shows no library from the toolchain; it probes the files and
#   a URL, and --public-only refuses loopback;
# - the C SDK, unpacked into a temporary prefix (then moved: it is relocatable):
#   Examples/c/probe.c built with pkg-config (dynamic and static) and with CMake's
#   find_package(imageprobe CONFIG REQUIRED) (shared and static), each printing exactly what
#   the command prints with --json, in full and dimensions-only modes;
# - the wheel: auditwheel accepts its manylinux tag; installed with pip in a fresh virtual
#   environment (no dependencies), bindings/python/tests run against the installed package:
#   every file in all three modes against the command, Scanner under every chunking,
#   probe_url against nginx (http, https) and hostile servers, public_only, probe_urls,
#   Examples/python/dask_probe.py on a LocalCluster of 2 workers, and imageprobe.sphinx
#   building Sphinx projects (each <img>'s width and height, the remote cache);
# - the sdist: built into a wheel by pip with the Swift toolchain (no IMAGEPROBE_LIBRARY),
#   which then installs and answers;
# - the npm tarballs: imageprobe and, under the peers' names (`image-size@file:...`, as npm's
#   alias installs them), @imageprobe/image-size and @imageprobe/probe-image-size, installed
#   offline into a scratch project, each answering every file as imageprobe does, and
#   @imageprobe/markdown-it, every file rendered as an image under a root, its width and height
#   those of probeSync (their full tests run in bindings/js/check.sh);
# - with ../shared/corpus: the package against imagesize_py 2.x, accuracy and speed.
# Installs what it needs (apt-get, pip). Run Scripts/package.sh first.
#   Scripts/check-packages.sh FILE_OR_DIR...      (CI: ../shared/corpus/files and imageprobe-examples' folder)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ $# -gt 0 ] || { echo "usage: Scripts/check-packages.sh FILE_OR_DIR..." >&2; exit 2; }
version=$(grep -m1 -oE '^## [0-9]+\.[0-9]+\.[0-9]+' CHANGELOG.md | cut -c4-)
IFS=. read -r major minor _ <<< "$version"
arch=$(uname -m)
sdk_tarball=dist/imageprobe-sdk-$version-linux-$arch.tar.gz
cli_tarball=dist/imageprobe-$version-linux-$arch.tar.gz
sdist=dist/pyimageprobe-$version.tar.gz
wheel=$(ls dist/pyimageprobe-"$version"-py3-none-*.whl 2>/dev/null | head -1 || true)
npm_imageprobe=dist/imageprobe-$version.tgz
npm_image_size=$(ls dist/imageprobe-image-size-2.*.tgz 2>/dev/null | head -1 || true)
npm_probe_image_size=$(ls dist/imageprobe-probe-image-size-7.*.tgz 2>/dev/null | head -1 || true)
npm_markdown_it=dist/imageprobe-markdown-it-$version.tgz
for artifact in "$sdk_tarball" "$cli_tarball" "$sdist" "$wheel" "$npm_imageprobe" "$npm_image_size" "$npm_probe_image_size" \
    "$npm_markdown_it"; do
    [ -n "$artifact" ] && [ -f "$artifact" ] || { echo "missing ${artifact:-the wheel}: run Scripts/package.sh first" >&2; exit 1; }
done
work=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
step() { printf '\n== %s\n' "$*"; }
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
# loads_sdk_library PROGRAM LIBDIR: the dynamic loader finds libimageprobe.so.MAJOR.MINOR in LIBDIR, compared
# as real paths (a temporary folder may sit behind a symbolic link); otherwise show why not.
loads_sdk_library() {
    local resolved
    resolved=$(env -u LD_LIBRARY_PATH ldd "$1" | awk -v soname="libimageprobe.so.$major.$minor" '$1 == soname { print $3 }')
    if [ -n "$resolved" ] && [ -e "$resolved" ] \
        && [ "$(realpath "$(dirname "$resolved")")" = "$(realpath "$2")" ]; then return 0; fi
    env -u LD_LIBRARY_PATH ldd "$1"
    readelf -d "$1" | grep -E 'NEEDED|RPATH|RUNPATH' || true
    return 1
}

step "packages"
packages=()
command -v cmake > /dev/null || packages+=(cmake)
command -v pkg-config > /dev/null || packages+=(pkgconf)
command -v cc > /dev/null || packages+=(gcc libc6-dev)
command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || packages+=(nginx-light)
command -v openssl > /dev/null || packages+=(openssl)
ldconfig -p | grep -q 'libcurl.so.4 ' || packages+=(libcurl4)
python3 -c 'import venv, ensurepip' 2> /dev/null || packages+=(python3-venv)
command -v node > /dev/null || packages+=(nodejs)
command -v npm > /dev/null || packages+=(npm)
[ -f /usr/share/nodejs/markdown-it/package.json ] || packages+=(node-markdown-it)
if [ ${#packages[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" > /dev/null
fi
python3 -m venv "$work/venv"
venv=$work/venv/bin
"$venv/pip" install -q --upgrade pip
# Test tools only: the package itself must come with no dependency.
"$venv/pip" install -q pytest auditwheel "dask[distributed,dataframe]" pandas pyarrow "imagesize==2.*" sphinx
# Absolute paths: the tests run from another folder.
for input in "$@"; do find "$(realpath "$input")" -type f; done | sort > "$work/files"
echo "$(wc -l < "$work/files") files; cmake $(cmake --version | head -1 | cut -d' ' -f3); $("$venv/python" --version)"

step "the command: the tarball, unpacked, with the toolchain hidden"
mkdir -p "$work/cli"
tar -xzf "$cli_tarball" -C "$work/cli" --strip-components=1
cli=$work/cli/bin/imageprobe
hidden=(env -i "PATH=/usr/bin:/bin" "HOME=$work" "LANG=C.UTF-8")
toolchain=
if command -v swiftc > /dev/null; then toolchain=$(cd "$(dirname "$(command -v swiftc)")/.." && pwd -P); fi
"${hidden[@]}" ldd "$cli" | tee "$work/ldd.txt"
if grep -q 'not found' "$work/ldd.txt"; then fail "a library of the command is not found"; fi
if grep -qiE 'swift|libdispatch|libFoundation|libBlocksRuntime|_FoundationICU' "$work/ldd.txt" \
   || { [ -n "$toolchain" ] && grep -qF "$toolchain" "$work/ldd.txt"; }; then
    fail "the command links a library from the Swift toolchain"
fi
"${hidden[@]}" "$cli" -V
for shell in bash zsh fish; do "${hidden[@]}" "$cli" --completion "$shell" > /dev/null; done
bash -n "$work/cli/share/bash-completion/completions/imageprobe" || fail "the bash completion doesn't parse"
[ -s "$work/cli/share/zsh/site-functions/_imageprobe" ] && [ -s "$work/cli/share/fish/vendor_completions.d/imageprobe.fish" ] \
    || fail "a completion script is missing"
grep -q '^\.TH' "$work/cli/share/man/man1/imageprobe.1" || fail "the man page is missing"
xargs -a "$work/files" -d '\n' "${hidden[@]}" "$cli" --json > "$work/cli.txt" 2> /dev/null || true
xargs -a "$work/files" -d '\n' "${hidden[@]}" "$cli" --json --dimensions-only > "$work/cli-dimensions.txt" 2> /dev/null || true
[ "$(wc -l < "$work/cli.txt")" = "$(wc -l < "$work/files")" ] || fail "the command didn't answer every file"
echo "$(grep -c '"format"' "$work/cli.txt") of $(wc -l < "$work/files") files are images"
# A URL: a file served over http on loopback (Python's server, no Range: the 200 path).
image=$(grep -m1 '"format":"png"' "$work/cli.txt" | sed -E 's/^\{"path":"([^"]*)".*/\1/' || true)
[ -n "$image" ] || image=$(head -1 "$work/files")
mkdir -p "$work/www" && cp "$image" "$work/www/image"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/www" > /dev/null 2>&1 &
server=$!
for _ in $(seq 50); do (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null && break; sleep 0.1; done
"${hidden[@]}" "$cli" --json "http://127.0.0.1:$port/image" | tee "$work/url.txt"
grep -q '"requests":' "$work/url.txt" && grep -q "$(grep -m1 -F "\"path\":\"$image\"" "$work/cli.txt" | grep -oE '"width":[0-9]+')" "$work/url.txt" \
    || fail "the command didn't probe the URL as it probes the file"
if "${hidden[@]}" "$cli" --json --public-only "http://127.1:$port/image" > "$work/refused.txt" 2>&1; then
    fail "--public-only probed loopback"
fi
grep -q forbiddenAddress "$work/refused.txt" || fail "--public-only didn't answer forbiddenAddress"
kill "$server"; server=

step "the C SDK: installed into a prefix, then moved (relocatable)"
prefix=$work/prefix
mkdir -p "$prefix"
tar -xzf "$sdk_tarball" -C "$prefix" --strip-components=1
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pkg-config --modversion imageprobe
[ "$(pkg-config --modversion imageprobe)" = "$version" ] || fail "pkg-config's version isn't $version"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -O2 Examples/c/probe.c $(pkg-config --cflags --libs imageprobe) \
    -Wl,-rpath,"$(pkg-config --variable=libdir imageprobe)" -o "$work/probe-pkg-config-shared"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -O2 Examples/c/probe.c $(pkg-config --cflags --libs imageprobe-static) \
    -o "$work/probe-pkg-config-static"
loads_sdk_library "$work/probe-pkg-config-shared" "$prefix/lib" \
    || fail "the pkg-config build doesn't load the SDK's libimageprobe.so"
if ldd "$work/probe-pkg-config-static" | grep -q libimageprobe; then fail "the static build needs libimageprobe.so"; fi
moved=$work/elsewhere/imageprobe
mkdir -p "$(dirname "$moved")"
mv "$prefix" "$moved"
unset PKG_CONFIG_PATH
for linkage in shared static; do
    static=OFF
    [ $linkage = static ] && static=ON
    cmake -S packaging/cmake-example -B "$work/cmake-$linkage" -DCMAKE_PREFIX_PATH="$moved" \
        -DIMAGEPROBE_VERSION="$major.$minor" -Dimageprobe_USE_STATIC_LIBS=$static -DCMAKE_BUILD_TYPE=Release > "$work/cmake.log" \
        || { cat "$work/cmake.log"; fail "cmake configure ($linkage)"; continue; }
    grep -E 'imageprobe [0-9]' "$work/cmake.log" || true
    cmake --build "$work/cmake-$linkage" > "$work/cmake-build.log" || { cat "$work/cmake-build.log"; fail "cmake build ($linkage)"; continue; }
    cp "$work/cmake-$linkage/probe" "$work/probe-cmake-$linkage"
done
loads_sdk_library "$work/probe-cmake-shared" "$moved/lib" \
    || fail "the CMake build doesn't load the SDK's libimageprobe.so"
if cmake -S packaging/cmake-example -B "$work/cmake-too-new" -DCMAKE_PREFIX_PATH="$moved" \
        -DIMAGEPROBE_VERSION=$((major + 1)).0 > /dev/null 2>&1; then
    fail "find_package accepted version $((major + 1)).0"
fi
# The pkg-config builds, moved with the SDK: the static one runs anywhere; the dynamic one
# finds the library through LD_LIBRARY_PATH now.
for program in pkg-config-shared pkg-config-static cmake-shared cmake-static; do
    for mode in full dimensions; do
        flags=()
        expected=$work/cli.txt
        if [ $mode = dimensions ]; then flags=(--dimensions-only); expected=$work/cli-dimensions.txt; fi
        xargs -a "$work/files" -d '\n' env LD_LIBRARY_PATH="$moved/lib" "$work/probe-$program" "${flags[@]}" \
            > "$work/out.txt" 2> "$work/err.txt" || true
        differing=$(diff "$expected" "$work/out.txt" | grep -c '^>' || true)
        echo "probe.c via $program, $mode: $(wc -l < "$work/out.txt") lines, $differing differ from imageprobe --json"
        if [ "$differing" != 0 ] || [ -s "$work/err.txt" ] || [ "$(wc -l < "$work/out.txt")" != "$(wc -l < "$expected")" ]; then
            diff "$expected" "$work/out.txt" | head -6
            head -5 "$work/err.txt"
            fail "probe.c via $program ($mode) differs from the command"
        fi
    done
done

step "Python: the wheel"
"$venv/auditwheel" show "$wheel" | tee "$work/auditwheel.txt"
tr '\n' ' ' < "$work/auditwheel.txt" | grep -qE 'consistent with the following platform tag: *"manylinux_2_17' \
    || fail "auditwheel doesn't accept the wheel as manylinux_2_17"
"$venv/pip" install -q "$wheel"
"$venv/pip" show pyimageprobe | tee "$work/show.txt" | grep -E '^(Name|Version|Requires):'
grep -qE '^Requires: *$' "$work/show.txt" || fail "the package has runtime dependencies"
files_joined=$(paste -sd: "$work/files")
# The extra-facts images, made by Pillow and ImageMagick (the JavaScript tests' script).
bindings/js/test/fixtures/make.sh "$root/bindings/python/tests/fixtures"
set +e
(cd "$work" && IMAGEPROBE_CLI="$cli" IMAGEPROBE_FILES="$files_joined" IMAGEPROBE_EXAMPLES="$root/Examples/python" \
    IMAGEPROBE_REQUIRE_INSTALLED=1 IMAGEPROBE_REQUIRE_ALL=1 \
    "$venv/python" -m pytest -p no:cacheprovider -q -rs "$root/bindings/python/tests")
status=$?
set -e
[ $status = 0 ] || fail "the Python tests (pytest exit $status)"

step "Python: the sdist builds the library with the Swift toolchain"
if command -v swiftc > /dev/null; then
    env -u IMAGEPROBE_LIBRARY "$venv/pip" wheel -q --no-deps "$sdist" -w "$work/from-sdist" > "$work/sdist.log" 2>&1 \
        || { tail -30 "$work/sdist.log"; fail "pip couldn't build the sdist"; }
    built=$(ls "$work"/from-sdist/pyimageprobe-*.whl 2> /dev/null | head -1 || true)
    if [ -n "$built" ]; then
        echo "built $(basename "$built")"
        python3 -m venv "$work/venv-sdist"
        "$work/venv-sdist/bin/pip" install -q "$built"
        first=$(head -1 "$work/files")
        (cd "$work" && "$work/venv-sdist/bin/python" -c 'import json, sys, imageprobe
answer = imageprobe.probe_file(sys.argv[1]).to_dict()
expected = json.loads(open(sys.argv[2]).readline())
expected.pop("path")
same = {k: v for k, v in answer.items() if v is not None} == {k: v for k, v in expected.items() if v is not None}
print("from the sdist:", answer)
sys.exit(0 if same else 1)' "$first" "$work/cli.txt") || fail "the wheel built from the sdist answers differently"
    fi
else
    echo "no Swift toolchain: skipped"
fi

step "npm: imageprobe, and the drop-ins installed offline as image-size and probe-image-size"
mkdir -p "$work/npm"
echo '{ "name": "scratch", "private": true }' > "$work/npm/package.json"
(cd "$work/npm" && npm install --offline --no-audit --no-fund --silent "$root/$npm_imageprobe" \
    "image-size@file:$root/$npm_image_size" "probe-image-size@file:$root/$npm_probe_image_size") || fail "npm couldn't install the tarballs"
(cd "$work/npm" && node - "$work/files" <<'JS') || fail "the npm packages answer differently"
const { readFileSync } = require('node:fs');
const { probeSync } = require('imageprobe');
const { imageSize } = require('image-size');
const probe = require('probe-image-size');
for (const name of ['image-size', 'probe-image-size']) console.log(`${name}: ${require(`${name}/package.json`).name}`);
let images = 0, differ = 0;
for (const path of readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean)) {
  const bytes = readFileSync(path);
  let info = null;
  try { info = probeSync(bytes); } catch { /* not an image */ }
  let size = null;
  try { size = imageSize(bytes); } catch { /* not an image */ }
  const result = probe.sync(bytes);
  // An SVG that ends inside its start tag: partial for imageprobe, no image for the peers.
  if (info && info.format === 'svg' && info.partialReason === 'truncated') info = null;
  if (!info) {
    if (size || result) { differ++; console.log(`answered, not an image: ${path}`); }
    continue;
  }
  images++;
  const heif = info.format === 'heif' || info.format === 'avif';
  const turned = (info.orientation ?? 0) >= 5;
  const expected = heif ? (turned ? [info.displayHeight, info.displayWidth] : [info.displayWidth, info.displayHeight]) : [info.width, info.height];
  const svg = info.format === 'svg';
  if (!size || size.width !== expected[0] || size.height !== expected[1] ||
      !result || (!svg && (result.width !== info.width || result.height !== info.height))) {
    differ++;
    console.log(`differs: ${path}`, info.width, info.height, size, result);
  }
}
console.log(`${images} images: image-size and probe-image-size answer as imageprobe on ${images - differ}`);
process.exit(differ ? 1 : 0);
JS

step "npm: @imageprobe/markdown-it installed offline beside imageprobe, every image's <img> sized"
# --legacy-peer-deps: npm would fetch the peer, markdown-it, from the registry; the user's own
# copy (here Debian's node-markdown-it) is linked in instead.
(cd "$work/npm" && npm install --offline --no-audit --no-fund --silent --legacy-peer-deps "$root/$npm_imageprobe" \
    "$root/$npm_markdown_it") || fail "npm couldn't install the markdown-it plugin's tarball"
ln -sfn /usr/share/nodejs/markdown-it "$work/npm/node_modules/markdown-it"
(cd "$work/npm" && node --input-type=module - "$work/files" <<'JS') || fail "the markdown-it plugin sizes an image differently"
import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import MarkdownIt from 'markdown-it';
import imageSize from '@imageprobe/markdown-it';
import { probeSync } from 'imageprobe';
const files = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
// The deepest folder holding every file: '/' when they come from two trees (dirname('/') is '/').
const within = (folder, path) => folder === '/' || path.startsWith(folder + '/');
const root = files.reduce((common, path) => { while (!within(common, path)) common = dirname(common); return common; }, dirname(files[0]));
const md = new MarkdownIt().use(imageSize, { root, onWarning: () => {} });
let sized = 0, bad = 0;
for (const path of files) {
  let info = null;
  try { info = probeSync(readFileSync(path)); } catch { /* not an image: left alone */ }
  const src = '/' + relative(root, path).split('/').map(encodeURIComponent).join('/');
  const html = md.render(`![x](<${src}>)`);
  const found = /width="(\d+)" height="(\d+)"/.exec(html);
  // A size of 0 (an SVG without one) is left alone, as markdown-it writes the tag.
  const expected = info && info.displayWidth > 0 && info.displayHeight > 0 ? [info.displayWidth, info.displayHeight] : null;
  if (JSON.stringify(found ? [Number(found[1]), Number(found[2])] : null) !== JSON.stringify(expected)) {
    bad++;
    if (bad <= 10) console.log(`differs: ${path}: ${html.trim()} expected ${expected}`);
  }
  if (found) sized++;
}
console.log(`@imageprobe/markdown-it: ${files.length} files rendered, ${sized} <img> sized, ${bad} differ from probeSync`);
process.exit(bad ? 1 : 0);
JS

step "the URL cache: what Python's URLCache writes, JavaScript reads, and the other way round"
# The same entries on disk (SPEC.md §6.7), through Python's http.server (If-Modified-Since, no
# Range: whole-file 200s the planner stops reading).
mkdir -p "$work/served"
head -40 "$work/files" | while read -r path; do cp "$path" "$work/served/"; done
port=$("$venv/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$venv/python" -m http.server --bind 127.0.0.1 --directory "$work/served" "$port" > /dev/null 2>&1 &
server=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
ls "$work/served" | sed "s|^|http://127.0.0.1:$port/|" > "$work/cache-urls"
cat > "$work/cache.py" <<'PY'
import json, sys
import imageprobe
urls = open(sys.argv[2]).read().split()
print(json.dumps([r.to_dict() for r in imageprobe.probe_urls(urls, jobs=8, cache=sys.argv[1])]))
PY
cat > "$work/npm/cache.mjs" <<'JS'
import { readFileSync } from 'node:fs';
import { probeURL } from 'imageprobe';
const urls = readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean);
const results = [];
for (const url of urls) {
  try {
    const { url: _final, ...info } = await probeURL(url, { cache: process.argv[2] });
    results.push(info);
  } catch (error) { results.push({ error: error.code }); }
}
console.log(JSON.stringify(results));
JS
cat > "$work/cache-compare.py" <<'PY'
import json, sys
writer, reader = (json.load(open(path)) for path in sys.argv[1:3])
drop = ("bytesTransferred", "requests", "fromCache", "bytesRead", "bytesSkipped")
same = lambda a: {k: v for k, v in a.items() if k not in drop and v is not None and not (k == "partial" and v is False)}
stored = [w for w in writer if w.get("fromCache") is False and not w.get("partial")]
assert stored, "nothing was stored"
for w, r in zip(writer, reader):
    if w.get("fromCache") is False and not w.get("partial"):
        assert r.get("fromCache") is True and r.get("requests") == 0, (w, r)
        assert same(w) == same(r), (w, r)
print(f"{len(stored)} answers written by {sys.argv[3]}, read back from the cache by {sys.argv[4]}, equal")
PY
"$venv/python" "$work/cache.py" "$work/cache-a" "$work/cache-urls" > "$work/python-writes.json" \
    && (cd "$work/npm" && node cache.mjs "$work/cache-a" "$work/cache-urls") > "$work/node-reads.json" \
    && "$venv/python" "$work/cache-compare.py" "$work/python-writes.json" "$work/node-reads.json" Python JavaScript \
    || fail "JavaScript doesn't read what Python's URLCache wrote"
(cd "$work/npm" && node cache.mjs "$work/cache-b" "$work/cache-urls") > "$work/node-writes.json" \
    && "$venv/python" "$work/cache.py" "$work/cache-b" "$work/cache-urls" > "$work/python-reads.json" \
    && "$venv/python" "$work/cache-compare.py" "$work/node-writes.json" "$work/python-reads.json" JavaScript Python \
    || fail "Python doesn't read what JavaScript's cache wrote"
kill "$server" 2>/dev/null; server=

if [ -f ../shared/corpus/manifest.jsonl ]; then
    step "Python: against imagesize_py 2.x on ../shared/corpus (accuracy, probes per second)"
    (cd "$work" && "$venv/python" "$root/bindings/python/benchmarks/compare_imagesize.py" "$root/../shared/corpus" --rounds 3) \
        || fail "the comparison with imagesize_py"
fi

step "packages: $([ $failed = 0 ] && echo ok || echo FAILED)"
exit $failed
