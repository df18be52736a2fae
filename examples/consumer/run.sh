#!/usr/bin/env bash
# Installs clharness from a build into a temporary prefix, builds this example project against it
# with find_package(clharness), runs its ctest (it must pass), then breaks a copy of its kernel
# and runs ctest again (it must fail, with clharness's report). The test example.consumer runs it.
#   examples/consumer/run.sh [BUILD_DIR]     (default: $BUILD_DIR, else build/; exit 3: no device)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:-${BUILD_DIR:-$here/../../build}}" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/clharness-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT
say() { echo "consumer: $*"; }

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" ||
  { cat "$work/install.log"; exit 1; }
say "clharness installed to a temporary prefix ($(du -sh "$work/prefix" | cut -f1))"

# The project as another repository would hold it: a copy, so that its kernel can be broken.
mkdir "$work/src"
cp -r "$here/CMakeLists.txt" "$here/references.cpp" "$here/kernels" "$here/specs" "$work/src/"
options=(-DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo)
command -v ninja >/dev/null && options+=(-G Ninja)
command -v ccache >/dev/null && options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$work/src" -B "$work/build" "${options[@]}" >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
runner="$work/build/reverse_tests"
say "built its runner: $("$runner" --version)"
[ "$("$runner" --version)" = "$("$work/prefix/bin/clharness" --version)" ] ||
  { say "the runner and the installed tool differ in version"; exit 1; }
if [ -f "$build/harness/oclgrind/libclharness_oclgrind_plugin.so" ]; then
  [ -f "$work/prefix/lib/clharness/libclharness_oclgrind_plugin.so" ] ||
    { say "the Oclgrind plugin was not installed"; exit 1; }
fi
"$runner" devices >/dev/null 2>&1 || { [ $? = 3 ] && say "no OpenCL device here" && exit 3; }

ctest --test-dir "$work/build" --output-on-failure
count() { ctest --test-dir "$work/build" -N "$@" | grep -c 'Test *#[0-9]*: reverse_tests\.consumer_reverse\.' || true; }
[ "$(count)" -ge 1 ] || { say "no test reverse_tests.consumer_reverse.DEVICE was registered"; exit 1; }
[ "$(count -L consumer)" = "$(count)" ] || { say "not every test has the label 'consumer'"; exit 1; }
say "its ctest passes"

# A broken kernel: reads one element past the one it should (and past the end of `in`).
sed -i 's/in\[n - 1 - i\]/in[n - i]/' "$work/src/kernels/reverse.cl"
grep -q 'in\[n - i\]' "$work/src/kernels/reverse.cl" || { say "the kernel was not broken"; exit 1; }
if ctest --test-dir "$work/build" --output-on-failure >"$work/broken.log" 2>&1; then
  cat "$work/broken.log"
  say "its ctest passed with a broken kernel"
  exit 1
fi
for expected in "smallest failing case:" "wrong_result: out:" "replay: $runner check" \
                "tests failed out of"; do
  grep -qF "$expected" "$work/broken.log" ||
    { cat "$work/broken.log"; say "the report lacks '$expected'"; exit 1; }
done
grep -m1 -A4 "^FAIL\|^fail" "$work/broken.log" || true
grep -m1 "smallest failing case:" "$work/broken.log"
grep -m1 "replay:" "$work/broken.log"
grep -m1 "tests failed out of" "$work/broken.log"
say "with a broken kernel its ctest fails, with the report above"
