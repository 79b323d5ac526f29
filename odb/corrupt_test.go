package odb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// allocatedDuring reports how many bytes fn allocated.
func allocatedDuring(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// expectCorrupt reads id from objects and requires a *CorruptError (not a
// panic, not success) while allocating little.
func expectCorrupt(t *testing.T, objects string, format oid.Format, id oid.ID, what string) *CorruptError {
	t.Helper()
	db, err := Open(objects, format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.NewReader()
	var readErr error
	alloc := allocatedDuring(func() { _, _, readErr = r.Read(id, nil) })
	var ce *CorruptError
	if !errors.As(readErr, &ce) {
		t.Fatalf("%s: Read returned %v, want a *CorruptError", what, readErr)
	}
	if errors.Is(readErr, ErrNotFound) {
		t.Fatalf("%s: corrupt data reported as not found: %v", what, readErr)
	}
	if alloc > 8<<20 {
		t.Fatalf("%s: Read allocated %d bytes", what, alloc)
	}
	t.Logf("%s: %v", what, readErr)
	return ce
}

// packCase is a hand-made pack with one damaged entry (the last one).
func TestCorruptPackEntries(t *testing.T) {
	format := oid.SHA1
	content := blobContent(1)
	good := testpack.Full(format, object.Blob, content)
	target := blobContent(2)
	targetID := oid.HashObject(format, "blob", target)
	stream := testpack.Zlib(content)
	delta := testpack.Delta(content, target)

	flip := func(b []byte, i int) []byte { b = bytes.Clone(b); b[i] ^= 0xff; return b }
	withSizes := func(base, result uint64, ops []byte) []byte {
		d := testpack.AppendLEB(nil, base)
		d = testpack.AppendLEB(d, result)
		return append(d, ops...)
	}
	_, _, opsStart, _ := deltaHeader(delta)
	ops := delta[opsStart:]

	cases := []struct {
		name  string
		entry testpack.Entry
	}{
		{"truncated zlib stream", testpack.Entry{Type: 3, Body: content, RawStream: stream[:len(stream)/2], DeclaredSize: -1}},
		{"bad zlib header", testpack.Entry{Type: 3, Body: content, RawStream: flip(stream, 0), DeclaredSize: -1}},
		{"bad zlib checksum", testpack.Entry{Type: 3, Body: content, RawStream: flip(stream, len(stream)-1), DeclaredSize: -1}},
		{"damaged deflate data", testpack.Entry{Type: 3, Body: content, RawStream: flip(stream, len(stream)/2), DeclaredSize: -1}},
		{"declared size too small", testpack.Entry{Type: 3, Body: content, DeclaredSize: int64(len(content) - 1)}},
		{"declared size too large", testpack.Entry{Type: 3, Body: content, DeclaredSize: int64(len(content) + 1)}},
		{"declared size beyond what the pack holds", testpack.Entry{Type: 3, Body: content, DeclaredSize: 1 << 50}},
		{"unknown type 5", testpack.Entry{Type: 5, Body: content, DeclaredSize: -1}},
		{"unknown type 0", testpack.Entry{Type: 0, Body: content, DeclaredSize: -1}},
		{"OFS_DELTA distance zero", testpack.Entry{Type: typeOfsDelta, Body: delta, OfsBase: 1, DeclaredSize: -1}},
		{"OFS_DELTA base before the pack", testpack.Entry{Type: typeOfsDelta, Body: delta, OfsDistance: 1 << 20, DeclaredSize: -1}},
		{"OFS_DELTA distance overflowing 64 bits", testpack.Entry{Type: typeOfsDelta, Body: delta, OfsDistance: 1 << 62, DeclaredSize: -1}},
		{"delta base size mismatch", testpack.Entry{Type: typeOfsDelta, Body: withSizes(uint64(len(content)+1), uint64(len(target)), ops), DeclaredSize: -1}},
		{"delta result size mismatch", testpack.Entry{Type: typeOfsDelta, Body: withSizes(uint64(len(content)), uint64(len(target)+7), ops), DeclaredSize: -1}},
		{"delta result size huge", testpack.Entry{Type: typeOfsDelta, Body: withSizes(uint64(len(content)), 1<<40, ops), DeclaredSize: -1}},
		{"delta copy outside the base", testpack.Entry{Type: typeOfsDelta, Body: withSizes(uint64(len(content)), 10, []byte{0x93, 0xff, 0xff, 0x0a}), DeclaredSize: -1}},
		{"delta copy offset past 4 GiB", testpack.Entry{Type: typeOfsDelta, Body: withSizes(uint64(len(content)), 1, []byte{0x9f, 1, 1, 1, 0xff, 1}), DeclaredSize: -1}},
		{"delta opcode zero", testpack.Entry{Type: typeOfsDelta, Body: withSizes(uint64(len(content)), 1, []byte{0x00, 0x01, 'x'}), DeclaredSize: -1}},
		{"delta truncated instruction", testpack.Entry{Type: typeOfsDelta, Body: withSizes(uint64(len(content)), 5, []byte{0x05, 'a', 'b'}), DeclaredSize: -1}},
		{"delta shorter than its header", testpack.Entry{Type: typeOfsDelta, Body: []byte{0x80}, DeclaredSize: -1}},
		{"REF_DELTA base missing", testpack.Entry{Type: typeRefDelta, Body: delta, RefBase: oid.HashObject(format, "blob", []byte("nowhere")), DeclaredSize: -1}},
		{"delta data size declared too large", testpack.Entry{Type: typeOfsDelta, Body: delta, DeclaredSize: 1 << 45}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			objects := emptyObjects(t)
			e := c.entry
			e.ID = targetID
			testpack.Write(t, filepath.Join(objects, "pack"), format, "bad", []testpack.Entry{good, e})
			expectCorrupt(t, objects, format, targetID, c.name)
			// The intact entry of the same pack still reads.
			db, _ := Open(objects, format, Options{})
			defer db.Close()
			if _, data, err := db.NewReader().Read(good.ID, nil); err != nil || !bytes.Equal(data, content) {
				t.Fatalf("intact entry: %v", err)
			}
		})
	}
}

// TestCorruptEntryFallsBackToAnotherCopy damages an entry that also exists
// intact in another pack and as a loose object: like git, the reader uses
// the other copy.
func TestCorruptEntryFallsBackToAnotherCopy(t *testing.T) {
	format := oid.SHA1
	content := blobContent(5)
	good := testpack.Full(format, object.Blob, content)
	bad := good
	bad.RawStream = testpack.Zlib(content)[:10]
	for _, where := range []string{"pack", "loose"} {
		t.Run(where, func(t *testing.T) {
			objects := emptyObjects(t)
			testpack.Write(t, filepath.Join(objects, "pack"), format, "bad", []testpack.Entry{bad})
			if where == "pack" {
				testpack.Write(t, filepath.Join(objects, "pack"), format, "good", []testpack.Entry{good})
			} else {
				testpack.WriteLoose(t, objects, good.ID, testpack.LooseBytes(object.Blob, content))
			}
			db, err := Open(objects, format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for i := 0; i < 2; i++ { // whichever pack is searched first
				typ, data, err := db.NewReader().Read(good.ID, nil)
				if err != nil || typ != object.Blob || !bytes.Equal(data, content) {
					t.Fatalf("Read: %v %v", typ, err)
				}
			}
		})
	}
}

func copyTree(t *testing.T, src, dst string) { testgit.CopyTree(t, src, dst) }

// TestCorruptIndexAndPackFiles damages the .idx and .pack files of a
// hand-made pack in each way git's open_packed_git checks.
func TestCorruptIndexAndPackFiles(t *testing.T) {
	format := oid.SHA1
	var entries []testpack.Entry
	for i := 0; i < 40; i++ {
		entries = append(entries, testpack.Full(format, object.Blob, blobContent(3*i)))
	}
	// The object whose id sorts first (fan-out and offsets are damaged at
	// its position).
	first := entries[0].ID
	for _, e := range entries {
		if e.ID.Compare(first) < 0 {
			first = e.ID
		}
	}
	n := len(entries)
	h := format.Size()
	cases := []struct {
		name   string
		damage func(idx, pack []byte) ([]byte, []byte)
	}{
		{"idx truncated", func(idx, pack []byte) ([]byte, []byte) { return idx[:len(idx)-1], pack }},
		{"idx too small", func(idx, pack []byte) ([]byte, []byte) { return idx[:100], pack }},
		{"idx version 3", func(idx, pack []byte) ([]byte, []byte) { idx[7] = 3; return idx, pack }},
		{"idx fan-out not monotonic", func(idx, pack []byte) ([]byte, []byte) {
			b := int(first.Raw()[0])
			binary.BigEndian.PutUint32(idx[8+4*b:], 0xffff)
			return idx, pack
		}},
		{"idx large offset index out of range", func(idx, pack []byte) ([]byte, []byte) {
			pos := 0 // first has position 0 in the sorted table
			binary.BigEndian.PutUint32(idx[1032+n*(h+4)+4*pos:], 0x80000003)
			return idx, pack
		}},
		{"idx offset outside the pack", func(idx, pack []byte) ([]byte, []byte) {
			binary.BigEndian.PutUint32(idx[1032+n*(h+4):], uint32(len(pack)+100))
			return idx, pack
		}},
		{"idx offset inside the pack header", func(idx, pack []byte) ([]byte, []byte) {
			binary.BigEndian.PutUint32(idx[1032+n*(h+4):], 3)
			return idx, pack
		}},
		{"pack truncated", func(idx, pack []byte) ([]byte, []byte) { return idx, pack[:len(pack)/2] }},
		{"pack bad signature", func(idx, pack []byte) ([]byte, []byte) { pack[0] = 'X'; return idx, pack }},
		{"pack version 4", func(idx, pack []byte) ([]byte, []byte) { pack[7] = 4; return idx, pack }},
		{"pack object count differs from idx", func(idx, pack []byte) ([]byte, []byte) { pack[11]++; return idx, pack }},
		{"pack checksum differs from idx", func(idx, pack []byte) ([]byte, []byte) { idx[len(idx)-2*h] ^= 1; return idx, pack }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			objects := emptyObjects(t)
			base := testpack.Write(t, filepath.Join(objects, "pack"), format, "x", entries)
			idx, _ := os.ReadFile(base + ".idx")
			pack, _ := os.ReadFile(base + ".pack")
			idx, pack = c.damage(idx, pack)
			os.WriteFile(base+".idx", idx, 0o644)
			os.WriteFile(base+".pack", pack, 0o644)
			expectCorrupt(t, objects, format, first, c.name)
		})
	}
}

// TestCorruptLooseObjects damages loose object files in each way git's
// loose-object reader checks.
func TestCorruptLooseObjects(t *testing.T) {
	format := oid.SHA1
	content := []byte("hello, loose world\n")
	id := oid.HashObject(format, "blob", content)
	raw := testpack.LooseBytes(object.Blob, content)
	z := testpack.Zlib(raw)
	cases := []struct {
		name string
		file []byte
	}{
		{"truncated zlib stream", z[:len(z)-6]},
		{"bad zlib header", append([]byte{0x00, 0x00}, z[2:]...)},
		{"bad zlib checksum", append(bytes.Clone(z[:len(z)-1]), z[len(z)-1]^0xff)},
		{"garbage after the stream", append(bytes.Clone(z), 'x')},
		{"size with a leading zero", testpack.Zlib(append([]byte("blob 019\x00"), content...))},
		{"size beyond what the file holds", testpack.Zlib(append([]byte("blob 99999999999\x00"), content...))},
		{"unknown type", testpack.Zlib(append([]byte("blab 19\x00"), content...))},
		{"no space in the header", testpack.Zlib(append([]byte("blob19\x00"), content...))},
		{"no size", testpack.Zlib(append([]byte("blob \x00"), content...))},
		{"header longer than 32 bytes", testpack.Zlib(append([]byte("blob 0000000000000000000000000000000019\x00"), content...))},
		{"non-digit size", testpack.Zlib(append([]byte("blob 1x\x00"), content...))},
		{"empty file", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			objects := emptyObjects(t)
			path := testpack.WriteLoose(t, objects, id, raw)
			os.WriteFile(path, c.file, 0o644)
			ce := expectCorrupt(t, objects, format, id, c.name)
			if c.name != "size beyond what the file holds" && (ce.Git == nil || ce.Git.Fatal == "") {
				t.Errorf("%s: no git failure: %+v", c.name, ce)
			}
		})
	}
}

