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

// GraphRows is the commit-graph git would use, read by row (a commit's
// position in the graph), for walks over many commits: a commit's
// parents come with their rows, which git keeps with them, so that only
// the ends of the walk are looked up by name.
type GraphRows interface {
	// PositionAsGit is the row git reads for the commit id (found false
	// where the graph does not hold it).
	PositionAsGit(id oid.ID) (pos uint32, found bool)
	// Row reads the commit at pos: its date, its generation, and its
	// parents' rows appended to parents. found is false where git does
	// not take the commit from the graph (it reads the object); err is
	// git's death reading the row.
	Row(pos uint32, parents []uint32) (date, gen uint64, out []uint32, found bool, err error)
	// ID names the commit at pos.
	ID(pos uint32) (oid.ID, bool)
	// Generation is the generation of the commit at pos.
	Generation(pos uint32) (uint64, bool)
	// CorrectedDates reports whether the generations are corrected
	// commit dates (corrected_commit_dates_enabled).
	CorrectedDates() bool
	// NamesFindRows reports whether every row's name finds that row
	// (PositionAsGit(ID(p)) is p), as in any graph git writes; a long
	// walk then keeps its commits by row.
	NamesFindRows() bool
	// Len is the number of rows.
	Len() int
}

// byRowAfter is the number of commits a merge-base walk parses before
// it keeps its commits, and the resolution its marks, by row (where the
// graph's names find their rows): maps keyed by name, grown to tens of
// thousands of entries, were most of a walk from a tag years back.
// (Variables for the tests, which start at once and check it did.)
var (
	byRowAfter   = 1024
	byRowStarted func()
)

// rowsPerStep: the check that a graph's names find their rows
// (NamesFindRows) reads every name, about 7 ns a row (0.6 ms of a blame
// on git/git's 85,000: HEAD~70 went from 15.9 to 16.6 ms with it), and
// going by row pays it back at about 1.2 us a commit (vim's HEAD~5000,
// 24,000 rows: 12.1 -> 6.2 ms). A walk goes by row only where it is at
// least a rowsPerStep-th of the graph long, paying the check back about
// three times.
const rowsPerStep = 64

// longForRows reports whether a walk of steps commits is long enough
// to go by row in rows (see rowsPerStep).
func longForRows(rows GraphRows, steps int) bool { return steps >= rows.Len()/rowsPerStep }

// rowMarks holds, by commit-graph row, what a long merge-base walk or a
// long ~N has parsed from the graph and made commits of: resolver.parsed
// and resolver.commits for those rows, shared by the resolutions of one
// command's revision arguments as those maps are.
type rowMarks struct {
	rows    GraphRows
	parsed  rowSet
	commits rowSet
}

// rowSet is a set of rows.
type rowSet []uint64

func (s rowSet) add(pos uint32)      { s[pos/64] |= 1 << (pos % 64) }
func (s rowSet) has(pos uint32) bool { return int(pos/64) < len(s) && s[pos/64]&(1<<(pos%64)) != 0 }

// start sizes the sets for rows, once; false where the marks already
// belong to another graph.
func (m *rowMarks) start(rows GraphRows) bool {
	if m.rows == nil {
		m.rows = rows
		n := (rows.Len() + 63) / 64
		m.parsed, m.commits = make(rowSet, n), make(rowSet, n)
	}
	return m.rows == rows
}

// markParsed marks the commit at pos parsed from the graph, and its
// parents (their rows) made commits of.
func (m *rowMarks) markParsed(pos uint32, parents []uint32) {
	m.parsed.add(pos)
	for _, p := range parents {
		m.commits.add(p)
	}
}

// parsedRow is whether git has parsed the commit id from the graph in a
// walk that marked it by row.
func (m *rowMarks) parsedRow(id oid.ID) bool {
	if m == nil || m.rows == nil {
		return false
	}
	pos, ok := m.rows.PositionAsGit(id)
	return ok && m.parsed.has(pos)
}

// commitRow is whether a walk that marked by row has made a commit of
// id.
func (m *rowMarks) commitRow(id oid.ID) bool {
	if m == nil || m.rows == nil {
		return false
	}
	pos, ok := m.rows.PositionAsGit(id)
	return ok && m.commits.has(pos)
}

// noRow is a paintCommit's row where none is known.
const noRow = ^uint32(0)

// paintCommit is a commit as the merge-base walk knows it.
type paintCommit struct {
	id      oid.ID
	row     uint32 // its row in the commit-graph, where it came from one
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
	rows    GraphRows // nil: no commit-graph
	// corrected: the commit-graph has corrected commit dates, which
	// order the walk (corrected_commit_dates_enabled).
	corrected bool
	buf       []uint32
	ids       []oid.ID
	// slab and links hold the commits and their parent lists, a block
	// at a time: a walk from a tag years back parses tens of thousands
	// of commits. blocks are all the slabs.
	slab   []paintCommit
	links  []*paintCommit
	blocks [][]paintCommit
	// byRow holds the commits by row, once the walk has parsed
	// byRowAfter commits and the graph's names find their rows; those
	// it makes from then on are not in commits. marks is then where
	// the resolution's marks go (nil: its maps).
	parses int
	byRow  []*paintCommit
	marks  *rowMarks
}

