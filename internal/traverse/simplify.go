package traverse

import (
	"errors"
	"fmt"
	"slices"

	"github.com/goblame/goblame/internal/binheap"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// Simplification by decoration (--simplify-by-decoration): git turns on
// its merge simplification (revision.c's simplify_merges) with a rule of
// its own for which commits change something: a commit that a ref names
// (a decoration) does, one that no ref names does not. Blame takes the
// path out of git's pathspec, so nothing else counts; a root commit
// changes something unless its tree holds no file. The limiting pass
// flags each interesting commit TREESAME that changes nothing
// (try_to_simplify_commit), then every commit's parents are rewritten to
// what they simplify to, and blame follows the rewritten parents: from a
// commit a ref names to the nearest ones below it.
//
// git rewrites the parent lists in place; so does this, with a new slice
// per commit (Commit.Parents' elements are shared). Each decoration
// decides alike for all of a commit's parents, so git's per-parent
// TREESAME record (revision.c's treesame_state) is one flag here.

// SimplifyError is git's death when a parent of a commit the limiting
// pass simplifies cannot be parsed ("cannot simplify commit X (because of
// P)"); Err is the parse's error, which git reports first.
type SimplifyError struct {
	Commit, Parent oid.ID
	Err            error
}

func (e *SimplifyError) Error() string {
	return fmt.Sprintf("cannot simplify commit %s (because of %s)", e.Commit, e.Parent)
}

func (e *SimplifyError) Unwrap() error { return e.Err }

// tryToSimplify is revision.c's try_to_simplify_commit for
// --simplify-by-decoration: it parses the parents git compares (the first
// only with --first-parent) and flags c TREESAME if it changes nothing.
func (m *Marks) tryToSimplify(c *Commit, opts *LimitOptions) error {
	cs := m.commits
	if len(c.Parents) == 0 {
		empty, err := opts.EmptyTree(c)
		if err != nil {
			return err
		}
		if empty {
			m.set(c, flagTreesame)
		}
		return nil
	}
	if opts.Sparse && len(c.Parents) == 1 {
		return nil // (before git parses the parent)
	}
	for i, p := range c.Parents {
		if i == 1 && opts.FirstParent {
			break
		}
		if err := cs.Parse(p); err != nil {
			return &SimplifyError{Commit: cs.ID(c), Parent: cs.ID(p), Err: err}
		}
	}
	decorated, err := opts.Decorated(c)
	if err != nil {
		return err
	}
	if !decorated {
		m.set(c, flagTreesame)
	}
	return nil
}

// relevant is revision.c's relevant_commit: not UNINTERESTING, or a
// bottom.
func (m *Marks) relevant(c *Commit) bool {
	return m.get(c)&(flagUninteresting|flagBottom) != flagUninteresting
}

// simplifyMerges is revision.c's simplify_merges over the limited list:
// each commit's parents become what they simplify to, and a commit
// simplifies to itself, or to what its one relevant parent simplifies to
// where it changes nothing. A commit is done after its parents (git
// defers a commit until they are); the answer does not depend on the
// order otherwise.
func (m *Marks) simplifyMerges(firstParent bool) error {
	s := &simplifier{m: m, done: make(map[*Commit]*Commit)}
	expanded := make(map[*Commit]bool)
	var stack []*Commit
	// Oldest first, as git feeds the list: most parents are done first.
	for i := len(m.list) - 1; i >= 0; i-- {
		stack = append(stack[:0], m.list[i])
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			if s.done[c] != nil {
				stack = stack[:len(stack)-1]
				continue
			}
			pending := false
			if !m.Uninteresting(c) {
				for j, p := range c.Parents {
					if j == 1 && firstParent {
						break
					}
					if s.done[p] == nil {
						if expanded[p] {
							// p waits below c on the stack for c.
							return &LoopError{Commit: m.commits.ID(p)}
						}
						stack = append(stack, p)
						pending = true
					}
				}
			}
			if pending {
				expanded[c] = true
				continue
			}
			stack = stack[:len(stack)-1]
			if err := s.one(c, firstParent); err != nil {
				return err
			}
		}
	}
	// The list keeps the commits that simplify to themselves.
	kept := m.list[:0]
	for _, c := range m.list {
		if s.done[c] == c {
			kept = append(kept, c)
		}
	}
	clear(m.list[len(kept):])
	m.list = kept
	return nil
}

type simplifier struct {
	m    *Marks
	done map[*Commit]*Commit // what a commit simplifies to (merge_simplify_state)
	// paint is paint_down_to_common's flags while a merge's parents are
	// checked for redundancy.
	paint   map[*Commit]uint8
	touched []*Commit
}

