package odb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Hand-made packs (internal/testpack) for cases git will not write.

// emptyObjects makes an empty objects directory.
func emptyObjects(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "objects")
	if err := os.MkdirAll(filepath.Join(dir, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func blobContent(i int) []byte {
	var b bytes.Buffer
	for j := 0; j < 200; j++ {
		fmt.Fprintf(&b, "line %d of blob %d\n", j, i/3)
	}
	fmt.Fprintf(&b, "tail %d\n", i)
	return b.Bytes()
}

// TestRefDeltaBaseOutsideThePack reads REF_DELTA entries whose base is in
// another pack or is a loose object (thin packs kept on disk by other
// tools). Git 2.39.5 looks for REF_DELTA bases only in the same pack; this
// reader falls back to the whole database.
func TestRefDeltaBaseOutsideThePack(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			objects := emptyObjects(t)
			base := testpack.Full(format, object.Blob, blobContent(0))
			testpack.Write(t, filepath.Join(objects, "pack"), format, "base", []testpack.Entry{base})
			looseBase := blobContent(3)
			looseID := oid.HashObject(format, "blob", looseBase)
			testpack.WriteLoose(t, objects, looseID, testpack.LooseBytes(object.Blob, looseBase))

			x := blobContent(1)
			y := blobContent(4)
			z := blobContent(2)
			xID := oid.HashObject(format, "blob", x)
			yID := oid.HashObject(format, "blob", y)
			zID := oid.HashObject(format, "blob", z)
			testpack.Write(t, filepath.Join(objects, "pack"), format, "thin", []testpack.Entry{
				{Type: typeRefDelta, Body: testpack.Delta(base.Body, x), RefBase: base.ID, ID: xID, DeclaredSize: -1},
				{Type: typeRefDelta, Body: testpack.Delta(looseBase, y), RefBase: looseID, ID: yID, DeclaredSize: -1},
				// z is a delta on x, itself a delta on a base in another pack.
				{Type: typeOfsDelta, Body: testpack.Delta(x, z), OfsBase: 0, ID: zID, DeclaredSize: -1},
			})
			db, err := Open(objects, format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			r := db.NewReader()
			for _, c := range []struct {
				id   oid.ID
				want []byte
			}{{xID, x}, {yID, y}, {zID, z}, {base.ID, base.Body}, {looseID, looseBase}} {
				typ, data, err := r.Read(c.id, nil)
				if err != nil || typ != object.Blob || !bytes.Equal(data, c.want) {
					t.Fatalf("Read %s: %v %v (%d bytes, want %d)", c.id, typ, err, len(data), len(c.want))
				}
				htyp, size, err := r.ReadHeader(c.id)
				if err != nil || htyp != object.Blob || size != int64(len(c.want)) {
					t.Fatalf("ReadHeader %s: %v %d %v", c.id, htyp, size, err)
				}
			}
		})
	}
}

