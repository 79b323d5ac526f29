package traverse

import (
	"errors"
	"fmt"
	"slices"

	"github.com/goblame/goblame/oid"
)

// Flags of the revision walk (the object flags of git's revision.h that
// blame's walk depends on).
const (
	flagUninteresting uint8 = 1 << iota
	flagBottom
	flagSeen
	flagAdded
	// flagAncestryPath is ANCESTRY_PATH: on a commit --ancestry-path=<commit>
	// named, passed from each interesting commit of the limiting pass to
	// its parents (so on the named commits' ancestors there).
	flagAncestryPath
	// flagTmp is TMP_MARK, limitToAncestry's mark of the bottoms and the
	// commits that reach one.
	flagTmp
	// flagTreesame is TREESAME: a commit that changes nothing, under
	// --simplify-by-decoration (simplify.go).
	flagTreesame
)

// ErrNoAncestryBottoms is git's death when --ancestry-path (without a
// commit) has no range bottom to take the commits from.
var ErrNoAncestryBottoms = errors.New("--ancestry-path given but there are no bottom commits")

// slop is revision.c's SLOP: how many more uninteresting commits
// limit_list looks at once only uninteresting ones are left.
const slop = 5

// ErrNotOnFirstParentChain is returned by SetFirstParentChildren when the
// start commit is not on the end commit's first-parent chain (git: "--reverse
// --first-parent together require range along first-parent chain").
var ErrNotOnFirstParentChain = errors.New("--reverse --first-parent together require range along first-parent chain")

// Tip is one revision given to the walk, in command-line order: A..B is
// {A, Uninteresting} then {B}; ^A and --not mark Uninteresting. Tags must
// already be peeled to commits.
type Tip struct {
	ID            oid.ID
	Uninteresting bool
	// Commit, when set, is used instead of looking ID up: a commit made
	// by Commits.Synthetic (blame's working-tree commit, which git adds
	// to the pending revisions as ":") can be a tip like any other.
	Commit *Commit
	// FromObject: the revision parsed the commit from its object, not
	// the commit-graph (Commits.ParseObject): an end of a range, a
	// commit named through a tag.
	FromObject bool
	// NotBottom: an uninteresting tip that is no bottom of the walk, as
	// git's bottoms are the exclusions of the command line (BOTTOM)
	// and blame's "--reverse ONE", taken for ONE..HEAD, marks ONE
	// UNINTERESTING alone (dwim_reverse_initial): --ancestry-path
	// finds no bottom in it, and the merges' simplification does not
	// keep it as relevant.
	NotBottom bool
}

