#!/usr/bin/env bash
# Installs every dependency of clharness from Debian's packages. Idempotent, non-interactive;
# uses sudo only when not root. Skips apt entirely when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format clang-tidy python3
  ocl-icd-opencl-dev opencl-clhpp-headers clinfo
  pocl-opencl-icd oclgrind liboclgrind-dev
  libgtest-dev googletest librapidcheck-dev libbenchmark-dev
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libfmt-dev libmuparser-dev
  libseccomp-dev  # the grading sandbox's seccomp filter (harness/proc/sandbox.cpp)
  # The sanitizer's rewrite (harness/sanitize): clang 15's parser, its headers and LLVM's; and
  # clang 15's compiler (360 KB over those), which ci/build.sh prefers (docs/performance.md).
  libclang-cpp15-dev libclang-15-dev llvm-15-dev clang-15
  chromium  # the HTML report's render test (tests/e2e/html_render_test.cpp)
  # A private Slurm cluster for cluster.slurm_array, and the CI files' YAML for ci.shard_scripts
  # (tests/cluster/). The test runs daemons of its own (ci/slurm/cluster.sh), not the system's.
  slurmctld slurmd slurm-client munge python3-yaml
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
