package odb

import (
	"bytes"
	"testing"

	"github.com/goblame/goblame/oid"
)

// TestMidxLargeOffsets checks the MIDX offset rule, which differs from the
// .idx one: bit 31 selects a LOFF entry only when a LOFF chunk exists;
// without one, the 32-bit field is the offset itself.
func TestMidxLargeOffsets(t *testing.T) {
	ids := [][]byte{bytes.Repeat([]byte{1}, 20), bytes.Repeat([]byte{2}, 20), bytes.Repeat([]byte{3}, 20)}
	offsets := []uint32{12, 0x80000000 | 1, 0x80000000 | 0}
	large := []uint64{5 << 32, 7 << 32}

	m, err := parseMultiPackIndex("with-loff", makeMidxWith(ids, offsets, large), oid.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []uint64{12, 7 << 32, 5 << 32} {
		if _, off, err := m.entry(uint32(i)); err != nil || off != want {
			t.Errorf("with LOFF, entry %d: offset %#x %v, want %#x", i, off, err, want)
		}
	}
	m, err = parseMultiPackIndex("without-loff", makeMidxWith(ids, offsets, nil), oid.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []uint64{12, 0x80000001, 0x80000000} {
		if _, off, err := m.entry(uint32(i)); err != nil || off != want {
			t.Errorf("without LOFF, entry %d: offset %#x %v, want %#x", i, off, err, want)
		}
	}
	// A LOFF index past the chunk is an error, not a panic.
	m, err = parseMultiPackIndex("short-loff", makeMidxWith(ids, []uint32{12, 0x80000000 | 9, 12}, large), oid.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.entry(1); err == nil {
		t.Error("LOFF index out of range accepted")
	}
	// Lookups find every id.
	for i, id := range ids {
		if pos, ok := m.find(id); !ok || pos != uint32(i) {
			t.Errorf("find(%x) = %d %v", id[:2], pos, ok)
		}
	}
}
