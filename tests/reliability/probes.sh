#!/usr/bin/env bash
# Issue 32's hostile-input probes replayed as one set: each bullet of the issue (and the items it
# found holding) is one probe with the exit code and the words it must give; issue 43's item 5
# (hostile input answered well) is added the same way.
# Usage: probes.sh TOOL ROOT
#
# The deeper test of each item is named beside its probe; this script calls the same commands so
# that the whole set is rerun in one place (about two minutes on 2 cores, PoCL where a run is needed).
# Exit 0: every probe held; 1: one did not; 77: all held but PoCL is missing (device probes
# skipped).
set -uo pipefail
tool="$1"
root="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/clh-probes.XXXXXX")"
trap 'rm -rf "$work"' EXIT
pocl="Portable Computing Language"
quick="$root/tests/reliability/specs/quick/quick_a.yaml"
vadd_sub="$root/tests/grade/submissions/vadd/off_by_one.cl"
held=0 failed=0 skipped=0 last_out=""

# probe NAME CODE TEXT -- COMMAND...: runs COMMAND, wants exit CODE and TEXT in its output.
probe() {
  local name="$1" want="$2" text="$3"
  shift 4
  local out code
  out="$("$@" 2>&1)"
  code=$?
  last_out="$out"
  if [[ "$code" != "$want" ]]; then
    echo "FAILED $name: exit $code, expected $want"
    printf '%s\n' "$out" | tail -n 15 | sed 's/^/    /'
    failed=$((failed + 1))
  elif [[ -n "$text" && "$out" != *"$text"* ]]; then
    echo "FAILED $name: exit $code as expected, but no '$text' in:"
    printf '%s\n' "$out" | tail -n 15 | sed 's/^/    /'
    failed=$((failed + 1))
  else
    echo "held   $name"
    held=$((held + 1))
  fi
}

# expect NAME DESCRIPTION -- TEST...: a condition on what a probe left behind.
expect() {
  local name="$1" what="$2"
  shift 3
  if "$@"; then
    echo "held   $name"
    held=$((held + 1))
  else
    echo "FAILED $name: $what"
    failed=$((failed + 1))
  fi
}

skip() {
  echo "skip   $1 (no PoCL device here)"
  skipped=$((skipped + 1))
}

has() { grep -qF -- "$1" "$2"; }
none_running() { ! pgrep -f -- "$1" >/dev/null; }

# ---- specs that cannot be evaluated, or name what is not theirs (BadSpecs; core_tests' fixtures in
# tests/core/specs/bad/ cover each message) ----
mkdir -p "$work/specs"
cp "$root/tests/e2e/kernels/vadd_ok.cl" "$work/specs/vadd.cl"
spec() {  # spec FILE COUNT_OF_A [PARAM_LINE] [KERNEL] [SOURCE]
  local param="${3:-}"
  [[ -n "$param" ]] || param="M: {value: N}"
  cat >"$work/specs/$1" <<EOF
name: ${1%.yaml}
source: ${5:-vadd.cl}
reference: vadd_f32
params:
  N: {range: [1, 64]}
  $param
buffers:
  a: {type: float, count: $2, init: "uniform(-1, 1)"}
  b: {type: float, count: N, init: "uniform(-1, 1)"}
  c: {type: float, count: N, role: out}
kernel: ${4:-vadd}
args: [a, b, c, {scalar: uint, value: N}]
global: [N]
EOF
}
spec div_zero.yaml N "G: {value: N / (N - N)}"
spec negative.yaml "N - 65"
spec no_kernel.yaml N "" vdd
spec passwd.yaml N "" vadd ../../../../../../../etc/passwd
spec huge.yaml 10000000000
probe spec.division_by_zero 2 "div_zero.yaml:6: params.G.value:" -- \
  "$tool" check "$work/specs/div_zero.yaml"
