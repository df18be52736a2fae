#!/usr/bin/env bash
# What the GPU machine ran for docs/gpu/ (through the device tool, over a copy of this tree with a
# bundle from ci/bundle.sh in .device-carry/): the device table, the whole catalog on every device
# found, the driver matrix and its baselines, launch shapes, the barrier audit of the tiled
# kernels, and the harness-vs-bare-loop benchmark. Results go to $OUT (default gpu-out/). The
# launch step writes each device's known deviations (baselines/launch/ takes them); `check` runs
# the launch family too, against the committed ones.
#   ci/gpu-run.sh [STEP...]   steps: devices check semantics launch audit bench bench-pocl
#                             (default: all);
#                             launch-nvidia, launch-pocl: the launch step for one driver;
#                             check-nvidia: the catalog on NVIDIA alone, its driver section recorded
#                             as a baseline in $OUT/baselines; check-nvidia-regression: the same
#                             in regression mode against the committed baselines/
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bundle="${BUNDLE:-$root/.device-carry}"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CLHARNESS_ROOT="$root"
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
  --junit "$out/check-nvidia.xml" --write-baseline "$out/baselines"
run_if check-nvidia-regression "$tool" check specs --device nvidia --baseline \
  --json "$out/check-nvidia-regression.json"
run_if semantics "$tool" semantics --json "$out/semantics.json"
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
tar czf "$out/results.tgz" -C "$out" --exclude results.tgz .
