#!/usr/bin/env python3
"""Where the test suite's time goes: a Markdown table from ctest's own per-test timings.

Reads <build>/Testing/Temporary/CTestCostData.txt (ctest's mean seconds per test over the runs it
has seen; rewritten by every ctest run, so run this after a full run) and the test list with
labels and scheduling properties from `ctest --show-only=json-v1`. Prints the slowest tests, each
label's total and the properties that decide ctest's scheduling (PROCESSORS, RUN_SERIAL,
RESOURCE_LOCK), and the wall time a --parallel run would take in two orders: ctest's order with no
cost file (a fresh clone: the order the tests were declared in) and longest first (ctest's order
once it has a cost file), simulated from these timings.

With --log FILE, the seconds are one run's instead, read from that run's ctest output (its
"Test #N: NAME ... Passed X sec" lines): a table that compares with another single run.

Usage: ci/test-times.py [BUILD_DIR] [--top N] [--parallel N] [--log CTEST_OUTPUT]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys


def read_costs(build):
    """Test name -> mean seconds from ctest's cost file (the part before its '---' line)."""
    path = os.path.join(build, "Testing", "Temporary", "CTestCostData.txt")
    costs = {}
    with open(path) as f:
        for line in f:
            if line.startswith("---"):
                break
            parts = line.split()
            if len(parts) == 3:
                costs[parts[0]] = float(parts[2])
    return costs


def read_log(path):
    """Test name -> seconds of one run, from its ctest output lines."""
    line = re.compile(r"Test +#\d+: (.+?) \.+ *\S.*?([0-9.]+) sec\s*$")
    costs = {}
    with open(path) as f:
        for text in f:
            m = line.search(text)
            if m:
                costs[m.group(1)] = float(m.group(2))
    return costs


def read_tests(build):
    """Test name -> {labels, scheduling} from ctest's JSON test list."""
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                         capture_output=True, text=True).stdout
    tests = {}
    for index, t in enumerate(json.loads(out)["tests"]):
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        sched = []
        for key in ("PROCESSORS", "RUN_SERIAL", "RESOURCE_LOCK"):
            if key in props:
                value = props[key]
                sched.append(f"{key}={','.join(map(str, value)) if isinstance(value, list) else value}")
        tests[t["name"]] = {"labels": props.get("LABELS", []), "sched": " ".join(sched),
                            "procs": int(props.get("PROCESSORS", 1)), "index": index}
    return tests


def simulate(order, costs, tests, slots):
    """Wall seconds of ctest --parallel SLOTS starting tests in ORDER: whenever slots free up, it
    starts each waiting test, in order, whose PROCESSORS fit (RESOURCE_LOCK is left out)."""
    pending, running, now = list(order), [], 0.0
    while pending or running:
        free = slots - sum(p for _, p in running)
        for name in list(pending):
            procs = min(tests[name]["procs"], slots)
            if procs <= free:
                running.append((now + costs.get(name, 0.0), procs))
                pending.remove(name)
                free -= procs
        running.sort()
        now = running[0][0]
        running = [r for r in running if r[0] > now]
    return now


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", nargs="?", default=os.environ.get("BUILD_DIR", "build"))
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--log", help="one run's ctest output: its seconds, not ctest's means")
    args = ap.parse_args()
    costs = read_log(args.log) if args.log else read_costs(args.build)
    tests = read_tests(args.build)
    timed = {n: c for n, c in costs.items() if n in tests}
    missing = sorted(n for n in tests if n not in costs)
    total = sum(timed.values())
    print(f"{len(timed)} tests timed, {total:.0f} s of test time in all "
          f"(wall time is about this over the --parallel count, stretched by the last long tests)."
          + (f" {len(missing)} tests without a timing." if missing else ""))
    declared = sorted(tests, key=lambda n: tests[n]["index"])
    longest = sorted(declared, key=lambda n: -timed.get(n, 0.0))  # stable: ties keep their order
    print()
    print(f"Simulated wall time of `ctest --parallel {args.parallel}` from these timings: "
          f"{simulate(declared, timed, tests, args.parallel):.0f} s in the declared order (a fresh "
          f"clone, no cost file), {simulate(longest, timed, tests, args.parallel):.0f} s longest "
          f"first.")
    print()
    print(f"The {args.top} slowest tests:")
    print()
    print("| seconds | share | test | labels | scheduling |")
    print("|--:|--:|---|---|---|")
    for name, cost in sorted(timed.items(), key=lambda kv: -kv[1])[: args.top]:
        t = tests[name]
        print(f"| {cost:.1f} | {100 * cost / total:.1f}% | {name} | {' '.join(t['labels'])} "
              f"| {t['sched']} |")
    print()
    per_label = collections.defaultdict(lambda: [0, 0.0])
    for name, cost in timed.items():
        for label in tests[name]["labels"]:
            per_label[label][0] += 1
            per_label[label][1] += cost
    print("Each label's total (a test with several labels counts under each):")
    print()
    print("| label | tests | seconds | share |")
    print("|---|--:|--:|--:|")
    for label, (n, cost) in sorted(per_label.items(), key=lambda kv: -kv[1][1]):
        print(f"| {label} | {n} | {cost:.0f} | {100 * cost / total:.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
