package odb

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Stats counts what a Reader did. Blame can report it (--show-stats).
type Stats struct {
	ObjectsRead          int64 // objects returned by Read (and by ReadCached misses)
	BytesInflated        int64 // bytes produced by zlib (object bodies and delta data)
	DeltasApplied        int64 // deltas replayed onto their bases
	DeltaBaseCacheHits   int64 // pack entries found in the delta-base cache
	DeltaBaseCacheMisses int64 // delta bases that had to be read from the pack
	ObjectCacheHits      int64 // ReadCached answered from the by-ID cache
	ObjectCacheMisses    int64 // ReadCached that had to read the object
	PackRescans          int64 // pack directory rescans after a missing object
	EntryPreads          int64 // pack entries read with pread rather than through the mapping
	EntryWindowHits      int64 // pack entries found in a recent pread window instead
	DeltaBaseCacheBound  int64 // the delta-base cache's bound now (it grows where a larger one would hit)
	DeltaBaseOversized   int64 // bytes the cache keeps outside its bound now: the last base larger than its ceiling, and the buffer of the one before (DropOversized)
	PrefixReads          int64 // ReadPrefix calls answered with the start of an object (not counted in ObjectsRead)
	CheckedPrefixes      int64 // the ReadCheckedPrefix calls among them
	CheckedBytes         int64 // bytes of the entries whose CRC ReadCheckedPrefix checked, each up to its bound
	IndexSearches        int64 // pack indexes searched for the objects read (packs a multi-pack-index covers are not counted)
}

// Reader reads objects from a DB. It owns an inflater, a delta-base cache,
// a by-ID object cache and scratch buffers, so it must be used by one
// goroutine at a time; make one Reader per goroutine.
type Reader struct {
	db      *DB
	exclude *pack     // a pack whose copies this reader does not read (readElsewhere)
	collect *[]string // where warnCopies puts its lines instead of the DB's warnings (readElsewhere)
	depth   int       // readElsewhere's reads this one is made within
	// recovered: what git printed making the last object read from a
	// delta base it read from another copy (Recovered)
	recovered []string
	inflater  inflater
	bases     *deltaBaseCache
	objects   *objectCache
	stats     Stats

	chain []chainLink
	root  chainLink // walkChain's full entry at the bottom of a chain
	// ReadPrefix's deltas, inflated, and what it knows of each.
	prefixDeltas []byte
	prefixLinks  []prefixLink
	windows      [][]byte // pread windows of the delta entries of one read (see entry)
	// fullWindow is the pread window of the full entry of a read (at
	// the bottom of its chain), apart from the deltas': in its link's
	// slot, each slot's buffer grew to the largest full entry a chain of
	// that depth had, and 64 slots of a reader kept dozens of them (vim
	// -C src/insexpand.c: 20 MB of the readers' buffers live).
	fullWindow []byte
	recent     recentWindows
	refHops    []baseKey
	deltaBuf   []byte
	looseBuf   []byte
	hdrBuf     [maxLooseHeader]byte
	sizeBuf    [20]byte // the two size varints at the start of delta data

	// stop, when set (StopWhen), gives up reads once it holds true.
	stop *atomic.Bool

	growCache bool // default cache size: grow it for bulk reads
	// stride: only every stride-th intermediate result of a delta chain
	// goes to the delta-base cache; the others are replayed in scratch
	// (see keepIntermediate). 0 or 1: every one.
	stride      int
	scratch     [2][]byte
	scratchNext int
	bad         []*pack
	// hinted is where the object ReadCheckedPrefix's next named was
	// found, which is mostly the object read next (see locateChecked).
	hinted struct {
		id  oid.ID
		set *packSet
		loc location
	}
	nextEnds int // checked prefixes whose entry ended at next's (for the tests)
}

// chainLink is one delta entry on the way from a requested object down to
// its base.
type chainLink struct {
	pack *pack
	off  uint64
	hdr  entryHeader
	// stream holds the link's zlib stream: a window read with pread
	// (fromFile) or a view of the mapping.
	stream   []byte
	fromFile bool
}

// NewReader returns a Reader with its own caches.
func (db *DB) NewReader() *Reader {
	return db.newReader(db.opts.DeltaBaseCacheBytes, db.opts.ObjectCacheBytes)
}

// NewReaderCache returns a Reader whose delta-base cache holds at most
// deltaBaseBytes (it does not grow for bulk reads as NewReader's default
// does); for callers that bound their memory.
func (db *DB) NewReaderCache(deltaBaseBytes int64) *Reader {
	if deltaBaseBytes == 0 {
		deltaBaseBytes = -1
	}
	return db.newReader(deltaBaseBytes, db.opts.ObjectCacheBytes)
}

// NewReaderFullCache is NewReaderCache for reads scattered over many
// files' histories, such as the candidates a -C blame reads ahead: the
// cache's bound is deltaBaseBytes from the start, not grown there as
// misses show a larger cache would hit (their bases come back across a
// wide span: gitoxide -C gix/src/lib.rs took 0.90 s of CPU against 0.97 s
// starting small), and only every scatteredStride-th intermediate result
// of a delta chain is cached (see keepIntermediate).
func (db *DB) NewReaderFullCache(deltaBaseBytes int64) *Reader {
	r := db.NewReaderCache(deltaBaseBytes)
	r.bases.setLimit(r.bases.maxLimit)
	r.stride = scatteredStride
	return r
}

