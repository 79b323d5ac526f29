package traverse

import "github.com/goblame/goblame/internal/binheap"

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
		var it paintItem
		t.indegree, it = binheap.Pop(t.indegree, paintBefore)
		c := it.c
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

// exploreTo is explore_to_depth: explore_walk_step while the next commit
// is of generation cutoff or higher.
func (t *topoWalk) exploreTo(cutoff uint64) {
	m, cs := t.m, t.m.commits
	for len(t.explore) > 0 && t.explore[0].gen >= cutoff {
		var it paintItem
		t.explore, it = binheap.Pop(t.explore, paintBefore)
		c := it.c
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