probe spec.negative_count 2 "negative.yaml:8: buffers.a.count: 'N - 65' = -64 is negative" -- \
  "$tool" check "$work/specs/negative.yaml"
probe spec.kernel_missing_from_file 2 "no_kernel.yaml:11: kernel: 'vdd' is not in" -- \
  "$tool" check "$work/specs/no_kernel.yaml"
probe spec.source_outside_tree 2 "passwd.yaml:2: source:" -- \
  "$tool" check "$work/specs/passwd.yaml"
expect spec.source_outside_tree.no_host_text "a host file's text in the message" -- \
  bash -c "! '$tool' check '$work/specs/passwd.yaml' 2>&1 | grep -q 'root:x:'"

# ---- options out of range, replay typos (BadOptions) ----
probe option.seed_negative 2 "--seed: '-1' is not an unsigned integer" -- \
  "$tool" check "$quick" --seed -1
probe option.check_timeout_zero 2 "--timeout" -- "$tool" check "$quick" --timeout 0
probe option.grade_memory_64 2 "--memory" -- \
  "$tool" grade --assignment vadd "$vadd_sub" --memory 64
probe option.sizes_unknown_name 2 "--sizes: 'FOO' is not a parameter of" -- \
  "$tool" check "$quick" --sizes FOO=3
probe option.grade_sizes_unknown_name 2 "'FOO' is not a parameter" -- \
  "$tool" grade --assignment vadd "$vadd_sub" --sizes FOO=3

# ---- merge of an interrupted report (Merge.AnIncompleteInputMakesAnIncompleteMerge) ----
mkdir -p "$work/merge"
cat >"$work/merge/a.json" <<'EOF'
{"tool_version": "t", "seed": 1, "devices": [], "units": [], "incomplete": true,
 "interrupted_by": "SIGTERM", "units_planned": 4}
EOF
echo '{"tool_version": "t", "seed": 1, "devices": [], "units": []}' >"$work/merge/b.json"
probe merge.incomplete_input 1 "is incomplete (interrupted by SIGTERM" -- \
  "$tool" merge "$work/merge/a.json" "$work/merge/b.json" --json "$work/merge/m.json"
expect merge.incomplete_flag "no \"incomplete\": true in the merged report" -- \
  has '"incomplete": true' "$work/merge/m.json"

# ---- issue 43, item 5: hostile input answered well (no device needed) ----
# --device text that overflowed std::regex's stack (SelectDevices.AHostilePatternIsRefusedNotCompiled,
# BadOptions.AHostileDevicePatternIsAUsageErrorAndLeavesNoFolder)
mkdir -p "$work/tmp-device"
nested="$(head -c 20000 /dev/zero | tr '\0' '(')"
for cmd in devices "check $quick" "grade --assignment vadd $vadd_sub"; do
  # shellcheck disable=SC2086
  probe "device.nested_parentheses.${cmd%% *}" 2 "--device: the text given is 20000 characters" -- \
    env TMPDIR="$work/tmp-device" "$tool" $cmd --device "$nested"
done
probe device.long_text 2 "is 100000 characters long" -- env TMPDIR="$work/tmp-device" \
  "$tool" devices --device "$(head -c 100000 /dev/zero | tr '\0' 'x')"
probe device.exponential_pattern 2 "exponential time" -- env TMPDIR="$work/tmp-device" \
  "$tool" devices --device '(a+)+$'
expect device.no_icd_folder_left "a clharness-* folder left in TMPDIR" -- \
  bash -c "! ls '$work/tmp-device' | grep -q '^clharness-'"
# --timeout 0's bound (BadOptions.ValuesOutOfRangeAreUsageErrors)
probe option.timeout_bound 2 "more than 0 and at most 1000000 (about 11 days)" -- \
  "$tool" check "$quick" --timeout 0
expect option.timeout_bound_sane "a 309-digit bound in the message" -- \
  bash -c "! '$tool' check '$quick' --timeout 0 2>&1 | grep -q '[0-9]\{20\}'"
