#!/usr/bin/env python3
"""Runs clharness over a corpus of kernels described by a manifest and prints per-kind detection.

Usage: run-corpus.py MANIFEST --clharness PATH [--jobs N] [--json OUT.json] [--timeout CPU_S]
                     [--wall-backstop S] [--term-grace S]

MANIFEST is JSON lines, one case a line (blank lines and lines starting with '#' are skipped):

  {"id": "...", "run": ["scan", "kernel.cl", "--kernel", "k", "--global", "64"],
   "expect": ["race"], "note": "..."}

`run` are the arguments after `clharness`; they run in the manifest's folder, so relative paths
resolve against it. The runner adds `--json FILE` and reads the kinds of the findings from it.
`expect` lists the finding kinds the case must produce; an empty list is a correct kernel that
must pass. A correct kernel's finding is no false report, but counted and listed apart, when
  - it is an access past the end of a buffer or __local argument scan sized itself (the corpus
    gives no size: "size not given"), or
  - the case's optional "unchecked" list names its kind: [{"kind": "race", "why": "...",
    "between_groups": true, "summary_has": "..."}] says the reference verdict did not look at
    such findings (with between_groups: only at races whose two work-items lie in different
    work-groups; with summary_has: only at findings whose summary holds that text), or
  - the case's optional "preconditions_not_given" lists preconditions of the kernel the run
    could not meet: a correct kernel is only correct under them.
A correct kernel's timeout (scan's limit, or this runner's) is counted apart, not as a timeout,
when the case's optional "may_not_terminate" says why the kernel can run forever (the reference
verdict does not look at termination). The runner's own limit is CPU time of the case's
processes (--timeout), so a loaded machine does not reach it; the clock (--wall-backstop) only
stops a case that waits without computing. A case past either limit gets SIGTERM, so that scan
writes the report of what it found (`"incomplete": true`), and SIGKILL --term-grace seconds
later; what that report holds counts, and the case is a timeout only when it holds nothing.
Exit status: 0 when every case met its expectation, 1 otherwise, 2 for bad usage or
a bad manifest. Standard library only (docs/races.md, "Corpora").
"""

import argparse
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

SCHEMA = "clharness-corpus/1"
# Findings that are the tool's, not the kernel's: never a detection, never a false report.
TOOL_KINDS = {"tool_error", "timeout"}
# What a run of the kernel finds (unlike a build or launch error, which no input causes).
RUN_KINDS = {"race", "out_of_bounds", "uninitialized", "divergence", "missing_wait", "misaligned",
             "access_mode", "wrong_result", "unwritten", "crash"}
# clharness's exit codes (docs/cli.md): 2 bad usage, 3 no usable device.
EXIT_USAGE = 2
EXIT_NO_DEVICE = 3


class ManifestError(Exception):
    pass


def load_manifest(path):
    """The cases of a manifest, each checked; raises ManifestError naming the line."""
    cases = []
    seen = set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            where = "%s:%d" % (path, number)
            try:
                case = json.loads(text)
            except json.JSONDecodeError as e:
                raise ManifestError("%s: not JSON (%s)" % (where, e))
            if not isinstance(case, dict):
                raise ManifestError("%s: expected an object" % where)
            for key, kind in (("id", str), ("run", list), ("expect", list)):
                if not isinstance(case.get(key), kind):
                    raise ManifestError("%s: '%s' must be a %s" % (where, key, kind.__name__))
            if not case["run"] or not all(isinstance(a, str) for a in case["run"]):
                raise ManifestError("%s: 'run' must be a non-empty list of strings" % where)
            if not all(isinstance(k, str) for k in case["expect"]):
                raise ManifestError("%s: 'expect' must be a list of kinds" % where)
            if not isinstance(case.get("may_not_terminate", ""), str):
                raise ManifestError("%s: 'may_not_terminate' must be a string (why)" % where)
            if case["id"] in seen:
                raise ManifestError("%s: id '%s' used twice" % (where, case["id"]))
            seen.add(case["id"])
            cases.append(case)
    return cases


def scan_sized(report):
    """Names of the buffer and __local arguments scan sized itself (no --arg NAME=COUNT)."""
    names = set()
    for result in report.get("results", []) if isinstance(report, dict) else []:
        for a in result.get("arguments", []):
            if a.get("address_space") in ("global", "constant", "local") and not a.get("from_user"):
                names.add(a.get("name"))
    return names


PAST_THE_END = re.compile(r"past the end of (?:buffer|__local) argument '(\w+)'")
# The sanitizer's wording (scan --sanitize): "read of a[16] (a[i + 1]), outside a (16 elements of
# 4 bytes)", and a race "on __global memory between work-groups of one launch".
OUTSIDE = re.compile(r"\boutside (\w+) \(\d+ elements of")
BETWEEN_GROUPS = "between work-groups of one launch"


