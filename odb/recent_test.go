package odb

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// TestRecentPackSearchedFirst: in a repository of many packs, a reader
// that reads one pack's objects after another searches the pack that
// found the object before first (git's most-recently-used pack order),
// not every pack ahead of it in the scan's order each time.
func TestRecentPackSearchedFirst(t *testing.T) {
	const packs, perPack = 24, 12
	objects := emptyObjects(t)
	content := func(p, i int) []byte { return fmt.Appendf(nil, "blob %d of pack %d\n", i, p) }
	for p := range packs {
		var entries []testpack.Entry
		for i := range perPack {
			entries = append(entries, testpack.Full(oid.SHA1, object.Blob, content(p, i)))
		}
		testpack.Write(t, filepath.Join(objects, "pack"), oid.SHA1, fmt.Sprintf("p%03d", p), entries)
	}
	db, err := Open(objects, oid.SHA1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.NewReader()
	for p := range packs {
		for i := range perPack {
			want := content(p, i)
			if _, data, err := r.Read(oid.HashObject(oid.SHA1, "blob", want), nil); err != nil || !bytes.Equal(data, want) {
				t.Fatalf("blob %d of pack %d: %q, %v", i, p, data, err)
			}
		}
	}
	// Each pack's first object: the recent pack, then at most every
	// pack; the others: the recent pack alone. Searching in the scan's
	// order alone takes each pack's place in it for each of its objects,
	// perPack*packs*(packs+1)/2 in all.
	got := r.Stats().IndexSearches
	if limit := int64(packs*(packs+1) + packs*(perPack-1)); got < packs*perPack || got > limit {
		t.Errorf("%d pack indexes searched for %d objects in %d packs, want %d to %d", got, packs*perPack, packs, packs*perPack, limit)
	}
}
