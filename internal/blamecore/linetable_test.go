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

// churnScript makes a file of which every other line changes in each of
// 30 versions (a generated file's history): the differ's line table
// gains half a version a commit, and the lines that never change are
// passed down to the first version.
const churnScript = `git init -q r && cd r
for v in $(seq 1 30); do
	seq 1 400 | awk -v v=$v '{ if ($1 % 2) print "kept line " $1; else print "version " v " line " $1 }' >gen.txt
	commit_all "v$v"
done
`

// TestWalkWithLineTableResets blames every file at every commit of the
// fixture histories and of a churning file, plain, with -w and with -M,
// with the differ's line table started afresh before every pass of the
// walk (a bound of zero: boundLineTable), and compares the attribution
// with git's: forgetting every prepared File must not change a line.
// With the churning file and a bound of 16 KiB (4 versions' worth) the
// table is started afresh along the walk too.
func TestWalkWithLineTableResets(t *testing.T) {
	testgit.Golden(t) // skips without git
	format := oid.SHA1
	run := func(floor, files int, scripts map[string]string, label string) (resets int) {
		defer blamecore.SetWalkLineTableBound(floor, files)()
		for name, script := range scripts {
			dir := filepath.Join(testgit.Fixture(t, "blame-"+name+"-"+format.String(), format, script), "r")
			db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, rev := range strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all")) {
				files := strings.Split(strings.TrimSpace(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)), "\n")
				for _, file := range files {
					if file == "" {
						continue
					}
					for _, flags := range [][]string{nil, {"-w"}, {"-M"}} {
						stats, _ := compareWithGit(t, db, nil, dir, format, rev, file, flags, name+"/"+label, true)
						resets += stats.LineTableResets
					}
				}
			}
			db.Close()
		}
		return resets
	}
	scripts := map[string]string{"churn": churnScript}
	for name, script := range fixtureScripts {
		scripts[name] = script
	}
	if run(0, 0, scripts, "walk-line-table-resets") == 0 {
		t.Fatal("no pass reset the line table: the test did not exercise boundLineTable")
	}
	if run(16<<10, 4, map[string]string{"churn": churnScript}, "walk-line-table-bound") == 0 {
		t.Fatal("the churning file's walk kept its whole line table under a 16 KiB bound")
	}
}

// TestCopyBlameWithoutCandidatesBoundsLineTable blames the churning file
// with -C, -C -C and -C -C -C, where no other file can be a copy's source
// (no candidate is remembered), under a 16 KiB bound for the walk's
// passes (4 versions' worth) and the -C rounds' own budget: such a blame
// bounds its line table as a plain walk does (boundLineTable), starting
// it afresh along the walk, and its attribution is git's. With the -C
// budget in every pass (64 MiB) its table grew without a reset: 240 MB
// on a 2.3 MB file's 60 versions, against a plain walk's 89.
func TestCopyBlameWithoutCandidatesBoundsLineTable(t *testing.T) {
	testgit.Golden(t) // skips without git
	defer blamecore.SetWalkLineTableBound(16<<10, 4)()
	format := oid.SHA1
	dir := filepath.Join(testgit.Fixture(t, "blame-churn-"+format.String(), format, churnScript), "r")
	db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	head := strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD"))
	for _, flags := range [][]string{{"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}} {
		stats, _ := compareWithGit(t, db, nil, dir, format, head, "gen.txt", flags, "churn/copy-line-table-bound", true)
		if stats.CopyCandidates != 0 {
			t.Fatalf("%v: %d copy candidates; the test needs a history with none", flags, stats.CopyCandidates)
		}
		if stats.LineTableResets == 0 {
			t.Errorf("%v: the churning file's walk kept its whole line table under a 16 KiB bound", flags)
		}
	}
}
