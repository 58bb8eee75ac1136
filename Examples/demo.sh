#!/usr/bin/env bash
# Makes a few real images and probes them with the release build of imageprobe.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Examples/make-examples.py .build/examples
swift build -c release --product imageprobe
.build/release/imageprobe .build/examples/*
