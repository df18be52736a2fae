#!/usr/bin/env python3
# The CPU of every process one command starts, by kind of grading process (plain PoCL, sanitized,
# Oclgrind, calibration, a rerun alone), from BSD process accounting and strace's execve log.
"""Usage: bench/grade-process-cpu.py COMMAND [ARG...]   (as root: acct(2) needs it)
       bench/grade-process-cpu.py --from FOLDER         (a kept run, read again)

Runs COMMAND under `strace -f -e trace=execve` with process accounting on, then prints the CPU
seconds (user + sys, 10 ms resolution) of every process it started, summed by kind. A grading
child (`clharness ... __grade-one DIR/run.events.jsonl`) is named by its folder: `reference.*`
is the batch's calibration, `*.sanitize` the sanitized run, and a second child in one folder a
rerun alone (a timeout's confirmation or a speed measurement); a child's own children (PoCL's
linker) count with it. With DETAIL=1 every process is listed. Accounting is machine-wide while it
runs: only the command's descendants are counted.
"""
import collections
import ctypes
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

GRADING = ('plain', 'sanitized', 'calibration', 'rerun')


def comp_t(v):
    """acct's 16-bit float: 13-bit mantissa, 3-bit base-8 exponent, in 1/100 s."""
    return (v & 0x1fff) << (3 * (v >> 13))


def records(path):
    """acct_v3 records: 64 bytes each."""
    data = open(path, 'rb').read()
    for i in range(0, len(data) - 63, 64):
        r = data[i:i + 64]
        flag, _ver, _tty, _exit, _uid, _gid, pid, ppid, _btime, _etime = struct.unpack(
            '<BBHIIIIIIf', r[:32])
        utime, stime = struct.unpack('<HH', r[32:36])
        comm = r[48:64].split(b'\0')[0].decode(errors='replace')
        yield {'pid': pid, 'ppid': ppid, 'cpu': (comp_t(utime) + comp_t(stime)) / 100.0,
               'comm': comm, 'forked_only': bool(flag & 1)}


def execs(path):
    """pid -> the argv of its last successful execve (strace may split a call in two lines)."""
    argv, pending = {}, {}
    for line in open(path, errors='replace'):
        m = re.match(r'(\d+)\s+execve\("[^"]*", \[(.*?)\].*?\) = 0', line)
        if m:
            argv[int(m.group(1))] = m.group(2)
            continue
        m = re.match(r'(\d+)\s+execve\("[^"]*", \[(.*?)\].*<unfinished \.\.\.>', line)
        if m:
            pending[int(m.group(1))] = m.group(2)
            continue
        m = re.match(r'(\d+)\s+<\.\.\. execve resumed>.*= 0', line)
        if m and int(m.group(1)) in pending:
            argv[int(m.group(1))] = pending.pop(int(m.group(1)))
    return argv


def own_kind(args, rec, seen):
    """What one process is, from its own argv."""
    if '__grade-one' in args:
        m = re.search(r'"([^"]*)/run\.events\.jsonl"', args)
        folder = m.group(1) if m else '?'
        base = os.path.basename(folder)
        dev = 'simulator' if 'oclgrind' in base.lower() else 'pocl'
        seen[folder] += 1
        if base.startswith('reference.'):
            return 'calibration ' + dev
        if base.endswith('.sanitize'):
            return 'sanitized ' + dev
        return ('rerun alone ' if seen[folder] > 1 else 'plain ') + dev
    words = re.findall(r'"([^"]*)"', args)
    if not words:
        return 'fork of ' + rec['comm'] + (' (no exec)' if rec['forked_only'] else '')
    name = os.path.basename(words[0])
    if name == 'clharness':
        for w in words[1:]:
            if not w.startswith('-') and '/' not in w:
                return 'clharness ' + w
    return name


def breakdown(acct_file, strace_log, detail=False):
    """kind -> [processes, CPU-s] for the command's processes."""
    argv, recs = execs(strace_log), list(records(acct_file))
    children = collections.defaultdict(list)
    for r in recs:
        children[r['ppid']].append(r)
    # The command's processes: strace's descendants, and every process strace saw exec (a child
    # killed at a time limit may outlive its parent, and its record then names another parent).
    by_pid = {r['pid']: r for r in recs}
    mine = {pid: by_pid[pid] for pid in argv if pid in by_pid}
    stack = [r['pid'] for r in recs if r['comm'] == 'strace'] + list(mine)
    while stack:
        for c in children.get(stack.pop(), []):
            if c['pid'] not in mine:
                mine[c['pid']] = c
                stack.append(c['pid'])
    seen = collections.Counter()
    own = {pid: own_kind(argv.get(pid, ''), mine[pid], seen) for pid in sorted(mine)}

    def kind(r):  # a grading child's descendants count with it
        q = r
        while q is not None:
            if own[q['pid']].startswith(GRADING):
                return own[q['pid']]
            q = mine.get(q['ppid'])
        return own[r['pid']]

    kinds = collections.defaultdict(lambda: [0, 0.0])
    for pid, r in mine.items():
        k = kind(r)
        kinds[k][0] += own[pid] == k
        kinds[k][1] += r['cpu']
        if detail:
            print(f"    {k:36s} {r['cpu']:7.2f} {argv.get(pid, '')[:160]}")
    return kinds


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == '--from':  # a kept run's folder, read again
        tmp, rc, wall = sys.argv[2], 0, 0.0
        acct_file, strace_log = os.path.join(tmp, 'acct'), os.path.join(tmp, 'strace')
    else:
        tmp = tempfile.mkdtemp(prefix='grade-process-cpu-')
        acct_file, strace_log = os.path.join(tmp, 'acct'), os.path.join(tmp, 'strace')
        open(acct_file, 'w').close()
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.acct(acct_file.encode()) != 0:
            sys.exit('acct: ' + os.strerror(ctypes.get_errno()))
        t0 = time.time()
        try:
            rc = subprocess.run(['strace', '-f', '-qq', '--seccomp-bpf', '-e', 'trace=execve', '-e',
                                 'signal=none', '-s', '1000', '-o', strace_log] +
                                sys.argv[1:]).returncode
        finally:
            libc.acct(None)
        wall = time.time() - t0
    kinds = breakdown(acct_file, strace_log, bool(os.environ.get('DETAIL')))
    total = sum(v[1] for v in kinds.values())
    print(f'rc {rc} wall {wall:.1f} s, CPU of every process of the command {total:.2f} s '
          f'(kept in {tmp})')
    for k, (n, cpu) in sorted(kinds.items(), key=lambda kv: -kv[1][1]):
        print(f'  K {k:40s} {n:4d} processes {cpu:8.2f} CPU-s')


main()
