#!/usr/bin/env bash
# Lists every function longer than a limit (80 lines by default) in the C++ sources of the given
# folders, as FILE:LINE: NAME (N lines); exit 1 if any. A function is counted from the first line of
# its signature to its closing brace, lambdas and local classes inside it included; the count reads
# braces with strings, characters and comments taken out, and member functions defined in a class.
#   ci/long-functions.sh [--max N] DIR...
set -euo pipefail
max=80
if [ "${1:-}" = "--max" ]; then
  max="${2:?--max needs a number}"
  shift 2
fi
[ "$#" -gt 0 ] || { echo "usage: ci/long-functions.sh [--max N] DIR..." >&2 && exit 2; }
files=$(find "$@" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) | LC_ALL=C sort)
[ -n "$files" ] || { echo "ci/long-functions.sh: no C++ sources under $*" >&2 && exit 2; }

# shellcheck disable=SC2086
awk -v max="$max" '
function reset_file() {
  depth = 0; sp = 0; pending = 0; head = ""; comment = 0; raw = ""; closed = 0
}
# A function that closed: reported once the next code shows it did not go on (a constructor whose
# initializer list holds braces goes on with "," or "{"), under the file it closed in (the last
# function of a file is reported when the next file starts).
function finish() {
  if (closed) {
    n = cend - cstart + 1
    if (n > max) { printf "%s:%d: %s (%d lines)\n", cfile, cstart, cname, n; found++ }
    closed = 0
  }
}
function name_of(h,   i, t) {
  i = index(h, "(")
  if (i > 0) h = substr(h, 1, i - 1)
  sub(/[ \t=]+$/, "", h)
  t = h
  while (match(t, /[A-Za-z_~][A-Za-z0-9_:~<>,]*$/) == 0 && length(t) > 0) t = substr(t, 1, length(t) - 1)
  if (length(t) == 0) return "?"
  t = substr(t, RSTART)
  sub(/^.*[ \t]/, "", t)
  return t
}
# The kind of block a statement head opens: ns, class, func or other.
function kind_of(h) {
  if (h ~ /^[ \t]*(inline[ \t]+)?namespace([ \t]|$)/ || h ~ /^[ \t]*extern[ \t]*$/) return "ns"
  if (h ~ /^[ \t]*(template[ \t]*<.*>[ \t]*)?(struct|class|union)[ \t]/ && h !~ /\(/) return "class"
  if (h ~ /(^|[ \t])enum([ \t]|$)/) return "other"
  if (h ~ /\(/) return "func"
  return "other"
}
# The line with strings, characters and comments taken out (raw strings span lines).
function code_of(s,   out, i, c, d, j) {
  out = ""
  i = 1
  while (i <= length(s)) {
    if (comment) {
      j = index(substr(s, i), "*/")
      if (j == 0) return out
      i += j + 1; comment = 0; continue
    }
    if (raw != "") {
      j = index(substr(s, i), raw)
      if (j == 0) return out
      i += j + length(raw) - 1; raw = ""; out = out "\"\""; continue
    }
    c = substr(s, i, 1)
    if (c == "/" && substr(s, i + 1, 1) == "/") return out
    if (c == "/" && substr(s, i + 1, 1) == "*") { comment = 1; i += 2; continue }
    if (c == "R" && substr(s, i + 1, 1) == "\"" && substr(s, i - 1, 1) !~ /[A-Za-z0-9_]/) {
      d = substr(s, i + 2)
      j = index(d, "(")
      raw = ")" substr(d, 1, j - 1) "\""
      i += 2 + j
      continue
    }
    if (c == "\"" || (c == "\x27" && substr(s, i - 1, 1) !~ /[0-9A-Fa-f]/)) {
      i++
      while (i <= length(s) && substr(s, i, 1) != c) i += (substr(s, i, 1) == "\\") ? 2 : 1
      i++
      out = out c c
      continue
    }
    out = out c
    i++
  }
  return out
}
FNR == 1 { if (NR > 1) finish(); reset_file(); cont = 0 }
{
  line = $0
  if (cont) { cont = (line ~ /\\$/); next }
  if (!comment && raw == "" && line ~ /^[ \t]*#/) { cont = (line ~ /\\$/); next }
  code = code_of(line)
  # Inside a function nothing starts a statement; elsewhere (file, namespace or class scope) a
  # statement starts at its first code character and ends at ";" or opens a block at "{".
  for (i = 1; i <= length(code); i++) {
    c = substr(code, i, 1)
    inside = (sp > 0 && (kind[sp] == "func" || kind[sp] == "other"))
    if (!inside) {
      if (closed) {
        if (c ~ /[ \t]/) continue
        if (c == "," || c == "{") { pending = 1; start = cstart; head = chead; closed = 0 }
        else finish()
      }
      if (!pending) {
        if (c ~ /[ \t;]/ || c == "}") {
          if (c == "}") { kind_close = kind[sp]; sp--; depth-- }
          continue
        }
        pending = 1; start = FNR; head = ""
      }
      if (c == ";") { pending = 0; continue }
      if (c == "{") {
        k = kind_of(head)
        depth++; sp++; kind[sp] = k; fstart[sp] = start; fhead[sp] = head
        pending = 0
        continue
      }
      if (c == ":" && head ~ /^[ \t]*(public|private|protected)[ \t]*$/) { pending = 0; continue }
      head = head c
      continue
    }
    if (c == "{") { depth++; sp++; kind[sp] = "other"; fstart[sp] = 0; continue }
    if (c == "}") {
      if (kind[sp] == "func" && fstart[sp] > 0) {
        closed = 1; cfile = FILENAME; cstart = fstart[sp]; cend = FNR; chead = fhead[sp]; cname = name_of(fhead[sp])
      }
      sp--; depth--
    }
  }
  if (pending) head = head " "
}
END { finish(); exit found ? 1 : 0 }
' $files || { rc=$?; [ "$rc" = 1 ] && echo "functions over $max lines: split them into named steps"; exit "$rc"; }
