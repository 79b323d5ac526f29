package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// localeScript has lines that a regular expression reads differently in
// the C locale (one character a byte) and in a UTF-8 one ("é" one
// character, and a letter), and a commit message to find with ":/".
const localeScript = `git init -q r && cd r
printf '*.txt diff=words\n' >.gitattributes
printf 'xx\n\303\251\nyyy\n\303\211T\303\211\n' >f
printf 'caf\303\251 cr\303\250me\nbody\nplain words\nmore\n' >notes.txt
commit_all initial
printf 'last\n' >>f
git add f && git commit -q -m 'caf'"$(printf '\303\251')"
git config diff.words.xfuncname '^[[:alpha:]]+ [[:alpha:]]+$'
`

// TestRegexLocaleMatchesGit checks that -L /regex/, -L :funcname, a
// funcname pattern and a ":/" revision match in the LC_CTYPE locale git
// runs in: git's main calls setlocale(LC_CTYPE, ""), so under a UTF-8
// locale "." and [[:alpha:]] match "é", in the C locale (or a locale that
// is not installed) they do not.
func TestRegexLocaleMatchesGit(t *testing.T) {
	if !hasUTF8Locale() {
		t.Skip("the C library has no C.UTF-8 locale")
	}
	dirs := fixtureDirs(t, "locale", localeScript)
	envs := [][]string{
		nil, // testgit's LC_ALL=C
		{"LC_ALL=C.UTF-8"},
		{"LC_ALL=", "LC_CTYPE=C.UTF-8"},
		{"LC_ALL=", "LC_CTYPE=", "LANG=C.UTF-8"},
		{"LC_ALL=", "LC_CTYPE=C", "LANG=C.UTF-8"},
		{"LC_ALL=xx_YY.UTF-8"},
		{"LC_ALL=POSIX", "LANG=C.UTF-8"},
	}
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, env := range envs {
			for _, args := range [][]string{
				{"-L", "/^.$/,+1", "f"},
				{"-L", `/^[[:alpha:]]T[[:alpha:]]$/,+1`, "f"},
				{"-L", "/^[^x]$/,+1", "f"},
				{"-L", ":caf.", "notes.txt"},
				{"-L", ":^caf. ", "notes.txt"},
				{"-L", ":cr", "notes.txt"},
				{":/^caf.[[:space:]]", "--", "f"},
			} {
				compareWithGit(t, dir, format, nil, env, args...)
			}
		}
	}
}

// hasUTF8Locale reports whether the C library has a C.UTF-8 locale, as
// Debian's libc-bin installs.
func hasUTF8Locale() bool {
	out, err := exec.Command("locale", "-a").Output()
	if err != nil {
		return false
	}
	for _, l := range strings.Fields(string(out)) {
		if strings.EqualFold(l, "C.utf8") || strings.EqualFold(l, "C.UTF-8") {
			return true
		}
	}
	return false
}
