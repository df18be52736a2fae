#!/usr/bin/env python3
# One line per graded submission of a grades folder (its SUBMISSION.json files): points, each item's
# verdict and finding kinds, each device's end, unit status and smallest failing case with its kinds,
# sorted by id: two gradings of a batch compare with diff (bench/grade-batch.sh's results.txt).
"""Usage: grade-results.py GRADES_DIR > results.txt"""
import glob
import json
import os
import sys


def kinds(findings):
    return sorted({f.get("kind", "?") for f in findings or []})


def main(folder):
    lines = []
    for path in glob.glob(os.path.join(folder, "**", "*.json"), recursive=True):
        if path.endswith(".results.json") or os.path.basename(path) == "grades.json":
            continue
        try:
            g = json.load(open(path))
        except (OSError, ValueError):
            continue
        if not isinstance(g, dict) or "items" not in g:
            continue
        items = []
        for i in g["items"]:
            ev = sorted({k for e in i.get("evidence", []) for k in kinds(e.get("findings"))})
            items.append(f"{i['id']}={i['result']}:{i['points']}/{i['max_points']}"
                         f"[{' '.join(i.get('kinds', []))}|{' '.join(ev)}]"
                         + (f"<{i['blocked_by']}" if i.get("blocked_by") else ""))
        devs = []
        for d in g.get("devices", []):
            lost = kinds((d.get("lost") or {}).get("findings"))
            unit = d.get("unit") or {}
            case = unit.get("failing_case") or {}
            sizes = ",".join(f"{k}={v}" for k, v in sorted((case.get("sizes") or {}).items()))
            devs.append(f"{d.get('device', '?').split(':')[0]}"
                        + ("[sanitize]" if d.get("sanitized") else "")
                        + f":{d.get('end', '?')}"
                        f":{unit.get('status', '-')}"
                        f"[{' '.join(kinds(case.get('findings')) + lost)}]"
                        + (f"@{sizes}" if sizes else ""))
        other = kinds(g.get("other_findings"))
        lines.append(f"{g.get('submission', '?')} {g.get('points')}/{g.get('max_points')} "
                     + " ".join(items) + " | " + " ".join(devs)
                     + (" | other " + " ".join(other) if other else ""))
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
