#!/usr/bin/env python3
"""Tests of bench/corpus/gpuverify-manifest.py on a small suite of its own, laid out and headed as
GPUVerify's testsuite/OpenCL is: verdicts, expected kinds, sizes, what is left out and why.

Usage: gpuverify_manifest_test.py SCRIPT
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = None

# folder -> kernel.cl, each headed like a GPUVerify test.
SUITE = {
    "races/fail/write_write": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=1024 --num_groups=1024 --no-inline
        //kernel.cl:[\\d]+:[\\d]+:[\\s]+error:[\\s]+possible write-write race on A\\[0\\]
        __kernel void foo(__local int* A) { A[0] = get_local_id(0); }
        """,
    "races/pass": """\
        //pass
        //--local_size=[8,8] --global_size=[16,16]
        __kernel void bar(__global int* A) { A[get_global_id(1) * 16 + get_global_id(0)] = 1; }
        """,
    "array_bounds/fail": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=8 --num_groups=8 --check-array-bounds
        //kernel.cl:7:[\\d]+:[\\s]+error:[\\s]+possible array out-of-bounds access on array L
        __kernel void foo() { local int L[25]; L[get_global_id(0)] = 1; }
        """,
    "null/fail": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=2 --num_groups=2
        //error: possible null pointer access for work item
        __kernel void foo(__global int* b) { __global int* a = 0; b[0] = a[get_global_id(0)]; }
        """,
    "divergence/fail": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=16 --num_groups=2
        //kernel.cl:4:5:[\\s]+error:[\\s]+barrier may be reached by non-uniform control flow
        __kernel void foo() { if (get_local_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE); }
        """,
    "no_error_line/fail": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=64 --num_groups=128
        kernel void foo(global float* p) { p[0] = get_global_id(0); }
        """,
    "async/fail/non_uniform": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=64 --num_groups=128
        kernel void foo(global float* p) {
          local float l[64];
          // Error: reached non-uniformly
          if (get_local_id(0) > 13) async_work_group_copy(l, p, 64, 0);
        }
        """,
    "async/fail/null": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=64 --num_groups=128
        kernel void foo() {
          local float l[64];
          global float* r = NULL;
          event_t e = async_work_group_copy(l, r, 64, 0);
          wait_group_events(1, &e);
        }
        """,
    "annotation/fail": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=64 --num_groups=64
        //kernel.cl:3:3:[\\s]+error:[\\s]+this assertion might not hold
        __kernel void foo() { __assert(false); }
        """,
    "annotation/silent_fail": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=64 --num_groups=1
        __kernel void foo(int a) { __requires(a > 0); for (int i = 0; __invariant(i == 5), i < 8; i++) {} }
        """,
    "annotation/pass": """\
        //pass
        //--local_size=64 --num_groups=*
        __kernel void foo(__global int* A, int n) { __requires(n == 64); A[get_global_id(0)] = n; }
        """,
    "options/benign": """\
        //xfail:NOT_ALL_VERIFIED
        //--local_size=64 --num_groups=1 --no-benign-tolerance --no-inline
        //kernel.cl: error: possible write-write race on
        __kernel void foo(__local int* A) { A[0] = 0; }
        """,
    "options/intra_group": """\
        //pass
        //--local_size=64 --num_groups=4 --only-intra-group
        __kernel void foo(__global int* p) { p[get_local_id(0)] = get_global_id(0); }
        """,
    "options/warp": """\
        //pass
        //--local_size=64 --num_groups=1 --warp-sync=32
        __kernel void foo(__local int* p) { p[get_local_id(0) + 1] = p[get_local_id(0)]; }
        """,
    "options/kernel_args": """\
        //pass
        //--local_size=2 --num_groups=1 --kernel-args=foo,0x00000003,*
        kernel void foo(local int* A, int x, unsigned y) { if (x == 3) A[get_local_id(0)] = y; }
        """,
    "requires/ranges": """\
        //pass
        //--local_size=16 --num_groups=2
        #define N get_local_size(0)
        __kernel void foo(__local int* A, int offset, uint n, int k, int m, __global int* p) {
          __requires(offset >= 0 & offset > N & offset < 1000);
          __requires(__implies(__enabled(), n == 64));
          __requires(k < 10);
          __requires(m != k);
          __requires(p[get_global_id(0)] == 0);
          A[get_local_id(0)] = A[get_local_id(0)] + offset + n + k + m;
        }
        """,
    "functions/outside": """\
        //pass
        //--local_size=4 --num_groups=1
        __kernel void foo(__global int* r) { volatile int z = __read_offset_bytes(r); }
        """,
    "functions/inside": """\
        //pass
        //--local_size=4 --num_groups=1
        void helper(__global int* p, int x) { __requires(x > 0); p[x] = 1; }
        __kernel void foo(__global int* p) {
          __requires(__write_implies(p, get_global_id(0) > 0));
          helper(p, 3);
        }
        """,
    "bounds/pass": """\
        //pass
        //--local_size=1,10 --num_groups=1,10 --check-array-bounds
        __kernel void foo() { local int L[10][10]; L[0][get_global_id(1)] = 1; }
        """,
    "free/global_size": """\
        //pass
        //--local_size=64 --global_size=*
        __kernel void foo(__local int* A) { A[get_local_id(0)] = 1; }
        """,
    "bodiless/pass": """\
        //pass
        //--local_size=4 --num_groups=2
        int3 bar(void);
        /* a comment: int baz(void); */
        __kernel void foo() { int3 x = bar(); }
        """,
    "grid/three_dims": """\
        //pass
        //--local_size=2,3,4 --num_groups=5,6,7
        __kernel void foo(global int* p) { p[get_global_id(2)] = 1; }
        """,
    "tools/clang": """\
        //xfail:CLANG_ERROR
        //--local_size=4 --num_groups=2
        __kernel void foo() { undeclared(); }
        """,
}


