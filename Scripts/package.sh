#!/usr/bin/env bash
# Builds every installable artifact into dist/, versioned from CHANGELOG.md's latest release
# heading (## X.Y.Z):
#   dist/imageprobe-sdk-X.Y.Z-linux-ARCH.tar.gz   the C SDK: lib/libimageprobe.{a,so} (soname and
#       links), include/imageprobe.h, lib/pkgconfig/imageprobe{,-static}.pc,
#       lib/cmake/imageprobe/imageprobeConfig{,Version}.cmake; relocatable, unpack into any prefix
#   dist/pyimageprobe-X.Y.Z-py3-none-manylinux_2_17_ARCH.manylinux2014_ARCH.whl   (import imageprobe)
#   dist/pyimageprobe-X.Y.Z.tar.gz                the sdist: builds the library with a Swift toolchain
#   dist/imageprobe-X.Y.Z-linux-ARCH.tar.gz       the command with the Swift runtime and Foundation
#       linked in (--static-swift-stdlib), its man page and bash, zsh and fish completions
#   dist/imageprobe-X.Y.Z.tgz, dist/imageprobe-image-size-2.1YY.Z.tgz,
#   dist/imageprobe-probe-image-size-7.1YY.Z.tgz,
#   dist/imageprobe-markdown-it-X.Y.Z.tgz         the npm packages (npm pack): imageprobe, the
#       drop-ins for image-size 2.x and probe-image-size 7.x (bindings/image-size,
#       bindings/probe-image-size), each with the WebAssembly module (Scripts/build-c.sh wasm),
#       and the markdown-it plugin (bindings/markdown-it, imageprobe its one dependency)
#   dist/SHA256SUMS
# Needs what Scripts/build-c.sh needs (the Swift toolchain, binutils), Python 3.10+ with pip and
# venv (PyPI for `build` and setuptools), tar and gzip; node and npm for the npm packages.
# Tests: Scripts/check-packages.sh.
#   Scripts/package.sh [sdk|python|cli|npm|all]      (default all; python and sdk share the library)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
case $what in sdk|python|cli|npm|all) ;; *) echo "usage: Scripts/package.sh [sdk|python|cli|npm|all]" >&2; exit 2 ;; esac
version=$(grep -m1 -oE '^## [0-9]+\.[0-9]+\.[0-9]+' CHANGELOG.md | cut -c4-)
IFS=. read -r major minor _ <<< "$version"
arch=$(uname -m)
dist=$PWD/dist
mkdir -p "$dist"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Reproducible archives: every file dated from the last commit, owned by root, in name order.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
archive() {  # archive DIRECTORY OUTPUT.tar.gz: the directory as the archive's one top folder
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
        -C "$(dirname "$1")" -cf - "$(basename "$1")" | gzip -9n > "$2"
    echo "$2 ($(stat -c %s "$2") bytes)"
}
fill() {  # fill TEMPLATE OUTPUT: @VERSION@ and the other @NAMES@ substituted
    sed -e "s|@VERSION@|$version|g" -e "s|@MAJOR@|$major|g" -e "s|@MINOR@|$minor|g" -e "s|@ARCH@|$arch|g" \
        -e "s|@SONAME@|${soname:-}|g" -e "s|@GLIBC@|${glibc:-}|g" -e "s|@GLIBCXX@|${glibcxx:-}|g" \
        -e "s|@GCC@|${gcc:-}|g" "$1" > "$2"
}
echo "ImageProbe $version for linux-$arch"
npm_tarballs=()

if [ "$what" = sdk ] || [ "$what" = python ] || [ "$what" = all ]; then
    # --- the C library, once, for the SDK and the wheel ---------------------------------------
    Scripts/build-c.sh c
    library=.build/c/libimageprobe.so.$version
    soname=$(objdump -p "$library" | awk '$1 == "SONAME" { print $2 }')
    [ -n "$soname" ] || { echo "$library has no soname" >&2; exit 1; }
fi

if [ "$what" = sdk ] || [ "$what" = all ]; then
    # --- the C SDK ---------------------------------------------------------------------------
    sdk=$work/imageprobe-sdk-$version-linux-$arch
    mkdir -p "$sdk/include" "$sdk/lib/pkgconfig" "$sdk/lib/cmake/imageprobe" "$sdk/share/doc/imageprobe/examples"
    cp Sources/CImageProbe/include/imageprobe.h "$sdk/include/"
    cp .build/c/libimageprobe.a "$library" "$sdk/lib/"
    ln -s "libimageprobe.so.$version" "$sdk/lib/$soname"
    ln -s "$soname" "$sdk/lib/libimageprobe.so"
    fill packaging/imageprobe.pc.in "$sdk/lib/pkgconfig/imageprobe.pc"
    fill packaging/imageprobe-static.pc.in "$sdk/lib/pkgconfig/imageprobe-static.pc"
    fill packaging/imageprobeConfig.cmake.in "$sdk/lib/cmake/imageprobe/imageprobeConfig.cmake"
    fill packaging/imageprobeConfigVersion.cmake.in "$sdk/lib/cmake/imageprobe/imageprobeConfigVersion.cmake"
    fill packaging/sdk-README.md "$sdk/share/doc/imageprobe/README.md"
    cp LICENSE CHANGELOG.md "$sdk/share/doc/imageprobe/"
    cp Examples/c/probe.c "$sdk/share/doc/imageprobe/examples/"
    chmod -R u+rwX,go+rX,go-w "$sdk"
    archive "$sdk" "$dist/imageprobe-sdk-$version-linux-$arch.tar.gz"
