package blame_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// libraryScript is a history with what a library user's blame must get
// right without asking: a .mailmap, renames, merges, several files, and
// a shallow clone (boundary commits from the shallow file).
const libraryScript = `git init -q full && cd full
printf 'A U Thor <author@example.com>\nMapped Name <mapped@example.com> <old@example.com>\n' >.mailmap
for i in 1 2 3 4 5 6; do
  printf 'line %s\n' $(seq 1 $((i*3))) >a.txt
  printf 'b%s\n' $(seq $i 12) >b.txt
  mkdir -p dir && printf 'c %s\n' $(seq 1 $i) >dir/c.txt
  git add . && test_tick && GIT_AUTHOR_EMAIL=old@example.com git commit -q -m "step $i"
done
git mv b.txt dir/moved.txt && test_tick && git commit -q -m move
git checkout -q -b side HEAD~2 && printf 'side\n' >>b.txt && test_tick && git commit -q -am side
git checkout -q main && printf 'main\n' >>dir/c.txt && test_tick && git commit -q -am main-change
test_tick && git merge -q --no-edit side
cd .. && git clone -q --depth 3 "file://$PWD/full" shallow
`

var libraryFiles = []string{"a.txt", "dir/c.txt", "dir/moved.txt", ".mailmap"}

// gitPorcelain is git blame --porcelain's output (the reference): git
// 2.39.5's, from the test's golden file where git 2.39.x is not installed.
func gitPorcelain(t *testing.T, dir string, f oid.Format, args ...string) string {
	t.Helper()
	return gitOutput(t, dir, f, append([]string{"blame", "--porcelain"}, args...)...)
}

// gitOutput is what git 2.39.5 prints with args in dir; it fails the
// test if git failed.
func gitOutput(t *testing.T, dir string, f oid.Format, args ...string) string {
	t.Helper()
	res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: args})
	if res.ExitCode != 0 {
		t.Fatalf("git %s: %s", strings.Join(args, " "), res)
	}
	return string(res.Stdout)
}

func render(t *testing.T, res *blame.Result) string {
	var buf bytes.Buffer
	if err := format.Write(&buf, res, format.Options{Porcelain: true, QuotePath: true}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestZeroOptionsAreGitBlame: blame.Options{} gives git blame's answer —
// mailmapped names, boundaries of a shallow clone — with nothing else
// set by the caller.
func TestZeroOptionsAreGitBlame(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "blame-library", f, libraryScript)
		for _, clone := range []string{"full", "shallow"} {
			dir := filepath.Join(root, clone)
			r, err := blame.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range libraryFiles {
				res, err := r.File(context.Background(), "HEAD", path, blame.Options{})
				if err != nil {
					t.Fatalf("%s %s: %v", clone, path, err)
				}
				if got, want := render(t, res), gitPorcelain(t, dir, f, "HEAD", "--", path); got != want {
					t.Errorf("%s/%s %s: library output differs from git blame --porcelain\ngot:\n%s\nwant:\n%s", f, clone, path, got, want)
				}
			}
			r.Close()
		}
	}
}

