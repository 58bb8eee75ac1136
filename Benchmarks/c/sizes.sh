#!/usr/bin/env bash
# What build-time format selection saves: prints the tables of Benchmarks/BENCHMARKS.md
# ("Build-time format selection") in Markdown. Builds, one compiler at a time:
#   - the WebAssembly module, full, web (Scripts/build-c.sh wasm-web) and JPEG + PNG
#     (IMAGEPROBE_FORMATS=jpeg,png Scripts/build-c.sh wasm): raw, gzip -9 and brotli -q 11 bytes,
#     and imageprobe_scanner_size() (the scanner's memory, the caller's);
#   - a Cortex-M object (armv7em-none-none-eabi, Embedded Swift's ARMv7E-M triple: Cortex-M4 and
#     M7, Thumb-2) of the core and the C functions, -Osize, every format, JPEG + PNG, web: the
#     object as compiled, and what a firmware's link keeps of it (ld.lld --gc-sections from the
#     imageprobe_* functions, the object built with -function-sections): .text, .rodata, .data,
#     .bss; and the symbols the firmware must provide (llvm-nm -u);
#   - the native library (Scripts/build-c.sh c, x86_64 -O), for reference;
#   - per parser, on the Cortex-M link: the parser alone less no parser at all, and every parser
#     less every parser but it, for the big ones (--per-parser: for every parser).
# Installs brotli with apt-get when it is missing (and the machine lets it). Takes about 15
# minutes on two cores (45 with --per-parser).
#   Benchmarks/c/sizes.sh [--per-parser] > sizes.md
set -euo pipefail
cd "$(dirname "$0")/../.."
per_parser=0
[ "${1:-}" = --per-parser ] && per_parser=1
if ! command -v brotli >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq brotli; } >/dev/null 2>&1 || true
fi
bin=$(dirname "$(command -v swiftc)")
table=Sources/ImageProbe/Registry/formats.tsv
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Builds log here; a failure shows it.
quiet() { "$@" >> "$log" 2>&1 || { cat "$log" >&2; exit 1; }; }

# section_sizes FILE: ".text .rodata .data .bss .exidx" in bytes, from size -A (binutils): the
# .rodata column counts every read-only data section (.rodata*, .data.rel.ro, .swift_modhash).
section_sizes() {
    size -A "$1" | awk '
        $1 ~ /^\.text/ { text += $2 }
        $1 ~ /^\.rodata/ || $1 ~ /^\.data\.rel\.ro/ || $1 == ".swift_modhash" { rodata += $2 }
        $1 == ".data" { data += $2 }
        $1 ~ /^\.bss/ { bss += $2 }
        $1 ~ /^\.ARM\.exidx/ { exidx += $2 }
        END { printf "%d %d %d %d %d\n", text, rodata, data, bss, exidx }'
}

# ---- WebAssembly
quiet Scripts/build-c.sh wasm
quiet Scripts/build-c.sh wasm-web
IMAGEPROBE_FORMATS=jpeg,png quiet Scripts/build-c.sh wasm
echo "### WebAssembly module (wasm32, -Osize, wasm-ld --gc-sections --strip-all)"
echo
echo "| module | formats | raw bytes | gzip -9 | brotli -q 11 | scanner bytes |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for entry in "imageprobe.wasm:every format (42)" "imageprobe-web.wasm:web (11)" "imageprobe-jpeg-png.wasm:JPEG + PNG"; do
    file=.build/wasm/${entry%%:*}
    raw=$(stat -c %s "$file")
    gz=$(gzip -9c "$file" | wc -c)
    br=$(command -v brotli >/dev/null && brotli -q 11 -c "$file" | wc -c || echo "n/a")
    scanner=$(node -e 'const m = new WebAssembly.Instance(new WebAssembly.Module(require("fs").readFileSync(process.argv[1])), {});
        console.log(String(m.exports.imageprobe_scanner_size()))' "$file" 2>/dev/null || echo "n/a")
    echo "| \`${entry%%:*}\` | ${entry#*:} | $raw | $gz | $br | $scanner |"
done
echo

# ---- Cortex-M
mapfile -t sources < <(find Sources/ImageProbe Sources/ImageProbeC -name '*.swift' | sort)
common=(-enable-experimental-feature Embedded -wmo -parse-as-library
        -package-name ImageProbe -module-name ImageProbe -D IMAGEPROBE_C_SINGLE_MODULE
        -Xcc -fmodule-map-file=Sources/CImageProbe/include/module.modulemap -I Sources/CImageProbe/include)
roots=()       # every function of the header
scan_roots=()  # the scanner's alone, without the range planner (imageprobe_planner_*)
for name in $(grep -oE '^[a-z0-9_]+ \*?imageprobe_[a-z_]+\(' Sources/CImageProbe/include/imageprobe.h | grep -oE 'imageprobe_[a-z_]+'); do
    roots+=(-u "$name")
    case $name in imageprobe_planner_*|imageprobe_address_*|*_layout) ;; *) scan_roots+=(-u "$name") ;; esac
