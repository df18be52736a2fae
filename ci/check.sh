#!/usr/bin/env bash
# The main job: installs what is missing, builds, lists the devices and runs every spec of the
# tutorial suite on every device found. Extra arguments go to `clharness check`
# (e.g. --device pocl, --json report.json). Exit code: clharness check's (docs/cli.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/ci/install-deps.sh"
"$root/ci/build.sh" clharness  # the tool alone: ci/test.sh builds the tests
"$build/harness/app/clharness" devices
exec "$build/harness/app/clharness" check "$root/specs" "$@"
