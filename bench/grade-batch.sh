#!/usr/bin/env bash
# Times grading a batch of distinct submissions of one assignment (issue 28: the cost of one
# submission): the assignment's reference solution copied N-F times and F of its faulty test
# submissions (tests/grade/submissions/ASSIGNMENT, those that do not hang), each file made distinct
# by a comment so that no kernel cache answers for another. Writes OUTDIR/ASSIGNMENT/: the tool's
# output (grade.txt), its grades (grades.csv, grades.json; results.txt: points, verdicts and
# finding kinds per submission, bench/grade-results.py), time.txt (wall, user and sys of the
# whole batch; seconds a submission; what the sanitized runs on the real devices add to a
# submission: their rewrite and grading process, summed from the grades' devices) and run.txt
# (the command, the commit, the machine, the load). `--no-sanitize` among the options leaves
# them out, for the time without them.
#   bench/grade-batch.sh ASSIGNMENT OUTDIR [GRADE OPTION...]   e.g. --device pocl
# N is $BATCH (default 40), F is $FAULTY (default 10, at most the faulty files there). The tool:
# $CLHARNESS, else ${BUILD_DIR:-build}/harness/app/clharness.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bench/grade-batch.sh ASSIGNMENT OUTDIR [GRADE OPTION...]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
assignment=$1
outdir=$2
out=$outdir/$assignment
shift 2
tool=${CLHARNESS:-${BUILD_DIR:-$root/build}/harness/app/clharness}
n=${BATCH:-40}
faulty=${FAULTY:-10}
reference="$root/kernels/assignments/$assignment.cl"
tests="$root/tests/grade/submissions/$assignment"
for need in "$tool" "$reference"; do
  [ -e "$need" ] || {
    echo "bench/grade-batch.sh: $need is missing" >&2
    exit 2
  }
done
rm -rf "$out"
mkdir -p "$out/submissions"
out=$(cd "$out" && pwd)
k=0
# Faulty ones first: those whose expectation is not a timeout (a hang costs its limits, which
# docs/grading.md prices apart).
while IFS= read -r f; do
  [ $k -lt "$faulty" ] || break
  grep -q 'expect:.*timeout' "$f" && continue
  k=$((k + 1))
  { cat "$f"; echo "// batch submission $k"; } >"$out/submissions/$(printf 'f%02d' $k)-$(basename "$f")"
done < <(ls "$tests"/*.cl)
while [ $k -lt "$n" ]; do
  k=$((k + 1))
  { cat "$reference"; echo "// batch submission $k"; } >"$out/submissions/$(printf 'c%02d' $k).cl"
done
{
  echo "command: bench/grade-batch.sh $assignment $outdir $*"
  echo "grade:   $tool grade --assignment $assignment $out/submissions --out $out/grades $*"
  echo "batch:   $k submissions, $(ls "$out"/submissions/f* 2>/dev/null | wc -l) of them faulty"
  echo "commit:  $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/run.txt"
rc=0
/usr/bin/time -f "%e %U %S" -o "$out/time.raw" "$tool" grade --assignment "$assignment" \
  "$out/submissions" --out "$out/grades" "$@" >"$out/grade.txt" 2>&1 || rc=$?
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); exit code $rc" >>"$out/run.txt"
read -r wall user sys < <(tail -1 "$out/time.raw")  # after "Command exited with ..."
cp "$out/grades/grades.csv" "$out/grades/grades.json" "$out/" 2>/dev/null || true
# Points, verdicts and finding kinds per submission, for a diff against another grading.
python3 "$root/bench/grade-results.py" "$out/grades" >"$out/results.txt" 2>/dev/null || true
per() { awk "BEGIN { printf \"%.3f\", ($1) / $k }"; }  # awk: the GPU machine has no bc
# The sanitized runs' wall, summed over every submission's grade (each is one grading process and
# its plan, in series with the submission's other devices).
sanitized=$(python3 - "$out/grades" <<'PY'
import glob, json, os, sys
total, runs = 0.0, 0
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    try:
        g = json.load(open(path))
    except (OSError, ValueError):
        continue
    for d in g.get("devices", []) if isinstance(g, dict) else []:
        if d.get("sanitized"):
            total, runs = total + d.get("seconds", 0.0), runs + 1
print(f"{total:.3f} {runs}")
PY
)
read -r sanitized_s sanitized_runs <<<"$sanitized"
{
  echo "$assignment: $k submissions in $wall s wall, $user s user, $sys s sys"
  echo "a submission: $(per "$wall") s wall, $(per "($user + $sys)") s CPU"
  echo "sanitized runs: $sanitized_runs, $sanitized_s s wall in all, $(per "$sanitized_s") s a submission (in series with its other devices)"
} | tee "$out/time.txt"
rm -rf "$out/grades" "$out/time.raw"
