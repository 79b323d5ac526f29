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
