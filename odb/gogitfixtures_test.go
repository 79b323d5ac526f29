package odb

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// goGitFixturesData finds the data directory of
// github.com/go-git/go-git-fixtures/v4 in the module cache: real packs and
// .git directories from many repositories (OFS_DELTA and REF_DELTA packs
// written by several tools). The module is read in place, not imported.
func goGitFixturesData(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "github.com", "go-git", "go-git-fixtures", "v4@*", "data"))
	if len(dirs) == 0 {
		t.Skip("github.com/go-git/go-git-fixtures/v4 is not in the module cache")
	}
	return dirs[len(dirs)-1]
}

// TestGoGitFixturePacks puts each pack of go-git-fixtures alone in a bare
// repository and compares every object with git cat-file --batch. A pack
// shipped without an index gets one from git index-pack.
func TestGoGitFixturePacks(t *testing.T) {
	testgit.RequireAnyGit(t) // objects are compared by content (see catFileAll)
	data := goGitFixturesData(t)
	packs, _ := filepath.Glob(filepath.Join(data, "pack-*.pack"))
	if len(packs) == 0 {
		t.Fatal("no packs in go-git-fixtures")
	}
	total := 0
	for _, packPath := range packs {
		name := strings.TrimSuffix(filepath.Base(packPath), ".pack")
		t.Run(name, func(t *testing.T) {
			format := oid.SHA1
			dir := t.TempDir()
			testgit.Git(t, dir, format, "init", "-q", "--bare", "r")
			repo := filepath.Join(dir, "r")
			packDir := filepath.Join(repo, "objects", "pack")
			if err := os.Symlink(packPath, filepath.Join(packDir, name+".pack")); err != nil {
				t.Fatal(err)
			}
			idx := strings.TrimSuffix(packPath, ".pack") + ".idx"
			if _, err := os.Stat(idx); err == nil {
				if err := os.Symlink(idx, filepath.Join(packDir, name+".idx")); err != nil {
					t.Fatal(err)
				}
			} else {
				res, err := testgit.Run(dir, format, nil, nil, "git", "index-pack", "-o", filepath.Join(packDir, name+".idx"), packPath)
				if err != nil || res.ExitCode != 0 {
					t.Skipf("git index-pack cannot index this pack: %s", res)
				}
			}
			total += compareAll(t, repo, format, Options{})
		})
	}
	t.Logf("%d objects in %d packs identical to git", total, len(packs))
}

// TestGoGitFixtureRepositories unpacks the .git directories that
// go-git-fixtures ships as archives and compares every object with git.
func TestGoGitFixtureRepositories(t *testing.T) {
	testgit.RequireAnyGit(t) // objects are compared by content (see catFileAll)
	data := goGitFixturesData(t)
	archives, _ := filepath.Glob(filepath.Join(data, "git-*.tgz"))
	if len(archives) == 0 {
		t.Fatal("no archives in go-git-fixtures")
	}
	total := 0
	for _, archive := range archives {
		name := strings.TrimSuffix(filepath.Base(archive), ".tgz")
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := untgz(archive, dir); err != nil {
				t.Fatal(err)
			}
			res, err := testgit.Run(dir, oid.SHA1, nil, nil, "git", "cat-file", "--batch-all-objects", "--batch-check")
			if err != nil || res.ExitCode != 0 || len(res.Stdout) == 0 {
				t.Skipf("git cannot list this repository's objects: %s", res)
			}
			total += compareAll(t, dir, oid.SHA1, Options{})
		})
	}
	t.Logf("%d objects in %d repositories identical to git", total, len(archives))
}

func untgz(archive, dir string) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			out, err := os.Create(target)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, tr)
			out.Close()
			if err != nil {
				return err
			}
		}
	}
}
