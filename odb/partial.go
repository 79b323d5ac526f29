package odb

import (
	"slices"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// ReadPrefix is Read for a caller that needs only the start of an object,
// such as a tree lookup, which reads entries up to the name it looks for
// (in git/git's 22 KB root tree, README.md's entry ends 1 KB in). data
// holds at least the object's first n bytes; whole reports that it is
// the whole object, exactly as Read returns it, which is what a loose
// object, an object of at most n bytes, and anything the shortcut below
// cannot serve get (errors included: a failed shortcut reads the object
// the ordinary way, which reports what is wrong as Read does).
//
// The shortcut replays a packed object's delta chain only as far as the
// prefix needs. Every link's delta data is inflated whole and checked as
// Read checks it (its base and result sizes, and every instruction
// against its base), but the full object at the bottom of the chain is
// inflated only up to the last byte the copies reach, so damage to the
// rest of its zlib stream (or to its checksum) goes unseen where Read
// would report it. A tree at the bottom of a chain of seven deltas costs
// one inflate of a few KiB and seven small ones instead of 22 KiB
// inflated and 150 KiB copied.
func (r *Reader) ReadPrefix(id oid.ID, n int, dst []byte) (typ object.Type, data []byte, whole bool, err error) {
	id, err = r.db.replace(id)
	if err != nil {
		return 0, nil, false, err
	}
	if err := r.checkFormat(id); err != nil {
		return 0, nil, false, err
	}
	if n > 0 && id != oid.EmptyTree(r.db.format) {
		if loc, _ := r.db.locate(id.Raw(), nil, nil); loc.pack != nil {
			if typ, data, whole, ok := r.readPackedPrefix(loc.pack, loc.offset, n, dst); ok {
				if whole {
					r.stats.ObjectsRead++
				} else {
					r.stats.PrefixReads++
				}
				return typ, data, whole, nil
			}
		}
	}
	typ, data, err = r.readReplaced(id, dst)
	return typ, data, true, err
}

// maxPrefixDeltaBytes bounds the delta data one ReadPrefix holds
// inflated at once (a chain's deltas are all inflated before any is
// replayed); a chain with more is read whole.
const maxPrefixDeltaBytes = 1 << 20

// prefixLink is one delta of a chain that readPackedPrefix replays: its
// delta data (ops, in Reader.prefixDeltas), its declared sizes, and how
// much of its result the replay makes.
type prefixLink struct {
	start, end           int // ops: prefixDeltas[start:end]
	baseSize, resultSize uint64
	need                 int // how much of the result the read needs
	make                 int // how much of it the replay makes (need, or more for the cache)
}

// readPackedPrefix is ReadPrefix's shortcut for the entry at (p, off):
// the first n bytes of it (whole false) when it is larger than that and
// they can be made for less than the whole, else the whole object, as
// Read makes it from the chain already walked. ok is false when
// something is wrong, or a prefix in the delta-base cache is too short
// for the chain above it: Read then reads it again (and says what is
// wrong).
func (r *Reader) readPackedPrefix(p *pack, off uint64, n int, dst []byte) (typ object.Type, data []byte, whole, ok bool) {
	// A chain stops at a prefix in the cache that holds at least n bytes;
	// when the chain above needs more of it (each delta of a tree that
	// grew before the entries looked for moves them further), the walk
	// goes on below prefixes shorter than that, at most twice.
	for minPrefix, try := n, 0; ; try++ {
		var short int
		typ, data, whole, ok, short = r.tryPackedPrefix(p, off, n, minPrefix, dst)
		if short == 0 || try == 2 {
			return typ, data, whole, ok && short == 0
		}
		minPrefix = short
	}
}

// tryPackedPrefix is one try of readPackedPrefix, its chain stopping at
// cached prefixes of at least minPrefix bytes: short is how many bytes
// the one it stopped at needed to have, if it was too short.
func (r *Reader) tryPackedPrefix(p *pack, off uint64, n, minPrefix int, dst []byte) (typ object.Type, data []byte, whole, ok bool, short int) {
	chain, bottom, err := r.walkChain(p, off, minPrefix)
	defer func() { r.chain = chain[:0] }()
	if err != nil {
		return 0, nil, false, false, 0
	}
	readWhole := func() (object.Type, []byte, bool, bool, int) {
		if bottom.partial {
			return 0, nil, false, false, 0
		}
		typ, data, err := r.replayChain(chain, bottom, dst)
		return typ, data, true, err == nil, 0
	}
	if len(chain) == 0 {
		switch e := bottom.entry; {
		case bottom.partial:
			return bottom.typ, append(dst[:0], bottom.data[:n]...), false, true, 0
		case e != nil && e.hdr.size > uint64(n):
			out, ok := r.inflateEntryPrefix(e, grow(dst, n))
			return bottom.typ, out, false, ok, 0
		}
		return readWhole()
	}
	typ, data, ok, short = r.replayPrefix(chain, bottom, n, dst)
	if ok && data == nil {
		return readWhole()
	}
	if bottom.owned {
		r.bases.recycle(bottom.data)
	}
	return typ, data, false, ok, short
}

// replayPrefix makes the first n bytes of the object at the top of chain
// (ok), or returns no data (and ok) when the whole object should be made
// instead: it is no larger than n, or the prefix needs all of the full
// entry at the bottom. short is set (not ok) when the bottom is a cached
// prefix shorter than the chain needs: how long it would have to be. The
// prefixes it makes on the way go to the delta-base cache (putPrefix),
// where the next prefix read of a chain that shares them stops.
func (r *Reader) replayPrefix(chain []chainLink, bottom chainBottom, n int, dst []byte) (typ object.Type, data []byte, ok bool, short int) {
	// Inflate and check every delta, newest first.
	links := r.prefixLinks[:0]
	deltas := r.prefixDeltas[:0]
	defer func() { r.prefixLinks, r.prefixDeltas = links[:0], deltas[:0] }()
	for i := range chain {
		l := &chain[i]
		size := l.hdr.size
		if size > maxInflatedFrom(len(l.stream)) || size > r.db.maxObject || uint64(len(deltas))+size > maxPrefixDeltaBytes {
			return 0, nil, false, 0
		}
		start := len(deltas)
		deltas = slices.Grow(deltas, int(size))[:start+int(size)]
		delta := deltas[start:]
		if r.inflateLink(l, delta, r.inflater.inflate) != nil {
			return 0, nil, false, 0
		}
		baseSize, resultSize, opsStart, err := deltaHeader(delta)
		if err != nil || baseSize > r.db.maxObject || resultSize > r.db.maxObject {
			return 0, nil, false, 0
		}
		if made, err := deltaResultLen(delta[opsStart:], int(baseSize)); err != nil || made != resultSize {
			return 0, nil, false, 0
		}
		if i == 0 && resultSize <= uint64(n) {
			return 0, nil, true, 0
		}
		links = append(links, prefixLink{start: start + opsStart, end: len(deltas), baseSize: baseSize, resultSize: resultSize})
	}

	// How much of each result the replay needs, newest first: the first
	// n bytes of the object, and of each base what its delta's copies
	// into that part reach. Each base must be the size its delta says.
	need := n
	for i := range links {
		lk := &links[i]
		if i+1 < len(links) && lk.baseSize != links[i+1].resultSize {
			return 0, nil, false, 0
		}
		lk.need = min(need, int(lk.resultSize))
		lk.make = lk.need
		need = deltaCopyReach(deltas[lk.start:lk.end], lk.need)
	}
	last := &links[len(links)-1]
	want := planSlack(links, deltas, prefixSlack)

	// The bottom of the chain: a base in memory (whole, or a long enough
	// prefix of it), or the first bytes of a full entry, inflated whole
	// where the slack would take nearly all of it.
	base := bottom.data
	// pending is base when it is a buffer of ours to hand to the cache
	// once it has been replayed on (as replayChain hands its bases).
	var pending struct {
		key     baseKey
		weight  uint32
		ok      bool
		partial bool
	}
	switch e := bottom.entry; {
	case e != nil:
		if e.hdr.size != last.baseSize {
			return 0, nil, false, 0
		}
		if uint64(need) >= e.hdr.size {
			return 0, nil, true, 0
		}
		pending.key, pending.weight, pending.ok = baseKey{e.pack.id, e.off}, costInflate, true
		if uint64(want) < e.hdr.size {
			var ok bool
			if base, ok = r.inflateEntryPrefix(e, r.bases.buffer(want)); !ok {
				return 0, nil, false, 0
			}
			pending.partial = true
			break
		}
		base = r.bases.buffer(int(e.hdr.size))
		if err := r.inflateEntry(e, base, true); err != nil {
			r.bases.recycle(base)
			return 0, nil, false, 0
		}
	case bottom.partial:
		if len(base) < need {
			return 0, nil, false, need
		}
	case uint64(len(base)) != last.baseSize:
		return 0, nil, false, 0
	}
	for slack := prefixSlack / 2; len(base) < want; slack /= 2 {
		// A cached prefix too short for all of the slack (for none of
		// it, it would have been too short above).
		if want = planSlack(links, deltas, slack); slack == 0 && len(base) < want {
			return 0, nil, false, 0
		}
	}

	// Replay, oldest first, into cache buffers, the newest into dst.
	for i := len(links) - 1; i >= 0; i-- {
		lk := &links[i]
		ops := deltas[lk.start:lk.end]
		var out []byte
		if i == 0 {
			out = grow(dst, lk.make)
		} else {
			out = r.bases.buffer(lk.make)
		}
		if !applyDeltaPrefix(out, base, ops) {
			return 0, nil, false, 0
		}
		r.stats.DeltasApplied++
		if pending.ok {
			if pending.partial {
				r.bases.putPrefix(pending.key, bottom.typ, base, pending.weight)
			} else {
				r.bases.put(pending.key, bottom.typ, base, pending.weight)
			}
		}
		l := &chain[i]
		// (The slack can make all of a result: then it is whole.)
		pending.key, pending.ok, pending.partial = baseKey{l.pack.id, l.off}, i != 0, lk.make < int(lk.resultSize)
		pending.weight = costReplay + uint32(min(costInflate*len(ops)/max(len(out), 1), costInflate))
		base = out
	}
	return bottom.typ, base, true, 0
}

// planSlack sets how much of each result below the top of a chain
// replayPrefix makes: slack bytes more than the read needs, for the
// cache, where the next read of the chain from another tree may reach a
// little further into them (a tree that grew before the entry looked
// for moves it). The slack, given to the first of them, carries down the
// chain with the copies. It returns how much of the bottom that takes
// (the reach of the last delta's copies: each one before reaches into
// the result below it, not into the bottom).
func planSlack(links []prefixLink, deltas []byte, slack int) int {
	last := &links[len(links)-1]
	want := deltaCopyReach(deltas[last.start:last.end], last.need)
	m := 0
	for i := 1; i < len(links); i++ {
		lk := &links[i]
		if i == 1 || slack == 0 {
			m = lk.need + slack
		}
		lk.make = min(max(m, lk.need), int(lk.resultSize))
		m = deltaCopyReach(deltas[lk.start:lk.end], lk.make)
	}
	return max(want, m)
}

// prefixSlack is how much longer than a read needs them replayPrefix
// makes the prefixes it leaves in the cache: about ten tree entries.
const prefixSlack = 512

// inflateEntryPrefix inflates the first len(buf) bytes of the full entry
// e, which must hold more than that: ok is false when its stream does
// not give them.
func (r *Reader) inflateEntryPrefix(e *chainLink, buf []byte) ([]byte, bool) {
	got, err := r.inflater.inflatePrefix(buf, e.stream)
	if err != nil && e.fromFile {
		// The window may have cut the stream short.
		e.stream, e.fromFile = r.mappedStream(e.pack, &e.hdr), false
		got, err = r.inflater.inflatePrefix(buf, e.stream)
	}
	if err != nil || got != len(buf) {
		return nil, false
	}
	r.stats.BytesInflated += int64(got)
	if !e.fromFile {
		e.pack.touch(e.off, e.hdr.dataOff+1)
	}
	return buf, true
}
