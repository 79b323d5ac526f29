package odb

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// strideChains writes a pack holding a 40-deep OFS_DELTA spine over one
// full blob and a 20-deep branch off its 20th link (versions that grow and
// shrink, so that the scratch buffers are regrown and reused), and returns
// the database with every version's ID and content: ids[0] is the root,
// ids[1..40] the spine, ids[41..60] the branch.
func strideChains(t *testing.T) (*DB, []oid.ID, [][]byte) {
	t.Helper()
	format := oid.SHA1
	version := func(i int) []byte {
		var b bytes.Buffer
		for j := range 100 + (i*37)%150 {
			fmt.Fprintf(&b, "line %d of a file that changes, version %d\n", j, i/5)
		}
		fmt.Fprintf(&b, "version %d\n", i)
		return b.Bytes()
	}
	contents := [][]byte{version(0)}
	entries := []testpack.Entry{testpack.Full(format, object.Blob, contents[0])}
	add := func(base, i int) {
		next := version(i)
		entries = append(entries, testpack.Entry{Type: typeOfsDelta, Body: testpack.Delta(contents[base], next), OfsBase: base, ID: oid.HashObject(format, "blob", next), DeclaredSize: -1})
		contents = append(contents, next)
	}
	for i := 1; i <= 40; i++ {
		add(i-1, i)
	}
	add(20, 41)
	for i := 42; i <= 60; i++ {
		add(i-1, i)
	}
	objects := emptyObjects(t)
	testpack.Write(t, filepath.Join(objects, "pack"), format, "stride", entries)
	db, err := Open(objects, format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ids := make([]oid.ID, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	return db, ids, contents
}

// TestStrideReaderContents: a reader that caches every scatteredStride-th
// intermediate result and replays the others in its two scratch buffers
// returns every version intact, in any order, with caches that keep
// everything, some of it or nothing, and with the caller's buffer fed back.
func TestStrideReaderContents(t *testing.T) {
	db, ids, contents := strideChains(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, bound := range []int64{-1, 16 << 10, 64 << 10, 16 << 20} {
		r := db.NewReaderFullCache(bound)
		var buf []byte
		for round := range 4 {
			order := rng.Perm(len(ids))
			if round == 0 {
				for i := range order {
					order[i] = len(ids) - 1 - i // deepest first
				}
			}
			for _, i := range order {
				typ, data, err := r.Read(ids[i], buf)
				if err != nil || typ != object.Blob || !bytes.Equal(data, contents[i]) {
					t.Fatalf("bound %d, version %d: %v %v, %s", bound, i, typ, err, firstDiff(data, contents[i]))
				}
				buf = data
			}
		}
	}
}

// TestStrideReaderCachesEveryEighth counts what a stride reader replays
// and keeps: the spine's top from cold replays all 40 deltas and caches
// the root and the links 8, 16, 24 and 32 deltas above it (and nothing
// else: the other intermediates never reach the cache); the version below
// the top then replays the 7 deltas above link 32, where a reader caching
// every intermediate has it cached.
func TestStrideReaderCachesEveryEighth(t *testing.T) {
	db, ids, contents := strideChains(t)
	r := db.NewReaderFullCache(16 << 20)
	deltas := func() int64 { return r.Stats().DeltasApplied }
	if _, _, err := r.Read(ids[40], nil); err != nil {
		t.Fatal(err)
	}
	if got := deltas(); got != 40 {
		t.Fatalf("top of the spine from cold: %d deltas, want 40", got)
	}
	var want int64
	for _, i := range []int{0, 8, 16, 24, 32} {
		want += int64(len(contents[i]))
	}
	if n, used := len(r.bases.index), r.bases.used; n != 5 || used < want || used > want*5/4 {
		t.Fatalf("cache holds %d entries, %d bytes; want the root and 4 links, %d bytes (capacity rounded up by at most a quarter)", n, used, want)
	}
	if _, _, err := r.Read(ids[39], nil); err != nil {
		t.Fatal(err)
	}
	if got := deltas() - 40; got != 7 {
		t.Fatalf("version 39 after 40: %d deltas, want 7 (from link 32)", got)
	}
	// The branch off link 20 starts from link 16: 4 + 20 deltas.
	if _, _, err := r.Read(ids[60], nil); err != nil {
		t.Fatal(err)
	}
	if got := deltas() - 47; got != 24 {
		t.Fatalf("top of the branch: %d deltas, want 24 (from link 16)", got)
	}

	every := db.NewReaderCache(16 << 20)
	every.bases.setLimit(16 << 20)
	every.Read(ids[40], nil)
	every.Read(ids[39], nil)
	if got := every.Stats().DeltasApplied; got != 40 {
		t.Fatalf("reader caching every intermediate: %d deltas, want 40", got)
	}
}
