#!/usr/bin/env python3
"""Alternating fresh runs of several commands, for start-up-bound blames.

usage: alternate.py ROUNDS DIR 'CMD1' 'CMD2' ...

Each round runs every command once bare (wall time, and user+system CPU
from wait4) and once under `perf stat -e task-clock,page-faults,
context-switches` (counts), one command after the other, so that the load
of a shared machine falls on all of them alike. Prints medians and the
load average. GOBLAME_CACHE=off is set (cold blames) unless
GOBLAME_CACHE_OVERRIDE gives its value (empty: the default cache); STDIN=FILE feeds a
file on standard input; NOPERF=1 skips the perf runs. A command may
start with NAME=VALUE words, set in its environment only (no env(1)
process in between).
"""
import os, statistics, subprocess, sys, time

from cmdline import split

rounds, cwd, cmds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
env = dict(os.environ, GOBLAME_CACHE=os.environ.get("GOBLAME_CACHE_OVERRIDE", "off"))
stdin = os.environ.get("STDIN")


res = {c: {"wall": [], "cpu": [], "task": [], "pf": [], "cs": []} for c in cmds}
for _ in range(rounds):
    for c in cmds:
        fin = open(stdin) if stdin else subprocess.DEVNULL
        t = time.perf_counter()
        words, cenv = split(c, env)
        p = subprocess.Popen(words, cwd=cwd, env=cenv, stdout=subprocess.DEVNULL, stdin=fin)
        _, _, ru = os.wait4(p.pid, 0)
        res[c]["wall"].append((time.perf_counter() - t) * 1000)
        res[c]["cpu"].append((ru.ru_utime + ru.ru_stime) * 1000)
        if os.environ.get("NOPERF"):
            continue
        fin = open(stdin) if stdin else subprocess.DEVNULL
        p = subprocess.run(["perf", "stat", "-x", ",", "-e", "task-clock,page-faults,context-switches", "--"] + words,
                           cwd=cwd, env=cenv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=fin, text=True)
        v = {}
        for line in p.stderr.splitlines():
            f = line.split(",")
            if len(f) > 3 and f[0] not in ("", "<not counted>"):
                v[f[2]] = float(f[0])
        res[c]["task"].append(v.get("task-clock", 0))
        res[c]["pf"].append(v.get("page-faults", 0))
        res[c]["cs"].append(v.get("context-switches", 0))
print("load", " ".join(open("/proc/loadavg").read().split()[:3]))
med = lambda x: statistics.median(x) if x else 0
for c in cmds:
    m = res[c]
    print("%-62s wall %6.2f ms (p25 %6.2f) cpu %6.2f | task %6.2f pf %5.0f cs %4.0f" % (
        c[-62:], med(m["wall"]), sorted(m["wall"])[rounds // 4], med(m["cpu"]), med(m["task"]), med(m["pf"]), med(m["cs"])))
