package odb

import (
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"time"

	"github.com/goblame/goblame/oid"
)

// Unique abbreviations change only when the object names the database
// holds change, so a program that prints the same commits again (a
// cached blame) can keep the lengths it computed, next to a fingerprint
// of everything they were computed from, and take them back while the
// fingerprint is the same: AbbrevFingerprint, then ShortestUniqueLen to
// keep and UniqueAbbrevLenFrom to use.
//
// The fingerprint holds, for every objects directory (the main one and
// the alternates): each multi-pack-index's checksum (it names every
// object of its packs), each other pack's path, size and modification
// time (a pack's name is its checksum: a pack of that name holds the same
// objects), and for each loose fan-out directory that exists its
// modification time. Adding or removing a file in a directory changes its
// modification time, but only to the file system's clock, which may tick
// coarsely: a directory changed within racyLooseDir of now might change
// again with the same time, so then no fingerprint is given (as git's
// index distrusts files as new as itself). More than maxFingerprintDirs
// fan-out directories are not worth the stat calls: no fingerprint
// either.

const (
	racyLooseDir       = 2 * time.Second
	maxFingerprintDirs = 64
)

// AbbrevFingerprint returns the fingerprint of what the unique
// abbreviations of this database depend on, as of now; ok is false when
// the database cannot vouch for one (see above).
func (db *DB) AbbrevFingerprint(now time.Time) (fp []byte, ok bool) {
	set := db.state.Load()
	fp = append(fp, "odb-abbrev\x00"...)
	num := func(v int64) { fp = binary.AppendVarint(fp, v) }
	str := func(s string) { num(int64(len(s))); fp = append(fp, s...) }
	for _, m := range set.midxs {
		str(m.path)
		h := m.hashLen
		if d := m.mapping.data; len(d) >= h {
			fp = append(fp, d[len(d)-h:]...)
		}
	}
	num(-1)
	for _, p := range set.packs {
		str(p.base)
		num(p.size)
		num(p.mtime.UnixNano())
	}
	num(-1)
	dirs := 0
	for _, dir := range db.dirs {
		str(dir)
		fanout := db.fanout(dir)
		if fanout == nil {
			// Unreadable: only an empty directory can vouch for
			// nothing, and this one might not be.
			if _, err := os.Lstat(dir); err == nil {
				return nil, false
			}
			continue
		}
		for b, present := range fanout {
			if !present {
				continue
			}
			if dirs++; dirs > maxFingerprintDirs {
				return nil, false
			}
			st, err := os.Lstat(filepath.Join(dir, hex.EncodeToString([]byte{byte(b)})))
			if err != nil {
				return nil, false
			}
			if now.Sub(st.ModTime()) < racyLooseDir {
				return nil, false
			}
			num(int64(b))
			num(st.ModTime().UnixNano())
		}
		num(-1)
	}
	return fp, true
}

// ShortestUniqueLen is UniqueAbbrevLen(id, 1): the length the other
// objects alone force on id's abbreviation, which UniqueAbbrevLenFrom
// turns into any other.
func (db *DB) ShortestUniqueLen(id oid.ID) int { return db.UniqueAbbrevLen(id, 1) }

// UniqueAbbrevLenFrom returns UniqueAbbrevLen(id, minLen) for an object
// whose ShortestUniqueLen is shortest: the abbreviation grows past the
// common prefix with each neighbour whatever length it starts from, so
// the answer is the larger of the two, with minLen's own cases (0 or the
// full length: the full length; negative: the automatic length) as
// UniqueAbbrevLen has them.
func (db *DB) UniqueAbbrevLenFrom(shortest, minLen int) int {
	n, full := db.abbrevStart(minLen)
	if full {
		return db.format.HexSize()
	}
	return max(n, shortest)
}
