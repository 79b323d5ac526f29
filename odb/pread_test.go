package odb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// paddedZlib is a valid zlib stream of b that is far longer than
// compressedBound: empty stored blocks before one stored block of b.
func paddedZlib(b []byte, pad int) []byte {
	out := []byte{0x78, 0x01}
	for range pad {
		out = append(out, 0x00, 0x00, 0x00, 0xff, 0xff)
	}
	out = append(out, 0x01, byte(len(b)), byte(len(b)>>8), ^byte(len(b)), ^byte(len(b)>>8))
	out = append(out, b...)
	return binary.BigEndian.AppendUint32(out, adler32.Checksum(b))
}

// deltaChain makes a blob whose bytes 6-14 count up in each of n deltas
// after it, each against the one before: the entries, to be written
// from position at in the pack, and their contents.
func deltaChain(format oid.Format, base []byte, n, at int) ([]testpack.Entry, [][]byte) {
	entries := []testpack.Entry{testpack.Full(format, object.Blob, base)}
	contents := [][]byte{base}
	content := base
	for i := 1; i <= n; i++ {
		next := bytes.Clone(content)
		copy(next[6:14], fmt.Sprintf("%08d", i))
		entries = append(entries, testpack.Entry{Type: typeOfsDelta, Body: testpack.Delta(content, next), OfsBase: at + i - 1, ID: oid.HashObject(format, "blob", next), DeclaredSize: -1})
		contents = append(contents, next)
		content = next
	}
	return entries, contents
}

// TestPreadEntries: entries read with pread give the bytes the mapping
// gives, and the mapping serves what a window cannot: a stream longer
// than its bound, an entry above maxPreadEntry, chain links past
// heldWindows; a delta larger than the first window takes a second read.
func TestPreadEntries(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		objects := emptyObjects(t)
		var entries []testpack.Entry
		want := map[oid.ID][]byte{}
		add := func(e testpack.Entry, content []byte) {
			entries = append(entries, e)
			want[e.ID] = content
		}
		small := []byte("a small blob\n")
		add(testpack.Full(format, object.Blob, small), small)
		padded := []byte("a blob whose zlib stream is padded with empty blocks\n")
		e := testpack.Full(format, object.Blob, padded)
		e.RawStream = paddedZlib(padded, 3000) // 15 KB for 54 bytes
		add(e, padded)
		big := make([]byte, maxPreadEntry+(64<<10))
		for i := range big {
			big[i] = byte(i*7 + i>>9)
		}
		add(testpack.Full(format, object.Blob, big), big)
		// A delta of 40 KB of inserts (its data is past the first window).
		inserts := make([]byte, 40<<10)
		for i := range inserts {
			inserts[i] = byte(i * 131 >> 3)
		}
		result := append(bytes.Clone(small), inserts...)
		rid := oid.HashObject(format, "blob", result)
		add(testpack.Entry{Type: typeOfsDelta, Body: testpack.Delta(small, result), OfsBase: 0, ID: rid, DeclaredSize: -1}, result)
		// A chain 100 deep.
		chain, contents := deltaChain(format, []byte("chain 00000000\n"), 100, len(entries))
		for i, e := range chain {
			add(e, contents[i])
		}
		testpack.Write(t, filepath.Join(objects, "pack"), format, "pread", entries)

		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := db.NewReaderCache(-1) // no delta-base cache: every chain is walked whole
		for id, content := range want {
			typ, data, err := r.Read(id, nil)
			if err != nil || typ != object.Blob || !bytes.Equal(data, content) {
				t.Fatalf("%v: Read(%s) = %v, %d bytes, %v; want %d bytes", format, id, typ, len(data), err, len(content))
			}
		}
		if s := r.Stats(); s.EntryPreads == 0 {
			t.Fatalf("%v: no entry read with pread", format)
		}
		// The pack kept its file open for pread.
		for _, p := range db.state.Load().packs {
			if p.file == nil {
				t.Fatalf("%v: pack has no open file", format)
			}
		}
		db.Close()
	}
}

