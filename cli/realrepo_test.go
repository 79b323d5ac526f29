package cli

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

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
		out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-object-format").Output()
		if err != nil {
			t.Fatal(err)
		}
		format, err := oid.ParseFormat(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatal(err)
		}
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
