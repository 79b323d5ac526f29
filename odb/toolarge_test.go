package odb

import (
	"bytes"
	"errors"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// TestObjectSizeLimit: objects, delta bases and delta results that
// declare more than Options.MaxObjectBytes are refused with a
// *TooLargeError before their bytes are allocated; a negative limit
// reads them.
func TestObjectSizeLimit(t *testing.T) {
	format := oid.SHA1
	objects := emptyObjects(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	grown := append(bytes.Clone(big), big...)              // 2 MiB through a delta on big
	smallBase := []byte("small base\n")
	fromSmall := append(bytes.Clone(smallBase), bytes.Repeat([]byte("x"), 3<<20)...) // 3 MiB from an 11-byte base
	bigID := oid.HashObject(format, "blob", big)
	grownID := oid.HashObject(format, "blob", grown)
	fromSmallID := oid.HashObject(format, "blob", fromSmall)
	entries := []testpack.Entry{
		testpack.Full(format, object.Blob, big),
		{Type: typeOfsDelta, Body: testpack.Delta(big, grown), OfsBase: 0, ID: grownID, DeclaredSize: -1},
		testpack.Full(format, object.Blob, smallBase),
		{Type: typeOfsDelta, Body: testpack.Delta(smallBase, fromSmall), OfsBase: 2, ID: fromSmallID, DeclaredSize: -1},
	}
	testpack.Write(t, filepath.Join(objects, "pack"), format, "big", entries)
	loose := bytes.Repeat([]byte("loose "), 300<<10)
	looseID := oid.HashObject(format, "blob", loose)
	testpack.WriteLoose(t, objects, looseID, testpack.LooseBytes(object.Blob, loose))

	db, err := Open(objects, format, Options{MaxObjectBytes: 512 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.NewReader()
	for name, id := range map[string]oid.ID{"1 MiB blob": bigID, "delta on a 1 MiB base": grownID, "3 MiB delta result": fromSmallID, "1.8 MB loose blob": looseID} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, data, err := r.Read(id, nil)
		runtime.ReadMemStats(&after)
		var tl *TooLargeError
		if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || tl.Limit != 512<<10 {
			t.Errorf("%s: Read = %d bytes, %v; want a *TooLargeError", name, len(data), err)
			continue
		}
		// Refused before its bytes (or the 3 MiB delta's data) were
		// allocated.
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<10 {
			t.Errorf("%s: refused after allocating %d bytes", name, grew)
		}
	}
	// Within the limit, and with no limit, the same objects read.
	r.Read(oid.HashObject(format, "blob", smallBase), nil)
	open := func(limit int64) *Reader {
		db, err := Open(objects, format, Options{MaxObjectBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db.NewReader()
	}
	for _, limit := range []int64{-1, 0} {
		r := open(limit)
		for _, want := range [][]byte{big, grown, fromSmall, loose} {
			if _, data, err := r.Read(oid.HashObject(format, "blob", want), nil); err != nil || !bytes.Equal(data, want) {
				t.Errorf("limit %d: Read = %d bytes, %v; want %d", limit, len(data), err, len(want))
			}
		}
	}
	if maxObjectBytes(0) != DefaultMaxObjectBytes || DefaultMaxObjectBytes != 1<<30 {
		t.Errorf("default limit %d", maxObjectBytes(0))
	}
}
