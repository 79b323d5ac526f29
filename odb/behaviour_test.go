package odb

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// TestRescanAfterRepack opens a DB, lets git repack the repository under
// it (a new pack; the old pack and the loose objects deleted) and reads
// every object again: objects it had not located yet are found after one
// rescan of the pack directory, objects in the old, still mapped pack keep
// reading.
func TestRescanAfterRepack(t *testing.T) {
	format := oid.SHA1
	fx := layoutFixtures[1] // packed, with loose objects after the gc
	src := fixture(t, fx.name, format, fx.script)
	want := catFileAll(t, src, format)
	dir := t.TempDir()
	copyTree(t, src, dir)
	db, err := Open(filepath.Join(dir, ".git", "objects"), format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := db.NewReader()
	// Read one packed object so that the old pack is mapped.
	var packed oid.ID
	set := db.state.Load()
	x, _ := set.packs[0].index()
	packed = oid.FromBytes(format, x.name(0))
	if _, _, err := r.Read(packed, nil); err != nil {
		t.Fatal(err)
	}
	testgit.Git(t, dir, format, "repack", "-adq")
	testgit.Git(t, dir, format, "prune-packed")
	if loose, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "??", "*")); len(loose) != 0 {
		t.Fatalf("repack left %d loose objects", len(loose))
	}
	for _, w := range want {
		typ, data, err := r.Read(w.id, nil)
		if err != nil || typ != w.typ || !bytes.Equal(data, w.content) {
			t.Fatalf("after repack, Read %s: %v %v", w.id, typ, err)
		}
	}
	if n := r.Stats().PackRescans; n != 1 {
		t.Errorf("%d rescans, want 1 (the first object that had moved)", n)
	}
	// A missing object costs one more rescan and reports ErrNotFound.
	missing := oid.HashObject(format, "blob", []byte("never written"))
	if _, _, err := r.Read(missing, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Read of a missing object: %v", err)
	}
	if _, _, err := r.ReadHeader(missing); !errors.Is(err, ErrNotFound) {
		t.Fatalf("ReadHeader of a missing object: %v", err)
	}
	if r.Has(missing) {
		t.Fatal("Has of a missing object")
	}
}

// TestEmptyTreeIsVirtual reads the empty tree in repositories that do not
// store it, as git does.
func TestEmptyTreeIsVirtual(t *testing.T) {
	for _, format := range testgit.Formats {
		objects := emptyObjects(t)
		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := db.NewReader()
		empty := oid.EmptyTree(format)
		typ, data, err := r.Read(empty, []byte("junk"))
		if err != nil || typ != object.Tree || len(data) != 0 {
			t.Fatalf("%v: Read empty tree: %v %q %v", format, typ, data, err)
		}
		if typ, data, err := r.ReadCached(empty); err != nil || typ != object.Tree || len(data) != 0 {
			t.Fatalf("%v: ReadCached empty tree: %v %q %v", format, typ, data, err)
		}
		if typ, size, err := r.ReadHeader(empty); err != nil || typ != object.Tree || size != 0 {
			t.Fatalf("%v: ReadHeader empty tree: %v %d %v", format, typ, size, err)
		}
		if !r.Has(empty) {
			t.Fatalf("%v: Has(empty tree) = false", format)
		}
		if r.Has(oid.EmptyBlob(format)) {
			t.Fatalf("%v: the empty blob is not virtual", format)
		}
		// Not listed: git lists only stored objects.
		if err := db.ForEachObject(func(id oid.ID) error { return errors.New("listed " + id.String()) }); err != nil {
			t.Fatal(err)
		}
		// A name of the other format is refused, not looked up.
		other := oid.EmptyTree(oid.SHA1)
		if format == oid.SHA1 {
			other = oid.EmptyTree(oid.SHA256)
		}
		if _, _, err := r.Read(other, nil); err == nil {
			t.Fatalf("%v: read an object name of the other format", format)
		}
		db.Close()
	}
}

