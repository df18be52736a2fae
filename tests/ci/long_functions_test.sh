#!/usr/bin/env bash
# ci/long-functions.sh on planted sources: it names a long function, a long member function defined
# in its class and a long constructor whose initializer list holds braces, with their first lines
# and lengths; it is not misled by braces in strings, characters, comments and raw strings; it names
# a file's last function under that file; and it passes (exit 0) when nothing is over the limit.
#   tests/ci/long_functions_test.sh ROOT
set -euo pipefail
root="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
check() {  # check WHAT RC EXPECTED-OUTPUT ARGS...: the checker exits RC and prints exactly that
  local what=$1 rc=$2 want=$3 got=0 out
  shift 3
  out=$("$root/ci/long-functions.sh" "$@" 2>&1) || got=$?
  if [ "$got" != "$rc" ] || [ "$out" != "$want" ]; then
    printf 'FAIL: %s: expected exit %s and:\n%s\ngot exit %s and:\n%s\n' "$what" "$rc" "$want" "$got" "$out"
    failed=1
  else
    echo "ok: $what"
  fi
}
body() {  # N lines of a function body
  for ((i = 0; i < $1; i++)); do echo "  x += $i;"; done
}

mkdir -p "$tmp/src"
{
  echo '// planted functions'
  echo 'namespace n {'
  echo 'namespace {'
  echo 'int shortOne(int x) {'   # line 4: 3 lines
  echo '  return x + 1;'
  echo '}'
  echo '}  // namespace'
  echo 'int Long::run(int x,'    # line 8: 2 + 6 + 1 = 9 lines
  echo '              int y) {'
  body 6
  echo '}'
  echo 'const char* text() {'    # line 17: 5 lines, braces in literals
  echo '  const char* s = "{{{"; char c = '"'"'{'"'"';  // }'
  echo '  const char* r = R"x(} } { )x"; /* { */'
  echo '  return s; }'
  echo 'int after() {'           # line 21: 3 lines (counted apart from text)
  echo '  return 0;'
  echo '}'
  echo 'struct S {'
  echo '  int member(int x) const {'  # line 25: 1 + 7 + 1 = 9 lines
  body 7
  echo '  }'
  echo '};'
  echo 'S::S(int a)'              # line 35: 1 + 1 + 8 + 1 = 11 lines
  echo '    : a_{a}, b_(a) {'
  body 8
  echo '}'
  echo '}  // namespace n'
} >"$tmp/src/planted.cpp"

check "functions over the limit, each named once with its length" 1 "$tmp/src/planted.cpp:8: Long::run (9 lines)
$tmp/src/planted.cpp:25: member (9 lines)
$tmp/src/planted.cpp:35: S::S (11 lines)
functions over 8 lines: split them into named steps" --max 8 "$tmp/src"
check "braces in strings, characters, comments and raw strings" 1 "$tmp/src/planted.cpp:8: Long::run (9 lines)
$tmp/src/planted.cpp:17: text (4 lines)
$tmp/src/planted.cpp:25: member (9 lines)
$tmp/src/planted.cpp:35: S::S (11 lines)
functions over 3 lines: split them into named steps" --max 3 "$tmp/src/planted.cpp"
check "nothing over the limit" 0 "" --max 11 "$tmp/src"

# A long function that ends its file is named with that file, not the one read after it.
mkdir -p "$tmp/two"
{
  echo 'int last(int x) {'  # line 1: 1 + 5 + 1 = 7 lines, the file's last
  body 5
  echo '}'
} >"$tmp/two/a.cpp"
echo 'int other() { return 0; }' >"$tmp/two/b.cpp"
check "the last function of a file, under its own file" 1 "$tmp/two/a.cpp:1: last (7 lines)
functions over 6 lines: split them into named steps" --max 6 "$tmp/two"
exit "$failed"
