package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// deltaScript is a two-commit history, all loose objects, with the ids
// and raw bytes of HEAD's commit, root tree and blob of f left next to
// the repository for the test to rewrite as hostile packs.
const deltaScript = `git init -q r && cd r
printf 'one\ntwo\n' >f && commit_all one
printf 'one\ntwo\nthree\n' >f && commit_all two
git rev-parse HEAD HEAD^{tree} HEAD:f >../ids
git cat-file commit HEAD >../commit
git cat-file tree HEAD^{tree} >../tree
git cat-file blob HEAD:f >../blob
`

// deltaFixture is the fixture copied to a temporary directory (the test
// rewrites objects), with HEAD's commit, root tree and blob of f.
type deltaFixture struct {
	src, dir string
	objects  [3]struct {
		id      oid.ID
		typ     object.Type
		content []byte
	}
}

func newDeltaFixture(t *testing.T, f oid.Format) *deltaFixture {
	t.Helper()
	root := testgit.Fixture(t, "cli-delta", f, deltaScript)
	fx := &deltaFixture{src: filepath.Join(root, "r"), dir: filepath.Join(t.TempDir(), "r")}
	if out, err := exec.Command("cp", "-r", fx.src, fx.dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	ids, err := os.ReadFile(filepath.Join(root, "ids"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(ids))
	for i, what := range []struct {
		typ  object.Type
		file string
	}{{object.Commit, "commit"}, {object.Tree, "tree"}, {object.Blob, "blob"}} {
		id, err := oid.ParseHex(f, lines[i])
		if err != nil {
			t.Fatal(err)
		}
		content, err := os.ReadFile(filepath.Join(root, what.file))
		if err != nil {
			t.Fatal(err)
		}
		if oid.HashObject(f, what.typ.String(), content) != id {
			t.Fatalf("%s %s: the saved bytes do not hash to its id", what.typ, id)
		}
		fx.objects[i].id, fx.objects[i].typ, fx.objects[i].content = id, what.typ, content
	}
	return fx
}

// removeLoose deletes the loose copy of id, which a pack then replaces.
func (fx *deltaFixture) removeLoose(t *testing.T, id oid.ID) {
	t.Helper()
	hexID := id.String()
	if err := os.Remove(filepath.Join(fx.dir, ".git", "objects", hexID[:2], hexID[2:])); err != nil {
		t.Fatal(err)
	}
}

func (fx *deltaFixture) packDir() string { return filepath.Join(fx.dir, ".git", "objects", "pack") }

// blameWithin runs goblame with a bound on its time: a reader that
// follows a cycle would never return.
func blameWithin(t *testing.T, dir string, f oid.Format, bound time.Duration, args ...string) testgit.Result {
	t.Helper()
	done := make(chan testgit.Result, 1)
	go func() { done <- runGoblame(dir, f, nil, nil, args...) }()
	select {
	case res := <-done:
		return res
	case <-time.After(bound):
		t.Fatalf("goblame %v: still running after %v", args, bound)
		return testgit.Result{}
	}
}

// TestDeltaCycleInBlame: HEAD's commit, its root tree or the blob of f
// stored as REF_DELTA entries that name each other as base (A -> B -> A).
// git 2.39.5 loops forever on these; goblame exits 128 with one fatal
// line that says it is a delta cycle and names the object it could not
// read, never "no such path". Only a blame of the work tree does not need
// the blob: the file there has the blob's id, so its bytes are the blob's,
// and the blame is git's blame of the intact fixture.
func TestDeltaCycleInBlame(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		for i, what := range []string{"commit", "tree", "blob"} {
			t.Run(f.String()+"/"+what, func(t *testing.T) {
				fx := newDeltaFixture(t, f)
				a := fx.objects[i]
				// B is an object of the same type that exists nowhere else.
				other := append(bytes.Clone(a.content), "\n"...)
				if a.typ == object.Tree {
					other = append([]byte("100644 g\x00"), fx.objects[2].id.Bytes()...)
				}
				bID := oid.HashObject(f, a.typ.String(), other)
				fx.removeLoose(t, a.id)
				testpack.Write(t, fx.packDir(), f, "cycle", []testpack.Entry{
					{Type: testpack.RefDelta, Body: testpack.Delta(other, a.content), RefBase: bID, ID: a.id, DeclaredSize: -1},
					{Type: testpack.RefDelta, Body: testpack.Delta(a.content, other), RefBase: a.id, ID: bID, DeclaredSize: -1},
				})
				for _, args := range [][]string{{"f"}, {"-p", "HEAD", "--", "f"}, {"--incremental", "f"}} {
					got := blameWithin(t, fx.dir, f, 10*time.Second, args...)
					if what == "blob" && args[0] != "-p" {
						want := goldens.Run(testgit.Case{Dir: fx.src, Format: f, Args: append([]string{"blame"}, args...)})
						if !bytes.Equal(got.Stdout, want.Stdout) || !bytes.Equal(got.Stderr, want.Stderr) || got.ExitCode != want.ExitCode {
							t.Errorf("goblame %v of the work tree:\n%s", args, describeDiff(got, want))
						}
						continue
					}
					stderr := string(got.Stderr)
					if got.ExitCode != 128 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "fatal: ") {
						t.Errorf("%v: exit %d, stderr %q: want 128 and one fatal line", args, got.ExitCode, stderr)
					}
					if !strings.Contains(strings.ToLower(stderr), "delta cycle") || !strings.Contains(stderr, a.id.String()) {
						t.Errorf("%v: stderr %q does not say it is a delta cycle or does not name %s", args, stderr, a.id)
					}
					if strings.Contains(stderr, "no such path") {
						t.Errorf("%v: stderr %q blames the path for an unreadable object", args, stderr)
					}
				}
			})
		}
	}
}

