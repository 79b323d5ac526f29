package traverse

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/goblame/goblame/internal/fsread"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/goblame/goblame/oid"
)

// Commit-graph constants (gitformat-commit-graph).
const (
	graphSignature   = 0x43475048 // "CGPH"
	graphVersion     = 1
	graphHeaderSize  = 8
	graphFanoutSize  = 4 * 256
	chunkTOCEntrySz  = 12
	graphParentNone  = 0x70000000
	graphExtraEdges  = 0x80000000
	graphEdgeLast    = 0x80000000
	graphEdgeMask    = 0x7fffffff
	genOffsetOverflw = 0x80000000
	bloomHeaderSize  = 12
	// maxBloomHashes bounds the per-query work a hostile BDAT header can
	// ask for; git writes 7.
	maxBloomHashes = 64
	// maxChainLength bounds the number of layers read from a
	// commit-graph-chain file.
	maxChainLength = 4096
)

// Chunk IDs.
const (
	chunkOIDFanout  = 0x4f494446 // OIDF
	chunkOIDLookup  = 0x4f49444c // OIDL
	chunkCommitData = 0x43444154 // CDAT
	chunkGenData    = 0x47444132 // GDA2
	chunkGenOverflw = 0x47444f32 // GDO2
	chunkExtraEdges = 0x45444745 // EDGE
	chunkBloomIndex = 0x42494458 // BIDX
	chunkBloomData  = 0x42444154 // BDAT
	chunkBase       = 0x42415345 // BASE
)

// NoGraphPosition is the graph position of a commit the graph does not
// hold.
const NoGraphPosition = ^uint32(0)

// GenerationInfinity is the generation of a commit that is not in the
// graph (git's GENERATION_NUMBER_INFINITY).
const GenerationInfinity = ^uint64(0)

// Graph is a commit-graph: a single file or a chain of layers, each a
// read-only view over its mapped file. A Graph is immutable once opened
// (but for the one check of its version 1 Bloom indexes, SettleBloom)
// and safe for concurrent use; Close releases the mappings.
type Graph struct {
	format  oid.Format
	hashLen int
	layers  []*graphLayer // base layer first
	total   uint32        // commits in all layers
	// anyRaw: some layer's filters are read as git reads a damaged index
	// now (graphLayer.raw); SettleBloom updates it, so that a graph
	// found in order asks no layer twice a query.
	anyRaw atomic.Bool
	// settled: the version 1 layers' indexes have been checked
	// (SettleBloom).
	settled sync.Once
	// genData reports whether every layer has corrected commit dates
	// (GDA2); otherwise generations are topological levels, as git's
	// validate_mixed_generation_chain decides.
	genData bool

	// parentPos holds the row each commit Parents named as a parent came
	// from, which git keeps with the commit (insert_parent_or_die sets
	// its graph_pos) and parses it from, not from a lookup of its name:
	// a damaged name table can give a row a name that finds no row, or
	// another. Parents, Time and Info take a commit's row from here
	// first (rowAsGit).
	posMu     sync.Mutex
	parentPos map[oid.ID]uint32
	// namesOnce checks, once, that every row's name finds that row
	// (NamesFindRows); namesFindRows is its answer, namesGood set once
	// it is known true.
	namesOnce     sync.Once
	namesFindRows bool
	namesGood     atomic.Bool
}

// NamesFindRows reports whether every row's name finds that row:
// Position(ID(p)) is p for every row p. So it is in any graph git
// writes: each layer's names are in strict order and agree with its
// fan-out, and no layer repeats a name of a layer below it. A damaged
// name table can give a row a name that finds another row, or none,
// and git then keeps the row a parent came from (parentPos). Checked
// once, reading every name, so for walks over many rows: where it
// holds, Row records no parent rows (they are the rows the names find)
// and a walk may keep its commits by row.
func (g *Graph) NamesFindRows() bool {
	if g == nil {
		return false
	}
	g.namesOnce.Do(func() {
		g.namesFindRows = g.checkNames()
		g.namesGood.Store(g.namesFindRows)
	})
	return g.namesFindRows
}

// checkNames is NamesFindRows' check.
func (g *Graph) checkNames() bool {
	h := g.hashLen
	for i, l := range g.layers {
		if len(l.oids) < int(l.n)*h || len(l.fanout) < 256*4 {
			return false
		}
		var prev []byte
		for k := uint32(0); k < l.n; k++ {
			name := l.oids[int(k)*h : int(k)*h+h]
			if prev != nil && bytes.Compare(prev, name) >= 0 {
				return false
			}
			prev = name
			// The search for name looks in fanout[b-1]..fanout[b].
			b := int(name[0])
			var lo uint32
			if b > 0 {
				lo = binary.BigEndian.Uint32(l.fanout[4*(b-1):])
			}
			if k < lo || k >= binary.BigEndian.Uint32(l.fanout[4*b:]) {
				return false
			}
			// Position searches the layers from the top: the row of
			// a name repeated below is found by none. (Upper layers
			// are the small ones.)
			for _, lower := range g.layers[:i] {
				if _, ok := lower.search(name, h); ok {
					return false
				}
			}
		}
	}
	return true
}

// rowAsGit is the row git parses the commit id from: the one it came
// from as a parent (parentPos), else the one its name finds.
func (g *Graph) rowAsGit(id oid.ID) (uint32, bool) {
	g.posMu.Lock()
	pos, ok := g.parentPos[id]
	g.posMu.Unlock()
	if ok {
		return pos, true
	}
	return g.Position(id)
}

