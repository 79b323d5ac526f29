#!/usr/bin/env python3
"""Damage fuzzer: goblame against git blame on damaged repositories.

usage: damagefuzz.py GOBLAME SEED CASES [WORKDIR]

Builds small repositories in WORKDIR (default /tmp/damagefuzz): "loose"
(loose objects, a merge, dates going back and forth), "packed" (one pack
and a commit-graph with changed-path filters), "loose256" and "packed256"
(the same two with SHA-256 object names), "loosegraph" (loose
objects and a commit-graph), "twopacks" (two packs), "dupes" and
"dupes-older" (packed's pack and a second holding the last eight
commits' objects again, dated after or before it), "alternates" (an
alternate object directory's pack and one of its own) and "signed" (commits
as long as signed ones, one pack, no commit-graph). Each case copies
one of them, damages one file under .git (a byte flipped, bytes zeroed
or inserted, or the file cut), runs six blames with git and with
GOBLAME, and prints the cases whose exit status, standard output or
standard error differ (output is not compared for a failed
--incremental blame), then counts. SRCS (space-separated) picks the
repositories, KINDS the damage ("flip trunc insert zero", and "delete"
and "swap" for a loose object's file deleted or replaced by another
object's). FILES, a regular expression, picks the files damaged by
their paths in the repository (FILES='^\.git/index$': the index alone);
ARGSET=revs blames through other revision forms (^@, ^!, ^{commit}, :/,
A...B, --reverse ONE).
The same SEED gives the same cases; KEEP=N keeps case N's repository in
WORKDIR/caseN.

Nothing here runs in the tests: it finds cases, which then go into a
fixture script and a differential test (cli/damage_*_test.go).
"""
import collections, hashlib, os, random, re, shutil, subprocess, sys