// TestLooseObjectsGitReadsAfterAll reads the damaged loose objects git's
// read_object_file accepts: a stream that ends before the declared size
// (git hands back its allocation, here padded with zeros) and one that
// holds more than the header says, all within the 32 bytes git inflates
// first (cut to the declared size).
func TestLooseObjectsGitReadsAfterAll(t *testing.T) {
	format := oid.SHA1
	content := []byte("hello, loose world\n")
	id := oid.HashObject(format, "blob", content)
	raw := testpack.LooseBytes(object.Blob, content)
	for _, c := range []struct {
		name string
		file []byte
		want []byte
	}{
		{"size larger than the content", testpack.Zlib(append([]byte("blob 22\x00"), content...)), append(bytes.Clone(content), 0, 0, 0)},
		{"size smaller than the content", testpack.Zlib(append([]byte("blob 18\x00"), content...)), content[:18]},
	} {
		objects := emptyObjects(t)
		path := testpack.WriteLoose(t, objects, id, raw)
		os.WriteFile(path, c.file, 0o644)
		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		typ, data, err := db.NewReader().Read(id, nil)
		if err != nil || typ != object.Blob || !bytes.Equal(data, c.want) {
			t.Errorf("%s: got %v %q %v, want blob %q", c.name, typ, data, err, c.want)
		}
		db.Close()
	}
	// Beyond what the 32 bytes hold, a longer stream is corrupt.
	long := bytes.Repeat([]byte("x"), 100)
	objects := emptyObjects(t)
	path := testpack.WriteLoose(t, objects, id, raw)
	os.WriteFile(path, testpack.Zlib(append([]byte("blob 2\x00"), long...)), 0o644)
	ce := expectCorrupt(t, objects, format, id, "longer stream")
	want := GitFailure{InfoOK: true, Lines: []string{"error: corrupt loose object '" + id.String() + "'"}}
	if ce.Git == nil || !slices.Equal(ce.Git.Lines, want.Lines) || !ce.Git.InfoOK {
		t.Errorf("longer stream: git failure %+v, want %+v", ce.Git, want)
	}
}