def explain(finding, unchecked, sized):
    """Why a correct kernel's finding is no false report ("size not given", or the reference's
    unchecked reason), or None."""
    kind, summary = finding.get("kind"), finding.get("summary", "")
    m = PAST_THE_END.search(summary) or OUTSIDE.search(summary)
    if kind == "out_of_bounds" and m and m.group(1) in sized:
        return "size not given: scan sized '%s'" % m.group(1)
    for rule in unchecked:
        if rule.get("kind") != kind:
            continue
        if rule.get("between_groups") and not (between_groups(finding.get("work_items") or [])
                                               or BETWEEN_GROUPS in summary):
            continue
        if rule.get("summary_has") and rule["summary_has"] not in summary:
            continue
        return "unchecked: " + rule.get("why", "")
    return None


GROUP = re.compile(r"group\((\d+,\d+,\d+)\)")


def between_groups(items):
    """Whether a race's work-items, two a report (as scan lists them), lie in different groups."""
    groups = [GROUP.search(i) for i in items]
    pairs = [(groups[i], groups[i + 1]) for i in range(0, len(groups) - 1, 2)]
    return bool(pairs) and all(a and b and a.group(1) != b.group(1) for a, b in pairs)


def findings_of(report):
    """Every finding (an object with a kind) in a JSON report (scan's `results[].findings[]`, or
    any nesting)."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "findings" and isinstance(value, list):
                    found.extend(f for f in value
                                 if isinstance(f, dict) and isinstance(f.get("kind"), str))
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(report)
    return found


def with_json(run, path):
    """`run` with `--json path` (an existing --json is replaced)."""
    out = []
    skip = False
    for arg in run:
        if skip:
            skip = False
            continue
        if arg == "--json":
            skip = True
            continue
        if arg.startswith("--json="):
            continue
        out.append(arg)
    return out + ["--json", path]


def classify(expect, findings, exit_code, timed_out, stderr, unchecked=(), sized=(),
             not_given=(), may_not_terminate=""):
    """A case's status and its per-kind outcome from what clharness did."""
    kinds = [f["kind"] for f in findings]
    kernel_kinds = [k for k in kinds if k not in TOOL_KINDS]
    explained = []
    if not expect:  # a correct kernel: findings the corpus's sizes or verdict do not speak for
        unexplained = []
        for f in findings:
            if f["kind"] in TOOL_KINDS:
                continue
            why = explain(f, unchecked, sized)
            if not why and not_given and f["kind"] in RUN_KINDS:
                why = "precondition not given: " + "; ".join(not_given)
            if why:
                explained.append({"kind": f["kind"], "why": why})
            else:
                unexplained.append(f["kind"])
        kernel_kinds = unexplained
    result = {"found": sorted(set(kinds)), "right": [], "other": [], "missed": []}
    if not expect and may_not_terminate and not kernel_kinds and (timed_out or "timeout" in kinds):
        # A kernel that can loop forever, by a reference that does not check termination.
        status = "unchecked_by_reference"
        explained.append({"kind": "timeout", "why": "unchecked: " + may_not_terminate})
    elif not kernel_kinds and (timed_out or "timeout" in kinds):
        # Stopped by the runner's limit or clharness's own (--timeout) with nothing found; what a
        # stopped scan did find counts like any other finding.
        status = "timeout"
    elif exit_code == EXIT_USAGE:
        status = "refused"
    elif exit_code not in (0, 1) or (not kernel_kinds and set(kinds) & TOOL_KINDS):
        status = "tool_error"
    elif exit_code == 1 and not kinds:
        status = "tool_error"  # a failure with no finding: nothing to judge
    else:
        status = None
    for kind in expect:
        if status is None and kind in kernel_kinds:
            result["right"].append(kind)
        elif status is None and kernel_kinds:
            result["other"].append(kind)
        else:
            result["missed"].append(kind)
    if status is None:
        if expect:
            status = ("missed" if result["missed"] else
                      "other_kind" if result["other"] else "detected")
        elif kernel_kinds:
            status = "false_report"
        elif any(e["why"].startswith("unchecked") for e in explained):
            status = "unchecked_by_reference"
        elif any(e["why"].startswith("precondition") for e in explained):
            status = "precondition_not_given"
        elif explained:
            status = "size_not_given"
        else:
            status = "passed"
    result["status"] = status
    result["false_reports"] = sorted(set(kernel_kinds)) if not expect else []
    if explained:
        result["explained"] = explained
    result["ok"] = status in ("detected", "passed", "size_not_given", "unchecked_by_reference",
                              "precondition_not_given")
    if status in ("refused", "tool_error") and stderr:
        result["message"] = stderr.strip().splitlines()[-1][:500] if stderr.strip() else ""
    return result