// one is revision.c's simplify_one for c, whose parents are done.
func (s *simplifier) one(c *Commit, firstParent bool) error {
	m := s.m
	if m.Uninteresting(c) || len(c.Parents) == 0 {
		s.done[c] = c
		return nil
	}
	parents := slices.Clone(c.Parents)
	n := len(parents)
	if firstParent {
		parents[0] = s.done[parents[0]]
		n = 1
	} else {
		kept := parents[:0]
		for _, p := range parents {
			p = s.done[p]
			if !slices.Contains(kept, p) {
				kept = append(kept, p)
			}
		}
		parents = kept
		n = len(parents)
	}
	if n > 1 {
		marked, err := s.markRedundant(parents)
		if err != nil {
			return err
		}
		// mark_treesame_root_parents
		for i, p := range parents {
			if len(p.Parents) == 0 && m.get(p)&flagTreesame != 0 && !marked[i] {
				marked[i] = true
			}
		}
		if slices.Contains(marked, true) {
			// leave_one_treesame_to_parent: a commit that changes
			// nothing is TREESAME to every parent; if all of them are
			// marked, the first stays.
			if m.get(c)&flagTreesame != 0 && !slices.Contains(marked, false) {
				marked[0] = false
			}
			kept := parents[:0]
			for i, p := range parents {
				if !marked[i] {
					kept = append(kept, p)
				}
			}
			parents = kept
			n = len(parents)
		}
	}
	c.Parents = parents
	if n == 0 || m.get(c)&flagTreesame == 0 {
		s.done[c] = c
		return nil
	}
	// one_relevant_parent
	var rel *Commit
	if firstParent || len(parents) == 1 {
		rel = parents[0]
	} else {
		for _, p := range parents {
			if m.relevant(p) {
				if rel != nil {
					rel = nil
					break
				}
				rel = p
			}
		}
		if rel == nil {
			s.done[c] = c
			return nil
		}
	}
	s.done[c] = s.done[rel]
	return nil
}

// Paint flags of markRedundant (commit-reach.c's PARENT1, PARENT2, STALE).
const (
	paintOne uint8 = 1 << iota
	paintTwo
	paintStale
)

// markRedundant is mark_redundant_parents: it reports which of the
// distinct commits ps are ancestors of another of them (reduce_heads,
// whose remove_redundant is exact reachability). Each is checked as git's
// remove_redundant_no_gen does, painting down from it and from the others
// until only commits reached from both sides are left.
func (s *simplifier) markRedundant(ps []*Commit) ([]bool, error) {
	redundant := make([]bool, len(ps))
	var others []int
	for i := range ps {
		if redundant[i] {
			continue
		}
		others = others[:0]
		for j := range ps {
			if j != i && !redundant[j] {
				others = append(others, j)
			}
		}
		if len(others) == 0 {
			break
		}
		if err := s.paintDown(ps, i, others); err != nil {
			return nil, err
		}
		if s.paint[ps[i]]&paintTwo != 0 {
			redundant[i] = true
		}
		for _, j := range others {
			if s.paint[ps[j]]&paintOne != 0 {
				redundant[j] = true
			}
		}
		for _, c := range s.touched {
			delete(s.paint, c)
		}
		s.touched = s.touched[:0]
	}
	return redundant, nil
}

// paintDown is commit-reach.c's paint_down_to_common: ps[one] is painted
// PARENT1 and ps[twos] PARENT2, and the paint runs down the parents, newest
// (by generation, then date) first, a commit reached from both sides
// passing STALE on, until every commit queued is stale. Commits below the
// lowest generation of the ones painted first cannot reach them and are
// not walked.
func (s *simplifier) paintDown(ps []*Commit, one int, twos []int) error {
	cs := s.m.commits
	if s.paint == nil {
		s.paint = make(map[*Commit]uint8)
	}
	var q []paintItem
	var seq uint64
	add := func(c *Commit, f uint8) {
		if s.paint[c] == 0 {
			s.touched = append(s.touched, c)
		}
		s.paint[c] |= f
		q = binheap.Push(q, paintItem{c: c, gen: cs.Generation(c), seq: seq}, paintBefore)
		seq++
	}
	minGen := cs.Generation(ps[one])
	add(ps[one], paintOne)
	for _, j := range twos {
		minGen = min(minGen, cs.Generation(ps[j]))
		add(ps[j], paintTwo)
	}
	for s.nonstale(q) {
		c := popPaint(&q)
		if cs.Generation(c) < minGen {
			break
		}
		f := s.paint[c] & (paintOne | paintTwo | paintStale)
		if f == paintOne|paintTwo {
			f |= paintStale
		}
		for _, p := range c.Parents {
			if s.paint[p]&f == f {
				continue
			}
			if err := cs.Parse(p); err != nil {
				if diesInRead(err) {
					return err
				}
				// git's paint stops there, and its redundancy check
				// takes what was painted so far.
				if cs.warn != nil && errors.Is(err, odb.ErrNotFound) {
					cs.warn("error: Could not read " + cs.ID(p).String())
				}
				return nil
			}
			add(p, f)
		}
	}
	return nil
}

func (s *simplifier) nonstale(q []paintItem) bool {
	for _, it := range q {
		if s.paint[it.c]&paintStale == 0 {
			return true
		}
	}
	return false
}

// paintItem is a commit queued by paintDown: a prio_queue of
// compare_commits_by_gen_then_commit_date pops the highest generation,
// then the newest, then the first pushed.
type paintItem struct {
	c        *Commit
	gen, seq uint64
}

func paintBefore(a, b paintItem) bool {
	switch {
	case a.gen != b.gen:
		return a.gen > b.gen
	case a.c.Time != b.c.Time:
		return a.c.Time > b.c.Time
	}
	return a.seq < b.seq
}