func (db *DB) newReader(deltaBaseBytes, objectBytes int64) *Reader {
	r := &Reader{db: db}
	if deltaBaseBytes == 0 {
		deltaBaseBytes = DefaultDeltaBaseCacheBytes
		r.growCache = true
	}
	if deltaBaseBytes < 0 {
		deltaBaseBytes = 0
	}
	r.bases = newDeltaBaseCache(deltaBaseBytes)
	if objectBytes == 0 {
		objectBytes = DefaultObjectCacheBytes
	}
	if objectBytes > 0 {
		r.objects = newObjectCache(objectBytes)
	}
	return r
}

// StopWhen makes the reader give up its reads with ErrStopped once
// *flag is true: a read under way stops at the next link of its delta
// chain. For a reader working ahead of another goroutine, which may then
// stop waiting for it within a link instead of a whole chain (a root tree
// of git/git, 50 deltas deep in a cold part of the pack, took a look-ahead
// 0.3-6 ms to read). Call it before the reader's first read.
func (r *Reader) StopWhen(flag *atomic.Bool) { r.stop = flag }

// stopped reports whether the reader's reads are to be given up.
func (r *Reader) stopped() bool { return r.stop != nil && r.stop.Load() }

// SetDeltaBaseCeiling sets the bound the reader's delta-base cache may
// grow to (as NewReaderCache's size; 0 or less: the default), evicting
// what it holds above a lower one at once. A blame of a large file raises
// it to hold a few of the file's versions, and lowers it again when done.
func (r *Reader) SetDeltaBaseCeiling(n int64) {
	if n <= 0 {
		n = DefaultDeltaBaseCacheBytes
	}
	r.bases.setCeiling(n)
}

// DropOversized lets go of the delta base larger than the cache's
// ceiling that the reader keeps for the next read of its chain, and of
// that base's spare buffer: a reader kept for later use (a pool's)
// then holds no more than its cache's bound, however large the objects
// it read.
func (r *Reader) DropOversized() { r.bases.dropOversized() }

// Stats returns the reader's counters so far.
func (r *Reader) Stats() Stats {
	s := r.stats
	s.DeltaBaseCacheBound = r.bases.limit
	s.DeltaBaseOversized = int64(cap(r.bases.over.data) + cap(r.bases.overSpare))
	return s
}

func (r *Reader) checkFormat(id oid.ID) error {
	if r.db.closed.Load() {
		return ErrClosed
	}
	if id.Format() != r.db.format {
		return fmt.Errorf("odb: object name %s has format %v, the repository %v", id, id.Format(), r.db.format)
	}
	return nil
}

// Read returns the type and content of the object id (after replace refs),
// the content appended to dst[:0]. Bytes the caller passes in dst are
// reused when large enough, so a loop that feeds back the returned slice
// stops allocating.
func (r *Reader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	id, err := r.db.replace(id)
	if err != nil {
		return 0, nil, err
	}
	if err := r.checkFormat(id); err != nil {
		return 0, nil, err
	}
	return r.readReplaced(id, dst)
}

// readReplaced is Read of an ID replace refs have been applied to, of the
// database's format.
func (r *Reader) readReplaced(id oid.ID, dst []byte) (object.Type, []byte, error) {
	typ, data, err := r.read(id, dst)
	if err == nil {
		r.stats.ObjectsRead++
	}
	if r.growCache && r.isBulkRead() {
		r.growCache = false
		r.bases.setLimit(BulkDeltaBaseCacheBytes)
	}
	return typ, data, err
}

// isBulkRead reports a workload for which the default cache is too small:
// a lot of data inflated, or delta-base lookups that mostly miss (objects
// read in an order unrelated to their delta chains, such as every object
// by name). Histories of one file and walks over trees hit 50-70% of the
// time and keep the small cache.
func (r *Reader) isBulkRead() bool {
	s := &r.stats
	if s.BytesInflated > BulkReadThreshold {
		return true
	}
	lookups := s.DeltaBaseCacheHits + s.DeltaBaseCacheMisses
	return lookups >= 4096 && s.DeltaBaseCacheMisses > 3*s.DeltaBaseCacheHits
}

// read reads id (no replace refs), falling back to other copies of the
// object when the first one is corrupt, and rescanning the pack
// directories once when it is not found.
func (r *Reader) read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	if id == oid.EmptyTree(r.db.format) {
		return object.Tree, dst[:0], nil
	}
	if r.stopped() {
		return 0, nil, ErrStopped
	}
	raw := id.Raw()
	r.bad = r.bad[:0]
	r.recovered = nil
	var firstErr error
	var failed []string // git's lines for the copies that failed
	rescanned, fetched := false, false
	for {
		loc, err := r.db.locate(raw, r.skipBad, &r.stats.IndexSearches)
		if loc.pack == nil && loc.looseDir == "" {
			firstErr = cmpOr(firstErr, err)
			if !rescanned {
				rescanned = true
				r.rescan()
				continue
			}
			if firstErr != nil {
				return 0, nil, fmt.Errorf("odb: reading %s: %w", id, r.withCopies(firstErr, failed, id))
			}
			if !fetched {
				fetched = true
				if asked, err := r.db.fetchMissing(id); err != nil {
					return 0, nil, err
				} else if asked {
					continue
				}
			}
			return 0, nil, notFound(id)
		}
		var typ object.Type
		var data []byte
		if loc.pack != nil {
			typ, data, err = r.readPacked(loc.pack, loc.offset, dst)
		} else {
			typ, data, err = r.readLoose(loc.looseDir, raw, dst)
		}
		if err == nil {
			r.warnCopies(failed)
			return typ, data, nil
		}
		if errors.Is(err, ErrStopped) {
			return 0, nil, err
		}
		if loc.pack != nil {
			t, made, lines, gerr := r.db.packedAsGit(loc.pack, loc.offset, id, err, r.depth)
			if made != nil {
				// git made it after all, reading a delta base from
				// another copy
				r.warnCopies(append(failed, lines...))
				r.recovered = lines
				return t, append(dst[:0], made...), nil
			}
			g := gitFailure(gerr)
			if g != nil {
				failed = append(failed, g.Lines...)
			}
			if firstErr == nil {
				err = gerr
			}
			if g != nil && g.Died {
				// git dies there: no other copy is read
				r.bad = append(r.bad, loc.pack)
				return 0, nil, fmt.Errorf("odb: reading %s: %w", id, r.withDeath(cmpOr(firstErr, err), failed, g))
			}
		}
		if loc.pack == nil || !isCorrupt(err) {
			return 0, nil, fmt.Errorf("odb: reading %s: %w", id, r.withCopies(cmpOr(firstErr, err), failed, id))
		}
		// Like git, mark the pack bad for this object and look for
		// another copy (another pack, or a loose file).
		firstErr = cmpOr(firstErr, err)
		r.bad = append(r.bad, loc.pack)
	}
}

