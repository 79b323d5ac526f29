// Command ownership counts the lines of every file at a revision per
// mailmapped author — the code-ownership report tools build from blame —
// four ways, and times each:
//
//   - goblame's library, one file after another;
//   - goblame's library, one goroutine per core over one blame.Repository;
//   - a loop over `git blame --line-porcelain` (the reference: the totals
//     of both library runs must equal its totals, or the command fails);
//   - go-git's Blame (github.com/go-git/go-git/v5), the Go library peer,
//     stopped after -gogit-timeout (go-git does not map authors and
//     attributes some lines differently, so only its time is reported).
//
// Usage:
//
//	go run ./benchmarks/ownership -repo /path/to/go-git [-rev HEAD] [-match .go] [-gogit-timeout 2m]
//
// go-git does not follow objects/info/alternates: give it a clone made
// with --no-local, not --shared.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/goblame/goblame/blame"
)

func main() {
	repoDir := flag.String("repo", ".", "repository (work tree or bare)")
	rev := flag.String("rev", "HEAD", "revision whose files are blamed")
	match := flag.String("match", "", "only paths ending in this suffix")
	gogitTimeout := flag.Duration("gogit-timeout", 2*time.Minute, "time allowed to go-git's Blame (0: skip it)")
	flag.Parse()
	if err := run(*repoDir, *rev, *match, *gogitTimeout); err != nil {
		fmt.Fprintln(os.Stderr, "ownership:", err)
		os.Exit(1)
	}
}

type totals map[string]int

func run(dir, rev, match string, gogitTimeout time.Duration) error {
	r, err := blame.Open(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	all, err := r.Files(rev)
	if err != nil {
		return err
	}
	var files []string
	for _, f := range all {
		if strings.HasSuffix(f, match) {
			files = append(files, f)
		}
	}
	fmt.Printf("%s at %s: %d files\n", dir, rev, len(files))

	start := time.Now()
	seq, err := libraryTotals(r, rev, files, 1)
	if err != nil {
		return err
	}
	seqTime := time.Since(start)

	workers := runtime.GOMAXPROCS(0)
	start = time.Now()
	par, err := libraryTotals(r, rev, files, workers)
	if err != nil {
		return err
	}
	parTime := time.Since(start)

	start = time.Now()
	ref, err := gitTotals(dir, rev, files)
	if err != nil {
		return err
	}
	gitTime := time.Since(start)

	if d := diffTotals(seq, ref); d != "" {
		return fmt.Errorf("library totals (sequential) differ from git's: %s", d)
	}
	if d := diffTotals(par, ref); d != "" {
		return fmt.Errorf("library totals (%d goroutines) differ from git's: %s", workers, d)
	}
	fmt.Printf("totals identical to git blame --line-porcelain: %d authors, %d lines\n", len(ref), sum(ref))
	fmt.Printf("%-40s %10s\n", "git blame --line-porcelain, file by file", gitTime.Round(time.Millisecond))
	fmt.Printf("%-40s %10s  (%.1fx faster than git)\n", "goblame library, sequential", seqTime.Round(time.Millisecond), gitTime.Seconds()/seqTime.Seconds())
	fmt.Printf("%-40s %10s  (%.1fx faster than git)\n", fmt.Sprintf("goblame library, %d goroutines", workers), parTime.Round(time.Millisecond), gitTime.Seconds()/parTime.Seconds())
	if gogitTimeout > 0 {
		done, elapsed, err := gogitBlame(dir, rev, files, gogitTimeout)
		if err != nil {
			return err
		}
		status := "all files"
		if done < len(files) {
			status = fmt.Sprintf("stopped after %d of %d files", done, len(files))
		}
		fmt.Printf("%-40s %10s  (%s)\n", "go-git Blame, sequential", elapsed.Round(time.Millisecond), status)
	}
	return nil
}

// libraryTotals blames files with the given number of goroutines.
func libraryTotals(r *blame.Repository, rev string, files []string, workers int) (totals, error) {
	out := totals{}
	var mu sync.Mutex
	var firstErr error
	next := make(chan string)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := totals{}
			for f := range next {
				res, err := r.File(context.Background(), rev, f, blame.Options{})
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s: %w", f, err)
					}
					mu.Unlock()
					continue
				}
				for _, e := range res.Entries {
					a := e.Commit.Author()
					local[a.Name+" <"+a.Email+">"] += e.NumLines
				}
			}
			mu.Lock()
			for k, v := range local {
				out[k] += v
			}
			mu.Unlock()
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	return out, firstErr
}

// gitTotals runs git blame --line-porcelain on every file.
func gitTotals(dir, rev string, files []string) (totals, error) {
	out := totals{}
	for _, f := range files {
		cmd := exec.Command("git", "blame", "--line-porcelain", rev, "--", f)
		cmd.Dir = dir
		data, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git blame %s: %w", f, err)
		}
		var name string
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<30)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "\t") {
				continue
			}
			if v, ok := strings.CutPrefix(line, "author "); ok {
				name = v
			} else if v, ok := strings.CutPrefix(line, "author-mail "); ok {
				out[name+" "+v]++
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// gogitBlame times go-git's Blame over the files until the deadline.
func gogitBlame(dir, rev string, files []string, limit time.Duration) (int, time.Duration, error) {
	repo, err := gogit.PlainOpenWithOptions(dir, &gogit.PlainOpenOptions{DetectDotGit: true})
	if err != nil {
		return 0, 0, err
	}
	var h plumbing.Hash
	if rev == "HEAD" {
		ref, err := repo.Head()
		if err != nil {
			return 0, 0, fmt.Errorf("go-git: HEAD: %w", err)
		}
		h = ref.Hash()
	} else {
		p, err := repo.ResolveRevision(plumbing.Revision(rev))
		if err != nil {
			return 0, 0, fmt.Errorf("go-git: %s: %w", rev, err)
		}
		h = *p
	}
	c, err := repo.CommitObject(h)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	deadline := start.Add(limit)
	done := 0
	for _, f := range files {
		if time.Now().After(deadline) {
			break
		}
		if _, err := gogit.Blame(c, f); err != nil {
			return done, time.Since(start), fmt.Errorf("go-git Blame %s: %w", f, err)
		}
		done++
	}
	return done, time.Since(start), nil
}

func diffTotals(got, want totals) string {
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if got[k] != want[k] {
			fmt.Fprintf(&b, "%s: %d, git %d; ", k, got[k], want[k])
		}
	}
	return b.String()
}

func sum(t totals) int {
	n := 0
	for _, v := range t {
		n += v
	}
	return n
}
