package cli

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// TestRealRepositories blames every text file (up to 400 KB) at HEAD of
// the repositories listed in GOBLAME_REAL_REPOS (colon-separated paths,
// bare or not) with the default format and --porcelain, and compares
// with git blame byte for byte. GOBLAME_REAL_FLAGS adds flag sets
// ("-M;-C -C;-w"); GOBLAME_REAL_MAX limits the number of files per
// repository. In a flag set, {newest} stands for the newest commit that
// touched the file (for "--ignore-rev {newest}"). Without
// GOBLAME_REAL_REPOS the test is skipped: CI has no
// copies of real repositories; run it by hand, e.g.
//
//	GOBLAME_REAL_REPOS=/work/scratch/go-git.git go test ./cli -run RealRepositories -v -timeout 0
func TestRealRepositories(t *testing.T) {
	list := os.Getenv("GOBLAME_REAL_REPOS")
	if list == "" {
		t.Skip("set GOBLAME_REAL_REPOS to compare with git on real repositories")
	}
	if !testgit.HaveTargetGit() {
		v, _ := testgit.Version()
		t.Skipf("skipping: the installed git is %q, not git %sx; real repositories are copies fetched by hand, not fixtures a script builds, so no golden outputs can be kept for them and only git %sx itself can be the reference", v, testgit.TargetVersion, testgit.TargetVersion)
	}
	flagSets := [][]string{nil, {"--porcelain"}}
	if extra := os.Getenv("GOBLAME_REAL_FLAGS"); extra != "" {
		for _, fs := range strings.Split(extra, ";") {
			flagSets = append(flagSets, strings.Fields(fs))
		}
	}
	maxFiles := 1 << 30
	if v := os.Getenv("GOBLAME_REAL_MAX"); v != "" {
		maxFiles, _ = strconv.Atoi(v)
	}
	for _, dir := range strings.Split(list, ":") {
		format := repoFormat(t, dir)
		files := textFilesAtHead(t, dir, 400<<10)
		if len(files) > maxFiles {
			files = files[:maxFiles]
		}
		var mu sync.Mutex
		compared, failed := 0, 0
		work := make(chan string)
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for f := range work {
					newest := ""
					for _, flags := range flagSets {
						args := append(append([]string{}, flags...), "HEAD", "--", f)
						for i, a := range args {
							if a == "{newest}" {
								if newest == "" {
									out, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%H", "HEAD", "--", f).Output()
									if err != nil {
										t.Error(err)
									}
									newest = strings.TrimSpace(string(out))
								}
								args[i] = newest
							}
						}
						want, err := testgit.Run(dir, format, nil, nil, "git", append([]string{"blame"}, args...)...)
						if err != nil {
							t.Error(err)
							continue
						}
						got := runGoblame(dir, format, nil, nil, args...)
						same := bytes.Equal(got.Stdout, want.Stdout) && got.ExitCode == want.ExitCode &&
							(want.ExitCode == 0 || bytes.Equal(got.Stderr, want.Stderr))
						mu.Lock()
						compared++
						if !same {
							failed++
							t.Errorf("%s: blame %s:\n%s", dir, strings.Join(args, " "), describeDiff(got, want))
						}
						mu.Unlock()
					}
				}
			}()
		}
		for _, f := range files {
			work <- f
		}
		close(work)
		wg.Wait()
		t.Logf("%s: %d files, %d comparisons, %d different", dir, len(files), compared, failed)
	}
}