// TestPackFilesWithinOpenFileLimit: a process under a low open-file
// limit reads objects from 200 packs and still has descriptors for other
// files: packs beyond maxPackFiles are read through their mappings with
// their files closed. It runs in a child process, whose limit it lowers.
func TestPackFilesWithinOpenFileLimit(t *testing.T) {
	const packs = 200
	if dir := os.Getenv("GOBLAME_TEST_PACKS_DIR"); dir != "" {
		lim := unix.Rlimit{Cur: maxPackFiles + 24, Max: maxPackFiles + 24}
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
		db, err := Open(dir, oid.SHA1, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		r := db.NewReader()
		for i := range packs {
			content := fmt.Appendf(nil, "blob of pack %d\n", i)
			id := oid.HashObject(oid.SHA1, "blob", content)
			if _, data, err := r.Read(id, nil); err != nil || !bytes.Equal(data, content) {
				t.Fatalf("pack %d: %q, %v", i, data, err)
			}
		}
		var files []*os.File
		for range 16 {
			f, err := os.Open(dir)
			if err != nil {
				t.Fatalf("no descriptor left after reading %d packs: %v", packs, err)
			}
			files = append(files, f)
		}
		for _, f := range files {
			f.Close()
		}
		if r.Stats().EntryPreads == 0 {
			t.Fatal("no entry read with pread")
		}
		return
	}
	objects := emptyObjects(t)
	for i := range packs {
		content := fmt.Appendf(nil, "blob of pack %d\n", i)
		testpack.Write(t, filepath.Join(objects, "pack"), oid.SHA1, fmt.Sprintf("p%03d", i), []testpack.Entry{testpack.Full(oid.SHA1, object.Blob, content)})
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPackFilesWithinOpenFileLimit$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOBLAME_TEST_PACKS_DIR="+objects)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// TestPreadRecentWindows: entries a few hundred bytes long that lie in
// the window of an entry read before are read from it, not with another
// pread, and give the same bytes, whichever chain link (slot) reads
// them: a chain whose links are neighbours, read from every depth, and
// small blobs read in pack order and then backwards (each window holds
// the entries after its own, never before).
func TestPreadRecentWindows(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		objects := emptyObjects(t)
		var entries []testpack.Entry
		var order []oid.ID
		want := map[oid.ID][]byte{}
		add := func(e testpack.Entry, content []byte) {
			entries = append(entries, e)
			want[e.ID] = content
			order = append(order, e.ID)
		}
		const blobs = 200
		for i := range blobs {
			content := fmt.Appendf(nil, "small blob %d of a pack whose entries are read in order\n", i)
			add(testpack.Full(format, object.Blob, content), content)
		}
		chain, contents := deltaChain(format, []byte("chain 00000000 with a line that every version keeps\n"), 40, len(entries))
		for i, e := range chain {
			add(e, contents[i])
		}
		testpack.Write(t, filepath.Join(objects, "pack"), format, "windows", entries)
		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		read := func(r *Reader, id oid.ID) {
			t.Helper()
			typ, data, err := r.Read(id, nil)
			if err != nil || typ != object.Blob || !bytes.Equal(data, want[id]) {
				t.Fatalf("%v: Read(%s) = %v, %q, %v; want %q", format, id, typ, data, err, want[id])
			}
		}
		// Forwards: a window of 4 KiB holds dozens of these entries.
		r := db.NewReaderCache(-1)
		for _, id := range order[:blobs] {
			read(r, id)
		}
		if s := r.Stats(); s.EntryPreads+s.EntryWindowHits != blobs || s.EntryPreads > blobs/10 {
			t.Errorf("%v: %d blobs in order took %d preads and %d window hits; want at most %d preads", format, blobs, s.EntryPreads, s.EntryWindowHits, blobs/10)
		}
		// Backwards: every entry precedes the windows read so far, and
		// a window starts entryWindowBefore bytes before its entry, so
		// the entries just before it are read with it (a window starting
		// at its entry took a pread for each).
		r = db.NewReaderCache(-1)
		for i := blobs - 1; i >= 0; i-- {
			read(r, order[i])
		}
		if s := r.Stats(); s.EntryPreads+s.EntryWindowHits != blobs || s.EntryPreads > blobs/4 {
			t.Errorf("%v: %d blobs backwards took %d preads and %d window hits; want at most %d preads", format, blobs, s.EntryPreads, s.EntryWindowHits, blobs/4)
		}
		// The chain from every depth, with no delta-base cache: each read
		// walks the links down to the base, one slot each, from windows
		// that later links of the same read replace.
		r = db.NewReaderCache(-1)
		for i := len(order) - 1; i >= blobs; i-- {
			read(r, order[i])
		}
		if s := r.Stats(); s.EntryWindowHits == 0 {
			t.Errorf("%v: the chain's neighbouring links took %d preads and no window hit", format, s.EntryPreads)
		}
		db.Close()
	}
}