// graphLayer is one commit-graph file.
type graphLayer struct {
	path   string
	data   []byte
	mapped bool
	base   uint32 // commits in the layers below this one
	n      uint32 // commits in this layer
	fanout []byte
	oids   []byte
	cdat   []byte
	edges  []byte
	gda2   []byte
	gdo2   []byte
	// overflowUnread: git reads the layer's corrected dates (Graph.genData)
	// and the overflow chunk is missing, which an offset may need (each
	// commit's is checked as it is read: checkGeneration).
	overflowUnread bool
	bidx           []byte
	bdat           []byte // filter bytes, after the 12-byte BDAT header
	bloom          bloomSettings
	// bloomRaw: the Bloom index is out of order or runs past the data,
	// which git 2.39.5 does not check: filters are read as git reads
	// them (rawContains), not through bloomFilter. (A version 2 layer,
	// checked at open.)
	bloomRaw bool
	// bloomLazy: a version 1 layer, whose index is checked only once a
	// walk has asked its filters enough (Graph.SettleBloom); bloomOrder
	// is then bloomInOrder or bloomOutOfOrder. Until it is checked, and
	// after if it is out of order, its filters are read as git 2.39.5
	// reads every index (rawContains), which answers as git does.
	bloomLazy  bool
	bloomOrder atomic.Uint32
	bases      []byte // BASE chunk
	numBases   int    // header byte 7
	cdatOff    int64  // file offset of the CDAT chunk, for messages
	checksum   []byte // trailing hash: the layer's name in a chain
}

// bloomSettings are the parameters of a layer's BDAT header. version 0
// means the layer has no usable filters.
type bloomSettings struct {
	version   uint32
	numHashes uint32
	bitsPer   uint32
}

// OpenGraph loads the commit-graph the way git 2.39.5 chooses it: object
// directories are tried in order (the repository's own first, then its
// alternates); in each, the single file info/commit-graph wins over a
// chain in info/commit-graphs/, and the first directory that yields a
// graph is the only one used. Layers named by a chain are looked for in
// every object directory.
//
// A missing graph gives a nil *Graph and no warnings. A damaged one gives
// warnings (worded as git prints them where git reports the same damage,
// "error: ..." or "warning: ...") and is dropped, so that walking without
// it gives exactly the results a repository without a graph gives. A chain
// whose later layers are missing or do not match keeps its valid lower
// layers, as git does. err is an unknown object format, or what git dies
// of: a graph file that is a directory large enough for git to map it
// ("mmap failed: No such device").
//
// Callers must not use a graph when git would ignore it: the repository is
// shallow, grafts are defined, replace refs are in use, or
// core.commitGraph is false. NewCommits enforces the first two through
// CommitOptions.
func OpenGraph(objectDirs []string, format oid.Format) (g *Graph, warnings []string, err error) {
	if format.Size() == 0 {
		return nil, nil, fmt.Errorf("traverse: unknown object format %v", format)
	}
	for _, dir := range objectDirs {
		var layer *graphLayer
		layer, warnings, err = loadLayer(filepath.Join(dir, "info", "commit-graph"), format, warnings)
		if err != nil {
			return nil, warnings, err
		}
		if layer != nil {
			if layer.numBases > 0 || layer.bases != nil {
				// A single file that claims lower layers cannot be
				// resolved; git would die on the first parent that
				// points below it.
				warnings = append(warnings, fmt.Sprintf("warning: commit-graph %s names %d base graphs but is not part of a chain; ignoring it", layer.path, layer.numBases))
				layer.close()
				continue
			}
			return newGraph(format, []*graphLayer{layer}), warnings, nil
		}
		var layers []*graphLayer
		layers, warnings, err = loadChain(dir, objectDirs, format, warnings)
		if err != nil {
			return nil, warnings, err
		}
		if len(layers) > 0 {
			return newGraph(format, layers), warnings, nil
		}
	}
	return nil, warnings, nil
}

// ParseGraph builds a single-layer Graph over the bytes of a commit-graph
// file held in memory (named path in messages). It is the entry point for
// fuzzing and for tools; OpenGraph is what a walk uses.
func ParseGraph(path string, data []byte, format oid.Format) (*Graph, []string, error) {
	if format.Size() == 0 {
		return nil, nil, fmt.Errorf("traverse: unknown object format %v", format)
	}
	layer, warnings, err := parseLayer(path, data, format)
	if err != nil {
		return nil, append(warnings, warningText(err)), nil
	}
	if layer.numBases > 0 || layer.bases != nil {
		return nil, append(warnings, fmt.Sprintf("warning: commit-graph %s names %d base graphs but is not part of a chain; ignoring it", path, layer.numBases)), nil
	}
	return newGraph(format, []*graphLayer{layer}), warnings, nil
}

func newGraph(format oid.Format, layers []*graphLayer) *Graph {
	g := &Graph{format: format, hashLen: format.Size(), layers: layers, genData: true}
	for _, l := range layers {
		g.total = l.base + l.n
		if l.gda2 == nil {
			g.genData = false
		}
	}
	if g.genData {
		for _, l := range layers {
			l.overflowUnread = l.gdo2 == nil
		}
	}
	g.anyRaw.Store(g.someLayerRaw())
	return g
}

// someLayerRaw reports whether a layer's filters are read as git reads
// a damaged index now (graphLayer.raw).
func (g *Graph) someLayerRaw() bool {
	for _, l := range g.layers {
		if l.raw() {
			return true
		}
	}
	return false
}

// The states of a lazily checked layer's Bloom index (bloomOrder).
const (
	bloomUnchecked uint32 = iota
	bloomInOrder
	bloomOutOfOrder
)

// raw reports whether the layer's filters are read as git reads a
// damaged index (rawContains) now.
func (l *graphLayer) raw() bool {
	if l.bloomLazy {
		return l.bloomOrder.Load() != bloomInOrder
	}
	return l.bloomRaw
}

