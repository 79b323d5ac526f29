"""Shared by alternate.py, first_entry.py and paired.py: a command line
as words and an environment."""
import shlex
import subprocess
import time


def split(command, env):
    """The command's words, and env with the command's leading NAME=VALUE
    words added (set for that command only, with no env(1) process in
    between)."""
    words, cenv = shlex.split(command), dict(env)
    while words and "=" in words[0] and not words[0].startswith("/"):
        k, _, v = words.pop(0).partition("=")
        cenv[k] = v
    return words, cenv


def first_and_exit(words, cwd, env, stdin):
    """Runs words with stdout a pipe read to the end and returns the
    milliseconds to its first byte and to its exit. stdin is a file name
    to feed, or None."""
    fin = open(stdin) if stdin else subprocess.DEVNULL
    t = time.perf_counter()
    p = subprocess.Popen(words, cwd=cwd, env=env, stdout=subprocess.PIPE, stdin=fin, bufsize=0)
    p.stdout.read(1)
    first = time.perf_counter()
    while p.stdout.read(65536):
        pass
    p.wait()
    return (first - t) * 1000, (time.perf_counter() - t) * 1000
