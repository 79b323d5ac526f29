package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// TestCacheAbbreviationsMatchCold: abbreviations printed with the cache's
// kept lengths are the ones computed afresh, before and after a loose
// object that collides with a blamed commit's abbreviation appears, and
// whether or not the object database is old enough for its fingerprint
// to be trusted. (Fresh abbreviations are proven equal to git's by the
// rest of the suite.)
func TestCacheAbbreviationsMatchCold(t *testing.T) {
	dirs := fixtureDirs(t, "history", historyScript)
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			repoDir := filepath.Join(t.TempDir(), "r")
			if err := os.CopyFS(repoDir, os.DirFS(dirs[format])); err != nil {
				t.Fatal(err)
			}
			// core.abbrev=4: automatic abbreviations from four digits,
			// which a colliding object found in a second can lengthen.
			if _, err := testgit.Run(repoDir, format, nil, nil, "git", "config", "core.abbrev", "4"); err != nil {
				t.Fatal(err)
			}
			objects := filepath.Join(repoDir, ".git", "objects")
			shift := time.Hour
			age := func() { // time passes: every fan-out directory is old
				shift += time.Second
				entries, _ := os.ReadDir(objects)
				for _, e := range entries {
					if info, err := e.Info(); err == nil && len(e.Name()) == 2 && time.Since(info.ModTime()) < time.Minute {
						old := info.ModTime().Add(-shift)
						os.Chtimes(filepath.Join(objects, e.Name()), old, old)
					}
				}
			}
			cache := t.TempDir()
			args := []string{"HEAD", "--", "file"}
			check := func(when string) []byte {
				t.Helper()
				want := runGoblame(repoDir, format, nil, []string{"GOBLAME_CACHE=off"}, args...)
				for round := range 2 {
					got := runGoblame(repoDir, format, nil, []string{"GOBLAME_CACHE=" + cache}, args...)
					if !bytes.Equal(got.Stdout, want.Stdout) || got.ExitCode != want.ExitCode {
						t.Errorf("%s, round %d: cached:\n%s", when, round, describeDiff(got, want))
					}
				}
				return want.Stdout
			}
			age()
			before := check("old database")
			kept, _ := filepath.Glob(filepath.Join(cache, "*", "*", "abbrev", "*"))
			if len(kept) != 1 {
				t.Fatalf("abbreviation files after blaming an old database: %v", kept)
			}
			// A loose blob sharing as many digits with the first line's
			// commit as the abbreviations have, which lengthens them.
			width := len(strings.TrimPrefix(strings.Fields(string(before))[0], "^"))
			porcelain := runGoblame(repoDir, format, nil, []string{"GOBLAME_CACHE=off"}, "--porcelain", "HEAD", "--", "file")
			prefix := string(porcelain.Stdout[:width])
			var content []byte
			for i := 0; ; i++ {
				content = fmt.Appendf(nil, "collides with %s %d\n", prefix, i)
				if strings.HasPrefix(oid.HashObject(format, "blob", content).String(), prefix) {
					break
				}
			}
			if _, err := testgit.Run(repoDir, format, content, nil, "git", "hash-object", "-w", "--stdin"); err != nil {
				t.Fatal(err)
			}
			after := check("a colliding loose object just written")
			if bytes.Equal(before, after) {
				t.Fatalf("the colliding object changed no abbreviation:\n%s", after)
			}
			age()
			check("a colliding loose object, aged")
		})
	}
}
