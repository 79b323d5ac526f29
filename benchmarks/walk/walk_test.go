package walk

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// benchCommits is the size of the generated repository
// (GOBLAME_WALK_COMMITS overrides it).
func benchCommits() int {
	if s := os.Getenv("GOBLAME_WALK_COMMITS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 20000
}

// count runs one walk the way a fresh process would: open the object
// database and (unless disabled) the commit-graph, then Count.
func count(tb testing.TB, gitDir string, format oid.Format, path string, useGraph bool, mode Mode) (int, traverse.CommitStats) {
	db, err := odb.Open(filepath.Join(gitDir, "objects"), format, odb.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var g *traverse.Graph
	if useGraph {
		g, _, err = traverse.OpenGraph(db.ObjectDirs(), format)
		if err != nil {
			tb.Fatal(err)
		}
		defer g.Close()
	}
	rd := db.NewReader()
	cs := traverse.NewCommits(rd, g, format, traverse.CommitOptions{})
	ts := traverse.NewTrees(rd, format)
	head := headID(tb, gitDir, format)
	n, err := Count(cs, ts, head, []byte(path), mode)
	if err != nil {
		tb.Fatal(err)
	}
	return n, cs.Stats()
}

var headCache = map[string]oid.ID{}

func headID(tb testing.TB, gitDir string, format oid.Format) oid.ID {
	if id, ok := headCache[gitDir]; ok {
		return id
	}
	out, err := gitOut(gitDir, format, false, "rev-parse", "HEAD")
	if err != nil {
		tb.Fatal(err)
	}
	id, err := oid.ParseHex(format, strings.TrimSpace(out))
	if err != nil {
		tb.Fatal(err)
	}
	headCache[gitDir] = id
	return id
}

func gitOut(gitDir string, format oid.Format, noGraph bool, args ...string) (string, error) {
	all := []string{"--git-dir=" + gitDir}
	if noGraph {
		all = append(all, "-c", "core.commitGraph=false")
	}
	cmd := exec.Command("git", append(all, args...)...)
	cmd.Env = testgit.Env(format)
	out, err := cmd.Output()
	return string(out), err
}

func gitCount(tb testing.TB, gitDir string, format oid.Format, path string, useGraph, full bool) int {
	args := []string{"rev-list", "--count"}
	if full {
		args = append(args, "--full-history")
	}
	out, err := gitOut(gitDir, format, !useGraph, append(args, "HEAD", "--", path)...)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// TestCountMatchesGit checks Count against git rev-list --count (with and
// without --full-history) on a small generated repository, with and
// without its commit-graph, for several paths.
func TestCountMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	dir, err := Generated(700, true)
	if err != nil {
		t.Fatal(err)
	}
	gitDir := filepath.Join(dir, ".git")
	for _, path := range []string{TargetPath, "d0/e0/f0.txt", "d9", "d3/e5", "nothere"} {
		for _, useGraph := range []bool{true, false} {
			for _, mode := range []Mode{Simplified, FullHistory} {
				got, st := count(t, gitDir, oid.SHA1, path, useGraph, mode)
				// git 2.39.5's count, from the goldens without git 2.39.x.
				args := []string{"-c", fmt.Sprintf("core.commitGraph=%v", useGraph), "rev-list", "--count"}
				if mode == FullHistory {
					args = append(args, "--full-history")
				}
				res := goldens.Run(testgit.Case{Dir: dir, Format: oid.SHA1, Args: append(args, "HEAD", "--", path)})
				want, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
				if err != nil || res.ExitCode != 0 {
					t.Fatalf("git rev-list --count: %s", res)
				}
				if got != want {
					t.Errorf("%s graph=%v mode=%d: %d, git says %d", path, useGraph, mode, got, want)
				}
				if useGraph && st.BloomNo == 0 && path != "d9" {
					t.Errorf("%s: Bloom filters unused: %+v", path, st)
				}
			}
		}
	}
}

// BenchmarkWalk times a whole-history path-limited walk of the generated
// repository, goblame and git side by side, with and without the
// commit-graph. Each goblame iteration opens the object database and the
// graph and starts with empty caches, as a fresh process would; each git
// iteration is a fresh "git rev-list --count HEAD -- PATH" process.
func BenchmarkWalk(b *testing.B) {
	testgit.RequireGit(b)
	dir, err := Generated(benchCommits(), true)
	if err != nil {
		b.Fatal(err)
	}
	benchPair(b, filepath.Join(dir, ".git"), oid.SHA1, TargetPath)
}

func benchPair(b *testing.B, gitDir string, format oid.Format, path string) {
	for _, useGraph := range []bool{true, false} {
		name := "graph"
		if !useGraph {
			name = "nograph"
		}
		want := gitCount(b, gitDir, format, path, useGraph, false)
		if got, _ := count(b, gitDir, format, path, useGraph, Simplified); got != want {
			b.Fatalf("%s %s: goblame counts %d, git %d", name, path, got, want)
		}
		b.Run(name+"/goblame", func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime(syscall.RUSAGE_SELF)
			for b.Loop() {
				count(b, gitDir, format, path, useGraph, Simplified)
			}
			b.ReportMetric(float64(cpuTime(syscall.RUSAGE_SELF)-start)/float64(b.N), "cpu-ns/op")
		})
		b.Run(name+"/git", func(b *testing.B) {
			start := cpuTime(syscall.RUSAGE_CHILDREN)
			for b.Loop() {
				gitCount(b, gitDir, format, path, useGraph, false)
			}
			b.ReportMetric(float64(cpuTime(syscall.RUSAGE_CHILDREN)-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime returns user+system CPU nanoseconds of this process (all its
// threads, the garbage collector's included) or of its waited-for
// children. Wall time on a shared machine swings with the load; CPU time
// much less.
func cpuTime(who int) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkReal runs BenchmarkWalk's pair on a real repository:
// GOBLAME_WALK_REPO names its git directory, GOBLAME_WALK_PATHS the
// comma-separated paths (default README.md). Skipped without the
// variable.
func BenchmarkReal(b *testing.B) {
	repo := os.Getenv("GOBLAME_WALK_REPO")
	if repo == "" {
		b.Skip("GOBLAME_WALK_REPO not set")
	}
	testgit.RequireGit(b)
	paths := strings.Split(os.Getenv("GOBLAME_WALK_PATHS"), ",")
	if paths[0] == "" {
		paths = []string{"README.md"}
	}
	format := oid.SHA1
	if out, _ := gitOut(repo, oid.SHA1, false, "rev-parse", "--show-object-format"); strings.TrimSpace(out) == "sha256" {
		format = oid.SHA256
	}
	for _, p := range paths {
		b.Run(strings.ReplaceAll(p, "/", "_"), func(b *testing.B) { benchPair(b, repo, format, p) })
	}
}