// LimitOptions are the revision options that shape the walk's marking.
type LimitOptions struct {
	// FirstParent follows only first parents from interesting commits
	// (--first-parent). Uninteresting marks still spread to all parents,
	// as in git.
	FirstParent bool
	// ExcludeFirstParentOnly spreads UNINTERESTING to first parents
	// only (--exclude-first-parent-only: git's mark_parents_uninteresting
	// and process_parents then stop after the first), here and in the
	// walk's MarkParentsUninteresting after.
	ExcludeFirstParentOnly bool
	// Since, when HasSince is set, makes commits whose Time is below it
	// uninteresting (--since, --after, --max-age; git's max_age).
	Since    uint64
	HasSince bool
	// Until, when HasUntil is set, leaves commits whose Time is above it
	// out of the limited list (--until, --before, --min-age; git's
	// min_age), and so out of the children lists made from it.
	Until    uint64
	HasUntil bool
	// SinceFilter, when HasSinceFilter is set, leaves commits whose Time
	// is below it out of the limited list, as Until does those above
	// its own (--since-as-filter: git's max_age_as_filter).
	SinceFilter    uint64
	HasSinceFilter bool
	// Children builds children lists from the limited list as git's
	// set_children does (blame --reverse, which git runs as --children).
	// It also forces the limiting pass, as --children does in git.
	Children bool
	// AncestryPath (--ancestry-path) and AncestryBottoms
	// (--ancestry-path=<commit>) keep, of the limiting pass's commits,
	// those on an ancestry path of a bottom: the bottoms themselves,
	// their descendants, and their ancestors the pass reached through
	// interesting commits; the others become UNINTERESTING (revision.c's
	// limit_to_ancestry). The bottoms are AncestryBottoms, and with
	// AncestryPath the uninteresting tips too (none: ErrNoAncestryBottoms).
	// Either forces the limiting pass.
	AncestryPath    bool
	AncestryBottoms []AncestryBottom
	// Limited forces the limiting pass (git's revs->limited, which other
	// revision options set).
	Limited bool
	// NoWalk is --no-walk: git's prepare_revision_walk parses the tips
	// (an uninteresting one marks its parents) and returns, so that
	// nothing above is made, whatever the options: no limiting pass (no
	// ancestry path, and no death for want of a bottom), no sort, no
	// simplification, no children lists (a --reverse blame finds no
	// child to pass blame to), no topological walk.
	NoWalk bool
	// Parsed are objects git parsed before the walk's preparation, as it
	// resolved the revisions (FromObject: from their objects, else from
	// the commit-graph where it holds them; what is no commit is passed
	// over). With NoWalk they are parsed first, so that a --reverse
	// --first-parent blame's chain (SetFirstParentChildren) goes through
	// them as git's does, and stops at a commit git did not parse.
	Parsed []Tip
	// Sort sorts the limiting pass's commits as git's
	// sort_in_topological_order does (--topo-order and its kin), before
	// the simplification and the children lists; AuthorDate gives the
	// author date it sorts by under SortAuthorDate.
	Sort       TopoSort
	AuthorDate func(*Commit) uint64
	// TopoWalk is --topo-order (or its kin, or --graph) where the
	// commit-graph gives generation numbers: git then does not limit the
	// walk for a range's bottoms, and prepares its topological walk
	// instead (init_topo_walk, topowalk.go), which spreads UNINTERESTING
	// only down to the lowest generation of the revisions.
	TopoWalk bool
	// SimplifyByDecoration (--simplify-by-decoration) rewrites the
	// parents of the commits of the limiting pass as git's
	// simplify_merges does, where a commit changes something if
	// Decorated says a ref names it and a root commit if EmptyTree says
	// its tree holds a file (simplify.go); it forces the limiting pass.
	// Blame then follows the rewritten Commit.Parents.
	SimplifyByDecoration bool
	Decorated            func(*Commit) (bool, error)
	EmptyTree            func(*Commit) (bool, error)
	// Sparse (--sparse) makes every commit with one parent change
	// something under SimplifyByDecoration (git's dense off).
	Sparse bool
}

// WalkSetupError is a parent of an interesting commit that the limiting
// pass cannot parse: git reports the parse's error (Err) and dies
// "revision walk setup failed".
type WalkSetupError struct {
	Parent oid.ID
	Err    error
}

func (e *WalkSetupError) Error() string { return "revision walk setup failed" }

func (e *WalkSetupError) Unwrap() error { return e.Err }

// AncestryBottom is a commit --ancestry-path=<commit> named.
type AncestryBottom struct {
	Commit *Commit
	// Named is set when the name was the commit's own, not a tag's: git
	// flags the object named, so the ancestors of a commit named through
	// a tag are not on its ancestry path (only the commit and its
	// descendants are).
	Named bool
}

// Marks is the state of a revision walk after git's
// prepare_revision_walk: which commits are UNINTERESTING, the limited
// list, and children lists. Blame keeps using it while it walks: a commit
// is a boundary if it is uninteresting when popped, and blame marks
// commits (and their parents) uninteresting as it goes.
//
// Marks are keyed by Commit.Index, so a Marks belongs to one Commits.
type Marks struct {
	commits  *Commits
	flags    []uint8
	children [][]*Commit
	list     []*Commit
	limited  bool
	// firstParentOnly is LimitOptions.ExcludeFirstParentOnly.
	firstParentOnly bool
}

// NewMarks returns empty marks for the commits of cs: nothing is
// uninteresting. Limit is the usual constructor.
func NewMarks(cs *Commits) *Marks { return &Marks{commits: cs} }

func (m *Marks) get(c *Commit) uint8 {
	if int(c.Index) < len(m.flags) {
		return m.flags[c.Index]
	}
	return 0
}

func (m *Marks) clear(c *Commit, f uint8) {
	if int(c.Index) < len(m.flags) {
		m.flags[c.Index] &^= f
	}
}

func (m *Marks) set(c *Commit, f uint8) {
	if int(c.Index) >= len(m.flags) {
		n := max(int(c.Index)+1, 2*len(m.flags), m.commits.Len())
		m.flags = slices.Grow(m.flags, n-len(m.flags))[:n]
	}
	m.flags[c.Index] |= f
}

