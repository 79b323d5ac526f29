#!/bin/sh
# make.sh — write the editors' dirty buffers the workload lists feed to
# "blame --contents -": each is a file at its repository's HEAD with a
# few deterministic edits, as an editor holds it after some typing:
#
#   line 5    changed (text appended)
#   after 20  two lines inserted
#   30-32     deleted
#   line 60   changed
#   the end   one line appended
#
# The contents are other projects' files, so they are generated here
# (into this folder as NAME.buf, git-ignored, never .go or .c: go vet
# and editors would take them for sources) rather than committed. Run again after
# a repository's HEAD moves; make bench-compare runs it every time.
#
# usage: REPOS=/work/scratch sh benchmarks/workloads/buffers/make.sh
set -eu
repos=${REPOS:-/work/scratch}
here=$(cd "$(dirname "$0")" && pwd)

buffer() { # buffer REPO PATH: writes REPO-PATH (slashes as _)
	dir=$repos/$1
	out=$here/$1-$(printf '%s' "$2" | tr / _).buf
	if ! git -C "$dir" rev-parse --verify -q HEAD >/dev/null 2>&1; then
		echo "make.sh: no repository at $dir; skipping its buffers" >&2
		return 0
	fi
	git -C "$dir" show "HEAD:$2" | awk '
		NR == 5  { print $0 " /* edited */"; next }
		NR == 20 { print; print "an inserted line"; print "another inserted line"; next }
		NR >= 30 && NR <= 32 { next }
		NR == 60 { print $0 " (changed)"; next }
		{ print }
		END { print "a line appended at the end" }
	' >"$out.tmp"
	mv "$out.tmp" "$out"
}

buffer go-git README.md
buffer go-git repository.go
buffer gitoxide README.md
buffer gitoxide gix/src/lib.rs
buffer git README.md
buffer git diff.c
