#!/usr/bin/env python3
"""make.py: write the repositories of benchmarks/workloads/largefiles.txt,
one large text file each, with the history the list's names say:

  large-10mb  big.txt, 10.7 MB (300,000 lines), 40 versions of 200 changes
  large-8mb   large.txt, 7.8 MB (220,000 lines), 200 versions of 50
              changes
  large-700k  big.log, 700 KB (22,000 lines), 3,000 versions of 3 changes
              (and other.txt, changed every third commit)
  large-3mb   data.txt, 3.3 MB (110,000 lines), 150 versions of 20
              changes

(The 10.7 MB file's versions are larger than the delta-base caches'
8 MiB ceiling, the 7.8 MB file's are not; an 8 MiB cache holds two of
the 3.3 MB file's, which a blame's cache grows past: see blame's
largeFileDeltaBases.)

The contents come from a seeded generator and the commits have fixed
names and dates (git fast-import, no configuration read), so every run
writes the same objects; each is then packed with git repack -adf
(deltas in chains, as git gc --aggressive leaves a long-lived
repository's large files) and given a commit-graph with changed-path
filters. A repository already there is left alone.

usage: REPOS=/work/scratch python3 benchmarks/workloads/largefiles/make.py
"""
import os
import random
import subprocess
import sys
import tempfile

repos = os.environ.get("REPOS", "/work/scratch")


def history(path, seed, lines, versions, changes, other_every=0):
    """Yield (path, content) lists per commit."""
    rng = random.Random(seed)
    text = ["line %d: %s\n" % (i, "".join(rng.choice("abcdefghij ") for _ in range(rng.randint(5, 40))))
            for i in range(lines)]
    for v in range(versions):
        for _ in range(changes):
            i = rng.randrange(len(text))
            op = rng.random()
            if op < 0.6:
                text[i] = "v%d changed %d\n" % (v, i)
            elif op < 0.85:
                text.insert(i, "v%d inserted %d\n" % (v, i))
            else:
                del text[i]
        files = [(path, "".join(text).encode())]
        if other_every and v % other_every == 0:
            files.append(("other.txt", b"v%d\n" % v))
        yield files


# name: (path, seed, lines, versions, changes a version, other.txt every)
SHAPES = {
    "large-10mb": ("big.txt", 1, 300000, 40, 200, 0),
    "large-8mb": ("large.txt", 2, 220000, 200, 50, 0),
    "large-700k": ("big.log", 3, 22000, 3000, 3, 3),
    "large-3mb": ("data.txt", 4, 110000, 150, 20, 0),
}


def make(name):
    top = os.path.join(repos, name)
    if os.path.isdir(os.path.join(top, ".git")):
        print("make.py: %s is there; leaving it" % top)
        return
    home = tempfile.mkdtemp()
    env = dict(os.environ, HOME=home, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    os.makedirs(top)
    subprocess.run(["git", "init", "-q", "-b", "main", top], check=True, env=env)
    imp = subprocess.Popen(["git", "-C", top, "fast-import", "--quiet"], stdin=subprocess.PIPE, env=env)
    out = imp.stdin
    for v, files in enumerate(history(*SHAPES[name])):
        msg = b"version %d" % v
        out.write(b"commit refs/heads/main\n")
        out.write(b"committer A U Thor <author@example.com> %d +0000\n" % (1600000000 + v * 3600))
        out.write(b"data %d\n%s\n" % (len(msg), msg))
        for path, data in files:
            out.write(b"M 100644 inline %s\ndata %d\n" % (path.encode(), len(data)))
            out.write(data + b"\n")
    out.close()
    if imp.wait() != 0:
        sys.exit("make.py: git fast-import failed for %s" % name)
    for cmd in (["repack", "-adfq"], ["commit-graph", "write", "--reachable", "--changed-paths"],
                ["reset", "-q", "--hard"]):
        subprocess.run(["git", "-C", top] + cmd, check=True, env=env)
    print("make.py: wrote %s" % top)


for name in sys.argv[1:] or SHAPES:
    make(name)
