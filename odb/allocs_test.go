package odb

import (
	"testing"

	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// packedSamples returns, from the deep fixture, a full (non-delta) blob, a
// deltified blob and a commit, all packed.
func packedSamples(t *testing.T, format oid.Format) (db *DB, full, delta, commit oid.ID) {
	t.Helper()
	var fx = layoutFixtures[0]
	for _, f := range layoutFixtures {
		if f.name == "deep" {
			fx = f
		}
	}
	dir := fixture(t, fx.name, format, fx.script)
	db, err := Open(objectsDir(t, dir, format), format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := db.state.Load()
	p := set.packs[0]
	x, _ := p.index()
	data, _ := p.packData()
	for i := uint32(0); i < x.count; i++ {
		off, _ := x.offset(i)
		h, _ := p.entryHeader(data, off)
		id := oid.FromBytes(format, x.name(i))
		switch {
		case h.typ == uint8(object.Blob) && h.size > 1000 && full.IsZero():
			full = id
		case h.typ == typeOfsDelta && delta.IsZero():
			if typ, _, _ := db.NewReader().ReadHeader(id); typ == object.Blob && chainDepth(t, db.NewReader(), p, off) > 3 {
				delta = id
			}
		case h.typ == uint8(object.Commit) && commit.IsZero():
			commit = id
		}
	}
	if full.IsZero() || delta.IsZero() || commit.IsZero() {
		t.Fatal("fixture lacks a full blob, a deep delta or a commit")
	}
	return db, full, delta, commit
}

// TestSteadyStateReadsDoNotAllocate is the allocation budget of the hot
// path: once a Reader and the caller's buffer are warm, reading a packed
// object (full or deltified), its header, or a cached object allocates
// nothing; the inflater is reused, never rebuilt.
func TestSteadyStateReadsDoNotAllocate(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		t.Run(format.String(), func(t *testing.T) {
			db, full, delta, commit := packedSamples(t, format)
			defer db.Close()
			r := db.NewReader()
			var buf []byte
			cases := []struct {
				name string
				fn   func()
			}{
				{"Read full blob", func() { _, buf, _ = r.Read(full, buf) }},
				{"Read deltified blob", func() { _, buf, _ = r.Read(delta, buf) }},
				{"ReadHeader deltified blob", func() { _, _, _ = r.ReadHeader(delta) }},
				{"ReadCached commit", func() { _, _, _ = r.ReadCached(commit) }},
				{"Has", func() { _ = r.Has(delta) }},
			}
			for _, c := range cases {
				c.fn() // warm up
				if n := testing.AllocsPerRun(100, c.fn); n != 0 {
					t.Errorf("%s: %.1f allocations per call, want 0", c.name, n)
				}
			}
			// The same with the delta-base cache disabled: every delta
			// chain is rebuilt from its base each time, still in reused
			// buffers.
			r2 := db.newReader(-1, -1)
			fn := func() { _, buf, _ = r2.Read(delta, buf) }
			fn()
			fn()
			if n := testing.AllocsPerRun(50, fn); n != 0 {
				t.Errorf("Read deltified blob without caches: %.1f allocations per call, want 0", n)
			}
		})
	}
}

// TestInflaterReuseDoesNotAllocate checks the inflater alone.
func TestInflaterReuseDoesNotAllocate(t *testing.T) {
	content := blobContent(7)
	stream := testpack.Zlib(content)
	var z inflater
	out := make([]byte, len(content))
	if _, err := z.inflate(out, stream); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(100, func() {
		if _, err := z.inflate(out, stream); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("inflate: %.1f allocations per stream, want 0", n)
	}
}
