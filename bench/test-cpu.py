#!/usr/bin/env python3
# The CPU each CTest test costs (user + sys of the test and every child it waited for), tests run
# JOBS at a time in ctest's cost order, and a summary by test family: where the suite's CPU goes.
"""Usage: bench/test-cpu.py BUILD_DIR OUT.csv [JOBS]   (default JOBS: 3, as ci/test.sh runs them)

Reads the tests from `ctest --show-only=json-v1` in BUILD_DIR (command, working directory,
ENVIRONMENT) and runs each itself, so that os.wait4 gives its own rusage; RUN_SERIAL tests run
alone at the end. Writes OUT.csv (test, wall s, user s, sys s, exit code) and prints the families
(the name before the first '.', a spec test by its device) by CPU, then the 30 dearest tests.
Wall seconds here are under the load of the other JOBS - 1 tests; CPU seconds much less so."""
import collections
import json
import os
import queue
import subprocess
import sys
import threading
import time


def tests_of(build):
    shown = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                           capture_output=True, text=True).stdout
    out = []
    for t in json.loads(shown)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        out.append((t["name"], t["command"], props))
    return out


def costs_of(build):
    cost = {}
    path = os.path.join(build, "Testing", "Temporary", "CTestCostData.txt")
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) == 3:
                cost[f[0]] = float(f[2])
    return cost


def run_one(test, rows, lock):
    name, cmd, props = test
    env = dict(os.environ)
    for e in props.get("ENVIRONMENT", []):
        k, v = e.split("=", 1)
        env[k] = v
    start = time.time()
    p = subprocess.Popen(cmd, cwd=props.get("WORKING_DIRECTORY"), env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    with lock:
        rows.append((name, time.time() - start, ru.ru_utime, ru.ru_stime,
                     os.waitstatus_to_exitcode(status)))


def family(name):
    if name.startswith("spec."):
        return "spec:" + name.split(".")[-1].split("-")[0]
    return name.split(".")[0]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    build, out_csv = sys.argv[1], sys.argv[2]
    jobs = int(sys.argv[3]) if len(sys.argv) == 4 else 3
    cost = costs_of(build)
    tests = tests_of(build)
    serial = [t for t in tests if "RUN_SERIAL" in t[2]]
    pending = queue.Queue()
    for t in sorted((t for t in tests if "RUN_SERIAL" not in t[2]),
                    key=lambda t: -cost.get(t[0], 1.0)):
        pending.put(t)
    rows, lock = [], threading.Lock()

    def worker():
        while True:
            try:
                t = pending.get_nowait()
            except queue.Empty:
                return
            run_one(t, rows, lock)

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for t in serial:
        run_one(t, rows, lock)
    with open(out_csv, "w") as f:
        f.write("test,wall_s,user_s,sys_s,exit\n")
        for r in rows:
            f.write(f"{r[0]},{r[1]:.2f},{r[2]:.2f},{r[3]:.2f},{r[4]}\n")
    cpu, wall, count = collections.Counter(), collections.Counter(), collections.Counter()
    for name, w, u, s, _ in rows:
        cpu[family(name)] += u + s
        wall[family(name)] += w
        count[family(name)] += 1
    failed = [r[0] for r in rows if r[4] != 0]
    print(f"{len(rows)} tests, {sum(cpu.values()):.0f} CPU-s, {len(failed)} not passing "
          f"(exit code other than 0: a skip code counts here){': ' if failed else ''}"
          f"{', '.join(failed[:10])}")
    print("\n| CPU-s | wall s | tests | family |\n| --: | --: | --: | --- |")
    for k, v in cpu.most_common(25):
        print(f"| {v:.1f} | {wall[k]:.1f} | {count[k]} | {k} |")
    print("\n| CPU-s | wall s | test |\n| --: | --: | --- |")
    for name, w, u, s, _ in sorted(rows, key=lambda r: -(r[2] + r[3]))[:30]:
        print(f"| {u + s:.1f} | {w:.1f} | {name} |")


if __name__ == "__main__":
    main()