// settleBloomAfter is how many changed-path queries a walk makes
// before its graph's version 1 indexes are checked (Commits counts
// them): a walk that ends sooner (a file added lately) never reads its
// graph's whole Bloom index, which git/git's 85,000 commits made 0.62
// million instructions of a 9.5 million blame of compat/writev.c (12
// queries; 8.8 million without it, 3.29 against 3.41 ms in 80 paired
// rounds), and a Linux-sized graph's 1.3 million about 9 million at
// every start.
const settleBloomAfter = 16

// SettleBloom checks the Bloom indexes of the version 1 layers, once:
// from then on the filters of a layer whose index is in order and
// inside its data are read with the leading directories' keys too
// (bloomFilter), which rules out more commits than git's own key alone;
// the others' stay as git reads them. Safe for concurrent use: a
// concurrent query reads its layer's state before or after.
func (g *Graph) SettleBloom() {
	if g == nil {
		return
	}
	g.settled.Do(func() {
		for _, l := range g.layers {
			if !l.bloomLazy {
				continue
			}
			var last uint32
			if l.n > 0 {
				last = binary.BigEndian.Uint32(l.bidx[4*(l.n-1):])
			}
			if uint64(last) <= uint64(len(l.bdat)) && nonDecreasing(l.bidx) {
				l.bloomOrder.Store(bloomInOrder)
			} else {
				l.bloomOrder.Store(bloomOutOfOrder)
			}
		}
		g.anyRaw.Store(g.someLayerRaw())
	})
}

// Close unmaps the graph's files. The Graph must not be used afterwards.
func (g *Graph) Close() error {
	if g == nil {
		return nil
	}
	var first error
	for _, l := range g.layers {
		if err := l.close(); err != nil && first == nil {
			first = err
		}
	}
	g.layers = nil
	g.total = 0
	return first
}

func (l *graphLayer) close() error {
	if l == nil || l.data == nil {
		return nil
	}
	var err error
	if l.mapped {
		err = munmap(l.data)
	}
	l.data = nil
	return err
}

// Len returns the number of commits in all layers.
func (g *Graph) Len() int {
	if g == nil {
		return 0
	}
	return int(g.total)
}

// NumLayers returns the number of files: 1 for a single file, the chain
// length for a split graph.
func (g *Graph) NumLayers() int {
	if g == nil {
		return 0
	}
	return len(g.layers)
}

// HasBloom reports whether any layer carries usable changed-path Bloom
// filters.
func (g *Graph) HasBloom() bool {
	if g == nil {
		return false
	}
	for _, l := range g.layers {
		if l.bloom.version != 0 {
			return true
		}
	}
	return false
}

// Position returns the graph position of id (its index in the
// concatenation of all layers' OID lists, base layer first), or false.
// Layers are searched from the top, as git does.
func (g *Graph) Position(id oid.ID) (uint32, bool) {
	if g == nil || id.Format() != g.format {
		return NoGraphPosition, false
	}
	raw := id.Raw()
	for i := len(g.layers) - 1; i >= 0; i-- {
		l := g.layers[i]
		if local, ok := l.search(raw, g.hashLen); ok {
			return l.base + local, true
		}
	}
	return NoGraphPosition, false
}

