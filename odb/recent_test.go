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

// TestCopiesOfEachOthersBasesEnd: two packs, each holding one object as
// a delta on the other's and that other damaged (its stream not
// zlib's), send the read of each from one pack's copy to the other's
// base and back (git recurses until its stack overflows); the read ends
// with an error, in bounded depth.
func TestCopiesOfEachOthersBasesEnd(t *testing.T) {
	objects := emptyObjects(t)
	x := []byte("object x, the first of two\n")
	y := []byte("object y, the second of two\n")
	xID := oid.HashObject(oid.SHA1, "blob", x)
	yID := oid.HashObject(oid.SHA1, "blob", y)
	broken := func(id oid.ID, content []byte) testpack.Entry {
		e := testpack.Full(oid.SHA1, object.Blob, content)
		e.RawStream = []byte("not a zlib stream at all")
		return e
	}
	// p: x as a delta on y, y damaged; q: y as a delta on x, x damaged.
	testpack.Write(t, filepath.Join(objects, "pack"), oid.SHA1, "p", []testpack.Entry{
		broken(yID, y),
		{Type: testpack.OfsDelta, Body: testpack.Delta(y, x), OfsBase: 0, ID: xID, DeclaredSize: -1},
	})
	testpack.Write(t, filepath.Join(objects, "pack"), oid.SHA1, "q", []testpack.Entry{
		broken(xID, x),
		{Type: testpack.OfsDelta, Body: testpack.Delta(x, y), OfsBase: 0, ID: yID, DeclaredSize: -1},
	})
	db, err := Open(objects, oid.SHA1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, id := range []oid.ID{xID, yID} {
		if _, data, err := db.NewReader().Read(id, nil); err == nil {
			t.Errorf("%s read as %q from copies that all fail", id, data)
		}
	}
}
