package blame

import (
	"slices"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// indexWalk is where git's diff of the uncommitted version's index
// against a parent meets path in an index whose entries are out of order
// (blamecore.IndexWalk). git's add_index_entry puts the final image after
// the last entry when path sorts after its name, else in place of the
// entry its binary search for path finds, else where that search ends
// (removing the entries named path there, as a merged entry replaces
// unmerged ones); unpack_trees then walks the entries in that order, and
// at the tree's entry for path passes those whose names sort before it.
// (git also removes entries that are path's directories or files under
// it; a damaged index that holds both is not modelled.)
func indexWalk(ix *repo.Index, path string) *blamecore.IndexWalk {
	type entry struct {
		path  string
		mode  uint32
		id    oid.ID
		final bool
	}
	es := make([]entry, 0, len(ix.EntryList)+1)
	for i := range ix.EntryList {
		e := &ix.EntryList[i]
		es = append(es, entry{path: e.Path, mode: e.Mode, id: e.ID})
	}
	final := entry{path: path, final: true}
	pos, found := ix.NamePos(path)
	switch {
	case len(es) > 0 && path > es[len(es)-1].path:
		es = append(es, final)
	case found:
		es[pos] = final
	default:
		end := pos
		for end < len(es) && es[end].path == path {
			end++
		}
		es = slices.Replace(es, pos, end, final)
	}
	i := 0
	for i < len(es) && es[i].path < path {
		i++
	}
	w := &blamecore.IndexWalk{}
	if i < len(es) && es[i].path == path {
		w.Met, w.Final, w.Mode, w.ID = true, es[i].final, es[i].mode, es[i].id
		i++
	}
	for ; i < len(es); i++ {
		if es[i].path == path {
			w.Later = true
			break
		}
	}
	return w
}
