#!/usr/bin/env bash
# Builds the C interface (Sources/CImageProbe/include/imageprobe.h) with the core, in Embedded
# Swift, with nothing but the Swift toolchain (swiftc, its clang and wasm-ld) and binutils
# (ar, objcopy), which Swift's Linux prerequisites include:
#   .build/c/libimageprobe.a, .build/c/libimageprobe.so, .build/c/include/imageprobe.h
#   .build/wasm/imageprobe.wasm (with Examples/js/imageprobe.mjs beside it)
#   .build/wasm/imageprobe-web.wasm: the same module with the web formats only (below)
#   Scripts/build-c.sh [c|wasm|wasm-web|all]      (default all: c, wasm and wasm-web)
#
# Build-time format selection (by default every format is in). A format left out is
# answered IMAGEPROBE_UNSUPPORTED, error "unsupportedFeature", reason formatLeftOutOfThisBuild,
# with the format it recognised in detected_format; nothing of its parser is in the build.
#   Scripts/build-c.sh wasm-web                   the formats marked web in formats.tsv: JPEG,
#                                                 PNG, GIF, WebP, AVIF, HEIF, JXL, SVG, BMP,
#                                                 ICO/CUR and TIFF → .build/wasm/imageprobe-web.wasm
#   IMAGEPROBE_FORMATS=jpeg,png Scripts/build-c.sh c|wasm
#                                                 those formats only, named as in
#                                                 Sources/ImageProbe/Registry/formats.tsv (and
#                                                 SPEC.md §3); `web` stands for the web set and
#                                                 may be mixed in (web,tga); `none` leaves every
#                                                 parser out. A format brings its parser, and so
#                                                 the other formats that parser reads (heif and
#                                                 avif, jp2 and j2k, ico and cur, pnm and pfm,
#                                                 ktx and ktx2), and the parsers it calls (tga
#                                                 brings aseprite, dcx pcx). The outputs are named after the
#                                                 selection, so the full library is never
#                                                 silently replaced: .build/c-jpeg-png/ (the
#                                                 same files as .build/c/) and
#                                                 .build/wasm/imageprobe-jpeg-png.wasm.
# The selection takes python3 (Scripts/registry.py turns it into -D flags). Every selection
# compiles: Scripts/check-selection.sh type-checks them (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
case $what in
    c|wasm|wasm-web|all) ;;
    *) echo "usage: Scripts/build-c.sh [c|wasm|wasm-web|all]  (IMAGEPROBE_FORMATS=jpeg,png for c and wasm)" >&2; exit 2 ;;
esac
bin=$(dirname "$(command -v swiftc)")
mapfile -t sources < <(find Sources/ImageProbe Sources/ImageProbeC -name '*.swift' | sort)
# One module: the core and the C functions together, so the whole program is optimised as one
# and nothing but the C symbols need be public.
common=(-enable-experimental-feature Embedded -wmo -parse-as-library
        -package-name ImageProbe -module-name ImageProbe -D IMAGEPROBE_C_SINGLE_MODULE
        -Xcc -fmodule-map-file=Sources/CImageProbe/include/module.modulemap -I Sources/CImageProbe/include)

# selection_flags SELECTION: the -D flags of a comma-separated selection (see above); exits on
# a name formats.tsv doesn't have, rather than quietly building without it.
selection_flags() {
    local table=Sources/ImageProbe/Registry/formats.tsv name names=() parts
    [ "$1" = web ] && { python3 Scripts/registry.py --web-flags; return; }
    IFS=, read -ra parts <<< "$1"
    for name in "${parts[@]}"; do
        case $name in
            none) ;;
            web) mapfile -t -O "${#names[@]}" names < <(awk -F'\t' '!/^#/ && $5 == "web" { print $2 }' "$table") ;;
            *)
                if ! awk -F'\t' -v name="$name" '!/^#/ && $2 == name { found = 1 } END { exit !found }' "$table"; then
                    echo "build-c.sh: no format named '$name' in $table; the names:" \
                        "$(awk -F'\t' '!/^#/ && NF > 1 { printf "%s ", $2 }' "$table")" >&2
                    exit 2
                fi
                names+=("$name") ;;
        esac
    done
    python3 Scripts/registry.py --flags "$(IFS=,; echo "${names[*]}")"
}