// newCommit makes the walk's commit of id.
func (w *mergeBaseWalk) newCommit(id oid.ID) *paintCommit {
	if len(w.slab) == cap(w.slab) {
		w.slab = make([]paintCommit, 0, min(max(2*cap(w.slab), 16), 4096))
		w.blocks = append(w.blocks, w.slab)
	}
	w.slab = append(w.slab, paintCommit{id: id, row: noRow, gen: generationInfinity})
	w.blocks[len(w.blocks)-1] = w.slab
	return &w.slab[len(w.slab)-1]
}

// commit is the walk's commit of id (lookup_commit).
func (w *mergeBaseWalk) commit(id oid.ID) *paintCommit {
	c := w.commits[id]
	if c != nil {
		return c
	}
	if w.byRow != nil {
		if pos, ok := w.rows.PositionAsGit(id); ok {
			return w.commitAtRow(pos, id)
		}
	}
	c = w.newCommit(id)
	w.commits[id] = c
	return c
}

// commitAtRow is commit for id, a parent the graph gives at pos, once
// the walk keeps its commits by row.
func (w *mergeBaseWalk) commitAtRow(pos uint32, id oid.ID) *paintCommit {
	if c := w.byRow[pos]; c != nil {
		return c
	}
	c := w.commits[id] // made by name before
	if c == nil {
		c = w.newCommit(id)
	}
	if c.row == noRow {
		c.row = pos
	}
	w.byRow[pos] = c
	return c
}

// counted counts a parse; at byRowAfter (or, in a large graph, a
// rowsPerStep-th of its rows) the walk starts keeping its commits by row
// where it can.
func (w *mergeBaseWalk) counted() {
	w.parses++
	if w.rows == nil || w.parses != max(byRowAfter, w.rows.Len()/rowsPerStep) || !w.rows.NamesFindRows() {
		return
	}
	w.byRow = make([]*paintCommit, w.rows.Len())
	if m := w.res.rowMarks; m != nil && m.start(w.rows) {
		w.marks = m
	}
	if byRowStarted != nil {
		byRowStarted()
	}
}

// parentList returns room for n parents.
func (w *mergeBaseWalk) parentList(n int) []*paintCommit {
	if n > cap(w.links)-len(w.links) {
		w.links = make([]*paintCommit, 0, max(n, 4096))
	}
	l := w.links[len(w.links) : len(w.links)+n : len(w.links)+n]
	w.links = w.links[:len(w.links)+n]
	return l
}

// parse is repo_parse_commit: from the commit-graph where it holds the
// commit (unless git parsed the commit from its object already), else
// from the object; ok false where git's fails, its error line printed
// as git prints it.
func (w *mergeBaseWalk) parse(c *paintCommit) (bool, error) {
	if c.parsed {
		return true, nil
	}
	res := w.res
	w.counted()
	if w.rows != nil && res.parsed[c.id] != parsedObject {
		if ok, err := w.parseRow(c); ok || err != nil {
			return ok, err
		}
	}
	before := res.unreadable
	p, ok, line, err := res.parseCommitObject(c.id)
	if err != nil {
		return false, err
	}
	if !ok {
		if line != "" {
			res.note(line)
		}
		if res.unreadable != nil && res.unreadable != before {
			// A damaged object: repo_parse_commit reads with
			// OBJECT_INFO_DIE_IF_CORRUPT, and git dies there.
			return false, fatalError{res.unreadable}
		}
		return false, nil
	}
	c.parsed, c.date = true, p.date
	c.parents = w.parentList(len(p.parents))
	for i, id := range p.parents {
		c.parents[i] = w.commit(id)
	}
	// (parse_commit_buffer's load_commit_graph_info: the graph's
	// generation for a commit it holds, parsed from its object.)
	if w.rows != nil {
		if pos, found := w.rows.PositionAsGit(c.id); found {
			if gen, ok := w.rows.Generation(pos); ok {
				c.gen = gen
			}
		}
	}
	return true, nil
}

// parseRow parses c from its row of the commit-graph (the row it came
// from as a parent, else its lookup): ok false where the graph does not
// give it (git then reads the object).
func (w *mergeBaseWalk) parseRow(c *paintCommit) (bool, error) {
	pos := c.row
	if pos == noRow {
		var found bool
		if pos, found = w.rows.PositionAsGit(c.id); !found {
			return false, nil
		}
	}
	date, gen, rows, found, err := w.rows.Row(pos, w.buf[:0])
	w.buf = rows
	if err != nil {
		return false, fatalError{err}
	}
	if !found {
		return false, nil
	}
	ids := w.ids[:0]
	for _, p := range rows {
		id, ok := w.rows.ID(p)
		if !ok {
			return false, nil
		}
		ids = append(ids, id)
	}
	w.ids = ids
	if m := w.marks; m != nil {
		m.markParsed(pos, rows)
	} else {
		res := w.res
		res.markParsedFrom(c.id, parsedGraph)
		res.markCommits(ids)
	}
	c.parsed, c.date, c.gen, c.row = true, date, gen, pos
	c.parents = w.parentList(len(ids))
	for i, id := range ids {
		if w.byRow != nil {
			c.parents[i] = w.commitAtRow(rows[i], id)
			continue
		}
		p := w.commit(id)
		if p.row == noRow {
			p.row = rows[i]
		}
		c.parents[i] = p
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
	for _, b := range w.blocks {
		for i := range b {
			b[i].flags, b[i].queued = 0, 0
		}
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
	if f := res.r.CommitGraphRows; f != nil {
		if w.rows = f(); w.rows != nil {
			res.loadGraph()
			w.corrected = w.rows.CorrectedDates()
		}
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
