package odb

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/oid"
)

// Options tune a DB. The zero value is git's behaviour with goblame's
// measured cache sizes.
type Options struct {
	// DeltaBaseCacheBytes bounds each Reader's cache of delta bases, keyed
	// by (pack, offset); the cache starts smaller (512 KiB) and grows to
	// the bound only where a larger cache would have hit (see
	// deltaBaseCache). 0 selects the measured default: 8 MiB
	// (DefaultDeltaBaseCacheBytes), raised to git's 96 MiB
	// (BulkDeltaBaseCacheBytes) for bulk reads such as reading every
	// object: once the reader has inflated more than BulkReadThreshold
	// bytes, or once three quarters of at least 4096 base lookups missed.
	// A negative value disables the cache.
	DeltaBaseCacheBytes int64
	// ObjectCacheBytes bounds each Reader's by-ID cache used by ReadCached.
	// 0 selects DefaultObjectCacheBytes; a negative value disables it.
	ObjectCacheBytes int64
	// ExtraAlternates are the entries of GIT_ALTERNATE_OBJECT_DIRECTORIES
	// (see ParseAlternateList) as the variable gives them, absolute or
	// relative to WorkDir. Git 2.39.5 links them before the entries of
	// objects/info/alternates, so they are searched first among alternates.
	ExtraAlternates []string
	// WorkDir is the directory git works in, which relative
	// ExtraAlternates are taken from ("": the process's).
	WorkDir string
	// ObjectsDirName is what messages call the objects directory (git's
	// name for it: ".git/objects"); "": its path.
	ObjectsDirName string
	// DisableMultiPackIndex ignores multi-pack-index files
	// (core.multiPackIndex=false); every pack is then read through its .idx.
	DisableMultiPackIndex bool
	// MaxObjectBytes bounds the size an object (or a delta base or delta
	// on the way to it) may declare: a larger one is refused with a
	// *TooLargeError before anything is allocated for it. 0 selects
	// DefaultMaxObjectBytes (1 GiB); a negative value leaves only the
	// bound every read has, what the compressed bytes can inflate to.
	MaxObjectBytes int64
}

// Default cache sizes, chosen by measurement (see doc.go).
const (
	DefaultDeltaBaseCacheBytes = 8 << 20
	BulkDeltaBaseCacheBytes    = 96 << 20
	BulkReadThreshold          = 256 << 20
	DefaultObjectCacheBytes    = 16 << 20
	DefaultMaxObjectBytes      = 1 << 30
)

// MaxDeltaChainDepth bounds the delta chains a Reader resolves. git
// writes at most 4095 (pack.depth's maximum; 50 by default) but reads any
// depth, and other tools write deeper chains (50,000 deltas resolve
// with git); REF_DELTA cycles are detected separately and OFS_DELTA bases
// always lie before their delta, so the bound only caps the memory of a
// chain's bookkeeping (a few dozen bytes a link). A longer chain is
// treated as corrupt ("delta chain too deep").
const MaxDeltaChainDepth = 1 << 20

// deltaChainLimit is MaxDeltaChainDepth, lowered by tests.
var deltaChainLimit = MaxDeltaChainDepth

// DB is a read-only git object database: one objects directory, its
// alternates, their packs (with multi-pack-indexes) and loose objects. A DB
// is shared by any number of goroutines; each reads through its own Reader.
type DB struct {
	format oid.Format
	opts   Options
	dirs   []string // main first, then alternates in git's order (HasAlternates)

	state atomic.Pointer[packSet]

	scanMu     sync.Mutex
	nextPackID uint32
	packsByKey map[string]*pack
	midxByDir  map[string]*multiPackIndex
	rescans    atomic.Int64

	replacements map[oid.ID]oid.ID

	countMu    sync.Mutex
	countValid bool
	count      int64

	// looseCache holds the loose object names of each fan-out directory
	// listed for unique abbreviations (git's odb_loose_cache): a directory
	// is read once per DB, until the next rescan. looseDirs holds, per
	// objects directory, which of its 256 fan-out subdirectories exist,
	// from one listing of the directory, so that an abbreviation of an
	// object whose fan-out directory is absent (in a packed repository,
	// nearly all of them) costs no failed open; AbbrevFingerprint uses
	// the same listing. looseDirReads counts the directories read.
	looseMu       sync.Mutex
	looseCache    map[string][]oid.ID
	looseDirs     map[string]*fanoutDirs
	looseDirReads atomic.Int64

	closed atomic.Bool

	fetch *missingFetch // SetFetchMissing; nil: none

	maxObject uint64 // Options.MaxObjectBytes in effect (math.MaxUint64: none)

	// warnings are the lines about damage the DB works around (a
	// multi-pack-index it ignores), each once, in the order found; the
	// list only grows (see Warnings).
	warnMu   sync.Mutex
	warned   map[string]bool
	warnings []string
}

