package blame

import (
	"errors"
	"fmt"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// maxTreeDepth bounds the directories Files descends into (a tree that
// names itself through a hash collision, or a damaged object store,
// cannot make it recurse without end).
const maxTreeDepth = 4096

// Files lists the paths of the files at rev that can be blamed (regular
// files, executables and symbolic links; not submodules), in git's tree
// order, as `git ls-tree -r --name-only rev` lists them.
func (r *Repository) Files(rev string) ([]string, error) {
	rd := r.reader()
	defer r.put(rd)
	id, err := r.repo.ResolveRevision(rd, rev)
	if err != nil {
		return nil, err
	}
	tree, err := repo.Peel(rd, id, object.Tree)
	if err != nil {
		return nil, fmt.Errorf("%s is not a tree-ish: %w", rev, err)
	}
	var files []string
	var walk func(tree oid.ID, prefix string, depth int) error
	walk = func(tree oid.ID, prefix string, depth int) error {
		if depth > maxTreeDepth {
			return errors.New("trees nested too deep at " + prefix)
		}
		typ, body, err := rd.Read(tree, nil)
		if err != nil {
			return err
		}
		if typ != object.Tree {
			return fmt.Errorf("object %s is a %s, not a tree", tree, typ)
		}
		it := object.NewTreeIter(r.repo.Format, body)
		var e object.TreeEntry
		for it.Next(&e) {
			name := prefix + string(e.Name)
			switch {
			case object.IsTree(e.Mode):
				if err := walk(e.ID, name+"/", depth+1); err != nil {
					return err
				}
			case object.IsBlobMode(e.Mode):
				files = append(files, name)
			}
		}
		return it.Err()
	}
	if err := walk(tree, "", 0); err != nil {
		return nil, err
	}
	return files, nil
}
