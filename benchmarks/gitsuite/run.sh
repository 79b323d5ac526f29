#!/bin/sh
# Runs git's own blame tests with goblame answering "git blame".
#
# usage: benchmarks/gitsuite/run.sh GIT_SRC [TEST...]
#
# GIT_SRC is a checkout of git v2.39.5 (git clone --branch v2.39.5
# https://github.com/git/git), built here if it is not (make, without
# curl, OpenSSL, Tcl/Tk, gettext or Python). The test suite runs git
# through bin-wrappers/git; for the run that wrapper starts goblame's
# git shim (a link named git to the goblame make build builds from this
# tree, with its runtime) with GOBLAME_GIT naming the built git, so that
# every "git blame", "git annotate" and "git pickaxe" a test runs is
# answered by goblame and every other command by git (see cli/shim.go). The wrapper is restored at the
# end. TESTs default to the blame tests, t8001-t8014, and the other
# scripts that run git blame (t1092, t4061, t4203, t7010). It prints
# each script's result and how many blame command lines the shim saw,
# and exits 1 if a test failed.
set -eu
src=$(cd "$1" && pwd); shift
here=$(cd "$(dirname "$0")/../.." && pwd)
test -f "$src/GIT-VERSION-GEN" || { echo "$src: not a git source tree" >&2; exit 2; }
if ! test -x "$src/git" || ! test -f "$src/bin-wrappers/git"; then
	make -C "$src" -j"$(nproc)" NO_CURL=1 NO_OPENSSL=1 NO_TCLTK=1 NO_GETTEXT=1 NO_PYTHON=1 >"$src/.goblame-build.log" 2>&1 ||
		{ tail -20 "$src/.goblame-build.log" >&2; exit 2; }
fi
work=$(mktemp -d)
trap 'cp "$work/wrapper" "$src/bin-wrappers/git" 2>/dev/null; rm -rf "$work"' EXIT
(cd "$here" && make -s build OUT="$work/goblame")
cp "$src/bin-wrappers/git" "$work/wrapper"
mkdir "$work/bin" && ln -s ../goblame "$work/bin/git"
: >"$work/calls"
cat >"$work/shim" <<SHIM
#!/bin/sh
case "\${1-}" in blame|annotate|pickaxe) echo x >>"$work/calls";; esac
exec "$work/bin/git" "\$@"
SHIM
chmod +x "$work/shim"
# The wrapper's last step, exec "\${GIT_EXEC_PATH}/git", goes through the
# shim instead.
sed 's|^\(	*\)exec "\${GIT_EXEC_PATH}/git" "\$@"|\1GOBLAME_GIT="${GIT_EXEC_PATH}/git" GOBLAME_CACHE=off exec '"$work"'/shim "$@"|' \
	"$work/wrapper" >"$src/bin-wrappers/git"
grep -q "$work/shim" "$src/bin-wrappers/git" || { echo "bin-wrappers/git has an unknown form" >&2; exit 2; }
if test $# -eq 0; then
	set -- t8001-annotate.sh t8002-blame.sh t8003-blame-corner-cases.sh t8004-blame-with-conflicts.sh \
		t8005-blame-i18n.sh t8006-blame-textconv.sh t8007-cat-file-textconv.sh t8008-blame-formats.sh \
		t8009-blame-vs-topicbranches.sh t8010-cat-file-filters.sh t8011-blame-split-file.sh \
		t8012-blame-colors.sh t8013-blame-ignore-revs.sh t8014-blame-ignore-fuzzy.sh \
		t1092-sparse-checkout-compatibility.sh t4061-diff-indent.sh t4203-mailmap.sh t7010-setup.sh
fi
status=0
for t in "$@"; do
	if out=$(cd "$src/t" && sh "./$t" 2>&1); then
		echo "$t: $(printf '%s\n' "$out" | grep -E '^# (passed|failed|still|fixed)' | tr '\n' ' ')"
	else
		status=1
		echo "$t: FAILED"
		printf '%s\n' "$out" | grep -E '^not ok|^# ' | head -20
	fi
done
echo "git blame command lines answered by goblame: $(wc -l <"$work/calls")"
exit $status
