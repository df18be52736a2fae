#!/usr/bin/env bash
# Times the main job's check phase (what ci/check.sh runs after installing and building:
# `clharness check specs`) with /usr/bin/time -v and writes its wall and CPU time as data:
# time.json, time.txt (time -v's report), check.txt (the run's output), run.txt (the command, the
# commit, the machine and its load before and after).
#   bench/time-check.sh OUTDIR [CHECK OPTION...]   e.g. --device pocl, --jobs 1
# The tool: $CLHARNESS, else ${BUILD_DIR:-build}/harness/app/clharness (build it first).
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: bench/time-check.sh OUTDIR [CHECK OPTION...]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
out=$1
shift
tool=${CLHARNESS:-${BUILD_DIR:-$root/build}/harness/app/clharness}
if [ ! -x "$tool" ]; then
  echo "bench/time-check.sh: no clharness at $tool" >&2
  exit 2
fi
mkdir -p "$out"
commit() {  # the tree's commit; a copy that is no git checkout (the GPU machine's) says so
  local c
  c=$(git -C "$root" rev-parse --short HEAD 2>/dev/null) || { echo "unknown (no git checkout)"; return; }
  git -C "$root" diff --quiet HEAD -- . 2>/dev/null && echo "$c" || echo "$c, with uncommitted changes"
}
cmd=("$tool" check "$root/specs" "$@")
load() { cut -d' ' -f1-3 /proc/loadavg; }
load_before=$(load)
{
  echo "command: /usr/bin/time -v ${cmd[*]}"
  echo "commit:  $(commit)"
  echo "machine: $(uname -srm), $(nproc) CPUs"
  echo "start:   $(date -u +%FT%TZ), uptime: $(uptime)"
} >"$out/run.txt"
rc=0
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v -o "$out/time.txt" "${cmd[@]}" >"$out/check.txt" 2>&1 || rc=$?
else  # a machine without GNU time (the GPU machine): bash's own timer, in time -v's words
  TIMEFORMAT=$'\tElapsed (wall clock) time (h:mm:ss or m:ss): %R\n\tUser time (seconds): %U\n\tSystem time (seconds): %S'
  { time "${cmd[@]}" >"$out/check.txt" 2>&1 || rc=$?; } 2>"$out/time.txt"
fi
load_after=$(load)
echo "end:     $(date -u +%FT%TZ), uptime: $(uptime), exit $rc" >>"$out/run.txt"
# time -v's fields: "Elapsed (wall clock) time (h:mm:ss or m:ss): 1:34.12", "User time (seconds)".
field() { sed -n "s/^[[:space:]]*$1: //p" "$out/time.txt"; }
wall=$(field 'Elapsed (wall clock) time (h:mm:ss or m:ss)' |
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
user=$(field 'User time (seconds)')
sys=$(field 'System time (seconds)')
rss=$(field 'Maximum resident set size (kbytes)')
summary=$(tail -n 3 "$out/check.txt" | grep -m1 ' units: ' || true)
cat >"$out/time.json" <<EOF
{
  "command": "$(printf '%s ' "${cmd[@]}" | sed 's/ $//; s/\\/\\\\/g; s/"/\\"/g')",
  "exit_code": $rc,
  "wall_s": ${wall:-null},
  "user_s": ${user:-null},
  "sys_s": ${sys:-null},
  "cpu_s": $(awk -v u="${user:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.2f", u + s }'),
  "max_rss_kb": ${rss:-null},
  "cpus": $(nproc),
  "load_average_before": "$load_before",
  "load_average_after": "$load_after",
  "units": "$(printf '%s' "$summary" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}
EOF
cat "$out/time.json"
exit $rc
