package repo

import (
	"github.com/goblame/goblame/internal/binheap"
	"github.com/goblame/goblame/oid"
)

// The merge bases of A...B as git 2.39.5 finds them (commit-reach.c:
// get_merge_bases, merge_bases_many, paint_down_to_common,
// remove_redundant_no_gen). The walk paints commits down from both ends
// in git's order, newest first (by generation, then date, where the
// commit-graph has corrected commit dates; by date otherwise), parsing
// each parent it reaches as repo_parse_commit does, and stops once every
// commit left in its queue is below a common ancestor already found: it
// reads a few commits past the bases, not the history. Where a parse
// fails (a commit missing, or not a commit) git prints its error line
// and finds no merge base at all, so that A...B keeps both ends and no
// exclusion.
//
// remove_redundant, which only runs where the walk finds several bases
// (criss-cross merges), is remove_redundant_no_gen here also where git
// would take remove_redundant_with_gen (a commit-graph with generation
// numbers): the same bases, by another walk, whose error lines in a
// damaged history may differ.

// The flags paint_down_to_common sets on commits.
const (
	paintParent1 uint8 = 1 << iota
	paintParent2
	paintStale
	paintResult
)

// generationInfinity is git's GENERATION_NUMBER_INFINITY: the generation
// of a commit the commit-graph does not hold.
const generationInfinity = ^uint64(0)

// paintCommit is a commit as the merge-base walk knows it.
type paintCommit struct {
	id      oid.ID
	parsed  bool
	flags   uint8
	date    uint64
	gen     uint64
	parents []*paintCommit
	queued  int // the walk's queue entries for it
}

// mergeBaseWalk is the state of one get_merge_bases.
type mergeBaseWalk struct {
	res     *resolver
	commits map[oid.ID]*paintCommit
	// corrected: the commit-graph has corrected commit dates, which
	// order the walk (corrected_commit_dates_enabled).
	corrected bool
}

func (w *mergeBaseWalk) commit(id oid.ID) *paintCommit {
	c := w.commits[id]
	if c == nil {
		c = &paintCommit{id: id, gen: generationInfinity}
		w.commits[id] = c
	}
	return c
}

// parse is repo_parse_commit: ok false where git's fails, its error line
// printed as git prints it.
func (w *mergeBaseWalk) parse(c *paintCommit) (bool, error) {
	if c.parsed {
		return true, nil
	}
	p, ok, line, err := w.res.parseForWalk(c.id)
	if err != nil {
		return false, err
	}
	if !ok {
		if line != "" {
			w.res.note(line)
		}
		return false, nil
	}
	c.parsed, c.date = true, p.date
	c.parents = make([]*paintCommit, len(p.parents))
	for i, id := range p.parents {
		c.parents[i] = w.commit(id)
	}
	if g := w.res.r.CommitGraphGeneration; g != nil {
		if gen, found := g(c.id); found {
			c.gen = gen
		}
	}
	return true, nil
}

// paintEntry is an entry of the walk's queue: git's prio_queue takes
// equal commits in the order they were put.
type paintEntry struct {
	c   *paintCommit
	ctr uint64
}

// paint is paint_down_to_common: the commits found reachable from one
// and from each of twos, by date (commit_list_insert_by_date), as git
// lists them; ok false where a parse failed (git's NULL). minGen is the
// walk's generation floor (0: none).
func (w *mergeBaseWalk) paint(one *paintCommit, twos []*paintCommit, minGen uint64) (result []*paintCommit, ok bool, err error) {
	byGen := minGen != 0 || w.corrected
	first := func(a, b paintEntry) bool {
		if byGen && a.c.gen != b.c.gen {
			return a.c.gen > b.c.gen
		}
		if a.c.date != b.c.date {
			return a.c.date > b.c.date
		}
		return a.ctr < b.ctr
	}
	var queue []paintEntry
	var ctr uint64
	nonstale := 0 // queue entries of commits not stale (queue_has_nonstale)
	put := func(c *paintCommit) {
		queue = binheap.Push(queue, paintEntry{c, ctr}, first)
		ctr++
		c.queued++
		if c.flags&paintStale == 0 {
			nonstale++
		}
	}
	mark := func(c *paintCommit, f uint8) {
		if c.flags&paintStale == 0 && f&paintStale != 0 {
			nonstale -= c.queued
		}
		c.flags |= f
	}
	mark(one, paintParent1)
	if len(twos) == 0 {
		return []*paintCommit{one}, true, nil
	}
	put(one)
	for _, t := range twos {
		mark(t, paintParent2)
		put(t)
	}
	for nonstale > 0 {
		var e paintEntry
		queue, e = binheap.Pop(queue, first)
		c := e.c
		c.queued--
		if c.flags&paintStale == 0 {
			nonstale--
		}
		if c.gen < minGen {
			break
		}
		flags := c.flags & (paintParent1 | paintParent2 | paintStale)
		if flags == paintParent1|paintParent2 {
			if c.flags&paintResult == 0 {
				c.flags |= paintResult
				result = insertByDate(result, c)
			}
			// The parents of a common commit are stale.
			flags |= paintStale
		}
		for _, p := range c.parents {
			if p.flags&flags == flags {
				continue
			}
			if ok, err := w.parse(p); err != nil || !ok {
				return nil, false, err
			}
			mark(p, flags)
			put(p)
		}
	}
	return result, true, nil
}

