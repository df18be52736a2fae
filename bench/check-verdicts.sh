#!/usr/bin/env bash
# One line per unit of a `clharness check` JSON report: spec, family, device, status and, for a
# failing or expected-failure unit, the finding kinds of its failing case; then one line per driver
# finding (device, check, verdict); sorted, for diffing two runs' verdicts unit by unit.
#   bench/check-verdicts.sh REPORT.json            e.g. diff <(... A.json) <(... B.json)
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: bench/check-verdicts.sh REPORT.json" >&2
  exit 2
fi
jq -r '.units[] | [.spec, (.family // "cases"), .device, .status,
  ((.failing_case.findings // []) | map(.kind) | unique | join(","))] | @tsv' "$1" | sort
jq -r '(.drivers // [])[] | .device as $d | .findings[] | ["driver", $d, .check, .verdict] | @tsv' "$1" | sort
