#!/usr/bin/env bash
# Lays out image-size 2.x and probe-image-size 7.x from their public sources in a scratch
# directory, for bench/peers.mjs (nothing of theirs is committed here). The sources come as git
# directories (for example the search tool's `fetch github:image-size/image-size`,
# `github:nodeca/probe-image-size` and `github:TooTallNate/node-stream-parser`, probe-image-size's
# stream dependency). image-size is TypeScript: compiled with Debian's tsc. probe-image-size's
# other dependencies (debug, and lodash.merge and needle, used only by its HTTP probe) are
# replaced by stubs: the benchmark doesn't use its HTTP probe.
#   bench/peers-setup.sh OUT IMAGE_SIZE_GIT PROBE_IMAGE_SIZE_GIT STREAM_PARSER_GIT
set -euo pipefail
out=$1
rm -rf "$out" && mkdir -p "$out/image-size" "$out/node_modules/probe-image-size" "$out/node_modules/stream-parser" \
    "$out/node_modules/debug" "$out/node_modules/lodash.merge" "$out/node_modules/needle"
git -C "$2" archive HEAD lib package.json | tar -x -C "$out/image-size"
git -C "$3" archive HEAD | tar -x -C "$out/node_modules/probe-image-size"
git -C "$4" archive HEAD | tar -x -C "$out/node_modules/stream-parser"
# tsc reports the missing @types/node; it emits the JavaScript all the same.
(cd "$out/image-size" && tsc --outDir out --module commonjs --target es2020 --skipLibCheck lib/index.ts lib/fromFile.ts >/dev/null || true)
[ -f "$out/image-size/out/index.js" ] || { echo "image-size did not compile" >&2; exit 1; }
echo 'module.exports = () => Object.assign(() => {}, { enabled: false });' > "$out/node_modules/debug/index.js"
echo 'module.exports = (target, ...sources) => Object.assign(target, ...sources);' > "$out/node_modules/lodash.merge/index.js"
echo 'module.exports = () => { throw new Error("needle is stubbed: the HTTP probe is not benchmarked"); };' > "$out/node_modules/needle/index.js"
echo "image-size $(node -p "require('$out/image-size/package.json').version"), probe-image-size $(node -p "require('$out/node_modules/probe-image-size/package.json').version") in $out"