// Uninteresting reports whether c carries git's UNINTERESTING flag.
func (m *Marks) Uninteresting(c *Commit) bool { return m.get(c)&flagUninteresting != 0 }

// SetUninteresting marks c UNINTERESTING (and nothing else).
func (m *Marks) SetUninteresting(c *Commit) { m.set(c, flagUninteresting) }

// Limited reports whether the limiting pass (git's limit_list) ran: there
// was an uninteresting tip, or Children was asked for.
func (m *Marks) Limited() bool { return m.limited }

// List returns the commits that survived the limiting pass, in the order
// git's limit_list produced them (newest first, by date then discovery),
// which is also the order "git rev-list" prints for the same revisions.
// It is nil when the pass did not run.
func (m *Marks) List() []*Commit { return m.list }

// Children returns c's children as git's children decoration holds them:
// for set_children, the reverse of the order in which List's commits name
// c as a parent.
func (m *Marks) Children(c *Commit) []*Commit {
	if int(c.Index) < len(m.children) {
		return m.children[c.Index]
	}
	return nil
}

// MarkParentsUninteresting is revision.c's mark_parents_uninteresting:
// c's parents become UNINTERESTING, and so, transitively, do the parents
// of those already parsed (an unparsed commit has no parent list yet). A
// commit already UNINTERESTING stops the spread.
func (m *Marks) MarkParentsUninteresting(c *Commit) {
	var stack []*Commit
	parents := func(c *Commit) []*Commit {
		if m.firstParentOnly && len(c.Parents) > 1 {
			return c.Parents[:1]
		}
		return c.Parents
	}
	markOne := func(p *Commit) {
		if m.get(p)&flagUninteresting != 0 {
			return
		}
		m.set(p, flagUninteresting)
		stack = append(stack, parents(p)...)
	}
	for _, p := range parents(c) {
		markOne(p)
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		markOne(p)
	}
}

// Limit prepares a revision walk the way git's prepare_revision_walk does
// for blame: every tip is parsed in order and an uninteresting tip marks
// its parents uninteresting; then (not with opts.NoWalk), if any tip is
// uninteresting or opts.Children or an ancestry path is set, the limiting pass
// (limit_list) walks the history in date order, spreading UNINTERESTING
// to parents until only uninteresting commits remain (plus revision.c's
// slop of five), and records the surviving commits (of which, with an
// ancestry path, those off it become uninteresting); finally, with
// opts.Children, children lists are built from them.
//
// The spread depends on which commits are parsed, as in git: a commit
// counts as parsed once Parse (or Get) has filled it. Calling Get on
// commits git would not have parsed yet, before or during the walk, can
// therefore change which commits end up UNINTERESTING; call Parse where
// git calls parse_commit.
func Limit(cs *Commits, tips []Tip, opts LimitOptions) (*Marks, error) {
	m := NewMarks(cs)
	m.firstParentOnly = opts.ExcludeFirstParentOnly
	// (git parses and flags --ancestry-path=<commit> as it reads the
	// option, before the revision words.)
	for _, b := range opts.AncestryBottoms {
		if err := cs.Parse(b.Commit); err != nil {
			return nil, fmt.Errorf("unable to parse commit %s: %w", cs.ID(b.Commit), err)
		}
		if b.Named {
			m.set(b.Commit, flagAncestryPath)
		}
	}
	if opts.NoWalk {
		for _, t := range opts.Parsed {
			parse := cs.Parse
			if t.FromObject {
				parse = cs.ParseObject
			}
			if c := cs.Lookup(t.ID); c != nil {
				parse(c) // (an object that is no commit stays unparsed)
			}
		}
	}
	commits := make([]*Commit, len(tips))
	for i, t := range tips {
		c := t.Commit
		if c == nil {
			c = cs.Lookup(t.ID)
		}
		commits[i] = c
		if t.Uninteresting {
			if t.NotBottom {
				m.set(c, flagUninteresting)
			} else {
				m.set(c, flagUninteresting|flagBottom)
			}
		}
	}
	limited := opts.Children || opts.AncestryPath || len(opts.AncestryBottoms) > 0 || opts.SimplifyByDecoration || opts.Limited
	var start []*Commit
	for i, c := range commits {
		parse := cs.Parse
		if tips[i].FromObject {
			parse = cs.ParseObject
		}
		if err := parse(c); err != nil {
			return nil, fmt.Errorf("unable to parse commit %s: %w", cs.ID(c), err)
		}
		if m.Uninteresting(c) {
			m.MarkParentsUninteresting(c)
			if !opts.TopoWalk {
				limited = true
			}
		}
		if m.get(c)&flagSeen == 0 {
			m.set(c, flagSeen)
			start = append(start, c)
		}
	}
	if opts.NoWalk {
		return m, nil
	}
	if !limited {
		if opts.TopoWalk {
			m.initTopoWalk(start, &opts)
		}
		return m, nil
	}
	m.limited = true
	if err := m.limitList(start, &opts); err != nil {
		return nil, err
	}
	if opts.Sort != NoTopoSort {
		m.list = m.sortTopo(m.list, &opts)
	}
	if opts.SimplifyByDecoration {
		if err := m.simplifyMerges(opts.FirstParent); err != nil {
			return nil, err
		}
	}
	if opts.Children {
		m.setChildren()
	}
	return m, nil
}

