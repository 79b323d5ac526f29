package odb

import (
	"hash/crc32"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// ReadCheckedPrefix is ReadPrefix for a caller that must not take a
// prefix of an object that Read would report damaged, such as a history
// walk that needs only a commit's header lines (its tree, parents and
// date; the signature and message after them are most of a commit's
// bytes). data holds at least the object's first n bytes; whole reports
// that it is the whole object, exactly as Read returns it (errors
// included), which is what everything but the shortcut below gets. The
// capacity of dst past data may be overwritten.
//
// The shortcut serves an object stored whole (not as a delta) in a pack
// whose index is version 2, larger than n bytes. It inflates the first n
// bytes and vouches for the rest with the CRC-32 the index records for
// the entry: some end of the entry, past the bytes the decoder read,
// must give the pack's bytes from the entry's start that CRC. git's
// index-pack (and every pack writer git has) records it over the entry's
// bytes as written, after inflating the whole stream to hash the object,
// so a match says the stream is as it was then, when Read's checks (a
// complete stream, the declared size, the Adler-32 checksum) held. A
// damaged entry, or a damaged CRC, matches no end (but with a chance of
// 2^-32 an end checked), and is read whole, which reports it as Read
// does.
//
// next, if not nil, names from the prefix the object most likely stored
// right after this one in its pack (for a commit, its first parent: git
// writes most commits just before their first parent). Where that
// object's entry starts is then the end checked first, with one CRC of
// the entry's bytes; else every end is (crcEndMatches).
func (r *Reader) ReadCheckedPrefix(id oid.ID, n int, dst []byte, next func(prefix []byte) (oid.ID, bool)) (typ object.Type, data []byte, whole bool, err error) {
	id, err = r.db.replace(id)
	if err != nil {
		return 0, nil, false, err
	}
	if err := r.checkFormat(id); err != nil {
		return 0, nil, false, err
	}
	if n > 0 {
		if loc := r.locateChecked(id); loc.pack != nil {
			if typ, data, ok := r.readCheckedPrefix(loc, id.Raw(), n, dst, next); ok {
				r.stats.PrefixReads++
				r.stats.CheckedPrefixes++
				return typ, data, false, nil
			}
		}
	}
	typ, data, err = r.readReplaced(id, dst)
	return typ, data, true, err
}

// readCheckedPrefix is ReadCheckedPrefix's shortcut for the object raw at
// loc; ok is false where it does not apply or the CRC matches no end.
func (r *Reader) readCheckedPrefix(loc location, raw []byte, n int, dst []byte, next func([]byte) (oid.ID, bool)) (typ object.Type, data []byte, ok bool) {
	p, off := loc.pack, loc.offset
	x, err := p.index()
	if err != nil || x.crcs == nil {
		return 0, nil, false
	}
	pos := loc.idxPos - 1
	if loc.idxPos == 0 {
		// Found through a multi-pack-index: its position in the pack's
		// own index, whose entry there must be the one at off (the
		// CRC is that entry's).
		var found bool
		if pos, found = x.find(raw); !found {
			return 0, nil, false
		}
		if o, err := x.offset(pos); err != nil || o != off {
			return 0, nil, false
		}
	}
	want := x.crc(pos)
	h, stream, fromFile, err := r.entry(p, off, 0)
	if err != nil || h.typ >= typeOfsDelta || h.size <= uint64(n) || h.size > maxInflatedFrom(len(stream)) || h.size > r.db.maxObject {
		return 0, nil, false
	}
	// The entry's bytes from its start: its header is just before the
	// stream in the window (a full entry's) or the mapping.
	hdrLen := h.dataOff - off
	var entry []byte
	if fromFile {
		entry = r.fullWindow[:hdrLen+uint64(len(stream))]
	} else {
		// The mapping's stream runs to the end of the pack: the entry is
		// its bytes up to the bound a window reads (h.needed), past
		// which crcEndMatches would scan every later entry of the pack
		// for an end (3 MB of go-git's 10 MB pack for each commit, where
		// the pack's file was not kept open: git read 37 packs of it in
		// 0.02 s, goblame in 0.17 s). A stream longer than its bound
		// fails the check, and the read takes the whole object.
		all, _ := p.packData()
		end := uint64(len(all)) - uint64(p.format.Size())
		entry = all[off : off+h.needed(off, end)]
		stream = entry[hdrLen:]
	}
	r.stats.CheckedBytes += int64(len(entry))
	buf := growSpare(dst, n)
	got, used, err := r.inflater.inflatePrefixSpare(buf, stream)
	if err != nil || got != n || used > len(stream) {
		return 0, nil, false
	}
	from := int(hdrLen) + used
	if r.nextEntryEnds(p, off, entry, from, want, buf, next) {
		r.nextEnds++
	} else if !crcEndMatches(entry, from, want) {
		return 0, nil, false
	}
	r.stats.BytesInflated += int64(got)
	if !fromFile {
		p.touch(off, off+uint64(len(entry))) // (the CRC may have read all of it)
	}
	return object.Type(h.typ), buf, true
}

// nextEntryEnds reports whether the entry at off in p, whose bytes from
// its start are entry (at least from of them its own), ends where the
// entry of the object next names starts, by the CRC the index records
// for it (want).
func (r *Reader) nextEntryEnds(p *pack, off uint64, entry []byte, from int, want uint32, prefix []byte, next func([]byte) (oid.ID, bool)) bool {
	if next == nil {
		return false
	}
	id, ok := next(prefix)
	if !ok || id.Format() != r.db.format {
		return false
	}
	loc := r.locateChecked(id)
	if loc.pack != p || loc.offset <= off {
		return false
	}
	end := loc.offset - off
	return end >= uint64(from) && end <= uint64(len(entry)) && crc32.ChecksumIEEE(entry[:end]) == want
}

// locateChecked is where ReadCheckedPrefix finds id in a pack (none: the
// zero location), remembering the last one: the object next named for a
// check is mostly the one read next (a commit's first parent, in a walk
// that reads ahead along first parents). Only a pack location found in
// the same set of packs is reused.
func (r *Reader) locateChecked(id oid.ID) location {
	set := r.db.state.Load()
	if h := &r.hinted; h.set == set && h.id == id {
		return h.loc
	}
	loc, _ := r.db.locate(id.Raw(), nil, nil)
	if loc.pack == nil {
		return location{}
	}
	r.hinted.id, r.hinted.set, r.hinted.loc = id, set, loc
	return loc
}

// crcEndMatches reports whether some prefix of b, from bytes long or
// longer, has the CRC-32 (IEEE, as zlib and the pack index compute it)
// want.
//
// Every length from from on is a candidate, so the register must be
// compared after each byte: a byte at a time, that is one chain of
// dependent table lookups, about 2.2 ns a byte. The bytes are cut into
// crcLanes runs instead, each run's starting register computed by
// crc32.Update (tens of bytes a nanosecond), and the runs stepped
// together: independent chains, which the processor overlaps. Any match
// answers, so their order does not matter. An end 960 bytes into a
// window of 1,760 (BenchmarkCRCEndMatches): 2,170 -> 390 ns. On go-git,
// whose commits mostly do not precede their first parent in its pack,
// a blame of README.md without a commit-graph scans 707 KB so: its CPU
// time -0.9 ms [-1.9, 0] of 33.7 (60 paired runs), its wall time within
// the noise (the read-ahead is not its critical path).
func crcEndMatches(b []byte, from int, want uint32) bool {
	if from > len(b) {
		return false
	}
	// The CRC's register is the complement of the value: Update
	// complements on the way in and out, the loops below work on the
	// register.
	reg := ^crc32.Update(0, crc32.IEEETable, b[:from])
	end := ^want
	if reg == end {
		return true
	}
	t := crc32.IEEETable
	rest := b[from:]
	if q := len(rest) / crcLanes; q >= crcLaneMin {
		l0, l1, l2, l3 := rest[:q], rest[q:2*q], rest[2*q:3*q], rest[3*q:4*q]
		r0 := reg
		r1 := ^crc32.Update(^r0, t, l0)
		r2 := ^crc32.Update(^r1, t, l1)
		r3 := ^crc32.Update(^r2, t, l2)
		for i := range l0 {
			r0 = t[byte(r0)^l0[i]] ^ r0>>8
			r1 = t[byte(r1)^l1[i]] ^ r1>>8
			r2 = t[byte(r2)^l2[i]] ^ r2>>8
			r3 = t[byte(r3)^l3[i]] ^ r3>>8
			if r0 == end || r1 == end || r2 == end || r3 == end {
				return true
			}
		}
		reg, rest = r3, rest[4*q:]
	}
	for _, c := range rest {
		reg = t[byte(reg)^c] ^ reg>>8
		if reg == end {
			return true
		}
	}
	return false
}

// crcLanes is how many runs crcEndMatches steps together; crcLaneMin the
// shortest run worth the Update calls that start them.
const (
	crcLanes   = 4
	crcLaneMin = 16
)
