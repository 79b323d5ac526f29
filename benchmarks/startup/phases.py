#!/usr/bin/env python3
"""Where a goblame run's time goes, phase by phase, against the clock of
the process that starts it.

usage: phases.py ROUNDS DIR 'CMD'

Each round starts CMD fresh (stdout a pipe read to its end) with
GOBLAME_TRACE_PHASES set to this process's CLOCK_MONOTONIC reading just
before the start; goblame prints at its end how many milliseconds after
that reading each phase ended (cli/phases.go: start, when the run's code
begins, after the Go runtime's start and the package inits; tuned,
discovered, parsed, prepared, entry (the first --incremental entry),
walked, written, end). Prints each phase's median, and the median time
until the process was reaped. A C program that does nothing takes
0.5-0.7 ms to be reaped from here on the VMs we measure, which is about
what the launch costs.

GOBLAME_CACHE=off is set; STDIN=FILE feeds a file on standard input. A
command may start with NAME=VALUE words, set in its environment only.
"""
import os, statistics, subprocess, sys, time

from cmdline import split

rounds, cwd, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3]
env = dict(os.environ, GOBLAME_CACHE="off")
stdin = os.environ.get("STDIN")
words, cenv = split(cmd, env)
marks, order, reaped = {}, [], []
for _ in range(rounds):
    fin = open(stdin) if stdin else subprocess.DEVNULL
    t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    cenv["GOBLAME_TRACE_PHASES"] = str(t0)
    p = subprocess.Popen(words, cwd=cwd, env=cenv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=fin)
    _, err = p.communicate()
    reaped.append((time.clock_gettime_ns(time.CLOCK_MONOTONIC) - t0) / 1e6)
    for line in err.decode(errors="replace").splitlines():
        f = line.split()
        if len(f) == 3 and f[0] == "phase":
            if f[1] not in marks:
                marks[f[1]] = []
                order.append(f[1])
            marks[f[1]].append(float(f[2]))
print("load", " ".join(open("/proc/loadavg").read().split()[:3]))
for name in order:
    print("%-12s %7.3f ms" % (name, statistics.median(marks[name])))
print("%-12s %7.3f ms" % ("reaped", statistics.median(reaped)))