// search finds raw in the layer's OID list using the fan-out table.
func (l *graphLayer) search(raw []byte, h int) (uint32, bool) {
	first := raw[0]
	var lo uint32
	if first > 0 {
		lo = binary.BigEndian.Uint32(l.fanout[4*(int(first)-1):])
	}
	hi := binary.BigEndian.Uint32(l.fanout[4*int(first):])
	// A damaged fan-out (git 2.39.5 does not check it) may give a range
	// past the list's end: the search stays in the list. git's search
	// there reads past its OID list; for any ID it finds in the list
	// it finds the same position, and what it fails to find it parses
	// from the object, as here.
	hi = min(hi, l.n)
	for lo < hi {
		mid := lo + (hi-lo)/2
		c := bytes.Compare(l.oids[int(mid)*h:int(mid)*h+h], raw)
		switch {
		case c == 0:
			return mid, true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// layerOf returns the layer holding global position pos, or nil.
func (g *Graph) layerOf(pos uint32) *graphLayer {
	for i := len(g.layers) - 1; i >= 0; i-- {
		l := g.layers[i]
		if pos >= l.base {
			if pos-l.base < l.n {
				return l
			}
			return nil
		}
	}
	return nil
}

// ID returns the object ID at graph position pos.
func (g *Graph) ID(pos uint32) (oid.ID, bool) {
	l := g.layerOf(pos)
	if l == nil {
		return oid.ID{}, false
	}
	off := int(pos-l.base) * g.hashLen
	return oid.FromBytes(g.format, l.oids[off:off+g.hashLen]), true
}

// tree returns the root tree ID at graph position pos.
func (g *Graph) tree(pos uint32) (oid.ID, bool) {
	l := g.layerOf(pos)
	if l == nil {
		return oid.ID{}, false
	}
	off := int(pos-l.base) * (g.hashLen + 16)
	return oid.FromBytes(g.format, l.cdat[off:off+g.hashLen]), true
}

// PositionAsGit is the row git reads for the commit id: the row it came
// from as a parent of a commit read before (Parents, Row), else its
// lookup (Position).
func (g *Graph) PositionAsGit(id oid.ID) (uint32, bool) {
	if g == nil {
		return NoGraphPosition, false
	}
	return g.rowAsGit(id)
}

// Row reads the commit at pos as git parses it from the graph, for walks
// over many commits: its date, its generation (Generation;
// GenerationInfinity where unreadable) and its parents' rows, appended
// to parents, each noted as the row git reads for that parent (see
// PositionAsGit). Its error is the one reading the row gives (a
// *GraphDeath where git dies of it).
func (g *Graph) Row(pos uint32, parents []uint32) (date, gen uint64, out []uint32, err error) {
	e, err := g.entry(pos, parents)
	if err != nil {
		return 0, 0, parents, err
	}
	gen, ok := g.Generation(pos)
	if !ok {
		gen = GenerationInfinity
	}
	if g.namesGood.Load() {
		// Each parent's row is the one its name finds.
		return e.time, gen, e.parents, nil
	}
	g.posMu.Lock()
	if g.parentPos == nil {
		g.parentPos = map[oid.ID]uint32{}
	}
	for _, p := range e.parents[len(parents):] {
		if id, ok := g.ID(p); ok {
			if _, seen := g.parentPos[id]; !seen {
				g.parentPos[id] = p
			}
		}
	}
	g.posMu.Unlock()
	return e.time, gen, e.parents, nil
}

// Parents returns the parents the graph lists for the commit id (found
// false when the graph does not hold it), or the error reading its row
// gives (a *GraphDeath where git dies of it).
func (g *Graph) Parents(id oid.ID) (parents []oid.ID, found bool, err error) {
	pos, ok := g.rowAsGit(id)
	if !ok {
		return nil, false, nil
	}
	e, err := g.entry(pos, nil)
	if err != nil {
		return nil, false, err
	}
	for _, p := range e.parents {
		pid, ok := g.ID(p)
		if !ok {
			return nil, false, nil
		}
		parents = append(parents, pid)
	}
	g.posMu.Lock()
	if g.parentPos == nil {
		g.parentPos = map[oid.ID]uint32{}
	}
	for i, p := range e.parents {
		if _, seen := g.parentPos[parents[i]]; !seen {
			g.parentPos[parents[i]] = p
		}
	}
	g.posMu.Unlock()
	return parents, true, nil
}

// Time is the commit date the graph's row gives the commit id (found
// false when the graph does not hold it), with git's death reading the
// row's generation (see checkGeneration).
func (g *Graph) Time(id oid.ID) (time uint64, found bool, err error) {
	pos, ok := g.rowAsGit(id)
	if !ok {
		return 0, false, nil
	}
	return g.date(pos)
}

// Info is git's death in load_commit_graph_info for the commit id,
// parsed from its object, where the graph holds it (a *GraphDeath), or
// nil.
func (g *Graph) Info(id oid.ID) error {
	pos, ok := g.rowAsGit(id)
	if !ok {
		return nil
	}
	_, _, err := g.date(pos)
	return err
}

// date returns the commit date the graph's row gives the commit at pos,
// or git's death reading the row's generation (see checkGeneration).
func (g *Graph) date(pos uint32) (uint64, bool, error) {
	l := g.layerOf(pos)
	if l == nil {
		return 0, false, nil
	}
	h := g.hashLen
	local := pos - l.base
	row := l.cdat[int(local)*(h+16):]
	date := uint64(binary.BigEndian.Uint32(row[h+8:])&3)<<32 | uint64(binary.BigEndian.Uint32(row[h+12:]))
	return date, true, g.checkGeneration(l, local)
}

// checkGeneration is git's death in fill_commit_graph_info, which reads
// every commit's generation when it reads the commit from the graph: a
// corrected date's offset that needs the overflow chunk in a graph
// without one. Only the commits read are checked, as git checks them:
// a scan of the whole chunk at open (4 bytes a commit, 333 KB on
// git/git) took 80-90 us of a fresh process, more than a short walk's
// reads of it.
func (g *Graph) checkGeneration(l *graphLayer, local uint32) error {
	if !l.overflowUnread {
		return nil // the chunk is there, or generations are levels
	}
	if binary.BigEndian.Uint32(l.gda2[4*local:])&genOffsetOverflw != 0 {
		return &GraphDeath{Msg: "commit-graph requires overflow generation data but has none"}
	}
	return nil
}

// graphEntry is what the CDAT row (plus EDGE) of one commit says, but its
// tree (see tree).
type graphEntry struct {
	time    uint64
	parents []uint32 // graph positions, appended to the caller's buffer
}

// entry decodes the commit at pos, appending its parents' positions to
// parents. Every position is checked: it must lie in this layer or below
// (git dies otherwise: a *GraphDeath) and must not be the commit itself
// (a *CorruptError).
func (g *Graph) entry(pos uint32, parents []uint32) (graphEntry, error) {
	l := g.layerOf(pos)
	if l == nil {
		return graphEntry{}, &CorruptError{Path: g.topPath(), Offset: -1, Msg: fmt.Sprintf("invalid commit position %d", pos)}
	}
	h := g.hashLen
	local := pos - l.base
	row := l.cdat[int(local)*(h+16):]
	e := graphEntry{parents: parents}
	p1 := binary.BigEndian.Uint32(row[h:])
	p2 := binary.BigEndian.Uint32(row[h+4:])
	gen := binary.BigEndian.Uint32(row[h+8:])
	low := binary.BigEndian.Uint32(row[h+12:])
	e.time = uint64(gen&3)<<32 | uint64(low)
	if err := g.checkGeneration(l, local); err != nil {
		return e, err
	}
	limit := l.base + l.n
	if p1 == graphParentNone {
		return e, nil
	}
	if p1 >= limit || p1 == pos {
		return e, l.badParent(p1, pos, local)
	}
	e.parents = append(e.parents, p1)
	if p2 == graphParentNone {
		return e, nil
	}
	if p2&graphExtraEdges == 0 {
		if p2 >= limit || p2 == pos {
			return e, l.badParent(p2, pos, local)
		}
		e.parents = append(e.parents, p2)
		return e, nil
	}
	idx := uint64(p2 & graphEdgeMask)
	nEdges := uint64(len(l.edges) / 4)
	for {
		if idx >= nEdges {
			return e, &CorruptError{Path: l.path, Offset: l.cdatOffset(local), Msg: "commit-graph extra-edges pointer out of bounds"}
		}
		v := binary.BigEndian.Uint32(l.edges[4*idx:])
		if p := v & graphEdgeMask; p >= limit || p == pos {
			return e, l.badParent(p, pos, local)
		}
		e.parents = append(e.parents, v&graphEdgeMask)
		if v&graphEdgeLast != 0 {
			return e, nil
		}
		idx++
	}
}

// prefetchNext asks for the cache lines a walk that has just parsed the
// commit at pos reads next, while it works on that commit: the row of
// its first parent (parsed next), where the parent's changed-path
// filter starts (its index entry, read when the parent is parsed), and
// the commit's own filter, whose place the index entry prefetched when
// its child was parsed gives. A walk over a commit-graph takes each
// commit at a place in the graph's files that has nothing to do with the
// last one's, and most of its time on the commits the filters carry it
// past was these cache misses. Paired runs of one binary with and
// without the hints (benchmarks/startup/paired.py, 40-80 rounds):
// gitoxide README.md 0.13-0.7 ms faster, git/git README.md 0.45-0.94,
// builtin/blame.c 2.5 (3%); against the binary before them, within
// the 0.3 ms that a binary's layout moves these blames by.
func (g *Graph) prefetchNext(pos, parent uint32) {
	h := g.hashLen + 16
	if l := g.layerOf(parent); l != nil {
		local := int(parent - l.base)
		if off := local * h; off < len(l.cdat) {
			prefetch(uintptr(unsafe.Pointer(&l.cdat[off])))
		}
		if off := 4 * local; l.bloom.version != 0 && off < len(l.bidx) {
			prefetch(uintptr(unsafe.Pointer(&l.bidx[off])))
		}
	}
	if l := g.layerOf(pos); l != nil && l.bloom.version != 0 {
		local := int(pos - l.base)
		if local > 0 && 4*local <= len(l.bidx) {
			start := binary.BigEndian.Uint32(l.bidx[4*(local-1):])
			if int64(start) < int64(len(l.bdat)) {
				prefetch(uintptr(unsafe.Pointer(&l.bdat[start])))
			}
		}
	}
}

// badParent is the error for parent position p of the commit at pos
// (local in this layer): beyond this layer and those below, or the
// commit itself.
func (l *graphLayer) badParent(p, pos, local uint32) error {
	if p >= l.base+l.n {
		return &GraphDeath{Msg: fmt.Sprintf("invalid parent position %d", p)}
	}
	return &CorruptError{Path: l.path, Offset: l.cdatOffset(local), Msg: fmt.Sprintf("commit at position %d lists itself as a parent", pos)}
}

// Generation returns the generation number git 2.39.5 would use for the
// commit at pos: its corrected commit date when every layer has GDA2, its
// topological level otherwise. ok is false for a bad position or damaged
// overflow data.
func (g *Graph) Generation(pos uint32) (gen uint64, ok bool) {
	if g == nil {
		return GenerationInfinity, false
	}
	l := g.layerOf(pos)
	if l == nil {
		return GenerationInfinity, false
	}
	h := g.hashLen
	local := pos - l.base
	row := l.cdat[int(local)*(h+16):]
	genWord := binary.BigEndian.Uint32(row[h+8:])
	if !g.genData {
		return uint64(genWord >> 2), true
	}
	time := uint64(genWord&3)<<32 | uint64(binary.BigEndian.Uint32(row[h+12:]))
	off := binary.BigEndian.Uint32(l.gda2[4*local:])
	if off&genOffsetOverflw == 0 {
		return time + uint64(off), true
	}
	i := uint64(off &^ genOffsetOverflw)
	if (i+1)*8 > uint64(len(l.gdo2)) {
		return GenerationInfinity, false
	}
	return time + binary.BigEndian.Uint64(l.gdo2[8*i:]), true
}

// CorrectedDates reports whether git 2.39.5 reads this graph's corrected
// commit dates (corrected_commit_dates_enabled): every layer has them,
// and the graph holds a commit.
func (g *Graph) CorrectedDates() bool {
	return g != nil && g.genData && g.total > 0
}

// cdatOffset is the file offset of a commit's CDAT row.
func (l *graphLayer) cdatOffset(local uint32) int64 {
	return l.cdatOff + int64(local)*int64(len(l.cdat)/max(int(l.n), 1))
}

func (g *Graph) topPath() string {
	if len(g.layers) == 0 {
		return ""
	}
	return g.layers[len(g.layers)-1].path
}

// bloomFilter returns the changed-path filter of the commit at pos and
// the settings of its layer. ok is false when the layer has no filters or
// the commit's filter was not computed (length 0). err reports filter
// offsets that do not fit the data.
func (g *Graph) bloomFilter(pos uint32) (filter []byte, s bloomSettings, ok bool, err error) {
	l := g.layerOf(pos)
	if l == nil || l.bloom.version == 0 || l.raw() {
		return nil, bloomSettings{}, false, nil
	}
	local := pos - l.base
	end := binary.BigEndian.Uint32(l.bidx[4*local:])
	var start uint32
	if local > 0 {
		start = binary.BigEndian.Uint32(l.bidx[4*(local-1):])
	}
	if end < start || uint64(end) > uint64(len(l.bdat)) {
		return nil, bloomSettings{}, false, &CorruptError{Path: l.path, Offset: -1, Msg: fmt.Sprintf("changed-path filter of commit %d spans %d..%d beyond %d bytes of Bloom data", local, start, end, len(l.bdat))}
	}
	if end == start {
		return nil, bloomSettings{}, false, nil
	}
	return l.bdat[start:end], l.bloom, true, nil
}

// rawContains is git 2.39.5's bloom_filter_contains for the commit at
// pos and the path hashed as h, where the layer's Bloom index is read
// unchecked (graphLayer.bloomRaw): the filter spans the index's two
// values, subtracted in 32 bits, from where the first says; its bytes
// past the file's end read as the zeros that fill the mapping's last
// page. handled is false for a commit of a layer read otherwise. A
// byte past that page (git crashes, or reads whatever is mapped there)
// is taken for a set bit.
func (g *Graph) rawContains(pos uint32, h *bloomHash) (maybe, handled bool) {
	l := g.layerOf(pos)
	if l == nil || !l.raw() {
		return false, false
	}
	local := pos - l.base
	end := binary.BigEndian.Uint32(l.bidx[4*local:])
	var start uint32
	if local > 0 {
		start = binary.BigEndian.Uint32(l.bidx[4*(local-1):])
	}
	mod := uint64(end-start) * 8
	if mod == 0 {
		return true, true // an empty filter: "maybe"
	}
	// The filters to the file's end: bdat is a slice of data.
	file := l.data[cap(l.data)-cap(l.bdat):]
	const page = 4096
	mapped := uint64(len(file)) + (page-uint64(len(l.data))%page)%page
	for i := uint32(0); i < l.bloom.numHashes; i++ {
		bit := uint64(h.s0+i*h.s1) % mod
		at := uint64(start) + bit/8
		var b byte
		switch {
		case at < uint64(len(file)):
			b = file[at]
		case at >= mapped:
			// Past git's mapping: git crashes, or reads what lies
			// there and goes on; a bit the file says is clear below
			// still makes its answer "no" if it does not crash.
			continue
		}
		if b&(1<<(bit&7)) == 0 {
			return false, true
		}
	}
	return true, true
}

// loadLayer maps and parses one graph file. A missing or unreadable file
// gives (nil, warnings) without a new warning, as in git. A directory is
// what git opens and maps: too small for a graph (its error), or fatal
// when the mapping fails.
func loadLayer(path string, format oid.Format, warnings []string) (*graphLayer, []string, error) {
	data, mapped, err := mapGraphFile(path)
	if size, dir := fsread.DirSize(err); dir {
		if size >= int64(graphMinSize(format)) {
			return nil, warnings, errors.New(fsread.MapFailedText)
		}
		data, mapped, err = nil, false, nil // "too small", below
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			warnings = append(warnings, fmt.Sprintf("warning: cannot read commit-graph %s: %v", path, err))
		}
		return nil, warnings, nil
	}
	l, w, perr := parseLayer(path, data, format)
	warnings = append(warnings, w...)
	if perr != nil {
		if mapped {
			_ = munmap(data)
		}
		return nil, append(warnings, warningText(perr)), nil
	}
	l.mapped = mapped
	return l, warnings, nil
}

// graphMinSize is the smallest graph file git reads (GRAPH_MIN_SIZE).
func graphMinSize(format oid.Format) int {
	return graphHeaderSize + 4*chunkTOCEntrySz + graphFanoutSize + format.Size()
}

// gitError is a parse failure that git 2.39.5 reports with this exact
// text (an "error: ..." line) before ignoring the file.
type gitError struct{ msg string }

func (e *gitError) Error() string { return e.msg }

func warningText(err error) string {
	var ge *gitError
	if errors.As(err, &ge) {
		return "error: " + ge.msg
	}
	return "warning: " + err.Error() + "; ignoring the commit-graph"
}

func mapGraphFile(path string) ([]byte, bool, error) {
	f, st, err := fsread.OpenStat(path, false)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if !st.Mode().IsRegular() {
		return nil, false, &fsread.NotRegularError{Path: path, Mode: st.Mode(), Size: st.Size()}
	}
	size := st.Size()
	if b, ok := mmapFile(f, size); ok {
		return b, true, nil
	}
	if int64(int(size)) != size {
		return nil, false, fmt.Errorf("file too large")
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false, err
	}
	return b, false, nil
}

// parseLayer validates the header, the table of contents and the chunk
// sizes of one graph file. Everything a lookup later indexes is checked
// here, once, in O(1) per chunk plus the 256 fan-out entries; per-commit
// data (parent positions, extra edges, filter offsets) is checked when it
// is read.
func parseLayer(path string, data []byte, format oid.Format) (*graphLayer, []string, error) {
	h := format.Size()
	if len(data) < graphMinSize(format) {
		return nil, nil, &gitError{"commit-graph file is too small"}
	}
	if sig := binary.BigEndian.Uint32(data); sig != graphSignature {
		return nil, nil, &gitError{fmt.Sprintf("commit-graph signature %X does not match signature %X", sig, graphSignature)}
	}
	if v := data[4]; v != graphVersion {
		return nil, nil, &gitError{fmt.Sprintf("commit-graph version %X does not match version %X", v, graphVersion)}
	}
	wantHash := byte(1)
	if format == oid.SHA256 {
		wantHash = 2
	}
	if v := data[5]; v != wantHash {
		return nil, nil, &gitError{fmt.Sprintf("commit-graph hash version %X does not match version %X", v, wantHash)}
	}
	numChunks := int(data[6])
	l := &graphLayer{path: path, data: data, numBases: int(data[7])}
	if len(data) < graphHeaderSize+(numChunks+1)*chunkTOCEntrySz+graphFanoutSize+h {
		return nil, nil, &gitError{fmt.Sprintf("commit-graph file is too small to hold %d chunks", numChunks)}
	}
	type chunk struct {
		id    uint32
		start uint64
		end   uint64
	}
	chunks := make([]chunk, 0, numChunks)
	toc := data[graphHeaderSize:]
	limit := uint64(len(data) - h)
	for i := 0; i < numChunks; i++ {
		id := binary.BigEndian.Uint32(toc)
		off := binary.BigEndian.Uint64(toc[4:])
		if id == 0 {
			return nil, nil, &gitError{"terminating chunk id appears earlier than expected"}
		}
		toc = toc[chunkTOCEntrySz:]
		next := binary.BigEndian.Uint64(toc[4:])
		if next < off || next > limit {
			return nil, nil, &gitError{fmt.Sprintf("improper chunk offset(s) %x and %x", off, next)}
		}
		for _, c := range chunks {
			if c.id == id {
				return nil, nil, &gitError{fmt.Sprintf("duplicate chunk ID %x found", id)}
			}
		}
		chunks = append(chunks, chunk{id, off, next})
	}
	if id := binary.BigEndian.Uint32(toc); id != 0 {
		return nil, nil, &gitError{fmt.Sprintf("final chunk has non-zero id %x", id)}
	}
	var warnings []string
	var bidx, bdat []byte
	var gda2, gdo2 []byte
	for _, c := range chunks {
		b := data[c.start:c.end]
		switch c.id {
		case chunkOIDFanout:
			l.fanout = b
		case chunkOIDLookup:
			l.oids = b
		case chunkCommitData:
			l.cdat = b
			l.cdatOff = int64(c.start)
		case chunkExtraEdges:
			l.edges = b
		case chunkBase:
			l.bases = b
		case chunkGenData:
			gda2 = b
		case chunkGenOverflw:
			gdo2 = b
		case chunkBloomIndex:
			bidx = b
		case chunkBloomData:
			bdat = b
		}
	}
	l.checksum = data[len(data)-h:]
	if l.fanout == nil {
		return nil, nil, &gitError{"commit-graph is missing the OID Fanout chunk"}
	}
	if l.oids == nil {
		return nil, nil, &gitError{"commit-graph is missing the OID Lookup chunk"}
	}
	if l.cdat == nil {
		return nil, nil, &gitError{"commit-graph is missing the Commit Data chunk"}
	}
	// Checks git 2.39.5 does not make (newer git does): without them a
	// damaged file makes git read out of bounds or die mid-walk.
	if len(l.fanout) != graphFanoutSize {
		return nil, nil, fmt.Errorf("commit-graph %s: oid fanout chunk is wrong size (%d bytes)", path, len(l.fanout))
	}
	if len(l.oids)%h != 0 {
		return nil, nil, fmt.Errorf("commit-graph %s: OID lookup chunk is the wrong size (%d bytes)", path, len(l.oids))
	}
	n := uint64(len(l.oids) / h)
	if n >= graphParentNone {
		return nil, nil, fmt.Errorf("commit-graph %s: too many commits (%d)", path, n)
	}
	l.n = uint32(n)
	// The fan-out is not checked: git 2.39.5 takes the count from the
	// OID lookup chunk and uses the fan-out as it is, without a word,
	// where newer git refuses one out of order (search keeps its
	// ranges within the list).
	if uint64(len(l.cdat)) != n*uint64(h+16) {
		return nil, nil, fmt.Errorf("commit-graph %s: commit data chunk is wrong size (%d bytes for %d commits)", path, len(l.cdat), n)
	}
	if len(l.edges)%4 != 0 {
		l.edges = l.edges[:len(l.edges)&^3]
	}
	if l.bases != nil && len(l.bases) != l.numBases*h {
		return nil, nil, fmt.Errorf("commit-graph %s: base graphs chunk is wrong size (%d bytes for %d bases)", path, len(l.bases), l.numBases)
	}
	if gda2 != nil {
		if uint64(len(gda2)) == 4*n {
			l.gda2 = gda2
			l.gdo2 = gdo2[:len(gdo2)&^7]
		} else {
			warnings = append(warnings, fmt.Sprintf("warning: commit-graph %s: generations chunk is wrong size; using topological levels", path))
		}
	}
	if bidx != nil && bdat != nil {
		switch {
		case uint64(len(bidx)) != 4*n:
			warnings = append(warnings, fmt.Sprintf("warning: commit-graph %s: changed-path index chunk is the wrong size; ignoring its Bloom filters", path))
		case len(bdat) < bloomHeaderSize:
			warnings = append(warnings, fmt.Sprintf("warning: commit-graph %s: ignoring too-small changed-path chunk (%d < %d)", path, len(bdat), bloomHeaderSize))
		default:
			s := bloomSettings{
				version:   binary.BigEndian.Uint32(bdat),
				numHashes: binary.BigEndian.Uint32(bdat[4:]),
				bitsPer:   binary.BigEndian.Uint32(bdat[8:]),
			}
			filters := bdat[bloomHeaderSize:]
			var last uint32
			if n > 0 {
				last = binary.BigEndian.Uint32(bidx[4*(n-1):])
			}
			switch {
			case s.version != 1 && s.version != 2:
				// Unknown filter versions are ignored, as git does.
			case s.numHashes == 0 || s.numHashes > maxBloomHashes:
				warnings = append(warnings, fmt.Sprintf("warning: commit-graph %s: Bloom filter settings use %d hashes; ignoring its Bloom filters", path, s.numHashes))
			case s.version == 1:
				// Truncated data or an index out of order: git 2.39.5
				// reads the filters where the index says, without a
				// word (rawContains), as it reads every index. Whether
				// this one is in order is checked once a walk asks
				// enough of it (SettleBloom).
				l.bidx, l.bdat, l.bloom, l.bloomLazy = bidx, filters, s, true
			default:
				// A version 2 index is read whole, here: git warns of
				// it at open.
				truncated := uint64(last) > uint64(len(filters))
				ordered := !truncated && nonDecreasing(bidx)
				switch {
				case truncated:
					warnings = append(warnings, fmt.Sprintf("warning: commit-graph %s: changed-path Bloom data is truncated (%d of %d bytes); ignoring its Bloom filters", path, len(filters), last))
				case !ordered:
					warnings = append(warnings, fmt.Sprintf("warning: commit-graph %s: changed-path index is out of order; ignoring its Bloom filters", path))
				default:
					l.bidx = bidx
					l.bdat = filters
					l.bloom = s
				}
			}
		}
	}
	return l, warnings, nil
}

// nonDecreasing reports whether the BE32 values of b never decrease.
// Checking the whole Bloom index once (4 bytes per commit: at open for a
// version 2 layer, once a walk asks enough for a version 1 layer,
// SettleBloom) is what makes every filter's bounds trustworthy: a filter
// spanning its neighbours' bytes would otherwise answer for the wrong
// paths.
//
// It is kept out of line: inlined into parseLayer, its loop shared that
// function's registers and kept prev on the stack. Callgrind of git/git
// compat/writev.c: the check took 1.41 million instructions a start
// inlined (two values a round), 0.62 million out of line with four a
// round; the whole blame 10.2 -> 9.5 million. Its 12 queries are too
// few for SettleBloom to check the index since: 8.8 million.
//
//go:noinline
func nonDecreasing(b []byte) bool {
	// Four values in two loads a round: git/git's 85,000 filters are
	// checked at every start.
	var prev uint32
	for len(b) >= 16 {
		v, w := binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])
		v0, v1, v2, v3 := uint32(v>>32), uint32(v), uint32(w>>32), uint32(w)
		if v0 < prev || v1 < v0 || v2 < v1 || v3 < v2 {
			return false
		}
		prev = v3
		b = b[16:]
	}
	for len(b) >= 4 {
		v := binary.BigEndian.Uint32(b)
		if v < prev {
			return false
		}
		prev = v
		b = b[4:]
	}
	return true
}

