package blamecore_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// TestExactSnapshotsGiveTheSameBlame is the proof for the cache's exact
// entries (Options.Exact), which keep the result of a blame under -M, -C
// or ignored revisions for the same blame again: on histories whose lines
// move and are copied between files (generateCopyHistory) and on the
// random histories (merges, renames, equal dates), for every commit and
// path of the branch heads and each option set, whole and with random
// -L ranges, a blame answered from its own exact snapshot gives what the
// cold blame gives, entries as found (--incremental) and result (flags
// included), without walking; the snapshot of one set of ranges is not
// taken by a blame of other ranges, nor by a blame without Exact.
func TestExactSnapshotsGiveTheSameBlame(t *testing.T) {
	testgit.RequireAnyGit(t)
	flagSets := [][]string{{"-M"}, {"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}, {"-M", "-w"}, {"ignore"}, {"-C", "ignore"}}
	for seed := int64(1); seed <= int64(randomSeeds()); seed++ {
		for _, kind := range []string{"copies", "random"} {
			t.Run(fmt.Sprintf("%s-seed%d", kind, seed), func(t *testing.T) {
				t.Parallel()
				var dir string
				var format oid.Format
				var db *odb.DB
				if kind == "copies" {
					format = testgit.Formats[int(seed)%len(testgit.Formats)]
					stream := generateCopyHistory(seed, 30)
					script := "git init -q r && cd r && echo " + base64.StdEncoding.EncodeToString([]byte(stream)) + " | base64 -d | git fast-import --quiet\n"
					dir = filepath.Join(testgit.Fixture(t, fmt.Sprintf("copy-history-%d", seed), format, script), "r")
					var err error
					if db, err = odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{}); err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { db.Close() })
				} else {
					dir, format, db, _ = randomRepository(t, seed)
				}
				revs := strings.Fields(testgit.Git(t, dir, format, "for-each-ref", "--format=%(objectname)", "refs/heads"))
				all := strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all"))
				r := rand.New(rand.NewSource(seed))
				spliced := 0
				for _, rev := range revs {
					id, _ := oid.ParseHex(format, rev)
					for _, file := range strings.Fields(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)) {
						req := blamecore.Request{Path: file, Final: id, FinalName: rev}
						for _, flags := range flagSets {
							var words []string
							for _, f := range flags {
								if f == "ignore" {
									words = append(words, "--ignore-rev", all[r.Intn(len(all))])
								} else {
									words = append(words, f)
								}
							}
							opts := optionsFor(t, format, words)
							run := func(ranges []blamecore.LineRange, exact bool, bases blamecore.Bases) (string, *blamecore.Result) {
								t.Helper()
								o := opts
								o.Ranges, o.Bases, o.Record, o.Exact = ranges, bases, true, exact
								var found []blamecore.Entry
								o.OnGuilty = func(e blamecore.Entry) { found = append(found, e) }
								hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{})
								res, err := blamecore.Run(context.Background(), hist, format, req, o)
								if err != nil {
									t.Fatalf("seed %d %v: blame %s %s: %v", seed, words, rev, file, err)
								}
								return blameTrace(found, res), res
							}
							var ranges []blamecore.LineRange
							for _, whole := range []bool{true, false} {
								if !whole {
									_, res := run(nil, false, nil)
									n := res.NumLines()
									if n == 0 {
										continue
									}
									ranges = nil
									for start := r.Intn(n); start < n; {
										end := min(n, start+1+r.Intn(6))
										ranges = append(ranges, blamecore.LineRange{Start: start, End: end})
										start = end + 1 + r.Intn(8)
									}
								}
								cold, res := run(ranges, true, nil)
								snap := blamecore.TakeSnapshot(res)
								if snap == nil || !snap.Exact {
									t.Fatalf("seed %d %v: %s %s %v: no exact snapshot (%+v)", seed, words, rev, file, ranges, snap)
								}
								bases := &snapshotBases{m: map[snapshotKey]*blamecore.Snapshot{{id, file}: snap}}
								warm, wres := run(ranges, true, bases)
								if warm != cold {
									t.Errorf("seed %d %v: %s %s %v from its exact snapshot:\n%s\ncold:\n%s", seed, words, rev, file, ranges, warm, cold)
								}
								lines := 0
								for _, e := range res.Entries {
									lines += e.NumLines
								}
								if wres.Stats.Spliced != lines || wres.Stats.Diffs != 0 {
									t.Errorf("seed %d %v: %s %s %v: %d of %d lines from the snapshot, %d diffs", seed, words, rev, file, ranges, wres.Stats.Spliced, lines, wres.Stats.Diffs)
								}
								spliced++
								// Other lines, or no Exact: not taken.
								if other := []blamecore.LineRange{{Start: 0, End: 1}}; res.NumLines() > 1 && (len(ranges) != 1 || ranges[0] != other[0]) {
									coldO, _ := run(other, true, nil)
									warmO, ores := run(other, true, bases)
									if warmO != coldO || ores.Stats.Spliced != 0 {
										t.Errorf("seed %d %v: %s %s: -L 1,1 took the exact snapshot of %v (%d lines)", seed, words, rev, file, ranges, ores.Stats.Spliced)
									}
								}
								if _, pres := run(ranges, false, bases); pres.Stats.Spliced != 0 {
									t.Errorf("seed %d %v: %s %s %v: a blame without Exact took an exact snapshot", seed, words, rev, file, ranges)
								}
							}
						}
					}
				}
				if spliced == 0 {
					t.Errorf("seed %d: no blame was answered from an exact snapshot", seed)
				}
			})
		}
	}
}
