package repo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

const indexScript = `
mk () {
	git init -q "$1"
	cd "$1"
	mkdir -p dir/sub other
	echo a >a.txt
	echo exec >run.sh && chmod +x run.sh
	ln -s a.txt link
	echo b >dir/b.txt
	echo c >dir/sub/c.txt
	echo o >other/o.txt
	commit_all base
}
mk v2 && cd ..
mk v3 && echo new >new.txt && git add -N new.txt && git update-index --skip-worktree dir/b.txt && cd ..
mk v4 && git update-index --index-version 4 && echo x >dir/x && git add dir/x && cd ..
mk split && git update-index --split-index && echo changed >a.txt && git rm -q other/o.txt && echo z >z.txt && git add a.txt z.txt && cd ..
mk sparse && git sparse-checkout init --cone --sparse-index && git sparse-checkout set dir && cd ..
mk conflict
git checkout -q -b side && echo side >a.txt && commit_all side
git checkout -q main && echo main >a.txt && commit_all main
git merge -q side >/dev/null 2>&1 || true
cd ..
mk long
blob=$(git hash-object -w a.txt)
long=$(printf 'd%.0s' $(seq 1 200))
p="$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/file"
git update-index --add --cacheinfo "100644,$blob,$p"
git update-index --add --cacheinfo "100644,$blob,short"
cd ..
mk long4
blob=$(git hash-object -w a.txt)
long=$(printf 'e%.0s' $(seq 1 300))
p="$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/f"
git update-index --add --cacheinfo "100644,$blob,$p"
git update-index --index-version 4
cd ..
git init -q empty
`

// describeIndex renders entries as "git ls-files -s --debug" does.
func describeIndex(ix *Index) string {
	var b strings.Builder
	for _, e := range ix.EntryList {
		fmt.Fprintf(&b, "%06o %s %d\t%s\n", e.Mode, e.ID, e.Stage, e.Path)
		fmt.Fprintf(&b, "  ctime: %d:%d\n  mtime: %d:%d\n", e.CTimeSec, e.CTimeNsec, e.MTimeSec, e.MTimeNsec)
		fmt.Fprintf(&b, "  dev: %d\tino: %d\n  uid: %d\tgid: %d\n", e.Dev, e.Ino, e.UID, e.GID)
		fmt.Fprintf(&b, "  size: %d\tflags: %x\n", e.Size, e.Flags)
	}
	return b.String()
}

func indexResult(ix *Index, err error) string {
	if err != nil {
		return "exit 128\n--- stdout\n--- stderr\n" + renderFatal(err)
	}
	msgs := ""
	for _, m := range ix.Messages {
		msgs += m + "\n"
	}
	return "exit 0\n--- stdout\n" + describeIndex(ix) + "--- stderr\n" + msgs
}

// statData is an ls-files --debug listing as compared: whole with git
// 2.39.x itself, without the stat lines when git's output is a golden
// one, made where the fixture's files had other times and inodes.
func statData(listing string) string {
	if testgit.HaveTargetGit() {
		return listing
	}
	return withoutStatData(listing)
}

func TestReadIndexMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "index", f, indexScript)
		for _, name := range []string{"v2", "v3", "v4", "split", "sparse", "conflict", "long", "long4", "empty"} {
			dir := filepath.Join(root, name)
			r, err := Discover(EnvFromList(dir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			// git ls-files expands a sparse index unless --sparse.
			want := gitIndexResult(t, dir, f, "ls-files", "-s", "--debug")
			ix, err := r.ReadIndex()
			if got := indexResult(ix, err); statData(got) != statData(want) {
				t.Errorf("%s %s:\n got: %s\nwant: %s", f, name, got, want)
			}
			want = gitIndexResult(t, dir, f, "ls-files", "-s", "--debug", "--sparse")
			ix, err = r.ReadIndexSparse()
			if got := indexResult(ix, err); statData(got) != statData(want) {
				t.Errorf("%s %s --sparse:\n got: %s\nwant: %s", f, name, got, want)
			}
			if err == nil && ix.Version == 0 {
				t.Errorf("%s %s: no version", f, name)
			}
		}
	}
}