// warnAlways records line, as often as it comes (git repeats an error
// for each alternates entry that gives it).
func (db *DB) warnAlways(line string) {
	db.warnMu.Lock()
	defer db.warnMu.Unlock()
	db.warnings = append(db.warnings, line)
}

// warnOnce records line, once per key.
func (db *DB) warnOnce(key, line string) {
	db.warnMu.Lock()
	defer db.warnMu.Unlock()
	if db.warned[key] {
		return
	}
	if db.warned == nil {
		db.warned = map[string]bool{}
	}
	db.warned[key] = true
	db.warnings = append(db.warnings, line)
}

// Warnings returns the warning lines about damage the DB has read around
// so far, such as a multi-pack-index that fails to parse (its packs are
// then read through their own indexes) or that names a pack it does not
// list: each once, in the order found, worded as the line to print.
//
// The damage is the repository's, not one read's, so the list is never
// drained: a unit of work (a blame) that calls Warnings when it is done
// gets every line about damage its own reads met, whichever Reader
// happened to record it first, and also those that concurrent or earlier
// work on the same DB met — as each git process run on the repository
// would print them again. Safe for concurrent use.
func (db *DB) Warnings() []string {
	db.warnMu.Lock()
	defer db.warnMu.Unlock()
	return slices.Clone(db.warnings)
}

func maxObjectBytes(opt int64) uint64 {
	switch {
	case opt == 0:
		return DefaultMaxObjectBytes
	case opt < 0:
		return math.MaxUint64
	}
	return uint64(opt)
}

// tooLarge reports size bytes declared at (path, off), over the DB's
// object size limit (the caller compares with maxObject first, so that
// the path is made only for the error).
func (db *DB) tooLarge(path string, off int64, size uint64) error {
	return &TooLargeError{Path: path, Offset: off, Size: size, Limit: int64(min(db.maxObject, math.MaxInt64))}
}

// packSet is an immutable snapshot of the known packs, replaced as a whole
// when the pack directories are rescanned.
type packSet struct {
	midxs []*multiPackIndex // in directory order
	packs []*pack           // packs no MIDX covers: local first, then newest first
	all   []*pack           // every pack, indexed by pack.id
	// unmappable is what git dies of preparing the packs: a
	// multi-pack-index that is a directory it maps (every object read
	// fails with it).
	unmappable error
	// recent is the one of packs that found the last object looked up
	// there, tried first (git keeps its packs in most-recently-used
	// order, packed_git_mru, from the order above at each scan): in a
	// repository of many packs, a walk finds most of its objects in the
	// pack of the one before, and where two packs hold an object, git
	// reads the copy in the pack it used last.
	recent atomic.Pointer[pack]
}