selection=${IMAGEPROBE_FORMATS:-}
selected=()   # the -D flags, empty for every format
suffix=""     # "-jpeg-png": the outputs' names
if [ -n "$selection" ]; then
    if [ "$what" = wasm-web ] || [ "$what" = all ]; then
        echo "build-c.sh: IMAGEPROBE_FORMATS is for the c and wasm targets (wasm-web has its own)" >&2
        exit 2
    fi
    flags=$(selection_flags "$selection")
    read -ra selected <<< "$flags"
    suffix="-${selection//,/-}"
fi

if [ "$what" = c ] || [ "$what" = all ]; then
    out=.build/c$suffix
    mkdir -p "$out/include"
    triple="$(uname -m)-unknown-linux-gnu"
    # Speed for the host library, size for the module a browser downloads. No stack protector:
    # the scanner has no arrays on the stack to protect, and it would need __stack_chk_fail.
    swiftc -target "$triple" "${common[@]}" ${selected[@]+"${selected[@]}"} -O -Xfrontend -disable-stack-protector \
        -c "${sources[@]}" -o "$out/swift.o"
    # The allocator and random source the runtime refers to (never called), made local below.
    "$bin/clang" -O2 -fPIC -fno-stack-protector -DIMAGEPROBE_EMBEDDED_LIBRARY -I Sources/CImageProbe/include \
        -c Sources/CImageProbe/library.c -o "$out/library.o"
    ld -r "$out/swift.o" "$out/library.o" -o "$out/imageprobe.o"
    # Only the C functions stay global, so the library can't clash with a program's own Swift.
    grep -oE '^[a-z0-9_]+ \*?imageprobe_[a-z_]+\(' Sources/CImageProbe/include/imageprobe.h | grep -oE 'imageprobe_[a-z_]+' > "$out/exports.txt"
    objcopy --keep-global-symbols="$out/exports.txt" "$out/imageprobe.o"
    rm -f "$out/libimageprobe.a"
    ar rcs "$out/libimageprobe.a" "$out/imageprobe.o"
    # Versioned from CHANGELOG.md's latest release: libimageprobe.so.MAJOR.MINOR.PATCH, with the
    # soname libimageprobe.so.MAJOR (libimageprobe.so.0.MINOR while the major is 0, as each
    # 0.x may change the ABI), and the usual links.
    version=$(grep -m1 -oE '^## [0-9]+\.[0-9]+\.[0-9]+' CHANGELOG.md | cut -c4-)
    IFS=. read -r major minor _ <<< "$version"
    soname="libimageprobe.so.$major"
    [ "$major" = 0 ] && soname="libimageprobe.so.0.$minor"
    rm -f "$out"/libimageprobe.so*
    "$bin/clang" -shared -Wl,-soname,"$soname" -o "$out/libimageprobe.so.$version" "$out/imageprobe.o"
    ln -sf "libimageprobe.so.$version" "$out/$soname"
    ln -sf "libimageprobe.so.$version" "$out/libimageprobe.so"
    cp Sources/CImageProbe/include/imageprobe.h "$out/include/"
    # What the header promises: from the C library, memset, memcpy, memmove and memcmp only (a
    # selection may need fewer of them).
    needed=$(nm -u "$out/libimageprobe.a" | awk '/ U /{print $2}' | sort -u | tr '\n' ' ')
    extra=$(tr ' ' '\n' <<< "$needed" | grep -vxE 'memcmp|memcpy|memmove|memset|' || true)
    if [ -n "$extra" ] || { [ -z "$selection" ] && [ "$needed" != "memcmp memcpy memmove memset " ]; }; then
        echo "$out/libimageprobe.a needs more than imageprobe.h says: $needed" >&2
        exit 1
    fi
    echo "$out/libimageprobe.a ($(stat -c %s "$out/libimageprobe.a") bytes), $out/libimageprobe.so, $out/include/imageprobe.h${selection:+ (formats: $selection)}"
