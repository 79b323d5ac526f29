package blamecore_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// snapshotKey names a snapshot by (commit, path).
type snapshotKey struct {
	commit oid.ID
	path   string
}

// snapshotBases serves snapshots from a map, optionally hiding one.
type snapshotBases struct {
	m    map[snapshotKey]*blamecore.Snapshot
	hide snapshotKey
	// lights counts the snapshots given light.
	lights int
}

func (b *snapshotBases) Snapshot(c oid.ID, path string, light bool) *blamecore.Snapshot {
	k := snapshotKey{c, path}
	if k == b.hide || b.m[k] == nil {
		return nil
	}
	if light {
		b.lights++
		return b.m[k].Light()
	}
	return b.m[k]
}

// blameTrace is everything a blame shows: the entries as found (what
// --incremental prints) and the result, with every flag and the
// --score-debug score. (Not its reference count: that counts the origins
// the walk went through, which a snapshot does not keep; the cache is
// off under --score-debug.)
func blameTrace(found []blamecore.Entry, res *blamecore.Result) string {
	var b strings.Builder
	line := func(e *blamecore.Entry) {
		score, _ := blamecore.ScoreDebug(e)
		fmt.Fprintf(&b, "%d+%d<-%d %s %q boundary=%v multi=%v ign=%v/%v score=%d", e.Lno, e.NumLines, e.SLno, e.Commit.ID, e.Path,
			e.Commit.Boundary, e.Commit.MultiplePaths, e.Ignored, e.Unblamable, score)
		if e.Previous != nil {
			fmt.Fprintf(&b, " prev=%s %q", e.Previous.Commit, e.Previous.Path)
		}
		b.WriteByte('\n')
	}
	b.WriteString("found:\n")
	for i := range found {
		line(&found[i])
	}
	b.WriteString("result:\n")
	for i := range res.Entries {
		line(&res.Entries[i])
	}
	return b.String()
}

