#!/usr/bin/env bash
# The main job with compiling ahead (the default) and without (--no-compile-ahead), back to back on
# this machine: once each with PoCL's kernel cache empty, then RUNS times each with it filled,
# alternating. Writes OUTDIR/runs.tsv (variant, cache, wall s, CPU s, processes that paid PoCL's
# first build: bench/pocl-first-builds.py) and each run's report and verdicts
# (bench/check-verdicts.sh), and OUTDIR/verdicts.diff between the two cold runs (empty: the same).
#   bench/compile-ahead.sh OUTDIR [RUNS]     (RUNS default 3; about 2.5 + 2*RUNS minutes on 2 cores)
# The tool: $CLHARNESS, else ${BUILD_DIR:-build}/harness/app/clharness (build it first).
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bench/compile-ahead.sh OUTDIR [RUNS]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
out=$1
runs=${2:-3}
mkdir -p "$out"
printf 'variant\tcache\twall_s\tcpu_s\tfirst_builds\n' >"$out/runs.tsv"
one() {  # VARIANT CACHE-WORD CACHE-DIR NAME: one run of the main job
  local variant=$1 word=$2 cache=$3 name=$4 flags=()
  [ "$variant" = off ] && flags=(--no-compile-ahead)
  POCL_CACHE_DIR=$cache "$root/bench/pocl-first-builds.py" --log "$out/$name.opens" -- \
    "$root/bench/time-check.sh" "$out/$name" "${flags[@]}" --json "$out/$name/report.json" >/dev/null ||
    true # a run's verdicts are its report's; its exit code is the check's
  jq -r --arg v "$variant" --arg c "$word" --arg n "$(wc -l <"$out/$name.opens")" \
    '[$v, $c, .wall_s, .cpu_s, $n] | @tsv' "$out/$name/time.json" >>"$out/runs.tsv"
  "$root/bench/check-verdicts.sh" "$out/$name/report.json" >"$out/$name.verdicts.tsv"
}
for variant in on off; do
  cache=$(mktemp -d)
  one "$variant" empty "$cache" "cold-$variant"
  if [ "$variant" = on ]; then warm_cache=$cache; else rm -rf "$cache"; fi
done
for i in $(seq "$runs"); do
  for variant in off on; do one "$variant" filled "$warm_cache" "warm$i-$variant"; done
done
rm -rf "$warm_cache"
diff "$out/cold-on.verdicts.tsv" "$out/cold-off.verdicts.tsv" >"$out/verdicts.diff" || true
column -t -s $'\t' "$out/runs.tsv"
echo "verdicts, cold on vs off: $(wc -l <"$out/verdicts.diff") differing lines ($out/verdicts.diff)"
