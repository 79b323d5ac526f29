package traverse

import (
	"testing"

	"github.com/goblame/goblame/oid"
)

// Allocation budgets of the hot paths of a path-limited walk.
func TestAllocBudgets(t *testing.T) {
	format := oid.SHA1
	dir := historyFixture(t, "graph", format)
	rd := loadObjects(t, dir, format)
	g := openGraph(t, dir, format)
	all := gitCommits(t, dir, format)

	// Parsing every commit from the graph: commits and parent lists come
	// from slabs, positions index a slice; a handful of allocations for
	// the whole history.
	allocs := testing.AllocsPerRun(20, func() {
		cs := NewCommits(rd, g, format, CommitOptions{})
		for _, c := range all {
			if _, err := cs.Get(c.id); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs > 8 {
		t.Errorf("parsing %d commits from the graph: %v allocations, budget 8", len(all), allocs)
	}

	cs := NewCommits(rd, g, format, CommitOptions{})
	ts := NewTrees(rd, format)
	head, _ := cs.Get(all[0].id)
	key := NewBloomKey([]byte("a/b/c.txt"))
	keys := []BloomKey{key, NewBloomKey([]byte("Märchen"))}
	if a := testing.AllocsPerRun(100, func() {
		for _, c := range all {
			cs.MaybeChangedKey(cs.Lookup(c.id), &key)
			cs.MaybeChangedKeys(cs.Lookup(c.id), keys)
		}
	}); a != 0 {
		t.Errorf("Bloom queries: %v allocations", a)
	}

	// A cached lookup, and PathChanged over cached trees.
	if _, _, _, err := ts.Lookup(cs.Tree(head), []byte("a/b/c.txt")); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(100, func() {
		ts.Lookup(cs.Tree(head), []byte("a/b/c.txt"))
	}); a != 0 {
		t.Errorf("cached Lookup: %v allocations", a)
	}
	for _, c := range all {
		cc, _ := cs.Get(c.id)
		for i, p := range cc.Parents {
			cs.Parse(p)
			PathChanged(cs, ts, cc, i, &key)
		}
	}
	if a := testing.AllocsPerRun(100, func() {
		for _, c := range all {
			cc := cs.Lookup(c.id)
			for i := range cc.Parents {
				if _, err := PathChanged(cs, ts, cc, i, &key); err != nil {
					t.Fatal(err)
				}
			}
		}
	}); a != 0 {
		t.Errorf("PathChanged over cached trees: %v allocations", a)
	}
}