// gitFailure is the GitFailure err carries, or nil.
func gitFailure(err error) *GitFailure {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return ce.Git
	}
	return nil
}

// warnCopies records what git printed reading the copies of an object
// that failed before one it read (each copy's unpack_entry lines), as
// the DB's warnings: git goes on with the object.
func (r *Reader) warnCopies(lines []string) {
	if r.collect != nil {
		*r.collect = append(*r.collect, lines...)
		return
	}
	for _, l := range lines {
		r.db.warnAlways(l)
	}
}

// Recovered returns the lines git printed making the object the last
// Read returned from a delta base it read from another copy (the base
// failed in the object's pack): git prints them again each time it
// reads that object, where other damage it read around (a copy that
// failed before another) is marked and not read again.
func (r *Reader) Recovered() []string { return r.recovered }

// WarnAgain records lines (Recovered's) among the DB's warnings once
// more: git read that object again.
func (r *Reader) WarnAgain(lines []string) {
	for _, l := range lines {
		r.db.warnAlways(l)
	}
}

// withDeath is err, the failure of the first copy of id read, made
// git's death reading a later copy, death: the lines of each copy read
// (failed) and death's fatal line.
func (r *Reader) withDeath(err error, failed []string, death *GitFailure) error {
	if gitFailure(err) == death {
		return err
	}
	return withGitFailure(err, func(git *GitFailure) {
		git.Lines, git.Fatal = failed, death.Fatal
	})
}

// withCopies is err, the failure of the first copy of id read, made what
// git reports when every copy failed: the lines of each copy it read, in
// the order read (failed), and death naming the first of the packs that
// failed in git's scan order (has_packed_and_bad), not the first read.
func (r *Reader) withCopies(err error, failed []string, id oid.ID) error {
	if g := gitFailure(err); g == nil || !g.Packed || len(r.bad) == 0 {
		return err
	}
	return withGitFailure(err, func(git *GitFailure) {
		git.Lines = failed
		if first := r.db.firstInScan(r.bad); first != nil && git.Fatal == r.db.packedCorrupt(r.bad[0], id) {
			git.Fatal = r.db.packedCorrupt(first, id)
		}
	})
}

// withGitFailure is err, a CorruptError carrying git's failure, with a
// copy of that failure changed by edit (err as it is without one).
func withGitFailure(err error, edit func(*GitFailure)) error {
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Git == nil {
		return err
	}
	c := *ce
	git := *ce.Git
	edit(&git)
	c.Git = &git
	return &c
}

func (r *Reader) skipBad(p *pack) bool {
	if p == r.exclude {
		return true
	}
	for _, b := range r.bad {
		if b == p {
			return true
		}
	}
	return false
}

func (r *Reader) rescan() {
	r.db.rescan()
	r.stats.PackRescans++
}

// Has reports whether the object exists (without replace refs, as git's
// has_object). The empty tree always exists.
func (r *Reader) Has(id oid.ID) bool {
	if id.Format() != r.db.format || r.db.closed.Load() {
		return false
	}
	if id == oid.EmptyTree(r.db.format) {
		return true
	}
	raw := id.Raw()
	if loc, _ := r.db.locate(raw, nil, nil); loc.pack != nil || loc.looseDir != "" {
		return true
	}
	r.rescan()
	loc, _ := r.db.locate(raw, nil, nil)
	return loc.pack != nil || loc.looseDir != ""
}

// ReadCached is Read through the reader's by-ID cache, for objects a walk
// reads repeatedly (commits, trees). The returned bytes are shared: they
// must not be modified, and they stay valid after later calls.
func (r *Reader) ReadCached(id oid.ID) (object.Type, []byte, error) {
	id, err := r.db.replace(id)
	if err != nil {
		return 0, nil, err
	}
	if r.objects != nil {
		if typ, data, ok := r.objects.get(id); ok {
			r.stats.ObjectCacheHits++
			return typ, data, nil
		}
		r.stats.ObjectCacheMisses++
	}
	if err := r.checkFormat(id); err != nil {
		return 0, nil, err
	}
	typ, data, err := r.read(id, nil)
	if err != nil {
		return 0, nil, err
	}
	r.stats.ObjectsRead++
	if data == nil {
		data = []byte{}
	}
	if r.objects != nil {
		r.objects.put(id, typ, data)
	}
	return typ, data, nil
}