// TestCorruptMultiPackIndexIsIgnored damages the multi-pack-index of the
// midx fixture in several ways; every object must still be read, through
// the packs' own indexes (the MIDX is only an accelerator).
func TestCorruptMultiPackIndexIsIgnored(t *testing.T) {
	format := oid.SHA1
	var fx = layoutFixtures[0]
	for _, f := range layoutFixtures {
		if f.name == "midx" {
			fx = f
		}
	}
	dir := fixture(t, fx.name, format, fx.script)
	want := catFileAll(t, dir, format)
	cases := []struct {
		name   string
		damage func(m []byte) []byte
	}{
		{"bad signature", func(m []byte) []byte { m[0] = 'X'; return m }},
		{"version 2", func(m []byte) []byte { m[4] = 2; return m }},
		{"wrong hash version", func(m []byte) []byte { m[5] = 2; return m }},
		{"truncated", func(m []byte) []byte { return m[:40] }},
		{"chunk offset past the end", func(m []byte) []byte { binary.BigEndian.PutUint64(m[16:], 1<<40); return m }},
		{"too many chunks", func(m []byte) []byte { m[6] = 200; return m }},
		{"fan-out not monotonic", func(m []byte) []byte {
			off := chunkOffset(m, "OIDF")
			binary.BigEndian.PutUint32(m[off+4*3:], 0xfffffff)
			return m
		}},
		{"pack number out of range", func(m []byte) []byte {
			off := chunkOffset(m, "OOFF")
			for i := off; i < off+8*20 && i+8 <= len(m); i += 8 {
				binary.BigEndian.PutUint32(m[i:], 77)
			}
			return m
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			objects := filepath.Join(t.TempDir(), "objects")
			copyTree(t, objectsDir(t, dir, format), objects)
			path := filepath.Join(objects, "pack", "multi-pack-index")
			m, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, c.damage(m), 0o644); err != nil {
				t.Fatal(err)
			}
			db, err := Open(objects, format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			r := db.NewReader()
			bad := 0
			for _, w := range want {
				typ, data, err := r.Read(w.id, nil)
				if err != nil || typ != w.typ || !bytes.Equal(data, w.content) {
					bad++
				}
			}
			if bad != 0 {
				t.Fatalf("%d of %d objects unreadable", bad, len(want))
			}
			// One line about it, however many reads met it; kept for
			// every later caller (it is the repository's damage).
			first := db.Warnings()
			if len(first) != 1 || !strings.HasPrefix(first[0], "warning: ") || !strings.Contains(first[0], "multi-pack-index") {
				t.Fatalf("warnings %q, want one line about the multi-pack-index", first)
			}
			if _, _, err := db.NewReader().Read(want[0].id, nil); err != nil {
				t.Fatal(err)
			}
			if again := db.Warnings(); len(again) != 1 || again[0] != first[0] {
				t.Fatalf("warnings after another reader's read: %q, want %q", again, first)
			}
		})
	}
}

