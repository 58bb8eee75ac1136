#!/usr/bin/env bash
# Builds the documentation of the three library products with the toolchain's own tools, no
# plugin package and no network: `swift package dump-symbol-graph` for the symbols, then
# `docc convert` per catalog (Sources/<Module>/<Module>.docc). Fails on an undocumented public
# symbol (Scripts/undocumented.py) and on any DocC warning, a broken link included.
#   Scripts/docs.sh [OUTPUT_DIR]      (default .build/docs; one .doccarchive per module)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs}
modules=(ImageProbe ImageProbeFoundation ImageProbeFetch)

swift package dump-symbol-graph --minimum-access-level public > /dev/null
graphs=$(dirname "$(find .build -name 'ImageProbe.symbols.json' -path '*symbolgraph*' -newer Package.swift | head -n 1)")
python3 Scripts/undocumented.py "$graphs" "${modules[@]}"

docc=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
mkdir -p "$out"
for module in "${modules[@]}"; do
    staging=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$staging/"
    # The module's extensions to the others' types (ImageInfo(contentsOfFile:) in Foundation's).
    find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$staging/" \;
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$staging" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.imageprobe.$module" \
        --output-path "$out/$module.doccarchive" \
        --transform-for-static-hosting --hosting-base-path "$module" \
        --warnings-as-errors
    rm -rf "$staging"
    echo "$module: $out/$module.doccarchive"
done
