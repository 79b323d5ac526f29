package blame

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// ObjectReader is what blame needs from the object database: whole
// objects by ID. *odb.Reader implements it.
type ObjectReader interface {
	// Read appends the object's content to dst[:0].
	Read(id oid.ID, dst []byte) (object.Type, []byte, error)
	// ReadCached returns shared, immutable bytes of an object that is
	// likely to be read again (commits, trees).
	ReadCached(id oid.ID) (object.Type, []byte, error)
}

// History supplies commits, trees and blobs to the blame walk. The
// default implementation reads objects through an ObjectReader; a
// faster one can answer from a commit-graph and Bloom filters.
type History interface {
	// Commit returns a commit's root tree, parents and committer date.
	Commit(id oid.ID) (tree oid.ID, parents []oid.ID, date uint64, err error)
	// CommitBody returns the raw commit object.
	CommitBody(id oid.ID) ([]byte, error)
	// TreeEntry looks up a slash-separated path from a root tree.
	TreeEntry(tree oid.ID, path string) (mode uint32, id oid.ID, found bool, err error)
	// MaybeChanged answers from a changed-path Bloom filter whether any
	// of paths may differ between commit and its first parent. It returns
	// true when it cannot tell.
	MaybeChanged(commit oid.ID, paths []string) bool
	// Blob reads a blob's content into dst[:0].
	Blob(id oid.ID, dst []byte) ([]byte, error)
	// DiffTrees lists the differences between two trees, recursively, in
	// git's order (diff-tree -r without rename detection). all=true also
	// lists unchanged files (find-copies-harder).
	DiffTrees(a, b oid.ID, all bool) ([]TreeChange, error)
	// ObjectType returns an object's type (for "is this path a blob").
	ObjectType(id oid.ID) (object.Type, error)
}

// TreeChange is one file-level difference between two trees. A zero
// OldMode means the file is absent on that side, likewise NewMode.
type TreeChange struct {
	Path             string
	OldMode, NewMode uint32
	OldID, NewID     oid.ID
}

// errNotBlob reports a path that names something other than a blob.
var errNotBlob = errors.New("not a blob")

// objectHistory implements History over an ObjectReader alone.
type objectHistory struct {
	rd     ObjectReader
	format oid.Format
	// commits caches parsed commit headers by ID.
	commits map[oid.ID]*parsedCommit
}

type parsedCommit struct {
	tree    oid.ID
	parents []oid.ID
	date    uint64
}

// NewObjectHistory returns a History that parses commits and trees from
// objects read through rd.
func NewObjectHistory(rd ObjectReader, format oid.Format) History {
	return &objectHistory{rd: rd, format: format, commits: make(map[oid.ID]*parsedCommit)}
}

func (h *objectHistory) Commit(id oid.ID) (oid.ID, []oid.ID, uint64, error) {
	if pc, ok := h.commits[id]; ok {
		return pc.tree, pc.parents, pc.date, nil
	}
	typ, body, err := h.rd.ReadCached(id)
	if err != nil {
		return oid.ID{}, nil, 0, err
	}
	if typ != object.Commit {
		return oid.ID{}, nil, 0, fmt.Errorf("object %s is a %s, not a commit", id, typ)
	}
	var info object.CommitInfo
	if err := object.ParseCommit(h.format, body, &info); err != nil {
		return oid.ID{}, nil, 0, fmt.Errorf("commit %s: %w", id, err)
	}
	pc := &parsedCommit{tree: info.Tree, parents: append([]oid.ID(nil), info.Parents...), date: info.CommitTime}
	h.commits[id] = pc
	return pc.tree, pc.parents, pc.date, nil
}

func (h *objectHistory) CommitBody(id oid.ID) ([]byte, error) {
	typ, body, err := h.rd.ReadCached(id)
	if err != nil {
		return nil, err
	}
	if typ != object.Commit {
		return nil, fmt.Errorf("object %s is a %s, not a commit", id, typ)
	}
	return body, nil
}

func (h *objectHistory) TreeEntry(tree oid.ID, path string) (uint32, oid.ID, bool, error) {
	cur := tree
	mode := object.ModeTree
	for path != "" {
		if !object.IsTree(mode) {
			return 0, oid.ID{}, false, nil
		}
		name := path
		rest := ""
		if i := strings.IndexByte(path, '/'); i >= 0 {
			name, rest = path[:i], path[i+1:]
		}
		if name == "" {
			return 0, oid.ID{}, false, nil
		}
		body, err := h.treeBody(cur)
		if err != nil {
			return 0, oid.ID{}, false, err
		}
		e, found, err := object.FindEntry(h.format, body, []byte(name))
		if err != nil {
			return 0, oid.ID{}, false, fmt.Errorf("tree %s: %w", cur, err)
		}
		if !found {
			return 0, oid.ID{}, false, nil
		}
		mode, cur, path = e.Mode, e.ID, rest
	}
	return mode, cur, true, nil
}