// loadChain reads info/commit-graphs/commit-graph-chain in dir and the
// layers it names, keeping the longest valid prefix as git does.
func loadChain(dir string, objectDirs []string, format oid.Format, warnings []string) (_ []*graphLayer, _ []string, fatal error) {
	chainPath := filepath.Join(dir, "info", "commit-graphs", "commit-graph-chain")
	f, err := fsread.Open(chainPath, false)
	if err != nil {
		return nil, warnings, nil
	}
	defer f.Close()
	st, err := f.Stat()
	hexLen := format.HexSize()
	if err != nil || st.Size() <= int64(hexLen) {
		return nil, warnings, nil
	}
	count := st.Size() / int64(hexLen+1)
	if count > maxChainLength {
		return nil, append(warnings, fmt.Sprintf("warning: commit-graph chain %s names %d layers; ignoring it", chainPath, count)), nil
	}
	rd := bufio.NewReader(f)
	var layers []*graphLayer
	var names []oid.ID
	for i := int64(0); i < count; i++ {
		line, err := rd.ReadString('\n')
		if err != nil && line == "" {
			break
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		var name oid.ID
		// git takes the whole line into the layer's file name; a line
		// that could name a file outside commit-graphs/ is refused.
		ok := len(line) >= hexLen && !strings.ContainsAny(line, "/\\\x00")
		if ok {
			name, err = oid.ParseHex(format, line[:hexLen])
			ok = err == nil
		}
		if !ok {
			warnings = append(warnings, fmt.Sprintf("warning: invalid commit-graph chain: line '%s' not a hash", line))
			break
		}
		var layer *graphLayer
		for _, d := range objectDirs {
			layer, warnings, fatal = loadLayer(filepath.Join(d, "info", "commit-graphs", "graph-"+line+".graph"), format, warnings)
			if fatal != nil {
				for _, l := range layers {
					l.close()
				}
				return nil, warnings, fatal
			}
			if layer != nil {
				break
			}
		}
		valid := false
		if layer != nil {
			var w string
			valid, w = addToChain(layer, layers, names, format)
			if w != "" {
				warnings = append(warnings, w)
			}
			if !valid {
				layer.close()
			}
		}
		if !valid {
			warnings = append(warnings, "warning: unable to find all commit-graph files")
			break
		}
		names = append(names, name)
		layers = append(layers, layer)
	}
	return layers, warnings, nil
}

// addToChain checks that layer's BASE chunk lists exactly the layers
// below it (git's add_graph_to_chain) and sets its base position.
func addToChain(layer *graphLayer, below []*graphLayer, names []oid.ID, format oid.Format) (bool, string) {
	n := len(below)
	h := format.Size()
	if n > 0 && layer.bases == nil {
		return false, "warning: commit-graph has no base graphs chunk"
	}
	if len(layer.bases) != n*h {
		return false, "warning: commit-graph chain does not match"
	}
	for i := 0; i < n; i++ {
		raw := names[i].Raw()
		if !bytes.Equal(raw, below[i].checksum) || !bytes.Equal(raw, layer.bases[i*h:(i+1)*h]) {
			return false, "warning: commit-graph chain does not match"
		}
	}
	if n > 0 {
		top := below[n-1]
		total := uint64(top.base) + uint64(top.n) + uint64(layer.n)
		if total >= graphParentNone {
			return false, "warning: commit-graph chain holds too many commits"
		}
		layer.base = top.base + top.n
	}
	return true, ""
}
