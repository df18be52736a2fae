#!/usr/bin/env bash
# Measures what a clean build costs, with ccache off: the tool (target clharness), then the rest of
# the tree, in CPU seconds (user+sys of every compiler and linker, so a loaded machine still gives
# the same number) and wall; each compile and link is timed through a launcher, and the ten most
# expensive are listed. Writes OUTDIR/summary.md (the table), units.tsv (every unit, dearest first)
# and run.txt (the commands, the commit, the machine and its load before and after).
#   bench/time-build.sh OUTDIR [CMAKE ARG...]   e.g. -DCMAKE_BUILD_TYPE=RelWithDebInfo
# The build folder is $TIME_BUILD_DIR (default build-time/), emptied first; $JOBS (default nproc).
# "everything" is the tool and then the rest built on top of it, so its CPU is that of one clean
# build of all targets, without building the tool twice.
set -euo pipefail
if [ "${1:-}" = "__unit" ]; then  # the launcher: __unit LOG COMMAND..., one line per unit in LOG
  log=$2
  shift 2
  what=""
  prev=""
  for a in "$@"; do  # the unit's output file names it
    [ "$prev" = "-o" ] && what=$a
    prev=$a
  done
  tf=$(mktemp)
  rc=0
  /usr/bin/time -f "%U %S %e" -o "$tf" "$@" || rc=$?
  read -r u s e <"$tf" || true
  rm -f "$tf"
  printf '%s\t%s\t%s\t%s\n' "$(echo "$u + $s" | bc)" "$e" "$rc" "$what" >>"$log"
  exit $rc
fi
# summarize OUTDIR: summary.md from a run's files (units.tsv, tool.units, tool.time, rest.time,
# the logs, run.txt); `bench/time-build.sh __summary OUTDIR` redoes it.
summarize() {
  local out=$1 tu ts tw ru rs rw all_units warnings tool_units
  read -r tu ts tw < <(tail -1 "$out/tool.time")
  read -r ru rs rw < <(tail -1 "$out/rest.time")
  tool_units=$(cat "$out/tool.units")
  all_units=$(($(wc -l <"$out/units.tsv") - 1))
  # grep -c exits 1 where it counts no line: no warning is no failure
  warnings=$(cat "$out/tool.log" "$out/rest.log" | grep -c 'warning:' || true)
  f() { echo "scale=0; ($1) / 1" | bc; }
  commit=$(sed -n 's/^commit: *//p' "$out/run.txt")
  {
    echo "# Clean build cost, ccache off ($commit)"
    echo
    echo "| build | units (compiles and links) | CPU s | wall s |"
    echo "| --- | ---: | ---: | ---: |"
    echo "| the tool (\`clharness\`) | $tool_units | $(f "$tu + $ts") | $(f "$tw") |"
    echo "| everything (the tool, then the rest) | $all_units | $(f "$tu + $ts + $ru + $rs") | $(f "$tw + $rw") |"
    echo
    echo "Compiler warnings in the build logs: $warnings. Jobs: $(sed -n 's/.*--parallel \([0-9]*\).*/\1/p' "$out/run.txt" | head -1)."
    echo
    echo "The ten most expensive units (CPU s of the compile or link, wall s):"
    echo
    echo "| CPU s | wall s | unit |"
    echo "| ---: | ---: | --- |"
    tail -n +2 "$out/units.tsv" | head -10 | awk -F'\t' '{printf "| %.1f | %.1f | %s |\n", $1, $2, $4}'
  } >"$out/summary.md"
}
if [ "${1:-}" = "__summary" ]; then
  summarize "$2"
  cat "$2/summary.md"
  exit 0
fi
if [ $# -lt 1 ]; then
  echo "usage: bench/time-build.sh OUTDIR [CMAKE ARG...]" >&2
  exit 2
fi
for tool in /usr/bin/time bc cmake ninja; do
  command -v $tool >/dev/null || {
    echo "bench/time-build.sh: needs $tool" >&2
    exit 2
  }
done
root="$(cd "$(dirname "$0")/.." && pwd)"
self="$root/bench/time-build.sh"
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
build=${TIME_BUILD_DIR:-$root/build-time}
jobs=${JOBS:-$(nproc)}
export CCACHE_DISABLE=1  # no cache, even where a launcher of ccache slipped in
commit() {
  local c
  c=$(git -C "$root" rev-parse --short HEAD 2>/dev/null) || { echo "unknown (no git checkout)"; return; }
  git -C "$root" diff --quiet HEAD -- . 2>/dev/null && echo "$c" || echo "$c, with uncommitted changes"
}
rm -rf "$build"
units="$out/units.raw"
: >"$units"
launch="$self;__unit;$units"
cfg=(cmake -S "$root" -B "$build" -G Ninja "-DCMAKE_CXX_COMPILER_LAUNCHER=$launch"
  "-DCMAKE_CXX_LINKER_LAUNCHER=$launch" "$@")
{
  echo "configure: ${cfg[*]}"
  echo "build:     cmake --build $build --parallel $jobs --target clharness, then cmake --build $build --parallel $jobs"
  echo "commit:    $(commit)"
  echo "machine:   $(uname -srm), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "compiler:  $(c++ --version | head -1)"
  echo "start:     $(date -u +%FT%TZ), uptime: $(uptime)"
} >"$out/run.txt"
"${cfg[@]}" >"$out/configure.txt" 2>&1
# timed STEP COMMAND...: its CPU (user+sys of it and every child) and wall into $out/STEP.time
timed() {
  local step=$1
  shift
  /usr/bin/time -f "%U %S %e" -o "$out/$step.time" "$@" >"$out/$step.log" 2>&1
}
timed tool cmake --build "$build" --parallel "$jobs" --target clharness
wc -l <"$units" >"$out/tool.units"
timed rest cmake --build "$build" --parallel "$jobs"
echo "end:       $(date -u +%FT%TZ), uptime: $(uptime)" >>"$out/run.txt"
{
  printf 'cpu_s\twall_s\texit\tunit\n'
  sort -t$'\t' -k1,1 -rn "$units"
} >"$out/units.tsv"
rm -f "$units"
summarize "$out"
cat "$out/summary.md"