func (h *objectHistory) treeBody(id oid.ID) ([]byte, error) {
	if id == oid.EmptyTree(h.format) {
		return nil, nil
	}
	typ, body, err := h.rd.ReadCached(id)
	if err != nil {
		return nil, err
	}
	if typ != object.Tree {
		return nil, fmt.Errorf("object %s is a %s, not a tree", id, typ)
	}
	return body, nil
}

func (h *objectHistory) MaybeChanged(oid.ID, []string) bool { return true }

func (h *objectHistory) Blob(id oid.ID, dst []byte) ([]byte, error) {
	typ, data, err := h.rd.Read(id, dst)
	if err != nil {
		return nil, err
	}
	if typ != object.Blob {
		return nil, fmt.Errorf("object %s: %w", id, errNotBlob)
	}
	return data, nil
}

func (h *objectHistory) ObjectType(id oid.ID) (object.Type, error) {
	typ, _, err := h.rd.ReadCached(id)
	return typ, err
}

func (h *objectHistory) DiffTrees(a, b oid.ID, all bool) ([]TreeChange, error) {
	var out []TreeChange
	err := h.diffTrees(a, b, "", all, &out)
	return out, err
}

// diffTrees merges the sorted entry lists of two trees, recursing into
// subtrees, as git's tree-diff does.
func (h *objectHistory) diffTrees(a, b oid.ID, prefix string, all bool, out *[]TreeChange) error {
	var abody, bbody []byte
	var err error
	if !a.IsZero() {
		if abody, err = h.treeBody(a); err != nil {
			return err
		}
	}
	if !b.IsZero() {
		if bbody, err = h.treeBody(b); err != nil {
			return err
		}
	}
	ai := object.NewTreeIter(h.format, abody)
	bi := object.NewTreeIter(h.format, bbody)
	var ae, be object.TreeEntry
	aok, bok := ai.Next(&ae), bi.Next(&be)
	for aok || bok {
		var c int
		switch {
		case !aok:
			c = 1
		case !bok:
			c = -1
		default:
			c = object.CompareEntryNames(ae.Name, object.IsTree(ae.Mode), be.Name, object.IsTree(be.Mode))
		}
		switch {
		case c < 0:
			if err := h.emitSide(prefix, ae, true, all, out); err != nil {
				return err
			}
			aok = ai.Next(&ae)
		case c > 0:
			if err := h.emitSide(prefix, be, false, all, out); err != nil {
				return err
			}
			bok = bi.Next(&be)
		default:
			path := prefix + string(ae.Name)
			aTree, bTree := object.IsTree(ae.Mode), object.IsTree(be.Mode)
			switch {
			case aTree && bTree:
				if ae.ID != be.ID || all {
					if err := h.diffTrees(ae.ID, be.ID, path+"/", all, out); err != nil {
						return err
					}
				}
			case aTree:
				if err := h.emitSide(prefix, ae, true, all, out); err != nil {
					return err
				}
				*out = append(*out, TreeChange{Path: path, NewMode: be.Mode, NewID: be.ID})
			case bTree:
				*out = append(*out, TreeChange{Path: path, OldMode: ae.Mode, OldID: ae.ID})
				if err := h.emitSide(prefix, be, false, all, out); err != nil {
					return err
				}
			default:
				if ae.ID != be.ID || ae.Mode != be.Mode || all {
					*out = append(*out, TreeChange{Path: path, OldMode: ae.Mode, OldID: ae.ID, NewMode: be.Mode, NewID: be.ID})
				}
			}
			aok, bok = ai.Next(&ae), bi.Next(&be)
		}
	}
	if err := ai.Err(); err != nil {
		return err
	}
	return bi.Err()
}

// emitSide reports an entry present on one side only, recursing into a
// whole subtree.
func (h *objectHistory) emitSide(prefix string, e object.TreeEntry, old bool, all bool, out *[]TreeChange) error {
	path := prefix + string(e.Name)
	if object.IsTree(e.Mode) {
		if old {
			return h.diffTrees(e.ID, oid.ID{}, path+"/", all, out)
		}
		return h.diffTrees(oid.ID{}, e.ID, path+"/", all, out)
	}
	if old {
		*out = append(*out, TreeChange{Path: path, OldMode: e.Mode, OldID: e.ID})
	} else {
		*out = append(*out, TreeChange{Path: path, NewMode: e.Mode, NewID: e.ID})
	}
	return nil
}