fi

if [ "$what" = python ] || [ "$what" = all ]; then
    # --- the Python package: its folder, with the core's sources in native/ for the sdist ----
    python=$work/python
    mkdir -p "$python"
    tar -C bindings/python --exclude=__pycache__ --exclude='*.egg-info' --exclude=build --exclude=dist \
        --exclude=native --exclude='*.so' --exclude='*.so.*' --exclude=_version.py -chf - . | tar -C "$python" -xf -
    native=$python/native
    mkdir -p "$native/Scripts" "$native/Sources"
    cp CHANGELOG.md LICENSE "$native/"
    cp Scripts/build-c.sh "$native/Scripts/"
    cp -R Sources/ImageProbe Sources/ImageProbeC Sources/CImageProbe "$native/Sources/"
    builder=(python3 -m build)
    if ! python3 -m build --version > /dev/null 2>&1; then
        python3 -m venv "$work/venv"
        "$work/venv/bin/pip" install -q build
        builder=("$work/venv/bin/python" -m build)
    fi
    rm -f "$dist"/pyimageprobe-"$version"[-.]*
    # The sdist, then the wheel built from it, with the library built above.
    IMAGEPROBE_LIBRARY=$PWD/$library "${builder[@]}" --outdir "$dist" "$python" > "$work/build.log" 2>&1 \
        || { tail -40 "$work/build.log"; exit 1; }
    ls -l "$dist"/pyimageprobe-"$version"[-.]* | awk '{ print $NF " (" $5 " bytes)" }'
fi

if [ "$what" = cli ] || [ "$what" = all ]; then
    # --- the command, portable ---------------------------------------------------------------
    scratch=.build-package
    swift build -c release --static-swift-stdlib --product imageprobe --scratch-path "$scratch"
    binary=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/imageprobe
    toolchain=$(cd "$(dirname "$(command -v swiftc)")/.." && pwd -P)
    # No library may come from the toolchain: only the system's libc, libcurl and their own.
    if ldd "$binary" | grep -F "$toolchain"; then
        echo "imageprobe links a library from the toolchain ($toolchain)" >&2
        exit 1
    fi
    glibc=$(objdump -T "$binary" | grep -oE 'GLIBC_2\.[0-9]+' | sort -uV | tail -1 | cut -c7-)
    glibcxx=$(objdump -T "$binary" | grep -oE 'GLIBCXX_3\.4\.[0-9]+' | sort -uV | tail -1 | cut -c9-)
    case $glibcxx in 3.4.28) gcc=10 ;; 3.4.29) gcc=11 ;; 3.4.30) gcc=12 ;; 3.4.31) gcc=13 ;; 3.4.32) gcc=14 ;; 3.4.33) gcc=15 ;; *) gcc="?" ;; esac
    cli=$work/imageprobe-$version-linux-$arch
    mkdir -p "$cli/bin" "$cli/share/man/man1" "$cli/share/bash-completion/completions" \
        "$cli/share/zsh/site-functions" "$cli/share/fish/vendor_completions.d" "$cli/share/doc/imageprobe"
    cp "$binary" "$cli/bin/imageprobe"
    strip "$cli/bin/imageprobe"
    cp man/imageprobe.1 "$cli/share/man/man1/"
    "$cli/bin/imageprobe" --completion bash > "$cli/share/bash-completion/completions/imageprobe"
    "$cli/bin/imageprobe" --completion zsh > "$cli/share/zsh/site-functions/_imageprobe"
    "$cli/bin/imageprobe" --completion fish > "$cli/share/fish/vendor_completions.d/imageprobe.fish"
    fill packaging/cli-README.md "$cli/share/doc/imageprobe/README.md"
    cp LICENSE CHANGELOG.md "$cli/share/doc/imageprobe/"
    chmod -R u+rwX,go+rX,go-w "$cli"
    archive "$cli" "$dist/imageprobe-$version-linux-$arch.tar.gz"
fi

if [ "$what" = npm ] || [ "$what" = all ]; then
    # --- the npm packages: imageprobe, the drop-ins and the plugin, each from its prepack ----
    npm_version=$(node -p "require('./bindings/js/package.json').version")
    [ "$npm_version" = "$version" ] || { echo "bindings/js/package.json says $npm_version, CHANGELOG.md $version" >&2; exit 1; }
    [ -f .build/wasm/imageprobe.wasm ] || Scripts/build-c.sh wasm
    [ -f .build/wasm/imageprobe-web.wasm ] || Scripts/build-c.sh wasm-web
    for package in js image-size probe-image-size markdown-it; do
        (cd "bindings/$package" && npm pack --silent --pack-destination "$dist" > "$work/npm-$package.txt")
        tarball=$dist/$(tail -1 "$work/npm-$package.txt")
        echo "$tarball ($(stat -c %s "$tarball") bytes)"
        npm_tarballs+=("$(basename "$tarball")")
    done
fi

(cd "$dist" && rm -f SHA256SUMS && sha256sum -- *"$version"* "${npm_tarballs[@]}" | sort -k2 -u > SHA256SUMS)
echo "$dist/SHA256SUMS"