func TestIndexEntriesLookup(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "index", f, indexScript)
		r, err := Discover(EnvFromList(filepath.Join(root, "conflict"), testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		ix, err := r.ReadIndex()
		if err != nil {
			t.Fatal(err)
		}
		stages := ix.Entries("a.txt")
		if len(stages) != 3 || stages[0].Stage != 1 || stages[2].Stage != 3 {
			t.Errorf("%s: a.txt stages %+v", f, stages)
		}
		for _, e := range stages {
			want := strings.TrimSpace(testgit.Golden(t).Git(filepath.Join(root, "conflict"), f, "rev-parse", fmt.Sprintf(":%d:a.txt", e.Stage)))
			if e.ID.String() != want {
				t.Errorf("%s stage %d: %s, git %s", f, e.Stage, e.ID, want)
			}
		}
		if got := ix.Entries("dir/b.txt"); len(got) != 1 || got[0].Stage != 0 {
			t.Errorf("%s: dir/b.txt %+v", f, got)
		}
		if got := ix.Entries("dir"); len(got) != 0 {
			t.Errorf("%s: dir has entries %+v", f, got)
		}
		if got := ix.Entries("nonexistent"); got != nil && len(got) != 0 {
			t.Errorf("%s: nonexistent has entries", f)
		}
	}
}

