#!/usr/bin/env python3
"""Writes a run-corpus.py manifest for Oclgrind's kernel tests: one `clharness scan TEST.sim` case
per test of their TESTS list, expecting the finding kinds of the test's `.ref` ERROR lines.

Usage: make-manifest.py TESTS_DIR [--out MANIFEST] [--kinds-table docs/races.md]

TESTS_DIR is the tests/kernels folder of a checkout of Oclgrind (github.com/jrprice/Oclgrind) given
at run time; nothing of it is kept in this repository:

  make-manifest.py $OCLGRIND/tests/kernels --out $OCLGRIND/tests/kernels/clharness-manifest.jsonl

Each ERROR line's text is mapped to a kind through the table of docs/races.md ("From messages to
findings"), the same table clharness applies (a test keeps the two equal). Paths in the manifest
are relative to its folder. Standard library only.
"""

import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_rules(races_md):
    """[(at_start, text, kind)] from the table whose header is "Oclgrind's first line"."""
    rules = []
    inside = False
    row = re.compile(r"^\| (starts with|contains) `([^`]+)` \| `(\w+)` \|")
    with open(races_md, encoding="utf-8") as f:
        for line in f:
            if line.startswith("| Oclgrind's first line (lower-cased)"):
                inside = True
            elif inside and not line.startswith("|"):
                break
            elif inside:
                m = row.match(line)
                if m:
                    rules.append((m.group(1) == "starts with", m.group(2), m.group(3)))
    if not rules:
        raise SystemExit("make-manifest: no message table in %s" % races_md)
    return rules


def classify(text, rules):
    header = text.strip().lower()
    for at_start, pattern, kind in rules:
        if header.startswith(pattern) if at_start else pattern in header:
            return kind
    return "other"


def expected(ref_path, rules):
    """The kinds (in order, once each) and texts of a .ref's ERROR lines."""
    kinds, texts = [], []
    if not os.path.exists(ref_path):
        return kinds, texts
    with open(ref_path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("ERROR"):
                text = line[6:].strip()
                kind = classify(text, rules)
                if kind not in kinds:
                    kinds.append(kind)
                if text not in texts:
                    texts.append(text)
    return kinds, texts


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tests_dir", help="Oclgrind's tests/kernels (with its TESTS list)")
    parser.add_argument("--out", help="the manifest to write (default: stdout)")
    parser.add_argument("--kinds-table", default=os.path.join(ROOT, "docs", "races.md"))
    args = parser.parse_args(argv)
    rules = load_rules(args.kinds_table)
    out_dir = os.path.dirname(os.path.abspath(args.out)) if args.out else os.getcwd()
    lines = []
    with open(os.path.join(args.tests_dir, "TESTS"), encoding="utf-8") as f:
        tests = [t.strip() for t in f if t.strip()]
    for test in tests:
        sim = os.path.join(args.tests_dir, test + ".sim")
        kinds, texts = expected(os.path.join(args.tests_dir, test + ".ref"), rules)
        note = "Oclgrind expects: " + "; ".join(texts) if texts else "Oclgrind expects no error"
        lines.append(json.dumps({"id": test, "run": ["scan", os.path.relpath(sim, out_dir)],
                                 "expect": kinds, "note": note}))
    text = "# Oclgrind's kernel tests (bench/corpus/make-manifest.py); run with run-corpus.py.\n"
    text += "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