// TestReplacementsMatchGit installs replace refs like git's: cat-file
// --batch (which honours refs/replace) and Read, ReadHeader and
// ReadCached agree.
func TestReplacementsMatchGit(t *testing.T) {
	const script = `
git replace HEAD~1 HEAD~2
git replace $(git rev-parse HEAD:numbers.txt) $(git rev-parse HEAD~3:numbers.txt)
`
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir := fixture(t, "replace", format, `git gc -q`+"\n"+script)
			refs := testgit.Git(t, dir, format, "for-each-ref", "--format=%(refname:strip=2) %(objectname)", "refs/replace/")
			repl := map[oid.ID]oid.ID{}
			var names []string
			for _, line := range strings.Split(strings.TrimSpace(refs), "\n") {
				f := strings.Fields(line)
				from, to := mustParse(t, format, f[0]), mustParse(t, format, f[1])
				repl[from] = to
				names = append(names, f[0])
			}
			if len(repl) != 2 {
				t.Fatalf("fixture has %d replace refs", len(repl))
			}
			want := catFile(t, dir, format, names)
			db, err := Open(objectsDir(t, dir, format), format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetReplacements(repl)
			r := db.NewReader()
			for i, name := range names {
				id := mustParse(t, format, name)
				typ, data, err := r.Read(id, nil)
				if err != nil || typ != want[i].typ || !bytes.Equal(data, want[i].content) {
					t.Fatalf("Read %s with replacements: %v %v", name, typ, err)
				}
				if _, size, _ := r.ReadHeader(id); size != int64(len(want[i].content)) {
					t.Fatalf("ReadHeader %s ignores replacements", name)
				}
				if _, data, _ := r.ReadCached(id); !bytes.Equal(data, want[i].content) {
					t.Fatalf("ReadCached %s ignores replacements", name)
				}
			}
			// A chain deeper than git's five replacements is refused.
			chain := map[oid.ID]oid.ID{}
			ids := []oid.ID{}
			for i := 0; i < 7; i++ {
				ids = append(ids, oid.HashObject(format, "blob", []byte{byte(i)}))
			}
			for i := 0; i < 6; i++ {
				chain[ids[i]] = ids[i+1]
			}
			db.SetReplacements(chain)
			if _, _, err := db.NewReader().Read(ids[0], nil); !errors.Is(err, ErrReplaceDepth) {
				t.Fatalf("replace chain of 6: %v", err)
			}
		})
	}
}

// TestConcurrentReaders reads every object of the MIDX fixture from
// several goroutines, each with its own Reader over one DB, while another
// goroutine rescans the pack directories. Run with -race.
func TestConcurrentReaders(t *testing.T) {
	format := oid.SHA1
	var fx = layoutFixtures[0]
	for _, f := range layoutFixtures {
		if f.name == "midx" {
			fx = f
		}
	}
	dir := fixture(t, fx.name, format, fx.script)
	want := catFileAll(t, dir, format)
	db, err := Open(objectsDir(t, dir, format), format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			r := db.NewReader()
			for i := range want {
				w := want[(i*7+g*13)%len(want)]
				typ, data, err := r.Read(w.id, nil)
				if err != nil || typ != w.typ || !bytes.Equal(data, w.content) {
					errs <- errors.New("mismatch on " + w.id.String())
					return
				}
				if _, cached, err := r.ReadCached(w.id); err != nil || !bytes.Equal(cached, w.content) {
					errs <- errors.New("cached mismatch on " + w.id.String())
					return
				}
			}
			db.ApproximateObjectCount()
			db.UniqueAbbrevLen(want[g].id, -1)
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			db.rescan()
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestReadFallsBackWithoutMmap reads a fixture with memory mapping
// disabled (the path used where mmap is unavailable).
func TestReadFallsBackWithoutMmap(t *testing.T) {
	disableMmap = true
	defer func() { disableMmap = false }()
	format := oid.SHA256
	fx := layoutFixtures[1]
	dir := fixture(t, fx.name, format, fx.script)
	compareAll(t, dir, format, Options{})
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "missing"), oid.SHA1, Options{}); err == nil {
		t.Fatal("Open of a missing directory succeeded")
	}
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	if _, err := Open(f, oid.SHA1, Options{}); err == nil {
		t.Fatal("Open of a file succeeded")
	}
	if _, err := Open(t.TempDir(), oid.Format(9), Options{}); err == nil {
		t.Fatal("Open with an unknown format succeeded")
	}
}

