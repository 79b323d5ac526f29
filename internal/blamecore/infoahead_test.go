package blamecore_test

import (
	"context"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// manyAuthorsScript is a history of 40 commits by as many authors, each
// changing its own line of the blamed file, with no commit-graph (so no
// look-ahead reads texts during the walk): a blame names 40 commits.
const manyAuthorsScript = `git init -q r && cd r
seq 1 40 | sed "s/^/line /" >f
commit_all "start"
for i in $(seq 1 40); do
	sed -i "${i}s/\$/ changed by $i/" f
	git add -A
	GIT_AUTHOR_NAME="Author $i" GIT_AUTHOR_EMAIL="a$i@example.com" git commit -q -m "change $i
body of $i"
done
`

// TestInfoAheadMakesTheSameRecords blames a file whose lines name 40
// commits, on two processors with a second reader (the result phase
// reads their texts on two goroutines) and without (one after the
// other): the records must be equal, and so must the snapshots of a
// recording blame, texts included; the second goroutine must have read
// some of the texts.
// Not parallel: it sets GOMAXPROCS.
func TestInfoAheadMakesTheSameRecords(t *testing.T) {
	testgit.RequireAnyGit(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer blamecore.SetInfoAheadHelperFirst(true)()
	for _, format := range testgit.Formats {
		dir, db := openScriptFixture(t, "many-authors", format, manyAuthorsScript)
		head, _ := oid.ParseHex(format, strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD")))
		for _, record := range []bool{false, true} {
			blame := func(second bool) *blamecore.Result {
				opts := blamecore.DefaultOptions()
				opts.Record = record
				hopts := blamecore.HistoryOptions{}
				if second {
					hopts.NewLookupReader = func() blamecore.ObjectReader { return db.NewReader() }
				}
				hist := blamecore.NewHistory(db.NewReader(), format, hopts)
				res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: "f", Final: head, FinalName: "HEAD"}, opts)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			one, two := blame(false), blame(true)
			if one.Stats.TextsAhead != 0 || two.Stats.TextsAhead == 0 {
				t.Errorf("%s record=%v: texts read on a second goroutine: %d with one reader, %d with two; want 0 and some",
					format, record, one.Stats.TextsAhead, two.Stats.TextsAhead)
			}
			if len(one.Entries) != 40 || len(two.Entries) != len(one.Entries) {
				t.Fatalf("%s record=%v: %d and %d entries, want 40", format, record, len(one.Entries), len(two.Entries))
			}
			if record {
				s1, s2 := blamecore.TakeSnapshot(one), blamecore.TakeSnapshot(two)
				if s1 == nil || !reflect.DeepEqual(s1, s2) {
					t.Errorf("%s: the snapshots differ (or there is none)", format)
				}
				bodies := 0
				for _, c := range s1.Commits {
					if c.Body != nil {
						bodies++
					}
				}
				if bodies < 40 {
					t.Errorf("%s: the snapshot keeps %d commit texts, want 40 or more", format, bodies)
				}
			}
			for i := range one.Entries {
				a, b := one.Entries[i].Commit, two.Entries[i].Commit
				ai, aerr := a.Info()
				bi, berr := b.Info()
				if a.ID != b.ID || aerr != nil || berr != nil || !reflect.DeepEqual(ai, bi) {
					t.Errorf("%s record=%v: entry %d: %+v (%v) against %+v (%v)", format, record, i, ai, aerr, bi, berr)
				}
			}
		}
	}
}
