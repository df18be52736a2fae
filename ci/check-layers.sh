#!/usr/bin/env bash
# Checks that no include runs back up a layer (docs/architecture.md): each folder of harness/ may
# include only the folders listed for it. Prints every offending line; exit 1 when there is one.
#   ci/check-layers.sh [ROOT]
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
declare -A allowed=(
  [proc]="proc"
  [core]="core"
  [report]="core report"
  [sim]="core sim"
  [cl]="core sim cl"
  [launch]="core sim cl proc launch"
  [drivers]="core sim cl proc report launch drivers"
  [audit]="core sim cl proc report audit"
  [scan]="core sim cl proc scan"
  [grade]="core sim cl proc report grade"
  [run]="core sim cl proc report launch drivers run"
  [app]="core sim cl proc report launch drivers audit scan grade run app"
  [references]="core"
)
# `clharness launch` reads the driver baselines: its own target above clharness::drivers.
exceptions="launch/command.cpp launch/command.hpp"
bad=0
for dir in "$root"/harness/*/; do
  layer=$(basename "$dir")
  [ -n "${allowed[$layer]+x}" ] || continue
  for file in "$dir"*.cpp "$dir"*.hpp; do
    [ -e "$file" ] || continue
    rel="$layer/$(basename "$file")"
    case " $exceptions " in *" $rel "*) continue ;; esac
    while IFS= read -r line; do
      used=$(sed -E 's/^[0-9]+:#include "([a-z_]+)\/.*/\1/' <<<"$line")
      case " ${allowed[$layer]} " in
        *" $used "*) ;;
        *) echo "harness/$rel:${line%%:*}: includes $used/, above the $layer layer" && bad=1 ;;
      esac
    done < <(grep -n '^#include "[a-z_]*/' "$file" || true)
  done
done
[ "$bad" = 0 ] && echo "layers: every include goes down or stays in its layer"
exit "$bad"
