#!/usr/bin/env bash
# Packs a built clharness into a folder that runs on another x86-64 Linux machine without these
# Debian packages (the GPU machine reached through the device tool): the tool and benchmark with
# the shared libraries they need from here. The OpenCL loader and drivers stay the machine's own.
# clang's libraries are too large to carry, so the sanitizer's rewrites travel instead: a folder
# filled here through CLHARNESS_REWRITE_CACHE (REWRITE_CACHE, default .device-cache/rewrite) is
# copied to rewrite-cache/ (ci/gpu-run.sh points the tool at it).
#   ci/bundle.sh [OUT_DIR]   (default .device-carry/, ignored by git)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/.device-carry}"
rm -rf "$out" && mkdir -p "$out/lib"
cp "$build/harness/app/clharness" "$out/"
for b in bench_overhead bench_sanitize; do
  [ -x "$build/bench/$b" ] && cp "$build/bench/$b" "$out/"
done
cache="${REWRITE_CACHE:-$root/.device-cache/rewrite}"
[ -d "$cache" ] && cp -r "$cache" "$out/rewrite-cache"
for bin in "$out"/clharness "$out"/bench_overhead "$out"/bench_sanitize; do
  [ -x "$bin" ] || continue
  ldd "$bin" | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|libOpenCL.so*|ld-linux*) ;;  # the machine's own
      libstdc++.so*|libgcc_s.so*) ;;  # a newer system has newer ones, which run these binaries
      *) cp -n "$lib" "$out/lib/" ;;
    esac
  done
done
strip --strip-debug "$out"/clharness "$out"/bench_overhead "$out"/bench_sanitize "$out"/lib/* 2>/dev/null || true
echo "bundle: $(du -sh "$out" | cut -f1) in $out; run with LD_LIBRARY_PATH=$out/lib CLHARNESS_ROOT=<repo>"