// Open opens the object database rooted at objectsDir (a repository's
// objects directory) for the given object format. It reads the alternates
// and lists the pack directories; pack and index files are mapped lazily.
func Open(objectsDir string, format oid.Format, opts Options) (*DB, error) {
	if format.Size() == 0 {
		return nil, fmt.Errorf("odb: unknown object format %v", format)
	}
	st, err := os.Stat(objectsDir)
	if err != nil {
		return nil, fmt.Errorf("odb: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("odb: %s is not a directory", objectsDir)
	}
	db := &DB{
		format:     format,
		opts:       opts,
		maxObject:  maxObjectBytes(opts.MaxObjectBytes),
		packsByKey: map[string]*pack{},
		midxByDir:  map[string]*multiPackIndex{},
	}
	db.dirs = append([]string{objectsDir}, loadAlternates(objectsDir, opts, db.warnAlways)...)
	db.scanMu.Lock()
	db.scanLocked()
	db.scanMu.Unlock()
	return db, nil
}

// ParseAlternateList splits the value of GIT_ALTERNATE_OBJECT_DIRECTORIES
// the way git does: ':'-separated entries, each optionally C-quoted (a
// quoted entry may contain ':'), with '#' entries ignored.
func ParseAlternateList(value string) []string {
	return parseAlternates([]byte(value), os.PathListSeparator)
}

// Format returns the object format of the database.
func (db *DB) Format() oid.Format { return db.format }

// ObjectDirs returns the main objects directory followed by the alternates
// in git's search order (environment alternates, then info/alternates,
// nested ones right after the directory that lists them). Alternates are
// real paths.
func (db *DB) ObjectDirs() []string { return slices.Clone(db.dirs) }

// PackBytes returns the size of every pack file the database has listed
// (those of multi-pack-indexes included), as its scans of the pack
// directories saw them: the stat of the scan, no I/O of its own.
func (db *DB) PackBytes() int64 {
	var n int64
	for _, p := range db.state.Load().all {
		n += p.size
	}
	return n
}

// SetReplacements installs replace refs: reading key returns the object
// named by value (following chains up to git's depth of 5). Call it once,
// before any Reader is made.
func (db *DB) SetReplacements(m map[oid.ID]oid.ID) {
	if len(m) == 0 {
		db.replacements = nil
		return
	}
	db.replacements = make(map[oid.ID]oid.ID, len(m))
	for k, v := range m {
		db.replacements[k] = v
	}
}

// Replaced is the object a read of id returns: id with the replace refs
// applied (id itself where they loop too deep).
func (db *DB) Replaced(id oid.ID) oid.ID {
	r, err := db.replace(id)
	if err != nil {
		return id
	}
	return r
}

// replace applies the replace refs to id.
func (db *DB) replace(id oid.ID) (oid.ID, error) {
	if db.replacements == nil {
		return id, nil
	}
	cur := id
	for depth := 0; depth < 5; depth++ {
		next, ok := db.replacements[cur]
		if !ok {
			return cur, nil
		}
		cur = next
	}
	if _, ok := db.replacements[cur]; ok {
		return id, fmt.Errorf("odb: replacing %s: %w", id, ErrReplaceDepth)
	}
	return cur, nil
}

// Close unmaps every file. No Reader may be used during or after Close.
func (db *DB) Close() error {
	if db.closed.Swap(true) {
		return nil
	}
	db.scanMu.Lock()
	defer db.scanMu.Unlock()
	for _, p := range db.packsByKey {
		p.close()
	}
	for _, m := range db.midxByDir {
		if m != nil && m.mapping != nil {
			m.mapping.close()
		}
	}
	db.state.Store(&packSet{})
	return nil
}

// scanLocked lists every pack directory and installs a new packSet. Packs
// already known are kept (with their mappings); new .idx files are added.
// A multi-pack-index is loaded once per directory, as git does.
func (db *DB) scanLocked() {
	var set packSet
	old := db.state.Load()
	if old != nil {
		set.all = slices.Clone(old.all)
		set.unmappable = old.unmappable // (a MIDX is loaded once)
	}
	type listed struct {
		p   *pack
		dir int
	}
	var regular []listed
	for di, dir := range db.dirs {
		packDir := filepath.Join(dir, "pack")
		local := di == 0
		m, loaded := db.midxByDir[dir]
		if !loaded && !db.opts.DisableMultiPackIndex {
			m = db.loadMultiPackIndex(packDir, local, &set)
			db.midxByDir[dir] = m
		}
		if m != nil {
			set.midxs = append(set.midxs, m)
		}
		// In the order the file system gives (git's readdir), not
		// sorted by name as os.ReadDir lists it.
		names, err := fsread.ReadDirNames(packDir)
		if err != nil {
			continue
		}
		for _, name := range names {
			if !strings.HasSuffix(name, ".idx") {
				continue
			}
			if m != nil && slices.Contains(m.packNames, name) {
				continue
			}
			base := filepath.Join(packDir, strings.TrimSuffix(name, ".idx"))
			p := db.packsByKey[base]
			if p == nil {
				st, err := os.Stat(base + ".pack")
				if err != nil || !st.Mode().IsRegular() {
					continue // an .idx without its .pack: ignore, as git does
				}
				p = db.newPack(base, local, &set)
				p.mtime, p.size = st.ModTime(), st.Size()
			}
			regular = append(regular, listed{p, di})
		}
	}
	// git's order (prepare_packed_git): each pack put in front of the
	// list as the directories are read, the packs it had before behind
	// them, then a stable sort that puts local packs first and newer
	// ones (by the second of their mtime) before older ones.
	slices.Reverse(regular)
	if old != nil {
		known := make(map[*pack]int, len(old.packs))
		for i, p := range old.packs {
			known[p] = i + 1
		}
		slices.SortStableFunc(regular, func(a, b listed) int {
			return cmp.Compare(known[a.p], known[b.p])
		})
	}
	slices.SortStableFunc(regular, func(a, b listed) int {
		if a.p.local != b.p.local {
			if a.p.local {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.p.mtime.Unix(), a.p.mtime.Unix())
	})
	for _, l := range regular {
		set.packs = append(set.packs, l.p)
	}
	db.state.Store(&set)
}

// firstInScan is the first of packs in the order of the last scan (git's
// packed_git list), or nil when none is in it.
func (db *DB) firstInScan(packs []*pack) *pack {
	for _, p := range db.state.Load().packs {
		if slices.Contains(packs, p) {
			return p
		}
	}
	return nil
}

func (db *DB) newPack(base string, local bool, set *packSet) *pack {
	p := &pack{id: db.nextPackID, base: base, gitBase: db.gitName(base), format: db.format, local: local}
	db.nextPackID++
	db.packsByKey[base] = p
	set.all = append(set.all, p)
	return p
}

// loadMultiPackIndex maps and validates <packDir>/multi-pack-index. A
// missing or unusable file yields nil: the packs are then read through
// their own indexes.
func (db *DB) loadMultiPackIndex(packDir string, local bool, set *packSet) *multiPackIndex {
	path := filepath.Join(packDir, "multi-pack-index")
	mp, err := mapFile(path)
	if size, dir := fsread.DirSize(err); dir {
		// git opens a directory and maps it: too small for the
		// smallest file (its error), or the mapping fails (fatal).
		if size < int64(12+db.format.Size()) { // MIDX_MIN_SIZE
			db.warnOnce(path, "error: multi-pack-index file "+path+" is too small")
		} else if set.unmappable == nil {
			set.unmappable = ErrUnmappable
		}
		return nil
	}
	if err != nil {
		return nil
	}
	m, err := parseMultiPackIndex(path, mp.data, db.format)
	if err != nil {
		mp.close()
		db.warnOnce(path, "warning: "+err.Error()+"; ignoring the multi-pack-index")
		return nil
	}
	m.mapping = mp
	for i, name := range m.packNames {
		base := filepath.Join(packDir, strings.TrimSuffix(name, ".idx"))
		st, err := os.Stat(base + ".pack")
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		p := db.packsByKey[base]
		if p == nil {
			p = db.newPack(base, local, set)
			p.mtime, p.size = st.ModTime(), st.Size()
		}
		p.inMidx = true
		m.packs[i] = p
	}
	return m
}

// rescan re-lists the pack directories (after a miss: a concurrent repack
// may have moved objects into a new pack).
func (db *DB) rescan() {
	if db.closed.Load() {
		return
	}
	db.scanMu.Lock()
	db.scanLocked()
	db.scanMu.Unlock()
	db.rescans.Add(1)
	db.countMu.Lock()
	db.countValid = false
	db.countMu.Unlock()
	db.looseMu.Lock()
	db.looseCache = nil
	db.looseDirs = nil
	db.looseMu.Unlock()
}

// location says where an object is stored.
type location struct {
	pack     *pack
	offset   uint64
	looseDir string // objects directory holding a loose copy; "" if packed
	// idxPos is the object's position in the pack's own index plus one
	// (0: not known, as when a multi-pack-index found it).
	idxPos uint32
}

// locate finds an object in the packs (MIDXes first, then the other packs)
// or as a loose file. Packs for which skip returns true are not consulted.
// The first error met in an unusable pack or index is returned when the
// object is not found elsewhere. searched, when not nil, counts the
// indexes of packs outside a MIDX searched (Stats.IndexSearches).
func (db *DB) locate(raw []byte, skip func(*pack) bool, searched *int64) (location, error) {
	set := db.state.Load()
	if set.unmappable != nil {
		return location{}, set.unmappable
	}
	var firstErr error
	for _, m := range set.midxs {
		i, ok := m.find(raw)
		if !ok {
			continue
		}
		num, off, err := m.entry(i)
		if err == nil {
			p := m.packs[num]
			if p != nil && (skip == nil || !skip(p)) {
				if _, err = p.packData(); err == nil {
					p.viaMidx.Store(true)
					return location{pack: p, offset: off}, nil
				}
			}
		}
		if err != nil {
			db.warnOnce(m.path, "warning: "+err.Error()+"; reading its packs through their own indexes")
		}
		firstErr = cmpOr(firstErr, err)
		// The MIDX entry is unusable (damaged, its pack missing or bad, or
		// skipped after a corrupt read): look in the packs it covers
		// through their own indexes.
		for _, p := range m.packs {
			if p == nil || (skip != nil && skip(p)) {
				continue
			}
			off, pos, ok, err := p.findPos(raw)
			if err != nil || !ok {
				firstErr = cmpOr(firstErr, err)
				continue
			}
			if _, err := p.packData(); err != nil {
				firstErr = cmpOr(firstErr, err)
				continue
			}
			p.viaMidx.Store(true)
			return location{pack: p, offset: off, idxPos: pos + 1}, nil
		}
	}
	// The lines of unusable packs passed on the way, which git prints
	// each time a lookup tries such a pack (check_packed_git_idx,
	// open_packed_git) before it finds the object in another one.
	var passed []string
	try := func(p *pack) (location, bool, error) {
		if searched != nil {
			*searched++
		}
		loc, found, noted, err := p.locate(raw)
		if noted != nil {
			firstErr = cmpOr(firstErr, noted)
			var le *LookupError
			if errors.As(noted, &le) {
				passed = append(passed, le.Line)
			}
		}
		if found {
			for _, l := range passed {
				db.warnAlways(l)
			}
		}
		return loc, found, err
	}
	recent := set.recent.Load()
	if recent != nil && (skip == nil || !skip(recent)) {
		if loc, found, err := try(recent); found || err != nil {
			return loc, err
		}
	}
	for _, p := range set.packs {
		if p == recent || skip != nil && skip(p) {
			continue
		}
		if loc, found, err := try(p); found || err != nil {
			if found {
				set.recent.Store(p)
			}
			return loc, err
		}
	}
	for _, dir := range db.dirs {
		if st, err := os.Stat(loosePath(dir, db.format, raw)); err == nil && st.Mode().IsRegular() {
			return location{looseDir: dir}, nil
		}
	}
	return location{}, firstErr
}

// locate looks raw up in p for DB.locate: found with its location, or
// an error git dies of (an index it cannot open, an offset it cannot
// read); noted is an unusable index or pack, which the lookup passes.
func (p *pack) locate(raw []byte) (loc location, found bool, noted, err error) {
	off, pos, ok, err := p.findPos(raw)
	if err != nil {
		if errors.Is(err, ErrUnmappable) || errors.Is(err, errBadLargeOffset) {
			// git dies opening that index, or reading the offset
			return location{}, false, nil, err
		}
		return location{}, false, err, nil
	}
	if !ok {
		return location{}, false, nil, nil
	}
	if _, err := p.packData(); err != nil {
		return location{}, false, err, nil
	}
	return location{pack: p, offset: off, idxPos: pos + 1}, true, nil, nil
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func notFound(id oid.ID) error {
	return fmt.Errorf("odb: %s: %w", id, ErrNotFound)
}

func isCorrupt(err error) bool {
	var c *CorruptError
	return errors.As(err, &c)
}

// HasAlternates reports whether the database has alternate object
// directories besides its own.
func (db *DB) HasAlternates() bool { return len(db.dirs) > 1 }

// AlternateDirs returns the alternate object directories, in git's order
// (foreach_alt_odb's).
func (db *DB) AlternateDirs() []string { return slices.Clone(db.dirs[1:]) }
