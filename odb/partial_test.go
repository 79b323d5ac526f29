package odb

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// bigTreesScript adds to historyScript a directory of 300 files whose
// tree (about 10 KB) changes in sixty commits: a file changed, entries
// added before the others (which moves every later entry), some removed,
// repacked with long delta chains, so that trees larger than a prefix
// are deltas of deltas.
const bigTreesScript = `
mkdir -p big
for i in $(seq 1 300); do echo "file $i" > big/f$(printf %03d $i); done
commit_all "big tree"
for i in $(seq 1 60); do
	echo "change $i" >> big/f$(printf %03d $((i * 7 % 300 + 1)))
	if test $((i % 5)) = 0; then echo new > big/a$i; fi
	if test $((i % 11)) = 0; then git rm -q big/f$(printf %03d $i); fi
	commit_all "big $i"
done
git repack -adfq --depth=50 --window=250
`

// TestReadPrefix reads every object of several pack layouts with
// ReadPrefix at lengths from one byte to past the object's end, in
// orders and with caches that make chains stop at whole bases, at
// prefixes left by earlier prefix reads and at full entries: the bytes
// must be the start of git's content (all of it when whole is set), and
// Read between them must still return whole objects, never a prefix the
// cache keeps.
func TestReadPrefix(t *testing.T) {
	fixtures := []struct{ name, script string }{
		{"bigtrees", bigTreesScript},
		{"deep", layoutFixtures[2].script},
		{"refdelta", layoutFixtures[3].script},
		{"midx", layoutFixtures[6].script},
		{"fetched", layoutFixtures[8].script},
	}
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, fx := range fixtures {
			dir := fixture(t, fx.name, format, fx.script)
			if fx.name == "fetched" {
				dir += "/../clone"
			}
			want := catFileAll(t, dir, format)
			db, err := Open(objectsDir(t, dir, format), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(len(want)), 7))
			var prefixes int64
			for pass, rd := range []*Reader{db.NewReader(), db.newReader(16<<10, -1), db.newReader(-1, -1)} {
				order := rng.Perm(len(want))
				if pass == 0 {
					for i := range order {
						order[i] = i
					}
				}
				var buf []byte
				for k, i := range order {
					w := want[i]
					size := len(w.content)
					for _, n := range []int{1 + rng.IntN(64), 1 + rng.IntN(size+1), size/2 + 1, size, size + 1, 4096} {
						if n <= 0 {
							continue
						}
						typ, data, whole, err := rd.ReadPrefix(w.id, n, buf)
						checkPrefixRead(t, format.String()+" "+fx.name+": ReadPrefix", w, n, typ, data, whole, err)
						buf = data
					}
					if k%3 == 0 {
						typ, data, err := rd.Read(w.id, buf)
						if err != nil || typ != w.typ || !bytes.Equal(data, w.content) {
							t.Fatalf("%s %s: Read(%s) after prefix reads: %v, %d bytes, %v; git %d bytes", format, fx.name, w.id, typ, len(data), err, size)
						}
						buf = data
					}
				}
				prefixes += rd.Stats().PrefixReads
			}
			if prefixes == 0 {
				t.Errorf("%s %s: no read was answered with a prefix", format, fx.name)
			}
			db.Close()
		}
	}
}

// TestReadPrefixOfLargeTrees reads, in the order a blame's lookups take
// them (newest first), the trees of the big directory with the prefixes
// a lookup asks for: after the first, no whole tree is inflated at the
// bottom of a chain, and every answer is git's.
func TestReadPrefixOfLargeTrees(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		db, trees := bigDirectoryTrees(t, format)
		rd := db.NewReader()
		if len(trees) < 50 {
			t.Fatalf("%s: %d large trees, want the big directory's sixty", format, len(trees))
		}
		for _, w := range trees {
			typ, data, whole, err := rd.ReadPrefix(w.id, 1024, nil)
			if err != nil || typ != object.Tree || whole || len(data) < 1024 || !bytes.HasPrefix(w.content, data) {
				t.Fatalf("%s: ReadPrefix(%s, 1024) = %v, %d bytes, whole %v, %v", format, w.id, typ, len(data), whole, err)
			}
		}
		st := rd.Stats()
		if st.PrefixReads != int64(len(trees)) {
			t.Errorf("%s: %d prefix reads of %d trees", format, st.PrefixReads, len(trees))
		}
		// Each tree is at most 1 KiB of a full entry's inflation plus its
		// deltas: well under one whole tree each.
		if st.BytesInflated > int64(len(trees))*4<<10 {
			t.Errorf("%s: %d bytes inflated for %d prefixes of about 1 KiB", format, st.BytesInflated, len(trees))
		}
		db.Close()
	}
}

