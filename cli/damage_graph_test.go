package cli

import (
	"bytes"
	"encoding/binary"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/oid"
)

// graphScript is a history with a commit-graph and Bloom filters.
const graphScript = `git init -q r && cd r
for i in 1 2 3 4 5 6; do seq 1 $((i*3)) >f; commit_all c$i; done
git commit-graph write --reachable --changed-paths
`

// damageGraph rewrites one field of the commit-graph at path.
func damageGraph(t *testing.T, path string, f oid.Format, kind string) {
	t.Helper()
	testpack.RewriteChunked(t, path, 8, func(b []byte, chunks map[string]int) {
		rec := f.Size() + 16
		cdat := chunks["CDAT"]
		switch kind {
		case "self-parent":
			binary.BigEndian.PutUint32(b[cdat+rec+f.Size():], 1)
		case "bad-extra-edges":
			binary.BigEndian.PutUint32(b[cdat+rec+f.Size()+4:], 0x80000000|7)
		case "chunk-into-commit-data":
			// The generation data chunk's table entry points one row
			// into the commit data, which the table then gives one
			// row: git 2.39.5 reads the rows where they lie and takes
			// bytes of object names for generations (and dies of one
			// with the overflow bit set: "commit-graph requires
			// overflow generation data but has none"); newer git
			// (2.55 checked) refuses the file, as goblame does.
			if _, ok := chunks["GDA2"]; !ok {
				t.Fatal("no generation data chunk")
			}
			for i := 0; i < int(b[6]); i++ {
				if e := 8 + 12*i; string(b[e:e+4]) == "GDA2" {
					binary.BigEndian.PutUint64(b[e+4:], uint64(cdat+rec))
				}
			}
		default:
			t.Fatalf("unknown damage %s", kind)
		}
	})
}

// TestDamagedCommitGraph: with a commit-graph damaged in each of these
// ways (git 2.39.5 reads past the file, loops, or reads one chunk's rows
// as another's, where newer git refuses the file; the damage git dies of,
// and a Bloom index git reads unchecked, are
// TestDamagedCommitGraphMatchesGit's), goblame prints
// what the repository gives without the commit-graph, one warning line
// that says so, and exits 0.
func TestDamagedCommitGraph(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		src := filepath.Join(testgit.Fixture(t, "cli-damaged-graph", f, graphScript), "r")
		compareDamaged(t, f, src, "commit-graph", []string{"GIT_TEST_COMMIT_GRAPH=0"}, []string{"-c", "core.commitGraph=false"},
			[]string{"self-parent", "bad-extra-edges", "chunk-into-commit-data"},
			func(dir, kind string) {
				damageGraph(t, filepath.Join(dir, ".git", "objects", "info", "commit-graph"), f, kind)
			})
	}
}

// compareDamaged copies the repository src once per kind of damage and
// checks that goblame blames f there, damaged, as git blames it
// undamaged with the git options that turn the damaged file off (git
// 2.39.5's output, from the goldens without it): the same output, exit
// 0, and one warning line naming what.
func compareDamaged(t *testing.T, f oid.Format, src, what string, gitEnv, gitOff, kinds []string, damage func(dir, kind string)) {
	t.Helper()
	// The undamaged fixture, read by git with the file turned off.
	want := testgit.Golden(t).Run(testgit.Case{Dir: src, Format: f, Env: gitEnv, Args: append(gitOff, "blame", "-p", "f")})
	if want.ExitCode != 0 {
		t.Fatalf("git without the %s: exit %d %s", what, want.ExitCode, want.Stderr)
	}
	for _, kind := range kinds {
		dir := filepath.Join(t.TempDir(), "r")
		if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
		damage(dir, kind)
		got := runGoblame(dir, f, nil, nil, "-p", "f")
		if got.ExitCode != 0 || !bytes.Equal(got.Stdout, want.Stdout) {
			t.Errorf("%s %s: exit %d, stderr %q; output equal to the undamaged blame: %v", f, kind, got.ExitCode, got.Stderr, bytes.Equal(got.Stdout, want.Stdout))
		}
		if stderr := string(got.Stderr); strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "warning: ") || !strings.Contains(stderr, what) {
			t.Errorf("%s %s: stderr %q: want one warning line about the %s", f, kind, got.Stderr, what)
		}
	}
}
