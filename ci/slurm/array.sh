#!/bin/sh
# A Slurm array job: task K of N runs shard K/N of `clharness check` or `clharness grade` (docs/ci.md).
#SBATCH --array=0-7
#SBATCH --job-name=clharness
#SBATCH --output=shard-%a.log
#
#   sbatch ci/slurm/array.sh check [SPEC|DIR]... [OPTIONS]              # each task: shard-K.json
#   sbatch ci/slurm/array.sh grade --assignment A SUBMISSIONS --out DIR [OPTIONS]   # one DIR for all
#
# Task K of an array 0..N-1 (--array=0-7 above: N = 8) runs the command with `--shard K/N` in the
# job's folder (where sbatch ran, or --chdir), its log in shard-K.log; `check` also gets
# `--json shard-K.json`. Once the array has ended:
#
#   clharness merge shard-*.json --json report.json --html report.html
#   clharness grade --assignment A SUBMISSIONS --out DIR [OPTIONS]   # no --shard: grades nothing
#                                                                     # graded, writes the gradebook
#
# The merge names a shard that is missing or was interrupted (scancel, the time limit). Rerun that
# task alone with the array's size in SHARD_TOTAL (an array of one task has SLURM_ARRAY_TASK_COUNT
# 1); `check --resume` keeps the units it finished (its journal, shard-K.json.journal), `grade`
# keeps every submission already graded:
#
#   sbatch --array=K --export=ALL,SHARD_TOTAL=N ci/slurm/array.sh check [SPEC|DIR]... --resume
#
# CLHARNESS names the tool (default: clharness on PATH). sbatch runs a copy of this script, so it
# reads nothing beside it. Test: tests/cluster/slurm_array_test.sh.
set -eu
k="${SLURM_ARRAY_TASK_ID:?array.sh runs as a task of a Slurm array: sbatch --array=0-N ...}"
n="${SHARD_TOTAL:-}"
if [ -z "$n" ]; then
  # The array's count is N only when the array is 0..N-1, whole; an array of one task is a
  # task run again (sbatch --array=K), whose count is not the shards'.
  if [ "$SLURM_ARRAY_TASK_MIN" -ne 0 ] || [ "$SLURM_ARRAY_TASK_COUNT" -eq 1 ] ||
    [ "$((SLURM_ARRAY_TASK_MAX + 1))" -ne "$SLURM_ARRAY_TASK_COUNT" ]; then
    echo "array.sh: the array (tasks $SLURM_ARRAY_TASK_MIN-$SLURM_ARRAY_TASK_MAX," \
      "$SLURM_ARRAY_TASK_COUNT of them) is not 0-(N-1) with N > 1: give the shard count," \
      "sbatch --export=ALL,SHARD_TOTAL=N" >&2
    exit 2
  fi
  n="$SLURM_ARRAY_TASK_COUNT"
fi
command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
  check) set -- check "$@" --shard "$k/$n" --json "shard-$k.json" ;;
  grade) set -- grade "$@" --shard "$k/$n" ;;
  *)
    echo "array.sh: the first argument is check or grade, not '$command'" >&2
    exit 2
    ;;
esac
exec "${CLHARNESS:-clharness}" "$@"