def make_suite(root):
    base = os.path.join(root, "testsuite", "OpenCL")
    for folder, text in SUITE.items():
        os.makedirs(os.path.join(base, folder))
        with open(os.path.join(base, folder, "kernel.cl"), "w") as f:
            f.write(textwrap.dedent(text))
    return base


def manifest(path):
    cases, comments = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                comments.append(line)
            elif line.strip():
                case = json.loads(line)
                cases[case["id"]] = case
    return cases, comments


def option(case, name):
    run = case["run"]
    return run[run.index(name) + 1]


class GpuverifyManifest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.base = make_suite(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, *extra):
        r = subprocess.run([sys.executable, SCRIPT, self.tmp.name] + list(extra),
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def test_verdicts_and_kinds_come_from_the_suites_own_lines(self):
        self.write()
        cases, _ = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        self.assertEqual(cases["races/fail/write_write"]["expect"], ["race"])
        self.assertEqual(cases["races/pass"]["expect"], [])
        self.assertEqual(cases["array_bounds/fail"]["expect"], ["out_of_bounds"])
        self.assertEqual(cases["null/fail"]["expect"], ["out_of_bounds"])
        self.assertEqual(cases["divergence/fail"]["expect"], ["divergence"])
        self.assertEqual(cases["no_error_line/fail"]["expect"], ["race"])
        # No error line, but the kernel says what GPUVerify checks: a work-group function
        # reached non-uniformly (its uniformity check), a NULL dereferenced (its null check).
        self.assertEqual(cases["async/fail/non_uniform"]["expect"], ["divergence"])
        self.assertEqual(cases["async/fail/null"]["expect"], ["out_of_bounds"])
        self.assertEqual(cases["annotation/pass"]["expect"], [])

    def test_an_annotations_fault_and_a_tools_error_are_comment_lines_with_the_reason(self):
        self.write()
        cases, comments = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        for left_out in ("annotation/fail", "annotation/silent_fail", "tools/clang"):
            self.assertNotIn(left_out, cases)
        text = "".join(comments)
        self.assertIn("# left out annotation/fail: the fault is a GPUVerify annotation", text)
        self.assertIn("# left out annotation/silent_fail: the fault is a GPUVerify annotation", text)
        self.assertIn("# left out tools/clang: xfail:CLANG_ERROR", text)
        self.assertIn('"faulty": 8', comments[0])
        self.assertIn('"left_out": 4', comments[0])
        self.assertIn("# left out functions/outside: calls GPUVerify's own function "
                      "__read_offset_bytes outside its annotations", text)
        self.assertIn("functions/inside", cases)  # inside a precondition, it is defined away

    def test_sizes_kernel_and_build_options(self):
        self.write()
        cases, _ = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        passing = cases["races/pass"]
        self.assertEqual(passing["run"][:4], ["scan", "races/pass/kernel.cl", "--kernel", "bar"])
        self.assertEqual(option(passing, "--global"), "16,16")
        self.assertEqual(option(passing, "--local"), "8,8")
        self.assertEqual(option(cases["array_bounds/fail"], "--global"), "64")
        # GPUVerify's "*" (any number of groups) runs a small one.
        self.assertEqual(option(cases["annotation/pass"], "--global"), "512")
        build = [a for a in cases["annotation/pass"]["run"] if a.startswith("--build-options=")][0]
        self.assertIn("-D__requires(...)=0", build)
        self.assertIn("-D__invariant(...)=0", build)
        self.assertIn("--check-array-bounds", cases["array_bounds/fail"]["note"])

    def test_a_free_global_size_is_left_to_scan(self):
        self.write()
        cases, _ = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        free = cases["free/global_size"]
        self.assertEqual(option(free, "--global"), "*")
        self.assertEqual(option(free, "--local"), "64")
        self.assertIn("global size free in dimension 0", free["note"])

    def test_a_bodiless_call_is_stubbed_and_said_in_the_note(self):
        self.write()
        cases, _ = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        bodiless = cases["bodiless/pass"]
        self.assertIn("--stub-bodiless", bodiless["run"])
        self.assertIn("without a body (bar)", bodiless["note"])
        self.assertEqual([u["kind"] for u in bodiless["unchecked"]],
                         ["uninitialized", "divergence"])
        self.assertNotIn("--stub-bodiless", cases["races/pass"]["run"])

    def test_a_large_grid_keeps_its_local_size_and_runs_fewer_groups(self):
        self.write("--max-items", "4096")
        cases, _ = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        big = cases["races/fail/write_write"]
        self.assertEqual(option(big, "--local"), "1024")
        self.assertEqual(option(big, "--global"), "4096")
        self.assertIn("work-groups 4 of GPUVerify's 1024", big["note"])
        # 5x6x7 groups of 24 (5040 work-items): one group fewer at a time where that drops the
        # smallest share of a dimension (z, then y), not half of the last dimension.
        grid = cases["grid/three_dims"]
        self.assertEqual(option(grid, "--global"), "10,15,24")
        self.assertIn("work-groups 5x5x6 of GPUVerify's 5x6x7", grid["note"])

    def test_preconditions_on_scalars_become_values_and_ranges_scan_explores(self):
        self.write()
        cases, _ = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        ranges = cases["requires/ranges"]
        args = [a for a in ranges["run"] if a.startswith("--arg=")]
        # offset > get_local_size(0) = 16, < 1000; n == 64; k < 10 (signed: from -1).
        self.assertEqual(sorted(args), ["--arg=k=-1..9", "--arg=n=64", "--arg=offset=17..999"])
        # A relation between two parameters, or on a buffer's contents, is said, not given.
        self.assertIn("preconditions scan cannot give: m != k", ranges["note"])
        self.assertEqual(ranges["preconditions_not_given"],
                         ["m != k", "p[get_global_id(0)] == 0"])
        # A helper's precondition is proved at its calls: no assumption on the kernel's inputs.
        self.assertNotIn("preconditions_not_given", cases["functions/inside"])
        self.assertEqual(cases["options/kernel_args"]["run"][-1], "--arg=x=3")
        self.assertNotIn("--arg=y", " ".join(cases["options/kernel_args"]["run"]))

    def test_options_that_change_what_gpuverify_checks(self):
        self.write()
        cases, _ = manifest(os.path.join(self.base, "clharness-manifest.jsonl"))
        self.assertIn("--uniform-writes", cases["options/benign"]["run"])
        self.assertNotIn("--uniform-writes", cases["races/pass"]["run"])
        def rules(case):  # the rules of the options, besides those every correct kernel has
            return [u for u in case.get("unchecked", [])
                    if u["kind"] not in ("uninitialized", "divergence")]
        intra = rules(cases["options/intra_group"])
        self.assertEqual([(u["kind"], u["between_groups"]) for u in intra], [("race", True)])
        warp = rules(cases["options/warp"])
        self.assertEqual([(u["kind"], u["between_groups"]) for u in warp], [("race", False)])
        self.assertIn("lock-step", warp[0]["why"])
        self.assertEqual(rules(cases["races/pass"]), [])
        self.assertNotIn("unchecked", cases["options/benign"])  # a faulty kernel stays faulty
        bounds = rules(cases["bounds/pass"])
        self.assertEqual([(u["kind"], u["summary_has"]) for u in bounds],
                         [("out_of_bounds", "exceeds static array size")])
        # GPUVerify checks no uninitialized read: on every correct kernel, never on a faulty one.
        for case in cases.values():
            kinds = [u["kind"] for u in case.get("unchecked", [])]
            self.assertEqual("uninitialized" in kinds, not case["expect"], case["id"])
            # Nor does it require a barrier's flags to be the same in every work-item.
            flags = [u for u in case.get("unchecked", []) if u["kind"] == "divergence"]
            self.assertEqual([u.get("summary_has") for u in flags],
                             ["different flags to one barrier"] if not case["expect"] else [],
                             case["id"])
        # scan keeps what it found when it runs past its own limit, under the runner's.
        self.assertEqual(option(cases["races/pass"], "--timeout"), "90")

    def test_paths_stay_relative_to_a_manifest_written_elsewhere(self):
        out = os.path.join(self.tmp.name, "elsewhere", "m.jsonl")
        os.makedirs(os.path.dirname(out))
        self.write("--out", out)
        cases, _ = manifest(out)
        kernel = cases["races/pass"]["run"][1]
        self.assertTrue(os.path.isfile(os.path.join(os.path.dirname(out), kernel)), kernel)


if __name__ == "__main__":
    SCRIPT = sys.argv.pop(1)
    unittest.main()
