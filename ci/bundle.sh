#!/usr/bin/env bash
# Packs a built clharness into a folder that runs on another x86-64 Linux machine without these
# Debian packages (the GPU machine reached through the device tool): the tool and benchmark with
# the shared libraries they need from here. The OpenCL loader and drivers stay the machine's own.
#   ci/bundle.sh [OUT_DIR]   (default .device-carry/, ignored by git)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/.device-carry}"
rm -rf "$out" && mkdir -p "$out/lib"
cp "$build/harness/app/clharness" "$out/"
[ -x "$build/bench/bench_overhead" ] && cp "$build/bench/bench_overhead" "$out/"
for bin in "$out"/clharness "$out"/bench_overhead; do
  [ -x "$bin" ] || continue
  ldd "$bin" | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|libOpenCL.so*|ld-linux*) ;;  # the machine's own
      libstdc++.so*|libgcc_s.so*) ;;  # a newer system has newer ones, which run these binaries
      *) cp -n "$lib" "$out/lib/" ;;
    esac
  done
done
strip --strip-debug "$out"/clharness "$out"/bench_overhead "$out"/lib/* 2>/dev/null || true
echo "bundle: $(du -sh "$out" | cut -f1) in $out; run with LD_LIBRARY_PATH=$out/lib CLHARNESS_ROOT=<repo>"
