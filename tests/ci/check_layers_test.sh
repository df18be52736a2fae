#!/usr/bin/env bash
# ci/check-layers.sh on a copy of harness/'s sources and layers.txt: it passes on the copy as it is,
# and fails (exit 1, naming the fault) on a planted back-include, an unlisted folder and a layer
# that uses one listed after it.
#   tests/ci/check_layers_test.sh ROOT
set -euo pipefail
root="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fresh() {  # a copy of the tree's harness/ headers, sources and layer table in $tmp/t
  rm -rf "$tmp/t" && mkdir -p "$tmp/t"
  (cd "$root" && find harness \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name layers.txt \) -print0 |
    tar -cf - --null -T -) | tar -xf - -C "$tmp/t"
  mkdir -p "$tmp/t/ci" && cp "$root/ci/check-layers.sh" "$tmp/t/ci/"
}
failed=0
expect() {  # expect WHAT RC MESSAGE: the checker on $tmp/t exits RC and prints MESSAGE
  local what=$1 rc=$2 message=$3 got=0 out
  out=$("$tmp/t/ci/check-layers.sh" "$tmp/t" 2>&1) || got=$?
  if [ "$got" != "$rc" ] || ! grep -qF -- "$message" <<<"$out"; then
    echo "FAIL: $what: expected exit $rc and '$message'; got exit $got:"
    echo "$out"
    failed=1
  else
    echo "ok: $what"
  fi
}

fresh
expect "the tree as it is" 0 "every include goes down"

fresh
sed -i '0,/^#include "core\//s//#include "app\/app.hpp"\n&/' "$tmp/t/harness/core/spec.hpp"
line=$(grep -n '^#include "app/app.hpp"' "$tmp/t/harness/core/spec.hpp" | cut -d: -f1)
expect "a planted back-include" 1 "harness/core/spec.hpp:$line: includes app/, not below the core layer"

fresh
mkdir "$tmp/t/harness/newlayer" && echo '#include "core/spec.hpp"' >"$tmp/t/harness/newlayer/x.hpp"
expect "an unlisted folder" 1 "harness/newlayer/: a folder with no line in harness/layers.txt"

fresh
sed -i 's/^core clharness::core$/core clharness::core cl/' "$tmp/t/harness/layers.txt"
expect "a layer using one above it" 1 "harness/layers.txt: core uses cl, which is not a layer listed above it"

fresh
sed -i '/^references /,/^[^ ]/{/^references /d;/^  /d}' "$tmp/t/harness/layers.txt"
expect "a folder whose line was removed" 1 "harness/references/: a folder with no line"
exit "$failed"
