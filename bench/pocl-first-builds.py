#!/usr/bin/env python3
"""Counts the processes that paid PoCL's first build while a command ran, and prints the count.

PoCL reads its kernel library (share/pocl/kernel-<target>.bc, some 9 MB of bitcode) once in each
process whose build misses its kernel cache, and that read costs about 0.9 CPU-s
(docs/performance.md, "PoCL's first build in each process"). Each read opens the file, so the opens
of every kernel-*.bc under PoCL's share folder, watched with inotify while the command runs, count
those processes (sandboxed grading children included: a bind mount is the same file).

  bench/pocl-first-builds.py [--share DIR] [--log FILE] -- COMMAND [ARG...]

Prints "first builds: N" on stderr and exits with the command's code; --log writes one line per
open (seconds since the start, the file's name). Linux only (inotify through libc).
"""
import argparse
import ctypes
import glob
import os
import struct
import subprocess
import sys
import threading
import time

IN_OPEN = 0x00000020
EVENT = struct.Struct("iIII")  # wd, mask, cookie, len


def watch(share):
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    fd = libc.inotify_init()
    if fd < 0:
        sys.exit("pocl-first-builds: inotify_init failed: " + os.strerror(ctypes.get_errno()))
    names = {}
    for path in sorted(glob.glob(os.path.join(share, "kernel-*.bc"))):
        wd = libc.inotify_add_watch(fd, path.encode(), IN_OPEN)
        if wd >= 0:
            names[wd] = os.path.basename(path)
    if not names:
        sys.exit(f"pocl-first-builds: no kernel-*.bc under {share} (is PoCL installed?)")
    return fd, names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--share", default="/usr/share/pocl", help="PoCL's share folder")
    ap.add_argument("--log", help="a line per open: seconds since the start, the file")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("no command")
    fd, names = watch(args.share)
    opens = []
    start = time.monotonic()

    def reader():
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            at = 0
            while at + EVENT.size <= len(data):
                wd, _mask, _cookie, length = EVENT.unpack_from(data, at)
                opens.append((time.monotonic() - start, names.get(wd, "?")))
                at += EVENT.size + length

    threading.Thread(target=reader, daemon=True).start()
    code = subprocess.call(command)
    time.sleep(0.2)  # the last events
    print(f"first builds: {len(opens)}", file=sys.stderr)
    if args.log:
        with open(args.log, "w") as out:
            for t, name in opens:
                out.write(f"{t:.3f} {name}\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
