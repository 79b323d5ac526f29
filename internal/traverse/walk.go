package traverse

import (
	"fmt"

	"github.com/goblame/goblame/oid"
)

// PathChanged reports whether the path of key differs between commit and
// its parent number i (0-based), as a tree diff limited to that path
// would find: the entries (mode and ID; a directory's ID covers its whole
// contents) differ, or the path exists on one side only. For a commit
// without parents, it reports whether the path exists (a root is compared
// with the empty tree).
//
// For the first parent the changed-path Bloom filter is asked first; a
// "definitely not" answer skips the tree lookups. Both commits must be
// parsed.
func PathChanged(cs *Commits, ts *Trees, commit *Commit, i int, key *BloomKey) (bool, error) {
	path := key.path
	if len(commit.Parents) == 0 {
		_, _, found, err := ts.Lookup(cs.Tree(commit), path)
		return found, err
	}
	if i < 0 || i >= len(commit.Parents) {
		return false, fmt.Errorf("commit %s has no parent %d", cs.ID(commit), i)
	}
	if i == 0 && !cs.MaybeChangedKey(commit, key) {
		return false, nil
	}
	parent := commit.Parents[i]
	if !parent.parsed {
		return false, fmt.Errorf("parent %s of %s is not parsed", cs.ID(parent), cs.ID(commit))
	}
	tree, parentTree := cs.Tree(commit), cs.Tree(parent)
	if parentTree == tree {
		return false, nil
	}
	m1, id1, ok1, err := ts.Lookup(tree, path)
	if err != nil {
		return false, err
	}
	m2, id2, ok2, err := ts.Lookup(parentTree, path)
	if err != nil {
		return false, err
	}
	if ok1 != ok2 {
		return true, nil
	}
	return ok1 && (m1 != m2 || id1 != id2), nil
}

// Walk is the unlimited date-ordered walk of "git rev-list" (no
// --topo-order, no range): commits come out newest first, ties in the
// order they were found, each after its parents have been queued. With
// FirstParent only first parents are followed. It applies no path
// pruning: every reachable commit is visited, which is the "--full-history"
// view blame needs.
type Walk struct {
	FirstParent bool
	cs          *Commits
	q           Queue
	seen        []bool
}

// NewWalk returns an empty walk over cs.
func NewWalk(cs *Commits) *Walk { return &Walk{cs: cs} }

func (w *Walk) mark(c *Commit) bool {
	if int(c.Index) >= len(w.seen) {
		n := max(int(c.Index)+1, 2*len(w.seen), w.cs.Len())
		w.seen = append(w.seen, make([]bool, n-len(w.seen))...)
	}
	if w.seen[c.Index] {
		return false
	}
	w.seen[c.Index] = true
	return true
}

// Push parses the commit id and queues it as a starting point.
func (w *Walk) Push(id oid.ID) error {
	c, err := w.cs.Get(id)
	if err != nil {
		return err
	}
	if w.mark(c) {
		w.q.Push(c)
	}
	return nil
}

// Next returns the next commit, with its parents parsed, or nil at the
// end.
func (w *Walk) Next() (*Commit, error) {
	c := w.q.Pop()
	if c == nil {
		return nil, nil
	}
	for _, p := range c.Parents {
		if err := w.cs.Parse(p); err != nil {
			return nil, fmt.Errorf("parent %s of %s: %w", w.cs.ID(p), w.cs.ID(c), err)
		}
		if w.mark(p) {
			w.q.Push(p)
		}
		if w.FirstParent {
			break
		}
	}
	return c, nil
}