// limitList is revision.c's limit_list. The date-sorted commit list git
// uses is a queue ordered by date with insertion order breaking ties
// (commit_list_insert_by_date inserts after equal dates, and the initial
// list is sorted stably), which is exactly Queue.
func (m *Marks) limitList(start []*Commit, opts *LimitOptions) error {
	var bottoms []*Commit
	if opts.AncestryPath || len(opts.AncestryBottoms) > 0 {
		for _, b := range opts.AncestryBottoms {
			bottoms = append(bottoms, b.Commit)
		}
		if opts.AncestryPath {
			for _, c := range start {
				if m.get(c)&flagBottom != 0 {
					bottoms = append(bottoms, c)
				}
			}
			if len(bottoms) == 0 {
				return ErrNoAncestryBottoms
			}
		}
	}
	var q Queue
	for _, c := range start {
		q.Push(c)
	}
	date := ^uint64(0)
	slopLeft := slop
	var interesting *Commit // revision.c's interesting_cache
	for q.Len() > 0 {
		c := q.Pop()
		if c == interesting {
			interesting = nil
		}
		if opts.HasSince && c.Time < opts.Since {
			m.set(c, flagUninteresting)
		}
		if err := m.processParents(c, &q, opts); err != nil {
			return err
		}
		if m.Uninteresting(c) {
			m.MarkParentsUninteresting(c)
			slopLeft = m.stillInteresting(&q, date, slopLeft, &interesting)
			if slopLeft > 0 {
				continue
			}
			break
		}
		if opts.HasUntil && c.Time > opts.Until {
			continue
		}
		if opts.HasSinceFilter && c.Time < opts.SinceFilter {
			continue
		}
		date = c.Time
		m.list = append(m.list, c)
	}
	if bottoms != nil {
		m.limitToAncestry(bottoms)
	}
	return nil
}

// limitToAncestry is revision.c's limit_to_ancestry: the commits of the
// list that are neither a bottom's descendants (flagTmp, spread from the
// bottoms to every interesting commit of the list with a marked parent,
// until nothing changes) nor marked flagAncestryPath become
// UNINTERESTING. Both marks are then taken off the list and the bottoms.
func (m *Marks) limitToAncestry(bottoms []*Commit) {
	for _, b := range bottoms {
		m.set(b, flagTmp)
	}
	for progress := true; progress; {
		progress = false
		// Oldest first, as git goes: parents mostly before children.
		for i := len(m.list) - 1; i >= 0; i-- {
			c := m.list[i]
			if m.get(c)&(flagTmp|flagUninteresting) != 0 {
				continue
			}
			for _, p := range c.Parents {
				if m.get(p)&flagTmp != 0 {
					m.set(c, flagTmp)
					progress = true
					break
				}
			}
		}
	}
	for _, c := range m.list {
		if m.get(c)&(flagTmp|flagAncestryPath) == 0 {
			m.set(c, flagUninteresting)
		}
	}
	for _, c := range m.list {
		m.clear(c, flagTmp|flagAncestryPath)
	}
	for _, b := range bottoms {
		m.clear(b, flagTmp|flagAncestryPath)
	}
}

