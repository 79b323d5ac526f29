package blame_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// cacheCase is one blame of the cache tests.
type cacheCase struct {
	rev, path string
	opts      blame.Options
}

func cacheCases() []cacheCase {
	var cases []cacheCase
	for _, rev := range []string{"HEAD~4", "HEAD~2", "HEAD~1", "HEAD"} {
		for _, p := range libraryFiles {
			for _, o := range []blame.Options{{}, {IgnoreWhitespace: true}, {ShowRoot: true}, {Ranges: []string{"2,3"}}} {
				cases = append(cases, cacheCase{rev, p, o})
			}
		}
	}
	return cases
}

// blameShown is what a blame shows: porcelain output and the entries as
// found (--incremental).
func blameShown(t *testing.T, r *blame.Repository, c cacheCase) string {
	t.Helper()
	var found bytes.Buffer
	inc := format.NewIncremental(&found, format.Options{})
	res, err := r.Stream(context.Background(), c.rev, c.path, c.opts, func(e blame.Entry) error { inc.Entry(e); return nil })
	if err != nil {
		return "error: " + err.Error()
	}
	return render(t, res) + "\n--- found\n" + found.String()
}

// TestCacheLibrary: a repository with a cache, shared by goroutines,
// gives every blame exactly what a repository without one gives, the
// second time round from the cache; a cache whose entries were all
// damaged is ignored and rewritten; a cache in a file's place, or inside
// the repository, is not used; a shallow repository writes nothing.
func TestCacheLibrary(t *testing.T) {
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "library", f, libraryScript)
		dir := filepath.Join(root, "full")
		cold, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer cold.Close()
		cases := cacheCases()
		want := make([]string, len(cases))
		for i, c := range cases {
			want[i] = blameShown(t, cold, c)
		}

		cacheDir := t.TempDir()
		cache := blame.OpenCache(cacheDir, 0)
		warm, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer warm.Close()
		warm.SetCache(cache)
		check := func(round string) {
			var wg sync.WaitGroup
			for g := 0; g < 4; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					for i := g; i < len(cases); i += 4 {
						if got := blameShown(t, warm, cases[i]); got != want[i] {
							t.Errorf("%v %s: blame %s %s %+v:\n%s\nwant:\n%s", f, round, cases[i].rev, cases[i].path, cases[i].opts, got, want[i])
						}
					}
				}(g)
			}
			wg.Wait()
		}
		check("filling the cache")
		filled := cache.Counts()
		check("from the cache")
		if n := cache.Counts(); n.Writes == 0 || n.Hits <= filled.Hits {
			t.Errorf("%v: counts %+v after filling (%+v): the cache was not used", f, n, filled)
		}

		// Damage every entry: truncated, then garbage.
		for _, damage := range []func([]byte) []byte{
			func(b []byte) []byte { return b[:len(b)/2] },
			func(b []byte) []byte { return bytes.Repeat([]byte("x"), len(b)) },
		} {
			entries := 0
			filepath.Walk(cacheDir, func(p string, info os.FileInfo, err error) error {
				if err == nil && info.Mode().IsRegular() && len(info.Name()) == f.HexSize() {
					b, _ := os.ReadFile(p)
					os.WriteFile(p, damage(b), 0o600)
					entries++
				}
				return nil
			})
			if entries == 0 {
				t.Fatalf("%v: no entries to damage", f)
			}
			before := cache.Counts()
			check("over damaged entries")
			check("after rewriting them")
			if n := cache.Counts(); n.Corrupt == before.Corrupt || n.Writes == before.Writes {
				t.Errorf("%v: counts %+v, before %+v: damaged entries not noticed or not rewritten", f, n, before)
			}
		}

		// A file where the cache directory should be; a cache inside the
		// repository.
		file := filepath.Join(t.TempDir(), "file")
		os.WriteFile(file, []byte("not a directory"), 0o600)
		for _, d := range []string{file, filepath.Join(dir, ".git", "goblame-cache"), filepath.Join(dir, "cache")} {
			r, err := blame.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			c := blame.OpenCache(d, 0)
			r.SetCache(c)
			for i, cs := range cases[:8] {
				if got := blameShown(t, r, cs); got != want[i] {
					t.Errorf("%v: cache at %s: blame %s %s:\n%s\nwant:\n%s", f, d, cs.rev, cs.path, got, want[i])
				}
			}
			if n := c.Counts(); n.Writes != 0 {
				t.Errorf("%v: cache at %s: %d entries written", f, d, n.Writes)
			}
			r.Close()
		}
		if _, err := os.Stat(filepath.Join(dir, ".git", "goblame-cache")); err == nil {
			t.Errorf("%v: a cache directory was made inside the repository", f)
		}

		// A shallow repository's history is cut: nothing is cached.
		shallow, err := blame.Open(filepath.Join(root, "shallow"))
		if err != nil {
			t.Fatal(err)
		}
		c := blame.OpenCache(t.TempDir(), 0)
		shallow.SetCache(c)
		if _, err := shallow.File(context.Background(), "HEAD", "a.txt", blame.Options{}); err != nil {
			t.Fatal(err)
		}
		if n := c.Counts(); n.Writes != 0 || n.Hits != 0 {
			t.Errorf("%v: a shallow repository used the cache: %+v", f, n)
		}
		shallow.Close()
	}
}

