#!/usr/bin/env bash
# ci/architecture-facts.sh --check on a copy of the tree: it passes on the copy as it is, fails when
# the doc's generated blocks drift from the code (a layer's line, a file grown past 500 lines, a
# new print site's file, an edited block), and passes again once the script rewrote the doc.
#   tests/ci/architecture_facts_test.sh ROOT
set -euo pipefail
root="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fresh() {  # the tree's harness/ sources, layer table, docs/architecture.md and the script in $tmp/t
  rm -rf "$tmp/t" && mkdir -p "$tmp/t/ci" "$tmp/t/docs"
  (cd "$root" && find harness \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name layers.txt \) -print0 |
    tar -cf - --null -T -) | tar -xf - -C "$tmp/t"
  cp "$root/ci/architecture-facts.sh" "$tmp/t/ci/" && cp "$root/docs/architecture.md" "$tmp/t/docs/"
}
failed=0
expect() {  # expect WHAT RC [MESSAGE]: --check on $tmp/t exits RC (and prints MESSAGE)
  local what=$1 rc=$2 message=${3:-} got=0 out
  out=$("$tmp/t/ci/architecture-facts.sh" --check "$tmp/t" 2>&1) || got=$?
  if [ "$got" != "$rc" ] || ! grep -qF -- "$message" <<<"$out"; then
    echo "FAIL: $what: expected exit $rc and '$message'; got exit $got:" && echo "$out"
    failed=1
  else
    echo "ok: $what"
  fi
}
drifts() {  # drifts WHAT MESSAGE: --check fails naming MESSAGE, and passes after a rewrite
  expect "$1" 1 "$2"
  "$tmp/t/ci/architecture-facts.sh" "$tmp/t"
  expect "$1, rewritten" 0 "match the code"
}

fresh
expect "the doc as it is" 0 "match the code"

fresh
sed -i 's/^scan clharness::scan cl proc sanitize$/scan clharness::scan cl proc sanitize report/' "$tmp/t/harness/layers.txt"
drifts "a layer's uses changed" "+  scan --> report"

fresh
printf 'newlayer clharness::newlayer core\n  a layer of the test\n' >>"$tmp/t/harness/layers.txt"
drifts "a layer added" '+| `harness/newlayer` | `clharness::newlayer` | `core` | a layer of the test |'

fresh
seq 600 | sed 's,^,// ,' >"$tmp/t/harness/core/long.cpp"
drifts "a file over 500 lines" '+- `harness/core/long.cpp`'

fresh
echo 'void f() { std::cerr << "x"; }' >>"$tmp/t/harness/core/spec.cpp"
drifts "a file that starts printing" '+- `harness/core/spec.cpp`'

fresh
sed -i '/^<!-- end generated: long_files -->/i - `harness/made/up.cpp`' "$tmp/t/docs/architecture.md"
drifts "a generated block edited by hand" '-- `harness/made/up.cpp`'

fresh
sed -i '/^<!-- generated: printers /d' "$tmp/t/docs/architecture.md"
expect "a block's marker removed" 1 "no block '<!-- generated: printers"
exit "$failed"