# a replay that leaves out a parameter (BadOptions.AReplayLeavingOutAParameterIsAUsageError)
probe option.sizes_missing_parameter 2 "--sizes: 'N=5' leaves out L, a parameter of" -- \
  "$tool" check "$root/tests/e2e/specs/vadd_ok.yaml" --sizes N=5
# a kernel file that is a FIFO (HostileSpec.AKernelFileThatIsAFifoIsNamedAsOne)
mkfifo "$work/specs/fifo.cl"
spec fifo.yaml N "" vadd fifo.cl
probe spec.source_is_a_fifo 2 "fifo.cl, a named pipe (FIFO), not a regular file" -- \
  "$tool" check "$work/specs/fifo.yaml"
# reports of two versions merged (Merge.EachUnitKeepsTheToolVersionThatRanIt)
for v in a b; do
  printf '%s\n' "{\"tool_version\": \"0.1.0 (git $v)\", \"seed\": 1, \"devices\": [\"d\"]," \
    " \"units\": [{\"spec\": \"$v\", \"spec_file\": \"$v.yaml\", \"device\": \"d\"," \
    " \"status\": \"pass\"}]}" >"$work/merge/v-$v.json"
done
probe merge.two_versions 0 "each unit keeps the version that ran it" -- \
  "$tool" merge "$work/merge/v-a.json" "$work/merge/v-b.json" --json "$work/merge/v.json"
expect merge.unit_versions "a unit without its own tool_version" -- python3 -c "
import json, sys
u = json.load(open('$work/merge/v.json'))['units']
sys.exit(0 if [x.get('tool_version') for x in u] == ['0.1.0 (git a)', '0.1.0 (git b)'] else 1)"
# a vendors folder of the user's (IcdFolder.AUsersOwnFilesAreNeverRemovedOrRewritten)
mkdir -p "$work/icd"
echo /opt/mine/libmine.so >"$work/icd/mine.icd"
CLHARNESS_ICD_DIR="$work/icd" "$tool" devices >/dev/null 2>&1
expect icd.user_file_kept "the user's mine.icd was removed or rewritten" -- \
  grep -qx /opt/mine/libmine.so "$work/icd/mine.icd"
# folders of a run killed by SIGKILL (RunFolders.OnlyFoldersOfDeadRunsAreRemoved,
# Interrupt.KillNineOfTheParentLeavesNoChild)
mkdir -p "$work/stale"
(:) &
dead=$!
wait "$dead"
mkdir -p "$work/stale/clharness-$dead/x" "$work/stale/clharness-icd-$dead-AbCdEf" \
  "$work/stale/clharness-$$"
TMPDIR="$work/stale" "$tool" devices >/dev/null 2>&1
expect run.stale_folders_removed "a dead run's folder left after the next run" -- \
  bash -c "! ls '$work/stale' | grep -q -- '-$dead'"
expect run.live_folder_kept "a live process's folder removed" -- test -d "$work/stale/clharness-$$"

if ! "$tool" devices --device "$pocl" >/dev/null 2>&1; then
  for p in spec.huge_buffer report.json_at_a_folder report.full_disk grade.full_disk \
    resume.after_edit launch.time_limit_named check.compiler_crash grade.hostile_batch \
    interrupt.TERM interrupt.INT check.concurrent_reports grade.interrupted; do skip "$p"; done