GB, seed, n = os.path.abspath(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
work = sys.argv[4] if len(sys.argv) > 4 else "/tmp/damagefuzz"
srcs = os.environ.get("SRCS", "loose packed").split()
keep = int(os.environ.get("KEEP", "-1"))
# KINDS picks the damage: a byte flipped, the file cut, bytes inserted or
# zeroed (the default, flips twice as likely), or a loose object's file
# deleted or replaced by another object's ("delete", "swap").
kinds = os.environ.get("KINDS", "flip flip trunc insert zero").split()
only = re.compile(os.environ.get("FILES", ""))
env = dict(os.environ, GOBLAME_CACHE="off", GIT_CONFIG_NOSYSTEM="1", HOME=os.path.join(work, "home"),
           TZ="UTC", LANG="C", GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@e")
ARGS = [["a.txt"], ["HEAD", "--", "b.txt"], ["-p", "HEAD~3", "--", "a.txt"],
        ["--incremental", "HEAD~5..HEAD", "--", "a.txt"], ["-M", "HEAD", "--", "d/c.txt"],
        ["--reverse", "HEAD~6..HEAD", "--", "b.txt"]]
# ARGSET=revs blames through other revision forms instead: parents named
# with ^@ and ^!, a peel, a merge's second parent, a message search, a
# symmetric range.
if os.environ.get("ARGSET") == "revs":
    ARGS = [["HEAD~2^@", "--", "a.txt"], ["HEAD", "^HEAD~3^!", "--", "b.txt"], ["HEAD~3^{commit}", "--", "a.txt"],
            ["-s", ":/c1", "--", "b.txt"], ["HEAD~1...HEAD~4", "--", "a.txt"], ["--reverse", "HEAD~4", "--", "b.txt"]]


def git(cwd, *args, env=env, **kw):
    return subprocess.run(["git"] + list(args), cwd=cwd, env=env, check=True, capture_output=True, **kw)


def commit_version(repo, i, msg):
    """Writes version i of the files the blames ask for and commits it."""
    open(os.path.join(repo, "a.txt"), "w").write("".join(f"l{i} {k}\n" for k in range(1, 3 * i + 1)))
    with open(os.path.join(repo, "b.txt"), "a") as f:
        f.write(f"v{i}\n")
    os.makedirs(os.path.join(repo, "d"), exist_ok=True)
    open(os.path.join(repo, "d", "c.txt"), "w").write(f"{i}\n")
    git(repo, "add", "-A")
    date = f"2020-01-{i % 9 + 10}T00:00:00"
    git(repo, "commit", "-q", "-F", "-", input=msg.encode(), env=dict(env, GIT_COMMITTER_DATE=date, GIT_AUTHOR_DATE=date))


def build_loose(name, *init):
    """Builds the loose repository WORKDIR/name: 25 versions and a merge."""
    base = os.path.join(work, name)
    shutil.rmtree(base, ignore_errors=True)
    git(work, "init", "-q", "-b", "main", *init, name)
    for i in range(1, 26):
        if i == 12:
            git(base, "checkout", "-q", "-b", "side", "HEAD~2")
            open(os.path.join(base, "s.txt"), "w").write("s\n")
            git(base, "add", "-A")
            git(base, "commit", "-qm", "side", env=dict(env, GIT_COMMITTER_DATE="2020-02-01T00:00:00", GIT_AUTHOR_DATE="2020-02-01T00:00:00"))
            git(base, "checkout", "-q", "main")
            git(base, "merge", "-q", "--no-edit", "side", env=dict(env, GIT_COMMITTER_DATE="2020-02-02T00:00:00", GIT_AUTHOR_DATE="2020-02-02T00:00:00"))
        commit_version(base, i, f"c{i}")
    return base


def setup():
    os.makedirs(env["HOME"], exist_ok=True)
    if not os.path.isdir(os.path.join(work, "packed256")):
        # the same history in a SHA-256 repository, loose and packed
        base = build_loose("loose256", "--object-format=sha256")
        packed = os.path.join(work, "packed256")
        shutil.copytree(base, packed, symlinks=True)
        git(packed, "repack", "-adq")
        git(packed, "commit-graph", "write", "--reachable", "--changed-paths")
        git(packed, "prune")
    if os.path.isdir(os.path.join(work, "signed")):
        setup_dupes()
        setup_alternates()
        return
    base = build_loose("loose")
    packed = os.path.join(work, "packed")
    shutil.copytree(base, packed, symlinks=True)
    git(packed, "repack", "-adq")
    git(packed, "commit-graph", "write", "--reachable", "--changed-paths")
    git(packed, "prune")
    lg = os.path.join(work, "loosegraph")
    shutil.copytree(base, lg, symlinks=True)
    git(lg, "commit-graph", "write", "--reachable", "--changed-paths")
    tp = os.path.join(work, "twopacks")
    shutil.copytree(base, tp, symlinks=True)
    objs = git(tp, "rev-list", "--objects", "HEAD~10").stdout
    git(tp, "pack-objects", "-q", ".git/objects/pack/pack", input=objs)
    git(tp, "repack", "-dq")
    git(tp, "prune-packed")
    # long commits (a message of 30 lines, as long as a signed commit),
    # packed, without a commit-graph: a walk reads each commit's header
    # lines alone, its rest checked by the pack index's CRC
    sg = os.path.join(work, "signed")
    git(work, "init", "-q", "-b", "main", "signed")
    for i in range(1, 26):
        commit_version(sg, i, f"c{i}\n\n" + "".join(hashlib.sha1(f"{i} {k}".encode()).hexdigest() + "\n" for k in range(30)))
    git(sg, "repack", "-adq")
    git(sg, "prune")
    setup_dupes()
    setup_alternates()


def setup_alternates():
    """alternates: the loose history with the objects of its first
    sixteen commits in a pack of an alternate object directory inside
    .git (.git/alt, named by a relative path), the rest in a pack of its
    own (repack -l)."""
    d = os.path.join(work, "alternates")
    if os.path.isdir(d):
        return
    shutil.copytree(os.path.join(work, "loose"), d, symlinks=True)
    os.makedirs(os.path.join(d, ".git/alt/pack"))
    objs = git(d, "rev-list", "--objects", "HEAD~10").stdout
    git(d, "pack-objects", "-q", ".git/alt/pack/pack", input=objs)
    with open(os.path.join(d, ".git/objects/info/alternates"), "w") as f:
        f.write("../alt\n")
    git(d, "repack", "-adlq")
    git(d, "prune-packed")


def setup_dupes():
    """dupes and dupes-older: packed's pack and a second one holding the
    objects of the last eight commits again, dated a second after it or
    before it (git reads the pack that found the last object first and
    another copy where one fails)."""
    for name, second in (("dupes", 1577836801), ("dupes-older", 1577836799)):
        d = os.path.join(work, name)
        if os.path.isdir(d):
            continue
        shutil.copytree(os.path.join(work, "packed"), d, symlinks=True)
        first = [f for f in os.listdir(os.path.join(d, ".git/objects/pack")) if f.endswith(".pack")]
        objs = git(d, "rev-list", "--objects", "HEAD~8..HEAD").stdout
        name2 = git(d, "pack-objects", "-q", ".git/objects/pack/pack", input=objs).stdout.decode().strip()
        for f in first:
            os.utime(os.path.join(d, ".git/objects/pack", f), (1577836800, 1577836800))
        os.utime(os.path.join(d, ".git/objects/pack", f"pack-{name2}.pack"), (second, second))


os.makedirs(work, exist_ok=True)
setup()
rng = random.Random(seed)
stats = collections.Counter()
for k in range(n):
    src = rng.choice(srcs)
    dst = os.path.join(work, "w")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(work, src), dst, symlinks=True)
    files = []
    for root, _, fs in os.walk(os.path.join(dst, ".git")):
        if "/hooks" in root or "/logs" in root:
            continue
        for f in sorted(fs):
            if f not in ("description", "COMMIT_EDITMSG", "ORIG_HEAD", "packs", "exclude"):
                files.append(os.path.join(root, f))
    files = sorted(f for f in files if only.search(os.path.relpath(f, dst)))
    p = rng.choice(files)
    os.chmod(p, 0o644)
    d = bytearray(open(p, "rb").read())
    kind = rng.choice(kinds) if d else "insert"
    loose = [f for f in files if os.path.basename(os.path.dirname(f)) not in ("info", "pack")
             and os.path.dirname(os.path.dirname(f)).endswith("objects")]
    if kind in ("delete", "swap") and loose:
        p = rng.choice(loose)
        os.chmod(p, 0o644)
        d = bytearray(open(p, "rb").read())
    elif kind in ("delete", "swap"):
        kind = "flip"  # no loose objects here
    if kind == "delete":
        os.remove(p)
    elif kind == "swap":
        # another object's file in its place: valid zlib, the wrong contents
        d = bytearray(open(rng.choice([f for f in loose if f != p] or [p]), "rb").read())
    elif kind == "flip":
        i = rng.randrange(len(d)); d[i] ^= 1 << rng.randrange(8)
    elif kind == "trunc":
        d = d[:rng.randrange(len(d))]
    elif kind == "insert":
        i = rng.randrange(len(d) + 1); d[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    else:
        i = rng.randrange(len(d)); m = rng.randint(1, 16); d[i:i + m] = bytes(len(d[i:i + m]))
    if kind != "delete":
        open(p, "wb").write(d)
    if k == keep:
        shutil.rmtree(os.path.join(work, f"case{k}"), ignore_errors=True)
        shutil.copytree(dst, os.path.join(work, f"case{k}"), symlinks=True)
    what = f"{src} {os.path.relpath(p, dst)} {kind}"
    for a in ARGS:
        try:
            g = subprocess.run(["git", "blame"] + a, cwd=dst, env=env, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            # git hangs (a loop in the history, a tree peeled in a loop):
            # goblame must still answer
            try:
                subprocess.run([GB] + a, cwd=dst, env=env, capture_output=True, timeout=20)
                stats["git-timeout"] += 1
            except subprocess.TimeoutExpired:
                print(f"[{k}] {what} {' '.join(a)}: goblame TIMEOUT (git too)")
                stats["goblame-timeout"] += 1
            continue
        try:
            b = subprocess.run([GB] + a, cwd=dst, env=env, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            print(f"[{k}] {what} {' '.join(a)}: goblame TIMEOUT")
            stats["goblame-timeout"] += 1
            continue
        if g.returncode < 0:
            stats["git-crash"] += 1
            continue
        if b"panic" in b.stderr or b"goroutine " in b.stderr:
            print(f"[{k}] {what} {' '.join(a)}: PANIC")
            stats["panic"] += 1
            continue
        out_ok = g.stdout == b.stdout or (a[0] == "--incremental" and g.returncode != 0)
        if g.returncode == b.returncode and g.stderr == b.stderr and out_ok:
            stats["same"] += 1
            continue
        stats["different"] += 1
        print(f"[{k}] {what} {' '.join(a)}: git={g.returncode} goblame={b.returncode} stdout {'same' if out_ok else 'DIFFERENT'}\n"
              f"    git:     {g.stderr[:300]!r}\n    goblame: {b.stderr[:300]!r}")
print(dict(stats))