fi

# build_wasm NAME FLAG...: .build/wasm/NAME.wasm, the core built with the flags given.
build_wasm() {
    local name=$1 out=.build/wasm exports=() export_name
    shift
    mkdir -p "$out"
    # Swift's optimised LLVM IR, then LLVM's size pipeline (clang -Oz) over it a second time
    # with its inliner at a threshold of 30: after wasm-opt, about 700 bytes less gzipped for
    # the web module and 350 for the full one than swiftc's object alone (BENCHMARKS.md).
    swiftc -target wasm32-unknown-none-wasm "${common[@]}" "$@" -Osize -Xfrontend -disable-stack-protector \
        -emit-ir "${sources[@]}" -o "$out/$name.ll"
    "$bin/clang" --target=wasm32-unknown-unknown -Oz -mllvm -inline-threshold=30 -Wno-override-module \
        -c "$out/$name.ll" -o "$out/$name.o"
    "$bin/clang" --target=wasm32-unknown-unknown -Os -nostdlib -fno-stack-protector \
        -I Sources/CImageProbe/include -c Sources/CImageProbe/wasm.c -o "$out/support.o"
    "$bin/clang" --target=wasm32-unknown-unknown -Os -nostdlib -fno-stack-protector -DIMAGEPROBE_EMBEDDED_LIBRARY \
        -I Sources/CImageProbe/include -c Sources/CImageProbe/library.c -o "$out/layout.o"
    # Every function of the header, and the layouts of its structs for the JavaScript.
    for export_name in $(grep -oE '^[a-z0-9_]+ \*?imageprobe_[a-z_]+\(' Sources/CImageProbe/include/imageprobe.h | grep -oE 'imageprobe_[a-z_]+'); do
        # The web module's runtimes fetch through the platform's own HTTP: they need neither
        # the socket drivers' HTTP reading nor the address rule (SPEC.md §7).
        if [ "$name" = imageprobe-web ]; then
            case $export_name in
                imageprobe_planner_wire|imageprobe_planner_wire_closed|imageprobe_planner_head_line|imageprobe_planner_drainable|imageprobe_address_*) continue ;;
            esac
        fi
        exports+=("--export=$export_name")
    done
    # The stack first, and 256 KiB of it: the URL planner keeps its texts in fixed buffers (a
    # 17 KiB value), and a stack that outgrew wasm-ld's default 64 KiB wrote over the static
    # data after it; first, an overflow traps instead of corrupting anything.
    "$bin/wasm-ld" --no-entry --gc-sections --strip-all "${exports[@]}" --export=__heap_base \
        -z stack-size=262144 --stack-first \
        --export-memory --initial-memory=1048576 -o "$out/$name.wasm" "$out/$name.o" "$out/support.o" "$out/layout.o"
    cp Examples/js/imageprobe.mjs "$out/"
    echo "$out/$name.wasm ($(stat -c %s "$out/$name.wasm") bytes, $(gzip -9c "$out/$name.wasm" | wc -c) gzipped)${selection:+ (formats: $selection)}"
}

if [ "$what" = wasm ] || [ "$what" = all ]; then
    build_wasm "imageprobe$suffix" ${selected[@]+"${selected[@]}"}
fi

if [ "$what" = wasm-web ] || [ "$what" = all ]; then
    read -ra web <<< "$(python3 Scripts/registry.py --web-flags)"
    selection=web build_wasm imageprobe-web "${web[@]}"
fi
