package blamecore_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// copiesScript copies long lines between files: from a file changed in
// the same commit (-C), into a new file from an untouched one (-C -C),
// and from a file no commit near it touches (-C -C -C).
const copiesScript = `git init -q r && cd r
for f in alpha beta gamma; do
	for i in 1 2 3 4 5 6; do
		echo "$f line $i: the quick brown fox jumps over the lazy dog again and again $i$f"
	done >$f.c
done
commit_all initial
sed -n 2,4p alpha.c >>beta.c
echo "alpha changed in the same commit" >>alpha.c
commit_all "copy alpha into beta"
sed -n 1,3p gamma.c >delta.c
commit_all "create delta from gamma"
echo "an unrelated edit" >>beta.c
commit_all "unrelated"
sed -n 4,6p gamma.c >>delta.c
sed -n 5,6p beta.c >>delta.c
commit_all "copy more into delta"
`

// TestCopyDetectionWithLineTableResets runs -C, -C -C and -C -C -C on
// every file at every commit of a history of copies and of the fixture
// histories with the differ's line table started afresh before every -C
// round (a budget of zero), and compares the attribution with git's:
// forgetting every prepared File must not change a line.
func TestCopyDetectionWithLineTableResets(t *testing.T) {
	testgit.Golden(t) // skips without git
	defer blamecore.SetLineTableBudget(0)()
	format := oid.SHA1
	resets := 0
	scripts := map[string]string{"copies": copiesScript}
	for name, script := range fixtureScripts {
		scripts[name] = script
	}
	for name, script := range scripts {
		if name == "dates" { // -C depends on the order of equal dates, which git does not fix
			continue
		}
		dir := filepath.Join(testgit.Fixture(t, "blame-"+name+"-"+format.String(), format, script), "r")
		db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		head := strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD"))
		for _, rev := range strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all")) {
			files := strings.Split(strings.TrimSpace(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)), "\n")
			for _, file := range files {
				if file == "" {
					continue
				}
				for _, flags := range [][]string{{"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}} {
					compareWithGit(t, db, nil, dir, format, rev, file, flags, name+"/line-table-resets", true)
				}
				if rev != head {
					continue
				}
				id, _ := oid.ParseHex(format, rev)
				opts := blamecore.DefaultOptions()
				opts.Move, opts.CopyLevel = true, 3
				hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{})
				res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: file, Final: id, FinalName: rev}, opts)
				if err != nil {
					t.Fatal(err)
				}
				resets += res.Stats.LineTableResets
			}
		}
		db.Close()
	}
	if resets == 0 {
		t.Fatal("no -C round reset the line table: the test did not exercise trimLineTable")
	}
}