else
  one=(--device "$pocl" --cases 1 --launch-shapes 0 --no-driver-checks)

  # ---- a buffer no device holds (BadSizes.AHugeBufferIsASkippedCaseNamingTheBufferNotAToolError)
  probe spec.huge_buffer 0 "buffers.a (line 8)" -- \
    "$tool" check "$work/specs/huge.yaml" "${one[@]}"

  # ---- reports that cannot be written (ReportWrites) ----
  mkdir -p "$work/folder/r.json"
  probe report.json_at_a_folder 2 "cannot write $work/folder/r.json: Is a directory" -- \
    "$tool" check "$quick" "${one[@]}" --json "$work/folder/r.json"
  mkdir -p "$work/full"
  if unshare -Urm sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt' >/dev/null 2>&1; then
    probe report.full_disk 2 "No space left on device" -- unshare -Urm sh -c \
      "mount -t tmpfs -o size=12k tmpfs '$work/full' && exec '$tool' check '$quick' \
       --device '$pocl' --cases 1 --launch-shapes 0 --no-driver-checks \
       --json '$work/full/r.json' --html '$work/full/r.html'"
    # (GradeDisk.AResultsFolderWithoutRoomIsRefusedBeforeAnyGrade)
    probe grade.full_disk 2 "less than the 64 MiB grading needs there" -- unshare -Urm sh -c \
      "mount -t tmpfs -o size=8m tmpfs '$work/full' && exec '$tool' grade --assignment vadd \
       '$root/kernels/assignments/vadd.cl' --device pocl --allow-unassessed --cases 2 \
       --out '$work/full/out'"
  else
    echo "skip   report.full_disk, grade.full_disk (no mount namespace with a tmpfs here)"
    skipped=$((skipped + 2))
  fi

  # ---- --resume after the kernel was edited (Resume.AJournalOfAnEditedKernelOrSpecIsRefused) ----
  mkdir -p "$work/resume/r.json"
  cp "$root/tests/e2e/kernels/vadd_ok.cl" "$work/resume/vadd.cl"
  sed 's#../../../e2e/kernels/vadd_ok.cl#vadd.cl#' "$quick" >"$work/resume/quick.yaml"
  run=("$tool" check "$work/resume/quick.yaml" "${one[@]}" --json "$work/resume/r.json")
  probe resume.journal_kept 2 "Is a directory" -- "${run[@]}"
  probe resume.unchanged_files 2 "resuming: 1 finished units" -- "${run[@]}" --resume
  echo "// edited" >>"$work/resume/vadd.cl"
  probe resume.after_edit 2 "quick.yaml or its kernel changed" -- "${run[@]}" --resume

  # ---- a launch child stopped by its time limit (LaunchLimits.AStoppedChildNamesItsTimeLimit) --
  probe launch.time_limit_named 1 "stopped by its time limit of 0.05 s before any shape ran" -- \
    "$tool" launch "$quick" --device "$pocl" --shapes 1 --timeout 0.05

  # ---- a kernel that crashes the compiler, in check (BuildCrash.CheckChargesTheSource) ----
  mkdir -p "$work/crash"
  printf '#pragma clang __debug crash\n' >"$work/crash/vadd.cl"
  cat "$root/tests/e2e/kernels/vadd_ok.cl" >>"$work/crash/vadd.cl"
  sed 's#../../../e2e/kernels/vadd_ok.cl#vadd.cl#' "$quick" >"$work/crash/quick.yaml"
  probe check.compiler_crash 1 "while building this kernel; a plain kernel builds" -- \
    "$tool" check "$work/crash/quick.yaml" "${one[@]}"

  # ---- one grading batch of hostile submissions (GradeHostile, BuildCrash.GradeChargesTheSource,
  # tests/grade/hostile_input_test.cpp): a link to /etc/passwd, 4 MB of spaces before '(', an
  # #include of a host file, a macro bomb, `__debug crash`, a syntax error (PoCL's diagnostics),
  # and a correct kernel in a file named like a spreadsheet formula ----
  in="$work/grade-in" out="$work/grade-out"
  mkdir -p "$in"
  ln -s /etc/passwd "$in/passwd.cl"
  { printf '__kernel void vadd'; head -c $((4 << 20)) /dev/zero | tr '\0' ' '; printf '('; } \
    >"$in/spaces.cl"
  printf '#include "/etc/passwd"\n' >"$in/include.cl"
  cat "$root/kernels/assignments/vadd.cl" >>"$in/include.cl"
  {  # 8 * 4^10 initializers: past the 256 MiB limit in the compiler (8 * 4^9 is too, and builds
    # at --memory 1024; 4^12 cost twice the CPU for the same finding. A time bomb costs 10 times
    # the reference's compile, twice: GradeUnderLoad's territory, not a quick probe's)
    echo '#define A0 x,x,x,x,x,x,x,x'
    for i in $(seq 1 10); do
      p="A$((i - 1))"
      echo "#define A$i $p,$p,$p,$p"
    done
    bomb='  const float x = 1.0f; const float bomb[] = {A10}; (void)bomb;'
    sed "s/^\(.*get_global_id.*\)\$/\1\n$bomb/" "$root/kernels/assignments/vadd.cl"
  } >"$in/macro_bomb.cl"
  printf '#pragma clang __debug crash\n' >"$in/debug_crash.cl"
  cat "$root/kernels/assignments/vadd.cl" >>"$in/debug_crash.cl"
  sed 's/get_global_id(0)/get_global_id(0) +/' "$root/kernels/assignments/vadd.cl" \
    >"$in/syntax_error.cl"
  cp "$root/kernels/assignments/vadd.cl" "$in/=HYPERLINK(\"http:x\";\"y\").cl"
  # issue 43: a name that clears and recolours the screen (a syntax error: its name reaches the
  # compiler's diagnostics too, and it costs no grade of a correct kernel), and a link to a folder
  cp "$in/syntax_error.cl" "$in/$(printf '\033[2J\033[31mred').cl"
  mkdir -p "$work/elsewhere"
  cp "$root/kernels/assignments/vadd.cl" "$work/elsewhere/bob.cl"
  ln -s "$work/elsewhere" "$in/team"
  mkdir -p "$work/tmp"
  probe grade.hostile_batch 0 "feedback, grades.csv and summary.txt in" -- \
    env TMPDIR="$work/tmp" "$tool" grade --assignment vadd "$in" --device pocl --allow-unassessed --cases 2 --jobs 2 \
    --memory 256 --out "$out"
  batch_out="$last_out"
  first_line="$(head -n 1 /etc/passwd)"
  expect grade.symlink_refused "passwd.md does not say the link was refused" -- \
    has "refused before any device built it: the file is a symbolic link" "$out/passwd.md"
  expect grade.symlink_no_host_text "/etc/passwd's first line in the feedback" -- \
    bash -c "! grep -rqF -- '$first_line' '$out'"
  expect grade.spaces_refused "spaces.md does not say the file was too large" -- \
    has "the file is larger than 1024 KiB" "$out/spaces.md"
  expect grade.include_refused "include.md does not refuse the #include" -- \
    has "refused before any device built it" "$out/include.md"
  expect grade.macro_bomb_is_a_build_finding "macro_bomb.json has no build_error" -- \
    has '"build_error"' "$out/macro_bomb.json"
  expect grade.debug_crash_is_a_build_finding "debug_crash.md does not name a compiler crash" -- \
    has "the compiler crashed while building your kernel (SIG" "$out/debug_crash.md"
  expect grade.pocl_diagnostics_reach_the_student "no 'syntax_error.cl:L:C' in its feedback" -- \
    grep -qE "error: syntax_error\.cl:[0-9]+:[0-9]+: " "$out/syntax_error.md"
  expect grade.formula_cell_quoted "grades.csv holds a cell starting with '='" -- \
    bash -c "has() { grep -qF -- \"\$1\" \"\$2\"; }; has \"'=HYPERLINK\" '$out/grades.csv' && \
      ! grep -qE '(^|,)=HYPERLINK' '$out/grades.csv'"
  # (SubmissionFile.ControlCharactersInANameReachNoOutputRaw)
  esc=$'\x1b'
  expect grade.escape_name_neutralised "an escape character on the console or in a file" -- \
    bash -c "! grep -rqF '$esc' '$out' && [[ \"\$1\" != *'$esc'* ]] && \
      grep -qF '\x1b[2J' '$out/summary.txt' && grep -qF 'error: \x1b[2J' '$out'/*red.md" \
    _ "$batch_out"
  # (SubmissionFile.ALinkedFolderIsARefusedSubmissionNotFollowed)
  expect grade.linked_folder_refused "team.md does not say the folder was a link" -- \
    has "the folder is a symbolic link" "$out/team.md"
  expect grade.no_work_folder_left "a .work-* folder left in the results" -- \
    bash -c "! ls -a '$out' | grep -q '^\.work-'"
  expect grade.no_icd_folder_left "a clharness-icd-* folder left in TMPDIR" -- \
    bash -c "! ls '$work/tmp' | grep -q '^clharness-icd-'"

  # ---- what held in the issue: interrupts (Interrupt.Sig*LeavesAPartialReportAndNoProcess)
  # and two runs into one report (Interrupt.TwoRunsIntoOneReportGiveWholeFiles) ----
  ispecs="$root/tests/reliability/specs/interrupt"
  interrupt() {  # interrupt SIGNAL CODE: the quick unit done, the hanging one running, then SIGNAL
    local json="$work/int-$1.json" pid code
    "$tool" check "$ispecs" --device "$pocl" --cases 2 --launch-shapes 0 --no-driver-checks \
      --timeout 60 --json "$json" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do
      grep -q '"event":"unit"' "$json.journal" 2>/dev/null && break
      sleep 0.1
    done
    sleep 0.5
    kill -"$1" "$pid"
    wait "$pid"
    code=$?
    expect "interrupt.$1.exit_code" "exit $code, expected $2" -- test "$code" = "$2"
    expect "interrupt.$1.partial_report" "no valid JSON report marked incomplete" -- \
      python3 -c "import json,sys; sys.exit(0 if json.load(open('$json'))['incomplete'] else 1)"
    expect "interrupt.$1.no_process_left" "a __unit child outlived its parent" -- \
      none_running "__child __unit .*$ispecs"
  }
  interrupt TERM 143
  interrupt INT 130
  # ---- issue 43: a grading batch stopped by SIGTERM says what it graded
  # (Interrupt.AnInterruptedGradeBatchSaysWhatWasGraded) ----
  tin="$work/term-in" tout="$work/term-out"
  mkdir -p "$tin"
  cp "$root/kernels/assignments/vadd.cl" "$tin/a_ok.cl"
  cp "$root/tests/grade/submissions/vadd/infinite_loop.cl" "$tin/b_hang.cl"
  "$tool" grade --assignment vadd "$tin" --out "$tout" --device "$pocl" --jobs 1 --cases 2 \
    --timeout 60 --allow-unassessed >"$work/term.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    [[ -f "$tout/a_ok.json" ]] && break
    sleep 0.1
  done
  sleep 0.5
  kill -TERM "$pid"
  wait "$pid"
  code=$?
  expect grade.interrupted.exit_code "exit $code, expected 143" -- test "$code" = 143
  expect grade.interrupted.said "no 'interrupted by SIGTERM: 1 of 2 submissions graded' line" -- \
    has "interrupted by SIGTERM: 1 of 2 submissions graded (a_ok); not graded: b_hang" \
    "$work/term.log"

  for k in 1 2; do
    "$tool" check "$quick" "${one[@]}" --json "$work/both.json" >/dev/null 2>&1 &
  done
  wait
  expect check.concurrent_reports "two runs into one report left no whole JSON" -- \
    python3 -c "import json; json.load(open('$work/both.json'))"
fi

echo "$held held, $failed failed, $skipped skipped"
[[ $failed -gt 0 ]] && exit 1
[[ $skipped -gt 0 ]] && exit 77
exit 0
