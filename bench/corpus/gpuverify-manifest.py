#!/usr/bin/env python3
"""Turns GPUVerify's OpenCL test suite into a manifest for bench/corpus/run-corpus.py.

Usage: gpuverify-manifest.py SUITE [--out MANIFEST] [--max-items N] [--tries N] [--list]

SUITE is a checkout of github.com/mc-imperial/gpuverify (Ms-PL: fetched at run time, not
vendored) or its testsuite/OpenCL folder. The manifest is written into that folder by default
(testsuite/OpenCL/clharness-manifest.jsonl), so each case's kernel path is relative to it.

Each kernel.cl opens with GPUVerify's own verdict and options:

  //pass  or  //xfail:NOT_ALL_VERIFIED (or another xfail: a tool's error)
  //--local_size=64 --num_groups=64 [--global_size=...] [other GPUVerify options]
  //the error lines GPUVerify must print (regular expressions), if any

A `//pass` kernel becomes a case that must produce no finding. An xfail:NOT_ALL_VERIFIED
kernel is a faulty one; its expected kind comes from the suite's error lines ("race", "Write by
work item": race; "non-uniform control flow": divergence; "out-of-bounds", "null pointer":
out_of_bounds); with no error line, race (GPUVerify's default check). Kernels whose fault is a
violated GPUVerify annotation (__assert, __requires, invariants, ...) and the other xfail kinds
(errors of GPUVerify's own tools or options) are written as comment lines ('#'), with the reason,
so the manifest still accounts for all of them. GPUVerify's annotations in the kernels that stay
are defined away with -D build options.

Sizes: GPUVerify proves a kernel for its sizes at once; a simulator runs each work-item, so a
grid of more than --max-items work-items (default 4096) keeps its local size and runs fewer
work-groups (at least 2 in a dimension that had 2 or more), said in the case's note.
Standard library only.
"""

import argparse
import json
import os
import re
import sys

# GPUVerify's own specification language: a kernel whose expected error is one of these checks
# an annotation, which no run of the kernel can violate.
ANNOTATION_ERRORS = re.compile(
    r"assertion might not hold|invariant might not|loop invariant|precondition|postcondition|"
    r"barrier invariant|barrier interval")
# Statements of GPUVerify's specification language that may appear in kernels kept: each becomes
# the expression 0 (they also stand in loop conditions: `while (__invariant(i < n), i < n)`).
ANNOTATION_MACROS = [
    "__requires", "__ensures", "__assert", "__assume", "__invariant", "__global_requires",
    "__global_ensures", "__global_invariant", "__global_assert", "__function_wide_invariant",
    "__function_wide_candidate_invariant", "__candidate_invariant",
    "__candidate_global_invariant", "__reads_from", "__writes_to", "__requires_fresh_array",
    "__array_snapshot", "__read_permission",
] + ["__barrier_invariant_%d" % n for n in range(1, 20)] + ["__barrier_invariant_binary_1"]
ANNOTATION_USE = re.compile(r"\b(__assert|__global_assert|__barrier_invariant\w*|DECLARE_UF\w*|"
                            r"__axiom|__function_wide_candidate_invariant)\b")
# Annotations a faulty kernel may violate without any race: with no error line naming a race, the
# kernel's fault is taken to be the annotation's.
ANNOTATION_FAULT = re.compile(r"\b(__assert|__global_requires|__global_ensures|__ensures|"
                              r"__invariant|__function_wide_invariant|__barrier_invariant\w*|"
                              r"__no_read|__no_write)\b")
KERNEL_NAME = re.compile(r"(?:__kernel|\bkernel)\s+(?:__attribute__\s*\(\(.*?\)\)\s*)?void\s+"
                         r"(?:__attribute__\s*\(\(.*?\)\)\s*)?(\w+)\s*\(", re.S)


# GPUVerify's "*" (any size): the run picks this one.
STAR = 8


def dims(text):
    """'64', '[64,64]', '1,10' -> [64], [64, 64], [1, 10]; '*' (any) -> STAR."""
    text = text.strip().strip("[]")
    return [STAR if v.strip() == "*" else int(v) for v in text.split(",") if v.strip()]