// bigDirectoryTrees opens the bigtrees fixture and lists the big
// directory's trees (those over 8 KiB), newest first as git lists them.
func bigDirectoryTrees(t *testing.T, format oid.Format) (*DB, []gitObject) {
	t.Helper()
	dir := fixture(t, "bigtrees", format, bigTreesScript)
	db, err := Open(objectsDir(t, dir, format), format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var trees []gitObject
	for _, w := range catFileAll(t, dir, format) {
		if w.typ == object.Tree && len(w.content) > 8<<10 {
			trees = append(trees, w)
		}
	}
	return db, trees
}

// TestReadPrefixDamagedBottom damages the deflate data of a full tree at
// the bottom of delta chains, right at its start (a block of invalid
// type): every ReadPrefix of a tree whose chain reaches it fails as Read
// fails, with Read's error, and the other trees' prefixes are git's.
func TestReadPrefixDamagedBottom(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		dir := fixture(t, "bigtrees", format, bigTreesScript)
		var trees []gitObject
		for _, w := range catFileAll(t, dir, format) {
			if w.typ == object.Tree && len(w.content) > 8<<10 {
				trees = append(trees, w)
			}
		}
		work := t.TempDir()
		copyTree(t, objectsDir(t, dir, format), work)

		// The full entry at the bottom of the first large tree's chain.
		db, err := Open(work, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rd := db.NewReader()
		var packPath string
		var at int64
		for _, w := range trees {
			loc, _ := db.locate(w.id.Raw(), nil, nil)
			if loc.pack == nil {
				continue
			}
			chain, bottom, err := rd.walkChain(loc.pack, loc.offset, -1)
			rd.chain = chain[:0]
			if err == nil && len(chain) > 0 && bottom.entry != nil {
				packPath, at = bottom.entry.pack.packPath(), int64(bottom.entry.hdr.dataOff)+2 // past the zlib header
				break
			}
		}
		db.Close()
		if packPath == "" {
			t.Fatalf("%s: no large tree is a delta of a full entry", format)
		}
		// git writes packs read-only: only root may write the copy as it is.
		if err := os.Chmod(packPath, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(packPath, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte{0xff, 0xff, 0xff, 0xff}, at); err != nil {
			t.Fatal(err)
		}
		f.Close()

		db, err = Open(work, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for _, w := range trees {
			_, _, rerr := db.NewReader().Read(w.id, nil)
			typ, data, whole, perr := db.NewReader().ReadPrefix(w.id, 1024, nil)
			switch {
			case rerr != nil:
				failed++
				if perr == nil || perr.Error() != rerr.Error() {
					t.Errorf("%s: ReadPrefix(%s) = %d bytes, whole %v, error %v; Read: %v", format, w.id, len(data), whole, perr, rerr)
				}
			case perr != nil || typ != object.Tree || len(data) < 1024 || !bytes.HasPrefix(w.content, data):
				t.Errorf("%s: ReadPrefix(%s) of an undamaged chain = %v, %d bytes, %v", format, w.id, typ, len(data), perr)
			}
		}
		if failed < 2 {
			t.Errorf("%s: %d trees unreadable after the damage, want the chains through it", format, failed)
		}
		db.Close()
	}
}

// TestReadPrefixKeepsWholeResultsWhole reads the big directory's trees
// with prefixes nearly as long as they are, so that the slack a replay
// adds for the cache makes some intermediate trees whole: each must be
// kept as the whole tree, not as a prefix, so that a read of all of a
// tree afterwards says whole (and Read can use it).
func TestReadPrefixKeepsWholeResultsWhole(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		db, trees := bigDirectoryTrees(t, format)
		rd := db.NewReader()
		for _, w := range trees {
			if _, _, _, err := rd.ReadPrefix(w.id, len(w.content)-100, nil); err != nil {
				t.Fatal(err)
			}
		}
		notWhole := 0
		for _, w := range trees {
			typ, data, whole, err := rd.ReadPrefix(w.id, len(w.content), nil)
			if err != nil || typ != object.Tree || !bytes.HasPrefix(w.content, data) {
				t.Fatalf("%s: ReadPrefix(%s, %d): %v, %d bytes, %v", format, w.id, len(w.content), typ, len(data), err)
			}
			if !whole || len(data) != len(w.content) {
				notWhole++
			}
		}
		if notWhole > 0 {
			t.Errorf("%s: %d of %d trees read at their whole length came back as prefixes", format, notWhole, len(trees))
		}
		db.Close()
	}
}

// TestPlanSlackReachesOnlyTheBottom: in a chain of three deltas whose
// middle one copies from far into the result below it, while the last
// one makes its result from inserted bytes, the prefix read needs none
// of the bottom object: the middle delta's reach is into the last
// delta's result, not into the bottom.
func TestPlanSlackReachesOnlyTheBottom(t *testing.T) {
	copyOp := func(off, size int) []byte {
		return []byte{0x80 | 0x03 | 0x30, byte(off), byte(off >> 8), byte(size), byte(size >> 8)}
	}
	var deltas []byte
	var links []prefixLink
	add := func(ops []byte, baseSize, resultSize uint64) {
		start := len(deltas)
		deltas = append(deltas, ops...)
		links = append(links, prefixLink{start: start, end: len(deltas), baseSize: baseSize, resultSize: resultSize})
	}
	// Newest first: the top copies its 100 bytes from the start of the
	// middle's result; the middle's 3,000 bytes are 1,000 copied from
	// 2,000 on, then 2,000 from the start, of the last one's result; the
	// last one's 3,000 bytes are inserted, then 10 copied from a
	// 10-byte bottom.
	add(copyOp(0, 100), 3000, 100)
	add(append(copyOp(2000, 1000), copyOp(0, 2000)...), 3000, 3000)
	var last []byte
	for n := 2990; n > 0; n -= min(n, 127) {
		last = append(last, byte(min(n, 127)))
		last = append(last, make([]byte, min(n, 127))...)
	}
	add(append(last, copyOp(0, 10)...), 10, 3000)
	need := 20
	for i := range links {
		lk := &links[i]
		lk.need = min(need, int(lk.resultSize))
		lk.make = lk.need
		need = deltaCopyReach(deltas[lk.start:lk.end], lk.need)
	}
	if got := planSlack(links, deltas, prefixSlack); got != 0 {
		t.Errorf("planSlack asks for %d bytes of the bottom, which no copy of the last delta reaches (middle makes %d, last %d)", got, links[1].make, links[2].make)
	}
	if links[2].make != 2532 {
		t.Errorf("the last delta makes %d bytes, want 2,532 (the middle's 532 reach 2,000 + 532 into it)", links[2].make)
	}
}

// checkPrefixRead checks what a prefix read of at least n bytes of w
// answered (what names the read in failures): the start of git's content,
// at least n bytes of it (all of a smaller object), all of it when whole,
// and whole when n covers it.
func checkPrefixRead(t *testing.T, what string, w gitObject, n int, typ object.Type, data []byte, whole bool, err error) {
	t.Helper()
	size := len(w.content)
	if err != nil {
		t.Fatalf("%s(%s, %d): %v", what, w.id, n, err)
	}
	if typ != w.typ || len(data) < min(n, size) || !bytes.HasPrefix(w.content, data) || whole && len(data) != size {
		t.Fatalf("%s(%s, %d) = %v, %d bytes, whole %v; git has %v, %d bytes%s",
			what, w.id, n, typ, len(data), whole, w.typ, size, firstDiff(data, w.content[:min(len(data), size)]))
	}
	if !whole && n >= size {
		t.Fatalf("%s(%s, %d) of a %d-byte object is not whole", what, w.id, n, size)
	}
}
