#!/usr/bin/env bash
# Times specs on PoCL with two builds of the tool, back to back per spec: each run
# `clharness check SPEC --device pocl --no-driver-checks` under /usr/bin/time, PoCL's kernel cache
# a fresh folder ("cold") or, with WARM=1, one folder per build filled by a first run that is not
# counted. Prints one line per run: spec, build, load, wall and CPU seconds (user + sys), and each
# unit's status, seconds and GFLOP/s; the JSON reports stay in OUTDIR.
#   bench/time-units.sh BEFORE_TOOL AFTER_TOOL OUTDIR SPEC.yaml...
set -uo pipefail
if [ $# -lt 4 ]; then
  echo "usage: bench/time-units.sh BEFORE_TOOL AFTER_TOOL OUTDIR SPEC.yaml..." >&2
  exit 2
fi
before=$1 after=$2 out=$3
shift 3
mkdir -p "$out"
declare -A cache=([before]=$(mktemp -d) [after]=$(mktemp -d))
printf 'spec\tbuild\tload_1min\twall_s\tcpu_s\tunits (family=status/seconds/GFLOP/s)\n'
for spec in "$@"; do
  name=$(basename "$spec" .yaml)
  for which in before after; do
    tool=$before
    [ "$which" = after ] && tool=$after
    dir=${cache[$which]}
    [ "${WARM:-0}" = 1 ] || dir=$(mktemp -d)
    run() { POCL_CACHE_DIR=$dir "$tool" check "$spec" --device pocl --no-driver-checks "$@"; }
    [ "${WARM:-0}" = 1 ] && run >/dev/null 2>&1
    load=$(cut -d' ' -f1 /proc/loadavg)
    POCL_CACHE_DIR=$dir /usr/bin/time -f "%e %U %S" -o "$out/$name-$which.time" \
      "$tool" check "$spec" --device pocl --no-driver-checks --json "$out/$name-$which.json" \
      >"$out/$name-$which.txt" 2>&1
    read -r wall user sys <"$out/$name-$which.time"
    units=$(jq -r '.units[] | "\(.family // "cases")=\(.status)/\(.seconds * 100 | round / 100)s/\(.perf.gflops // 0 | . * 100 | round / 100)GF"' \
      "$out/$name-$which.json" | tr '\n' ' ')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$which" "$load" "$wall" \
      "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" "$units"
    [ "${WARM:-0}" = 1 ] || rm -rf "$dir"
  done
done
rm -rf "${cache[before]}" "${cache[after]}"