def header(path):
    """(verdict line, option words, error lines) of a kernel file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    verdict = lines[0].strip()[2:].strip() if lines and lines[0].startswith("//") else ""
    options = lines[1].strip()[2:].split() if len(lines) > 1 and lines[1].startswith("//") else []
    errors = []
    for line in lines[2:]:
        if not line.startswith("//"):
            break
        errors.append(line[2:].strip())
    return verdict, options, errors, "\n".join(lines)


def expected_kind(errors, source):
    """The finding kind GPUVerify's error lines name, or None when the fault is an annotation's."""
    text = " ".join(errors)
    if ANNOTATION_ERRORS.search(text):
        return None
    if "null pointer" in text:
        return "out_of_bounds"
    if "out-of-bounds" in text:
        return "out_of_bounds"
    if "non-uniform" in text or "divergence" in text:
        return "divergence"
    if re.search(r"race|(Write|Read) by work item", text):
        return "race"
    # Any other error line (a trace, a statement) or none: GPUVerify's default check, races,
    # unless the kernel states a specification of its own that the fault may violate.
    if ANNOTATION_FAULT.search(source):
        return None
    return "race"


def geometry(options, max_items):
    """(global, local, note) of the run from GPUVerify's size options."""
    values = {}
    for word in options:
        m = re.match(r"--(local_size|num_groups|global_size)=(.+)$", word)
        if m:
            values[m.group(1)] = dims(m.group(2))
    local = values.get("local_size", [1])
    if "global_size" in values:
        groups = [g // l if l else 1 for g, l in zip(values["global_size"], local)]
    else:
        groups = values.get("num_groups", [1])
    n = max(len(local), len(groups))
    local = local + [1] * (n - len(local))
    groups = groups + [1] * (n - len(groups))
    note = ""
    def items():
        total = 1
        for l, g in zip(local, groups):
            total *= l * g
        return total

    if items() > max_items:
        original = list(groups)
        for d in reversed(range(n)):  # shrink the last dimensions first
            while items() > max_items and groups[d] > (2 if original[d] >= 2 else 1):
                groups[d] = max(2 if original[d] >= 2 else 1, groups[d] // 2)
        note = "work-groups %s of GPUVerify's %s" % (
            "x".join(map(str, groups)), "x".join(map(str, original)))
    glob = [l * g for l, g in zip(local, groups)]
    return ",".join(map(str, glob)), ",".join(map(str, local)), note


def case_of(root, path, max_items, tries):
    """A manifest record for one kernel, or (None, reason) when it stays out."""
    rel = os.path.relpath(path, root)
    case_id = os.path.dirname(rel).replace(os.sep, "/")
    verdict, options, errors, source = header(path)
    verdict_word = verdict.split()[0].lower() if verdict else ""
    if verdict_word == "pass":
        expect = []
    elif verdict_word == "xfail:not_all_verified":
        kind = expected_kind(errors, source)
        if kind is None:
            return case_id, None, "the fault is a GPUVerify annotation: " + ("; ".join(errors)[:160] or "(no error line)")
        expect = [kind]
    else:
        return case_id, None, "%s: not a fault of the kernel (GPUVerify's own tools)" % verdict
    if ANNOTATION_USE.search(source) and not expect:
        # A correct kernel proved with assertions or uninterpreted functions still runs (the
        # assertions are defined away), unless it needs the functions GPUVerify supplies.
        if "DECLARE_UF" in source or "__axiom" in source:
            return case_id, None, "needs GPUVerify's uninterpreted functions or axioms"
    names = KERNEL_NAME.findall(re.sub(r"//.*", "", source))
    if not names:
        return case_id, None, "no kernel in the file"
    glob, local, size_note = geometry(options, max_items)
    build = " ".join("-D%s(...)=0" % m for m in ANNOTATION_MACROS)
    run = ["scan", rel, "--kernel", names[0], "--global", glob, "--local", local,
           "--build-options=" + build, "--tries", str(tries)]
    notes = [verdict]
    if errors:
        notes.append("GPUVerify expects: " + " | ".join(errors)[:200])
    if size_note:
        notes.append(size_note)
    if len(names) > 1:
        notes.append("first of %d kernels" % len(names))
    extra = [w for w in options if not re.match(r"--(local_size|num_groups|global_size)=", w)]
    if extra:
        notes.append("GPUVerify options: " + " ".join(extra))
    return case_id, {"id": case_id, "run": run, "expect": expect, "note": "; ".join(notes)}, None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", help="a gpuverify checkout or its testsuite/OpenCL folder")
    parser.add_argument("--out", help="the manifest (default: SUITE/testsuite/OpenCL/"
                        "clharness-manifest.jsonl); kernel paths are relative to its folder")
    parser.add_argument("--max-items", type=int, default=4096,
                        help="most work-items of one case (default 4096)")
    parser.add_argument("--tries", type=int, default=4, help="scan's --tries (default 4)")
    parser.add_argument("--list", action="store_true",
                        help="print the counts of each category and exit")
    args = parser.parse_args(argv)
    root = args.suite
    if os.path.isdir(os.path.join(root, "testsuite", "OpenCL")):
        root = os.path.join(root, "testsuite", "OpenCL")
    if not os.path.isdir(root):
        parser.error("%s: no testsuite/OpenCL folder" % args.suite)
    out = args.out or os.path.join(root, "clharness-manifest.jsonl")
    paths = []
    for folder, _, files in os.walk(root):
        paths += [os.path.join(folder, f) for f in files if f.endswith(".cl")]
    cases, left_out = [], []
    for path in sorted(paths):
        case_id, case, reason = case_of(root, path, args.max_items, args.tries)
        if case is None:
            left_out.append((case_id, reason))
        else:
            cases.append(case)
    faulty = [c for c in cases if c["expect"]]
    counts = {"kernels": len(paths), "correct": len(cases) - len(faulty), "faulty": len(faulty),
              "left_out": len(left_out)}
    for c in faulty:
        counts["faulty_" + c["expect"][0]] = counts.get("faulty_" + c["expect"][0], 0) + 1
    if args.list:
        print(json.dumps(counts, indent=1))
        return 0
    folder = os.path.dirname(os.path.abspath(out))
    if os.path.abspath(folder) != os.path.abspath(root):
        # Paths stay relative to the manifest's folder.
        for c in cases:
            c["run"][1] = os.path.relpath(os.path.join(root, c["run"][1]), folder)
    with open(out, "w", encoding="utf-8") as f:
        f.write("# GPUVerify's OpenCL test suite for run-corpus.py, made by "
                "bench/corpus/gpuverify-manifest.py: %s\n" % json.dumps(counts))
        for case_id, reason in left_out:
            f.write("# left out %s: %s\n" % (case_id, reason.replace("\n", " ")))
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print("%s: %d correct and %d faulty kernels, %d left out (see its comment lines)"
          % (out, counts["correct"], counts["faulty"], counts["left_out"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
