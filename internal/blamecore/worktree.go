package blamecore

import (
	"errors"
	"fmt"
	"github.com/goblame/goblame/odb"
	"strings"

	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// setupWorkTree builds the pseudo commit that stands for the uncommitted
// file (git's fake_working_tree_commit): null ID, dated now, parents HEAD
// and MERGE_HEAD, authored by "Not Committed Yet".
func (sb *scoreboard) setupWorkTree(req Request) error {
	wt := req.WorkTree
	var parents []*traverse.Commit
	for _, p := range wt.Parents {
		parents = append(parents, sb.hist.commits.Lookup(p))
	}
	c := sb.node(sb.hist.commits.Synthetic(oid.Null(sb.format), oid.Null(sb.format), parents, wt.Time))
	c.Uncommitted = true
	found := false
	for _, tp := range c.tc.Parents {
		p := sb.node(tp)
		// git's lookup_commit_reference: parsed from the object.
		if err := sb.hist.commits.ParseObject(p.tc); err != nil {
			var death *traverse.GraphDeath
			if errors.As(err, &death) {
				return err // git dies reading the graph's data for it
			}
			continue
		}
		mode, id, ok, err := sb.hist.treeEntry(sb.hist.commits.Tree(p.tc), req.Path)
		if err != nil || !ok || object.IsTree(mode) {
			continue
		}
		typ, err := sb.hist.blobType(id, sb.warn)
		var ce *odb.CorruptError
		if errors.As(err, &ce) && ce.Git != nil {
			return err // git dies of what its read found
		}
		if err == nil && typ == object.Blob {
			found = true
			break
		}
	}
	if !found && !wt.InIndex {
		return &PathError{Path: req.Path, WorkTree: true}
	}
	var body strings.Builder
	fmt.Fprintf(&body, "tree %s\n", oid.Null(sb.format))
	for _, p := range c.tc.Parents {
		fmt.Fprintf(&body, "parent %s\n", sb.hist.commits.ID(p))
	}
	ident := fmt.Sprintf("Not Committed Yet <not.committed.yet> %d %s", wt.Time, wt.TZ)
	fmt.Fprintf(&body, "author %s\ncommitter %s\n\nVersion of %s from %s\n", ident, ident, req.Path, wt.Source)
	c.body = []byte(body.String())

	o := sb.makeOrigin(c, req.Path)
	content := wt.Content
	if content == nil {
		content = []byte{}
	}
	o.file = content
	o.blob = oid.HashObject(sb.format, "blob", content)
	o.mode = wt.Mode
	o.blobKnown = true
	sb.final = c
	sb.finalOrigin = o
	sb.index, sb.indexFunc = wt.Index, wt.IndexFunc
	sb.beforeDiff = wt.BeforeDiff
	sb.indexWalk = wt.IndexWalk
	sb.stats.ReadBlobs++
	sb.setFinal(append([]byte(nil), content...))
	return nil
}

// diffTreeToIndex compares a parent tree with the pseudo commit's index
// (git's do_diff_cache): changed paths in path order; all=true lists
// unchanged paths too.
func (sb *scoreboard) diffTreeToIndex(tree oid.ID, all bool) ([]TreeChange, error) {
	files, err := sb.hist.diffTrees(tree, oid.EmptyTree(sb.format), false)
	if err != nil {
		return nil, err
	}
	if sb.index == nil && sb.indexFunc != nil {
		sb.index, sb.indexFunc = sb.indexFunc(sb.finalOrigin.blob), nil
	}
	var out []TreeChange
	i, j := 0, 0
	for i < len(files) || j < len(sb.index) {
		switch {
		case j >= len(sb.index) || (i < len(files) && files[i].Path < sb.index[j].Path):
			f := files[i]
			out = append(out, TreeChange{Path: f.Path, OldMode: f.OldMode, OldID: f.OldID})
			i++
		case i >= len(files) || sb.index[j].Path < files[i].Path:
			x := sb.index[j]
			out = append(out, TreeChange{Path: x.Path, NewMode: x.Mode, NewID: x.ID})
			j++
		default:
			f, x := files[i], sb.index[j]
			if all || f.OldID != x.ID || f.OldMode != x.Mode {
				out = append(out, TreeChange{Path: f.Path, OldMode: f.OldMode, OldID: f.OldID, NewMode: x.Mode, NewID: x.ID})
			}
			i++
			j++
		}
	}
	return out, nil
}

// beforeUncommittedDiff runs WorkTree.BeforeDiff, as each comparison of
// the uncommitted version with a parent must (git's do_diff_cache).
func (sb *scoreboard) beforeUncommittedDiff() error {
	if sb.beforeDiff == nil {
		return nil
	}
	return sb.beforeDiff()
}
