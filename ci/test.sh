#!/usr/bin/env bash
# The test job: installs what is missing, builds, and runs every CTest test (unit tests of the
# harness, one test per spec x device, and example.consumer: examples/consumer/run.sh installs this
# build and tests a project of its own against it). Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/ci/install-deps.sh"
"$root/ci/build.sh"
"$build/harness/app/clharness" devices || true
cd "$build"
# One test more than cores: a test waiting on a child, a limit or a daemon leaves its core to the
# next (0.92 of the wall on 2 cores, docs/performance.md "The test suite").
exec ctest --output-on-failure --parallel "$(($(nproc) + 1))" --timeout 900 "$@"
