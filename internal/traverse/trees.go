package traverse

import (
	"bytes"
	"fmt"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Cache bounds for Trees.Lookup. Each (path, depth) keeps two generations
// of at most lookupGeneration entries: a linear walk only revisits the
// trees of the commit it just looked at, so a small cache catches nearly
// every repeat while memory stays bounded on any history.
const (
	lookupGeneration = 1024
	maxCachedPaths   = 256
)

// TreeStats counts tree reads and cache hits.
type TreeStats struct {
	LookupHits   int // path components answered from the cache
	LookupMisses int // ... that had to read a tree
	TreesRead    int // tree objects read whole (lookups and diffs)
	TreePrefixes int // trees of which a lookup read only the start
	PrefixMisses int // lookups whose prefix ended too soon (then read whole)
	AheadHits    int // lookups answered by the look-ahead (LookAhead)
	AheadStarts  int // look-aheads started
	BlobsAhead   int // blobs the walk took from the look-ahead (blobahead.go)
	BlobWaits    int // ... of which it waited for
}

// Trees resolves paths in trees and diffs trees. It caches, per path and
// depth, which entry a tree holds for that component, so walking the
// history of one path reads each tree on the path once and never reads a
// subtree that an already-seen root shares. It is not safe for concurrent
// use.
type Trees struct {
	rd      ObjectReader
	format  oid.Format
	paths   map[string]*pathCache
	bufs    [][]byte // DiffTrees: two buffers per depth
	change  Change   // DiffTrees: the change handed to the callback
	findBuf []byte   // Lookup: the tree being searched
	path    []byte   // DiffTrees: current path
	stats   TreeStats
	ahead   *pathAhead        // LookAhead's goroutine, when one runs
	bodies  map[oid.ID][]byte // commit texts a stopped look-ahead read
}

// SetReader makes t read through rd from now on (the walk lends its
// reader to the look-ahead: blobahead.go).
func (t *Trees) SetReader(rd ObjectReader) { t.rd = rd }

// NewTrees returns a tree reader over rd for objects of the given format.
func NewTrees(rd ObjectReader, format oid.Format) *Trees {
	return &Trees{rd: rd, format: format, paths: make(map[string]*pathCache)}
}

// Stats returns counters of the work done so far.
func (t *Trees) Stats() TreeStats {
	s := t.stats
	if pa := t.ahead; pa != nil {
		pa.mu.Lock()
		s.BlobsAhead, s.BlobWaits = pa.blobs.taken, pa.blobs.waited
		pa.mu.Unlock()
	}
	return s
}

type pathCache struct {
	components [][]byte
	levels     []levelCache
}

type lookupResult struct {
	mode  uint32
	id    oid.ID
	found bool
}

// levelCache maps a tree ID to the entry it holds for one path component,
// in two generations: when cur fills up it becomes old and a new cur
// starts, so recently used entries survive and memory is bounded.
type levelCache struct {
	cur, old map[oid.ID]lookupResult
	// last is the most recent answer: in a linear walk the commit looked
	// up now is the parent looked up one step before, so this one
	// comparison saves most map probes.
	last     lookupResult
	lastTree oid.ID
	// prefix is how many bytes of a tree at this level find reads to
	// look the component up (ReadPrefix), 0 for whole trees: see
	// prefixFor.
	prefix int
	// sizeHint is the first map's initial size for the first levels of
	// a path, none below (a path thousands of directories deep has a
	// level per directory, and a full-size map per level cost 600 MB
	// at 4,100 levels). Once the first generation fills, the next is
	// made full-size.
	sizeHint int
}

// sizedLevels is how many leading components of a path get lookup maps
// made with firstGenerationHint entries, and maps of a full generation
// once the first one fills. A full generation from the start costs
// 156 KB a level, written through to initialise it, on every blame, most
// of which look up a few hundred trees or one (a blame the cache
// answers).
const (
	sizedLevels         = 16
	firstGenerationHint = 64
)

func (lc *levelCache) get(tree oid.ID) (lookupResult, bool) {
	if tree == lc.lastTree && !tree.IsZero() {
		return lc.last, true
	}
	if r, ok := lc.cur[tree]; ok {
		lc.last, lc.lastTree = r, tree
		return r, true
	}
	if r, ok := lc.old[tree]; ok {
		lc.put(tree, r)
		return r, true
	}
	return lookupResult{}, false
}

func (lc *levelCache) put(tree oid.ID, r lookupResult) {
	lc.last, lc.lastTree = r, tree
	if lc.cur == nil {
		lc.cur = make(map[oid.ID]lookupResult, lc.sizeHint)
	}
	if len(lc.cur) >= lookupGeneration {
		if lc.old == nil {
			hint := 0
			if lc.sizeHint > 0 {
				hint = lookupGeneration
			}
			lc.old = make(map[oid.ID]lookupResult, hint)
		}
		clear(lc.old)
		lc.old, lc.cur = lc.cur, lc.old
	}
	lc.cur[tree] = r
}

func (t *Trees) pathCache(path []byte) *pathCache {
	if pc := t.paths[string(path)]; pc != nil {
		return pc
	}
	if len(t.paths) >= maxCachedPaths {
		clear(t.paths)
	}
	pc := &pathCache{}
	owned := bytes.Clone(path)
	for _, comp := range bytes.Split(owned, []byte("/")) {
		pc.components = append(pc.components, comp)
	}
	pc.levels = make([]levelCache, len(pc.components))
	for i := range pc.levels[:min(len(pc.levels), sizedLevels)] {
		pc.levels[i].sizeHint = firstGenerationHint
	}
	t.paths[string(owned)] = pc
	return pc
}

// Lookup returns the entry at path (slash-separated, relative to tree) the
// way "git rev-parse TREE:path" resolves it: the mode (canonical, as git
// reads trees) and ID of whatever is there, a blob, a symlink, a gitlink or
// a tree. found is false when some component is missing or a leading
// component is not a tree. An empty path names tree itself.
//
// Only the trees along the path are read, and each (tree, component)
// answer is cached: when a commit's root tree points at the same subtree
// as the previous commit's, the rest of the path is answered without
// reading anything. Comparing the results for a commit and its parent
// tells whether the path changed between them.
func (t *Trees) Lookup(tree oid.ID, path []byte) (mode uint32, id oid.ID, found bool, err error) {
	if len(path) == 0 {
		return object.ModeTree, tree, true, nil
	}
	if t.ahead != nil {
		if r, ok := t.ahead.answer(tree, path); ok {
			t.stats.AheadHits++
			return r.mode, r.id, r.found, nil
		}
	}
	pc := t.pathCache(path)
	cur := tree
	last := len(pc.components) - 1
	var r lookupResult
	for i, comp := range pc.components {
		lc := &pc.levels[i]
		var ok bool
		if r, ok = lc.get(cur); ok {
			t.stats.LookupHits++
		} else {
			t.stats.LookupMisses++
			r, err = t.find(cur, comp, &lc.prefix)
			if err != nil {
				return 0, oid.ID{}, false, err
			}
			lc.put(cur, r)
		}
		if !r.found {
			if i < last {
				// No entry "comp": an entry whose name holds a slash
				// ("x/y", which git's own tools never write) may name
				// the rest, as git's find_tree_entry matches names.
				return t.lookupSlashed(cur, bytes.Join(pc.components[i:], []byte("/")))
			}
			return 0, oid.ID{}, false, nil
		}
		if i < last {
			if !object.IsTree(r.mode) {
				return 0, oid.ID{}, false, nil
			}
			cur = r.id
		}
	}
	return r.mode, r.id, true, nil
}

// PrefixReader is an ObjectReader that can read the first bytes of an
// object alone (odb.Reader.ReadPrefix): whole reports that data is the
// whole object.
type PrefixReader interface {
	ReadPrefix(id oid.ID, n int, dst []byte) (typ object.Type, data []byte, whole bool, err error)
}

// find reads tree and looks for name in it. *prefix is how many bytes of
// the tree to read where the reader can read a prefix (0: all of it);
// find sets it for the next tree at the same level (prefixFor).
func (t *Trees) find(tree oid.ID, name []byte, prefix *int) (lookupResult, error) {
	if len(name) == 0 || tree.IsZero() || tree == oid.EmptyTree(t.format) {
		return lookupResult{}, nil
	}
	body, whole, err := t.readTree(tree, *prefix)
	if err != nil {
		return lookupResult{}, err
	}
	e, found, decided, used, err := object.FindEntryIn(t.format, body, name, whole)
	if !decided {
		// The prefix ended too soon: the whole tree.
		t.stats.PrefixMisses++
		if body, whole, err = t.readTree(tree, 0); err != nil {
			return lookupResult{}, err
		}
		e, found, _, used, err = object.FindEntryIn(t.format, body, name, true)
	}
	if err != nil {
		return lookupResult{}, fmt.Errorf("tree %s: %w", tree, err)
	}
	*prefix = prefixFor(used, len(body), whole)
	return lookupResult{mode: e.Mode, id: e.ID, found: found}, nil
}

// readTree reads tree for find, whole, or at least its first n bytes
// (whole false) where n > 0 and the reader can read a prefix alone. It
// reads into a reused buffer rather than through the reader's object
// cache: the lookup cache above already remembers what matters of each
// tree, so caching the bytes would only add memory churn.
func (t *Trees) readTree(tree oid.ID, n int) (body []byte, whole bool, err error) {
	return t.readPeeled(tree, func(id oid.ID) (typ object.Type, body []byte, whole bool, err error) {
		whole = true
		if pr, ok := t.rd.(PrefixReader); ok && n > 0 {
			typ, body, whole, err = pr.ReadPrefix(id, n, t.findBuf[:0])
		} else {
			typ, body, err = t.rd.Read(id, t.findBuf[:0])
		}
		if err != nil {
			return 0, nil, false, err
		}
		if cap(body) <= 1<<20 {
			t.findBuf = body[:0]
		}
		if whole {
			t.stats.TreesRead++
		} else {
			t.stats.TreePrefixes++
		}
		return typ, body, whole, nil
	})
}

// readPeeled reads tree with read as git's tree reads take it
// (read_object_with_reference, for tree diffs and path lookups alike): an
// object that is a commit stands for the tree its first line names, a
// tag for the object its first line names, read in turn. Anything else
// is no tree to git, which dies "unable to read tree X" where it diffs
// and finds no path where it looks one up: a MissingTreeError for tree,
// as for a tree the repository lacks. (git peels without end; a chain of
// maxPeels is taken for none.)
func (t *Trees) readPeeled(tree oid.ID, read func(oid.ID) (object.Type, []byte, bool, error)) ([]byte, bool, error) {
	id := tree
	for peels := 0; ; peels++ {
		typ, body, whole, err := read(id)
		if err != nil {
			return nil, false, treeReadError(tree, err)
		}
		if typ == object.Tree {
			return body, whole, nil
		}
		next, ok := peelToTree(t.format, typ, body)
		if !ok || peels == maxPeels {
			return nil, false, &MissingTreeError{ID: tree, Err: fmt.Errorf("object %s is a %s: %w", id, typ, ErrNotTree)}
		}
		id = next
	}
}

// maxPeels bounds readPeeled's chain of commits and tags.
const maxPeels = 64

// peelToTree is the object a commit (its "tree" line) or a tag (its
// "object" line) names at the start of body, as git's
// read_object_with_reference reads it: the keyword and a full hex name
// at the very start, whatever follows.
func peelToTree(f oid.Format, typ object.Type, body []byte) (oid.ID, bool) {
	var key string
	switch typ {
	case object.Commit:
		key = "tree "
	case object.Tag:
		key = "object "
	default:
		return oid.ID{}, false
	}
	hex := f.HexSize()
	if len(body) < len(key)+hex || string(body[:len(key)]) != key {
		return oid.ID{}, false
	}
	id, err := oid.ParseHex(f, string(body[len(key):len(key)+hex]))
	return id, err == nil
}

// prefixFor is how many bytes of the next tree at a level to read, after
// a search that used bytes of a tree (whole, or a prefix of it): the
// bytes used with room to spare for entries added before the one looked
// for, or 0 (the whole tree) where that is not much less than the tree.
// The trees at a level are versions of one directory, their sizes and
// the place of an entry in them change slowly.
func prefixFor(used, size int, whole bool) int {
	n := used + used/4 + minTreePrefix/2
	if whole && 2*n > size {
		return 0
	}
	return max(n, minTreePrefix)
}

// minTreePrefix is the least prefix worth reading: below it, reading
// the whole tree costs about the same.
const minTreePrefix = 1 << 10

// lookupSlashed finds rest in tree through an entry whose name contains
// a slash: the entry named rest itself, or a tree entry named by a
// leading part of rest, in which the remainder is looked up. It is the
// uncached path for damaged or hand-made trees.
func (t *Trees) lookupSlashed(tree oid.ID, rest []byte) (uint32, oid.ID, bool, error) {
	body, _, err := t.readPeeled(tree, func(id oid.ID) (object.Type, []byte, bool, error) {
		typ, body, err := t.rd.Read(id, nil)
		if err == nil {
			t.stats.TreesRead++
		}
		return typ, body, true, err
	})
	if err != nil {
		return 0, oid.ID{}, false, err
	}
	it := object.NewTreeIter(t.format, body)
	var e object.TreeEntry
	for it.Next(&e) {
		if bytes.IndexByte(e.Name, '/') < 0 || !bytes.HasPrefix(rest, e.Name) {
			continue
		}
		if len(rest) == len(e.Name) {
			return e.Mode, e.ID, true, nil
		}
		if rest[len(e.Name)] == '/' && object.IsTree(e.Mode) {
			return t.Lookup(e.ID, rest[len(e.Name)+1:])
		}
	}
	return 0, oid.ID{}, false, it.Err()
}

// Change is one difference between two trees, as "git diff-tree -r"
// reports it. A side that does not have the path has mode 0 and a zero ID.
// The callback receives a pointer to a Change owned by the Trees: copy it
// (and its Path) to keep it.
type Change struct {
	// Path is the full slash-separated path. It aliases a buffer of the
	// Trees and is valid only until the callback returns.
	Path             []byte
	OldMode, NewMode uint32
	OldID, NewID     oid.ID
}

// Status returns the letter git gives the change without rename
// detection: 'A' added, 'D' deleted, 'T' type changed (file, symlink and
// gitlink are different types; 100644 and 100755 are not), 'M' modified
// (content or mode), or ' ' for an unchanged pair (DiffTreesAll only).
func (c *Change) Status() byte {
	switch {
	case c.OldMode == 0:
		return 'A'
	case c.NewMode == 0:
		return 'D'
	case c.OldMode&0o170000 != c.NewMode&0o170000:
		return 'T'
	case c.OldMode != c.NewMode || c.OldID != c.NewID:
		return 'M'
	}
	return ' '
}

// DiffTrees calls fn for every path that differs between tree a (old) and
// tree b (new), recursively, in the order "git diff-tree -r a b" prints
// them: tree order, where a file and a directory of the same name are
// different entries (the file sorts first), so a file replaced by a
// directory is a deletion (or addition) plus the directory's contents.
// Trees themselves are not reported. A zero ID or the empty tree ID stands
// for an empty tree (a root commit's parent). An error from fn stops the
// diff and is returned.
func (t *Trees) DiffTrees(a, b oid.ID, fn func(*Change) error) error {
	t.path = t.path[:0]
	return t.diff(a, b, 0, false, fn)
}

// DiffTreesAll is DiffTrees that also reports unchanged files (status
// ' '), as git's tree diff does with find_copies_harder: every file of
// either tree appears once, in tree order. Blame's -C -C uses it to list
// copy candidates.
func (t *Trees) DiffTreesAll(a, b oid.ID, fn func(*Change) error) error {
	t.path = t.path[:0]
	return t.diff(a, b, 0, true, fn)
}

// maxTreeDepth bounds recursion on hostile trees (git itself recurses
// without a bound; real trees are far shallower).
const maxTreeDepth = 4096

func (t *Trees) readInto(id oid.ID, slot int) ([]byte, error) {
	if id.IsZero() || id == oid.EmptyTree(t.format) {
		return nil, nil
	}
	for len(t.bufs) <= slot {
		t.bufs = append(t.bufs, nil)
	}
	body, _, err := t.readPeeled(id, func(id oid.ID) (object.Type, []byte, bool, error) {
		typ, body, err := t.rd.Read(id, t.bufs[slot][:0])
		if err != nil {
			return 0, nil, false, err
		}
		t.stats.TreesRead++
		if cap(body) <= 1<<20 {
			t.bufs[slot] = body[:0]
		}
		return typ, body, true, nil
	})
	return body, err
}

func (t *Trees) diff(a, b oid.ID, depth int, all bool, fn func(*Change) error) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("trees %s and %s nest deeper than %d levels", a, b, maxTreeDepth)
	}
	bodyA, err := t.readInto(a, 2*depth)
	if err != nil {
		return err
	}
	bodyB, err := t.readInto(b, 2*depth+1)
	if err != nil {
		return err
	}
	base := len(t.path)
	ia := object.NewTreeIter(t.format, bodyA)
	ib := object.NewTreeIter(t.format, bodyB)
	var ea, eb object.TreeEntry
	hasA, hasB := ia.Next(&ea), ib.Next(&eb)
	ch := &t.change
	for hasA || hasB {
		var cmp int
		switch {
		case !hasA:
			cmp = 1
		case !hasB:
			cmp = -1
		default:
			cmp = object.CompareEntryNames(ea.Name, object.IsTree(ea.Mode), eb.Name, object.IsTree(eb.Mode))
		}
		var err error
		switch {
		case cmp == 0:
			if ea.ID != eb.ID || ea.Mode != eb.Mode || all {
				if object.IsTree(ea.Mode) {
					err = t.descend(ea.Name, ea.ID, eb.ID, depth, all, fn)
				} else {
					*ch = Change{OldMode: ea.Mode, NewMode: eb.Mode, OldID: ea.ID, NewID: eb.ID}
					err = t.emit(ch, ea.Name, fn)
				}
			}
			hasA, hasB = ia.Next(&ea), ib.Next(&eb)
		case cmp < 0:
			if object.IsTree(ea.Mode) {
				err = t.descend(ea.Name, ea.ID, oid.ID{}, depth, all, fn)
			} else {
				*ch = Change{OldMode: ea.Mode, OldID: ea.ID}
				err = t.emit(ch, ea.Name, fn)
			}
			hasA = ia.Next(&ea)
		default:
			if object.IsTree(eb.Mode) {
				err = t.descend(eb.Name, oid.ID{}, eb.ID, depth, all, fn)
			} else {
				*ch = Change{NewMode: eb.Mode, NewID: eb.ID}
				err = t.emit(ch, eb.Name, fn)
			}
			hasB = ib.Next(&eb)
		}
		if err != nil {
			return err
		}
		t.path = t.path[:base]
	}
	if err := ia.Err(); err != nil {
		return fmt.Errorf("tree %s: %w", a, err)
	}
	if err := ib.Err(); err != nil {
		return fmt.Errorf("tree %s: %w", b, err)
	}
	return nil
}

func (t *Trees) emit(ch *Change, name []byte, fn func(*Change) error) error {
	t.path = append(t.path, name...)
	ch.Path = t.path
	return fn(ch)
}

func (t *Trees) descend(name []byte, a, b oid.ID, depth int, all bool, fn func(*Change) error) error {
	t.path = append(t.path, name...)
	t.path = append(t.path, '/')
	return t.diff(a, b, depth+1, all, fn)
}
