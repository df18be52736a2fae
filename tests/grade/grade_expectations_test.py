#!/usr/bin/env python3
"""Tests of ci/grade-expectations.py (how the GPU machine checks grading on NVIDIA) on grades
written here by hand: kept and lost items, the kinds a real device alone cannot report, items
nobody could judge, and the reference solution.

Usage: grade_expectations_test.py SCRIPT
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None


def item(iid, result, kinds=(), assessed=True, blocked_by=None, points=None):
    return {"id": iid, "result": result, "kinds": list(kinds), "assessed": assessed,
            "blocked_by": blocked_by, "points": points if points is not None else
            (10 if result == "pass" else 0), "max_points": 10}


class GradeExpectations(unittest.TestCase):
    def run_script(self, grades, sources, simulator=False):
        with tempfile.TemporaryDirectory() as d:
            g, s = os.path.join(d, "grades"), os.path.join(d, "subs")
            os.makedirs(g)
            os.makedirs(s)
            for sid, items in grades.items():
                with open(os.path.join(g, sid + ".json"), "w") as f:
                    json.dump({"items": items, "devices": [{"simulator": simulator}]}, f)
            for sid, text in sources.items():
                with open(os.path.join(s, sid + ".cl"), "w") as f:
                    f.write(text)
            return subprocess.run([sys.executable, SCRIPT, g, s, "ref"], capture_output=True,
                                  text=True)

    def test_lost_as_expected_and_the_reference_keeps_everything(self):
        p = self.run_script(
            {"ref": [item("correct", "pass"), item("clean", "pass")],
             "bad": [item("correct", "fail", ["wrong_result"]), item("clean", "pass")],
             "hang": [item("correct", "fail", ["timeout"]),
                      item("clean", "fail", blocked_by="correct")]},
            {"ref": "", "bad": "// expect: correct=wrong_result\n",
             "hang": "// expect: correct=timeout\n"})
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("3 submissions checked, 3 as expected, 0 not", p.stdout)

    def test_a_kept_item_expected_lost_and_a_lost_item_expected_kept_fail(self):
        p = self.run_script(
            {"ref": [item("correct", "fail", ["wrong_result"])],
             "bad": [item("correct", "pass")]},
            {"ref": "", "bad": "// expect: correct=wrong_result\n"})
        self.assertEqual(p.returncode, 1)
        self.assertIn("correct lost to wrong_result, expected kept", p.stdout)
        self.assertIn("correct kept, expected lost to wrong_result", p.stdout)

    def test_a_simulator_kind_is_required_only_where_a_simulator_graded(self):
        grades = {"div": [item("clean", "fail", ["out_of_bounds"])]}
        sources = {"div": "// expect: clean=divergence\n"}
        self.assertEqual(self.run_script(grades, sources).returncode, 0)
        p = self.run_script(grades, sources, simulator=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("clean lost to out_of_bounds, expected divergence", p.stdout)

    def test_alternative_kinds_and_an_item_that_may_be_kept(self):
        sources = {"wild": "// expect: correct=crash|launch_error\n",
                   "racy": "// expect: correct=wrong_result? clean=race\n"}
        p = self.run_script({"wild": [item("correct", "fail", ["launch_error"])],
                             "racy": [item("correct", "pass"), item("clean", "fail", ["race"])]},
                            sources, simulator=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        p = self.run_script({"wild": [item("correct", "fail", ["wrong_result"])],
                             "racy": [item("correct", "fail", ["timeout"]),
                                      item("clean", "fail", ["race"])]}, sources, simulator=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("correct lost to wrong_result, expected crash|launch_error", p.stdout)
        self.assertIn("correct lost to timeout, expected wrong_result", p.stdout)

    def test_an_item_nobody_could_judge_is_skipped(self):
        p = self.run_script({"bad": [item("clean", "fail", assessed=False)]},
                            {"bad": "// expect: nothing\n"})
        self.assertEqual(p.returncode, 0, p.stdout)


if __name__ == "__main__":
    SCRIPT = sys.argv.pop(1)
    unittest.main()
