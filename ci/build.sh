#!/usr/bin/env bash
# Configures and builds clharness into build/ (or $BUILD_DIR): the targets named (check.sh names
# the tool, `clharness`, and gets its simulator plugin with it), else every target (test.sh).
# ccache is used when it is installed (several worktrees of one machine share its objects).
# A new build folder compiles with clang 15 where it is installed (install-deps.sh installs it)
# and $CXX names no compiler: a fifth less CPU than GCC 12 for the same tree (docs/performance.md,
# "The build"). A folder configured already keeps its compiler.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# ccache reuses objects compiled with a precompiled header (cmake/clharnessPch.cmake) only if
# its sloppiness allows what such a compile does.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
compiler=()
if [ -z "${CXX:-}" ] && [ ! -f "$build/CMakeCache.txt" ] && command -v clang++-15 >/dev/null; then
  compiler=(-DCMAKE_CXX_COMPILER=clang++-15)
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${compiler[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