// TestConcurrentBlames shares one Repository between goroutines that
// each blame every file several times, with and without options, and
// read their results after other blames have reused the pooled readers.
// Run with -race (make test does).
func TestConcurrentBlames(t *testing.T) {
	testgit.Golden(t) // skips without git
	f := oid.SHA1
	dir := filepath.Join(testgit.Fixture(t, "blame-library", f, libraryScript), "full")
	type job struct {
		path string
		opts blame.Options
		args []string
	}
	var jobs []job
	for _, p := range libraryFiles {
		jobs = append(jobs,
			job{p, blame.Options{}, []string{"HEAD", "--", p}},
			job{p, blame.Options{IgnoreWhitespace: true, Move: true}, []string{"-w", "-M", "HEAD", "--", p}},
			job{p, blame.Options{CopyLevel: 2}, []string{"-C", "-C", "HEAD", "--", p}})
	}
	want := make([]string, len(jobs))
	for i, j := range jobs {
		want[i] = gitPorcelain(t, dir, f, j.args...)
	}
	r, err := blame.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const workers, rounds = 8, 3
	results := make([][]*blame.Result, workers)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				for i := range jobs {
					j := jobs[(i+w)%len(jobs)]
					res, err := r.File(context.Background(), "HEAD", j.path, j.opts)
					if err != nil {
						errs <- fmt.Errorf("%s: %w", j.path, err)
						return
					}
					results[w] = append(results[w], res)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for w, rs := range results {
		for k, res := range rs {
			i := (k%len(jobs) + w) % len(jobs)
			if got := render(t, res); got != want[i] {
				t.Fatalf("worker %d, blame %d (%s %v): differs from git\ngot:\n%s\nwant:\n%s", w, k, jobs[i].path, jobs[i].args, got, want[i])
			}
		}
	}
}

// TestMisuseIsAnError: bad ranges, a second run and a stopped stream
// are errors, not panics or duplicated lines.
func TestMisuseIsAnError(t *testing.T) {
	testgit.Golden(t) // skips without git
	dir := filepath.Join(testgit.Fixture(t, "blame-library", oid.SHA1, libraryScript), "full")
	testgit.Golden(t).RequireFixture(dir)
	r, err := blame.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()

	// dir/c.txt has 7 lines at HEAD.
	if _, err := r.File(ctx, "HEAD", "dir/c.txt", blame.Options{LineRanges: []blame.LineRange{{Start: 5, End: 40}}}); !errors.Is(err, blame.ErrBadRange) {
		t.Errorf("range past the end: error %v, want ErrBadRange", err)
	}
	if _, err := r.File(ctx, "HEAD", "dir/c.txt", blame.Options{Ranges: []string{"50,60"}}); err == nil || err.Error() != "file dir/c.txt has only 7 lines" {
		t.Errorf("-L past the end: error %v, want git's message", err)
	}
	res, err := r.File(ctx, "HEAD", "dir/c.txt", blame.Options{LineRanges: []blame.LineRange{{Start: 0, End: 4}, {Start: 2, End: 6}}, Ranges: []string{"3,5"}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range res.Entries {
		n += e.NumLines
	}
	if n != 6 {
		t.Errorf("overlapping ranges 1-4, 3-6 and 3,5 blamed %d lines, want 6 (each once)", n)
	}

	p, err := r.Prepare(ctx, "HEAD", "a.txt", blame.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(nil); !errors.Is(err, blame.ErrUsedUp) {
		t.Errorf("second Run: error %v, want ErrUsedUp", err)
	}

	stop := errors.New("enough")
	calls := 0
	_, err = r.Stream(ctx, "HEAD", "a.txt", blame.Options{}, func(blame.Entry) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("stopped stream: error %v after %d calls, want the callback's error after 1", err, calls)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.File(cctx, "HEAD", "a.txt", blame.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v, want context.Canceled", err)
	}
	if _, err := r.File(ctx, "HEAD", "nope.txt", blame.Options{}); !errors.Is(err, blame.ErrNoSuchPath) {
		t.Errorf("missing path: error %v, want ErrNoSuchPath", err)
	}
	const noBottoms = "--ancestry-path given but there are no bottom commits"
	if _, err := r.File(ctx, "HEAD", "a.txt", blame.Options{AncestryPath: true}); err == nil || err.Error() != noBottoms {
		t.Errorf("an ancestry path without a range: error %v, want git's %q", err, noBottoms)
	}
	if _, err := r.File(ctx, "HEAD", "a.txt", blame.Options{AncestryPathCommits: []string{"nosuchrev"}}); err == nil ||
		err.Error() != "could not get commit for ancestry-path argument nosuchrev" {
		t.Errorf("an ancestry path from no commit: error %v, want git's", err)
	}
}

// TestRecordsEncodeAsText: IDs and names are JSON strings, with the
// commit's details resolved.
func TestRecordsEncodeAsText(t *testing.T) {
	testgit.Golden(t) // skips without git
	dir := filepath.Join(testgit.Fixture(t, "blame-library", oid.SHA1, libraryScript), "full")
	r, err := blame.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := r.File(context.Background(), "HEAD", "dir/c.txt", blame.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res.Entries[0])
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Line   int
		Commit struct {
			ID     string
			Author struct{ Name, Email, Zone string }
		}
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	first := strings.Fields(gitPorcelain(t, dir, oid.SHA1, "-L1,1", "HEAD", "--", "dir/c.txt"))[0]
	if got.Commit.ID != first || got.Commit.Author.Name != "Mapped Name" || got.Commit.Author.Email != "mapped@example.com" || got.Commit.Author.Zone != "-0700" {
		t.Errorf("JSON of the first entry: %s; want commit %s by the mailmapped Mapped Name <mapped@example.com>, zone -0700", data, first)
	}
}

// TestFilesListsWhatGitLists: Files(rev) is `git ls-tree -r --name-only`
// without submodules.
func TestFilesListsWhatGitLists(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "blame-library", f, libraryScript), "full")
		r, err := blame.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, rev := range []string{"HEAD", "HEAD~3", "side"} {
			got, err := r.Files(rev)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Fields(gitOutput(t, dir, f, "ls-tree", "-r", "--name-only", rev))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s Files(%s) = %q, want %q", f, rev, got, want)
			}
		}
		r.Close()
	}
}

// excludesLoopScript has an uncommitted change and, as core.excludesFile,
// a loop of symbolic links that git cannot access.
const excludesLoopScript = `git init -q r && cd r
printf 'one\ntwo\n' >f
commit_all one
printf 'one\ntwo\nthree\n' >f
ln -s loop2 loop1 && ln -s loop1 loop2
git config core.excludesFile loop1
`

// TestConcurrentWorkTreeBlamesWarnOfExcludes: the exclude files a
// work-tree blame checks (git's warning for one it cannot access, at its
// comparison with HEAD) are checked by every blame of a shared
// Repository, each of which gets the warning through its own
// Options.Warn, without a data race (go test -race runs this).
func TestConcurrentWorkTreeBlamesWarnOfExcludes(t *testing.T) {
	testgit.Golden(t) // skips without git
	dir := filepath.Join(testgit.Fixture(t, "blame-excludes-loop", oid.SHA1, excludesLoopScript), "r")
	r, err := blame.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const workers = 8
	var wg sync.WaitGroup
	warned := make([][]string, workers)
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := blame.Options{Warn: func(line string) { warned[w] = append(warned[w], line) }}
			_, errs[w] = r.File(context.Background(), "", "f", opts)
		}()
	}
	wg.Wait()
	want := "warning: unable to access 'loop1': Too many levels of symbolic links"
	for w := range workers {
		if errs[w] != nil {
			t.Errorf("blame %d: %v", w, errs[w])
		} else if len(warned[w]) != 1 || warned[w][0] != want {
			t.Errorf("blame %d warned %q, want [%q]", w, warned[w], want)
		}
	}
}
