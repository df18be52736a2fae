#!/usr/bin/env python3
"""Replaces the cases of a full corpus run with those of a rerun subset and prints the summary.

Usage: merge-results.py FULL.json SUBSET.json [--json OUT.json]

FULL.json and SUBSET.json are run-corpus.py --json files. The output is run-corpus.py's listing of
the full run's cases with every case the subset reran replaced by its new result: what the suite
would count if the other cases still gave what they gave in the full run (they were not rerun).
The listing's first line says how many cases came from each file. Standard library only.
"""

import argparse
import importlib.util
import json
import os
import sys


def load_runner():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run-corpus.py")
    spec = importlib.util.spec_from_file_location("run_corpus", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("full", help="the full run's --json file")
    parser.add_argument("subset", help="the rerun subset's --json file")
    parser.add_argument("--json", help="write the merged cases as a run-corpus.py --json file")
    args = parser.parse_args(argv)
    runner = load_runner()
    with open(args.full, encoding="utf-8") as f:
        full = json.load(f)
    with open(args.subset, encoding="utf-8") as f:
        subset = json.load(f)
    rerun = {c["id"]: c for c in subset["cases"]}
    unknown = sorted(set(rerun) - {c["id"] for c in full["cases"]})
    if unknown:
        print("merge-results: the subset has cases the full run has not: %s" % ", ".join(unknown),
              file=sys.stderr)
        return 2
    cases = [rerun.get(c["id"], c) for c in full["cases"]]
    summary = runner.summarize(cases)
    sys.stdout.write("%d cases: %d from %s (rerun), %d from %s\n\n" % (
        len(cases), len(rerun), args.subset, len(cases) - len(rerun), args.full))
    sys.stdout.write(runner.render(summary, cases))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"schema": runner.SCHEMA, "manifest": full.get("manifest"),
                       "merged_from": [args.full, args.subset], "summary": summary,
                       "cases": cases}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
