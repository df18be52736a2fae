#!/usr/bin/env python3
"""Tests of bench/corpus/make-manifest.py on a small tests folder in Oclgrind's layout that the
test writes itself (a TESTS list, .sim and .ref files): one case a test, the kinds its .ref
ERROR lines map to through docs/races.md's table, paths relative to the manifest's folder. And
of tests/corpus/own-classes.jsonl: a faulty and a correct kernel of the project's own for each
class Oclgrind's tests cover, every file it names present. Usage: manifest_test.py ROOT"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = None

# test name -> the .ref's lines (None: no .ref at all, a correct kernel too).
REFS = {
    "memory/past_end": ["ERROR Invalid read of size 4 at global memory address 0x10",
                        "EXPECT 0"],
    "memory/ro_store": ["ERROR Invalid write to read-only buffer"],
    "copies/no_wait": ["ERROR Work-item finished without waiting for events"],
    "races/two_kinds": ["ERROR Read-write data race at local memory",
                        "ERROR Write-write data race at local memory",
                        "ERROR Read-write data race at local memory"],
    "plain/clean": ["EXPECT 1 2 3"],
    "plain/no_ref": None,
}


class MakeManifest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tests = os.path.join(self.dir.name, "checkout", "tests", "kernels")
        for name, ref in REFS.items():
            os.makedirs(os.path.dirname(os.path.join(self.tests, name)), exist_ok=True)
            with open(os.path.join(self.tests, name + ".sim"), "w", encoding="utf-8") as f:
                f.write("k.cl\nk\n1 1 1\n1 1 1\n")
            if ref is not None:
                with open(os.path.join(self.tests, name + ".ref"), "w", encoding="utf-8") as f:
                    f.write("\n".join(ref) + "\n")
        with open(os.path.join(self.tests, "TESTS"), "w", encoding="utf-8") as f:
            f.write("\n".join(REFS) + "\n\n")

    def tearDown(self):
        self.dir.cleanup()

    def make(self, *args):
        script = os.path.join(ROOT, "bench", "corpus", "make-manifest.py")
        return subprocess.run([sys.executable, script, self.tests] + list(args),
                              cwd=self.dir.name, check=True, capture_output=True,
                              text=True).stdout

    def cases(self, text):
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith("#"), lines[0])
        return [json.loads(line) for line in lines[1:]]

    def test_one_case_a_test_with_the_kinds_of_its_ref(self):
        cases = self.cases(self.make())
        self.assertEqual([c["id"] for c in cases], list(REFS))
        by_id = {c["id"]: c for c in cases}
        self.assertEqual(by_id["memory/past_end"]["expect"], ["out_of_bounds"])
        self.assertEqual(by_id["memory/ro_store"]["expect"], ["access_mode"])
        self.assertEqual(by_id["copies/no_wait"]["expect"], ["missing_wait"])
        # Two races of the same kind are one expected kind; the note keeps each text once.
        self.assertEqual(by_id["races/two_kinds"]["expect"], ["race"])
        self.assertEqual(by_id["races/two_kinds"]["note"],
                         "Oclgrind expects: Read-write data race at local memory; "
                         "Write-write data race at local memory")
        # Without ERROR lines, or without a .ref, the kernel is a correct one.
        for clean in ("plain/clean", "plain/no_ref"):
            self.assertEqual(by_id[clean]["expect"], [])
            self.assertEqual(by_id[clean]["note"], "Oclgrind expects no error")

    def test_paths_are_relative_to_where_the_manifest_goes(self):
        on_stdout = self.cases(self.make())
        from_here = os.path.join("checkout", "tests", "kernels", "memory", "past_end.sim")
        self.assertEqual(on_stdout[0]["run"], ["scan", from_here])
        out = os.path.join(self.tests, "clharness-manifest.jsonl")
        self.assertEqual(self.make("--out", out), "")
        with open(out, encoding="utf-8") as f:
            written = self.cases(f.read())
        self.assertEqual(written[0]["run"], ["scan", os.path.join("memory", "past_end.sim")])

    def test_the_unlisted_message_is_other(self):
        with open(os.path.join(self.tests, "memory", "ro_store.ref"), "w", encoding="utf-8") as f:
            f.write("ERROR Something no table row names\n")
        by_id = {c["id"]: c for c in self.cases(self.make())}
        self.assertEqual(by_id["memory/ro_store"]["expect"], ["other"])


class OwnClasses(unittest.TestCase):
    CLASSES = {"async_copy", "atomics", "barrier", "data-race", "memcheck", "uninitialized",
               "wait_event", "structs"}

    def test_each_class_has_a_faulty_and_a_correct_kernel_of_the_projects_own(self):
        here = os.path.join(ROOT, "tests", "corpus")
        with open(os.path.join(here, "own-classes.jsonl"), encoding="utf-8") as f:
            cases = [json.loads(line) for line in f if line.startswith("{")]
        faulty = {c["id"].split("/")[0] for c in cases if c["expect"]}
        correct = {c["id"].split("/")[0] for c in cases if not c["expect"]}
        self.assertEqual(self.CLASSES - faulty, set())
        self.assertEqual(self.CLASSES - correct, set())
        for case in cases:
            path = os.path.join(here, case["run"][1])
            self.assertTrue(path.startswith(os.path.join(here, "kernels") + os.sep), case["id"])
            with open(path, encoding="utf-8") as f:
                first = f.readline()
            # Each file opens with a line saying what it does; a .sim may open with its # ARGS.
            self.assertTrue(first.startswith("//" if path.endswith(".cl") else "#"), path)


if __name__ == "__main__":
    ROOT = sys.argv[1]
    unittest.main(argv=[sys.argv[0]])
