#!/bin/sh
# The blame cache's four cases against git and against goblame cold,
# side by side with hyperfine (outputs checked identical to git's first):
#
#   1. a repeated blame of HEAD -- FILE, answered from the cache;
#   2. GitLens's dirty-buffer call, --root --incremental -w --contents -,
#      over a cached HEAD (one diff, no walk);
#   3. the last commit that changed FILE, with its parent's entry cached
#      (the walk stops at the parent);
#   4. a repeated -C blame of HEAD -- FILE, answered from its exact entry
#      (-M, -C and ignored revisions keep a blame's final result only).
#
# usage: benchmarks/cache/bench.sh REPO FILE [OUT.md]
# Needs goblame built (make build), git and hyperfine. RUNS and WARMUP
# are hyperfine's --runs and --warmup (defaults 30 and 3).
set -eu
repo=$1 file=$2 out=${3:-/dev/stdout}
here=$(cd "$(dirname "$0")/../.." && pwd)
goblame=$here/goblame
runs=${RUNS:-30} warmup=${WARMUP:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$repo"

newer=$(git log -1 --format=%H -- "$file")
older=$(git rev-parse "$newer^")
sed '1s/^/dirty line at the top\n/; $s/$/\ndirty line at the end/' "$file" >"$work/buffer"

same() { # the command's output must be git's
	if ! cmp -s "$work/git.out" "$work/goblame.out"; then
		echo "output differs from git's: $*" >&2
		exit 1
	fi
}

# 1. repeated blame
git blame HEAD -- "$file" >"$work/git.out"
GOBLAME_CACHE="$work/c1" "$goblame" HEAD -- "$file" >/dev/null
GOBLAME_CACHE="$work/c1" "$goblame" HEAD -- "$file" >"$work/goblame.out"
same "HEAD -- $file"
# (each goblame command runs with GOBLAME_CACHE in hyperfine's own
# environment: through env(1) it would pay a second exec, about a
# millisecond, that git does not)
timed() { # timed TABLE CACHE NAME COMMAND [hyperfine options]: one row
	t_table=$1 t_cache=$2 t_name=$3 t_cmd=$4
	shift 4
	GOBLAME_CACHE=$t_cache hyperfine -N --runs "$runs" --warmup "$warmup" "$@" \
		--export-markdown "$t_table.part" -n "$t_name" "$t_cmd" >&2
	# (without hyperfine's Relative column: each run has one command)
	[ -s "$t_table" ] || sed -n '1,2{s/[^|]*|$//;p}' "$t_table.part" >"$t_table"
	sed -n '3,${s/[^|]*|$//;p}' "$t_table.part" >>"$t_table"
}
timed "$work/1.md" off "git blame HEAD -- $file" "git blame HEAD -- $file"
timed "$work/1.md" off "goblame, cold" "$goblame HEAD -- $file"
timed "$work/1.md" "$work/c1" "goblame, cached" "$goblame HEAD -- $file"

# 2. dirty buffer over the cached HEAD
args="--root --incremental -w --contents - -- $file"
git blame $args <"$work/buffer" | grep -v '^\(author\|committer\)-time ' >"$work/git.out"
GOBLAME_CACHE="$work/c2" "$goblame" $args <"$work/buffer" >/dev/null
GOBLAME_CACHE="$work/c2" "$goblame" $args <"$work/buffer" | grep -v '^\(author\|committer\)-time ' >"$work/goblame.out"
same "$args"
# (hyperfine 1.15 has no --input: each command reads the buffer through
# sh, the same cost for all three)
hyperfine -N --runs "$runs" --warmup "$warmup" --export-markdown "$work/2.md" \
	-n "git blame $args" "sh -c 'exec git blame $args <$work/buffer'" \
	-n "goblame, cold" "sh -c 'GOBLAME_CACHE=off exec $goblame $args <$work/buffer'" \
	-n "goblame, HEAD cached" "sh -c 'GOBLAME_CACHE=$work/c2 exec $goblame $args <$work/buffer'" >&2

# 3. one commit past a cached entry
git blame "$newer" -- "$file" >"$work/git.out"
GOBLAME_CACHE="$work/c3.primed" "$goblame" "$older" -- "$file" >/dev/null
rm -rf "$work/c3" && cp -r "$work/c3.primed" "$work/c3"
GOBLAME_CACHE="$work/c3" "$goblame" "$newer" -- "$file" >"$work/goblame.out"
same "$newer -- $file"
prep="sh -c 'rm -rf $work/c3 && cp -r $work/c3.primed $work/c3'"
timed "$work/3.md" off "git blame <newer> -- $file" "git blame $newer -- $file" --prepare "$prep"
timed "$work/3.md" off "goblame, cold" "$goblame $newer -- $file" --prepare "$prep"
timed "$work/3.md" "$work/c3" "goblame, parent cached" "$goblame $newer -- $file" --prepare "$prep"

# 4. a repeated -C blame, answered by an exact entry (its final result)
git blame -C HEAD -- "$file" >"$work/git.out"
GOBLAME_CACHE="$work/c4" "$goblame" -C HEAD -- "$file" >/dev/null
GOBLAME_CACHE="$work/c4" "$goblame" -C HEAD -- "$file" >"$work/goblame.out"
same "-C HEAD -- $file"
timed "$work/4.md" off "git blame -C HEAD -- $file" "git blame -C HEAD -- $file"
timed "$work/4.md" off "goblame, cold" "$goblame -C HEAD -- $file"
timed "$work/4.md" "$work/c4" "goblame, cached" "$goblame -C HEAD -- $file"

{
	echo "## $(basename "$repo") $file ($(git --version), $(date -u +%Y-%m-%d))"
	echo
	echo "1. Repeated blame of HEAD"; echo; cat "$work/1.md"; echo
	echo "2. GitLens dirty buffer over the cached HEAD"; echo; cat "$work/2.md"; echo
	echo "3. $(git rev-parse --short "$newer"), one commit past its cached parent"; echo; cat "$work/3.md"; echo
	echo "4. Repeated -C blame of HEAD (an exact entry)"; echo; cat "$work/4.md"; echo
} >"$out"
