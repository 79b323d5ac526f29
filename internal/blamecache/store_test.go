package blamecache

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/oid"
)

func testID(f oid.Format, b byte) oid.ID {
	raw := make([]byte, f.Size())
	for i := range raw {
		raw[i] = b + byte(i)
	}
	return oid.FromBytes(f, raw)
}

// sampleSnapshot is a snapshot of three commits and a rename, scored
// with three diff driver verdicts.
func sampleSnapshot(f oid.Format, commit byte) *blamecore.Snapshot {
	return &blamecore.Snapshot{
		Commit: testID(f, commit), Path: "dir/new.txt", Blob: testID(f, 200), NumLines: 7, Ordered: true,
		Commits: []blamecore.SnapshotCommit{{ID: testID(f, commit), Body: []byte("tree x\n\nsummary\n")}, {ID: testID(f, 2), Body: []byte{}}, {ID: testID(f, 3), Boundary: true}},
		Traced:  true,
		Origins: []blamecore.SnapshotOrigin{{Commit: 0, Path: "dir/new.txt", Previous: 1, Pass: blamecore.PassEach, Whole: -1, Scapegoats: []int{1, -1}},
			{Commit: 1, Path: "old.txt", Previous: 2, Pass: blamecore.PassWhole, Whole: 2}, {Commit: 2, Path: "old.txt", Previous: -1, Whole: -1}},
		Trails: []blamecore.SnapshotTrail{{Origin: 0, Prev: -1}, {Origin: 1, Prev: 0}, {Origin: 2, Prev: 1}},
		Pieces: []blamecore.SnapshotPiece{{Lno: 2, SLno: 2, NumLines: 1, Origin: 0, Trail: 0}, {Lno: 0, SLno: 0, NumLines: 2, Origin: 1, Trail: 1},
			{Lno: 3, SLno: 1, NumLines: 4, Origin: 2, Trail: 2}},
		Attrs: []blamecore.SnapshotAttr{{Path: "dir/new.txt", Binary: -1}, {Path: "old.txt", Binary: 1}, {Path: "other", Binary: 0}},
	}
}

// exactSnapshot is an exact snapshot (a blame under -C of two of seven
// lines, one of them unblamable, one ignored).
func exactSnapshot(f oid.Format) *blamecore.Snapshot {
	s := sampleSnapshot(f, 1)
	s.Exact, s.Traced, s.Ordered, s.Trails = true, false, false, nil
	for i := range s.Origins {
		s.Origins[i].Pass, s.Origins[i].Whole, s.Origins[i].Scapegoats = blamecore.PassNone, -1, nil
	}
	s.Pieces = []blamecore.SnapshotPiece{{Lno: 4, SLno: 9, NumLines: 1, Origin: 1, Trail: -1, Unblamable: true},
		{Lno: 2, SLno: 2, NumLines: 1, Origin: 0, Trail: -1, Ignored: true}}
	return s
}

func TestCodecRoundTrip(t *testing.T) {
	for _, f := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, s := range []*blamecore.Snapshot{sampleSnapshot(f, 1), exactSnapshot(f)} {
			data := encode("k\x00dir/new.txt", f, s)
			got, err := decode(data, "k\x00dir/new.txt", f, false)
			if err != nil {
				t.Fatal(err)
			}
			got.Path = s.Path
			if !reflect.DeepEqual(got, s) {
				t.Errorf("%v: decoded\n%+v\nwant\n%+v", f, got, s)
			}
		}
	}
}