// TestReadIndexForOnePath: the index read for one path (a blame of the
// work tree) holds exactly that path's entries of the whole index, for
// every path of every fixture and paths the index lacks, the same
// errors for damaged copies, and its whole index is ReadIndex's.
func TestReadIndexForOnePath(t *testing.T) {
	testgit.Golden(t) // skips without git, which builds the fixture
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "index", f, indexScript)
		for _, name := range []string{"v2", "v3", "v4", "split", "sparse", "conflict", "long", "long4", "empty"} {
			r, err := Discover(EnvFromList(filepath.Join(root, name), testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			full, err := r.ReadIndex()
			if err != nil {
				t.Fatal(err)
			}
			paths := []string{"nonexistent", "dir", "dir/", "a.txt", "dir/sub/c.txt"}
			for _, e := range full.EntryList {
				paths = append(paths, e.Path)
			}
			for _, p := range paths {
				ix, whole, err := r.ReadIndexFor(p)
				if err != nil {
					t.Fatalf("%s %s %q: %v", f, name, p, err)
				}
				if got, want := describeIndex(ix), describeIndex(&Index{EntryList: full.Entries(p)}); got != want {
					t.Errorf("%s %s %q:\n got: %s\nwant: %s", f, name, p, got, want)
				}
				if got := ix.Entries(p); len(got) != len(full.Entries(p)) {
					t.Errorf("%s %s %q: Entries gives %d, want %d", f, name, p, len(got), len(full.Entries(p)))
				}
				w, err := whole()
				if err != nil || describeIndex(w) != describeIndex(full) {
					t.Errorf("%s %s %q: the whole index differs (%v)", f, name, p, err)
				}
			}
		}
		// Damaged copies fail as ReadIndex fails, whichever the path.
		dir := filepath.Join(root, "v3")
		orig, err := os.ReadFile(filepath.Join(dir, ".git/index"))
		if err != nil {
			t.Fatal(err)
		}
		body := orig[:len(orig)-f.Size()]
		cases := map[string][]byte{
			"required-ext":  append(append(append([]byte{}, body...), "abcd\x00\x00\x00\x00"...), make([]byte, f.Size())...),
			"bad-signature": append([]byte("DIRX"), orig[4:]...),
			// git reads entries past the end of the file from its
			// mapping: the checksum, then zeros to the page's end.
			"truncated": append(append([]byte{}, orig[:len(orig)/2]...), make([]byte, f.Size())...),
			"too-small": orig[:10],
		}
		for name, data := range cases {
			idx := filepath.Join(t.TempDir(), "index")
			if err := os.WriteFile(idx, data, 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := Discover(EnvFromList(dir, testgit.Env(f, "GIT_INDEX_FILE="+idx)))
			if err != nil {
				t.Fatal(err)
			}
			_, wantErr := r.ReadIndex()
			if (wantErr == nil) != (name == "truncated") {
				t.Errorf("%s %s: ReadIndex %v", f, name, wantErr)
			}
			for _, p := range []string{"a.txt", "nonexistent"} {
				_, _, err := r.ReadIndexFor(p)
				if (err == nil) != (wantErr == nil) || (err != nil && renderFatal(err) != renderFatal(wantErr)) {
					t.Errorf("%s %s %q: %v, ReadIndex %v", f, name, p, err, wantErr)
				}
			}
		}
	}
}

// TestReadIndexForMapped: an index above indexMapBytes is mapped; the
// path's entries and the whole index read later (after collections,
// while whole holds the mapping) are ReadIndex's.
func TestReadIndexForMapped(t *testing.T) {
	testgit.Golden(t) // skips without git, which builds the fixture
	// 20,000 entries, 2.1 MB.
	root := testgit.Fixture(t, "bigindex", oid.SHA1, bigIndexScript)
	r, err := Discover(EnvFromList(filepath.Join(root, "r"), testgit.Env(oid.SHA1)))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(r.IndexFile()); err != nil || st.Size() <= indexMapBytes {
		t.Fatalf("the fixture's index is not above %d bytes: %v", indexMapBytes, err)
	}
	full, err := r.ReadIndex()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"dir000/sub00/file00000.txt", "dir199/sub36/file19998.txt", "dir007/sub07/file07777.txt", "nonexistent"} {
		ix, whole, err := r.ReadIndexFor(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := describeIndex(ix), describeIndex(&Index{EntryList: full.Entries(p)}); got != want {
			t.Errorf("%q:\n got: %s\nwant: %s", p, got, want)
		}
		runtime.GC()
		runtime.GC()
		w, err := whole()
		if err != nil || len(w.EntryList) != len(full.EntryList) || describeIndex(w) != describeIndex(full) {
			t.Errorf("%q: the whole index read later differs (%v)", p, err)
		}
	}
	runtime.GC() // the mappings' cleanups run: nothing else reads them
}

// TestReadIndexDamaged edits copies of an index (zero trailer, unknown
// extensions, bad signature and version, truncation) and compares with
// what git makes of them.
func TestReadIndexDamaged(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "index", f, indexScript)
		dir := filepath.Join(root, "v3")
		orig, err := os.ReadFile(filepath.Join(dir, ".git/index"))
		if err != nil {
			t.Fatal(err)
		}
		hashLen := f.Size()
		body := orig[:len(orig)-hashLen]
		withExt := func(sig string, payload []byte) []byte {
			out := append([]byte{}, body...)
			out = append(out, sig...)
			out = binary.BigEndian.AppendUint32(out, uint32(len(payload)))
			out = append(out, payload...)
			return append(out, make([]byte, hashLen)...)
		}
		cases := map[string][]byte{
			"zero-trailer":  append(append([]byte{}, body...), make([]byte, hashLen)...),
			"optional-ext":  withExt("ABCD", []byte("xyz")),
			"required-ext":  withExt("abcd", nil),
			"bad-signature": append([]byte("DIRX"), orig[4:]...),
			"bad-version":   append(append(append([]byte{}, orig[:4]...), 0, 0, 0, 9), orig[8:]...),
			"too-small":     orig[:10],
		}
		for name, data := range cases {
			tmp := t.TempDir()
			idx := filepath.Join(tmp, "index")
			if err := os.WriteFile(idx, data, 0o644); err != nil {
				t.Fatal(err)
			}
			env := []string{"GIT_INDEX_FILE=" + idx}
			// The damaged copies are made here from this machine's
			// index (its stat data), outside the fixture: they are
			// compared with git 2.39.x only.
			res, live := testgit.Golden(t).Live(testgit.Case{Dir: dir, Format: f, Env: env, Args: []string{"ls-files", "-s", "--debug"}})
			if !live {
				continue
			}
			want := fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", res.ExitCode, res.Stdout, res.Stderr)
			r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
			if err != nil {
				t.Fatal(err)
			}
			ix, err := r.ReadIndex()
			if got := indexResult(ix, err); got != want {
				t.Errorf("%s %s:\n got: %s\nwant: %s", f, name, got, want)
			}
		}
	}
}

