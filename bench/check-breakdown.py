#!/usr/bin/env python3
# Where a `clharness check` run's seconds go, from its JSON report: by device kind and family,
# and the ten slowest units.
"""Usage: bench/check-breakdown.py REPORT.json [TIME.json]

The units' own seconds (`seconds`, the wall time of each unit) are summed by device kind and unit
family (cases, launch, sanitize); with TIME.json (bench/time-check.sh's), the run's wall and CPU
time beside them. Units run --jobs at a time, so their sum exceeds the wall time.
"""
import json
import sys
from collections import defaultdict


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__.split("\n")[0] + "\n")
        return 2
    with open(argv[1]) as f:
        report = json.load(f)
    units = report.get("units", [])
    groups = defaultdict(lambda: [0, 0.0])
    for u in units:
        key = (u.get("device_kind", "?"), u.get("family", "cases"))
        groups[key][0] += 1
        groups[key][1] += u.get("seconds", 0.0)
    total = sum(g[1] for g in groups.values())
    if len(argv) == 3:
        with open(argv[2]) as f:
            t = json.load(f)
        print(f"run: {t['wall_s']} s wall, {t['cpu_s']} s CPU "
              f"(load before {t['load_average_before']}, after {t['load_average_after']})")
    print(f"units: {len(units)}, their seconds summed: {total:.1f}")
    print("| device kind | family | units | seconds | share |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (kind, family), (n, s) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        print(f"| {kind} | {family} | {n} | {s:.1f} | {100 * s / total if total else 0:.0f} % |")
    print()
    print("the ten slowest units:")
    print("| unit | device | status | seconds |")
    print("| --- | --- | --- | ---: |")
    for u in sorted(units, key=lambda u: -u.get("seconds", 0.0))[:10]:
        family = u.get("family", "cases")
        name = u["spec"] + ("" if family == "cases" else f" [{family}]")
        print(f"| {name} | {u['device'].split(':')[0]} | {u['status']} | {u['seconds']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