done
out=.build/cortex-m
mkdir -p "$out"
# cortex_m NAME FLAG...: $out/NAME.o (as compiled), $out/NAME.elf (what a firmware keeps) and
# $out/NAME-scanner.elf (the same without the range planner).
cortex_m() {
    local name=$1
    shift
    quiet swiftc -target armv7em-none-none-eabi "${common[@]}" "$@" -Osize -Xfrontend -disable-stack-protector \
        -Xfrontend -function-sections -c "${sources[@]}" -o "$out/$name.o"
    quiet "$bin/ld.lld" --gc-sections -e imageprobe_init "${roots[@]}" --unresolved-symbols=ignore-all \
        -o "$out/$name.elf" "$out/$name.o"
    quiet "$bin/ld.lld" --gc-sections -e imageprobe_init "${scan_roots[@]}" --unresolved-symbols=ignore-all \
        -o "$out/$name-scanner.elf" "$out/$name.o"
}
# flash NAME: .text + .rodata + .ARM.exidx + .data of the link (the bytes in flash).
flash() { section_sizes "$out/$1.elf" | awk '{ print $1 + $2 + $3 + $5 }'; }

read -ra web <<< "$(python3 Scripts/registry.py --web-flags)"
read -ra jpeg_png <<< "$(python3 Scripts/registry.py --flags jpeg,png)"
cortex_m all
cortex_m jpeg-png "${jpeg_png[@]}"
cortex_m web "${web[@]}"
cortex_m none -D IMAGEPROBE_SELECT_FORMATS
echo "### Cortex-M (armv7em-none-none-eabi, -Osize, -function-sections)"
echo
echo "Linked: \`ld.lld --gc-sections\` from the imageprobe_* functions, what a firmware's flash holds."
echo
echo "| formats | object .text | object .rodata | object .data | linked .text | linked .rodata | linked .data | linked .bss | flash (text+rodata+data) | flash, scanner only (no imageprobe_planner_*) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for entry in "all:every format (42)" "web:web (11)" "jpeg-png:JPEG + PNG" "none:none (the core, the sniffer, the C functions)"; do
    name=${entry%%:*}
    read -r ot orod odata _ oexidx <<< "$(section_sizes "$out/$name.o")"
    read -r lt lrod ldata lbss lexidx <<< "$(section_sizes "$out/$name.elf")"
    echo "| ${entry#*:} | $ot | $orod | $odata | $lt | $((lrod + lexidx)) | $ldata | $lbss | $(flash "$name") | $(flash "$name-scanner") |"
done
echo
echo "The object's .ARM.exidx (unwind index, dropped by the link): $(section_sizes "$out/all.o" | awk '{ print $5 }') bytes with every format."
echo
echo "Undefined symbols (\`llvm-nm -u\`) the linked code still refers to, which the firmware provides:"
echo
for name in all web jpeg-png none; do
    echo "- $name: $("$bin/llvm-nm" -u "$out/$name.elf" | awk '{ print $2 }' | sort | tr '\n' ' ' | sed 's/ $//')"
done
echo
echo "The object alone also names: $(comm -23 <("$bin/llvm-nm" -u "$out/all.o" | awk '{ print $2 }' | sort) \
    <("$bin/llvm-nm" -u "$out/all.elf" | awk '{ print $2 }' | sort) | tr '\n' ' ' | sed 's/ $//')."
echo

# ---- native
quiet Scripts/build-c.sh c
IMAGEPROBE_FORMATS=web quiet Scripts/build-c.sh c
IMAGEPROBE_FORMATS=jpeg,png quiet Scripts/build-c.sh c
echo "### Native library (x86_64 Linux, -O), for reference"
echo
echo "| formats | libimageprobe.a bytes | .so .text | .so .rodata | .so .data |"
echo "| --- | ---: | ---: | ---: | ---: |"
for entry in "c:every format (42)" "c-web:web (11)" "c-jpeg-png:JPEG + PNG"; do
    dir=.build/${entry%%:*}
    read -r t rod data _ _ <<< "$(section_sizes "$dir/libimageprobe.so")"
    echo "| ${entry#*:} | $(stat -c %s "$dir/libimageprobe.a") | $t | $rod | $data |"
done
echo

# ---- per parser, on the Cortex-M link
if [ "$per_parser" = 1 ]; then
    mapfile -t chosen < <(awk -F'\t' '!/^#/ && NF > 1 && !seen[$3]++ { print $3, $2 }' "$table")
else
    chosen=("ISOBMFFParser heif" "SVGParser svg" "JXLParser jxl" "EXRParser exr" "TIFFParser tiff" "JPEGParser jpeg" "PNGParser png")
fi
none=$(flash none)
all=$(flash all)
echo "### Per parser (Cortex-M link, flash bytes)"
echo
echo "Alone: the parser alone less no parser ($none bytes). Marginal: every parser ($all bytes) less every parser but it."
echo
echo "| parser | alone | marginal |"
echo "| --- | ---: | ---: |"
for entry in "${chosen[@]}"; do
    read -r parser format <<< "$entry"
    read -ra alone <<< "$(python3 Scripts/registry.py --flags "$format")"
    others=$(awk -F'\t' -v parser="$parser" '!/^#/ && NF > 1 && $3 != parser { printf "%s%s", sep, $2; sep = "," }' "$table")
    read -ra but <<< "$(python3 Scripts/registry.py --flags "$others")"
    cortex_m "only-$parser" "${alone[@]}"
    cortex_m "but-$parser" "${but[@]}"
    echo "| $parser | $(( $(flash "only-$parser") - none )) | $(( all - $(flash "but-$parser") )) |"
done
