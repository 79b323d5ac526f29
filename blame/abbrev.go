package blame

import (
	"sync"
	"time"

	"github.com/goblame/goblame/oid"
)

// abbrevMemo is a repository's unique abbreviation lengths as the cache
// keeps them (blamecache: Area.LoadAbbrevs), valid while the object
// database's fingerprint is the one they were computed under.
type abbrevMemo struct {
	once    sync.Once
	mu      sync.Mutex
	fp      []byte         // nil: no fingerprint, nothing is kept
	lengths map[oid.ID]int // shortest unique lengths (odb.ShortestUniqueLen)
	learned bool           // lengths has some the file does not
}

// UniqueAbbrevLen returns the length of the shortest abbreviation of id
// that is at least minLen long and names no other object, as git's
// find_unique_abbrev computes it (odb.DB.UniqueAbbrevLen: minLen < 0 for
// the automatic length, 0 for the full one). With a cache, the lengths
// come from it while the object database holds the same objects
// (odb.DB.AbbrevFingerprint), and the lengths computed are kept by
// SaveCache.
func (r *Repository) UniqueAbbrevLen(id oid.ID, minLen int) int {
	db := r.repo.Objects
	if r.cacheArea == nil {
		return db.UniqueAbbrevLen(id, minLen)
	}
	m := &r.abbrevs
	m.once.Do(func() {
		if fp, ok := db.AbbrevFingerprint(time.Now()); ok {
			m.fp = fp
			m.lengths = r.cacheArea.LoadAbbrevs(fp)
		}
	})
	if m.fp == nil {
		return db.UniqueAbbrevLen(id, minLen)
	}
	m.mu.Lock()
	shortest, ok := m.lengths[id]
	m.mu.Unlock()
	if !ok {
		shortest = db.ShortestUniqueLen(id)
		m.mu.Lock()
		if m.lengths == nil {
			m.lengths = make(map[oid.ID]int)
		}
		m.lengths[id] = shortest
		m.learned = true
		m.mu.Unlock()
	}
	return db.UniqueAbbrevLenFrom(shortest, minLen)
}

// AbbrevLines are the lines git prints where it computes the shortest
// unique abbreviation of a commit (find_unique_abbrev), which opens every
// pack's index: one for each index it cannot use (a damaged repository;
// none in a sound one). The first such computation of a command counts
// the objects for the automatic length before, which prints them once
// more.
func (r *Repository) AbbrevLines() []string {
	return r.repo.Objects.UnusableIndexLines()
}

// SaveCache writes what the cache has learned and not yet written: the
// abbreviation lengths UniqueAbbrevLen computed. Close calls it; a
// program that ends without closing calls it itself.
func (r *Repository) SaveCache() {
	m := &r.abbrevs
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.learned || r.cacheArea == nil {
		return
	}
	m.learned = false
	if len(m.lengths) > maxAbbrevLengths {
		return
	}
	r.cacheArea.SaveAbbrevs(m.fp, m.lengths)
}

// maxAbbrevLengths bounds the lengths kept for one fingerprint.
const maxAbbrevLengths = 1 << 16
