package blamecore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// pathBases is snapshotBases that can say it has nothing for a path
// (blamecore.PathBases), counting the questions.
type pathBases struct {
	snapshotBases
	none      bool // HasPath answers false for every path
	hasPath   map[string]int
	snapshots int
}

func (b *pathBases) HasPath(path string) bool {
	b.hasPath[path]++
	if b.none {
		return false
	}
	for k, s := range b.m {
		if k.path == path && s != nil {
			return true
		}
	}
	return false
}

func (b *pathBases) Snapshot(c oid.ID, path string, light bool) *blamecore.Snapshot {
	b.snapshots++
	return b.snapshotBases.Snapshot(c, path, light)
}

// TestPathBasesSpareTheWalksQuestions: a cold blame over a Bases that
// has nothing for its path (PathBases.HasPath false, the first blame of
// a file with the cache on) asks for no snapshot at all, HasPath once
// per path, and finds what a blame without Bases finds; a Bases that
// has the path is still asked, and still spliced.
func TestPathBasesSpareTheWalksQuestions(t *testing.T) {
	spliced := 0
	for seed := int64(1); seed <= 3; seed++ {
		var g *traverse.Graph
		var dir string
		var format oid.Format
		var db *odb.DB
		if seed == 3 {
			dir, format, db, g = randomGraphRepository(t, seed)
		} else {
			dir, format, db, _ = randomRepository(t, seed)
		}
		// Oldest first: each blame has the snapshots of its ancestors'.
		all := strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all", "--reverse"))
		run := func(rev, path string, bases blamecore.Bases) (string, *blamecore.Result) {
			t.Helper()
			id, _ := oid.ParseHex(format, rev)
			o := blamecore.DefaultOptions()
			o.Bases, o.Record = bases, true
			var found []blamecore.Entry
			o.OnGuilty = func(e blamecore.Entry) { found = append(found, e) }
			hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{Graph: g})
			res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: path, Final: id, FinalName: rev}, o)
			if err != nil {
				t.Fatalf("seed %d: blame %s %s: %v", seed, rev, path, err)
			}
			return blameTrace(found, res), res
		}
		full := &pathBases{snapshotBases: snapshotBases{m: map[snapshotKey]*blamecore.Snapshot{}}, hasPath: map[string]int{}}
		for _, rev := range all {
			for _, f := range strings.Fields(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)) {
				want, res := run(rev, f, nil)
				none := &pathBases{snapshotBases: snapshotBases{m: full.m}, none: true, hasPath: map[string]int{}}
				got, _ := run(rev, f, none)
				where := fmt.Sprintf("seed %d %s %s", seed, rev, f)
				if got != want {
					t.Errorf("%s: over a Bases without the path:\n%s\nwithout Bases:\n%s", where, got, want)
				}
				if none.snapshots != 0 {
					t.Errorf("%s: asked for %d snapshots of paths it has none of", where, none.snapshots)
				}
				for p, n := range none.hasPath {
					if n != 1 {
						t.Errorf("%s: HasPath(%q) asked %d times", where, p, n)
					}
				}
				// Over the snapshots of the blames before (of its
				// ancestors): asked, and the same result.
				full.snapshots = 0
				withBases, res2 := run(rev, f, full)
				if withBases != want {
					t.Errorf("%s: over the earlier blames' snapshots:\n%s\ncold:\n%s", where, withBases, want)
				}
				if res2.Stats.Spliced > 0 {
					spliced++
				}
				id, _ := oid.ParseHex(format, rev)
				if s := blamecore.TakeSnapshot(res); s != nil {
					full.m[snapshotKey{id, f}] = s
				}
			}
		}
	}
	t.Logf("%d blames took over a snapshot", spliced)
	if spliced == 0 {
		t.Error("no blame took over a snapshot: the Bases with the paths was never asked")
	}
}
