package traverse

import (
	"github.com/goblame/goblame/internal/sparse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// ObjectReader is what the walk needs from the object database:
// *odb.Reader implements it, and tests substitute their own. Commits and
// Trees read every object into a buffer they reuse, not through the
// reader's by-ID cache: what a walk needs of a commit or a tree is kept in
// their own, much smaller, caches.
type ObjectReader interface {
	// Read returns the object's type and content (after replace refs),
	// appended to dst[:0]; the caller owns the returned bytes.
	Read(id oid.ID, dst []byte) (object.Type, []byte, error)
}

// Commit is a commit as the walk sees it. Lookup creates a stub that holds
// only its identity and Index (git's lookup_commit); Parse fills in the
// rest, from the commit-graph when the commit is in it, else from the
// object (git's parse_commit). Commits are owned by their Commits cache:
// one value per ID, so pointers compare as identities.
//
// A commit of the commit-graph does not copy its ID and root tree out of
// the graph: Commits.ID and Commits.Tree read them from the mapping by
// graph position when asked, which a walk does for few of the commits it
// parses (a blame passing a file's lines through commits whose Bloom
// filter says the file did not change never asks).
type Commit struct {
	// Parents in the commit's order, after grafts and shallow
	// boundaries. Callers may shorten the slice (blame's --first-parent
	// cuts it to one parent, as git does in place); they must not write
	// to its elements.
	Parents []*Commit
	// Time is the committer timestamp as git computes a commit's date:
	// from the commit-graph (34 bits) or parsed from the committer line
	// (0 when git would find none). A caller that knows the date of an
	// unparsed commit otherwise (blame, from a cache entry) may set it;
	// Parse overwrites it.
	Time uint64
	// Index numbers commits densely in the order Lookup first saw them
	// (0, 1, 2, ...); walk state can live in slices indexed by it.
	Index uint32
	// GraphPos is the commit's position in the commit-graph in use, or
	// NoGraphPosition.
	GraphPos uint32
	parsed   bool
	// obj holds the commit's ID and root tree when it is not read from
	// the commit-graph (nil otherwise: see Commits.ID). Kept apart, they
	// do not cost the commits of a graph walk 64 bytes each.
	obj *commitObject
}

// commitObject is what a commit read from its object keeps (Commit.obj).
type commitObject struct {
	id, tree oid.ID
}

// Parsed reports whether Parse has filled the commit (git's
// object.parsed). Its tree and Parents are meaningful only then, and
// Time unless its caller set it.
func (c *Commit) Parsed() bool { return c.parsed }

// ID returns the ID of c, a commit of this cache.
func (cs *Commits) ID(c *Commit) oid.ID {
	if c.GraphPos != NoGraphPosition && cs.graph != nil {
		if id, ok := cs.graph.ID(c.GraphPos); ok {
			return id
		}
	}
	if c.obj == nil {
		return oid.ID{}
	}
	return c.obj.id
}

// Tree returns the root tree of c, a parsed commit of this cache (the
// zero ID before c is parsed).
func (cs *Commits) Tree(c *Commit) oid.ID {
	if !c.parsed {
		return oid.ID{}
	}
	if c.obj != nil {
		// Parsed from its object (not in the graph, or see
		// ParseObject).
		return c.obj.tree
	}
	if c.GraphPos != NoGraphPosition && cs.graph != nil {
		if tree, ok := cs.graph.tree(c.GraphPos); ok {
			return tree
		}
	}
	return oid.ID{}
}

// CommitOptions change how commits are read.
type CommitOptions struct {
	// Grafts replaces the parents of the listed commits (info/grafts,
	// blame's -S <revs-file>); an empty list makes the commit a root.
	// Merge the sources in git's precedence before passing them.
	Grafts map[oid.ID][]oid.ID
	// Shallow lists the shallow boundary (the repository's shallow file):
	// these commits have no parents. Shallow wins over Grafts, as git's
	// register_shallow replaces an existing graft.
	Shallow map[oid.ID]bool
	// DisableGraph ignores the commit-graph (core.commitGraph=false,
	// replace refs in use). A graph is also ignored whenever Grafts or
	// Shallow is non-empty, as git ignores it then.
	DisableGraph bool
	// DisableBloom ignores the graph's changed-path filters
	// (commitGraph.readChangedPaths=false): MaybeChanged always answers
	// "maybe". Filters never change results, only how many trees are read.
	DisableBloom bool
	// Warn, when set, receives the warning line of a graph found damaged
	// during the walk (and dropped), when it is found; Warnings keeps it
	// too.
	Warn func(string)
}

// CommitStats counts where commit data came from; blame reports them
// with --show-stats-style diagnostics.
type CommitStats struct {
	FromGraph     int // commits parsed from the commit-graph
	FromObject    int // commits parsed from their objects
	ReadAhead     int // ... of which read ahead on a second goroutine (see ReadAhead)
	BloomQueries  int // MaybeChanged calls answered by a filter
	BloomNo       int // ... of which "definitely not changed"
	BloomNoFilter int // MaybeChanged calls without a usable filter
}

// Commits is a cache of commits by ID for one walk. It is not safe for
// concurrent use; give each goroutine its own (over a shared Graph and
// its own ObjectReader).
type Commits struct {
	rd      ObjectReader
	format  oid.Format
	graph   *Graph // nil when not in use
	grafts  map[oid.ID][]oid.ID
	shallow map[oid.ID]bool
	warn    func(string)

	byID idTable // commits not addressed by graph position
	// byPos maps a graph position to its commit's Index plus one (0:
	// none yet): a table of the graph's size in chunks made as they are
	// written (see internal/sparse), holding no pointers, so that no
	// collection scans it (git/git's 85,000 positions were 680 KB of
	// pointers, every page of which a collection read).
	byPos sparse.Table

	slab       []Commit       // commits are carved from slabs
	slabs      [][]Commit     // every slab, in order: Index i is slabs[i/commitSlab][i%commitSlab]
	slabs0     [8][]Commit    // slabs' first backing array (a short walk allocates none)
	parentSlab []*Commit      // and so are their parent lists
	objSlab    []commitObject // and the IDs of commits read from objects
	next       uint32         // next Index

	buf      []byte // object buffer reused across parses
	info     object.CommitInfo
	posBuf   []uint32
	warnings []string
	stats    CommitStats
	noBloom  bool
	// bloomAsked counts the changed-path queries, up to settleBloomAfter
	// (Graph.SettleBloom).
	bloomAsked int

	aheadReader ObjectReader // for the read-ahead, once it starts
	ahead       *readAhead   // the running read-ahead, if any
	taken       aheadCommit  // takeAhead's copy of the entry Parse takes
}

// SetReader makes cs read commit objects through rd from now on (the
// walk lends its reader to the path look-ahead: blobahead.go).
func (cs *Commits) SetReader(rd ObjectReader) { cs.rd = rd }

// NewCommits returns an empty cache reading from rd, using g (may be nil)
// unless opts says git would not.
func NewCommits(rd ObjectReader, g *Graph, format oid.Format, opts CommitOptions) *Commits {
	c := &Commits{
		rd:      rd,
		format:  format,
		grafts:  opts.Grafts,
		shallow: opts.Shallow,
		noBloom: opts.DisableBloom,
		warn:    opts.Warn,
	}
	c.slabs = c.slabs0[:0]
	if g != nil && g.total > 0 && g.format == format && !opts.DisableGraph && len(opts.Grafts) == 0 && len(opts.Shallow) == 0 {
		c.graph = g
	}
	return c
}

// Graph returns the commit-graph in use, nil if none (never used, or
// dropped after damage was found).
func (cs *Commits) Graph() *Graph { return cs.graph }

// Warnings returns the damage found in the commit-graph while reading it
// (the graph is dropped at the first one). OpenGraph's warnings are
// separate.
func (cs *Commits) Warnings() []string { return cs.warnings }

// Stats returns counters of the work done so far.
func (cs *Commits) Stats() CommitStats { return cs.stats }

// Len returns the number of commits looked up so far (the next Index).
func (cs *Commits) Len() int { return int(cs.next) }

// Lookup returns the commit for id, creating an unparsed stub the first
// time (git's lookup_commit). It does not read anything but the graph's
// OID index.
func (cs *Commits) Lookup(id oid.ID) *Commit {
	if cs.graph != nil {
		if pos, ok := cs.graph.Position(id); ok {
			return cs.atPos(pos)
		}
	}
	if c := cs.byID.get(id); c != nil {
		return c
	}
	c := cs.alloc(id, NoGraphPosition)
	cs.byID.put(c)
	return c
}

// atPos returns the commit at graph position pos.
func (cs *Commits) atPos(pos uint32) *Commit {
	if i := cs.byPos.Get(pos); i != 0 {
		return cs.byIndex(i - 1)
	}
	cs.byPos.Reserve(cs.graph.total)
	c := cs.alloc(oid.ID{}, pos)
	cs.byPos.Set(pos, c.Index+1)
	return c
}

// commitSlab is how many commits a slab holds.
const commitSlab = 256

// byIndex returns the commit with Index i (which alloc made).
func (cs *Commits) byIndex(i uint32) *Commit {
	return &cs.slabs[i/commitSlab][i%commitSlab]
}

// alloc returns a new commit with the next Index: at graph position pos,
// or with ID id when pos is NoGraphPosition.
func (cs *Commits) alloc(id oid.ID, pos uint32) *Commit {
	if len(cs.slab) == 0 {
		cs.slab = make([]Commit, commitSlab)
		cs.slabs = append(cs.slabs, cs.slab)
	}
	c := &cs.slab[0]
	cs.slab = cs.slab[1:]
	if pos == NoGraphPosition {
		c.obj = cs.object()
		c.obj.id = id
	}
	c.Index = cs.next
	c.GraphPos = pos
	cs.next++
	return c
}

// object returns a new commitObject carved from a slab.
func (cs *Commits) object() *commitObject {
	if len(cs.objSlab) == 0 {
		cs.objSlab = make([]commitObject, 256)
	}
	o := &cs.objSlab[0]
	cs.objSlab = cs.objSlab[1:]
	return o
}

// parentList returns a slice of n parent slots carved from the slab.
func (cs *Commits) parentList(n int) []*Commit {
	if n == 0 {
		return nil
	}
	if len(cs.parentSlab) < n {
		cs.parentSlab = make([]*Commit, max(512, n))
	}
	p := cs.parentSlab[:n:n]
	cs.parentSlab = cs.parentSlab[n:]
	return p
}

// Synthetic returns a new parsed commit that is not in the repository:
// blame's "Not Committed Yet" commit for the working tree (ID null, Time
// now, parents HEAD and MERGE_HEAD's commits). It gets its own Index, so
// Marks and slices indexed by Index treat it like any other commit, but
// Lookup and Get never return it.
func (cs *Commits) Synthetic(id, tree oid.ID, parents []*Commit, time uint64) *Commit {
	c := cs.alloc(id, NoGraphPosition)
	c.obj.tree = tree
	c.Time = time
	c.Parents = cs.parentList(len(parents))
	copy(c.Parents, parents)
	c.parsed = true
	return c
}

// Get returns the parsed commit for id.
func (cs *Commits) Get(id oid.ID) (*Commit, error) {
	c := cs.Lookup(id)
	if err := cs.Parse(c); err != nil {
		return nil, err
	}
	return c, nil
}

// Parse fills c (a commit of this cache) from the commit-graph or its
// object; it does nothing if c is already parsed. A commit that fails to
// parse stays unparsed.
func (cs *Commits) Parse(c *Commit) error {
	if c.parsed {
		return nil
	}
	if cs.graph != nil && c.GraphPos != NoGraphPosition {
		e, err := cs.graph.entry(c.GraphPos, cs.posBuf[:0])
		if err == nil {
			if len(e.parents) > 0 {
				cs.graph.prefetchNext(c.GraphPos, e.parents[0])
			}
			cs.posBuf = e.parents
			c.Time = e.time
			c.Parents = cs.parentList(len(e.parents))
			for i, p := range e.parents {
				c.Parents[i] = cs.atPos(p)
			}
			c.parsed = true
			cs.stats.FromGraph++
			return nil
		}
		if _, dies := err.(*GraphDeath); dies {
			return err
		}
		cs.dropGraph(err)
	}
	return cs.parseObject(c)
}

// ParseObject fills c from its object even where the commit-graph holds
// it, as git's parse_object does for the commits a revision names
// through a range or a tag and for the working tree's parents: its tree
// and parents are the object's, its date the graph's (git's
// load_commit_graph_info), so that a damaged row of the graph is not
// read for it. Its parents are parsed as Parse parses them. It does
// nothing if c is already parsed.
func (cs *Commits) ParseObject(c *Commit) error {
	if c.parsed {
		return nil
	}
	if cs.graph == nil || c.GraphPos == NoGraphPosition {
		return cs.Parse(c)
	}
	if c.obj == nil {
		id := cs.ID(c)
		c.obj = cs.object()
		c.obj.id = id
	}
	if err := cs.parseObject(c); err != nil {
		return err
	}
	date, ok, err := cs.graph.date(c.GraphPos)
	if err != nil {
		return err
	}
	if ok {
		c.Time = date
	}
	return nil
}

// reportLookup warns with what git prints at a lookup of an object only
// a pack it cannot use could hold (odb.LookupLines), if err is that.
func (cs *Commits) reportLookup(err error) {
	if cs.warn == nil {
		return
	}
	for _, l := range odb.LookupLines(err, 1) {
		cs.warn(l)
	}
}

// dropGraph stops using a graph found to be damaged: commits already
// parsed from it keep their (validated) data, stubs move to the ID map,
// and everything from now on is read from objects, exactly as without a
// graph.
func (cs *Commits) dropGraph(err error) {
	w := warningText(err)
	cs.warnings = append(cs.warnings, w)
	if cs.warn != nil {
		cs.warn(w)
	}
	for _, i := range cs.byPos.All() {
		c := cs.byIndex(i - 1)
		// The ID and tree move into the commit, read as they would have
		// been (the tree only of a commit parsed from the graph, whose
		// data was validated).
		c.obj = cs.object()
		c.obj.id, _ = cs.graph.ID(c.GraphPos)
		if c.parsed {
			c.obj.tree, _ = cs.graph.tree(c.GraphPos)
		}
		c.GraphPos = NoGraphPosition
		cs.byID.put(c)
	}
	cs.byPos.Reset()
	cs.graph = nil
}

func (cs *Commits) parseObject(c *Commit) error {
	if e := &cs.taken; cs.takeAhead(c.obj.id, e) {
		cs.link(c, e.tree, e.time, e.parents)
		cs.stats.ReadAhead++
		return nil
	}
	info := &cs.info
	if err := readCommitLinks(cs.rd, cs.format, c.obj.id, &cs.buf, info); err != nil {
		return err
	}
	cs.link(c, info.Tree, info.CommitTime, info.Parents)
	switch {
	case cs.aheadReader == nil:
	case cs.ahead == nil:
		cs.startAhead(c, info.Parents)
	default:
		cs.noteParsed(c, info.Parents)
	}
	return nil
}

// effectiveParents returns the parents of commit id that a walk follows:
// none at a shallow boundary, the graft's where a graft names id, else
// those written in the object.
func effectiveParents(id oid.ID, written []oid.ID, grafts map[oid.ID][]oid.ID, shallow map[oid.ID]bool) []oid.ID {
	if shallow[id] {
		return nil
	}
	if g, ok := grafts[id]; ok {
		return g
	}
	return written
}

// link fills c from its object's tree, date and parents (as written:
// grafts and shallow boundaries apply here).
func (cs *Commits) link(c *Commit, tree oid.ID, time uint64, parents []oid.ID) {
	parents = effectiveParents(c.obj.id, parents, cs.grafts, cs.shallow)
	list := cs.parentList(len(parents))
	for i, p := range parents {
		list[i] = cs.Lookup(p)
	}
	c.obj.tree = tree
	c.Time = time
	c.Parents = list
	c.parsed = true
	cs.stats.FromObject++
}

// Generation returns c's generation number from the commit-graph (see
// Graph.Generation), or GenerationInfinity when c is not in the graph in
// use.
func (cs *Commits) Generation(c *Commit) uint64 {
	if cs.graph == nil || c.GraphPos == NoGraphPosition {
		return GenerationInfinity
	}
	gen, ok := cs.graph.Generation(c.GraphPos)
	if !ok {
		return GenerationInfinity
	}
	return gen
}

// MaybeChanged reports whether any of paths may differ between commit
// and its first parent, from the commit's changed-path Bloom filter. false
// means "definitely not changed": the caller may skip the tree comparison
// with the first parent. true ("maybe") is returned whenever no usable
// filter exists: the commit is not in the graph, its layer has no filters,
// its filter was not computed, or the filter data is damaged.
//
// MaybeChanged hashes the paths on every call; walks that ask about the
// same paths for many commits should prepare keys once with NewBloomKey
// and call MaybeChangedKeys.
func (cs *Commits) MaybeChanged(commit *Commit, paths [][]byte) bool {
	keys := make([]BloomKey, len(paths))
	for i, p := range paths {
		keys[i] = NewBloomKey(p)
	}
	return cs.MaybeChangedKeys(commit, keys)
}

// MaybeChangedKeys is MaybeChanged for prepared keys; it does not
// allocate.
func (cs *Commits) MaybeChangedKeys(commit *Commit, keys []BloomKey) bool {
	cs.askedBloom()
	if cs.graph != nil && cs.graph.anyRaw.Load() {
		if maybe, ok := cs.rawMaybeChanged(commit, keys); ok {
			return maybe
		}
	}
	filter, s, ok := cs.filter(commit)
	if !ok {
		return true
	}
	for i := range keys {
		if keys[i].mayContain(filter, s) {
			return true
		}
	}
	cs.stats.BloomNo++
	return false
}

// MaybeChangedKey is MaybeChangedKeys for a single key.
func (cs *Commits) MaybeChangedKey(commit *Commit, key *BloomKey) bool {
	cs.askedBloom()
	if cs.graph != nil && cs.graph.anyRaw.Load() {
		if maybe, ok := cs.rawMaybeChanged(commit, []BloomKey{*key}); ok {
			return maybe
		}
	}
	filter, s, ok := cs.filter(commit)
	if !ok {
		return true
	}
	if key.mayContain(filter, s) {
		return true
	}
	cs.stats.BloomNo++
	return false
}

// MaybeChangedPath is MaybeChangedKey answering as git's blame does: the
// path alone, without its leading directories ("maybe" more often, where
// a directory's test would have said "no"), and of a version 1 filter,
// for a path with bytes of 0x80 and above, with the hashes git 2.39.5 on
// x86-64 computes (not either). Walks whose passes the answer decides only
// where it is "no" need the stricter MaybeChangedKey; one that asks of a
// parent the filter does not describe (blame under
// --simplify-by-decoration) must get git's answer.
func (cs *Commits) MaybeChangedPath(commit *Commit, key *BloomKey) bool {
	if len(key.components) == 0 {
		return true
	}
	h := key.components[0]
	h.asGit = true
	path := BloomKey{path: key.path, components: []bloomHash{h}}
	return cs.MaybeChangedKey(commit, &path)
}

// askedBloom counts a changed-path query; the settleBloomAfter-th has
// the graph's version 1 indexes checked (Graph.SettleBloom).
func (cs *Commits) askedBloom() {
	if cs.bloomAsked < settleBloomAfter {
		cs.bloomAsked++
		if cs.bloomAsked == settleBloomAfter {
			cs.graph.SettleBloom()
		}
	}
}

// rawMaybeChanged answers for a commit of a layer whose Bloom index git
// reads unchecked (Graph.rawContains), as git 2.39.5's blame asks: each
// path's own key, "maybe" if any filter bit says so. ok is false for
// the commits it does not answer for.
func (cs *Commits) rawMaybeChanged(commit *Commit, keys []BloomKey) (maybe, ok bool) {
	if commit.GraphPos == NoGraphPosition || cs.noBloom {
		return false, false
	}
	for i := range keys {
		if len(keys[i].components) == 0 {
			return true, true
		}
		m, handled := cs.graph.rawContains(commit.GraphPos, &keys[i].components[0])
		if !handled {
			return false, false
		}
		if m {
			cs.stats.BloomQueries++
			return true, true
		}
	}
	cs.stats.BloomQueries++
	cs.stats.BloomNo++
	return false, true
}

func (cs *Commits) filter(commit *Commit) ([]byte, bloomSettings, bool) {
	if cs.graph == nil || commit.GraphPos == NoGraphPosition || cs.noBloom {
		cs.stats.BloomNoFilter++
		return nil, bloomSettings{}, false
	}
	filter, s, ok, err := cs.graph.bloomFilter(commit.GraphPos)
	if err != nil {
		// Damaged filter offsets: answer "maybe" for this commit and stop
		// trusting this graph's filters... and the graph altogether,
		// since its results must equal those without it.
		cs.dropGraph(err)
		cs.stats.BloomNoFilter++
		return nil, bloomSettings{}, false
	}
	if !ok {
		cs.stats.BloomNoFilter++
		return nil, bloomSettings{}, false
	}
	cs.stats.BloomQueries++
	return filter, s, true
}
