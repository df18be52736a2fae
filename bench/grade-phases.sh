#!/usr/bin/env bash
# Where one submission's grading time goes (issue 28): grades a small batch of ASSIGNMENT (the
# reference solution copied K times, each distinct, and its faulty test submissions that do not
# hang) one at a time under `strace -f` and `perf record`, then splits each grading process's
# wall time into phases (bench/grade-phases.py) and the CPU by library (perf report --sort dso).
#   bench/grade-phases.sh ASSIGNMENT OUTDIR [GRADE OPTION...]
# Writes OUTDIR/ASSIGNMENT/: phases.txt, dso.txt, grade.txt, run.txt. K is $COPIES (default 4).
# strace stops only the calls it traces (--seccomp-bpf), yet it and perf slow a batch a little:
# the phases are for proportions; bench/grade-batch.sh gives the seconds.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bench/grade-phases.sh ASSIGNMENT OUTDIR [GRADE OPTION...]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
assignment=$1
out=$2/$1
shift 2
tool=${CLHARNESS:-${BUILD_DIR:-$root/build}/harness/app/clharness}
copies=${COPIES:-4}
for need in strace perf python3; do
  command -v $need >/dev/null || {
    echo "bench/grade-phases.sh: $need is missing" >&2
    exit 2
  }
done
rm -rf "$out"
mkdir -p "$out/submissions"
out=$(cd "$out" && pwd)
for i in $(seq 1 "$copies"); do
  { cat "$root/kernels/assignments/$assignment.cl"; echo "// copy $i"; } >"$out/submissions/c$i.cl"
done
for f in "$root/tests/grade/submissions/$assignment"/*.cl; do
  grep -q 'expect:.*timeout' "$f" && continue
  { cat "$f"; echo "// faulty"; } >"$out/submissions/f-$(basename "$f")"
done
{
  echo "command: bench/grade-phases.sh $assignment $* (COPIES=$copies)"
  echo "commit:  $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/run.txt"
strace -f -ttt -s 400 --seccomp-bpf -o "$out/strace.txt" \
  -e trace=execve,openat,write,exit_group,clone,clone3,vfork \
  perf record -q -F 499 -g -o "$out/perf.data" -- \
  "$tool" grade --assignment "$assignment" "$out/submissions" --out "$out/grades" --jobs 1 "$@" \
  >"$out/grade.txt" 2>&1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/run.txt"
python3 "$root/bench/grade-phases.py" "$out/strace.txt" >"$out/phases.txt"
perf report -i "$out/perf.data" --no-children --sort dso --stdio 2>/dev/null |
  grep -v '^#' | grep -v '^$' | head -25 >"$out/dso.txt" || true
rm -rf "$out/grades" "$out/perf.data" "$out/perf.data.old" "$out/strace.txt"
cat "$out/phases.txt"