// TestCacheProcesses runs two hundred goblame processes at once on one
// cache small enough that they evict each other's entries all the time:
// every output must be git's.
func TestCacheProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds goblame and runs 200 processes")
	}
	bin := filepath.Join(t.TempDir(), "goblame")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/goblame/goblame").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f := oid.SHA1
	dir := filepath.Join(testgit.Fixture(t, "library", f, libraryScript), "full")
	type run struct{ args []string }
	var runs []run
	for _, rev := range []string{"HEAD~4", "HEAD~3", "HEAD~2", "HEAD~1", "HEAD"} {
		for _, p := range libraryFiles {
			runs = append(runs, run{[]string{"--porcelain", rev, "--", p}}, run{[]string{"--incremental", "-w", rev, "--", p}})
		}
	}
	want := make([]testgit.Result, len(runs))
	for i, r := range runs {
		want[i] = testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: append([]string{"blame"}, r.args...)})
	}
	cacheDir := t.TempDir()
	env := append(testgit.Env(f), "GOBLAME_CACHE="+cacheDir, "GOBLAME_CACHE_MAX_BYTES=3000")
	const procs = 200
	var wg sync.WaitGroup
	errs := make(chan string, procs)
	for i := 0; i < procs; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			k := (i * 7) % len(runs)
			cmd := exec.Command(bin, runs[k].args...)
			cmd.Dir, cmd.Env = dir, env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, _ := cmd.Output()
			w := want[k]
			if !bytes.Equal(out, w.Stdout) || !bytes.Equal(stderr.Bytes(), w.Stderr) || cmd.ProcessState.ExitCode() != w.ExitCode {
				errs <- fmt.Sprintf("process %d: goblame %s: exit %d %s\n%s\nwant %s", i, strings.Join(runs[k].args, " "), cmd.ProcessState.ExitCode(), stderr.String(), out, w)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var total int64
	filepath.Walk(cacheDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			total += info.Size()
		}
		return nil
	})
	// The bound is kept to within the writes between two trims.
	if total > 3000*3 {
		t.Errorf("the cache holds %d bytes, bound 3000", total)
	}
}

// TestBeforeWalkOnlyForLongWalks: Options.BeforeWalk (where the command
// line makes its huge-page heap, a collection and a few hundred page
// faults) runs once for a long walk, and not for a history of a few
// commits or a blame one commit past a cached entry, whose output is the
// cold blame's.
// longWalkScript makes a 40-commit history of one file, f.txt.
const longWalkScript = `git init -q r && cd r
for i in $(seq 1 40); do
  printf 'line %s\n' $(seq 1 $i) >f.txt
  git add f.txt && test_tick && git commit -q -m "step $i"
done
`

func TestBeforeWalkOnlyForLongWalks(t *testing.T) {
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "long-walk", f, longWalkScript), "r")
		blameCounting := func(r *blame.Repository, rev string) (string, int) {
			t.Helper()
			walks := 0
			res, err := r.File(context.Background(), rev, "f.txt", blame.Options{BeforeWalk: func() { walks++ }})
			if err != nil {
				t.Fatal(err)
			}
			return render(t, res), walks
		}
		cold, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer cold.Close()
		want, walks := blameCounting(cold, "HEAD")
		if walks != 1 {
			t.Errorf("%s: cold blame of a 40-commit history: BeforeWalk ran %d times, want 1", f, walks)
		}
		if _, walks := blameCounting(cold, "HEAD~30"); walks != 0 {
			t.Errorf("%s: blame of a 10-commit history: BeforeWalk ran %d times, want 0", f, walks)
		}

		warm, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer warm.Close()
		warm.SetCache(blame.OpenCache(t.TempDir(), 0))
		if _, walks := blameCounting(warm, "HEAD~1"); walks != 1 {
			t.Errorf("%s: first blame of HEAD~1: BeforeWalk ran %d times, want 1", f, walks)
		}
		got, walks := blameCounting(warm, "HEAD")
		if walks != 0 {
			t.Errorf("%s: blame one commit past a cached entry: BeforeWalk ran %d times, want 0", f, walks)
		}
		if got != want {
			t.Errorf("%s: blame over the cached parent differs from the cold one:\n%s\nwant:\n%s", f, got, want)
		}
	}
}

