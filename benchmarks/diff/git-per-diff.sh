#!/usr/bin/env bash
# Measures git's own cost per diff on the inputs of diff's Go benchmarks,
# to set beside `go test ./diff -run '^$' -bench .`.
#
# It writes each benchmark pair 200 times into two directories (with the
# Go test TestWriteBenchFiles), then times with hyperfine one
# `git diff --no-index -U0` of a single pair and one over the 200 copies.
# Per-diff cost = (T200 - T1) / 199, which removes process start-up.
#
# Usage: benchmarks/diff/git-per-diff.sh [workdir]   (needs git and hyperfine)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
(cd "$root" && GOBLAME_DIFF_BENCH_DIR="$work" go test ./diff -count=1 -run TestWriteBenchFiles >/dev/null)
cd "$work"
for name in scattered1pct blocks; do
	hyperfine -N -i -w 2 -r 10 --export-json "$work/$name.json" \
		"git diff --no-index -U0 --diff-algorithm=myers $name/a1 $name/b1" \
		"git diff --no-index -U0 --diff-algorithm=myers $name/a $name/b" >/dev/null
	python3 - "$work/$name.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
t1, t200 = r[0]["median"], r[1]["median"]
print(f"{sys.argv[2]}: git one diff {t1*1e3:.2f} ms (process), 200 diffs {t200*1e3:.1f} ms, per diff {(t200-t1)/199*1e3:.2f} ms")
PY
done
