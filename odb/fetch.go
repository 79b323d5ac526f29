package odb

import (
	"sync"

	"github.com/goblame/goblame/oid"
)

// missingFetch is a DB's lazy fetch of the objects a partial clone lacks
// (SetFetchMissing).
type missingFetch struct {
	fn     func(oid.ID) error
	mu     sync.Mutex // one fetch at a time
	failed map[oid.ID]error
}

// SetFetchMissing installs fetch, which a read asks for an object that is
// in none of the object directories, after a rescan of the packs, before
// it fails: a partial clone's lazy fetch from its promisor remotes (git
// runs "git fetch" for one object at a time; package blame does the
// same, as git would). fetch is called for one object at a time and never
// concurrently; when it returns nil the packs are rescanned and the read
// tried again, and its error is the read's (once per object: a later
// read of it fails with the same error without asking again). Has does
// not fetch, as git's has_object does not. Set it before sharing the DB.
func (db *DB) SetFetchMissing(fetch func(oid.ID) error) {
	db.fetch = &missingFetch{fn: fetch, failed: map[oid.ID]error{}}
}

// fetchMissing asks the DB's lazy fetch for id; false when there is none.
func (db *DB) fetchMissing(id oid.ID) (bool, error) {
	f := db.fetch
	if f == nil || db.closed.Load() {
		return false, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err, ok := f.failed[id]; ok {
		return true, err
	}
	// Another reader may have fetched it while this one waited.
	if loc, _ := db.locate(id.Raw(), nil, nil); loc.pack != nil || loc.looseDir != "" {
		return true, nil
	}
	if err := f.fn(id); err != nil {
		f.failed[id] = err
		return true, err
	}
	db.rescan()
	return true, nil
}

// FetchError is a read of an object a partial clone lacks that its
// promisor remotes did not give (git's "could not fetch <id> from
// promisor remote").
type FetchError struct{ ID oid.ID }

func (e *FetchError) Error() string {
	return "could not fetch " + e.ID.String() + " from promisor remote"
}
