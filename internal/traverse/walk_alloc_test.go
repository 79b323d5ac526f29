package traverse

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// Per-commit allocation budgets of the walk, on a history long enough for
// amortised costs to show: commits come from slabs of 256, parent lists
// from slabs of 512, graph positions index one slice, and the walk's
// queue and seen-marks grow by doubling, so a walk over N commits makes
// O(log N + N/256) allocations, not O(N). alloc_test.go has the zero
// budgets of Bloom queries and of PathChanged over cached trees.
//
// The budgets are allocations per commit: the measured value (on commits
// e9a77cb and b0eb4d3, go1.26.8) with a margin. If a change meant to
// alter them moves them, update the numbers here and say why in the
// commit message; the test logs what it measured (go test -v).

// longHistoryScript makes 313 commits in one git fast-import (a few
// seconds to build, not a process per commit): a linear history with a
// merge every 50 commits of a side branch forked 3 commits back (so the
// walk meets commits with two parents and queues commits out of order),
// files at the top and three directories deep, then a commit-graph with
// changed-path Bloom filters.
const longHistoryScript = `git init -q .
tick=1112911993 mark=0
commit () { # commit REF FROM MERGE PATH CONTENT
	mark=$((mark + 1)) tick=$((tick + 60))
	printf 'commit %s\nmark :%d\ncommitter C O Mitter <committer@example.com> %d -0700\ndata 3\nc%d\n' "$1" $mark $tick $((mark % 100))
	test -n "$2" && printf 'from :%d\n' "$2"
	test -n "$3" && printf 'merge :%d\n' "$3"
	printf 'M 100644 inline %s\ndata %d\n%s\n' "$4" $((${#5} + 1)) "$5"
}
{
	commit refs/heads/main "" "" src/deep/er/file.txt root
	main=$mark
	for i in $(seq 1 300); do
		case $((i % 3)) in
		0) commit refs/heads/main $main "" top.txt "top $i" ;;
		1) commit refs/heads/main $main "" src/deep/er/file.txt "file $i" ;;
		2) commit refs/heads/main $main "" src/other$((i % 5)).txt "other $i" ;;
		esac
		main=$mark
		if test $((i % 50)) = 0; then
			commit refs/heads/s$i $((main - 3)) "" side$i.txt "side $i"
			commit refs/heads/main $main $mark merge$i.txt "merge $i"
			main=$mark
		fi
	done
} | git fast-import --quiet
git reset -q --hard main
git commit-graph write --reachable --changed-paths
`

// walkAllocBudgets are the most allocations per commit each operation
// may make over the 313 commits of longHistoryScript (both object
// formats): the measured total plus max(2, 10%), divided by 313.
var walkAllocBudgets = map[string]float64{
	"Lookup+Parse/graph":    0.032, // measured 8: the cache, 2 commit slabs, 1 parent slab, the position index's chunk list and a chunk per 256 positions
	"Lookup+Parse/objects":  0.032, // measured 7: ... and the ID table's growth
	"Walk/graph":            0.061, // measured 17: ... and the queue's and seen-marks' doublings
	"Walk/objects":          0.064, // measured 17
	"Trees.Lookup/uncached": 0.26,  // measured 73: the path caches and their per-level maps, made once
}

func TestAllocBudgetsPerCommit(t *testing.T) {
	testgit.SkipUnderRace(t)
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir := testgit.Fixture(t, "traverse-long-history", format, longHistoryScript)
			rd := loadObjects(t, dir, format)
			g := openGraph(t, dir, format)
			if !g.HasBloom() {
				t.Fatal("fixture has no Bloom filters")
			}
			var ids []oid.ID
			for _, line := range gitLines(t, dir, format, "rev-list", "HEAD") {
				ids = append(ids, parseID(t, format, line))
			}
			head := ids[0]
			n := float64(len(ids))
			if len(ids) <= 256 {
				t.Fatalf("%d commits: the history must outgrow one slab of commits", len(ids))
			}

			const slabCause = "a commit, parent list or graph position allocated one by one instead of from a slab, or the queue or seen-marks grown per commit"
			check := func(name, cause string, allocs float64) {
				t.Helper()
				per := allocs / n
				t.Logf("%s: %.0f allocations for %d commits, %.3f per commit", name, allocs, len(ids), per)
				budget, ok := walkAllocBudgets[name]
				switch {
				case !ok:
					t.Errorf("%s: no budget in walkAllocBudgets", name)
				case per > budget:
					t.Errorf("%s: %.3f allocations per commit (%.0f for %d commits), budget %.3f: likely %s", name, per, allocs, len(ids), budget, cause)
				}
			}

			// Lookup then Parse of every commit, newest first, from a new
			// cache each time: a stub from the slab, parents from the
			// parent slab, their stubs at graph positions.
			for _, src := range []struct {
				name  string
				graph *Graph
			}{{"graph", g}, {"objects", nil}} {
				check("Lookup+Parse/"+src.name, slabCause, testing.AllocsPerRun(5, func() {
					cs := NewCommits(rd, src.graph, format, CommitOptions{})
					for _, id := range ids {
						if err := cs.Parse(cs.Lookup(id)); err != nil {
							t.Fatal(err)
						}
					}
					if got := cs.Stats(); (src.graph != nil) != (got.FromGraph == len(ids)) {
						t.Fatalf("%s: %+v", src.name, got)
					}
				}))
				// The date-ordered walk from HEAD: the same, plus the queue
				// and the seen-marks.
				check("Walk/"+src.name, slabCause, testing.AllocsPerRun(5, func() {
					w := NewWalk(NewCommits(rd, src.graph, format, CommitOptions{}))
					if err := w.Push(head); err != nil {
						t.Fatal(err)
					}
					walked := 0
					for {
						c, err := w.Next()
						if err != nil {
							t.Fatal(err)
						}
						if c == nil {
							break
						}
						walked++
					}
					if walked != len(ids) {
						t.Fatalf("walked %d commits, want %d", walked, len(ids))
					}
				}))
			}

			// Path lookups in every commit's tree, the first time (trees
			// read into the reused buffer, answers into per-level caches
			// made once) and again (all answered from the caches: none).
			cs := NewCommits(rd, g, format, CommitOptions{})
			var trees []oid.ID
			for _, id := range ids {
				c, err := cs.Get(id)
				if err != nil {
					t.Fatal(err)
				}
				trees = append(trees, cs.Tree(c))
			}
			paths := [][]byte{[]byte("top.txt"), []byte("src/deep/er/file.txt"), []byte("src/deep/missing")}
			lookupAll := func(ts *Trees) {
				for _, tree := range trees {
					for _, p := range paths {
						if _, _, _, err := ts.Lookup(tree, p); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			check("Trees.Lookup/uncached", "an allocation per tree read or per cached answer (the tree buffer not reused, per-level maps made per tree)", testing.AllocsPerRun(5, func() { lookupAll(NewTrees(rd, format)) }))
			ts := NewTrees(rd, format)
			lookupAll(ts)
			before := ts.Stats()
			if a := testing.AllocsPerRun(5, func() { lookupAll(ts) }); a != 0 {
				t.Errorf("cached Trees.Lookup of %d paths in %d trees: %.0f allocations, want 0: a lookup answered from the cache must not allocate (path key converted to a string, result boxed?)", len(paths), len(trees), a)
			}
			after := ts.Stats()
			if after.TreesRead != before.TreesRead || after.LookupMisses != before.LookupMisses {
				t.Errorf("looking the same paths up again read %d trees (%d misses): the lookup cache is not used", after.TreesRead-before.TreesRead, after.LookupMisses-before.LookupMisses)
			}
		})
	}
}
