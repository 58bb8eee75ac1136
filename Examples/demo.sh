#!/usr/bin/env bash
# Writes example images with the package's own byte builders (no Python, no Pillow) and probes
# them with the release build of imageprobe: plain, then walking the animations.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product imageprobe
swift build -c release --product imageprobe-examples
.build/release/imageprobe-examples .build/examples
.build/release/imageprobe .build/examples/*
echo
.build/release/imageprobe --animation .build/examples/animat*
