#!/usr/bin/env bash
# Side-by-side comparison with the peers, on the same files, in one run.
#   Benchmarks/compare.sh [CORPUS_DIR] [--callgrind] [--quick] [--baseline GIT_REF]
# --callgrind adds instruction counts (and the charts in Benchmarks/results/*.svg); --baseline
# also builds ImageProbe at GIT_REF (in a worktree, .build-baseline) and counts it beside.
# Installs what it needs (Debian: libstb-dev, librust-imagesize-dev, cargo, golang-go,
# golang-golang-x-image-dev, valgrind; PyPI: imagesize, pillow), builds each peer's small
# driver into .build-peers/, then runs Benchmarks/compare.py. Tables go to standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus}
shift || true
callgrind=""
time_ms=20
baseline_ref=""
while [ $# -gt 0 ]; do
    case "$1" in
        --callgrind) callgrind="--callgrind" ;;
        --quick) time_ms=3 ;;
        --baseline) baseline_ref=$2; shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done

need=()
[ -f /usr/include/stb/stb_image.h ] || need+=(libstb-dev)
[ -d /usr/share/cargo/registry ] && ls /usr/share/cargo/registry | grep -q '^imagesize-' || need+=(librust-imagesize-dev)
command -v cargo >/dev/null || need+=(cargo)
command -v go >/dev/null || need+=(golang-go)
[ -d /usr/share/gocode/src/golang.org/x/image ] || need+=(golang-golang-x-image-dev)
command -v valgrind >/dev/null || need+=(valgrind)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
python3 -c 'import imagesize, PIL' 2>/dev/null || python3 -m pip install -q imagesize pillow

peers=.build-peers
mkdir -p "$peers"
swift build -c release --product imageprobe-bench >&2
cp .build/release/imageprobe-bench "$peers/imageprobe-bench"
gcc -O2 -o "$peers/stb_probe" Benchmarks/peers/stb_probe.c -lm
mkdir -p "$peers/cargo-home"
cat > "$peers/cargo-home/config.toml" <<TOML
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
TOML
CARGO_HOME="$PWD/$peers/cargo-home" cargo build -q --release --offline \
    --manifest-path Benchmarks/peers/rust/Cargo.toml --target-dir "$peers/rust" >&2
cp "$peers/rust/release/imagesize-probe" "$peers/rust_probe"
GOPATH=/usr/share/gocode GO111MODULE=off GOCACHE="$PWD/$peers/gocache" \
    go build -o "$peers/go_probe" Benchmarks/peers/go/main.go
baseline_args=()
if [ -n "$baseline_ref" ]; then
    commit=$(git rev-parse --short "$baseline_ref")
    baseline="$peers/imageprobe-bench-$commit.stripped"
    if [ ! -x "$baseline" ]; then  # built once per commit
        rm -rf "$peers/baseline-src"
        git worktree add --force --detach "$peers/baseline-src" "$commit" >&2
        (cd "$peers/baseline-src" && swift build -c release --product imageprobe-bench --scratch-path "$PWD/../../.build-baseline") >&2
        strip --strip-debug -o "$baseline" .build-baseline/release/imageprobe-bench
        git worktree remove --force "$peers/baseline-src"
    fi
    baseline_args=(--baseline "[\"$baseline\", \"repeat-dims\"]")
fi
# valgrind 3.19 cannot read the Swift 6 toolchain's DWARF 5: count instructions on stripped copies.
for tool in imageprobe-bench stb_probe rust_probe; do strip --strip-debug -o "$peers/$tool.stripped" "$peers/$tool"; done

tools=$(cat <<JSON
{"imageprobe": ["$peers/imageprobe-bench"], "stb_image": ["$peers/stb_probe"], "rust-imagesize": ["$peers/rust_probe"],
 "go-image": ["$peers/go_probe"], "py-imagesize": ["python3", "Benchmarks/peers/python_probe.py", "imagesize"],
 "pillow": ["python3", "Benchmarks/peers/python_probe.py", "pillow"]}
JSON
)
repeat_tools=$(cat <<JSON
{"imageprobe": ["$peers/imageprobe-bench.stripped", "repeat-dims"], "stb_image": ["$peers/stb_probe.stripped", "repeat"],
 "rust-imagesize": ["$peers/rust_probe.stripped", "repeat"]}
JSON
)
echo "machine: $(uname -srm), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
echo "swift: $(swift --version 2>&1 | head -1); gcc: $(gcc -dumpversion); rustc: $(rustc --version | cut -d' ' -f2);" \
     "go: $(go version | cut -d' ' -f3); imagesize crate: $(ls /usr/share/cargo/registry | grep '^imagesize-' | sed 's/imagesize-//');" \
     "python imagesize $(python3 -c 'import imagesize; print(imagesize.__version__)'), Pillow $(python3 -c 'import PIL; print(PIL.__version__)')"
mkdir -p Benchmarks/results
python3 Benchmarks/compare.py "$corpus" --tools "$tools" --repeat-tools "$repeat_tools" --time-ms "$time_ms" $callgrind \
    --json "$peers/compare.json" --charts Benchmarks/results "${baseline_args[@]}"