// ReadHeader returns the type and size of the object id (after replace
// refs) without inflating its content where it can: for a delta only the
// size header of the delta data is inflated, and the type comes from the
// base at the end of the chain. Where that size header is damaged but the
// chain's entry headers are not, the type is returned with size -1, as
// git's read of the type alone gets it (the object itself cannot be
// read).
func (r *Reader) ReadHeader(id oid.ID) (object.Type, int64, error) {
	id, err := r.db.replace(id)
	if err != nil {
		return 0, 0, err
	}
	if err := r.checkFormat(id); err != nil {
		return 0, 0, err
	}
	if id == oid.EmptyTree(r.db.format) {
		return object.Tree, 0, nil
	}
	raw := id.Raw()
	r.bad = r.bad[:0]
	var firstErr error
	var failed []string // git's lines for the copies that failed
	rescanned, fetched := false, false
	for {
		loc, err := r.db.locate(raw, r.skipBad, &r.stats.IndexSearches)
		if loc.pack == nil && loc.looseDir == "" {
			firstErr = cmpOr(firstErr, err)
			if !rescanned {
				rescanned = true
				r.rescan()
				continue
			}
			if firstErr != nil {
				return 0, 0, fmt.Errorf("odb: reading %s: %w", id, firstErr)
			}
			if !fetched {
				fetched = true
				if asked, err := r.db.fetchMissing(id); err != nil {
					return 0, 0, err
				} else if asked {
					continue
				}
			}
			return 0, 0, notFound(id)
		}
		var typ object.Type
		var size int64
		if loc.pack != nil {
			typ, size, err = r.packedInfo(loc.pack, loc.offset)
		} else {
			typ, size, err = r.looseInfo(loc.looseDir, raw)
		}
		if err == nil {
			r.warnCopies(failed)
			return typ, size, nil
		}
		var g *GitFailure
		if loc.pack != nil {
			gtyp, gsize, gerr := r.db.packedTypeAsGit(loc.pack, loc.offset, id, err)
			if gerr == nil {
				r.warnCopies(failed)
				return gtyp, gsize, nil
			}
			if g = gitFailure(gerr); g != nil {
				failed = append(failed, g.InfoLines...)
			}
			if firstErr == nil {
				err = gerr
			}
		}
		if g != nil && g.Died {
			// git dies there: no other copy is read
			return 0, 0, fmt.Errorf("odb: reading %s: %w", id, cmpOr(firstErr, err))
		}
		if loc.pack == nil || !isCorrupt(err) {
			return 0, 0, fmt.Errorf("odb: reading %s: %w", id, cmpOr(firstErr, err))
		}
		firstErr = cmpOr(firstErr, err)
		r.bad = append(r.bad, loc.pack)
	}
}

// chainError is ErrDeltaChain with what was wrong: constants, not
// fmt.Errorf values, so that no formatting runs at start-up.
type chainError uint8

const (
	errChainTooDeep chainError = iota
	errChainCycle
)

func (e chainError) Error() string {
	if e == errChainCycle {
		return ErrDeltaChain.Error() + ": REF_DELTA cycle"
	}
	return fmt.Sprintf("%v: deeper than %d", ErrDeltaChain, deltaChainLimit)
}

func (e chainError) Unwrap() error { return ErrDeltaChain }

func (e chainError) Is(target error) bool {
	return target == ErrDeltaCycle && e == errChainCycle || target == ErrDeltaTooDeep && e == errChainTooDeep
}

// followRef finds the base of a REF_DELTA entry: in the same pack first
// (where git looks), then anywhere in the database. A loose base is
// returned as looseDir.
func (r *Reader) followRef(p *pack, baseID []byte) (location, error) {
	off, ok, err := p.find(baseID)
	if err != nil {
		return location{}, err
	}
	if ok {
		return location{pack: p, offset: off}, nil
	}
	loc, err := r.db.locate(baseID, nil, &r.stats.IndexSearches)
	if loc.pack == nil && loc.looseDir == "" {
		if err == nil {
			// Not ErrNotFound: the object asked for exists, its base does not.
			err = fmt.Errorf("%w: base %x not found", ErrDeltaChain, baseID)
		}
		return location{}, err
	}
	return loc, nil
}

// noteRefHop records a REF_DELTA step and reports whether it revisits an
// entry (a cycle, possible only in a hostile pack).
func (r *Reader) noteRefHop(k baseKey) bool {
	for _, h := range r.refHops {
		if h == k {
			return true
		}
	}
	r.refHops = append(r.refHops, k)
	return false
}

// readPacked reads the entry at (p, off), resolving its delta chain
// iteratively: walk down to a full object or a cached base, then replay the
// deltas upwards. Intermediate results go to the delta-base cache (taking
// ownership, no copy); the last one is written straight into dst.
func (r *Reader) readPacked(p *pack, off uint64, dst []byte) (object.Type, []byte, error) {
	chain, bottom, err := r.walkChain(p, off, -1)
	defer func() { r.chain = chain[:0] }()
	if err != nil {
		return 0, nil, err
	}
	return r.replayChain(chain, bottom, dst)
}

