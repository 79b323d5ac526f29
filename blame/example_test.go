package blame_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/goblame/goblame/blame"
)

// exampleRepo builds the examples' repository with the real git in a
// hermetic environment (no system or global config, fixed identities and
// dates) and changes to its work tree, as a user's program would run.
// Alice writes three lines, Bob changes the second, and Carol (mapped
// to "Carol C" by .mailmap) appends one.
func exampleRepo() (dir string, cleanup func()) {
	dir, err := os.MkdirTemp("", "goblame-example-")
	if err != nil {
		panic(err)
	}
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"HOME="+dir, "TZ=UTC", "GIT_AUTHOR_NAME=x", "GIT_COMMITTER_NAME=x")
	git := func(date, who string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		name, email, _ := strings.Cut(who, " ")
		cmd.Env = append(env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date,
			"GIT_AUTHOR_NAME="+name, "GIT_AUTHOR_EMAIL="+email,
			"GIT_COMMITTER_NAME="+name, "GIT_COMMITTER_EMAIL="+email)
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("git %v: %v\n%s", args, err, out))
		}
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			panic(err)
		}
	}
	git("", "", "init", "-q", "-b", "main")
	write("README.md", "# demo\nhello\nbye\n")
	write("main.go", "package main\n")
	write(".mailmap", "Carol C <carol@example.com>\n")
	git("2024-01-01T10:00:00+01:00", "Alice alice@example.com", "add", ".")
	git("2024-01-01T10:00:00+01:00", "Alice alice@example.com", "commit", "-q", "-m", "start the demo")
	write("README.md", "# demo\nhello, world\nbye\n")
	git("2024-02-01T10:00:00-05:00", "Bob bob@example.com", "commit", "-q", "-am", "greet the world")
	write("README.md", "# demo\nhello, world\nbye\nsee you\n")
	write("main.go", "package main\n\nfunc main() {}\n")
	git("2024-03-01T10:00:00+00:00", "carol carol@example.com", "commit", "-q", "-am", "say goodbye")
	old, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	if err := os.Chdir(dir); err != nil {
		panic(err)
	}
	return dir, func() { os.Chdir(old); os.RemoveAll(dir) }
}

// Blaming README.md at HEAD and printing author and summary per line.
func Example() {
	_, cleanup := exampleRepo()
	defer cleanup()

	r, _ := blame.Open(".")
	res, _ := r.File(context.Background(), "HEAD", "README.md", blame.Options{})
	for _, e := range res.Entries {
		for n := e.Lno; n < e.Lno+e.NumLines; n++ {
			fmt.Printf("%-8s %-16s %s", e.Commit.Author().Name, e.Commit.Summary(), res.Line(n))
		}
	}
	// Output:
	// Alice    start the demo   # demo
	// Bob      greet the world  hello, world
	// Alice    start the demo   bye
	// Carol C  say goodbye      see you
}

// A dirty editor buffer: lines that differ from the work tree's history
// are "Not Committed Yet" (git blame --contents -).
func Example_dirtyBuffer() {
	_, cleanup := exampleRepo()
	defer cleanup()

	r, err := blame.Open(".")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	buffer := strings.NewReader("# demo\nhello, world\nbye for now\nsee you\n")
	res, err := r.File(context.Background(), "", "README.md", blame.Options{Contents: buffer})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range res.Entries {
		fmt.Printf("lines %d-%d: %s (uncommitted: %v)\n", e.Lno+1, e.Lno+e.NumLines, e.Commit.Author().Name, e.Commit.Uncommitted)
	}
	// Output:
	// lines 1-1: Alice (uncommitted: false)
	// lines 2-2: Bob (uncommitted: false)
	// lines 3-3: Not Committed Yet (uncommitted: true)
	// lines 4-4: Carol C (uncommitted: false)
}

// Options: an -L range, the author's time in its own zone, and the
// commit a line came from before (porcelain's "previous").
func Example_options() {
	_, cleanup := exampleRepo()
	defer cleanup()

	r, err := blame.Open(".")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	res, err := r.File(context.Background(), "HEAD", "README.md", blame.Options{
		Ranges:           []string{"2,+2"},
		IgnoreWhitespace: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range res.Entries {
		a := e.Commit.Author()
		fmt.Printf("line %d: %s <%s> %s previous=%v\n", e.Lno+1, a.Name, a.Email,
			a.Time.Format("2006-01-02 15:04 -0700"), e.Previous != nil)
	}
	// Output:
	// line 2: Bob <bob@example.com> 2024-02-01 10:00 -0500 previous=true
	// line 3: Alice <alice@example.com> 2024-01-01 10:00 +0100 previous=false
}

// Streaming: entries arrive as blame finds them (what --incremental
// prints), newest commit first; returning an error stops the blame.
func Example_stream() {
	_, cleanup := exampleRepo()
	defer cleanup()

	r, err := blame.Open(".")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	_, err = r.Stream(context.Background(), "HEAD", "README.md", blame.Options{}, func(e blame.Entry) error {
		fmt.Printf("%s: %d line(s) from %d\n", e.Commit.Summary(), e.NumLines, e.Lno+1)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// say goodbye: 1 line(s) from 4
	// greet the world: 1 line(s) from 2
	// start the demo: 1 line(s) from 1
	// start the demo: 1 line(s) from 3
}

// Many files concurrently: one Repository serves every goroutine.
func Example_concurrent() {
	_, cleanup := exampleRepo()
	defer cleanup()

	r, err := blame.Open(".")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	var mu sync.Mutex
	lines := map[string]int{}
	var wg sync.WaitGroup
	for _, path := range []string{"README.md", "main.go", ".mailmap"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := r.File(context.Background(), "HEAD", path, blame.Options{})
			if err != nil {
				fmt.Println(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, e := range res.Entries {
				lines[e.Commit.Author().Name] += e.NumLines
			}
		}()
	}
	wg.Wait()
	var names []string
	for n := range lines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("%s: %d\n", n, lines[n])
	}
	// Output:
	// Alice: 4
	// Bob: 1
	// Carol C: 3
}
