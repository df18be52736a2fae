#!/usr/bin/env bash
# Configures and builds clharness into build/ (or $BUILD_DIR): the targets named (check.sh names
# the tool, `clharness`, and gets its simulator plugin with it), else every target (test.sh).
# ccache is used when it is installed (several worktrees of one machine share its objects).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
