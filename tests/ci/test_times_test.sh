#!/usr/bin/env bash
# ci/test-times.py --log on a planted ctest output: each test's own seconds, whether it passed or
# failed, its name holding spaces (a parameterised test's) or not; lines that time nothing ignored.
#   tests/ci/test_times_test.sh ROOT
set -euo pipefail
root="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ctest.txt" <<'LOG'
        Start 12: Quick.One
 1/3 Test #12: Quick.One ..........................................   Passed    0.25 sec
 2/3 Test #582: Slow.Two ..........................................***Failed   17.02 sec
 3/3 Test #40: Files/Bad.Spec/bad_init  # GetParam() = bad_init.yaml ...   Passed    1.50 sec
Total Test time (real) =  18.80 sec
LOG
python3 - "$root/ci/test-times.py" "$tmp/ctest.txt" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("test_times", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
got = module.read_log(sys.argv[2])
want = {"Quick.One": 0.25, "Slow.Two": 17.02,
        "Files/Bad.Spec/bad_init  # GetParam() = bad_init.yaml": 1.5}
if got != want:
    sys.exit(f"FAIL: read_log gave {got}, expected {want}")
print("ok: one run's seconds, passed, failed and a name with spaces")
PY