// TestUseAfterClose reports ErrClosed instead of touching unmapped files.
func TestUseAfterClose(t *testing.T) {
	format := oid.SHA1
	fx := layoutFixtures[1]
	dir := fixture(t, fx.name, format, fx.script)
	want := catFileAll(t, dir, format)
	db, err := Open(objectsDir(t, dir, format), format, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := db.NewReader()
	if _, _, err := r.Read(want[0].id, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, _, err := r.Read(want[0].id, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Read after Close: %v", err)
	}
	if _, _, err := r.ReadHeader(want[0].id); !errors.Is(err, ErrClosed) {
		t.Fatalf("ReadHeader after Close: %v", err)
	}
	if _, _, err := r.ReadCached(want[1].id); !errors.Is(err, ErrClosed) {
		t.Fatalf("ReadCached after Close: %v", err)
	}
	if r.Has(want[0].id) {
		t.Fatal("Has after Close")
	}
	if err := db.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestReadWithPageRelease reads a fixture while releasing the pack's
// pages after every entry: the data must not change.
func TestReadWithPageRelease(t *testing.T) {
	old := releaseAfter
	releaseAfter = 1
	defer func() { releaseAfter = old }()
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		fx := layoutFixtures[1]
		dir := fixture(t, fx.name, format, fx.script)
		compareAll(t, dir, format, Options{})
	}
}

// TestTouchCountsWindows checks the resident-set accounting of mapped
// packs: reading again from windows already touched does not count, so a
// walk that returns to the same part of a pack keeps it mapped; touching
// new windows past releaseAfter releases the pages once.
func TestTouchCountsWindows(t *testing.T) {
	old := releaseAfter
	releaseAfter = 4 * residentWindow
	defer func() { releaseAfter = old }()
	const size = 64 * residentWindow
	p := &pack{dataMap: &mapping{mmapped: true}, windows: make([]atomic.Uint64, (size/residentWindow+64)/64)}
	for i := 0; i < 1000; i++ { // the same three windows, over and over
		p.touch(10, 3*residentWindow-10)
	}
	if n := p.releases.Load(); n != 0 {
		t.Fatalf("re-reading 3 windows released the pages %d times", n)
	}
	if got := p.resident.Load(); got != 3*residentWindow {
		t.Fatalf("resident %d, want %d", got, 3*residentWindow)
	}
	p.touch(10*residentWindow, 10*residentWindow+1) // a fourth window: at the limit
	if n := p.releases.Load(); n != 1 {
		t.Fatalf("4 windows with a limit of 4: %d releases, want 1", n)
	}
	if got := p.resident.Load(); got != 0 {
		t.Fatalf("resident %d after a release, want 0", got)
	}
	p.touch(size-1, size) // the last window
	if got := p.resident.Load(); got != residentWindow {
		t.Fatalf("last window: resident %d, want %d", got, residentWindow)
	}
	p.touch(size-1, 1<<40) // past the end of the bitmap: clamped, no panic
}

// TestPackBytes checks that PackBytes sums the .pack files of the
// directories, those under a multi-pack-index included (git's
// "size-pack" of count-objects -v, in bytes).
func TestPackBytes(t *testing.T) {
	for _, fx := range layoutFixtures {
		if fx.name != "midx" && fx.name != "packed" {
			continue
		}
		dir := fixture(t, fx.name, oid.SHA1, fx.script)
		objects := objectsDir(t, dir, oid.SHA1)
		var want int64
		packs, _ := filepath.Glob(filepath.Join(objects, "pack", "*.pack"))
		for _, p := range packs {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			want += st.Size()
		}
		if want == 0 {
			t.Fatalf("%s: fixture has no packs", fx.name)
		}
		db, err := Open(objects, oid.SHA1, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := db.PackBytes(); got != want {
			t.Errorf("%s: PackBytes %d, want %d (%d packs)", fx.name, got, want, len(packs))
		}
		db.Close()
	}
}