// TestEncodeOneBuffer guards encode's single allocation of its output
// (before it was sized, a 160 KB entry grew through 18 copies).
func TestEncodeOneBuffer(t *testing.T) {
	s := sampleSnapshot(oid.SHA1, 1)
	for i := range 300 {
		s.Commits = append(s.Commits, blamecore.SnapshotCommit{ID: testID(oid.SHA1, byte(i)), Body: make([]byte, 1000+i), Time: 1 << 33})
		s.Origins = append(s.Origins, blamecore.SnapshotOrigin{Commit: len(s.Commits) - 1, Path: "old.txt", Previous: -1, Pass: blamecore.PassWhole, Whole: 2, Skipped: []uint64{1 << 32, 1<<32 + 7}})
	}
	var data []byte
	allocs := testing.AllocsPerRun(10, func() { data = encode("k\x00dir/new.txt", oid.SHA1, s) })
	// The output, the paths' map and list.
	if allocs > 3 {
		t.Errorf("encode made %v allocations, want at most 3", allocs)
	}
	if len(data) < 300*1000 {
		t.Fatalf("entry of %d bytes", len(data))
	}
}

// TestCodecRejectsDamage: every truncation, every flipped bit of every
// byte, another key and another format decode to an error, never to a
// snapshot.
func TestCodecRejectsDamage(t *testing.T) {
	f := oid.SHA1
	for _, s := range []*blamecore.Snapshot{sampleSnapshot(f, 1), exactSnapshot(f)} {
		codecRejectsDamage(t, encode("key", f, s))
	}
}

func codecRejectsDamage(t *testing.T, data []byte) {
	t.Helper()
	f := oid.SHA1
	for n := 0; n < len(data); n++ {
		if _, err := decode(data[:n], "key", f, false); err == nil {
			t.Errorf("truncated to %d bytes: decoded", n)
		}
	}
	for i := range data {
		for bit := 0; bit < 8; bit++ {
			d := append([]byte(nil), data...)
			d[i] ^= 1 << bit
			if _, err := decode(d, "key", f, false); err == nil {
				t.Errorf("byte %d bit %d flipped: decoded", i, bit)
			}
		}
	}
	if _, err := decode(data, "other key", f, false); err == nil {
		t.Error("another key: decoded")
	}
	if _, err := decode(data, "key", oid.SHA256, false); err == nil {
		t.Error("another format: decoded")
	}
}

// FuzzDecode: no input makes decode panic or allocate beyond its size.
func FuzzDecode(f *testing.F) {
	f.Add(encode("key", oid.SHA1, sampleSnapshot(oid.SHA1, 1)))
	f.Add(encode("key", oid.SHA1, exactSnapshot(oid.SHA1)))
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := decode(data, "key", oid.SHA1, false)
		if err == nil && s == nil {
			t.Fatal("nil snapshot without an error")
		}
		checkLight(t, data, "key", oid.SHA1, s, err)
	})
}

// checkLight: a light decode of data fails where the full one (full,
// err) fails and otherwise gives the full snapshot less what it skips.
func checkLight(t *testing.T, data []byte, key string, f oid.Format, full *blamecore.Snapshot, err error) {
	t.Helper()
	light, lerr := decode(data, key, f, true)
	if (err == nil) != (lerr == nil) {
		t.Fatalf("full decode: %v, light: %v", err, lerr)
	}
	if err == nil && !reflect.DeepEqual(light, full.Light()) {
		t.Fatalf("light decode\n%+v\nwant\n%+v", light, full.Light())
	}
}

// TestCodecLight: over every one-byte change of an entry's body, with its
// checksum made right again (so that the structure checks decide), the
// light decode accepts what the full one accepts and gives the same
// snapshot less the trails, scapegoats and skipped dates.
func TestCodecLight(t *testing.T) {
	f := oid.SHA1
	s := sampleSnapshot(f, 1)
	s.Origins[1].Skipped = []uint64{1 << 40, 5, 1 << 40}
	data := encode("key", f, s)
	full, err := decode(data, "key", f, false)
	if err != nil {
		t.Fatal(err)
	}
	checkLight(t, data, "key", f, full, err)
	accepted := 0
	body := data[:len(data)-checksumSize]
	for i := len(magic); i < len(body); i++ {
		for _, v := range []byte{0, 1, 2, 0x7f, 0x80, 0xff, body[i] + 1} {
			d := append([]byte(nil), body...)
			d[i] = v
			d = binary.BigEndian.AppendUint32(d, checksum(d))
			full, err := decode(d, "key", f, false)
			if err == nil {
				accepted++
			}
			checkLight(t, d, "key", f, full, err)
		}
	}
	if accepted == 0 {
		t.Error("no changed entry decoded: the comparison saw only failures")
	}
}

