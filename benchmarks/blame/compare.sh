#!/usr/bin/env bash
# compare.sh — time goblame against git blame on the same files, side by
# side, with hyperfine, and measure peak memory (maximum resident set)
# with GNU time. Prints one row per file: medians, the ratio
# goblame/git (below 1.0 means goblame is faster) and peak RSS of both.
#
# usage: benchmarks/blame/compare.sh [-r RUNS] [-a "extra blame args"] REPO FILE...
#   REPO   a repository (work tree or bare) to blame in
#   FILE   paths inside it (for a bare repository, blamed at HEAD)
#
# Needs hyperfine (apt-get install -y hyperfine) and builds ./goblame
# first. Results also go to benchmarks/out/ as hyperfine JSON.
set -euo pipefail
runs=10
extra=""
while getopts "r:a:" opt; do
	case $opt in
	r) runs=$OPTARG ;;
	a) extra=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-a ARGS] REPO FILE..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
	echo "usage: $0 [-r RUNS] [-a ARGS] REPO FILE..." >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
repo=$(cd "$1" && pwd)
shift
command -v hyperfine >/dev/null || { echo "compare.sh: hyperfine is not installed (apt-get install -y hyperfine)" >&2; exit 1; }
(cd "$top" && make -s build)
goblame="$top/goblame"
out="$top/benchmarks/out"
mkdir -p "$out"
rev=""
if [ "$(git -C "$repo" rev-parse --is-bare-repository)" = true ]; then
	rev="HEAD"
fi
printf '%-40s %10s %10s %7s %10s %10s\n' file "git (s)" "goblame(s)" ratio "git RSS" "gob RSS"
for f in "$@"; do
	safe=$(echo "$f" | tr '/ ' '__')
	json="$out/$safe.json"
	# Identical output first: a benchmark of a wrong answer is worthless.
	if ! cmp -s <(cd "$repo" && git blame $extra $rev -- "$f") <(cd "$repo" && "$goblame" $extra $rev -- "$f"); then
		echo "compare.sh: goblame's output differs from git's for $f; not timing it" >&2
		continue
	fi
	(cd "$repo" && hyperfine -w 2 -r "$runs" --export-json "$json" \
		-n git "git blame $extra $rev -- '$f' >/dev/null" \
		-n goblame "$goblame $extra $rev -- '$f' >/dev/null" >/dev/null)
	gitm=$(python3 -c "import json,sys;r=json.load(open('$json'))['results'];print(r[0]['median'])")
	gobm=$(python3 -c "import json,sys;r=json.load(open('$json'))['results'];print(r[1]['median'])")
	rss_git=$(cd "$repo" && /usr/bin/time -f %M git blame $extra $rev -- "$f" 2>&1 >/dev/null | tail -1)
	rss_gob=$(cd "$repo" && /usr/bin/time -f %M "$goblame" $extra $rev -- "$f" 2>&1 >/dev/null | tail -1)
	ratio=$(python3 -c "print('%.2f' % ($gobm/$gitm))")
	printf '%-40s %10.3f %10.3f %7s %8sKB %8sKB\n' "$f" "$gitm" "$gobm" "$ratio" "$rss_git" "$rss_gob"
done
