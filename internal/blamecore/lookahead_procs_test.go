package blamecore_test

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// lateEntryScript is a history whose blamed file grows in twelve
// commits, each followed by 39 that change another file, below 120 more
// of those: a walk from HEAD finds its first entry after 159 commits,
// and reads a tree at one commit in forty after that.
const lateEntryScript = `git init -q
for i in $(seq 1 12); do
	seq 1 $((i * 3)) | sed "s/^/line /" >f
	commit_all "f $i"
	for j in $(seq 1 39); do echo "$i $j" >other; commit_all "other $i $j"; done
done
for i in $(seq 1 120); do echo $i >other; commit_all "top $i"; done
git commit-graph write --reachable --changed-paths
`

// TestLookAheadStartsWhenProcessorsCome: the command line runs an
// --incremental blame on one processor until its first entry is out
// (cli: lookAheadDelay), and the path look-ahead, due at the walk's
// 32nd commit (longWalkCommits), must start once the second processor comes, as it starts
// when it has two from the start, although by then the walk has passed
// 159 commits with two trees read (lookAhead's ratio alone, one tree in
// 32 commits, would refuse it for the rest of the walk).
// Not parallel: it sets GOMAXPROCS.
func TestLookAheadStartsWhenProcessorsCome(t *testing.T) {
	testgit.RequireAnyGit(t)
	format := oid.SHA1
	dir := testgit.Fixture(t, "late-entry", format, lateEntryScript)
	db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g, _, err := traverse.OpenGraph(db.ObjectDirs(), format)
	if err != nil || g == nil {
		t.Fatalf("commit-graph: %v", err)
	}
	defer g.Close()
	head, _ := oid.ParseHex(format, strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD")))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	blame := func(late bool) blamecore.Stats {
		opts := blamecore.DefaultOptions()
		opts.UseBloom = true
		runtime.GOMAXPROCS(2)
		if late {
			runtime.GOMAXPROCS(1)
			opts.OnGuilty = func(blamecore.Entry) { runtime.GOMAXPROCS(2) }
		}
		hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{
			Graph:           g,
			NewLookupReader: func() blamecore.ObjectReader { return db.NewReader() },
		})
		res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: "f", Final: head, FinalName: "HEAD"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return res.Stats
	}
	early, late := blame(false), blame(true)
	if early.Trees.AheadStarts != 1 || late.Trees.AheadStarts != 1 {
		t.Errorf("look-aheads started: %d with two processors from the start, %d with the second from the first entry; want 1 and 1",
			early.Trees.AheadStarts, late.Trees.AheadStarts)
	}
}
