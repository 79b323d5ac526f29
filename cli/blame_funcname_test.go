package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// funcnameScript has files whose function lines git finds with diff
// drivers: a builtin driver (cpp, python) selected by .gitattributes, a
// driver configured with diff.<name>.xfuncname, and a file without one.
const funcnameScript = `git init -q r && cd r
printf '*.c diff=cpp\n*.py diff=python\n*.txt diff=custom\n' >.gitattributes
printf 'int\nfirst(void)\n{\n\treturn 1;\n}\n\nlabel:\n  static int second(int x)\n{\n\treturn x;\n}\n' >code.c
printf 'import os\n\ndef alpha():\n    return 1\n\nclass Beta:\n    def gamma(self):\n        return 2\n' >code.py
printf '== one ==\nbody\n== two ==\nmore\nmore\n' >notes.txt
printf 'plain\nsecond plain\n  indented\nthird\n' >plain
commit_all initial
printf '\n\tmore();\n' >>code.c
commit_all second
git config diff.custom.xfuncname '^== .* ==$'
`

func TestFuncnameRangesMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "funcname", funcnameScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range [][]string{
			{"-L", ":first", "code.c"}, {"-L", ":second", "code.c"}, {"-L", ":label", "code.c"},
			{"-L", ":alpha", "code.py"}, {"-L", ":gamma", "code.py"}, {"-L", ":Beta", "code.py"},
			{"-L", ":two", "notes.txt"}, {"-L", ":one", "-L", ":two", "notes.txt"},
			{"-L", ":second", "plain"}, {"-L", ":indented", "plain"}, {"-L", "^:third", "plain"},
			// Text after the closing ':' is a usage error once the
			// function is found; git looks for it first.
			{"-L", ":first:code.c", "code.c"}, {"-L", ":nosuchfunction:code.c", "code.c"},
		} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
		compareWithGit(t, dir, format, nil, []string{"GIT_CONFIG_PARAMETERS='diff.custom.xfuncname'='('"}, "-L", ":two", "notes.txt")
	}
}

// lineRangeEdgesScript has files for -L's edges: a diff driver per
// file (its pattern set by each case), a file starting and one ending
// with an empty line, a NUL before a function line, and numbered lines.
const lineRangeEdgesScript = `git init -q r && cd r
printf 'row.txt diff=drv\nfirst.txt diff=e\nlast.txt diff=e\n' >.gitattributes
seq 1 10 | sed 's/^/row /' >row.txt
printf '\nx\ny\n' >first.txt
printf 'a\n\n' >last.txt
printf 'bin\0ary\nmore\n' >bin.dat
seq 1 10 >n.txt
commit_all initial
`

// TestLineRangeEdgesMatchGit: -L where git's parse_range_arg has
// edges (a helper's sweep of 21,256 -L cases found each):
//   - a diff driver's funcname pattern is set up where git parses each
//     -L :<funcname>, after the values before it (their errors first,
//     an empty name's usage first), and dies of a last line negated;
//   - a match at the start of an empty line tests the empty text after
//     it (a driver matching "" then finds the next line, or EOF);
//   - only a NUL after the search's start ends it;
//   - line numbers are C longs: one too large for a long is the
//     largest, and what git computes from it wraps as C's arithmetic.
func TestLineRangeEdgesMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "line-range-edges", lineRangeEdgesScript)
	driver := func(name, pattern string) []string {
		return []string{"GIT_CONFIG_PARAMETERS='diff." + name + ".xfuncname'='" + pattern + "'"}
	}
	for _, format := range testgit.Formats {
		dir := dirs[format]
		bad := driver("drv", "[")
		for _, args := range [][]string{
			{"-L", "100", "-L", ":row", "row.txt"}, {"-L", "1,2,3", "-L", ":row", "row.txt"},
			{"-L", "/nomatch/", "-L", ":row", "row.txt"}, {"-L", ":", "row.txt"},
			{"-L", ":row", "row.txt"}, {"-L", "2,3", "-L", ":row", "row.txt"},
		} {
			compareWithGit(t, dir, format, nil, bad, args...)
		}
		for _, pattern := range []string{"^row 1\n!^row 2", "[\n!x", "!^row 2\n^row", "^row 3\n!"} {
			compareWithGit(t, dir, format, nil, driver("drv", pattern), "-s", "-L", ":row", "row.txt")
		}
		empty := driver("e", "^$")
		for _, args := range [][]string{
			{"-s", "-L", ":^$", "first.txt"}, {"-s", "-L", "1,1", "-L", ":^$", "last.txt"}, {"-s", "-L", ":^$", "last.txt"},
		} {
			compareWithGit(t, dir, format, nil, empty, args...)
		}
		for _, args := range [][]string{
			{"-s", "-L", "1,1", "-L", ":more", "bin.dat"}, {"-s", "-L", ":more", "bin.dat"}, {"-s", "-L", "1,1", "-L", "/more/", "bin.dat"},
			{"-s", "-L", "1099511627780,-1099511627775", "n.txt"}, {"-s", "-L", "9223372036854775807,+5", "n.txt"},
			{"-s", "-L", "99999999999999999999,+5", "n.txt"}, {"-s", "-L", "99999999999999999999,-5", "n.txt"},
			{"-s", "-L", "99999999999999999999,+0", "n.txt"}, {"-s", "-L", "99999999999999999999,/7/", "n.txt"},
			{"-s", "-L", "99999999999999999999,^/7/", "n.txt"}, {"-s", "-L", "99999999999999999999,+-1", "n.txt"},
			{"-s", "-L", "99999999999999999999", "n.txt"},
		} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
	}
}