// TestRefDeltaCycle reads a hostile pack whose two REF_DELTA entries name
// each other as base.
func TestRefDeltaCycle(t *testing.T) {
	format := oid.SHA1
	objects := emptyObjects(t)
	a, b := blobContent(10), blobContent(11)
	aID, bID := oid.HashObject(format, "blob", a), oid.HashObject(format, "blob", b)
	testpack.Write(t, filepath.Join(objects, "pack"), format, "cycle", []testpack.Entry{
		{Type: typeRefDelta, Body: testpack.Delta(b, a), RefBase: bID, ID: aID, DeclaredSize: -1},
		{Type: typeRefDelta, Body: testpack.Delta(a, b), RefBase: aID, ID: bID, DeclaredSize: -1},
	})
	db, err := Open(objects, format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.NewReader()
	if _, _, err := r.Read(aID, nil); !errors.Is(err, ErrDeltaChain) || !errors.Is(err, ErrDeltaCycle) || errors.Is(err, ErrDeltaTooDeep) {
		t.Fatalf("Read of a delta cycle: %v, want ErrDeltaChain and ErrDeltaCycle", err)
	}
	if _, _, err := r.ReadHeader(bID); !errors.Is(err, ErrDeltaChain) || !errors.Is(err, ErrDeltaCycle) {
		t.Fatalf("ReadHeader of a delta cycle: %v, want ErrDeltaChain and ErrDeltaCycle", err)
	}
	var ce *CorruptError
	if _, _, err := r.Read(aID, nil); !errors.As(err, &ce) || ce.Path == "" {
		t.Fatalf("error %v carries no CorruptError with a path", err)
	}
}

// TestDeltaChainDepthLimit builds an OFS_DELTA chain one longer than
// the depth limit (refused) and reads one exactly at the limit; the limit
// is lowered to 10,000 for the test (MaxDeltaChainDepth is 2^20).
func TestDeltaChainDepthLimit(t *testing.T) {
	defer func(old int) { deltaChainLimit = old }(deltaChainLimit)
	deltaChainLimit = 10000
	format := oid.SHA1
	objects := emptyObjects(t)
	content := []byte("x")
	entries := []testpack.Entry{testpack.Full(format, object.Blob, content)}
	var atLimit, overLimit oid.ID
	var atLimitContent []byte
	for i := 1; i <= deltaChainLimit+1; i++ {
		next := append(bytes.Clone(content), byte('a'+i%26))
		id := oid.HashObject(format, "blob", next)
		entries = append(entries, testpack.Entry{Type: typeOfsDelta, Body: testpack.Delta(content, next), OfsBase: i - 1, ID: id, DeclaredSize: -1})
		content = next
		if i == deltaChainLimit {
			atLimit, atLimitContent = id, next
		}
		overLimit = id
	}
	testpack.Write(t, filepath.Join(objects, "pack"), format, "deep", entries)
	db, err := Open(objects, format, Options{DeltaBaseCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.NewReader()
	if _, _, err := r.Read(overLimit, nil); !errors.Is(err, ErrDeltaChain) || !errors.Is(err, ErrDeltaTooDeep) || errors.Is(err, ErrDeltaCycle) {
		t.Fatalf("Read past the depth limit: %v, want ErrDeltaChain and ErrDeltaTooDeep", err)
	}
	if _, _, err := r.ReadHeader(overLimit); !errors.Is(err, ErrDeltaChain) || !errors.Is(err, ErrDeltaTooDeep) {
		t.Fatalf("ReadHeader past the depth limit: %v, want ErrDeltaChain and ErrDeltaTooDeep", err)
	}
	typ, data, err := r.Read(atLimit, nil)
	if err != nil || typ != object.Blob || !bytes.Equal(data, atLimitContent) {
		t.Fatalf("Read at the depth limit: %v %v", typ, err)
	}
}

// writeDeltaChain writes a pack named name into objects holding a blob
// and depth OFS_DELTA versions of it, each a delta of the one before,
// and returns the last version's ID and content.
func writeDeltaChain(t *testing.T, objects string, format oid.Format, name string, depth int) (oid.ID, []byte) {
	t.Helper()
	content := []byte("delta chain 00000000\n")
	entries := []testpack.Entry{testpack.Full(format, object.Blob, content)}
	var last oid.ID
	for i := 1; i <= depth; i++ {
		next := bytes.Clone(content)
		copy(next[12:20], fmt.Sprintf("%08d", i))
		last = oid.HashObject(format, "blob", next)
		entries = append(entries, testpack.Entry{Type: typeOfsDelta, Body: testpack.Delta(content, next), OfsBase: i - 1, ID: last, DeclaredSize: -1})
		content = next
	}
	testpack.Write(t, filepath.Join(objects, "pack"), format, name, entries)
	return last, content
}

// TestDeepDeltaChainReads: a 50,000-deep OFS_DELTA chain (deeper than git
// writes, which git reads) resolves, by Read and ReadHeader.
func TestDeepDeltaChainReads(t *testing.T) {
	format := oid.SHA1
	objects := emptyObjects(t)
	last, content := writeDeltaChain(t, objects, format, "deep50k", 50000)
	db, err := Open(objects, format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.NewReader()
	typ, data, err := r.Read(last, nil)
	if err != nil || typ != object.Blob || !bytes.Equal(data, content) {
		t.Fatalf("Read at depth 50,000: %v %v %q", typ, err, data)
	}
	if typ, size, err := r.ReadHeader(last); err != nil || typ != object.Blob || size != int64(len(content)) {
		t.Fatalf("ReadHeader at depth 50,000: %v %d %v", typ, size, err)
	}
}

// TestStopWhenGivesUpReads: a reader whose StopWhen flag is set gives up
// its reads with ErrStopped (not a damaged pack: the same reader reads
// the object once the flag is clear, from the same pack), and a read of
// a deep chain made while the flag is being set ends with the object or
// ErrStopped, nothing else.
func TestStopWhenGivesUpReads(t *testing.T) {
	format := oid.SHA1
	objects := emptyObjects(t)
	last, content := writeDeltaChain(t, objects, format, "stopped", 20000)
	db, err := Open(objects, format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var stop atomic.Bool
	r := db.NewReaderCache(-1)
	r.StopWhen(&stop)
	stop.Store(true)
	if _, _, err := r.Read(last, nil); !errors.Is(err, ErrStopped) || isCorrupt(err) {
		t.Fatalf("Read with the flag set: %v, want ErrStopped", err)
	}
	if n := r.Stats().DeltasApplied; n != 0 {
		t.Errorf("Read with the flag set applied %d deltas", n)
	}
	stop.Store(false)
	if typ, data, err := r.Read(last, nil); err != nil || typ != object.Blob || !bytes.Equal(data, content) {
		t.Fatalf("Read with the flag clear: %v %v %q", typ, err, data)
	}
	// Set while a read replays the chain (a fresh reader: nothing cached).
	for range 5 {
		r := db.NewReaderCache(-1)
		var stop atomic.Bool
		r.StopWhen(&stop)
		go func() { time.Sleep(100 * time.Microsecond); stop.Store(true) }()
		typ, data, err := r.Read(last, nil)
		if err != nil && !errors.Is(err, ErrStopped) || err == nil && (typ != object.Blob || !bytes.Equal(data, content)) {
			t.Fatalf("Read while stopping: %v %v", typ, err)
		}
	}
}