// clearFlags is clear_commit_marks on everything the walk has marked.
func (w *mergeBaseWalk) clearFlags() {
	for _, c := range w.commits {
		c.flags, c.queued = 0, 0
	}
}

// removeRedundant is remove_redundant_no_gen: cands without those another
// of them reaches, in their order.
func (w *mergeBaseWalk) removeRedundant(cands []*paintCommit) ([]*paintCommit, error) {
	for _, c := range cands {
		if _, err := w.parse(c); err != nil {
			return nil, err
		}
	}
	redundant := make([]bool, len(cands))
	for i, c := range cands {
		if redundant[i] {
			continue
		}
		minGen := c.gen
		var work []*paintCommit
		var at []int
		for j, d := range cands {
			if i == j || redundant[j] {
				continue
			}
			work, at = append(work, d), append(at, j)
			minGen = min(minGen, d.gen)
		}
		if _, _, err := w.paint(c, work, minGen); err != nil {
			return nil, err
		}
		if c.flags&paintParent2 != 0 {
			redundant[i] = true
		}
		for k, d := range work {
			if d.flags&paintParent1 != 0 {
				redundant[at[k]] = true
			}
		}
		w.clearFlags()
	}
	var out []*paintCommit
	for i, c := range cands {
		if !redundant[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// insertByDate is commit_list_insert_by_date: c after every commit of
// list as new as it or newer.
func insertByDate(list []*paintCommit, c *paintCommit) []*paintCommit {
	i := 0
	for i < len(list) && list[i].date >= c.date {
		i++
	}
	list = append(list, nil)
	copy(list[i+1:], list[i:])
	list[i] = c
	return list
}

// mergeBases is get_merge_bases(a, b): the best common ancestors of a
// and b in git's order, none where git's walk fails to parse a commit
// (its error line printed).
func (res *resolver) mergeBases(a, b oid.ID) ([]oid.ID, error) {
	if a == b {
		return []oid.ID{a}, nil
	}
	w := &mergeBaseWalk{res: res, commits: map[oid.ID]*paintCommit{}}
	if f := res.r.CommitGraphCorrectedDates; f != nil {
		w.corrected = f()
	}
	one, two := w.commit(a), w.commit(b)
	for _, c := range []*paintCommit{one, two} {
		if ok, err := w.parse(c); err != nil || !ok {
			return nil, err
		}
	}
	list, ok, err := w.paint(one, []*paintCommit{two}, 0)
	if err != nil || !ok {
		return nil, err
	}
	var result []*paintCommit
	for _, c := range list {
		if c.flags&paintStale == 0 {
			result = insertByDate(result, c)
		}
	}
	if len(result) > 1 {
		w.clearFlags()
		independent, err := w.removeRedundant(result)
		if err != nil {
			return nil, err
		}
		result = nil
		for _, c := range independent {
			result = insertByDate(result, c)
		}
	}
	ids := make([]oid.ID, len(result))
	for i, c := range result {
		ids[i] = c.id
	}
	return ids, nil
}

// parseForWalk is repo_parse_commit of the commit id for a walk: from
// wherever git parsed it already, else from the commit-graph where it
// holds id, else from the object (parseCommitObject, whose error line
// it returns).
func (res *resolver) parseForWalk(id oid.ID) (commitParse, bool, string, error) {
	switch res.parsed[id] {
	case parsedObject:
		return res.parseCommitObject(id)
	case notParsed:
		if res.r.CommitGraphParents == nil {
			return res.parseCommitObject(id)
		}
	}
	res.loadGraph()
	if res.r.CommitGraphParents != nil {
		parents, ok, err := res.r.CommitGraphParents(id)
		if err != nil {
			return commitParse{}, false, "", fatalError{err}
		}
		if ok {
			var date uint64
			if t := res.r.CommitGraphTime; t != nil {
				if date, _, err = t(id); err != nil {
					return commitParse{}, false, "", fatalError{err}
				}
			}
			res.markParsedFrom(id, parsedGraph)
			res.markCommits(parents)
			return commitParse{parents: parents, date: date}, true, "", nil
		}
	}
	return res.parseCommitObject(id)
}