// TestSnapshotsReplayColdBlames is the proof that a blame taking over an
// earlier blame's snapshot finds exactly what a blame from nothing finds:
// on seeded random histories (merges, renames, equal dates and clock
// skew), for every commit and path and each option set that allows
// snapshots, it compares a cold blame with
//   - the blame of a newer commit that takes over its parents' snapshots
//     (the commits in between are walked),
//   - -L ranges of the same commit answered from its own snapshot,
//   - a dirty working-tree version over the commit's snapshot,
//
// entries as found (the --incremental order) and the final result, flags
// and the --score-debug score included, and without entries reported as
// found (where any snapshot may be used). Where commits share dates or
// clocks were skewed, the order entries are found in comes from the
// snapshot's trace (trace.go). Every third seed walks with a
// commit-graph. GOBLAME_RANDOM_SEEDS=n runs n seeds.
func TestSnapshotsReplayColdBlames(t *testing.T) {
	for seed := int64(1); seed <= int64(randomSeeds()); seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			// Every third seed walks with a commit-graph, where a splice
			// finds the commits it names by their graph positions.
			var g *traverse.Graph
			var dir string
			var format oid.Format
			var db *odb.DB
			if seed%3 == 0 {
				dir, format, db, g = randomGraphRepository(t, seed)
			} else {
				dir, format, db, _ = randomRepository(t, seed)
			}
			all := strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all"))
			files := map[string][]string{}
			for _, rev := range all {
				files[rev] = strings.Fields(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev))
			}
			optionSets := map[string]func(*blamecore.Options){
				"plain":        func(*blamecore.Options) {},
				"-w":           func(o *blamecore.Options) { o.Diff.IgnoreWhitespace = true },
				"first-parent": func(o *blamecore.Options) { o.FirstParent = true },
				"root":         func(o *blamecore.Options) { o.ShowRoot = true },
				"no-follow":    func(o *blamecore.Options) { o.NoFollow = true },
			}
			stats := map[string]int{}
			for name, set := range optionSets {
				opts := blamecore.DefaultOptions()
				set(&opts)
				incremental := true
				run := func(req blamecore.Request, ranges []blamecore.LineRange, bases blamecore.Bases) (string, *blamecore.Result) {
					t.Helper()
					o := opts
					o.Ranges, o.Bases, o.Record = ranges, bases, true
					var found []blamecore.Entry
					if incremental {
						o.OnGuilty = func(e blamecore.Entry) { found = append(found, e) }
					}
					hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{Graph: g})
					res, err := blamecore.Run(context.Background(), hist, format, req, o)
					if err != nil {
						t.Fatalf("seed %d %s: blame %s %s: %v", seed, name, req.FinalName, req.Path, err)
					}
					return blameTrace(found, res), res
				}
				bases := &snapshotBases{m: map[snapshotKey]*blamecore.Snapshot{}}
				cold := map[snapshotKey]string{}
				for _, rev := range all {
					id, _ := oid.ParseHex(format, rev)
					for _, f := range files[rev] {
						trace, res := run(blamecore.Request{Path: f, Final: id, FinalName: rev}, nil, nil)
						k := snapshotKey{id, f}
						cold[k] = trace
						if s := blamecore.TakeSnapshot(res); s != nil {
							bases.m[k] = s
							if s.Ordered {
								stats["ordered"]++
							}
							if s.Traced {
								stats["traced"]++
							}
							for _, o := range s.Origins {
								if len(o.Skipped) > 0 {
									stats["compacted"]++
									break
								}
							}
						} else {
							t.Errorf("seed %d %s: %s %s: no snapshot of a plain whole-file blame", seed, name, rev, f)
						}
					}
				}
				r := rand.New(rand.NewSource(seed))
				for _, rev := range all {
					id, _ := oid.ParseHex(format, rev)
					for _, f := range files[rev] {
						k := snapshotKey{id, f}
						req := blamecore.Request{Path: f, Final: id, FinalName: rev}
						// A newer commit over older snapshots.
						bases.hide = k
						warm, res := run(req, nil, bases)
						if warm != cold[k] {
							t.Errorf("seed %d %s: %s %s over ancestors' snapshots:\n%s\ncold:\n%s", seed, name, rev, f, warm, cold[k])
						}
						if res.Stats.Spliced > 0 {
							stats["spliced"]++
						}
						// Without entries reported as found, unordered
						// snapshots are used too: the result must not change.
						incremental = false
						_, resR := run(req, nil, bases)
						incremental = true
						if got, want := blameTrace(nil, resR), blameTrace(nil, res); got != want {
							t.Errorf("seed %d %s: %s %s over ancestors' snapshots, not incremental:\n%s\nwant:\n%s", seed, name, rev, f, got, want)
						}
						if resR.Stats.Spliced > 0 {
							stats["spliced-unordered"]++
						}
						s := blamecore.TakeSnapshot(res)
						if s == nil || s.Ordered && !bases.m[k].Ordered {
							t.Errorf("seed %d %s: %s %s: the spliced blame's snapshot is %+v (ordered where the cold one, ordered=%v, is not)", seed, name, rev, f, s, bases.m[k].Ordered)
						} else {
							// The commits it names have their dates
							// (taken from the snapshots it spliced).
							dates := map[oid.ID]uint64{}
							for _, sc := range bases.m[k].Commits {
								dates[sc.ID] = sc.Time
							}
							for _, sc := range s.Commits {
								if d, ok := dates[sc.ID]; ok && d != sc.Time {
									t.Errorf("seed %d %s: %s %s: the spliced blame's snapshot dates %s %d, the cold one %d", seed, name, rev, f, sc.ID, sc.Time, d)
								}
							}
						}
						bases.hide = snapshotKey{}

						// -L ranges from the commit's own snapshot.
						n := res.NumLines()
						if n == 0 {
							continue
						}
						var ranges []blamecore.LineRange
						for start := r.Intn(n); start < n; {
							end := min(n, start+1+r.Intn(4))
							ranges = append(ranges, blamecore.LineRange{Start: start, End: end})
							start = end + 1 + r.Intn(5)
						}
						coldL, _ := run(req, ranges, nil)
						warmL, resL := run(req, ranges, bases)
						if warmL != coldL {
							t.Errorf("seed %d %s: -L %v of %s %s from its snapshot:\n%s\ncold:\n%s", seed, name, ranges, rev, f, warmL, coldL)
						}
						// An ordered snapshot answers its own commit's ranges,
						// but where two of the cut entries start on the same
						// line (which the order they are found in depends on).
						if resL.Stats.Spliced > 0 {
							stats["L-spliced"]++
							// Light: the commits the snapshot names are
							// found by their graph positions, not parsed.
							if parsed := resL.Stats.Walk.FromGraph; g != nil && parsed != 1 {
								t.Errorf("seed %d %s: -L %v of %s %s from its snapshot parsed %d commits from the commit-graph, want the final one", seed, name, ranges, rev, f, parsed)
							}
						}

						// A dirty working-tree version over the snapshot.
						lines := strings.SplitAfter(string(res.Final), "\n")
						if lines[len(lines)-1] == "" {
							lines = lines[:len(lines)-1]
						}
						for e := 0; e < 2; e++ {
							pos := r.Intn(len(lines) + 1)
							switch r.Intn(3) {
							case 0:
								lines = append(lines[:pos:pos], append([]string{"dirty line\n"}, lines[pos:]...)...)
							case 1:
								if pos < len(lines) {
									lines = append(lines[:pos:pos], lines[pos+1:]...)
								}
							default:
								if pos < len(lines) {
									lines[pos] = "changed " + lines[pos]
								}
							}
						}
						wt := &blamecore.WorkTree{Content: []byte(strings.Join(lines, "")), Mode: 0o100644, Parents: []oid.ID{id}, InIndex: true,
							Source: "working tree", Time: 2000000000, TZ: "+0000"}
						wreq := blamecore.Request{Path: f, WorkTree: wt, FinalName: "HEAD"}
						coldW, _ := run(wreq, nil, nil)
						warmW, resW := run(wreq, nil, bases)
						if warmW != coldW {
							t.Errorf("seed %d %s: dirty %s %s over its snapshot:\n%s\ncold:\n%s", seed, name, rev, f, warmW, coldW)
						}
						if blamecore.TakeSnapshot(resW) != nil {
							t.Errorf("seed %d %s: a working-tree blame made a snapshot", seed, name)
						}
						if resW.Stats.Spliced > 0 {
							stats["dirty"]++
						}
						// Not incremental: the snapshot may be given
						// light (no replay, no recording).
						incremental = false
						_, coldWR := run(wreq, nil, nil)
						_, warmWR := run(wreq, nil, bases)
						incremental = true
						if got, want := blameTrace(nil, warmWR), blameTrace(nil, coldWR); got != want {
							t.Errorf("seed %d %s: dirty %s %s over its snapshot, not incremental:\n%s\ncold:\n%s", seed, name, rev, f, got, want)
						}
					}
				}
				stats["light"] += bases.lights
			}
			t.Logf("seed %d: %v", seed, stats)
			if stats["spliced"] == 0 || stats["dirty"] == 0 || stats["L-spliced"] == 0 || stats["traced"] == 0 || stats["compacted"] == 0 || stats["light"] == 0 {
				t.Errorf("seed %d: no blame took over a snapshot (%v): the test proves nothing", seed, stats)
			}
		})
	}
}