// TestReadIndexTruncated: git 2.39.5 reads past the end of an index
// whose entries are cut short (it trusts the count); goblame reports the
// file as corrupt instead.
func TestReadIndexTruncated(t *testing.T) {
	testgit.Golden(t) // skips without git, which builds the fixture (git is not asked anything)
	root := testgit.Fixture(t, "index", oid.SHA1, indexScript)
	orig, err := os.ReadFile(filepath.Join(root, "v3/.git/index"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 12; n < len(orig)-20; n += 7 {
		data := append(append([]byte{}, orig[:n]...), make([]byte, 20)...)
		tmp := filepath.Join(t.TempDir(), "index")
		writeFile(t, tmp, string(data))
		ix, _, err := readIndexFile(tmp, "index", oid.SHA1, true)
		if err == nil {
			// Only a cut exactly after the last entry could parse, and
			// then it must hold fewer bytes than the full index.
			if len(ix.EntryList) == 0 && n > 12 {
				t.Errorf("cut at %d: parsed with no entries", n)
			}
			continue
		}
		if !errors.Is(err, ErrCorruptIndex) {
			t.Errorf("cut at %d: %v is not ErrCorruptIndex", n, err)
		}
	}
}

// renderFatal is what git prints for an error this package returns.
func renderFatal(err error) string {
	var s strings.Builder
	if ge, ok := err.(*Error); ok {
		for _, l := range ge.Before {
			s.WriteString(l + "\n")
		}
	}
	s.WriteString("fatal: " + dieText(err.Error()) + "\n")
	return s.String()
}

func TestEWAHDecode(t *testing.T) {
	// One RLW: run bit 0, run length 1 (64 zero bits), 1 literal word
	// with bits 0 and 3 set -> positions 64 and 67.
	rlw := uint64(1)<<1 | uint64(1)<<33
	var data []byte
	data = binary.BigEndian.AppendUint32(data, 128)
	data = binary.BigEndian.AppendUint32(data, 2)
	data = binary.BigEndian.AppendUint64(data, rlw)
	data = binary.BigEndian.AppendUint64(data, 0b1001)
	data = binary.BigEndian.AppendUint32(data, 0)
	bm, n, ok := readEWAH(data)
	if !ok || n != len(data) {
		t.Fatalf("readEWAH = %v, %d", ok, n)
	}
	var got []uint64
	bm.each(func(p uint64) bool { got = append(got, p); return true })
	if fmt.Sprint(got) != "[64 67]" {
		t.Errorf("bits %v", got)
	}
	if _, _, ok := readEWAH(data[:10]); ok {
		t.Error("truncated bitmap accepted")
	}
	_ = oid.SHA1
}

// TestCacheTreeFirst checks cacheTreeFirst and the order git's
// --indexed-objects takes the cache tree's trees in: the root if valid,
// else its subtrees depth first, shorter names first (subtree_name_cmp),
// whatever their order in the extension; a node cut short leaves no
// cache tree.
func TestCacheTreeFirst(t *testing.T) {
	f := oid.SHA1
	id := func(b byte) []byte { return bytes.Repeat([]byte{b}, f.Size()) }
	node := func(name string, count, subs int, tree []byte) []byte {
		b := append([]byte(name), 0)
		b = fmt.Appendf(b, "%d %d\n", count, subs)
		return append(b, tree...)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, c := range []struct {
		name string
		ext  []byte
		want byte // 0: none
	}{
		{"valid root", node("", 3, 0, id(1)), 1},
		{"root invalid, subtrees by length", cat(node("", -1, 2, nil), node("longer", 2, 0, id(2)), node("ab", 1, 0, id(3))), 3},
		{"equal lengths by bytes", cat(node("", -1, 2, nil), node("b", 1, 0, id(4)), node("a", 1, 0, id(5))), 5},
		{"depth first", cat(node("", -1, 2, nil), node("a", -1, 1, nil), node("x", 1, 0, id(6)), node("bb", 1, 0, id(7))), 6},
		{"none valid", cat(node("", -1, 1, nil), node("a", -1, 0, nil)), 0},
		{"cut short", cat(node("", -1, 2, nil), node("a", 1, 0, id(8))), 0},
		{"root named", node("x", 1, 0, id(9)), 0},
		{"no count", append([]byte{0}, "x 0\n"...), 0},
	} {
		var got oid.ID
		if first, ok := cacheTreeFirst(c.ext, f); ok {
			got = first
		}
		var want oid.ID
		if c.want != 0 {
			want = oid.FromBytes(f, id(c.want))
		}
		if got != want {
			t.Errorf("%s: first tree %v, want %v", c.name, got, want)
		}
	}
}
