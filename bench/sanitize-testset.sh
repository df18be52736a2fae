#!/usr/bin/env bash
# The sanitizer's test set (tests/sanitize/kernels, the project's own kernels) through
# `clharness scan --sanitize` on one device, each at a small and a large grid: what it found (kind
# and lines) against what the kernel holds, one row per run, in OUT/testset.tsv with each scan's
# JSON beside it. Exit 1 when a run found other than expected.
#   bench/sanitize-testset.sh DEVICE OUT   (DEVICE as --device takes it: pocl, nvidia, ...;
#   CLHARNESS: the tool, default build/harness/app/clharness; on a host without clang's libraries
#   give CLHARNESS_REWRITE_CACHE a folder filled by the same run on a host that has them)
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
device=${1:?device}; out=${2:?out folder}
tool="${CLHARNESS:-$root/build/harness/app/clharness}"
k="$root/tests/sanitize/kernels"
mkdir -p "$out"
# file|kernel|scan arguments|expected: clean, or KIND@LINE[,LINE] (the finding's lines)
cases=(
  "read_past_end.cl|neighbour_sum|--global 1024 --local 64 --arg a=1024 --arg out=1024 --arg n=1024|out_of_bounds@7"
  "read_past_end.cl|neighbour_sum|--global 1048576 --local 256 --arg a=1048576 --arg out=1048576 --arg n=1048576|out_of_bounds@7"
  "read_past_end.cl|neighbour_sum|--global 1000 --local 8 --arg a=1000 --arg out=1000 --arg n=1000|clean"
  "local_race.cl|add_neighbour|--global 256 --local 64|race@8,9"
  "local_race.cl|add_neighbour|--global 1048576 --local 256 --arg in=1048576 --arg out=1048576|race@8,9"
  "helper_race.cl|shift_left|--global 128 --local 64|race@4,7"
  "cross_group_race.cl|zero_then_read|--global 256 --local 64 --arg a=64 --arg out=256|race@6,7"
  "cross_group_race.cl|zero_then_read|--global 1048576 --local 64 --arg a=64 --arg out=1048576|race@6,7"
  "uninit_local.cl|half_filled|--global 128 --local 64|uninitialized@"
  "tiled_matmul.cl|matmul_tiled|--global 64,64 --local 16,16 --arg n=64 --arg A=4096 --arg B=4096 --arg C=4096|clean"
  "tiled_matmul.cl|matmul_tiled|--global 1024,1024 --local 16,16 --arg n=1024 --arg A=1048576 --arg B=1048576 --arg C=1048576|clean"
  "atomic_counter.cl|count_positive|--global 1024 --local 64 --arg x=1024 --arg count=1|clean"
  "atomic_counter.cl|count_positive|--global 1048576 --local 256 --arg x=1048576 --arg count=1|clean"
  "async_copy.cl|reverse_slices|--global 256 --local 64 --arg in=256 --arg out=256|clean"
  "vector_past_end.cl|shift_vectors|--global 64 --local 16 --arg in=256 --arg out=256|out_of_bounds@7"
  "vector_local_race.cl|neighbour_vectors|--global 128 --local 64 --arg in=512 --arg out=512|race@6,7"
  "atomic_pointer.cl|histogram|--global 256 --local 64 --arg x=256 --arg bins=16 --arg n=16|out_of_bounds@5"
  "async_faults.cl|stage_shifted|--global 256 --local 64 --arg in=256 --arg out=256|out_of_bounds@7"
  "async_faults.cl|stage_half|--global 256 --local 64 --arg in=256 --arg out=256|uninitialized@18"
  "async_faults.cl|scatter_columns|--global 256 --local 64 --arg in=256 --arg out=256|out_of_bounds@27"
  "async_faults.cl|stage_next|--global 256 --local 64 --arg a=256 --arg out=256|race@35,36"
  "async_faults.cl|transpose_columns|--global 256 --local 64 --arg in=256 --arg out=256|clean"
  "async_faults.cl|transpose_columns|--global 65536 --local 64 --arg in=65536 --arg out=65536|clean"
  "divergent_barrier.cl|sum_first_half|--global 128 --local 64 --arg in=128 --arg out=128|divergence@7,8"
  "divergent_barrier.cl|reverse_prefix|--global 128 --local 64 --arg in=128 --arg out=128 --arg n=100|divergence@17,19"
  "divergent_barrier.cl|reverse_prefix|--global 1048576 --local 64 --arg in=1048576 --arg out=1048576 --arg n=999999|divergence@17,19"
  "divergent_barrier.cl|reverse_prefix|--global 128 --local 64 --arg in=128 --arg out=128 --arg n=128|clean"
  "divergent_barrier.cl|barriers_by_item|--global 128 --local 64 --arg in=128 --arg out=128|divergence@27,28"
)
printf 'kernel\tgrid\texpected\tfound\tverdict\tseconds\n' >"$out/testset.tsv"
bad=0; n=0
for c in "${cases[@]}"; do
  IFS='|' read -r file kernel args expect <<<"$c"
  n=$((n + 1)); json="$out/run-$n.json"; t0=$(date +%s%N)
  # shellcheck disable=SC2086
  "$tool" scan "$k/$file" --kernel "$kernel" $args --device "$device" --sanitize --tries 1 \
    --json "$json" >"$out/run-$n.txt" 2>&1
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  row=$(python3 - "$json" "$expect" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
except Exception as e:
    print("no report\tERROR"); sys.exit()
found = sorted({f"{f['kind']}@{','.join(sorted({str(l['line']) for l in f.get('lines', [])}))}"
                for f in r.get("findings", [])})
exp = sys.argv[2]
if exp == "clean": ok = not found
else:
    kind, lines = exp.split("@")
    lines = ",".join(sorted(lines.split(","))) if lines else ""
    ok = any(x.startswith(kind + "@" + lines) for x in found) and all(
        x.split("@")[0] == kind for x in found)
print((" ".join(found) or "clean") + "\t" + ("as expected" if ok else "NOT AS EXPECTED"))
PY
)
  grid=$(sed -n 's/.*--global \([^ ]*\) --local \([^ ]*\).*/\1 local \2/p' <<<"$args")
  printf '%s\t%s\t%s\t%s\t%d.%03d\n' "$kernel" "$grid" "$expect" "$row" $((ms / 1000)) $((ms % 1000)) >>"$out/testset.tsv"
  [[ "$row" == *"as expected" && "$row" != *"NOT AS"* ]] || bad=1
done
column -t -s $'\t' "$out/testset.tsv" 2>/dev/null || cat "$out/testset.tsv"  # no column(1) on some hosts
exit $bad
