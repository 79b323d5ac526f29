package odb

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Fuzz targets for every parser of untrusted bytes. Run one with, e.g.,
//
//	go test ./odb -run '^$' -fuzz FuzzPackIndex -fuzztime 60s
//
// The seeds come from hand-made and git-made files; the default test run
// replays them (and any crasher kept under testdata/fuzz).

func FuzzDelta(f *testing.F) {
	base := blobContent(1)
	f.Add(base, testpack.Delta(base, blobContent(2)))
	f.Add(base, testpack.Delta(base, nil))
	f.Add([]byte("0123456789abcdef"), []byte{16, 9, 0x91, 0x02, 0x03, 0x03, 'x', 'y', 'z', 0x90, 0x03})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		baseSize, resultSize, opsStart, err := deltaHeader(delta)
		if err != nil || baseSize != uint64(len(base)) {
			return
		}
		ops := delta[opsStart:]
		// The converse, which applyLink's direct replay relies on:
		// what applyDelta accepts for the declared size, deltaResultLen
		// counts to that size.
		if resultSize <= 1<<24 && applyDelta(make([]byte, resultSize), base, ops) == nil {
			if n, err := deltaResultLen(ops, len(base)); err != nil || n != resultSize {
				t.Fatalf("applyDelta accepted %d bytes, deltaResultLen says %d, %v", resultSize, n, err)
			}
		}
		n, err := deltaResultLen(ops, len(base))
		if err != nil || n != resultSize {
			return
		}
		if n > 1<<24 {
			return
		}
		out := make([]byte, n)
		if err := applyDelta(out, base, ops); err != nil {
			t.Fatalf("deltaResultLen accepted a delta applyDelta refuses: %v", err)
		}
		// A prefix of the result (ReadPrefix) is made from as much of
		// the base as deltaCopyReach says, and equals the result's start.
		for _, k := range []int{0, 1, int(n) / 3, int(n) / 2, int(n) - 1, int(n)} {
			if k < 0 || k > int(n) {
				continue
			}
			reach := deltaCopyReach(ops, k)
			if reach < 0 || reach > len(base) {
				t.Fatalf("deltaCopyReach(%d) = %d, base has %d bytes", k, reach, len(base))
			}
			part := make([]byte, k)
			if !applyDeltaPrefix(part, base[:reach:reach], ops) || !bytes.Equal(part, out[:k]) {
				t.Fatalf("applyDeltaPrefix of %d bytes from %d of the base differs from the whole result's start", k, reach)
			}
		}
	})
}

func FuzzLooseHeader(f *testing.F) {
	for _, s := range []string{"blob 12\x00", "commit 0\x00", "tree 01\x00", "blob\x00", "tag 99999999999999999999\x00", "blob 1 2\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, hdr []byte) {
		typ, size, n, msg := parseLooseHeader(hdr)
		if msg != "" {
			return
		}
		if typ == object.Invalid || size < 0 || n <= 0 || n > len(hdr) || hdr[n-1] != 0 {
			t.Fatalf("accepted bad header %q: %v %d %d", hdr, typ, size, n)
		}
	})
}

// FuzzLooseObject reads an arbitrary file as a loose object.
func FuzzLooseObject(f *testing.F) {
	f.Add(testpack.Zlib(testpack.LooseBytes(object.Blob, []byte("hello"))))
	f.Add(testpack.Zlib(testpack.LooseBytes(object.Tree, nil)))
	f.Add(testpack.Zlib([]byte("blob 5\x00hell")))
	dir := f.TempDir()
	objects := filepath.Join(dir, "objects")
	id := oid.HashObject(oid.SHA1, "blob", []byte("hello"))
	path := testpack.WriteLoose(f, objects, id, testpack.LooseBytes(object.Blob, []byte("hello")))
	db, err := Open(objects, oid.SHA1, Options{})
	if err != nil {
		f.Fatal(err)
	}
	r := db.NewReader()
	f.Fuzz(func(t *testing.T, file []byte) {
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		r.Read(id, nil)
		r.ReadHeader(id)
	})
}

func FuzzPackIndex(f *testing.F) {
	dir := f.TempDir()
	var entries []testpack.Entry
	for i := 0; i < 5; i++ {
		entries = append(entries, testpack.Full(oid.SHA1, object.Blob, blobContent(3*i)))
	}
	base := testpack.Write(f, dir, oid.SHA1, "seed", entries)
	idx, _ := os.ReadFile(base + ".idx")
	f.Add(idx)
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := parseIndex("fuzz.idx", "fuzz.idx", data, oid.SHA1)
		if err != nil {
			return
		}
		for i := uint32(0); i < x.count && i < 64; i++ {
			name := x.name(i)
			x.find(name)
			x.lowerBound(name)
			x.offset(i)
		}
		x.find(make([]byte, 20))
	})
}