func TestStoreSaveLoad(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, 0)
	objects := t.TempDir()
	a := s.Area(objects, oid.SHA1)
	snap := sampleSnapshot(oid.SHA1, 1)
	if got := a.Load("key", snap.Path, snap.Commit, false); got != nil {
		t.Fatal("loaded from an empty store")
	}
	if err := a.Save("key", snap); err != nil {
		t.Fatal(err)
	}
	if ids := a.Commits("key", snap.Path); !ids[snap.Commit] || len(ids) != 1 {
		t.Errorf("Commits = %v", ids)
	}
	if ids := a.Commits("other", snap.Path); len(ids) != 0 {
		t.Errorf("another key lists %v", ids)
	}
	got := a.Load("key", snap.Path, snap.Commit, false)
	if !reflect.DeepEqual(got, snap) {
		t.Errorf("loaded %+v", got)
	}
	// Another object database has its own area.
	if b := s.Area(t.TempDir(), oid.SHA1); b.Load("key", snap.Path, snap.Commit, false) != nil {
		t.Error("another object database sees the entry")
	}
	// Files 0600, directories 0700.
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		want := os.FileMode(0o600)
		if info.IsDir() {
			want = 0o700
			if p == dir {
				return nil // t.TempDir's own
			}
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, info.Mode().Perm(), want)
		}
		return nil
	})
	if h, m, w, c := s.Counts(); h != 1 || m != 2 || w != 1 || c != 0 {
		t.Errorf("counts hits %d misses %d writes %d corrupt %d", h, m, w, c)
	}
}

// TestStoreIgnoresDamage: a truncated or garbage entry, or a FIFO or a
// directory in an entry's place, reads as a miss without blocking; a
// damaged entry is removed so that it is written again.
func TestStoreIgnoresDamage(t *testing.T) {
	s := Open(t.TempDir(), 0)
	a := s.Area(t.TempDir(), oid.SHA1)
	snap := sampleSnapshot(oid.SHA1, 1)
	name := filepath.Join(a.pathDir("key", snap.Path), snap.Commit.String())
	for _, damage := range []struct {
		name string
		do   func() error
	}{
		{"truncated", func() error {
			data := encode(entryKey("key", snap.Path), oid.SHA1, snap)
			return os.WriteFile(name, data[:len(data)/2], 0o600)
		}},
		{"garbage", func() error { return os.WriteFile(name, []byte("not an entry at all"), 0o600) }},
		{"empty", func() error { return os.WriteFile(name, nil, 0o600) }},
		{"fifo", func() error { return syscall.Mkfifo(name, 0o600) }},
		{"directory", func() error { return os.Mkdir(name, 0o700) }},
		{"symlink", func() error { return os.Symlink("/dev/zero", name) }},
	} {
		if err := a.Save("key", snap); err != nil {
			t.Fatal(err)
		}
		os.Remove(name)
		if err := damage.do(); err != nil {
			t.Fatal(err)
		}
		done := make(chan *blamecore.Snapshot)
		go func() { done <- a.Load("key", snap.Path, snap.Commit, false) }()
		select {
		case got := <-done:
			if got != nil {
				t.Errorf("%s: loaded %+v", damage.name, got)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Load blocks", damage.name)
		}
		os.Remove(name)
		if err := a.Save("key", snap); err != nil {
			t.Errorf("%s: written again: %v", damage.name, err)
		} else if a.Load("key", snap.Path, snap.Commit, false) == nil {
			t.Errorf("%s: not readable after writing again", damage.name)
		}
	}
}

// TestStoreUnwritable: a store whose directory is a file, or cannot be
// written, saves nothing and says so, and loads nothing.
func TestStoreUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o600)
	snap := sampleSnapshot(oid.SHA1, 1)
	a := Open(file, 0).Area(t.TempDir(), oid.SHA1)
	if a.Save("key", snap) == nil {
		t.Error("saved under a file")
	}
	if a.Load("key", snap.Path, snap.Commit, false) != nil {
		t.Error("loaded under a file")
	}
	if os.Getuid() == 0 {
		t.Log("running as root: a read-only directory is writable, not checked")
		return
	}
	ro := t.TempDir()
	os.Chmod(ro, 0o500)
	defer os.Chmod(ro, 0o700)
	if Open(ro, 0).Area(t.TempDir(), oid.SHA1).Save("key", snap) == nil {
		t.Error("saved in a read-only directory")
	}
}

