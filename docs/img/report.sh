#!/bin/sh
# Makes docs/img/report.png, the screenshot in docs/report.md: a real `clharness check` on PoCL and
# Oclgrind with --html, its page rendered by headless Chromium, and three bands of it stacked (the
# summary and the driver matrix, a race shown in its kernel's source, one spec's plots). The bands'
# rows are those of the run this was written for (commit it with the picture); another machine's
# page may need others. Run from the repository root:
#   docs/img/report.sh [CLHARNESS]     (default build/harness/app/clharness)
# Needs chromium (--no-sandbox: it may run as root), ImageMagick's convert and python3.
set -eu
tool="${1:-build/harness/app/clharness}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$tool" check specs/handson/vadd.yaml specs/handson/mmul_block.yaml \
  specs/handson/mmul_async_as_published.yaml --device 'Portable|Oclgrind' --cases 40 \
  --html "$work/report.html" >"$work/check.txt"
chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --window-size=1280,7000 --screenshot="$work/full.png" \
  "file://$work/report.html" 2>/dev/null
python3 "$(dirname "$0")/stack.py" "$work/full.png" docs/img/report.png 0:1556 2328:2712 3940:4775
echo "docs/img/report.png: $(wc -c <docs/img/report.png) bytes"
