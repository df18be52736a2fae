#!/usr/bin/env python3
"""Writes the catalog table of docs/catalog.md from the specs and committed check reports.

  python3 docs/tools/catalog.py docs/results/*.json

Rows: one per tutorial spec (specs/assignments excluded); columns: the kernel, its seed and
section, the size domain (device / simulator), each device's status and rate in the reports, and
for an as-published spec the bug and the smallest case the harness shrank it to on each device.
The table replaces what stands between the catalog markers in docs/catalog.md.
"""
import glob
import json
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEGIN, END = "<!-- catalog:begin -->", "<!-- catalog:end -->"


def domain(spec):
    parts = []
    for name, d in (spec.get("params") or {}).items():
        if "range" in d:
            lo, hi = d["range"]
            text = f"{name} {lo}–{hi}"
            if "simulator" in d:
                slo, shi = d["simulator"]
                text += f" (sim {slo}–{shi})"
            if "multiple_of" in d:
                text += f" ×{d['multiple_of']}"
        elif "one_of" in d:
            text = f"{name} ∈ {{{', '.join(str(v) for v in d['one_of'])}}}"
        else:
            continue  # derived
        parts.append(text)
    return "; ".join(parts)


def short_device(name):
    if "Oclgrind" in name:
        return "Oclgrind"
    if "NVIDIA" in name or "CUDA" in name:
        return "NVIDIA " + name.split(": ", 1)[-1].replace("NVIDIA ", "")
    if "Portable" in name:
        return "PoCL (" + name.split(": ", 1)[-1].split("-")[0] + ", " + name.split("-")[-1] + ")"
    return name


def main(reports):
    units = {}  # spec -> device -> unit of its cases
    launches = {}  # spec -> device -> unit of its launch shapes
    devices = []
    for path in reports:
        with open(path) as f:
            rep = json.load(f)
        for u in rep["units"]:
            family = launches if u.get("family", "cases") == "launch" else units
            family.setdefault(u["spec"], {})[u["device"]] = u
            if u["device"] not in devices:
                devices.append(u["device"])
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "specs", "*", "*.yaml"))):
        if "/assignments/" in path:
            continue
        with open(path) as f:
            spec = yaml.safe_load(f)
        name = spec["name"]
        rel = os.path.relpath(path, ROOT)
        cells = []
        for d in devices:
            u = units.get(name, {}).get(d)
            if not u:
                cells.append("—")
                continue
            status = u["status"].replace("_", " ")
            rate = u.get("perf", {})
            if u["device_kind"] != "simulator" and rate.get("gflops"):
                status += f", {rate['gflops']:.2f} GFLOP/s"
            elif u["device_kind"] != "simulator" and rate.get("gbytes_per_s"):
                status += f", {rate['gbytes_per_s']:.2f} GB/s"
            shapes = launches.get(name, {}).get(d)
            if shapes:
                status += f"; launch shapes: {shapes['status'].replace('_', ' ')}"
            cells.append(status)
        bug = ""
        if "expect" in spec:
            kinds = spec["expect"]["any_of"]
            kinds = kinds if isinstance(kinds, list) else [kinds]
            found = []
            for d in devices:
                u = units.get(name, {}).get(d)
                if u and u.get("failing_case"):
                    sizes = ",".join(f"{k}={v}" for k, v in sorted(u["failing_case"]["sizes"].items()))
                    kind = u["failing_case"]["findings"][0]["kind"] if u["failing_case"]["findings"] else "?"
                    found.append(f"{short_device(d)}: {kind} at {sizes or 'any size'}")
            bug = spec["expect"].get("reason", "") + " — expects " + "/".join(kinds)
            if found:
                bug += "; found " + "; ".join(found)
        origin = spec.get("origin", "").replace("|", "/")
        rows.append(f"| `{name}` | {origin} | [{os.path.basename(rel)}](../{rel}) | {domain(spec)} | "
                    + " | ".join(cells) + f" | {bug} |")
    head = ("| spec | seed and section | file | sizes covered | "
            + " | ".join(short_device(d) for d in devices) + " | published bug and the smallest case found |\n"
            + "|" + " --- |" * (5 + len(devices)))
    table = head + "\n" + "\n".join(rows)
    cat = os.path.join(ROOT, "docs", "catalog.md")
    text = open(cat).read() if os.path.exists(cat) else "# The tutorial catalog\n\n" + BEGIN + "\n" + END + "\n"
    if BEGIN not in text:
        text = text.rstrip("\n") + "\n\n## Kernels\n\n" + BEGIN + "\n" + END + "\n"
    text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: BEGIN + "\n" + table + "\n" + END,
                  text, flags=re.S)
    with open(cat, "w") as f:
        f.write(text)
    print(f"catalog: {len(rows)} specs x {len(devices)} devices")


if __name__ == "__main__":
    main(sys.argv[1:])
