package blame

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// TestUniqueAbbrevLenUsesCache: with a cache, a length the cache keeps
// for the database's fingerprint is the answer (here a planted one, which
// no search would give), and one it does not keep is computed and kept.
func TestUniqueAbbrevLenUsesCache(t *testing.T) {
	testgit.RequireAnyGit(t)
	for _, f := range testgit.Formats {
		fixture := testgit.Fixture(t, "blame-abbrev-cache", f, "git init -q\necho a >a\ngit add a\ngit commit -q -m one\necho b >a\ngit commit -q -a -m two\n")
		dir := filepath.Join(t.TempDir(), "r")
		if err := os.CopyFS(dir, os.DirFS(fixture)); err != nil {
			t.Fatal(err)
		}
		objects := filepath.Join(dir, ".git", "objects")
		entries, _ := os.ReadDir(objects)
		old := time.Now().Add(-time.Hour)
		for _, e := range entries {
			os.Chtimes(filepath.Join(objects, e.Name()), old, old)
		}
		cacheDir := t.TempDir()
		open := func() *Repository {
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			r.SetCache(OpenCache(cacheDir, 0))
			if r.cacheArea == nil {
				t.Fatal("no cache area")
			}
			return r
		}
		r := open()
		head, err := oid.ParseHex(f, strings.TrimSpace(testgit.Git(t, dir, f, "rev-parse", "HEAD")))
		if err != nil {
			t.Fatal(err)
		}
		parent, err := oid.ParseHex(f, strings.TrimSpace(testgit.Git(t, dir, f, "rev-parse", "HEAD~1")))
		if err != nil {
			t.Fatal(err)
		}
		fp, ok := r.repo.Objects.AbbrevFingerprint(time.Now())
		if !ok {
			t.Fatal("no fingerprint")
		}
		if err := r.cacheArea.SaveAbbrevs(fp, map[oid.ID]int{head: 23}); err != nil {
			t.Fatal(err)
		}
		if n := r.UniqueAbbrevLen(head, -1); n != 23 {
			t.Errorf("%v: UniqueAbbrevLen(HEAD) = %d, the cache keeps 23", f, n)
		}
		if n, want := r.UniqueAbbrevLen(parent, 4), r.repo.Objects.UniqueAbbrevLen(parent, 4); n != want {
			t.Errorf("%v: UniqueAbbrevLen(HEAD~1) = %d, want %d", f, n, want)
		}
		shortest := r.repo.Objects.ShortestUniqueLen(parent)
		r.Close() // keeps what was learned
		again := open()
		if kept := again.cacheArea.LoadAbbrevs(fp); kept[head] != 23 || kept[parent] != shortest || len(kept) != 2 {
			t.Errorf("%v: the cache keeps %v, want HEAD 23 and HEAD~1 %d", f, kept, shortest)
		}
		again.Close()
	}
}
