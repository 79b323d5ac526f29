package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// textconvScript has a file whose diff driver converts it before blame
// (git blame applies textconv by default): the converted text is blamed.
const textconvScript = `git init -q r && cd r
printf '*.dat diff=upper\n' >.gitattributes
printf 'alpha\nbeta\n' >data.dat
commit_all initial
printf 'alpha\nbeta\ngamma\n' >data.dat
commit_all second
git config diff.upper.textconv 'tr a-z A-Z <'
printf 'alpha\nBETA-edited\ngamma\n' >data.dat
`

func TestTextconvMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "textconv", textconvScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range [][]string{
			{"HEAD", "--", "data.dat"}, {"--no-textconv", "HEAD", "--", "data.dat"}, {"-p", "HEAD", "--", "data.dat"},
			{"--show-stats", "HEAD", "--", "data.dat"},
		} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
		// The edited work-tree file: lines not committed yet, dated now,
		// so these need git 2.39.x itself.
		for _, args := range [][]string{{"data.dat"}, {"--no-textconv", "data.dat"}} {
			compareWithLiveGit(t, dir, format, nil, nil, args...)
		}
	}
}