// TestStoreTrim: a store over its bound drops its least recently used
// entries (a Load renews one) down to 80% of the bound, and temporary
// files left by a writer that died an hour ago.
func TestStoreTrim(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, 1<<40) // no trim while filling
	a := s.Area(t.TempDir(), oid.SHA1)
	var names []string
	size := int64(0)
	for i := 0; i < 20; i++ {
		snap := sampleSnapshot(oid.SHA1, byte(10+i))
		if err := a.Save("key", snap); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(a.pathDir("key", snap.Path), snap.Commit.String())
		st, _ := os.Stat(name)
		size = st.Size()
		old := time.Now().Add(time.Duration(i-100) * time.Minute)
		os.Chtimes(name, old, old)
		names = append(names, name)
	}
	// The oldest entry is used now: it must survive.
	a.Load("key", "dir/new.txt", sampleSnapshot(oid.SHA1, 10).Commit, false)
	stale := filepath.Join(filepath.Dir(names[0]), ".tmp-stale")
	os.WriteFile(stale, []byte("x"), 0o600)
	hourAgo := time.Now().Add(-2 * time.Hour)
	os.Chtimes(stale, hourAgo, hourAgo)

	s.maxBytes = 10 * size
	s.Trim()
	var kept []string
	for _, n := range names {
		if _, err := os.Stat(n); err == nil {
			kept = append(kept, filepath.Base(n))
		}
	}
	if len(kept) != 8 {
		t.Errorf("kept %d entries, want 8 (80%% of a bound of 10)", len(kept))
	}
	if _, err := os.Stat(names[0]); err != nil {
		t.Error("the entry just used was trimmed")
	}
	for _, n := range names[1:13] {
		if _, err := os.Stat(n); err == nil {
			t.Errorf("old entry %s kept", filepath.Base(n))
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file kept")
	}
}

// TestDecoderUint: the decoder's varints are binary.Uvarint's, overflow
// and truncation included.
func TestDecoderUint(t *testing.T) {
	var cases [][]byte
	for _, v := range []uint64{0, 1, 127, 128, 300, 1 << 32, 1<<63 + 5, ^uint64(0)} {
		cases = append(cases, binary.AppendUvarint(nil, v))
	}
	cases = append(cases, []byte{0x80}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, []byte{0x80, 0x00}, nil)
	for _, c := range cases {
		want, n := binary.Uvarint(c)
		d := &decoder{b: c}
		got := d.uint()
		if n <= 0 {
			if d.err == nil {
				t.Errorf("% x: decoded %d, binary.Uvarint fails", c, got)
			}
			continue
		}
		if d.err != nil || got != want || len(d.b) != len(c)-n {
			t.Errorf("% x: %d (%v, %d bytes left), binary.Uvarint %d (%d bytes)", c, got, d.err, len(d.b), want, n)
		}
	}
}
