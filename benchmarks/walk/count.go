package walk

import (
	"fmt"

	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/oid"
)

// Mode selects which commits Count counts, mirroring git rev-list's
// history simplification for a path.
type Mode int

const (
	// Simplified is "git rev-list HEAD -- PATH": a commit that has a
	// parent with the same PATH follows only the first such parent and is
	// not counted; otherwise it is counted (a root when PATH exists in
	// it) and all its parents are followed.
	Simplified Mode = iota
	// FullHistory is "git rev-list --full-history HEAD -- PATH": every
	// parent is followed; a commit is counted when PATH differs from some
	// parent (a root: when PATH exists in it).
	FullHistory
	// FirstParentChanges walks every commit reachable from head and
	// counts those whose PATH differs from the first parent: the per-commit
	// question blame asks. On a linear history it equals Simplified.
	FirstParentChanges
)

// Count walks the history from head in git's date order and counts the
// commits that change path in the sense of mode. Each first-parent
// comparison asks the commit's changed-path Bloom filter first (when cs
// has a commit-graph with filters) and reads trees only on "maybe".
func Count(cs *traverse.Commits, ts *traverse.Trees, head oid.ID, path []byte, mode Mode) (int, error) {
	key := traverse.NewBloomKey(path)
	c, err := cs.Get(head)
	if err != nil {
		return 0, err
	}
	var q traverse.Queue
	seen := make([]bool, 0, 1024)
	mark := func(c *traverse.Commit) bool {
		for int(c.Index) >= len(seen) {
			seen = append(seen, false)
		}
		if seen[c.Index] {
			return false
		}
		seen[c.Index] = true
		return true
	}
	mark(c)
	q.Push(c)
	count := 0
	for q.Len() > 0 {
		c := q.Pop()
		for _, p := range c.Parents {
			if err := cs.Parse(p); err != nil {
				return 0, fmt.Errorf("parent %s of %s: %w", cs.ID(p), cs.ID(c), err)
			}
		}
		if len(c.Parents) == 0 {
			changed, err := traverse.PathChanged(cs, ts, c, 0, &key)
			if err != nil {
				return 0, err
			}
			if changed {
				count++
			}
			continue
		}
		switch mode {
		case Simplified:
			same := -1
			for i := range c.Parents {
				changed, err := traverse.PathChanged(cs, ts, c, i, &key)
				if err != nil {
					return 0, err
				}
				if !changed {
					same = i
					break
				}
			}
			if same >= 0 {
				if p := c.Parents[same]; mark(p) {
					q.Push(p)
				}
				continue
			}
			count++
		case FullHistory:
			for i := range c.Parents {
				changed, err := traverse.PathChanged(cs, ts, c, i, &key)
				if err != nil {
					return 0, err
				}
				if changed {
					count++
					break
				}
			}
		case FirstParentChanges:
			changed, err := traverse.PathChanged(cs, ts, c, 0, &key)
			if err != nil {
				return 0, err
			}
			if changed {
				count++
			}
		}
		for _, p := range c.Parents {
			if mark(p) {
				q.Push(p)
			}
		}
	}
	return count, nil
}