def session_cpu_seconds(sid):
    """CPU seconds used so far by the processes of session `sid`: each live one's own time and
    that of the children it has reaped (a finished try's time moves to its parent)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        # After the command's name: state, ppid, pgrp, session, ... utime (index 11), stime,
        # cutime, cstime.
        if int(fields[3]) == sid:
            total += sum(int(v) for v in fields[11:15])
    return total / tick


def wait_case(proc, cpu_limit, wall_limit, grace):
    """Waits for `proc`; stops its session (stop_case) when its processes have used `cpu_limit`
    CPU seconds or `wall_limit` seconds have passed. Returns (stderr, why it was stopped or
    None)."""
    start = time.monotonic()
    while True:
        try:
            _, stderr = proc.communicate(timeout=1)
            return stderr, None
        except subprocess.TimeoutExpired:
            pass
        why = None
        if session_cpu_seconds(proc.pid) > cpu_limit:
            why = "cpu"
        elif time.monotonic() - start > wall_limit:
            why = "wall"
        if why:
            return stop_case(proc, grace), why


def stop_case(proc, grace):
    """Stops a case past its limit: SIGTERM first, so that scan writes the report of what it
    found before (`"incomplete": true`), then SIGKILL to what is left after `grace` seconds.
    Returns its stderr."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        _, stderr = proc.communicate(timeout=grace)
    except subprocess.TimeoutExpired:
        stderr = None
    except ProcessLookupError:
        _, stderr = proc.communicate()
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the case's children too, whatever scan did
    except ProcessLookupError:
        pass
    if stderr is None:
        _, stderr = proc.communicate()
    return stderr


def run_case(case, clharness, folder, cpu_limit, wall_limit, grace):
    """Runs one case in `folder`; returns its result record."""
    with tempfile.TemporaryDirectory(prefix="clharness-corpus-") as scratch:
        report_path = os.path.join(scratch, "report.json")
        argv = [clharness] + with_json(case["run"], report_path)
        start = time.monotonic()
        proc = subprocess.Popen(argv, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, start_new_session=True, text=True,
                                errors="replace")
        stderr, stopped = wait_case(proc, cpu_limit, wall_limit, grace)
        seconds = time.monotonic() - start
        findings, sized, report = [], set(), {}
        try:
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
            findings, sized = findings_of(report), scan_sized(report)
        except (OSError, ValueError):
            pass
    record = {"id": case["id"], "run": case["run"], "expect": case["expect"],
              "note": case.get("note", ""), "exit_code": proc.returncode,
              "seconds": round(seconds, 2),
              "findings": ["%s: %s" % (f["kind"], f.get("summary", "")) for f in findings]}
    exit_code = proc.returncode
    if stopped:
        # What a stopped scan found counts; only a stop with nothing found is a timeout.
        record["stopped_by_runner"] = stopped
        record["partial_report"] = partial_of(report)
        exit_code = 1
    record.update(classify(case["expect"], findings, exit_code, bool(stopped), stderr,
                           case.get("unchecked", []), sized,
                           case.get("preconditions_not_given", []),
                           case.get("may_not_terminate", "")))
    return record


def partial_of(report):
    """What a stopped scan's report says of itself: whether it was written (`"incomplete"`,
    `interrupted_by`) and how many launches it did not run."""
    if not report:
        return {"written": False}
    not_run = sum(len(r.get("not_run", [])) for r in report.get("results", []))
    return {"written": True, "incomplete": bool(report.get("incomplete")),
            "interrupted_by": report.get("interrupted_by", ""), "not_run": not_run}


def summarize(results):
    """Per-kind counts for the faulty kernels; outcome counts for the correct ones."""
    kinds = {}
    for r in results:
        for kind in r["expect"]:
            row = kinds.setdefault(kind, {"expected": 0, "right": 0, "other": 0, "missed": 0})
            row["expected"] += 1
            row["right"] += kind in r["right"]
            row["other"] += kind in r["other"]
            row["missed"] += kind in r["missed"]
    correct = {"cases": 0, "passed": 0, "size_not_given": 0, "unchecked_by_reference": 0,
               "precondition_not_given": 0,
               "false_report": 0, "refused": 0, "tool_error": 0, "timeout": 0,
               "false_reports_by_kind": {}}
    faulty = {"cases": 0, "detected": 0, "other_kind": 0, "missed": 0, "refused": 0,
              "tool_error": 0, "timeout": 0}
    for r in results:
        bucket = faulty if r["expect"] else correct
        bucket["cases"] += 1
        bucket[r["status"]] += 1
        for kind in r["false_reports"]:
            by_kind = correct["false_reports_by_kind"]
            by_kind[kind] = by_kind.get(kind, 0) + 1
    return {"kinds": dict(sorted(kinds.items())), "faulty": faulty, "correct": correct}


