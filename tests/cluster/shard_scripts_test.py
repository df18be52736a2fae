#!/usr/bin/env python3
"""The shard arithmetic of the CI files in ci/ (docs/ci.md), run with the variables each engine sets.

GitHub Actions (ci/github/shards.yml): one job per matrix entry, `strategy.job-index` 0..M-1 and
`strategy.job-total` M. GitLab CI (ci/gitlab/shards.yml): `parallel: M` runs M jobs with
CI_NODE_INDEX 1..M and CI_NODE_TOTAL M. Slurm (ci/slurm/array.sh): task K of `--array=0-(N-1)` has
SLURM_ARRAY_TASK_ID K, SLURM_ARRAY_TASK_MIN 0, SLURM_ARRAY_TASK_MAX N-1, SLURM_ARRAY_TASK_COUNT N.
Each job's command line runs as the engine runs it (bash, or sbatch's copy of the script), with a
stand-in clharness that records its arguments: every job must ask for a different `--shard K/N`,
together exactly 0/N .. N-1/N (clharness then runs each spec or submission in exactly one of them,
Shards.TwoShardsMergedEqualTheWholeRun), write a report of its own, and the merge job's glob must
take every one. docs/ci.md shows these files; the blocks it shows are checked equal to them.

Usage: shard_scripts_test.py REPOSITORY_ROOT
"""

import os
import re
import shlex
import stat
import subprocess
import sys
import tempfile
import unittest

import yaml

ROOT = None

# A clharness that records its arguments (one line per call, each argument ended by \x1f) and
# writes the --json file `check` is given, so that a merge step's glob has something to find.
STUB = """#!/usr/bin/env bash
{ printf '%s\\x1f' "$@"; printf '\\n'; } >>"$STUB_LOG"
if [ "$1" = check ]; then
  while [ $# -gt 0 ]; do
    [ "$1" = --json ] && echo '{}' >"$2"
    shift
  done
fi
"""


class Workspace:
    """A folder laid out like a checkout (ci/ linked) with the stand-in at the build's place."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="clh-shard-scripts-")
        self.dir = self.tmp.name
        os.symlink(os.path.join(ROOT, "ci"), os.path.join(self.dir, "ci"))
        app = os.path.join(self.dir, "build", "harness", "app")
        os.makedirs(app)
        self.tool = os.path.join(app, "clharness")
        with open(self.tool, "w") as f:
            f.write(STUB)
        os.chmod(self.tool, os.stat(self.tool).st_mode | stat.S_IEXEC)
        self.log = os.path.join(self.dir, "calls.log")

    def run(self, script, env):
        full = dict(os.environ, STUB_LOG=self.log, CLHARNESS=self.tool, **env)
        return subprocess.run(["bash", "-ec", script], cwd=self.dir, env=full, capture_output=True,
                              text=True)

    def calls(self):
        """The recorded calls, each a list of arguments; the log is emptied."""
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            out = [line.rstrip("\n").split("\x1f")[:-1] for line in f if line.strip()]
        os.remove(self.log)
        return out

    def close(self):
        self.tmp.cleanup()


def option(args, name):
    return args[args.index(name) + 1] if name in args else None


def load(path):
    with open(os.path.join(ROOT, path)) as f:
        return yaml.safe_load(f)


def github_expand(text, index, total, matrix):
    """GitHub's `${{ ... }}` expressions of a matrix job, as the runner substitutes them."""
    def one(m):
        expr = m.group(1).strip()
        if expr == "strategy.job-index":
            return str(index)
        if expr == "strategy.job-total":
            return str(total)
        if expr.startswith("matrix."):
            return str(matrix[expr[len("matrix."):]])
        raise AssertionError("an expression this test does not know: " + expr)
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


