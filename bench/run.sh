#!/usr/bin/env bash
# Runs the harness-vs-bare-loop benchmark on one device with repetitions and writes its data:
# bench.json (Google Benchmark's --benchmark_out), ratios.md (medians and ratios per size),
# paired.md (the ratios measured in pairs: the loops in alternating blocks of a few ms, each
# round's ratio to its own bare block, so a shared machine's load falls on both sides alike),
# phases.md (where a case's time goes, phase by phase), console.txt, and run.txt (the exact
# commands, the commit, the machine and its load).
#   bench/run.sh DEVICE OUTDIR    DEVICE: as `clharness --device` takes it (pocl, oclgrind, nvidia,
#                                 a regular expression); it becomes CLH_BENCH_DEVICE
# The binary: $BENCH_BIN, else $BUNDLE/bench_overhead (a bundle from ci/bundle.sh), else
# ${BUILD_DIR:-build}/bench/bench_overhead. BENCH_REPETITIONS (default 21) repetitions of each
# benchmark of BENCH_MIN_TIME seconds (default 0.2), interleaved at random; the table quotes their
# medians. (Until issue 28's last session 7 of 0.5 s: 21 short ones take as long and give a median
# that a few seconds of another machine's load on a shared host move less.) BENCH_SIM_LARGEST=1 adds 2^20 items on the simulator (seconds per case).
# ratios.md also lists every repetition and the slowest case, and ends with a check: the script
# exits 4 (after writing everything) when a harness median is over 3x the bare loop's or a
# repetition over 3x its median, the mark of a stall (issue 28), or paired.md's median round is.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: bench/run.sh DEVICE OUTDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
device=$1
out=$2
reps=${BENCH_REPETITIONS:-21}
min_time=${BENCH_MIN_TIME:-0.2}  # seconds per repetition
bin=${BENCH_BIN:-}
if [ -z "$bin" ] && [ -n "${BUNDLE:-}" ]; then bin="$BUNDLE/bench_overhead"; fi
[ -n "$bin" ] || bin="${BUILD_DIR:-$root/build}/bench/bench_overhead"
if [ ! -x "$bin" ]; then
  echo "bench/run.sh: no benchmark binary at $bin (build the bench_overhead target)" >&2
  exit 2
fi
mkdir -p "$out"
commit() {  # the tree's commit; a copy that is no git checkout (the GPU machine's) says so
  local c
  c=$(git -C "$root" rev-parse --short HEAD 2>/dev/null) || { echo "unknown (no git checkout)"; return; }
  git -C "$root" diff --quiet HEAD -- . 2>/dev/null && echo "$c" || echo "$c, with uncommitted changes"
}
export CLHARNESS_ROOT="${CLHARNESS_ROOT:-$root}"
args=(--benchmark_repetitions="$reps" --benchmark_min_time="$min_time"
  --benchmark_enable_random_interleaving=true
  --benchmark_display_aggregates_only=true --benchmark_out="$out/bench.json"
  --benchmark_out_format=json)
{
  echo "command: CLH_BENCH_DEVICE='$device' $bin ${args[*]}"
  echo "table:   $bin --ratios $out/bench.json > $out/ratios.md"
  echo "commit:  $(commit)"
  echo "machine: $(uname -srm), $(nproc) CPUs"
  echo "start:   $(date -u +%FT%TZ), uptime: $(uptime)"
} >"$out/run.txt"
rc=0
CLH_BENCH_DEVICE="$device" "$bin" "${args[@]}" >"$out/console.txt" 2>&1 || rc=$?
echo "end:     $(date -u +%FT%TZ), uptime: $(uptime), exit $rc" >>"$out/run.txt"
cat "$out/console.txt"
if [ $rc -ne 0 ]; then
  echo "bench/run.sh: the benchmark failed (exit $rc)" >&2
  exit $rc
fi
check=0
"$bin" --ratios "$out/bench.json" >"$out/ratios.md" || check=$?
cat "$out/ratios.md"
# The ratios in pairs (a run of its own; BENCH_PAIRED_SECONDS a size, default 4).
paired=0
CLH_BENCH_DEVICE="$device" "$bin" --paired >"$out/paired.md" || paired=$?
echo "paired:  CLH_BENCH_DEVICE='$device' $bin --paired > $out/paired.md, ended $(date -u +%FT%TZ), uptime: $(uptime), exit $paired" >>"$out/run.txt"
cat "$out/paired.md"
[ $check -ne 0 ] || check=$paired
# Where a case's time goes, phase by phase (not timed by Google Benchmark: a run of its own).
CLH_BENCH_DEVICE="$device" "$bin" --phases >"$out/phases.md"
echo "phases:  CLH_BENCH_DEVICE='$device' $bin --phases > $out/phases.md, ended $(date -u +%FT%TZ), uptime: $(uptime)" >>"$out/run.txt"
cat "$out/phases.md"
if [ $check -ne 0 ]; then
  echo "bench/run.sh: FAIL: the check in $out/ratios.md or $out/paired.md failed (exit $check)" >&2
  exit $check
fi