// replayChain makes the object at the top of chain from its bottom
// (walkChain's results).
func (r *Reader) replayChain(chain []chainLink, bottom chainBottom, dst []byte) (object.Type, []byte, error) {
	var (
		baseType  = bottom.typ
		base      = bottom.data
		baseOwned = bottom.owned // base is a buffer of ours, to hand to the cache
		baseKeyOK bool           // base came from a pack entry (cacheable under baseKey)
		bKey      baseKey
		// baseWeight is the cost of recomputing a byte of base.
		baseWeight uint32 = costInflate
	)
	switch {
	case bottom.cached && len(chain) == 0:
		return baseType, append(dst[:0], base...), nil
	case bottom.entry != nil:
		// A base goes to a buffer of the delta-base cache, whose spare
		// capacity the inflater may use; the object itself to the
		// caller's dst, which it may not.
		e := bottom.entry
		var buf []byte
		if len(chain) == 0 {
			buf = grow(dst, int(e.hdr.size))
		} else {
			buf = r.bases.buffer(int(e.hdr.size))
		}
		if err := r.inflateEntry(e, buf, len(chain) > 0); err != nil {
			return 0, nil, err
		}
		if len(chain) == 0 {
			return baseType, buf, nil
		}
		base, baseOwned, baseKeyOK, bKey = buf, true, true, baseKey{e.pack.id, e.off}
	}

	for i := len(chain) - 1; i >= 0; i-- {
		if r.stopped() {
			return 0, nil, ErrStopped
		}
		l := &chain[i]
		keep := i != 0 && r.keepIntermediate(len(chain)-i)
		into := dst
		if i != 0 && !keep {
			into = r.scratch[r.scratchNext]
		}
		out, err := r.applyLink(l, base, i == 0 || !keep, into)
		if err != nil {
			return 0, nil, err
		}
		if i != 0 && !keep {
			// The other scratch buffer may hold base: the next one
			// not kept goes there.
			r.scratch[r.scratchNext] = out
			r.scratchNext ^= 1
		}
		if baseOwned {
			if baseKeyOK {
				r.bases.put(bKey, baseType, base, baseWeight)
			} else {
				r.bases.recycle(base)
			}
		}
		// The next base is this delta's result: recomputing a byte of it
		// costs a replay plus the inflation of the delta data.
		baseWeight = costReplay + uint32(min(costInflate*l.hdr.size/uint64(max(len(out), 1)), costInflate))
		base, baseOwned, baseKeyOK, bKey = out, keep, true, baseKey{l.pack.id, l.off}
	}
	return baseType, base, nil
}

// chainBottom is where the replay of a delta chain starts: a base from
// the delta-base cache (cached: data is the cache's, not to be modified;
// partial: only its first bytes), a loose base read into a buffer of
// ours (owned), or a full entry of a pack not inflated yet (entry, whose
// typ is set).
type chainBottom struct {
	typ     object.Type
	data    []byte
	cached  bool
	partial bool
	owned   bool
	entry   *chainLink
}

// walkChain walks from the entry at (p, off) down its delta chain to a
// cached base or a full object, checking each link's header, and returns
// the deltas met on the way (the requested entry first; they alias
// r.chain, which the caller resets when done with them) and the bottom.
// A cached base is the whole object, or with prefix >= 0 also the first
// bytes of one if there are at least prefix of them (ReadPrefix).
func (r *Reader) walkChain(p *pack, off uint64, prefix int) ([]chainLink, chainBottom, error) {
	chain := r.chain[:0]
	r.refHops = r.refHops[:0]
	curP, curOff := p, off
	for {
		if r.stopped() {
			return chain, chainBottom{}, ErrStopped
		}
		key := baseKey{curP.id, curOff}
		if typ, data, partial, ok := r.bases.getPrefix(key, prefix); ok {
			r.stats.DeltaBaseCacheHits++
			return chain, chainBottom{typ: typ, data: data, cached: true, partial: partial}, nil
		}
		if len(chain) > 0 {
			r.stats.DeltaBaseCacheMisses++
		}
		r.bases.missed(key)
		h, stream, fromFile, err := r.entry(curP, curOff, len(chain))
		if err != nil {
			return chain, chainBottom{}, err
		}
		if h.typ < typeOfsDelta {
			if h.size > maxInflatedFrom(len(stream)) {
				return chain, chainBottom{}, corrupt(curP.packPath(), int64(curOff), nil, "entry claims %d bytes, more than the rest of the pack can hold", h.size)
			}
			if h.size > r.db.maxObject {
				return chain, chainBottom{}, r.db.tooLarge(curP.packPath(), int64(curOff), h.size)
			}
			r.root = chainLink{pack: curP, off: curOff, hdr: h, stream: stream, fromFile: fromFile}
			return chain, chainBottom{typ: object.Type(h.typ), entry: &r.root}, nil
		}
		chain = append(chain, chainLink{pack: curP, off: curOff, hdr: h, stream: stream, fromFile: fromFile})
		if len(chain) > deltaChainLimit {
			return chain, chainBottom{}, corrupt(p.packPath(), int64(off), errChainTooDeep, "delta chain too deep")
		}
		if h.typ == typeOfsDelta {
			curOff = h.baseOff
			continue
		}
		loc, err := r.followRef(curP, h.baseID)
		if err != nil {
			return chain, chainBottom{}, corrupt(curP.packPath(), int64(curOff), err, "cannot find REF_DELTA base %x", h.baseID)
		}
		if loc.pack == nil {
			typ, buf, err := r.readLoose(loc.looseDir, h.baseID, r.bases.buffer(0))
			if err != nil {
				return chain, chainBottom{}, err
			}
			return chain, chainBottom{typ: typ, data: buf, owned: true}, nil
		}
		if r.noteRefHop(baseKey{loc.pack.id, loc.offset}) {
			return chain, chainBottom{}, corrupt(curP.packPath(), int64(curOff), errChainCycle, "delta chain cycles")
		}
		curP, curOff = loc.pack, loc.offset
	}
}

// inflateEntry inflates the full (not delta) entry e into buf, which has
// its declared size; spare says buf is a buffer of ours whose spare
// capacity the inflater may use.
func (r *Reader) inflateEntry(e *chainLink, buf []byte, spare bool) error {
	inflate := r.inflater.inflate
	if spare {
		inflate = r.inflater.inflateSpare
	}
	if err := r.inflateLink(e, buf, inflate); err != nil {
		return corrupt(e.pack.packPath(), int64(e.off), err, "unable to inflate %s entry", object.Type(e.hdr.typ))
	}
	return nil
}

