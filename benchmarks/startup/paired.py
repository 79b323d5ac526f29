#!/usr/bin/env python3
"""Paired comparison of fresh runs: is one command faster than another?

usage: paired.py ROUNDS DIR 'CMD1' 'CMD2' ...

Each round runs every command once, in the listed order on even rounds
and in reverse on odd ones (so that neither drift nor a command's place
in the round favours one), reading stdout through a pipe to the end.
For each command it prints the median time to the first byte of stdout
(the first --incremental entry) and to exit, and the median of its
per-round differences from the first command with a bootstrap 95%
interval: a difference whose interval holds 0 is not one. On the shared
VMs we measure, medians of separate lists drift by 5-10% between lists;
paired differences resolve 0.2-0.3 ms in 60-80 rounds.

GOBLAME_CACHE=off is set; STDIN=FILE feeds a file on standard input. A
command may start with NAME=VALUE words, set in its environment only.
"""
import os, random, statistics, sys

from cmdline import first_and_exit, split

rounds, cwd, cmds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
env = dict(os.environ, GOBLAME_CACHE="off")
stdin = os.environ.get("STDIN")
res = {c: ([], []) for c in cmds}
for r in range(rounds):
    order = list(cmds) if r % 2 == 0 else list(reversed(cmds))
    for c in order:
        words, cenv = split(c, env)
        first, total = first_and_exit(words, cwd, cenv, stdin)
        res[c][0].append(first)
        res[c][1].append(total)


def interval(d):
    rng = random.Random(1)
    bs = sorted(statistics.median(rng.choices(d, k=len(d))) for _ in range(1000))
    return bs[25], bs[-26]


print("load", " ".join(open("/proc/loadavg").read().split()[:3]))
f0, t0 = res[cmds[0]]
for c in cmds:
    f, t = res[c]
    df = [a - b for a, b in zip(f, f0)]
    dt = [a - b for a, b in zip(t, t0)]
    print("%-58s first %6.2f ms (%+5.2f [%+5.2f, %+5.2f])  exit %7.2f ms (%+5.2f [%+5.2f, %+5.2f])" % (
        (c[-58:], statistics.median(f), statistics.median(df)) + interval(df) +
        (statistics.median(t), statistics.median(dt)) + interval(dt)))
