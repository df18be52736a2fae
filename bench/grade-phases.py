#!/usr/bin/env python3
# Where a grading batch's time goes, per grading process, from an `strace -f -ttt` of the batch
# (bench/grade-phases.sh writes one): start to the ICD folder, the drivers' loading and the device
# enumeration, the spec and the context, the student's build, the cases, what follows, the exit.
"""Usage: grade-phases.py STRACE_FILE  (strace -f -ttt -s 300 -e trace=execve,openat,write,
exit_group,clone,clone3,vfork,rename). Prints one line per grading process and the medians per
device and kind (reference or submission)."""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^(\d+)\s+(\d+\.\d+)\s+(.*)$")
RESUMED = re.compile(r"^<\.\.\. (\w+) resumed>(.*)$")


def main(path):
    owner = {}  # thread id -> process id (the grading process it belongs to)
    procs = {}  # pid -> dict of times and labels
    pending = {}  # tid -> (syscall, text) of an unfinished call
    for raw in open(path, errors="replace"):
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        tid, t, rest = int(m.group(1)), float(m.group(2)), m.group(3)
        r = RESUMED.match(rest)
        if r:
            call, text = r.group(1), pending.pop(tid, ("", ""))[1] + r.group(2)
        elif rest.endswith("<unfinished ...>"):
            pending[tid] = (rest.split("(", 1)[0], rest)
            continue
        else:
            call, text = rest.split("(", 1)[0], rest
        pid = owner.get(tid, tid)
        if call in ("clone", "clone3", "vfork"):
            ret = text.rsplit("=", 1)[-1].strip().split(" ")[0]
            if ret.isdigit():
                # a thread (CLONE_THREAD) stays in its process; a new process is its own owner
                owner[int(ret)] = pid if "CLONE_THREAD" in text else int(ret)
            continue
        if call == "execve" and "__grade-one" in text and text.rstrip().endswith("= 0"):
            dev = re.search(r'"--device-id", "([^"]*)"', text)
            sub = re.search(r'"--submission", "([^"]*)"', text)
            procs[pid] = {
                "start": t,
                "device": (dev.group(1) if dev else "?").split(":")[0],
                "what": "reference" if sub and "/kernels/assignments/" in sub.group(1)
                else "submission",
                "events": [],
                "wg": 0,
            }
            continue
        p = procs.get(pid)
        if p is None:
            continue
        if call == "openat" and "= -1" not in text:
            if "icd" in text.lower() and "icd_dir" not in p and "vendors" not in text:
                if re.search(r'clharness-icd|/vendors|\.icd"', text):
                    p["icd_dir"] = t
            if re.search(r'"[^"]*/specs/[^"]*\.yaml"', text) and "spec" not in p:
                p["spec"] = t
        if call == "openat" and "O_CREAT" in text and re.search(r'/kcache/[^"]*\.so"', text):
            p["wg"] += 1
        if call == "write":
            ev = re.search(r'\{\\"event\\":\\"(\w+)\\"', text)
            if ev:
                p["events"].append((ev.group(1), t))
        if call == "exit_group" or "+++ exited" in rest or "+++ killed" in rest:
            if tid == pid:
                p["end"] = t
    rows = defaultdict(list)
    for pid, p in sorted(procs.items(), key=lambda kv: kv[1]["start"]):
        if "end" not in p:
            continue
        ev = p["events"]
        first = lambda name: next((t for n, t in ev if n == name), None)
        case0 = first("case_start")
        b0, b1 = first("build_start"), first("build_end")
        unit = first("unit")
        s = p["start"]
        icd = p.get("icd_dir", s)
        spec = p.get("spec", icd)
        ph = {
            "exec": icd - s,
            "drivers": spec - icd,
            "context": (case0 or spec) - spec,
            "build": (b1 - b0) if b0 and b1 else 0.0,
            "cases": ((unit or p["end"]) - (case0 or spec)) - ((b1 - b0) if b0 and b1 else 0.0),
            "after": (p["end"] - unit) if unit else 0.0,
            "total": p["end"] - s,
        }
        ph["wg_compiles"] = p["wg"]
        ph["cases_run"] = sum(1 for n, _ in ev if n == "case_start")
        rows[(p["device"], p["what"])].append(ph)
        print(f"{pid} {p['device'][:12]:12} {p['what']:10} " +
              " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in ph.items()))
    print()
    keys = ["exec", "drivers", "context", "build", "cases", "after", "total", "wg_compiles",
            "cases_run"]
    print("medians: device, kind, processes, " + ", ".join(keys))
    for (dev, what), lst in sorted(rows.items()):
        med = {k: statistics.median(r[k] for r in lst) for k in keys}
        print(f"{dev[:28]:28} {what:10} n={len(lst):3} " +
              " ".join(f"{k}={med[k]:.3f}" for k in keys))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