def render(summary, results):
    lines = []
    kinds = summary["kinds"]
    if kinds:
        width = max(len("kind"), *(len(k) for k in kinds))
        head = "%-*s  %8s  %10s  %12s  %6s" % (width, "kind", "expected", "right kind",
                                               "another kind", "missed")
        lines += ["Faulty kernels, per expected kind:", head, "-" * len(head)]
        for kind, row in kinds.items():
            lines.append("%-*s  %8d  %10d  %12d  %6d" % (width, kind, row["expected"],
                                                         row["right"], row["other"],
                                                         row["missed"]))
        f = summary["faulty"]
        lines.append("%d faulty kernels: %d detected with every expected kind, %d with another "
                     "kind, %d missed (of them %d refused by scan, %d tool errors, %d timeouts)"
                     % (f["cases"], f["detected"], f["other_kind"],
                        f["missed"] + f["refused"] + f["tool_error"] + f["timeout"],
                        f["refused"], f["tool_error"], f["timeout"]))
        lines.append("")
    c = summary["correct"]
    by_kind = ", ".join("%s %d" % kv for kv in sorted(c["false_reports_by_kind"].items()))
    lines.append("Correct kernels: %d" % c["cases"])
    lines.append("  passed                     %d" % c["passed"])
    lines.append("  out of bounds of a size the corpus does not give (scan's)  %d"
                 % c["size_not_given"])
    lines.append("  found what the reference did not check                     %d"
                 % c["unchecked_by_reference"])
    lines.append("  found where a precondition of the kernel was not given     %d"
                 % c["precondition_not_given"])
    lines.append("  false reports              %d%s" % (c["false_report"],
                                                      " (" + by_kind + ")" if by_kind else ""))
    lines.append("  refused by scan (usage)    %d" % c["refused"])
    lines.append("  tool errors / timeouts     %d / %d" % (c["tool_error"], c["timeout"]))
    explained = [r for r in results if r.get("explained")]
    if explained:
        lines += ["", "Correct kernels' findings the corpus does not speak for:"]
        for r in explained:
            whys = sorted({"%s (%s)" % (e["kind"], e["why"]) for e in r["explained"]})
            lines.append("  %-40s %s" % (r["id"], "; ".join(whys)))
    bad = [r for r in results if not r["ok"]]
    if bad:
        lines += ["", "Cases not as expected:"]
        for r in bad:
            detail = ", ".join(r["found"]) or "nothing"
            if r.get("message"):
                detail += ": " + r["message"]
            lines.append("  %-40s %-12s expected [%s], found %s" % (
                r["id"], r["status"], ", ".join(r["expect"]), detail))
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest")
    parser.add_argument("--clharness", required=True, help="the clharness executable")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at once (default 1)")
    parser.add_argument("--json", help="write every case's result as JSON to this file")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="CPU seconds one case's processes may use before they are killed "
                             "(default 1800; CPU time, so that a busy machine does not reach it)")
    parser.add_argument("--wall-backstop", type=float, default=None,
                        help="wall-clock seconds after which a case is killed whatever its CPU "
                             "time (default 10x --timeout): only for a case that sleeps or waits")
    parser.add_argument("--term-grace", type=float, default=10,
                        help="seconds a stopped case has, after SIGTERM, to write what it found "
                             "before SIGKILL (default 10)")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.timeout <= 0 or args.term_grace < 0:
        parser.error("--jobs and --timeout must be positive, --term-grace not negative")
    clharness = os.path.abspath(args.clharness)
    if not os.access(clharness, os.X_OK):
        parser.error("--clharness %s: not an executable" % args.clharness)
    try:
        cases = load_manifest(args.manifest)
    except (OSError, ManifestError) as e:
        print("run-corpus: %s" % e, file=sys.stderr)
        return 2
    folder = os.path.dirname(os.path.abspath(args.manifest))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        wall = args.wall_backstop if args.wall_backstop else 10 * args.timeout
        futures = {pool.submit(run_case, c, clharness, folder, args.timeout, wall,
                               args.term_grace): i
                   for i, c in enumerate(cases)}
        results = [None] * len(cases)
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            r = future.result()
            results[futures[future]] = r
            # One line a case as it ends, so a long run shows where it is.
            print("[%d/%d] %s: %s (%.0f s)" % (done, len(cases), r["id"], r["status"],
                                               r["seconds"]), file=sys.stderr, flush=True)
    summary = summarize(results)
    sys.stdout.write(render(summary, results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"schema": SCHEMA, "manifest": args.manifest,
                       "summary": summary, "cases": results}, f, indent=1)
            f.write("\n")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
