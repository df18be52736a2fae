#!/usr/bin/env python3
"""Tests of bench/corpus/run-corpus.py: its counts against a fake clharness (every outcome), and
against the real one on three kernels of the project's own (own-kernels.jsonl).

Usage: run_corpus_test.py RUNNER [--clharness PATH]   (without --clharness: the fake only)
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

RUNNER = None
CLHARNESS = None
HERE = os.path.dirname(os.path.abspath(__file__))

# Stands in for clharness: the kernel name says what to do; the kernel file must exist relative
# to the working directory (the manifest's folder).
FAKE = textwrap.dedent("""\
    #!/usr/bin/env python3
    import json, os, sys, time
    args = sys.argv[1:]
    assert args[0] == "scan"
    if not os.path.isfile(args[1]):
        print("no kernel file " + args[1], file=sys.stderr); sys.exit(2)
    kernel = args[args.index("--kernel") + 1]
    out = args[args.index("--json") + 1]
    assert args.count("--json") == 1, args
    def report(*kinds):
        with open(out, "w") as f:
            json.dump({"schema": "clharness-scan/1", "results": [{"findings": [
                {"kind": k, "summary": k + " here"} for k in kinds]}]}, f)
        sys.exit(1 if kinds else 0)
    if kernel == "usage":
        print("clharness scan: argument 'x' cannot be filled", file=sys.stderr); sys.exit(2)
    if kernel == "hang":  # waits without computing: only the clock stops it
        time.sleep(300)
    if kernel == "spin":  # computes for a minute: the CPU-time limit stops it
        end = time.monotonic() + 60
        while time.monotonic() < end:
            pass
    if kernel.startswith("stoppable"):  # spins; on SIGTERM writes what it found, as scan does
        import signal
        def stopped(signum, frame):
            with open(out, "w") as f:
                json.dump({"schema": "clharness-scan/1", "incomplete": True,
                           "interrupted_by": "SIGTERM", "results": [{"findings": [
                               {"kind": k, "summary": k + " here"}
                               for k in kernel.split("+")[1:]], "not_run": ["n=1", "n=2"]}]}, f)
            sys.exit(143)
        signal.signal(signal.SIGTERM, stopped)
        while True:
            pass
    if kernel == "deaf":  # spins and ignores SIGTERM: only SIGKILL ends it
        import signal
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            pass
    if kernel == "nodevice":
        sys.exit(3)
    if kernel == "clean":
        report()
    # A correct kernel's findings the corpus may not speak for: an access past a buffer scan
    # sized ('a') or one the manifest sized ('b'); a race between work-groups or inside one.
    special = {
        "past_a": {"kind": "out_of_bounds",
                   "summary": "Invalid write of size 4 at global memory, past the end of buffer "
                              "argument 'a' (64 bytes) at k.cl:3"},
        "past_b": {"kind": "out_of_bounds",
                   "summary": "Invalid write of size 4 at global memory, past the end of buffer "
                              "argument 'b' (64 bytes) at k.cl:3"},
        "race_groups": {"kind": "race", "summary": "Write-write data race",
                        "work_items": ["global(63,0,0) local(63,0,0) group(0,0,0)",
                                       "global(127,0,0) local(63,0,0) group(1,0,0)"]},
        "race_items": {"kind": "race", "summary": "Write-write data race",
                       "work_items": ["global(1,0,0) local(1,0,0) group(0,0,0)",
                                      "global(2,0,0) local(2,0,0) group(0,0,0)"]},
        # The same four in the sanitizer's words (scan --sanitize on a real device).
        "san_past_a": {"kind": "out_of_bounds",
                       "summary": "read of a[16] (a[i + 1]), outside a (16 elements of 4 bytes): "
                                  "1 such access at this line; not performed"},
        "san_past_b": {"kind": "out_of_bounds",
                       "summary": "read of b[16] (b[i + 1]), outside b (16 elements of 4 bytes): "
                                  "1 such access at this line; not performed"},
        "san_race_groups": {"kind": "race",
                            "summary": "write-write data race on __global memory between "
                                       "work-groups of one launch (nothing orders them): write "
                                       "of a[0] by work-group 1 and write of a[0] by work-group 0",
                            "work_items": ["work-group 1"]},
        "san_race_items": {"kind": "race",
                           "summary": "write-write data race on __local memory in one barrier "
                                      "interval: write of t[0] by local item 1 and write of t[0] "
                                      "by local item 0 of work-group 0",
                           "work_items": ["local item 1 of group 0"]},
        "index_past_dim": {"kind": "out_of_bounds",
                           "summary": "Index (12) exceeds static array size (10) at k.cl:6"},
    }
    if kernel in special:
        with open(out, "w") as f:
            json.dump({"schema": "clharness-scan/1", "results": [{
                "arguments": [{"name": "a", "address_space": "global", "from_user": False},
                              {"name": "b", "address_space": "global", "from_user": True}],
                "findings": [special[kernel]]}]}, f)
        sys.exit(1)
    report(*kernel.split("+"))
    """)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def case(ident, kernel, expect):
    return {"id": ident, "run": ["scan", "k.cl", "--kernel", kernel, "--json", "stale.json"],
            "expect": expect}


class FakeTool(unittest.TestCase):
    def run_runner(self, cases, *extra):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "fake-clharness")
            with open(fake, "w") as f:
                f.write(FAKE)
            os.chmod(fake, 0o755)
            sub = os.path.join(d, "corpus")
            os.mkdir(sub)
            open(os.path.join(sub, "k.cl"), "w").close()
            manifest = os.path.join(sub, "m.jsonl")
            with open(manifest, "w") as f:
                f.write("# a comment\n\n")
                for c in cases:
                    f.write(json.dumps(c) + "\n")
            out = os.path.join(d, "out.json")
            p = subprocess.run([sys.executable, RUNNER, manifest, "--clharness", fake, "--json",
                                out] + list(extra), capture_output=True, text=True, cwd=d)
            data = read_json(out) if os.path.exists(out) else None
            return p, data

    def test_every_outcome_is_counted_where_it_belongs(self):
        p, data = self.run_runner([
            case("race-found", "race+uninitialized", ["race"]),
            case("race-as-other", "uninitialized", ["race"]),
            case("race-missed", "clean", ["race"]),
            case("oob-found", "out_of_bounds", ["out_of_bounds"]),
            case("oob-refused", "usage", ["out_of_bounds"]),
            case("oob-tool", "tool_error", ["out_of_bounds"]),
            case("ok-passed", "clean", []),
            case("ok-false", "race+uninitialized", []),
            case("ok-refused", "usage", []),
            case("ok-tool", "tool_error", []),
            case("ok-nodevice", "nodevice", []),
            case("ok-spin", "spin", []),
            case("ok-own-limit", "timeout", []),
            case("race-own-limit", "timeout+race", ["race"]),
        ], "--jobs", "4", "--timeout", "1", "--wall-backstop", "40")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        s = data["summary"]
        # scan's own time limit with nothing found is a timeout; what it found before it counts.
        self.assertEqual(s["kinds"]["race"], {"expected": 4, "right": 2, "other": 1, "missed": 1})
        self.assertEqual(s["kinds"]["out_of_bounds"],
                         {"expected": 3, "right": 1, "other": 0, "missed": 2})
        self.assertEqual(s["faulty"]["refused"], 1)
        self.assertEqual(s["faulty"]["tool_error"], 1)
        self.assertEqual(s["correct"], {"cases": 7, "passed": 1, "false_report": 1, "refused": 1,
                                        "tool_error": 2, "timeout": 2, "size_not_given": 0,
                                        "unchecked_by_reference": 0, "precondition_not_given": 0,
                                        "false_reports_by_kind": {"race": 1, "uninitialized": 1}})
        status = {c["id"]: c["status"] for c in data["cases"]}
        self.assertEqual(status["race-as-other"], "other_kind")
        self.assertEqual(status["ok-spin"], "timeout")
        # The runner's limit is CPU time (the clock's backstop, 40 s here, is never reached by a
        # case that computes, however loaded the machine).
        stopped = {c["id"]: c.get("stopped_by_runner") for c in data["cases"]}
        self.assertEqual(stopped["ok-spin"], "cpu")
        self.assertIsNone(stopped["ok-own-limit"])
        self.assertEqual(status["ok-own-limit"], "timeout")
        self.assertEqual(status["race-own-limit"], "detected")
        refused = [c for c in data["cases"] if c["id"] == "ok-refused"][0]
        self.assertIn("cannot be filled", refused["message"])
        self.assertIn("refused by scan (usage)    1", p.stdout)

    def test_findings_the_corpus_does_not_speak_for_are_counted_apart(self):
        between = [{"kind": "race", "between_groups": True, "why": "no race between groups"}]
        p, data = self.run_runner([
            case("past-scan-sized", "past_a", []),
            case("past-given-size", "past_b", []),
            dict(case("race-between-unchecked", "race_groups", []), unchecked=between),
            dict(case("race-inside-unchecked-between", "race_items", []), unchecked=between),
            dict(case("race-unchecked", "race_items", []),
                 unchecked=[{"kind": "race", "why": "races not checked"}]),
            dict(case("index-per-dimension", "index_past_dim", []),
                 unchecked=[{"kind": "out_of_bounds", "summary_has": "exceeds static array size",
                             "why": "whole-array bounds"}]),
            dict(case("index-other-rule", "past_b", []),
                 unchecked=[{"kind": "out_of_bounds", "summary_has": "exceeds static array size",
                             "why": "whole-array bounds"}]),
            dict(case("precondition-not-met", "race_items", []),
                 preconditions_not_given=["a != b"]),
            # No input makes a kernel fail to build: a precondition excuses no build error.
            dict(case("precondition-build-error", "build_error", []),
                 preconditions_not_given=["a != b"]),
            case("san-past-scan-sized", "san_past_a", []),
            case("san-past-given-size", "san_past_b", []),
            dict(case("san-race-between-unchecked", "san_race_groups", []), unchecked=between),
            dict(case("san-race-inside-unchecked-between", "san_race_items", []),
                 unchecked=between),
            # A faulty kernel's expectation is never excused away.
            dict(case("faulty-past-scan-sized", "past_a", ["race"]), unchecked=between),
        ])
        status = {c["id"]: c["status"] for c in data["cases"]}
        self.assertEqual(status, {"past-scan-sized": "size_not_given",
                                  "past-given-size": "false_report",
                                  "race-between-unchecked": "unchecked_by_reference",
                                  "race-inside-unchecked-between": "false_report",
                                  "race-unchecked": "unchecked_by_reference",
                                  "index-per-dimension": "unchecked_by_reference",
                                  "index-other-rule": "false_report",
                                  "precondition-not-met": "precondition_not_given",
                                  "precondition-build-error": "false_report",
                                  "san-past-scan-sized": "size_not_given",
                                  "san-past-given-size": "false_report",
                                  "san-race-between-unchecked": "unchecked_by_reference",
                                  "san-race-inside-unchecked-between": "false_report",
                                  "faulty-past-scan-sized": "other_kind"})
        c = data["summary"]["correct"]
        self.assertEqual((c["size_not_given"], c["unchecked_by_reference"],
                          c["precondition_not_given"], c["false_report"]), (2, 4, 1, 6))
        self.assertEqual(p.returncode, 1)  # two false reports and a miss
        self.assertIn("past-scan-sized", p.stdout.split("does not speak for:")[1])
        self.assertIn("scan sized 'a'", p.stdout)

    def test_the_clock_stops_only_a_case_that_waits(self):
        # A case that sleeps uses no CPU: only the wall-clock backstop ends it, and it is a
        # timeout. Alone in its run, so the backstop can be short without reaching a case that
        # computes on a loaded machine (those are stopped by CPU time, above).
        p, data = self.run_runner([case("ok-hang", "hang", [])], "--timeout", "60",
                                  "--wall-backstop", "1")
        (hang,) = data["cases"]
        self.assertEqual((hang["status"], hang["stopped_by_runner"]), ("timeout", "wall"))
        self.assertEqual(data["summary"]["correct"]["timeout"], 1)

    def test_a_stopped_case_keeps_what_scan_found(self):
        # The runner's limit sends SIGTERM first: scan's partial report counts (issue 40's two
        # GPUVerify kernels lost at 120 s); nothing found, or no report, is a timeout.
        p, data = self.run_runner([
            case("race-stopped", "stoppable+race", ["race"]),
            case("race-stopped-other", "stoppable+uninitialized", ["race"]),
            case("race-stopped-nothing", "stoppable", ["race"]),
            case("ok-stopped-race", "stoppable+race", []),
            case("ok-deaf", "deaf", []),
        ], "--jobs", "5", "--timeout", "1", "--term-grace", "2")
        by_id = {c["id"]: c for c in data["cases"]}
        self.assertEqual({k: c["status"] for k, c in by_id.items()},
                         {"race-stopped": "detected", "race-stopped-other": "other_kind",
                          "race-stopped-nothing": "timeout", "ok-stopped-race": "false_report",
                          "ok-deaf": "timeout"})
        self.assertEqual(data["summary"]["faulty"]["timeout"], 1)
        self.assertEqual(data["summary"]["correct"]["timeout"], 1)
        self.assertTrue(by_id["race-stopped"]["stopped_by_runner"])
        self.assertEqual(by_id["race-stopped"]["partial_report"],
                         {"written": True, "incomplete": True, "interrupted_by": "SIGTERM",
                          "not_run": 2})
        self.assertEqual(by_id["ok-deaf"]["partial_report"], {"written": False})

    def test_a_kernel_that_may_not_end_is_not_a_timeout(self):
        why = "loops forever by design; the reference does not check termination"
        p, data = self.run_runner([
            dict(case("own-limit", "timeout", []), may_not_terminate=why),
            dict(case("runner-limit", "spin", []), may_not_terminate=why),
            dict(case("found-a-race", "timeout+race", []), may_not_terminate=why),
            # A faulty kernel's expectation is never excused away.
            dict(case("faulty", "timeout", ["race"]), may_not_terminate=why),
        ], "--jobs", "4", "--timeout", "1")
        status = {c["id"]: c["status"] for c in data["cases"]}
        self.assertEqual(status, {"own-limit": "unchecked_by_reference",
                                  "runner-limit": "unchecked_by_reference",
                                  "found-a-race": "false_report", "faulty": "timeout"})
        self.assertEqual(data["summary"]["correct"]["timeout"], 0)
        self.assertIn("unchecked: " + why, p.stdout)

    def test_all_as_expected_exits_0(self):
        p, data = self.run_runner([case("a", "race", ["race"]), case("b", "clean", [])])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertTrue(all(c["ok"] for c in data["cases"]))

    def test_a_bad_manifest_line_is_named(self):
        p, data = self.run_runner([{"id": "x", "run": "scan k.cl", "expect": []}])
        self.assertEqual(p.returncode, 2)
        self.assertIn("m.jsonl:3: 'run' must be a list", p.stderr)
        self.assertIsNone(data)


@unittest.skipUnless(CLHARNESS or "--clharness" in sys.argv, "no --clharness given")
class OwnKernels(unittest.TestCase):
    def test_one_race_one_out_of_bounds_one_clean(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out.json")
            p = subprocess.run([sys.executable, RUNNER, os.path.join(HERE, "own-kernels.jsonl"),
                                "--clharness", CLHARNESS, "--json", out, "--jobs", "2"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            s = read_json(out)["summary"]
        self.assertEqual(s["kinds"], {
            "out_of_bounds": {"expected": 1, "right": 1, "other": 0, "missed": 0},
            "race": {"expected": 1, "right": 1, "other": 0, "missed": 0}})
        self.assertEqual((s["correct"]["cases"], s["correct"]["passed"]), (1, 1))


if __name__ == "__main__":
    RUNNER = os.path.abspath(sys.argv[1])
    rest = sys.argv[2:]
    if "--clharness" in rest:
        i = rest.index("--clharness")
        CLHARNESS = os.path.abspath(rest[i + 1])
        del rest[i:i + 2]
    unittest.main(argv=[sys.argv[0]] + rest)
