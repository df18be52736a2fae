#!/usr/bin/env bash
# Checks that no include runs back up a layer: harness/layers.txt lists every folder of harness/
# with the layers it uses; a folder may include only its own and those it reaches. Prints every
# offending line (an include, a folder with no line, a layer using one not above it); exit 1 if any.
#   ci/check-layers.sh [ROOT]
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
table="$root/harness/layers.txt"
declare -A allowed=()  # folder -> " self and every layer it reaches "
order=()
bad=0
while read -r folder target uses; do
  case "$folder" in '' | '#'*) continue ;; esac
  [ -n "$target" ] || { echo "harness/layers.txt: $folder has no target" && bad=1; }
  reach=" $folder "
  for used in $uses; do
    if [ -z "${allowed[$used]+x}" ]; then
      echo "harness/layers.txt: $folder uses $used, which is not a layer listed above it" && bad=1
      continue
    fi
    for r in ${allowed[$used]}; do
      case "$reach" in *" $r "*) ;; *) reach+="$r " ;; esac
    done
  done
  allowed[$folder]="$reach"
  order+=("$folder")
done < <(grep -v '^[[:space:]]' "$table")

for layer in "${order[@]}"; do
  [ -d "$root/harness/$layer" ] || { echo "harness/layers.txt: $layer has no folder harness/$layer/" && bad=1; }
done
for dir in "$root"/harness/*/; do
  layer=$(basename "$dir")
  if [ -z "${allowed[$layer]+x}" ]; then
    echo "harness/$layer/: a folder with no line in harness/layers.txt (its place among the layers)"
    bad=1
    continue
  fi
  while IFS= read -r hit; do
    file=${hit%%:*} rest=${hit#*:}
    [[ "$rest" =~ ^[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*\"([A-Za-z0-9_]+)/ ]] || continue
    used=${BASH_REMATCH[1]}
    [ -d "$root/harness/$used" ] || continue  # not a layer: a library's own folder, e.g. llvm/
    case "${allowed[$layer]}" in
      *" $used "*) ;;
      *) echo "${file#"$root"/}:${rest%%:*}: includes $used/, not below the $layer layer" && bad=1 ;;
    esac
  done < <(grep -rn --include='*.cpp' --include='*.hpp' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[A-Za-z0-9_]*/' "$dir" /dev/null || true)
done
[ "$bad" = 0 ] && echo "layers: every folder of harness/ has its layer, every include goes down or stays"
exit "$bad"
