#!/bin/sh
# Makes docs/img/merged.png, the screenshot in docs/ci.md: the committed reports of this machine
# (PoCL and Oclgrind) and of the GPU machine (an H100, an H200) merged into one HTML page, its top
# (the summary, the devices and the driver matrix's first rows) rendered by headless Chromium.
# Run from the repository root:   docs/img/merged.sh [CLHARNESS]   (default build/harness/app/clharness)
set -eu
tool="${1:-build/harness/app/clharness}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$tool" merge docs/results/check-pocl-oclgrind.json docs/gpu/h100/check-nvidia.json \
  docs/gpu/h200/check-nvidia.json --html "$work/merged.html" >/dev/null 2>&1 || true
chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --window-size=1280,1500 --screenshot=docs/img/merged.png \
  "file://$work/merged.html" 2>/dev/null
echo "docs/img/merged.png: $(wc -c <docs/img/merged.png) bytes"
