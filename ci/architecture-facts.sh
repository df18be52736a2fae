#!/usr/bin/env bash
# Writes docs/architecture.md's generated blocks from the code: the layers (diagram and table, from
# harness/layers.txt), the source files over 500 lines, and the files outside app/ that print.
# With --check it writes nothing and exits 1 (showing the difference) when the doc has drifted.
#   ci/architecture-facts.sh [--check] [ROOT]
set -euo pipefail
check=0
[ "${1:-}" = --check ] && check=1 && shift
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
doc="$root/docs/architecture.md"
cd "$root"

# harness/layers.txt as records: folder, target, uses, what it is; separated by \x1f (uses may be empty).
layers() {
  awk -v s=$'\x1f' '/^#/ || /^$/ { next }
       /^[[:space:]]/ { sub(/^[[:space:]]+/, ""); what = what (what == "" ? "" : " ") $0; next }
       { if (folder != "") print folder s target s uses s what
         folder = $1; target = $2; $1 = ""; $2 = ""; uses = $0; gsub(/^ +| +$/, "", uses); what = "" }
       END { if (folder != "") print folder s target s uses s what }' harness/layers.txt
}

block_layers() {
  echo '```mermaid'
  echo 'flowchart BT'
  layers | while IFS=$'\x1f' read -r folder target uses what; do echo "  $folder[\"$folder/\"]"; done
  layers | while IFS=$'\x1f' read -r folder target uses what; do
    for u in $uses; do echo "  $folder --> $u"; done
  done
  echo '```'
  echo
  echo '| folder | target | uses | what it is |'
  echo '| --- | --- | --- | --- |'
  layers | while IFS=$'\x1f' read -r folder target uses what; do
    used=""
    for u in $uses; do used+="${used:+, }\`$u\`"; done
    echo "| \`harness/$folder\` | \`$target\` | ${used:--} | $what |"
  done
}

block_long_files() {
  find harness \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -exec wc -l {} + |
    awk '$2 != "total" && $1 > 500 { print "- `" $2 "`" }' | LC_ALL=C sort
}

# A print site: a write to the process's stdout or stderr named as such.
print_sites='std::(cout|cerr|clog)|\b(std::)?(printf|fprintf|puts|fputs|perror)\(|fmt::print\('
block_printers() {
  grep -rlE --include='*.cpp' --include='*.hpp' "$print_sites" harness | grep -v '^harness/app/' |
    LC_ALL=C sort | sed 's/.*/- `&`/'
}

# The doc with each block between `<!-- generated: NAME ... -->` and `<!-- end generated: NAME -->`
# replaced by block_NAME's output.
render() {
  local text name
  text=$(cat "$doc")
  for name in layers long_files printers; do
    grep -q "^<!-- generated: $name " <<<"$text" && grep -qx "<!-- end generated: $name -->" <<<"$text" ||
      { echo "$doc: no block '<!-- generated: $name ...' ... '<!-- end generated: $name -->'" >&2 && exit 1; }
    text=$(body="$(block_$name)" awk -v name="$name" '
      $0 ~ "^<!-- generated: " name " " { print; print ENVIRON["body"]; skip = 1; next }
      $0 == "<!-- end generated: " name " -->" { skip = 0 }
      !skip { print }' <<<"$text")
  done
  printf '%s\n' "$text"
}

if [ "$check" = 1 ]; then
  if ! diff -u "$doc" <(render) --label docs/architecture.md --label generated; then
    echo "docs/architecture.md: its generated blocks differ from the code; run ci/architecture-facts.sh" >&2
    exit 1
  fi
  echo "docs/architecture.md: the generated blocks match the code"
else
  new=$(render)
  printf '%s\n' "$new" >"$doc"
fi
