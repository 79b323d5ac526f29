#!/usr/bin/env python3
"""Time to the first byte of stdout (the first --incremental entry) and to
exit, over alternating fresh runs of several commands.

usage: first_entry.py ROUNDS DIR 'CMD1' 'CMD2' ...

GOBLAME_CACHE=off is set; STDIN=FILE feeds a file on standard input.
A command may start with NAME=VALUE words, set in its environment only
(no env(1) process in between). Prints medians and the load average.
"""
import os, statistics, sys

from cmdline import first_and_exit, split

rounds, cwd, cmds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
env = dict(os.environ, GOBLAME_CACHE="off")
stdin = os.environ.get("STDIN")


res = {c: ([], []) for c in cmds}
for _ in range(rounds):
    for c in cmds:
        words, cenv = split(c, env)
        first, total = first_and_exit(words, cwd, cenv, stdin)
        res[c][0].append(first)
        res[c][1].append(total)
print("load", " ".join(open("/proc/loadavg").read().split()[:3]))
for c in cmds:
    print("%-70s first %6.2f ms  total %6.2f ms" % (c[-70:], statistics.median(res[c][0]), statistics.median(res[c][1])))
