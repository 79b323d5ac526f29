package odb

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// signedScript adds to historyScript commits of about 1.5 KB (a long
// message after a gpgsig-like header), as signed commits are, whose
// random-looking lines no delta serves, and packs everything.
const signedScript = `
for i in $(seq 1 30); do
	echo "signed $i" >> log.txt
	git add -A
	tree=$(git write-tree)
	{
		echo "tree $tree"
		echo "parent $(git rev-parse HEAD)"
		echo "author A U Thor <author@example.com> $((1112911993 + i)) -0700"
		echo "committer C O Mitter <committer@example.com> $((1112911993 + i)) -0700"
		echo "gpgsig -----BEGIN PGP SIGNATURE-----"
		for j in $(seq 1 12); do echo " $(echo "sig $i $j" | git hash-object --stdin)"; done
		echo " -----END PGP SIGNATURE-----"
		echo
		echo "signed commit $i"
		echo
		for j in $(seq 1 20); do echo "$(echo "msg $i $j" | git hash-object --stdin)"; done
	} > msg
	c=$(git hash-object -t commit -w msg)
	git update-ref HEAD "$c"
done
git gc -q
`

// hintNext is a ReadCheckedPrefix hint for the tests: a commit's first
// parent, where the prefix names one.
func hintNext(format oid.Format) func([]byte) (oid.ID, bool) {
	return func(prefix []byte) (oid.ID, bool) {
		var info object.CommitInfo
		if object.ParseCommit(format, prefix, &info) != nil || len(info.Parents) == 0 {
			return oid.ID{}, false
		}
		return info.Parents[0], true
	}
}

// TestReadCheckedPrefix reads every object of several layouts with
// ReadCheckedPrefix at lengths from one byte to past the object's end,
// with and without a hint: the bytes must be the start of git's content
// (all of it when whole is set); objects of packs with a version 2 index
// are served a prefix (the signed commits by the hint's single CRC, the
// others by the byte scan), those of a version 1 index never are.
func TestReadCheckedPrefix(t *testing.T) {
	fixtures := []struct {
		name, script string
		v1           bool
	}{
		{"signed", signedScript, false},
		{"deep", layoutFixtures[2].script, false},
		{"idxv1", layoutFixtures[4].script, true},
		{"midx", layoutFixtures[6].script, false},
	}
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, fx := range fixtures {
			dir := fixture(t, "checked-"+fx.name, format, fx.script)
			want := catFileAll(t, dir, format)
			db, err := Open(objectsDir(t, dir, format), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(len(want)), 11))
			for pass, next := range []func([]byte) (oid.ID, bool){nil, hintNext(format)} {
				rd := db.NewReader()
				var buf []byte
				for _, w := range want {
					size := len(w.content)
					for _, n := range []int{1 + rng.IntN(64), 1 + rng.IntN(size+1), size/2 + 1, size, size + 1, 320} {
						typ, data, whole, err := rd.ReadCheckedPrefix(w.id, n, buf, next)
						checkPrefixRead(t, format.String()+" "+fx.name+": ReadCheckedPrefix", w, n, typ, data, whole, err)
						buf = data
					}
				}
				st := rd.Stats()
				if fx.v1 != (st.CheckedPrefixes == 0) {
					t.Errorf("%s %s (pass %d): %d checked prefixes", format, fx.name, pass, st.CheckedPrefixes)
				}
			}
			db.Close()
		}
	}
}

