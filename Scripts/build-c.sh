#!/usr/bin/env bash
# Builds the C interface (Sources/CImageProbe/include/imageprobe.h) with the core, in Embedded
# Swift, with nothing but the Swift toolchain (swiftc, its clang and wasm-ld) and binutils
# (ar, objcopy), which Swift's Linux prerequisites include:
#   .build/c/libimageprobe.a, .build/c/libimageprobe.so, .build/c/include/imageprobe.h
#   .build/wasm/imageprobe.wasm (with Examples/js/imageprobe.mjs beside it)
#   Scripts/build-c.sh [c|wasm|all]      (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
bin=$(dirname "$(command -v swiftc)")
mapfile -t sources < <(find Sources/ImageProbe Sources/ImageProbeC -name '*.swift' | sort)
# One module: the core and the C functions together, so the whole program is optimised as one
# and nothing but the C symbols need be public.
common=(-enable-experimental-feature Embedded -wmo -parse-as-library
        -package-name ImageProbe -module-name ImageProbe -D IMAGEPROBE_C_SINGLE_MODULE
        -Xcc -fmodule-map-file=Sources/CImageProbe/include/module.modulemap -I Sources/CImageProbe/include)

if [ "$what" = c ] || [ "$what" = all ]; then
    out=.build/c
    mkdir -p "$out/include"
    triple="$(uname -m)-unknown-linux-gnu"
    # Speed for the host library, size for the module a browser downloads. No stack protector:
    # the scanner has no arrays on the stack to protect, and it would need __stack_chk_fail.
    swiftc -target "$triple" "${common[@]}" -O -Xfrontend -disable-stack-protector -c "${sources[@]}" -o "$out/swift.o"
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
    # What the header promises: from the C library, memset, memcpy, memmove and memcmp only.
    needed=$(nm -u "$out/libimageprobe.a" | awk '/ U /{print $2}' | sort -u | tr '\n' ' ')
    if [ "$needed" != "memcmp memcpy memmove memset " ]; then
        echo "libimageprobe.a needs more than imageprobe.h says: $needed" >&2
        exit 1
    fi
    echo "$out/libimageprobe.a ($(stat -c %s "$out/libimageprobe.a") bytes), $out/libimageprobe.so, $out/include/imageprobe.h"
fi

if [ "$what" = wasm ] || [ "$what" = all ]; then
    out=.build/wasm
    mkdir -p "$out"
    swiftc -target wasm32-unknown-none-wasm "${common[@]}" -Osize -Xfrontend -disable-stack-protector \
        -c "${sources[@]}" -o "$out/imageprobe.o"
    "$bin/clang" --target=wasm32-unknown-unknown -Os -nostdlib -fno-stack-protector \
        -I Sources/CImageProbe/include -c Sources/CImageProbe/wasm.c -o "$out/support.o"
    "$bin/clang" --target=wasm32-unknown-unknown -Os -nostdlib -fno-stack-protector -DIMAGEPROBE_EMBEDDED_LIBRARY \
        -I Sources/CImageProbe/include -c Sources/CImageProbe/library.c -o "$out/layout.o"
    # Every function of the header, and the layouts of its structs for the JavaScript.
    exports=()
    for name in $(grep -oE '^[a-z0-9_]+ \*?imageprobe_[a-z_]+\(' Sources/CImageProbe/include/imageprobe.h | grep -oE 'imageprobe_[a-z_]+'); do
        exports+=("--export=$name")
    done
    "$bin/wasm-ld" --no-entry --gc-sections --strip-all "${exports[@]}" --export=__heap_base \
        --export-memory --initial-memory=1048576 -o "$out/imageprobe.wasm" "$out/imageprobe.o" "$out/support.o" "$out/layout.o"
    cp Examples/js/imageprobe.mjs "$out/"
    echo "$out/imageprobe.wasm ($(stat -c %s "$out/imageprobe.wasm") bytes, $(gzip -9c "$out/imageprobe.wasm" | wc -c) gzipped)"
fi
