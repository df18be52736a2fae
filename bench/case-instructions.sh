#!/usr/bin/env bash
# Counts the main thread's instructions of one case, harness and bare loop, at each size, with and
# without guard zones: a measure of the harness's own work that a busy machine does not move
# (wall times on a shared 2-core machine move by 20 % from one minute to the next; these by < 2 %).
# Callgrind dumps its counts after every case (--dump-after on the rig's case function); the count
# of a case is its function's inclusive count in that dump (the driver's calls on the main thread
# included, its worker threads not). The first two cases (the program's build, warm-up) are left
# out; the table gives the median of the rest. Writes OUTDIR/instructions.md and OUTDIR/run.txt.
#   bench/case-instructions.sh DEVICE OUTDIR     e.g. bench/case-instructions.sh pocl /tmp/ci
# The binary: $BENCH_BIN, else ${BUILD_DIR:-build}/bench/bench_overhead. Needs valgrind.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: bench/case-instructions.sh DEVICE OUTDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
device=$1
out=$2
bin=${BENCH_BIN:-${BUILD_DIR:-$root/build}/bench/bench_overhead}
[ -x "$bin" ] || { echo "bench/case-instructions.sh: no benchmark binary at $bin" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "bench/case-instructions.sh: valgrind is not installed" >&2; exit 2; }
mkdir -p "$out"
export CLHARNESS_ROOT="${CLHARNESS_ROOT:-$root}" CLH_BENCH_DEVICE="$device"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# median FILTER FUNCTION: the median count of FUNCTION over the cases of benchmark FILTER
median() {
  local filter=$1 fn=$2 d
  d=$(mktemp -d "$work/run.XXXX")
  valgrind --tool=callgrind --callgrind-out-file="$d/cg.out" --dump-after="*$fn*" \
    "$bin" --benchmark_filter="$filter" --benchmark_min_time=0.1 >/dev/null 2>"$d/err"
  find "$d" -name 'cg.out.*' | sort -V | tail -n +3 | while read -r f; do
    callgrind_annotate --inclusive=yes "$f" 2>/dev/null |
      awk -v fn="$fn" '!done && $1 ~ /^[0-9,]+$/ && index($0, fn "(") { gsub(",", "", $1); print $1; done = 1 }'
  done | sort -n | awk '{a[NR] = $1} END { if (NR) printf "%d (%d cases)", a[int((NR + 1) / 2)], NR; else print "none" }'
}

{
  echo "command: bench/case-instructions.sh $device $out"
  echo "binary:  $bin"
  echo "commit:  $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "machine: $(uname -srm), $(nproc) CPUs; $(valgrind --version)"
} >"$out/run.txt"
{
  echo "main-thread instructions of one case (median; callgrind), device $device"
  echo
  echo "| elements | bare loop | harness | harness/bare | harness + guards | guards/bare |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
  for n in 16 256 1024; do
    bare=$(median "BM_BareLoop/$n\$" "BareRig::run")
    harn=$(median "BM_Harness/n:$n/guards:0" "clh::DeviceSession::runCase")
    guard=$(median "BM_Harness/n:$n/guards:1" "clh::DeviceSession::runCase")
    awk -v n="$n" -v b="$bare" -v h="$harn" -v g="$guard" '
      function ratio(x, y) { return (x + 0 > 0 && y + 0 > 0) ? sprintf("%.2f", x / y) : "-" }
      BEGIN { split(b, B, " "); split(h, H, " "); split(g, G, " ");  # the simulator: no guards
        printf "| %s | %s | %s | %s | %s | %s |\n", n, b, h, ratio(H[1], B[1]), g, ratio(G[1], B[1]) }'
  done
} >"$out/instructions.md"
cat "$out/instructions.md"