class ShardScripts(unittest.TestCase):
    def setUp(self):
        self.ws = Workspace()

    def tearDown(self):
        self.ws.close()

    def assertCovers(self, calls, command, count, engine):
        """`calls` are `count` jobs of `command`, shards 0/count .. count-1/count, once each."""
        self.assertEqual(len(calls), count, engine)
        self.assertTrue(all(c[0] == command for c in calls), calls)
        shards = sorted(option(c, "--shard") for c in calls)
        self.assertEqual(shards, sorted(f"{k}/{count}" for k in range(count)), engine)

    def test_github_matrix_jobs_cover_every_shard_once(self):
        wf = load("ci/github/shards.yml")
        check = wf["jobs"]["check"]
        (key, values), = check["strategy"]["matrix"].items()  # one dimension
        runs = [s["run"] for s in check["steps"] if "run" in s and "clharness check" in s["run"]]
        self.assertEqual(len(runs), 1)
        for index, value in enumerate(values):
            r = self.ws.run(github_expand(runs[0], index, len(values), {key: value}), {})
            self.assertEqual(r.returncode, 0, r.stderr)
        calls = self.ws.calls()
        self.assertCovers(calls, "check", len(values), "GitHub Actions")
        reports = sorted(option(c, "--json") for c in calls)
        self.assertEqual(len(set(reports)), len(values), reports)  # a report each
        # The merge job takes every report the shards wrote, and runs even when a shard failed.
        merge = wf["jobs"]["merge"]
        self.assertEqual(merge["needs"], "check")
        self.assertEqual(merge["if"], "always()")
        upload = [s for s in check["steps"] if s.get("uses", "").startswith("actions/upload")]
        self.assertEqual(upload[0].get("if"), "always()")
        merge_run = [s["run"] for s in merge["steps"] if "clharness merge" in s.get("run", "")]
        self.assertEqual(self.ws.run(merge_run[0], {}).returncode, 0)
        (merged,) = self.ws.calls()
        self.assertEqual(sorted(a for a in merged if a.endswith(".json") and a in reports),
                         reports)

    def test_gitlab_parallel_jobs_cover_every_shard_once(self):
        ci = load("ci/gitlab/shards.yml")
        job = ci["clharness-check"]
        total = job["parallel"]
        lines = [l for l in job["script"] if "clharness check" in l]
        self.assertEqual(len(lines), 1)
        for node in range(1, total + 1):  # CI_NODE_INDEX is 1-based
            r = self.ws.run(lines[0], {"CI_NODE_INDEX": str(node), "CI_NODE_TOTAL": str(total)})
            self.assertEqual(r.returncode, 0, r.stderr)
        calls = self.ws.calls()
        self.assertCovers(calls, "check", total, "GitLab CI")
        reports = sorted(option(c, "--json") for c in calls)
        self.assertEqual(len(set(reports)), total, reports)
        merge = ci["clharness-merge"]
        self.assertEqual(merge["needs"], ["clharness-check"])
        self.assertEqual(merge["when"], "always")
        self.assertEqual(job["artifacts"]["when"], "always")
        merge_line = [l for l in merge["script"] if "clharness merge" in l]
        self.assertEqual(self.ws.run(merge_line[0], {}).returncode, 0)
        (merged,) = self.ws.calls()
        self.assertEqual(sorted(a for a in merged if a in reports), reports)

    def slurm_task(self, k, lo, hi, count, args, extra=None):
        env = {"SLURM_ARRAY_TASK_ID": str(k), "SLURM_ARRAY_TASK_MIN": str(lo),
               "SLURM_ARRAY_TASK_MAX": str(hi), "SLURM_ARRAY_TASK_COUNT": str(count)}
        env.update(extra or {})
        return self.ws.run("sh ci/slurm/array.sh " + args, env)

    def test_slurm_array_tasks_cover_every_shard_once(self):
        with open(os.path.join(ROOT, "ci/slurm/array.sh")) as f:
            directive = re.search(r"^#SBATCH --array=0-(\d+)$", f.read(), re.M)
        self.assertIsNotNone(directive, "array.sh's #SBATCH --array=0-M line")
        total = int(directive.group(1)) + 1
        for command, args in [("check", "check specs/ --device pocl"),
                              ("grade", "grade --assignment vadd subs/ --out grades")]:
            for k in range(total):
                r = self.slurm_task(k, 0, total - 1, total, args)
                self.assertEqual(r.returncode, 0, r.stderr)
            calls = self.ws.calls()
            self.assertCovers(calls, command, total, "Slurm " + command)
            # The options given come first, untouched; check writes shard-K.json.
            for c in calls:
                self.assertEqual(c[:len(shlex.split(args))], shlex.split(args))
                if command == "check":
                    self.assertEqual(option(c, "--json"),
                                     "shard-" + option(c, "--shard").split("/")[0] + ".json")
            if command == "grade":
                self.assertTrue(all(option(c, "--json") is None for c in calls))

    def test_slurm_rerun_of_one_task_needs_the_array_size(self):
        # `sbatch --array=2`: an array of one task, whose count (1) is not the shards'.
        for k in (0, 2):
            r = self.slurm_task(k, k, k, 1, "check specs/ --resume")
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("SHARD_TOTAL=N", r.stderr)
        r = self.slurm_task(2, 2, 2, 1, "check specs/ --resume", {"SHARD_TOTAL": "4"})
        self.assertEqual(r.returncode, 0, r.stderr)
        (call,) = self.ws.calls()
        self.assertEqual(option(call, "--shard"), "2/4")
        self.assertEqual(option(call, "--json"), "shard-2.json")
        self.assertIn("--resume", call)
        # Tasks 0,2 of 0-3 (--array=0,2): not an array 0..N-1 whole either.
        r = self.slurm_task(0, 0, 2, 2, "check specs/")
        self.assertEqual(r.returncode, 2, r.stderr)
        r = self.slurm_task(0, 0, 0, 1, "launch specs/", {"SHARD_TOTAL": "4"})
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("check or grade", r.stderr)
        self.assertEqual(self.ws.calls(), [])

    def test_docs_show_the_files_as_they_are(self):
        """A fenced block after `<!-- not run: ci/FILE ... -->` in docs/ci.md is that file."""
        with open(os.path.join(ROOT, "docs/ci.md")) as f:
            lines = f.read().split("\n")
        shown = {}
        for i, line in enumerate(lines):
            m = re.match(r"<!-- not run: (ci/[^\s,]+)", line)
            if not m:
                continue
            self.assertTrue(lines[i + 1].startswith("```"), line)
            end = lines.index("```", i + 2)
            shown[m.group(1)] = "\n".join(lines[i + 2:end]) + "\n"
        self.assertEqual(sorted(shown),
                         ["ci/github/shards.yml", "ci/gitlab/shards.yml", "ci/slurm/array.sh"])
        for path, text in shown.items():
            with open(os.path.join(ROOT, path)) as f:
                self.assertEqual(text, f.read(), path + " differs from its copy in docs/ci.md")


if __name__ == "__main__":
    ROOT = os.path.abspath(sys.argv.pop(1))
    unittest.main()