// inflateLink inflates all of l's zlib stream into buf (its declared
// size) with inflate, counting the bytes and marking the pack pages the
// stream took as read. A stream read into a pread window that cut it
// short is inflated again from the mapping, which holds all of it (and
// says what is wrong if it is bad).
func (r *Reader) inflateLink(l *chainLink, buf []byte, inflate func(out, src []byte) (int, error)) error {
	consumed, err := inflate(buf, l.stream)
	if err != nil && l.fromFile {
		l.stream, l.fromFile = r.mappedStream(l.pack, &l.hdr), false
		consumed, err = inflate(buf, l.stream)
	}
	if err != nil {
		return err
	}
	r.stats.BytesInflated += int64(len(buf))
	if !l.fromFile {
		l.pack.touch(l.off, l.hdr.dataOff+uint64(consumed))
	}
	return nil
}

// keepIntermediate reports whether the result of the delta n links above
// the bottom of a replay (a full object or a cached base) goes to the
// delta-base cache. A Reader with a stride of k keeps every k-th; the
// others are replayed in two scratch buffers that stay warm. Scattered
// reads, one version each of many files 30-50 deltas deep, otherwise
// fill the cache with a fresh buffer per link that evicts other chains
// before anything comes back to it: gitoxide -C gix/src/lib.rs allocated
// 222 MB of them for a 16 MiB cache and replayed 8,858 deltas; keeping
// every 8th it allocates 12 MB and replays 6,123 (the chains that stay
// cached come back, at most 7 links further down). Numbered from the
// bottom, the kept depths of chains sharing a root line up.
func (r *Reader) keepIntermediate(n int) bool {
	return r.stride <= 1 || n%r.stride == 0
}

// scatteredStride is NewReaderFullCache's stride, the best measured on
// -C blames (deltas replayed, page faults) of gitoxide gix/src/lib.rs
// (stride 1, 4, 8, 12: 8,858, 8,419, 6,123, 6,767 deltas), git/git
// builtin/blame.c (2,945, 2,895, 2,827, 2,875) and go-git repository.go
// (2,076, 2,537, 2,757, 2,837 deltas, but 13.0k, 9.7k, 8.9k, 9.2k faults).
const scatteredStride = 8

// applyLink inflates the delta data of one chain link and replays it on
// base, into dst when last is set and into a cache buffer otherwise.
func (r *Reader) applyLink(l *chainLink, base []byte, last bool, dst []byte) ([]byte, error) {
	if l.hdr.size > maxInflatedFrom(len(l.stream)) {
		return nil, corrupt(l.pack.packPath(), int64(l.off), nil, "delta claims %d bytes, more than the rest of the pack can hold", l.hdr.size)
	}
	if l.hdr.size > r.db.maxObject {
		return nil, r.db.tooLarge(l.pack.packPath(), int64(l.off), l.hdr.size)
	}
	delta := growSpare(r.deltaBuf, int(l.hdr.size))
	r.deltaBuf = delta
	if err := r.inflateLink(l, delta, r.inflater.inflateSpare); err != nil {
		return nil, corrupt(l.pack.packPath(), int64(l.off), err, "unable to inflate delta")
	}
	baseSize, resultSize, opsStart, err := deltaHeader(delta)
	if err != nil {
		return nil, corrupt(l.pack.packPath(), int64(l.off), err, "bad delta")
	}
	if baseSize != uint64(len(base)) {
		return nil, corrupt(l.pack.packPath(), int64(l.off), errDeltaBaseSize, "delta expects a base of %d bytes, base has %d", baseSize, len(base))
	}
	ops := delta[opsStart:]
	if resultSize <= plausibleDeltaResult(len(base), len(ops)) && resultSize <= r.db.maxObject {
		// A declared size the data at hand could plausibly make is
		// allocated and replayed at once: applyDelta checks every
		// instruction and that they fill the result exactly, which is
		// what deltaResultLen's pass would have confirmed first. A delta
		// it rejects takes the careful way below for the same error.
		out := r.deltaOut(last, dst, int(resultSize))
		if applyDelta(out, base, ops) == nil {
			r.stats.DeltasApplied++
			return out, nil
		}
	}
	n, err := deltaResultLen(ops, len(base))
	if err != nil {
		return nil, corrupt(l.pack.packPath(), int64(l.off), err, "bad delta")
	}
	if n != resultSize {
		return nil, corrupt(l.pack.packPath(), int64(l.off), errDeltaResultSize, "delta declares %d bytes, its instructions make %d", resultSize, n)
	}
	if n > r.db.maxObject {
		return nil, r.db.tooLarge(l.pack.packPath(), int64(l.off), n)
	}
	out := r.deltaOut(last, dst, int(n))
	if err := applyDelta(out, base, ops); err != nil {
		return nil, corrupt(l.pack.packPath(), int64(l.off), err, "bad delta")
	}
	r.stats.DeltasApplied++
	return out, nil
}

// plausibleDeltaResult bounds the result sizes applyLink allocates
// before checking the delta's instructions: twice the base and delta
// data, which git's deltas stay far below (a result is its base with
// some regions dropped and some inserted from the delta). Larger ones
// are allocated only once deltaResultLen has counted them.
func plausibleDeltaResult(baseLen, opsLen int) uint64 {
	return 2 * (uint64(baseLen) + uint64(opsLen))
}