// TestPreparedCold: a blame is cold without a cache, with NoCache, and
// with a cache that has no entry for its path; an entry for the path at
// any commit (the walk may stop there) makes it warm.
func TestPreparedCold(t *testing.T) {
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "long-walk", f, longWalkScript), "r")
		cold := func(r *blame.Repository, rev string, opts blame.Options) bool {
			t.Helper()
			p, err := r.Prepare(context.Background(), rev, "f.txt", opts)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			return p.Cold()
		}
		r, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if !cold(r, "HEAD", blame.Options{}) {
			t.Errorf("%s: no cache: not cold", f)
		}
		r.SetCache(blame.OpenCache(t.TempDir(), 0))
		if !cold(r, "HEAD", blame.Options{}) {
			t.Errorf("%s: empty cache: not cold", f)
		}
		if _, err := r.File(context.Background(), "HEAD~5", "f.txt", blame.Options{}); err != nil {
			t.Fatal(err)
		}
		for _, rev := range []string{"HEAD", "HEAD~5", "HEAD~10"} {
			if cold(r, rev, blame.Options{}) {
				t.Errorf("%s: %s with an entry for HEAD~5 cached: cold", f, rev)
			}
		}
		if !cold(r, "HEAD", blame.Options{NoCache: true}) {
			t.Errorf("%s: NoCache: not cold", f)
		}
		if !cold(r, "HEAD", blame.Options{IgnoreWhitespace: true}) {
			t.Errorf("%s: other options (no entry under them): not cold", f)
		}
	}
}

// TestCachePrimedDirtyBuffer: the first blame of a dirty buffer with a
// cache blames the file's committed version whole and keeps its entry
// (one write), then splices the buffer onto that snapshot as it is,
// without reading the entry back (no hit): reading it back and decoding
// it cost 0.15-0.3 ms of gitoxide README.md's first blame. The next
// dirty buffer's blame reads the entry (one hit) and writes nothing.
// Both give what the blame without a cache gives (which TestCacheMatchesGit
// in cli compares with git blame --contents).
func TestCachePrimedDirtyBuffer(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	buffers := []string{
		"line 1\nline 2\nnew 3\n" + strings.Repeat("line x\n", 5),
		"edited\n" + "line 2\nline 3\nline 4\n",
	}
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "long-walk", f, longWalkScript), "r")
		blameBuffer := func(r *blame.Repository, buf string) string {
			t.Helper()
			res, err := r.File(context.Background(), "", "f.txt", blame.Options{Contents: strings.NewReader(buf), Now: now, Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			return render(t, res)
		}
		cold, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer cold.Close()
		warm, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer warm.Close()
		cache := blame.OpenCache(t.TempDir(), 0)
		warm.SetCache(cache)
		for i, buf := range buffers {
			before := cache.Counts()
			got := blameBuffer(warm, buf)
			n := cache.Counts()
			if want := blameBuffer(cold, buf); got != want {
				t.Errorf("%s: dirty buffer %d with a cache:\n%s\nwant (without a cache):\n%s", f, i, got, want)
			}
			hits, writes := n.Hits-before.Hits, n.Writes-before.Writes
			if i == 0 && (writes != 1 || hits != 0) {
				t.Errorf("%s: first dirty buffer: %d entries written, %d read back; want 1 written (the committed version's) and none read back (its snapshot is spliced as it is)", f, writes, hits)
			}
			if i > 0 && (writes != 0 || hits != 1) {
				t.Errorf("%s: later dirty buffer: %d entries written, %d read; want none written and 1 read", f, writes, hits)
			}
		}
	}
}

// TestDefaultCacheDir: XDG_CACHE_HOME (absolute) first, then HOME's
// .cache, and no cache where HOME is not a directory.
func TestDefaultCacheDir(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		xdg, home, want string
	}{
		{"/x/cache", home, "/x/cache/goblame"},
		{"relative", home, filepath.Join(home, ".cache", "goblame")},
		{"", home, filepath.Join(home, ".cache", "goblame")},
		{"", filepath.Join(home, "missing"), ""},
		{"", file, ""},
		{"", "", ""},
	} {
		env := map[string]string{"XDG_CACHE_HOME": c.xdg, "HOME": c.home}
		if got := blame.DefaultCacheDir(func(k string) string { return env[k] }); got != c.want {
			t.Errorf("XDG_CACHE_HOME=%q HOME=%q: %q, want %q", c.xdg, c.home, got, c.want)
		}
	}
}