// repoFormat is the object format of the repository at dir.
func repoFormat(t *testing.T, dir string) oid.Format {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-object-format").Output()
	if err != nil {
		t.Fatal(err)
	}
	format, err := oid.ParseFormat(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	return format
}

// textFilesAtHead lists the blobs at HEAD no larger than limit whose
// first 8000 bytes have no NUL (git's binary test).
func textFilesAtHead(t *testing.T, dir string, limit int64) []string {
	out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "-l", "-z", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	type cand struct{ path, id string }
	var cands []cand
	for _, rec := range strings.Split(string(out), "\x00") {
		if rec == "" {
			continue
		}
		meta, path, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if len(f) != 4 || f[1] != "blob" || f[0] == "120000" {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil || size > limit {
			continue
		}
		cands = append(cands, cand{path, f[2]})
	}
	// Read the blobs with one cat-file to test for binary content.
	cmd := exec.Command("git", "-C", dir, "cat-file", "--batch")
	var in bytes.Buffer
	for _, c := range cands {
		in.WriteString(c.id + "\n")
	}
	cmd.Stdin = &in
	data, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, c := range cands {
		nl := bytes.IndexByte(data, '\n')
		hdr := strings.Fields(string(data[:nl]))
		data = data[nl+1:]
		if len(hdr) == 2 && hdr[1] == "missing" {
			continue
		}
		n, _ := strconv.Atoi(hdr[2])
		body := data[:n]
		data = data[n+1:]
		if bytes.IndexByte(body[:min(len(body), 8000)], 0) >= 0 {
			continue
		}
		files = append(files, c.path)
	}
	return files
}

// randomOptionSets are what TestRealRepositoriesRandomOptions combines:
// output formats, diff and walk options, -M/-C levels and ranges.
var randomOptionSets = [][]string{
	{"-w"}, {"-M"}, {"-C"}, {"-C", "-C"}, {"-M5"}, {"-C20"}, {"--porcelain"}, {"--line-porcelain"},
	{"--incremental"}, {"-s"}, {"-e"}, {"-l"}, {"-t"}, {"-f"}, {"-n"}, {"-b"}, {"--root"}, {"-c"},
	{"--abbrev=12"}, {"--no-abbrev"}, {"--show-stats"}, {"--date=iso"}, {"--date=short"},
	{"--date=raw"}, {"--date=format:%Y %H"}, {"--first-parent"}, {"--minimal"}, {"-L", "1,5"},
	{"-L", "3,+4"}, {"-L", "/func/,+3"}, {"-L", "10"}, {"-L", "5,+10", "-L", "30,+5"},
	{"--since=2023-01-01"}, {"--score-debug"}, {"--color-lines"}, {"-p"}, {"--show-email"},
	{"--show-name"}, {"--encoding=latin1"}, {"--no-progress"}, {"--ignore-rev", "HEAD~1"},
	{"--ancestry-path"}, {"--since-as-filter=2023-06-01"}, {"--ignore-missing"},
	{"--simplify-by-decoration"}, {"--topo-order"}, {"--date-order"}, {"--graph"}, {"--cherry-pick"},
	{"--simplify-merges"}, {"--sparse"}, {"--children"}, {"--until=2024-06-01"}, {"--exclude-first-parent-only"},
	{"--no-walk"}, {"--author-date-order"}, {"--remove-empty"}, {"--full-history"}, {"--left-only"},
	{"--right-only"}, {"--cherry-mark"}, {"--boundary"}, {"--min-parents=2"}, {"--no-merges"},
	{"--show-pulls"}, {"--dense"}, {"--do-walk"}, {"--left-right"}, {"--bisect"},
}

// withoutGitHangs drops --since-as-filter from a case that also
// simplifies merges (--simplify-merges, --simplify-by-decoration): git
// 2.39.5's simplify_merges then never ends on a real history. The
// filter keeps old commits out of the limited list, so their parents
// are reached one generation a round, each child queued again with
// every parent not yet simplified: tmux's window-clock.c ran 82 s to
// 24 GB and was killed, go-git's README.md the same (a fixture whose
// history git gets through, in TestWalkReflogsAndFiltersMatchGit, shows
// goblame's answer to be git's). The case's other options stay, so the
// rest of a seed's cases are the ones it drew before.
func withoutGitHangs(args []string) []string {
	simplify := false
	for _, a := range args {
		simplify = simplify || a == "--simplify-merges" || a == "--simplify-by-decoration"
	}
	if !simplify {
		return args
	}
	kept := args[:0:0]
	for _, a := range args {
		if !strings.HasPrefix(a, "--since-as-filter") {
			kept = append(kept, a)
		}
	}
	return kept
}

// TestRealRepositoriesRandomOptions blames GOBLAME_REAL_RANDOM random
// cases in each repository of GOBLAME_REAL_REPOS and compares them with
// git blame byte for byte: a text file at HEAD, zero to four option sets
// of randomOptionSets, a revision (HEAD, one of the last 400 commits, its
// parent, a range to HEAD, a --reverse range), and in a fifth of the
// cases an edited buffer given with --contents -. GOBLAME_REAL_SEED
// chooses the cases (default 1); a failure prints the command. (A case
// with an edited buffer prints the time of git's run for its uncommitted
// lines: goblame's clock is set to the second git's run began and ended
// in, and a git run across a second is made again.) It found that goblame wrote -C --incremental
// entries in another order than git's on gitoxide's changelogs (fixed by
// 65d898d). Skipped without GOBLAME_REAL_RANDOM.
func TestRealRepositoriesRandomOptions(t *testing.T) {
	list, n := os.Getenv("GOBLAME_REAL_REPOS"), os.Getenv("GOBLAME_REAL_RANDOM")
	if list == "" || n == "" {
		t.Skip("set GOBLAME_REAL_REPOS and GOBLAME_REAL_RANDOM to compare random blames with git on real repositories")
	}
	if !testgit.HaveTargetGit() {
		t.Skipf("skipping: the reference is git %sx itself (real repositories keep no goldens)", testgit.TargetVersion)
	}
	cases, err := strconv.Atoi(n)
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	if s := os.Getenv("GOBLAME_REAL_SEED"); s != "" {
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range strings.Split(list, ":") {
		format := repoFormat(t, dir)
		files := textFilesAtHead(t, dir, 400<<10)
		out, err := exec.Command("git", "-C", dir, "rev-list", "--max-count=400", "HEAD").Output()
		if err != nil {
			t.Fatal(err)
		}
		revs := strings.Fields(string(out))
		if len(files) == 0 || len(revs) < 2 {
			t.Fatalf("%s: %d files, %d commits", dir, len(files), len(revs))
		}
		r := rand.New(rand.NewSource(seed))
		// A quarter of the cases run without the commit-graph (both
		// sides told core.commitGraph=false), drawn apart so that a
		// seed's blames stay the ones it drew before.
		noGraph := rand.New(rand.NewSource(seed + 1))
		failed := 0
		for i := 0; i < cases; i++ {
			var env []string
			if noGraph.Intn(4) == 0 {
				env = []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.commitGraph", "GIT_CONFIG_VALUE_0=false"}
			}
			f := files[r.Intn(len(files))]
			var args []string
			for k := r.Intn(5); k > 0; k-- {
				args = append(args, randomOptionSets[r.Intn(len(randomOptionSets))]...)
			}
			args = withoutGitHangs(args)
			var stdin []byte
			old := revs[r.Intn(len(revs))]
			switch k := r.Intn(10); {
			case k < 2:
				// An editor's dirty buffer: lines added, deleted, changed.
				blob, err := exec.Command("git", "-C", dir, "cat-file", "blob", "HEAD:"+f).Output()
				if err != nil {
					t.Fatal(err)
				}
				stdin = editBuffer(r, blob)
				args = append(args, "--contents", "-")
			case k < 4:
				args = append(args, "HEAD")
			case k < 6:
				args = append(args, old)
			case k < 7:
				args = append(args, old+"^")
			case k < 8:
				args = append(args, old+"..HEAD")
			default:
				args = append(args, "--reverse", revs[len(revs)/2+r.Intn(len(revs)/2)]+"..HEAD")
			}
			args = append(args, "--", f)
			var got, want testgit.Result
			for try := 0; ; try++ {
				start := coarseNow()
				var err error
				want, err = testgit.Run(dir, format, stdin, env, "git", append([]string{"blame"}, args...)...)
				if err != nil {
					t.Fatal(err)
				}
				if end := coarseNow(); end != start && try < 5 {
					continue
				}
				got = runGoblameAt(dir, format, stdin, env, func() time.Time { return time.Unix(start, 0) }, args...)
				break
			}
			if !bytes.Equal(got.Stdout, want.Stdout) || !bytes.Equal(got.Stderr, want.Stderr) || got.ExitCode != want.ExitCode {
				failed++
				t.Errorf("%s: case %d: %sblame %s:\n%s", dir, i, strings.Join(env, " ")+" ", strings.Join(args, " "), describeDiff(got, want))
			}
		}
		t.Logf("%s: %d random cases (seed %d), %d different", dir, cases, seed, failed)
	}
}

// editBuffer is blob as an editor's buffer after a few edits.
func editBuffer(r *rand.Rand, blob []byte) []byte {
	lines := bytes.Split(blob, []byte("\n"))
	for k := 1 + r.Intn(6); k > 0; k-- {
		at := r.Intn(len(lines) + 1)
		switch op := r.Intn(3); {
		case op == 0:
			lines = slices.Insert(lines, at, []byte(fmt.Sprintf("new line %d", r.Intn(100))))
		case at < len(lines) && op == 1:
			lines = slices.Delete(lines, at, at+1)
		case at < len(lines):
			lines[at] = append(append([]byte(nil), lines[at]...), "  "...)
		}
	}
	return bytes.Join(lines, []byte("\n"))
}
