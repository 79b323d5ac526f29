package odb

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/oid"
)

// allocs_test.go budgets a few chosen objects of the deep fixture. These
// budgets cover every object of every pack layout: whatever the index
// version, offset width, delta kind (OFS/REF) or multi-pack-index, a warm
// Reader reads any packed object into the caller's buffer, reads its
// header, and answers ReadCached for it, without allocating. Loose
// objects cost what opening a file costs (os.Open, Stat, the path), a
// small constant per object, and nothing once in the by-ID cache.

// looseReadBudget is the most allocations one Read or ReadHeader of a
// loose object may make with a warm Reader and buffer: the path, opening
// the file (the *os.File, its poller state and cleanup) and its Stat;
// measured 12 on commits e9a77cb and b0eb4d3 (go1.26.8, linux/amd64),
// plus one.
const looseReadBudget = 13

// looseObjects returns the IDs of the loose objects under objects.
func looseObjects(t *testing.T, objects string, format oid.Format) map[oid.ID]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(objects, "[0-9a-f][0-9a-f]", "*"))
	if err != nil {
		t.Fatal(err)
	}
	loose := map[oid.ID]bool{}
	for _, f := range files {
		id, err := oid.ParseHex(format, filepath.Base(filepath.Dir(f))+filepath.Base(f))
		if err != nil {
			continue // a temporary file
		}
		loose[id] = true
	}
	return loose
}

func TestEveryLayoutReadsWithoutAllocating(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, fx := range layoutFixtures {
			switch fx.name {
			case "loose", "packed", "deep", "refdelta", "idxv1", "largeoffsets", "midx":
			default:
				continue // the same packs as above, or other repositories
			}
			t.Run(format.String()+"/"+fx.name, func(t *testing.T) {
				dir := fixture(t, fx.name, format, fx.script)
				objects := objectsDir(t, dir, format)
				db, err := Open(objects, format, Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				loose := looseObjects(t, objects, format)
				var packed, looseIDs []oid.ID
				if err := db.ForEachObject(func(id oid.ID) error {
					if loose[id] {
						looseIDs = append(looseIDs, id)
					} else {
						packed = append(packed, id)
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if fx.name == "loose" && (len(packed) != 0 || len(looseIDs) == 0) || fx.name != "loose" && len(packed) < 100 {
					t.Fatalf("fixture has %d packed and %d loose objects", len(packed), len(looseIDs))
				}

				r := db.NewReader()
				var buf []byte
				readAll := func(ids []oid.ID) func() {
					return func() {
						for _, id := range ids {
							var err error
							if _, buf, err = r.Read(id, buf); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
				headerAll := func(ids []oid.ID) func() {
					return func() {
						for _, id := range ids {
							if _, _, err := r.ReadHeader(id); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
				cachedAll := func(ids []oid.ID) func() {
					return func() {
						for _, id := range ids {
							if _, _, err := r.ReadCached(id); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
				// Warm up: the packs' indexes are opened, the buffer and the
				// delta chain scratch reach their size, the delta-base
				// cache fills.
				for _, fn := range []func(){readAll(packed), readAll(packed), headerAll(packed), cachedAll(packed)} {
					fn()
				}
				for _, c := range []struct {
					name, cause string
					fn          func()
				}{
					{"Read", "the caller's buffer, the delta chain scratch or the inflater no longer reused", readAll(packed)},
					{"ReadHeader", "the size header inflated into a new buffer, or the chain walked with allocation", headerAll(packed)},
					{"ReadCached", "the by-ID cache no longer answers (every call reads a new copy)", cachedAll(packed)},
				} {
					if a := testing.AllocsPerRun(3, c.fn); a != 0 {
						t.Errorf("%s of all %d packed objects: %.0f allocations, want 0: likely %s", c.name, len(packed), a, c.cause)
					}
				}

				if len(looseIDs) == 0 {
					return
				}
				readAll(looseIDs)()
				n := float64(len(looseIDs))
				for _, c := range []struct {
					name string
					fn   func()
				}{
					{"Read", readAll(looseIDs)},
					{"ReadHeader", headerAll(looseIDs)},
				} {
					a := testing.AllocsPerRun(3, c.fn) / n
					t.Logf("%s of a loose object: %.2f allocations", c.name, a)
					if a > looseReadBudget {
						t.Errorf("%s of a loose object: %.2f allocations, budget %d: more than opening the file costs, likely a new inflater, buffer or path per object", c.name, a, looseReadBudget)
					}
				}
				// Once read through ReadCached, a loose object is answered
				// from the cache (the cache may not hold them all: it is
				// bounded; read a few).
				few := looseIDs[:min(len(looseIDs), 8)]
				cachedAll(few)()
				before := r.Stats()
				if a := testing.AllocsPerRun(10, cachedAll(few)); a != 0 {
					t.Errorf("ReadCached of %d cached loose objects: %.0f allocations, want 0: likely the by-ID cache no longer answers", len(few), a)
				}
				if after := r.Stats(); after.ObjectCacheMisses != before.ObjectCacheMisses {
					t.Errorf("ReadCached of %d loose objects already read: %d cache misses, want 0 (the by-ID cache lost them)", len(few), after.ObjectCacheMisses-before.ObjectCacheMisses)
				}
			})
		}
	}
}