func chunkOffset(m []byte, id string) int {
	for i := 0; i < int(m[6]); i++ {
		row := m[12+12*i:]
		if string(row[:4]) == id {
			return int(binary.BigEndian.Uint64(row[4:]))
		}
	}
	return 0
}

// TestFlippedBytesInARealPack flips single bytes of a git-made pack at
// fixed pseudo-random positions and reads every object: each read either
// succeeds or fails with a *CorruptError; nothing panics or allocates
// without bound.
func TestFlippedBytesInARealPack(t *testing.T) {
	format := oid.SHA1
	fx := layoutFixtures[1] // packed
	dir := fixture(t, fx.name, format, fx.script)
	want := catFileAll(t, dir, format)
	src := objectsDir(t, dir, format)
	packs := packFiles(t, src)
	if len(packs) != 1 {
		t.Fatalf("want one pack, have %d", len(packs))
	}
	original, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	objects := filepath.Join(t.TempDir(), "objects")
	copyTree(t, src, objects)
	target := filepath.Join(objects, "pack", filepath.Base(packs[0]))
	// git writes packs read-only: only root may write the copy as it is.
	if err := os.Chmod(target, 0o644); err != nil {
		t.Fatal(err)
	}
	seed := uint64(12345)
	failed, wrong, ok := 0, 0, 0
	for round := 0; round < 60; round++ {
		seed = seed*6364136223846793005 + 1442695040888963407
		pos := 12 + int(seed>>33)%(len(original)-12-20) // keep the header and trailer
		damaged := bytes.Clone(original)
		damaged[pos] ^= byte(seed>>8) | 1
		if err := os.WriteFile(target, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := db.NewReader()
		alloc := allocatedDuring(func() {
			for _, w := range want {
				typ, data, err := r.Read(w.id, nil)
				var ce *CorruptError
				switch {
				case err == nil && typ == w.typ && bytes.Equal(data, w.content):
					ok++
				case err == nil:
					wrong++ // e.g. a flipped type bit: git would misread it too
				case errors.As(err, &ce):
					failed++
				default:
					t.Fatalf("flip at %d: %s: unexpected error %v", pos, w.id, err)
				}
			}
		})
		db.Close()
		if alloc > 64<<20 {
			t.Fatalf("flip at %d: reading all objects allocated %d bytes", pos, alloc)
		}
	}
	if failed == 0 {
		t.Fatal("no flip was detected")
	}
	t.Logf("reads: %d intact, %d detected as corrupt, %d undetected (type or base bits)", ok, failed, wrong)
}
