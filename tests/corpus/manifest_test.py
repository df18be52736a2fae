#!/usr/bin/env python3
"""Tests of bench/corpus/make-manifest.py: the committed Oclgrind manifest is what it makes of the
vendored tests now, with the kinds their .ref files name. Usage: manifest_test.py ROOT"""

import json
import os
import subprocess
import sys
import unittest

ROOT = None


class OclgrindManifest(unittest.TestCase):
    def test_the_committed_manifest_is_up_to_date(self):
        corpus = os.path.join(ROOT, "bench", "corpus")
        # Without --out it writes to stdout, paths relative to the working folder.
        made = subprocess.run([sys.executable, os.path.join(corpus, "make-manifest.py"), "oclgrind"],
                              cwd=corpus, check=True, capture_output=True, text=True).stdout
        with open(os.path.join(corpus, "oclgrind.jsonl"), encoding="utf-8") as f:
            self.assertEqual(made, f.read(), "re-run make-manifest.py (docs/results/corpus/oclgrind)")
        cases = {c["id"]: c for c in map(json.loads, made.splitlines()[1:])}
        self.assertEqual(len(cases), 90)
        self.assertEqual(sum(1 for c in cases.values() if not c["expect"]), 47)
        # One .ref of each mapping that matters: the static array, the missing wait, ro/wo.
        self.assertEqual(cases["memcheck/static_array"]["expect"], ["out_of_bounds"])
        self.assertEqual(cases["async_copy/async_copy_unwaited"]["expect"], ["missing_wait"])
        self.assertEqual(cases["memcheck/write_read_only_memory"]["expect"], ["access_mode"])
        self.assertEqual(cases["misc/vecadd"]["run"], ["scan", "oclgrind/misc/vecadd.sim"])


if __name__ == "__main__":
    ROOT = sys.argv[1]
    unittest.main(argv=[sys.argv[0]])
