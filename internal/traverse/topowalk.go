package traverse

import (
	"slices"

	"github.com/goblame/goblame/internal/binheap"
)

// initTopoWalk is revision.c's init_topo_walk as blame meets it: git
// prepares the topological walk (--topo-order and its kin, with the
// commit-graph's generation numbers) instead of the limiting pass, and
// blame walks on its own afterwards, so what remains of it is what its
// exploration leaves: commits parsed and UNINTERESTING spread. From the
// revisions, newest generation first, every commit of a generation no
// lower than the revisions' lowest is explored (explore_walk_step: the
// --since cut, process_parents, the UNINTERESTING marks passed to its
// parents); the in-degree walk (indegree_walk_step) goes down the same
// generations, parsing parents, and explores ahead of itself. Below that
// generation nothing is marked: a side branch forked below a range's
// bottom reaches history the limiting pass would have marked, and blame
// goes on into it, as git's does.
func (m *Marks) initTopoWalk(start []*Commit, opts *LimitOptions) {
	cs := m.commits
	t := &topoWalk{m: m, opts: opts, explored: map[*Commit]bool{}, counted: map[*Commit]bool{}}
	minGen := GenerationInfinity
	for _, c := range start {
		if cs.Parse(c) != nil {
			continue
		}
		t.push(&t.explore, t.explored, c)
		t.push(&t.indegree, t.counted, c)
		minGen = min(minGen, cs.Generation(c))
	}
	// compute_indegrees_to_depth
	for len(t.indegree) > 0 && t.indegree[0].gen >= minGen {
		c := popPaint(&t.indegree)
		if cs.Parse(c) != nil {
			continue
		}
		t.exploreTo(cs.Generation(c))
		for _, p := range c.Parents {
			if cs.Parse(p) != nil {
				break // (indegree_walk_step returns)
			}
			t.push(&t.indegree, t.counted, p)
			if opts.FirstParent {
				break
			}
		}
	}
}

type topoWalk struct {
	m                 *Marks
	opts              *LimitOptions
	explore, indegree []paintItem // prio_queues by generation, then date
	explored, counted map[*Commit]bool
	seq               uint64
}

// push is test_flag_and_insert: c is queued once.
func (t *topoWalk) push(q *[]paintItem, seen map[*Commit]bool, c *Commit) {
	if seen[c] {
		return
	}
	seen[c] = true
	*q = binheap.Push(*q, paintItem{c: c, gen: t.m.commits.Generation(c), seq: t.seq}, paintBefore)
	t.seq++
}

// popPaint takes the first commit off q.
func popPaint(q *[]paintItem) *Commit {
	var it paintItem
	*q, it = binheap.Pop(*q, paintBefore)
	return it.c
}

// exploreTo is explore_to_depth: explore_walk_step while the next commit
// is of generation cutoff or higher.
func (t *topoWalk) exploreTo(cutoff uint64) {
	m, cs := t.m, t.m.commits
	for len(t.explore) > 0 && t.explore[0].gen >= cutoff {
		c := popPaint(&t.explore)
		if cs.Parse(c) != nil {
			continue
		}
		if t.opts.HasSince && c.Time < t.opts.Since {
			m.set(c, flagUninteresting)
		}
		if m.processParents(c, nil, t.opts) != nil {
			continue // (git's step returns; its parse said what failed)
		}
		if m.Uninteresting(c) {
			m.MarkParentsUninteresting(c)
		}
		for _, p := range c.Parents {
			t.push(&t.explore, t.explored, p)
		}
	}
}

// TopoSort is the order of git's sort_in_topological_order
// (rev_sort_order), for LimitOptions.Sort.
type TopoSort uint8

const (
	// NoTopoSort leaves the limiting pass's list in its date order.
	NoTopoSort TopoSort = iota
	// SortGraph is --topo-order (REV_SORT_IN_GRAPH_ORDER): a stack.
	SortGraph
	// SortCommitDate is --date-order: newest committer date first.
	SortCommitDate
	// SortAuthorDate is --author-date-order: newest author date first.
	SortAuthorDate
)

// sortTopo is commit.c's sort_in_topological_order over list: a commit
// comes out once all its children in the list have; the commits waiting
// come out last in first (graph order, with the first tips taken in the
// list's order) or newest first (by committer or author date), equal
// dates in the order they were queued.
func (m *Marks) sortTopo(list []*Commit, opts *LimitOptions) []*Commit {
	indegree := make(map[*Commit]int, len(list))
	for _, c := range list {
		indegree[c] = 1
	}
	for _, c := range list {
		for _, p := range c.Parents {
			if indegree[p] > 0 {
				indegree[p]++
			}
		}
	}
	date := func(c *Commit) uint64 { return c.Time }
	if opts.Sort == SortAuthorDate {
		dates := make(map[*Commit]uint64, len(list))
		for _, c := range list {
			if opts.AuthorDate != nil {
				dates[c] = opts.AuthorDate(c)
			}
		}
		date = func(c *Commit) uint64 { return dates[c] }
	}
	var stack []*Commit
	var heap []paintItem
	var seq uint64
	put := func(c *Commit) {
		if opts.Sort == SortGraph {
			stack = append(stack, c)
			return
		}
		heap = binheap.Push(heap, paintItem{c: c, gen: date(c), seq: seq}, newestFirst)
		seq++
	}
	get := func() *Commit {
		if opts.Sort == SortGraph {
			if len(stack) == 0 {
				return nil
			}
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			return c
		}
		if len(heap) == 0 {
			return nil
		}
		var it paintItem
		heap, it = binheap.Pop(heap, newestFirst)
		return it.c
	}
	for _, c := range list {
		if indegree[c] == 1 {
			put(c)
		}
	}
	// (The first tips come out in the list's order.)
	slices.Reverse(stack)
	out := make([]*Commit, 0, len(list))
	for c := get(); c != nil; c = get() {
		for _, p := range c.Parents {
			if indegree[p] == 0 {
				continue
			}
			if indegree[p]--; indegree[p] == 1 {
				put(p)
			}
		}
		indegree[c] = 0
		out = append(out, c)
	}
	return out
}

// newestFirst orders sortTopo's queue: the newest date (in gen) first,
// then the first queued.
func newestFirst(a, b paintItem) bool {
	if a.gen != b.gen {
		return a.gen > b.gen
	}
	return a.seq < b.seq
}