func FuzzMultiPackIndex(f *testing.F) {
	// A minimal valid MIDX: one pack, two objects.
	f.Add(makeMidx([][]byte{bytes.Repeat([]byte{1}, 20), bytes.Repeat([]byte{2}, 20)}))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseMultiPackIndex("fuzz-midx", data, oid.SHA1)
		if err != nil {
			return
		}
		for i := uint32(0); i < m.count && i < 64; i++ {
			m.find(m.name(i))
			m.lowerBound(m.name(i))
			m.entry(i)
		}
	})
}

// makeMidx builds a version 1 MIDX naming one pack for the given sorted ids.
func makeMidx(ids [][]byte) []byte {
	var offsets []uint32
	for i := range ids {
		offsets = append(offsets, uint32(12+100*i))
	}
	return makeMidxWith(ids, offsets, nil)
}

// makeMidxWith builds a MIDX with the given 32-bit offset fields and, if
// large is not nil, a LOFF chunk.
func makeMidxWith(ids [][]byte, offsets []uint32, large []uint64) []byte {
	pnam := []byte("pack-a.idx\x00\x00")
	var oidf bytes.Buffer
	for b := 0; b < 256; b++ {
		n := 0
		for _, id := range ids {
			if int(id[0]) <= b {
				n++
			}
		}
		binary.Write(&oidf, binary.BigEndian, uint32(n))
	}
	oidl := bytes.Join(ids, nil)
	var ooff bytes.Buffer
	for i := range ids {
		binary.Write(&ooff, binary.BigEndian, uint32(0))
		binary.Write(&ooff, binary.BigEndian, offsets[i])
	}
	chunks := []struct {
		id   string
		data []byte
	}{{"PNAM", pnam}, {"OIDF", oidf.Bytes()}, {"OIDL", oidl}, {"OOFF", ooff.Bytes()}}
	if large != nil {
		var loff bytes.Buffer
		for _, v := range large {
			binary.Write(&loff, binary.BigEndian, v)
		}
		chunks = append(chunks, struct {
			id   string
			data []byte
		}{"LOFF", loff.Bytes()})
	}
	var out bytes.Buffer
	out.WriteString("MIDX")
	out.Write([]byte{1, 1, byte(len(chunks)), 0})
	binary.Write(&out, binary.BigEndian, uint32(1))
	off := uint64(12 + 12*(len(chunks)+1))
	for _, c := range chunks {
		out.WriteString(c.id)
		binary.Write(&out, binary.BigEndian, off)
		off += uint64(len(c.data))
	}
	out.Write([]byte{0, 0, 0, 0})
	binary.Write(&out, binary.BigEndian, off)
	for _, c := range chunks {
		out.Write(c.data)
	}
	out.Write(make([]byte, 20)) // checksum (not verified when reading)
	return out.Bytes()
}

// FuzzPackData fuzzes the bytes of a pack between its header and trailer
// (recomputing the trailer so the pack opens), with a fixed index: entry
// headers, delta chains and zlib streams all see arbitrary input.
func FuzzPackData(f *testing.F) {
	format := oid.SHA1
	content := blobContent(1)
	target := blobContent(2)
	entries := []testpack.Entry{
		testpack.Full(format, object.Blob, content),
		{Type: typeOfsDelta, Body: testpack.Delta(content, target), OfsBase: 0, ID: oid.HashObject(format, "blob", target), DeclaredSize: -1},
		{Type: typeRefDelta, Body: testpack.Delta(target, content[:100]), RefBase: oid.HashObject(format, "blob", target), ID: oid.HashObject(format, "blob", content[:100]), DeclaredSize: -1},
	}
	dir := f.TempDir()
	objects := filepath.Join(dir, "objects")
	base := testpack.Write(f, filepath.Join(objects, "pack"), format, "fuzz", entries)
	pack, _ := os.ReadFile(base + ".pack")
	idx, _ := os.ReadFile(base + ".idx")
	f.Add(pack[12 : len(pack)-20])
	ids := []oid.ID{entries[0].ID, entries[1].ID, entries[2].ID}
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		p := append(bytes.Clone(pack[:12]), body...)
		h := oid.NewHasher(format)
		h.Write(p)
		sum := h.Sum(nil)
		p = append(p, sum...)
		x := bytes.Clone(idx)
		copy(x[len(x)-40:], sum) // the index's copy of the pack checksum
		os.WriteFile(base+".pack", p, 0o644)
		os.WriteFile(base+".idx", x, 0o644)
		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := db.NewReader()
		for _, id := range ids {
			r.Read(id, nil)
			r.ReadHeader(id)
		}
		db.Close()
	})
}