// deltaOut returns the buffer of n bytes a delta's result goes to: dst
// for the last link of a chain, else a delta-base cache buffer.
func (r *Reader) deltaOut(last bool, dst []byte, n int) []byte {
	if last {
		return grow(dst, n)
	}
	return r.bases.buffer(n)
}

// packedInfo returns the type and size of the entry at (p, off): the size
// from the entry header or, for a delta, from the result-size field of its
// delta data; the type from the end of the chain.
func (r *Reader) packedInfo(p *pack, off uint64) (object.Type, int64, error) {
	data, err := p.packData()
	if err != nil {
		return 0, 0, err
	}
	h, err := p.entryHeader(data, off)
	if err != nil {
		return 0, 0, err
	}
	if h.typ < typeOfsDelta {
		return object.Type(h.typ), int64(h.size), nil
	}
	sizes := r.sizeBuf[:]
	n, err := r.inflater.inflatePrefix(sizes, p.stream(data, &h))
	if err != nil {
		return 0, 0, corrupt(p.packPath(), int64(off), err, "unable to inflate delta header")
	}
	_, resultSize, _, err := deltaHeader(sizes[:n])
	if err != nil {
		return 0, 0, corrupt(p.packPath(), int64(off), err, "bad delta header")
	}
	if resultSize > 1<<62 {
		return 0, 0, corrupt(p.packPath(), int64(off), nil, "delta result size overflows")
	}
	typ, err := r.chainType(p, off, h)
	if err != nil {
		return 0, 0, err
	}
	return typ, int64(resultSize), nil
}

// chainType follows a delta chain down to its base, reading only entry
// headers, and returns the base's type.
func (r *Reader) chainType(p *pack, off uint64, h entryHeader) (object.Type, error) {
	r.refHops = r.refHops[:0]
	curP, curOff := p, off
	for depth := 0; ; depth++ {
		if depth > deltaChainLimit {
			return 0, corrupt(p.packPath(), int64(off), errChainTooDeep, "delta chain too deep")
		}
		if depth > 0 {
			if typ, _, ok := r.bases.get(baseKey{curP.id, curOff}); ok {
				return typ, nil
			}
			data, err := curP.packData()
			if err != nil {
				return 0, err
			}
			h, err = curP.entryHeader(data, curOff)
			if err != nil {
				return 0, err
			}
		}
		switch h.typ {
		case typeOfsDelta:
			curOff = h.baseOff
		case typeRefDelta:
			loc, err := r.followRef(curP, h.baseID)
			if err != nil {
				return 0, corrupt(curP.packPath(), int64(curOff), err, "cannot find REF_DELTA base %x", h.baseID)
			}
			if loc.pack == nil {
				typ, _, err := r.looseInfo(loc.looseDir, h.baseID)
				return typ, err
			}
			if r.noteRefHop(baseKey{loc.pack.id, loc.offset}) {
				return 0, corrupt(curP.packPath(), int64(curOff), errChainCycle, "delta chain cycles")
			}
			curP, curOff = loc.pack, loc.offset
		default:
			return object.Type(h.typ), nil
		}
	}
}

// Pack entries are read with pread from the pack's open file where there
// is one (pack.file), not through its mapping: a blame's reads are
// scattered over the pack, so nearly every entry faulted, and each fault
// maps up to 16 pages around the faulting one into the resident set (a
// fault cost about 25 µs on the VMs this was first measured on, 1.5-1.8
// µs on today's, where pread keeps small blames under git's peak memory:
// see doc.go). The mapping stays for what the windows cannot serve:
// entries larger than maxPreadEntry, the links of chains deeper than
// heldWindows, and streams that inflate past the window read (a zlib
// stream can be longer than compressedBound, never in git's packs, and
// a corrupt one is reported from the mapping).
const (
	entryWindow = 4 << 10 // first read of an entry: its header and, mostly, all its data
	// entryWindowBefore is how much of a window comes before the entry
	// it is read for (see recentWindows).
	entryWindowBefore = 1 << 10
	maxPreadEntry     = 1 << 20 // larger entries are read from the mapping
	heldWindows       = 64      // chain links whose windows one read keeps (git's packs are at most 50 deep)
)

// compressedBound is how many bytes the zlib stream of n inflated bytes
// takes at most as git (and zlib) writes it: stored blocks of 64 KiB
// with 5 bytes of header each, plus the zlib header and checksum.
func compressedBound(n uint64) uint64 { return n + n/8192 + 64 }

// entry returns the header of the entry at off in p and the bytes that
// hold its zlib stream; fromFile says they are a window read into the
// reader's buffer number slot (valid until the next read with that slot)
// rather than a view of the mapping.
func (r *Reader) entry(p *pack, off uint64, slot int) (entryHeader, []byte, bool, error) {
	data, err := p.packData()
	if err != nil {
		return entryHeader{}, nil, false, err
	}
	if p.file != nil && slot < heldWindows {
		if h, stream, ok := r.readEntry(p, off, slot, uint64(len(data))); ok {
			return h, stream, true, nil
		}
	}
	h, err := p.entryHeader(data, off)
	if err != nil {
		return h, nil, false, err
	}
	return h, p.stream(data, &h), false, nil
}