// processParents is revision.c's process_parents; its path pruning is
// --simplify-by-decoration's (tryToSimplify).
func (m *Marks) processParents(c *Commit, q *Queue, opts *LimitOptions) error {
	cs := m.commits
	if m.get(c)&flagAdded != 0 {
		return nil
	}
	m.set(c, flagAdded)
	if m.Uninteresting(c) {
		for _, p := range c.Parents {
			m.set(p, flagUninteresting)
			if err := cs.Parse(p); err != nil {
				if diesInRead(err) {
					return err // git's parse_commit_gently dies of it
				}
				// Missing history below a boundary is fine; a pack git
				// cannot use is reported at the lookup, an object of
				// another type as repo_parse_commit reports it, at each
				// child that asks.
				cs.reportLookup(err)
				if errors.Is(err, ErrNotCommit) && cs.warn != nil {
					cs.warn("error: Object " + cs.ID(p).String() + " not a commit")
				}
				continue
			}
			if len(p.Parents) > 0 {
				m.MarkParentsUninteresting(p)
			}
			if m.get(p)&flagSeen != 0 {
				continue
			}
			m.set(p, flagSeen)
			if q != nil {
				q.Push(p)
			}
			if m.firstParentOnly {
				break
			}
		}
		return nil
	}
	if opts.SimplifyByDecoration {
		if err := m.tryToSimplify(c, opts); err != nil {
			return err
		}
	}
	// An interesting commit passes ANCESTRY_PATH on to its parents.
	pass := m.get(c) & flagAncestryPath
	for _, p := range c.Parents {
		if err := cs.Parse(p); err != nil {
			return &WalkSetupError{Parent: cs.ID(p), Err: err}
		}
		if pass != 0 {
			m.set(p, pass)
		}
		if m.get(p)&flagSeen == 0 {
			m.set(p, flagSeen)
			if q != nil {
				q.Push(p)
			}
		}
		if opts.FirstParent {
			break
		}
	}
	return nil
}

// stillInteresting is revision.c's still_interesting.
func (m *Marks) stillInteresting(q *Queue, date uint64, slopLeft int, interesting **Commit) int {
	if q.Len() == 0 {
		return 0
	}
	if date <= q.Peek().Time {
		return slop
	}
	if !m.everybodyUninteresting(q, interesting) {
		return slop
	}
	return slopLeft - 1
}

func (m *Marks) everybodyUninteresting(q *Queue, interesting **Commit) bool {
	if c := *interesting; c != nil && !m.Uninteresting(c) {
		return false
	}
	all := true
	q.each(func(c *Commit) bool {
		if m.Uninteresting(c) {
			return true
		}
		*interesting = c
		all = false
		return false
	})
	return all
}

// setChildren is revision.c's set_children: each commit of the list is
// prepended to the children of each of its parents. The lists are carved
// from one array: a first pass counts each parent's children, a second
// fills each list from its end, which gives prepend order.
func (m *Marks) setChildren() {
	n := m.commits.Len()
	counts := make([]int32, n)
	total := 0
	for _, c := range m.list {
		for _, p := range c.Parents {
			counts[p.Index]++
			total++
		}
	}
	backing := make([]*Commit, total)
	m.children = make([][]*Commit, n)
	off := 0
	for i, k := range counts {
		if k > 0 {
			m.children[i] = backing[off : off+int(k) : off+int(k)]
			off += int(k)
		}
	}
	for _, c := range m.list {
		for _, p := range c.Parents {
			counts[p.Index]--
			m.children[p.Index][counts[p.Index]] = c
		}
	}
}

// SetFirstParentChildren builds the children lists blame uses for
// --reverse --first-parent: walking end's first-parent chain down to
// start, each commit becomes the only child of its first parent. Any
// children lists built by Limit are discarded first (git does not run
// set_children in that mode). It fails with ErrNotOnFirstParentChain when
// the chain does not reach start.
func (m *Marks) SetFirstParentChildren(end, start *Commit) error {
	m.children = make([][]*Commit, m.commits.Len())
	c := end
	for len(c.Parents) > 0 && c != start {
		p := c.Parents[0]
		if int(p.Index) >= len(m.children) {
			m.children = append(m.children, make([][]*Commit, int(p.Index)+1-len(m.children))...)
		}
		if m.children[p.Index] != nil {
			return fmt.Errorf("commit %s appears twice in the first-parent chain of %s", m.commits.ID(p), m.commits.ID(end))
		}
		m.children[p.Index] = []*Commit{c}
		c = p
	}
	if c != start {
		return ErrNotOnFirstParentChain
	}
	return nil
}

// diesInRead reports a read error git dies of wherever it reads the
// object, even where a missing object would be passed over: a damaged
// object (odb.CorruptError with git's failure).
func diesInRead(err error) bool {
	var d interface{ DiesInRead() bool }
	return errors.As(err, &d) && d.DiesInRead()
}
