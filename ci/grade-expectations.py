#!/usr/bin/env python3
"""Checks a `clharness grade` folder against the submissions' own expectations, on whatever
devices graded it (the GPU machine's NVIDIA driver, where tests/grade/tool_test.cpp cannot run).

Usage: grade-expectations.py GRADES_DIR SUBMISSIONS_DIR [REFERENCE_ID]

Each faulty submission opens with `// expect: item=kind ...`: those items must be lost, for a
finding of that kind, and every other item kept (or blocked by a lost one). The reference solution
(REFERENCE_ID, the file's name without .cl) keeps every item. Items no device here could judge
(`assessed: false`, e.g. the simulator's with no simulator) say nothing and are skipped; without a
simulator, an item expected lost to a kind only the simulator reports may be lost to another. Prints a
line per submission and a summary; exit 0 when every assessed item is as expected, 1 otherwise.
Standard library only.
"""

import json
import os
import sys


def expectations(path):
    """{item: (kinds, optional)} from the file's `// expect:` lines ({} for `nothing`):
    `item=a|b` lost to one of these kinds, `item=kind?` maybe lost to it (or kept)."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("// expect:"):
                continue
            for word in line[len("// expect:"):].split():
                if word != "nothing" and "=" in word:
                    item, kinds = word.split("=", 1)
                    out[item] = (set(kinds.rstrip("?").split("|")), kinds.endswith("?"))
    return out


# Kinds only the simulator reports: without one, an item expected lost to them may be lost to
# another kind a real device saw (a guard zone's out_of_bounds for a divergent store).
SIMULATOR_KINDS = {"race", "divergence", "uninitialized", "missing_wait"}


def check(grade, expect):
    """Problems with one grade (a list of sentences; empty: as expected)."""
    problems = []
    simulated = any(r.get("simulator") for r in grade.get("devices", []))
    for item in grade.get("items", []):
        iid = item.get("id")
        if not item.get("assessed", True):
            continue
        lost = item.get("result") == "fail" or (item.get("points", 0) < item.get("max_points", 0)
                                                 and not item.get("blocked_by"))
        if iid in expect:
            wanted, optional = expect[iid]
            kinds = set(item.get("kinds", []))
            if not lost and not optional:
                problems.append("%s kept, expected lost to %s" % (iid, "|".join(sorted(wanted))))
            elif lost and not (wanted & kinds) and (simulated or wanted - SIMULATOR_KINDS):
                problems.append("%s lost to %s, expected %s" % (
                    iid, "/".join(sorted(kinds)) or "nothing", "|".join(sorted(wanted))))
        elif item.get("blocked_by"):
            if item["blocked_by"] not in expect:
                problems.append("%s blocked by %s, which should pass" % (iid, item["blocked_by"]))
        elif lost:
            problems.append("%s lost to %s, expected kept" % (
                iid, "/".join(sorted(item.get("kinds", []))) or "?"))
    return problems


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    grades, submissions = argv[0], argv[1]
    reference = argv[2] if len(argv) == 3 else None
    bad = checked = 0
    for name in sorted(os.listdir(grades)):
        if not name.endswith(".json") or name.startswith("."):
            continue
        sid = name[:-5]
        source = os.path.join(submissions, sid + ".cl")
        if sid == reference:
            expect = {}
        elif os.path.isfile(source):
            expect = expectations(source)
        else:
            continue
        with open(os.path.join(grades, name), encoding="utf-8") as f:
            grade = json.load(f)
        problems = check(grade, expect)
        checked += 1
        bad += bool(problems)
        print("%-28s %s" % (sid, "as expected" if not problems else "; ".join(problems)))
    print("%d submissions checked, %d as expected, %d not" % (checked, checked - bad, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