// readEntry reads the entry at off with pread. ok is false where the
// mapping must serve it: a header that does not parse (corrupt, which the
// mapping reports), data larger than maxPreadEntry, a failed read.
func (r *Reader) readEntry(p *pack, off uint64, slot int, packLen uint64) (h entryHeader, stream []byte, ok bool) {
	end := packLen - uint64(p.format.Size()) // streams end before the trailer
	if off < 12 || off >= end {
		return h, nil, false
	}
	for len(r.windows) <= slot {
		r.windows = append(r.windows, nil)
	}
	// The bytes from off that a recent window holds, if they hold the
	// entry's header and stream, else a new window read from off.
	var need uint64
	win := r.recent.find(p, off)
	if win != nil {
		var err error
		if h, err = p.entryHeaderIn(win, off, off, packLen); err != nil {
			win = nil
		} else if need = h.needed(off, end); need > uint64(len(win)) {
			win = nil
		} else {
			r.stats.EntryWindowHits++
		}
	}
	if win == nil {
		// The window starts entryWindowBefore bytes before the entry
		// (see recentWindows).
		start := off - min(uint64(entryWindowBefore), off-12)
		w := r.recent.next(p, start)
		n := min(uint64(entryWindow), end-start)
		if _, err := p.file.ReadAt(w.buf[:n], int64(start)); err != nil {
			w.p = nil
			return h, nil, false
		}
		w.n = n
		r.stats.EntryPreads++
		win = w.buf[off-start : n]
		var err error
		if h, err = p.entryHeaderIn(win, off, off, packLen); err != nil {
			return h, nil, false
		}
		need = h.needed(off, end)
	}
	if compressedBound(h.size) > maxPreadEntry {
		return h, nil, false
	}
	// The entry's bytes go to the slot's own buffer: a recent window is
	// replaced by the next read that misses, which may be a deeper link
	// of this same read. A full entry, which ends the chain, goes to
	// fullWindow.
	target := &r.windows[slot]
	if h.typ < typeOfsDelta {
		target = &r.fullWindow
	}
	n := min(need, uint64(len(win)))
	buf := grow(*target, int(n))
	copy(buf, win[:n])
	if h.baseID != nil {
		// The REF_DELTA base id ends where the stream starts: a view
		// into buf now, not into the window.
		h.baseID = buf[h.dataOff-off-uint64(len(h.baseID)) : h.dataOff-off]
	}
	if need > n {
		if uint64(cap(buf)) >= need {
			buf = buf[:need]
		} else {
			more := make([]byte, need)
			copy(more, buf)
			buf = more
			h, _ = p.entryHeaderIn(buf, off, off, packLen) // baseID into the new buffer
		}
		if _, err := p.file.ReadAt(buf[n:], int64(off+n)); err != nil {
			return h, nil, false
		}
	}
	*target = buf
	return h, buf[h.dataOff-off : need], true
}

// needed is how many bytes from off the entry at off takes at most: its
// header and the bound of its stream, within the pack's streams, which
// end at end.
func (h *entryHeader) needed(off, end uint64) uint64 {
	return min(h.dataOff-off+compressedBound(h.size), end-off)
}

// recentWindows are the last windows a Reader read with pread, each
// entryWindow bytes from entryWindowBefore before an entry's offset: pack
// entries are mostly a few hundred bytes and a blame reads neighbours
// (the links of a chain, a tree and its base), so that on gitoxide's
// gix/src/lib.rs 42% of the entries are found in one of the last 16
// windows (32: 45%), and a copy of a few hundred bytes replaces a pread
// of about 1.5 µs. Many of the neighbours come before the entry read
// first (a delta's base is written before the delta): windows starting
// 1 KiB before their entry take 18-46% fewer preads on real repositories
// than windows starting at it, as they did until 2026-12-08 (strace, the
// same builds otherwise: go-git GitLens README.md 249 -> 167,
// repository.go 635 -> 493; git/git README.md 1,916 -> 1,029,
// builtin/blame.c 8,844 -> 5,785, po/ca.po 1,733 -> 1,411; gitoxide
// README.md 2,123 -> 1,559, -C gix/src/lib.rs 12,519 -> 10,257; redis
// src/cluster.c 166 -> 103, src/server.c 11,567 -> 7,764). Starting 2
// KiB before, windows of 8 KiB took 14-32% fewer again, for twice the
// windows' memory; starting 512 bytes before, or 2 KiB before only where
// the reads go backwards, about as many as 1 KiB. Some fixtures of
// blamecore's budget test, packs of a few dozen small entries read
// mostly forwards, take up to 44% more (each window reaches 1 KiB less
// far ahead), others fewer (a linear history's 20 -> 7). A window that ends before its entry does takes a
// second pread for the rest, as an entry longer than a window did.
type recentWindows struct {
	w    [recentWindowCount]recentWindow
	last int // the window read last
}

const recentWindowCount = 16

type recentWindow struct {
	p   *pack // nil: empty
	off uint64
	n   uint64
	buf []byte
}

// find returns the bytes from off that a recent window of p holds, nil
// if none does. Newest first: a read's next entry is mostly near its
// last.
func (rw *recentWindows) find(p *pack, off uint64) []byte {
	for i := range recentWindowCount {
		w := &rw.w[(rw.last-i+recentWindowCount)%recentWindowCount]
		if w.p == p && off >= w.off && off-w.off < w.n {
			return w.buf[off-w.off : w.n]
		}
	}
	return nil
}

// next returns the oldest window, which a read from off in p replaces.
// Each window's buffer is allocated when the window is first used: a
// short blame reads a few entries.
func (rw *recentWindows) next(p *pack, off uint64) *recentWindow {
	rw.last = (rw.last + 1) % recentWindowCount
	w := &rw.w[rw.last]
	if w.buf == nil {
		w.buf = make([]byte, entryWindow)
	}
	w.p, w.off, w.n = p, off, 0
	return w
}

// mappedStream returns an entry's stream from the pack's mapping.
func (r *Reader) mappedStream(p *pack, h *entryHeader) []byte {
	data, _ := p.packData() // mapped: the entry was read before
	return p.stream(data, h)
}
