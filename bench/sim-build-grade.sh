#!/usr/bin/env bash
# Grades every test submission of the four assignments on the simulator alone, once with each of
# its builds (the unoptimised one, the default, and Oclgrind's -Oz through
# CLHARNESS_OCLGRIND_BUILD=optimised), and writes per build: the grades (grades.csv per
# assignment), the tool's output, and the wall and CPU time (time.txt); run.txt says the command,
# the commit and the load. Issue 20: what the unoptimised build costs and finds in grading.
#   bench/sim-build-grade.sh OUTDIR
# The tool: $CLHARNESS, else ${BUILD_DIR:-build}/harness/app/clharness (build it first).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: bench/sim-build-grade.sh OUTDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
out=$1
tool=${CLHARNESS:-${BUILD_DIR:-$root/build}/harness/app/clharness}
if [ ! -x "$tool" ]; then
  echo "bench/sim-build-grade.sh: no clharness at $tool" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
grade_all() {  # BUILD: grades of every assignment into $out/BUILD
  local dir="$out/$1" a
  rm -rf "$dir"
  mkdir -p "$dir"
  for a in vadd mmul mmul_tiled pi; do
    "$tool" grade --assignment "$a" "$root/kernels/assignments/$a.cl" \
      "$root/tests/grade/submissions/$a" --device Oclgrind --jobs 1 --allow-unassessed \
      --out "$dir/grades-$a" >"$dir/$a.txt" 2>&1 || true
    cp "$dir/grades-$a/grades.csv" "$dir/$a.csv"
    rm -rf "$dir/grades-$a"
  done
}
export -f grade_all
export out tool root
{
  echo "command: bench/sim-build-grade.sh $out"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/run.txt"
for build in unoptimised optimised; do
  if [ "$build" = optimised ]; then export CLHARNESS_OCLGRIND_BUILD=optimised; fi
  TIMEFORMAT="$build: %R s wall, %U s user, %S s sys"
  { time bash -c "grade_all $build"; } 2>>"$out/time.txt"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/run.txt"
cat "$out/time.txt"