// TestReadCheckedPrefixOfSignedCommitsByHint reads the signed commits
// newest first with the first-parent hint, as a walk's read-ahead does:
// each is served a prefix, checked by one CRC up to where its parent's
// entry starts (git writes a commit just before its first parent), and
// the hint's location is kept for the read of the parent that follows.
func TestReadCheckedPrefixOfSignedCommitsByHint(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		dir := fixture(t, "checked-signed", format, signedScript)
		db, err := Open(objectsDir(t, dir, format), format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rd := db.NewReader()
		id := mustParse(t, format, strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD")))
		var buf []byte
		for i := 0; i < 30; i++ {
			typ, data, whole, err := rd.ReadCheckedPrefix(id, 320, buf, hintNext(format))
			if err != nil || typ != object.Commit || whole {
				t.Fatalf("%s: signed commit %d (%s): %v, whole %v, %v", format, i, id, typ, whole, err)
			}
			next, ok := hintNext(format)(data)
			if !ok {
				t.Fatalf("%s: no parent in %q", format, data)
			}
			if rd.hinted.id != next {
				t.Fatalf("%s: the hint's location is not kept", format)
			}
			id, buf = next, data
		}
		// (The oldest signed commit's parent need not follow it: git
		// may write other objects between them.)
		if rd.nextEnds < 29 {
			t.Errorf("%s: %d of 30 entries ended where the hint's started", format, rd.nextEnds)
		}
		db.Close()
	}
}

// TestReadCheckedPrefixOfDamagedEntries damages a signed commit's entry
// where a prefix read would not look (the last byte of its zlib stream,
// its Adler-32), and, in another copy, the CRC its index records: the
// first must be read whole with Read's error, the second whole with its
// content.
func TestReadCheckedPrefixOfDamagedEntries(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		src := fixture(t, "checked-signed", format, signedScript)
		head := mustParse(t, format, strings.TrimSpace(testgit.Git(t, src, format, "rev-parse", "HEAD")))
		content := catFile(t, src, format, []string{head.String()})[0].content
		for _, damage := range []string{"stream", "crc"} {
			dir := t.TempDir()
			copyTree(t, src, dir)
			objects := objectsDir(t, dir, format)
			packs := packFiles(t, objects)
			if len(packs) != 1 {
				t.Fatalf("%s: %d packs", format, len(packs))
			}
			idxPath := packs[0][:len(packs[0])-len(".pack")] + ".idx"
			idxData, err := os.ReadFile(idxPath)
			if err != nil {
				t.Fatal(err)
			}
			x, err := parseIndex(idxPath, filepath.Base(idxPath), idxData, format)
			if err != nil {
				t.Fatal(err)
			}
			pos, ok := x.find(head.Raw())
			if !ok {
				t.Fatalf("%s: HEAD not in the pack", format)
			}
			off, _ := x.offset(pos)
			var offsets []uint64
			for i := range x.count {
				o, _ := x.offset(i)
				offsets = append(offsets, o)
			}
			slices.Sort(offsets)
			packData, err := os.ReadFile(packs[0])
			if err != nil {
				t.Fatal(err)
			}
			end := uint64(len(packData) - format.Size())
			if i, found := slices.BinarySearch(offsets, off); found && i+1 < len(offsets) {
				end = offsets[i+1]
			}
			switch damage {
			case "stream":
				packData[end-1] ^= 0x40
				writeFile(t, packs[0], packData)
			case "crc":
				at := 8 + 1024 + int(x.count)*format.Size() + 4*int(pos)
				binary.BigEndian.PutUint32(idxData[at:], binary.BigEndian.Uint32(idxData[at:])^1)
				writeFile(t, idxPath, idxData)
			}
			db, err := Open(objects, format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, _, readErr := db.NewReader().Read(head, nil)
			rd := db.NewReader()
			typ, data, whole, err := rd.ReadCheckedPrefix(head, 320, nil, hintNext(format))
			if !whole || rd.Stats().CheckedPrefixes != 0 {
				t.Errorf("%s %s: a prefix was served (whole %v)", format, damage, whole)
			}
			switch damage {
			case "stream":
				if readErr == nil || err == nil || err.Error() != readErr.Error() {
					t.Errorf("%s stream: ReadCheckedPrefix's error %v, Read's %v", format, err, readErr)
				}
			case "crc":
				if readErr != nil || err != nil || typ != object.Commit || !bytes.Equal(data, content) {
					t.Errorf("%s crc: %v %d bytes %v; Read %v", format, typ, len(data), err, readErr)
				}
			}
			db.Close()
		}
	}
}

// TestReadCheckedPrefixThroughMapping reads the signed commits with
// ReadCheckedPrefix and no hint from a pack whose file is not kept open
// (a process past maxPackFiles), so that the mapping serves them: each
// is served a prefix, and the CRC check covers the entry's own bytes up
// to their bound, not the rest of the pack (it covered every later entry
// of the pack for each commit: a walk without a commit-graph in a
// repository of 37 packs took nine times git's time).
func TestReadCheckedPrefixThroughMapping(t *testing.T) {
	openPackFiles.Add(maxPackFiles)
	defer openPackFiles.Add(-maxPackFiles)
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		dir := fixture(t, "checked-signed", format, signedScript)
		packs := packFiles(t, objectsDir(t, dir, format))
		if len(packs) != 1 {
			t.Fatalf("%s: %d packs", format, len(packs))
		}
		st, err := os.Stat(packs[0])
		if err != nil {
			t.Fatal(err)
		}
		db, err := Open(objectsDir(t, dir, format), format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rd := db.NewReader()
		commits := 0
		for _, w := range catFileAll(t, dir, format) {
			if w.typ != object.Commit {
				continue
			}
			commits++
			before := rd.Stats().CheckedBytes
			typ, data, whole, err := rd.ReadCheckedPrefix(w.id, 64, nil, nil)
			checkPrefixRead(t, format.String()+" mapped: ReadCheckedPrefix", w, 64, typ, data, whole, err)
			if whole {
				t.Fatalf("%s %s: no prefix served", format, w.id)
			}
			// An entry's header is at most a few bytes; its stream at
			// most compressedBound of its content.
			if span, bound := rd.Stats().CheckedBytes-before, int64(compressedBound(uint64(len(w.content))))+16; span > bound {
				t.Errorf("%s %s: the check covered %d bytes of a %d-byte pack; want at most %d", format, w.id, span, st.Size(), bound)
			}
		}
		if s := rd.Stats(); commits < 30 || s.EntryPreads != 0 || s.CheckedPrefixes != int64(commits) {
			t.Errorf("%s: %d preads, %d checked prefixes of %d commits; want the mapping to serve all", format, s.EntryPreads, s.CheckedPrefixes, commits)
		}
		db.Close()
	}
}

// TestCRCEndMatches asks, of buffers around the lengths where
// crcEndMatches starts to step runs together (and where a run's end falls
// on each byte), for the CRC of every prefix from every start: the answer
// must be whether some prefix from that start on has that CRC, as
// computed one prefix at a time.
func TestCRCEndMatches(t *testing.T) {
	for _, n := range []int{0, 1, 5, 63, 64, 65, 66, 67, 68, 130, 301} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + i/13)
		}
		prefix := make([]uint32, n+1) // prefix[l]: the CRC of b[:l]
		for l := range prefix {
			prefix[l] = crc32.ChecksumIEEE(b[:l])
		}
		for end := 0; end <= n; end++ {
			want := prefix[end]
			for from := 0; from <= n+1; from++ {
				truth := slices.Contains(prefix[min(from, n+1):], want)
				if got := crcEndMatches(b, from, want); got != truth {
					t.Fatalf("%d bytes, the CRC of %d of them, from %d: %v, want %v", n, end, from, got, truth)
				}
			}
		}
		if n > 0 && crcEndMatches(b, 0, prefix[n]^1) != slices.Contains(prefix, prefix[n]^1) {
			t.Fatalf("%d bytes: a CRC no prefix has", n)
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkCRCEndMatches scans a commit entry's window as the read-ahead
// does where the next entry is not the hint's: the end 1,000 bytes in, of
// a window of 1,800.
func BenchmarkCRCEndMatches(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1800)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	want := crc32.ChecksumIEEE(buf[:1000])
	b.SetBytes(1000 - 40)
	for b.Loop() {
		if !crcEndMatches(buf, 40, want) {
			b.Fatal("no end")
		}
	}
}