// deepChainDepth is the OFS_DELTA chain of TestDeepDeltaChainInBlame, as
// deep as the (git 2.39.5 reads it).
const deepChainDepth = 50000

// TestDeepDeltaChainInBlame: the blob of f stored at the end of an
// OFS_DELTA chain 50,000 deep. goblame reads it as git does: the blame is
// git 2.39.5's blame of the fixture with a loose blob (from the goldens
// without git 2.39.x), and, with git 2.39.x installed, git's own blame of
// the same deep pack.
func TestDeepDeltaChainInBlame(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		t.Run(f.String(), func(t *testing.T) {
			fx := newDeltaFixture(t, f)
			blob := fx.objects[2]
			entries := make([]testpack.Entry, 0, deepChainDepth+1)
			prev := append(bytes.Clone(blob.content), "base\n"...)
			entries = append(entries, testpack.Full(f, object.Blob, prev))
			for i := 1; i <= deepChainDepth; i++ {
				next := blob.content
				if i < deepChainDepth {
					next = fmt.Appendf(bytes.Clone(blob.content), "%d\n", i)
				}
				id := oid.HashObject(f, "blob", next)
				entries = append(entries, testpack.Entry{Type: testpack.OfsDelta, Body: testpack.Delta(prev, next), OfsBase: i - 1, ID: id, DeclaredSize: -1})
				prev = next
			}
			if entries[deepChainDepth].ID != blob.id {
				t.Fatalf("the chain ends in %s, not the blob of f %s", entries[deepChainDepth].ID, blob.id)
			}
			fx.removeLoose(t, blob.id)
			testpack.Write(t, fx.packDir(), f, "deep", entries)

			// Blames of HEAD (the work tree's file would stand for the
			// blob), with full ids (the abbreviation grows with the 50,000
			// objects).
			for _, args := range [][]string{{"-l", "HEAD", "--", "f"}, {"-p", "HEAD", "--", "f"}, {"--incremental", "HEAD", "--", "f"}} {
				want := goldens.Run(testgit.Case{Dir: fx.src, Format: f, Args: append([]string{"blame"}, args...)})
				got := blameWithin(t, fx.dir, f, 60*time.Second, args...)
				if !bytes.Equal(got.Stdout, want.Stdout) || !bytes.Equal(got.Stderr, want.Stderr) || got.ExitCode != want.ExitCode {
					t.Errorf("goblame %v on the deep chain:\n%s", args, describeDiff(got, want))
				}
				if deep, live := goldens.Live(testgit.Case{Dir: fx.dir, Format: f, Args: append([]string{"blame"}, args...)}); live {
					if !bytes.Equal(deep.Stdout, want.Stdout) || deep.ExitCode != 0 {
						t.Errorf("git %v on the deep chain differs from git on the loose blob:\n%s", args, describeDiff(deep, want))
					}
				}
			}
		})
	}
}
