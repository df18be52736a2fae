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
out_of_bounds); with no error line, divergence when the kernel's comment says a call is "reached
non-uniformly" (GPUVerify's uniformity check of async copies and waits), out_of_bounds when it
uses NULL (its null-pointer check), else race (GPUVerify's default check). Kernels whose fault is a
violated GPUVerify annotation (__assert, __requires, invariants, ...) and the other xfail kinds
(errors of GPUVerify's own tools or options) are written as comment lines ('#'), with the reason,
so the manifest still accounts for all of them. GPUVerify's annotations in the kernels that stay
are defined away with -D build options.

Sizes: GPUVerify proves a kernel for its sizes at once; a simulator runs each work-item, so a
grid of more than --max-items work-items (default 4096) keeps its local size and runs fewer
work-groups (at least 2 in a dimension that had 2 or more), one at a time from the dimension that
loses the smallest share of its groups, said in the case's note.
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

# GPUVerify options that make it report races of equal values too: scan's --uniform-writes.
UNIFORM_WRITES = ("--no-benign-tolerance", "--adversarial-abstraction")
# GPUVerify options under which a correct kernel's "pass" does not speak for races (or only for
# those inside a work-group): a race scan finds there is a finding the reference did not check,
# never a false report. Each with its reason, in the manifest's "unchecked" list.
UNCHECKED_RACES = [
    (re.compile(r"--only-divergence$"), False, "GPUVerify checked barrier divergence only "
     "(--only-divergence)"),
    (re.compile(r"--only-intra-group$"), True, "GPUVerify checked no race between work-groups "
     "(--only-intra-group)"),
    (re.compile(r"--only-log$"), False, "GPUVerify logged the accesses but checked no race "
     "(--only-log)"),
    (re.compile(r"--warp-sync=\d+$"), False, "GPUVerify assumed the work-items of a warp run in "
     "lock-step (--warp-sync), which OpenCL does not promise"),
    (re.compile(r"--equality-abstraction$"), False, "GPUVerify tolerated races in which the "
     "work-items read or write equal values (--equality-abstraction); OpenCL C still makes them "
     "undefined"),
    (re.compile(r"--vcgen-opt=/checkArrays:"), False, "GPUVerify checked races on the arrays "
     "--vcgen-opt=/checkArrays named only"),
]
# GPUVerify's --check-array-bounds checks an index against the whole array; Oclgrind checks each
# dimension ("Index (12) exceeds static array size (10)" for L[0][12] of int L[10][10], which C99
# Annex J.2 makes undefined). On a kernel GPUVerify proved in bounds, such a report is within the
# array: the reference's verdict does not speak for it.
PER_DIMENSION = {"kind": "out_of_bounds", "summary_has": "exceeds static array size",
                 "why": "GPUVerify checked each index against the whole array "
                        "(--check-array-bounds), Oclgrind against its dimension"}
# GPUVerify reads memory nobody wrote as any value: it checks no uninitialized read, which
# Oclgrind reports (a __local array read before any work-item stores to it). On a kernel it proved
# correct, such a finding is one its verdict does not speak for.
# GPUVerify lets a barrier's flags differ between work-items (each work-item's flags order its own
# accesses); OpenCL C requires the same flags from every work-item of the group, and scan reports a
# barrier reached with different ones. On a kernel GPUVerify proved, its verdict does not speak for
# that finding.
BARRIER_FLAGS = {"kind": "divergence", "summary_has": "different flags to one barrier",
                 "why": "GPUVerify lets a barrier's flags differ between work-items; OpenCL C "
                        "requires the same flags from every work-item of a group"}
UNINITIALIZED = {"kind": "uninitialized",
                 "why": "GPUVerify does not check that a value read was written first (it takes "
                        "any value); OpenCL leaves __local and private memory uninitialized"}
# Correct kernels that can run forever: GPUVerify proves no race, not that a kernel ends, so a
# run that times out is no false report. Each with what loops.
MAY_NOT_TERMINATE = {
    "nonterminating": "the kernel is `while (true) {}`; GPUVerify does not check that a kernel "
                      "ends",
    "break_test": "work-items of local id 5 and over loop forever when x < 2 (the loop's "
                  "condition does not change for them); GPUVerify does not check that a kernel "
                  "ends",
}
# GPUVerify's own functions outside the annotations defined away: a kernel calling them does not
# build for any OpenCL compiler.
GPUVERIFY_FUNCTIONS = re.compile(r"\b(__read_offset_bytes|__write_offset_bytes|__ptr_offset_bytes|"
                                 r"__add_noovfl\w*|__other_\w+|__distinct_\w+|__ptr_base)\s*\(")
# Predicates of GPUVerify's preconditions over the kernel's own accesses (and __enabled()).
ACCESS_PREDICATE = re.compile(r"\b__(read|write|no_read|no_write|read_implies|write_implies|"
                              r"read_offset_bytes|write_offset_bytes|enabled)\b")
# A comparison of a scalar parameter with a constant in a __requires precondition.
COMPARISON = re.compile(r"^\s*(\w+)\s*(==|>=|<=|>|<)\s*(.+?)\s*$")
SIZE_CALL = re.compile(r"\b(get_local_size|get_global_size|get_num_groups)\s*\(\s*(\d)\s*\)")


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
    if not errors:
        # No error line, but the kernel itself says what GPUVerify rejects. A comment that a
        # work-group function is "reached non-uniformly": GPUVerify requires an async copy's and
        # a wait's work-items and arguments to be equal across the group
        # (RaceInstrumenter.cs, EqualBetweenThreadsInSameGroup), OpenCL's rule for them, which a
        # run reports as a divergence. A NULL the kernel dereferences: GPUVerify's bad-pointer
        # check ("possible null pointer access", as the null_pointers tests' error lines say).
        if re.search(r"//[^\n]*\bnon-uniform", source):
            return "divergence"
        if re.search(r"\bNULL\b", re.sub(r"//[^\n]*|/\*.*?\*/", "", source, flags=re.S)):
            return "out_of_bounds"
    return "race"


def geometry(options, max_items):
    """(global, local, note) of the run from GPUVerify's size options."""
    values = {}
    free = set()  # dimensions of a '*' global size: scan explores them (--global '*')
    for word in options:
        m = re.match(r"--(local_size|num_groups|global_size)=(.+)$", word)
        if m:
            values[m.group(1)] = dims(m.group(2))
            if m.group(1) == "global_size":
                free = {i for i, v in enumerate(m.group(2).strip("[]").split(","))
                        if v.strip() == "*"}
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
        floor = [2 if g >= 2 else 1 for g in original]
        while items() > max_items:
            # One group fewer where that drops the smallest share of GPUVerify's groups in its
            # dimension (the last dimension of equal shares): every dimension keeps as much of
            # the grid as the cap allows, so a fault between far-apart groups of a grid just over
            # the cap stays in it (report_global_id/test1's groups (0,0,0) and (4,4,5) of
            # 5x6x7; halving the last dimension first left z at 3 of 7).
            shrinkable = [d for d in range(n) if groups[d] > floor[d]]
            if not shrinkable:
                break
            d = min(shrinkable, key=lambda d: ((original[d] - groups[d] + 1) / original[d], -d))
            groups[d] -= 1
        note = "work-groups %s of GPUVerify's %s" % (
            "x".join(map(str, groups)), "x".join(map(str, original)))
    glob = [l * g for l, g in zip(local, groups)]
    if free:
        note = (note + "; " if note else "") + "global size free in dimension %s: scan explores it" % (
            ",".join(map(str, sorted(free))))
    return (",".join("*" if i in free else str(v) for i, v in enumerate(glob)),
            ",".join(map(str, local)), note)


def without_calls(text, names):
    """`text` with every call of one of `names` (balanced parentheses) removed."""
    pattern = re.compile(r"\b(%s)\s*\(" % "|".join(map(re.escape, names)))
    out, i = "", 0
    while True:
        m = pattern.search(text, i)
        if not m:
            return out + text[i:]
        out += text[i:m.start()]
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        i = j


def kernel_body(source, kernel):
    """The text of the kernel function's body (its preconditions are assumptions on its inputs;
    a helper's are proved at its calls)."""
    code = re.sub(r"//.*", "", source)
    m = re.search(r"\b%s\s*\(" % re.escape(kernel), code)
    start = code.find("{", m.end()) if m else -1
    if start < 0:
        return ""
    depth, j = 1, start + 1
    while j < len(code) and depth:
        depth += {"{": 1, "}": -1}.get(code[j], 0)
        j += 1
    return code[start:j]


def parameters(source, kernel):
    """[(name, type)] of the kernel's parameters, from its declaration."""
    m = re.search(r"\b%s\s*\(" % re.escape(kernel), re.sub(r"//.*", "", source))
    if not m:
        return []
    depth, i, text = 1, m.end(), ""
    while i < len(source) and depth:
        c = re.sub(r"//.*", "", source)[i]
        depth += c == "("
        depth -= c == ")"
        if depth:
            text += c
        i += 1
    out = []
    for part in text.split(","):
        words = re.findall(r"[\w*]+|\*", part)
        if not words:
            continue
        name = words[-1].lstrip("*")
        out.append((name, " ".join(words[:-1]) + (" *" if "*" in part else "")))
    return out


def scalar(type_text):
    return "*" not in type_text and not re.search(r"\b(struct|image\w*|sampler_t)\b", type_text)


def evaluate(text, sizes, macros):
    """An integer constant expression of a precondition, or None."""
    for _ in range(4):  # macros may name macros
        for name, value in macros.items():
            text = re.sub(r"\b%s\b" % re.escape(name), "(%s)" % value, text)
    text = SIZE_CALL.sub(lambda m: str(sizes[m.group(1)][int(m.group(2))]
                                       if int(m.group(2)) < len(sizes[m.group(1)]) else 1), text)
    text = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", text)
    if not re.fullmatch(r"[\d\sxXa-fA-F()+\-*/<>%]*", text) or re.search(r"[a-wyzA-WYZ]", text):
        return None
    try:
        return int(eval(text.replace("/", "//"), {"__builtins__": {}}))  # digits and operators only
    except Exception:  # noqa: BLE001 - any malformed expression is simply not used
        return None


def preconditions(source, body, params, sizes):
    """(scan --arg words, preconditions not given) from the __requires of the kernel's `body`:
    each conjunction of comparisons of a scalar parameter with a constant becomes a value or a
    range scan explores; any other precondition is returned as not given."""
    macros = dict(re.findall(r"^\s*#define\s+(\w+)\s+(.+?)\s*$", source, re.M))
    scalars = {n: t for n, t in params if scalar(t)}
    bounds, skipped = {}, []
    for expr in re.findall(r"__requires\s*\((.*)\)\s*;", body):
        expr = re.sub(r"^__implies\s*\(\s*__enabled\s*\(\s*\)\s*,\s*(.*)\)$", r"\1", expr.strip())
        for part in re.split(r"&&|&", expr):
            m = COMPARISON.match(part)
            value = evaluate(m.group(3), sizes, macros) if m and m.group(1) in scalars else None
            if value is None:
                # What a kernel has read or written, and __enabled(), hold trivially at its entry:
                # they assume nothing of its inputs.
                if not ACCESS_PREDICATE.search(part):
                    skipped.append(part.strip())
                continue
            lo, hi = bounds.get(m.group(1), (None, None))
            op = m.group(2)
            if op in ("==", ">=", ">"):
                v = value + (op == ">")
                lo = v if lo is None else max(lo, v)
            if op in ("==", "<=", "<"):
                v = value - (op == "<")
                hi = v if hi is None else min(hi, v)
            bounds[m.group(1)] = (lo, hi)
    words = []
    for name, (lo, hi) in sorted(bounds.items()):
        if lo is None:
            lo = 0 if "unsigned" in scalars[name] or scalars[name].startswith("u") else min(-1, hi)
        if hi is None:
            hi = max(lo, 1) * 4  # above a lower bound: a range of values scan explores
        words.append("--arg=%s=%d" % (name, lo) if lo == hi else "--arg=%s=%d..%d" % (name, lo, hi))
    return words, skipped


def kernel_args(option, params):
    """scan --arg words from GPUVerify's --kernel-args=K,V1,V2,... (values of the scalar
    parameters, in order; '*' leaves one free)."""
    values = option.split("=", 1)[1].split(",")[1:]
    names = [n for n, t in params if scalar(t)]
    return ["--arg=%s=%d" % (n, int(v, 0)) for n, v in zip(names, values) if v.strip() != "*"]


DECLARATION = re.compile(r"(?:^|\n)[ \t]*(?:[A-Za-z_]\w*[ \t*]+)+([A-Za-z_]\w*)\s*\([^;{}()]*\)\s*;")


def bodiless_calls(source):
    """Functions the source declares at file scope, calls, and never defines: GPUVerify takes each
    call as returning any value; no OpenCL driver links such a program (scan: a build_error,
    unless --stub-bodiless gives them a body)."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), source,
                  flags=re.S)
    names = []
    for m in DECLARATION.finditer(code):
        name = m.group(1)
        if code[:m.start(1)].count("{") != code[:m.start(1)].count("}"):
            continue  # inside a function: a statement
        if re.search(r"\b%s\s*\([^;{}]*\)\s*\{" % re.escape(name), code):
            continue  # defined
        if len(re.findall(r"\b%s\s*\(" % re.escape(name), code)) >= 2 and name not in names:
            names.append(name)
    return names


def case_of(root, path, max_items, tries, scan_timeout=90):
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
    outside = without_calls(re.sub(r"//.*", "", source), ANNOTATION_MACROS)
    used = GPUVERIFY_FUNCTIONS.search(outside)
    if used and not expect:
        return case_id, None, "calls GPUVerify's own function %s outside its annotations" % (
            used.group(1))
    names = KERNEL_NAME.findall(re.sub(r"//.*", "", source))
    if not names:
        return case_id, None, "no kernel in the file"
    glob, local, size_note = geometry(options, max_items)
    build = " ".join("-D%s(...)=0" % m for m in ANNOTATION_MACROS)
    run = ["scan", rel, "--kernel", names[0], "--global", glob, "--local", local,
           "--build-options=" + build, "--tries", str(tries), "--timeout", str(scan_timeout)]
    params = parameters(source, names[0])
    l = [int(v) for v in local.split(",")]
    # A free dimension: its preconditions are evaluated with two work-groups (scan's first run).
    g = [2 * b if v == "*" else int(v) for v, b in zip(glob.split(","), l)]
    sizes = {"get_local_size": l, "get_global_size": g,
             "get_num_groups": [a // b for a, b in zip(g, l)]}
    given, skipped = preconditions(source, kernel_body(source, names[0]), params, sizes)
    for word in options:
        if word.startswith("--kernel-args="):
            given += kernel_args(word, params)
    run += given
    if any(w in options for w in UNIFORM_WRITES):
        run.append("--uniform-writes")
    notes = [verdict]
    if given:
        notes.append("preconditions given to scan: " + " ".join(given))
    if skipped:
        notes.append("preconditions scan cannot give: " + "; ".join(skipped)[:200])
    if errors:
        notes.append("GPUVerify expects: " + " | ".join(errors)[:200])
    if size_note:
        notes.append(size_note)
    if len(names) > 1:
        notes.append("first of %d kernels" % len(names))
    extra = [w for w in options if not re.match(r"--(local_size|num_groups|global_size)=", w)]
    if extra:
        notes.append("GPUVerify options: " + " ".join(extra))
    case = {"id": case_id, "run": run, "expect": expect, "note": "; ".join(notes)}
    unchecked = [{"kind": "race", "between_groups": between, "why": why}
                 for pattern, between, why in UNCHECKED_RACES
                 if any(pattern.match(w) for w in options)]
    if "--check-array-bounds" in options:
        unchecked.append(PER_DIMENSION)
    unchecked.append(UNINITIALIZED)
    unchecked.append(BARRIER_FLAGS)
    bodiless = bodiless_calls(source)
    if bodiless:
        # GPUVerify takes such a call as returning any value; no OpenCL driver links the program
        # as written. scan --stub-bodiless gives each a body returning zero, one of those values,
        # and says so in its report.
        run.append("--stub-bodiless")
        case["note"] += ("; calls functions declared without a body (%s): GPUVerify reads any "
                         "value, scan --stub-bodiless returns zero" % ", ".join(bodiless))
    if unchecked and not expect:
        case["unchecked"] = unchecked
    if skipped and not expect:
        case["preconditions_not_given"] = skipped
    if case_id in MAY_NOT_TERMINATE and not expect:
        case["may_not_terminate"] = MAY_NOT_TERMINATE[case_id]
    return case_id, case, None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", help="a gpuverify checkout or its testsuite/OpenCL folder")
    parser.add_argument("--out", help="the manifest (default: SUITE/testsuite/OpenCL/"
                        "clharness-manifest.jsonl); kernel paths are relative to its folder")
    parser.add_argument("--max-items", type=int, default=4096,
                        help="most work-items of one case (default 4096)")
    parser.add_argument("--tries", type=int, default=4, help="scan's --tries (default 4)")
    parser.add_argument("--scan-timeout", type=int, default=90,
                        help="scan's --timeout: past it scan keeps what it found (default 90; "
                        "give the runner a longer one)")
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
        case_id, case, reason = case_of(root, path, args.max_items, args.tries,
                                        args.scan_timeout)
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
