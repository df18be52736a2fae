#!/usr/bin/env bash
# What the GPU machine ran for docs/gpu/ (through the device tool, over a copy of this tree with a
# bundle from ci/bundle.sh in .device-carry/): the device table, the whole catalog on every device
# found, the driver matrix and its baselines, launch shapes, the barrier audit of the tiled
# kernels, and the harness-vs-bare-loop benchmark. Results go to $OUT (default gpu-out/). The
# launch step writes each device's known deviations (baselines/launch/ takes them); `check` runs
# the launch family too, against the committed ones.
#   ci/gpu-run.sh [STEP...]   steps: devices check semantics grade launch audit bench bench-pocl
#                             time-pocl ctest-pool grade-batch (default: all);
#                             launch-nvidia, launch-pocl: the launch step for one driver;
#                             check-nvidia: the catalog on NVIDIA alone, its driver section recorded
#                             as a baseline in $OUT/baselines; check-nvidia-regression: the same
#                             in regression mode against the committed baselines/;
#                             time-pocl: the catalog on the host's PoCL timed by
#                             bench/time-check.sh, PoCL's kernel cache empty and filled, with
#                             several --cpu-device-jobs (how the main job's units scale;
#                             Oclgrind is not installed there);
#                             sanitize-testset: bench/sanitize-testset.sh on NVIDIA and the
#                             host's PoCL; sanitize-bench: bench_sanitize on both (the rewrites
#                             from the bundle's rewrite-cache/: no clang there);
#                             catalog-plain, catalog-sanitize: the catalog on NVIDIA without and
#                             with --sanitize, the same options otherwise (their walls compared);
#                             catalog-sanitize-pocl: the sanitized rows on the host's PoCL;
#                             grade-batch: $GRADE_BATCH's assignments (default vadd mmul)
# The device tool brings back at most 8 files: give the steps a folder of their own and keep only the
# archive, e.g.  OUT=/tmp/g ci/gpu-run.sh check-nvidia grade; cp /tmp/g/results.tgz "$OUT"/
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bundle="${BUNDLE:-$root/.device-carry}"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CLHARNESS_ROOT="$root"
[ -d "$bundle/rewrite-cache" ] && export CLHARNESS_REWRITE_CACHE="$bundle/rewrite-cache"
tool="$bundle/clharness"
step() {  # step NAME CMD...: runs, keeps stdout+stderr, notes the exit code and time
  local name=$1; shift
  local t0=$SECONDS
  "$@" >"$out/$name.txt" 2>&1
  echo "$name: exit $? in $((SECONDS - t0)) s" | tee -a "$out/steps.txt"
}
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1; uname -a; } >"$out/machine.txt"
steps=("$@")
run_if() { local name=$1; shift; if [ ${#steps[@]} -eq 0 ] || [[ " ${steps[*]} " == *" $name "* ]]; then step "$name" "$@"; fi; }
run_if devices "$tool" devices
run_if check "$tool" check specs --json "$out/check.json" --junit "$out/check.xml"
run_if check-nvidia "$tool" check specs --device nvidia --json "$out/check-nvidia.json" \
  --junit "$out/check-nvidia.xml" --html "$out/check-nvidia.html" --write-baseline "$out/baselines"
run_if check-nvidia-regression "$tool" check specs --device nvidia --baseline \
  --json "$out/check-nvidia-regression.json"
run_if semantics "$tool" semantics --json "$out/semantics.json"
# Grading on NVIDIA (the tool tests of tests/grade/ need the build tree): every test submission of
# each assignment, then ci/grade-expectations.py against the files' own `// expect:` lines.
run_if grade bash -c 'for a in vadd mmul mmul_tiled pi; do
    "$1" grade --assignment $a kernels/assignments/$a.cl tests/grade/submissions/$a \
      --device "NVIDIA|CUDA" --allow-unassessed --out "$2/grade-$a" --html "$2/grade-$a.html"
    python3 ci/grade-expectations.py "$2/grade-$a" tests/grade/submissions/$a $a; done' _ "$tool" "$out"
run_if launch "$tool" launch specs --json "$out/launch.json" --write-baselines "$out/launch-baselines"
# The same, one driver at a time (each fits one call of the device tool).
run_if launch-nvidia "$tool" launch specs --device 'NVIDIA|CUDA' --json "$out/launch-nvidia.json" \
  --write-baselines "$out/launch-baselines"
run_if launch-pocl "$tool" launch specs --device 'Portable' --json "$out/launch-pocl.json" \
  --write-baselines "$out/launch-baselines"
run_if audit "$tool" audit specs/hackmd/gemm_tiled.yaml specs/intermediate/mul_local.yaml \
  specs/handson/mmul_block.yaml --device 'NVIDIA|CUDA' --json "$out/audit.json"
# The harness-vs-bare-loop benchmark (bench/run.sh: medians of 7 repetitions, JSON and the ratio
# table in $OUT/bench-DEVICE/): NVIDIA, then the host's PoCL.
if [ -x "$bundle/bench_overhead" ]; then
  run_if bench env BENCH_BIN="$bundle/bench_overhead" bench/run.sh nvidia "$out/bench-nvidia"
  run_if bench-pocl env BENCH_BIN="$bundle/bench_overhead" bench/run.sh pocl "$out/bench-pocl"
fi
# The main job's units on a 16-core host: PoCL only (no Oclgrind there). PoCL compiles each kernel
# specialisation once into its cache (POCL_CACHE_DIR), so a first run differs from later ones:
# cold (an empty cache) with 16 and 2 units at once on the CPU device, then warm with 1, 2, 4, 16.
run_if time-pocl env CLHARNESS="$tool" bash -c 'c16=$(mktemp -d); c2=$(mktemp -d)
  POCL_CACHE_DIR=$c16 bench/time-check.sh "$1/time-pocl-cold-units16" --device Portable --cpu-device-jobs 16
  POCL_CACHE_DIR=$c2 bench/time-check.sh "$1/time-pocl-cold-units2" --device Portable --cpu-device-jobs 2
  for u in 1 2 4 16; do POCL_CACHE_DIR=$c16 bench/time-check.sh "$1/time-pocl-warm-units$u" \
    --device Portable --cpu-device-jobs $u; done' _ "$out"
# The sanitizer (issue 42): its test set found on each driver, and its cost per launch.
run_if sanitize-testset bash -c 'CLHARNESS="$2" bench/sanitize-testset.sh nvidia "$1/sanitize-testset-nvidia"
  CLHARNESS="$2" bench/sanitize-testset.sh pocl "$1/sanitize-testset-pocl"' _ "$out" "$tool"
if [ -x "$bundle/bench_sanitize" ]; then
  run_if sanitize-bench bash -c 'for d in NVIDIA Portable; do CLH_BENCH_DEVICE=$d "$2" \
    --benchmark_min_time=0.5 --benchmark_out="$1/bench-sanitize-$d.json" \
    --benchmark_out_format=json; done' _ "$out" "$bundle/bench_sanitize"
fi
run_if catalog-plain "$tool" check specs --device nvidia --json "$out/catalog-plain.json"
run_if catalog-sanitize "$tool" check specs --device nvidia --sanitize \
  --json "$out/catalog-sanitize.json"
# The sanitized rows on the host's PoCL (no simulator there), plain cases beside them.
run_if catalog-sanitize-pocl "$tool" check specs --device pocl --sanitize --launch-shapes 0 \
  --no-driver-checks --json "$out/catalog-sanitize-pocl.json"
# Several GPUs through ctest's resource allocation (docs/ci.md, issue 30): the resource spec file
# of the GPUs, one test per spec pooled over them (`__ctest --pool gpu=gpus`, what
# `clharness_add_kernel_tests(... POOL gpu=gpus)` registers), run -j 4 while nvidia-smi logs every
# half second which process computes on which GPU.
run_if ctest-pool bash -c 'set -e; d=$1/ctest-pool; mkdir -p "$d/ct"
  "$2" devices --device gpu --ctest-resources gpus > "$d/gpus.json"
  "$2" __ctest "$PWD/specs" --exe "$2" --pool gpu=gpus > "$d/ct/CTestTestfile.cmake"
  nvidia-smi --query-compute-apps=timestamp,pid,gpu_uuid,process_name --format=csv -lms 500 \
    > "$d/gpu-processes.csv" 2>&1 & smi=$!
  nvidia-smi --query-gpu=index,uuid,name --format=csv > "$d/gpus.csv"
  rc=0; ctest --test-dir "$d/ct" --resource-spec-file "$d/gpus.json" -j 4 -L gpu \
    --output-on-failure --output-junit "$d/junit.xml" > "$d/ctest.txt" 2>&1 || rc=$?
  kill $smi; exit $rc' _ "$out" "$tool"
# Grading throughput (issue 28): a batch of 40 (30 correct, 10 faulty) per assignment.
run_if grade-batch bash -c 'for a in ${GRADE_BATCH:-vadd mmul}; do
    CLHARNESS="$2" bench/grade-batch.sh $a "$1/grade-batch" --allow-unassessed; done' _ "$out" "$tool"
tar czf "$out/results.tgz" -C "$out" --exclude results.tgz .
