#!/usr/bin/env python3
"""The launch family's measured runs as Markdown tables for docs/semantics.md.

  python3 docs/tools/launch_table.py docs/results/launch-measured/*.json

Each file is the --json summary of one `clharness launch specs --device D` run. Prints, per
device, the totals (one column each) and then every distinct failure (family, rules, got, result
kinds) with the shapes and specs it was seen in and what the specification allowed.
"""
import json
import sys
from collections import OrderedDict


def load(paths):
    runs = []
    for p in paths:
        with open(p) as f:
            j = json.load(f)
        for d in j["devices"]:
            fams = [f for f in j["families"] if f["device"] == d["name"]]
            runs.append((d, fams))
    return runs


def totals(fams):
    t = OrderedDict()
    ran = [f for f in fams if f["shapes"] > 0]
    t["specs run / shapes"] = f"{len(ran)} / {sum(f['shapes'] for f in ran)}"
    t["specs not run (kernel does not build)"] = str(len(fams) - len(ran))
    t["shapes conforming"] = str(sum(f["conforming"] for f in fams))
    t["failing as the spec expects of its kernel"] = str(sum(f["spec_expected"] for f in fams))
    t["results checked / disagreeing"] = (
        f"{sum(f['results_checked'] for f in fams)} / {sum(f['result_mismatches'] for f in fams)}")
    t["processes that died / restarted after a failed command"] = (
        f"{sum(f['restarts'] for f in fams)} / {sum(f.get('fresh_starts', 0) for f in fams)}")
    t["shapes with a failure / not in the baseline of the time"] = (
        f"{sum(f['known_failures'] + f['new_failures'] for f in fams)} / "
        f"{sum(f['new_failures'] for f in fams)}")
    t["wall time (s)"] = f"{sum(f['seconds'] for f in fams):.0f}"
    return t


def groups(fams):
    g = OrderedDict()
    for f in fams:
        for x in f["failures"]:
            key = (x["kind"], x["rule"], x["got"], x["results"])
            allowed = x["example"].get("predicted", "").replace(" | ", " or ")
            e = g.setdefault(key, {"shapes": 0, "specs": set(), "allowed": allowed})
            e["shapes"] += x["shapes"]
            e["specs"].add(f["spec"])
    return g


def main(paths):
    runs = load(paths)
    names = [d["name"].split(": ", 1)[-1][:32] + f" ({d['version'].split(' HSTR')[0]})" for d, _ in runs]
    cols = [totals(f) for _, f in runs]
    print("| | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    for row in cols[0]:
        print(f"| {row} | " + " | ".join(c[row] for c in cols) + " |")
    print()
    print("| device | family / rules | allowed | got | results | shapes (specs) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (d, fams), name in zip(runs, names):
        for (kind, rule, got, results), e in groups(fams).items():
            print(f"| {name.split(' (')[0]} | `{kind}` / `{rule}` | {e['allowed']} | {got} | "
                  f"{results or '-'} | {e['shapes']} ({len(e['specs'])}) |")


if __name__ == "__main__":
    main(sys.argv[1:])
