package blame_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goblame/goblame/blame"
)

// exampleRepo writes the examples' repository into a new directory, as
// git writes one (loose objects, a branch, HEAD, a configuration), with
// no program but this one, and changes to its work tree, as a user's
// program would run in one. Alice writes three lines, Bob changes the
// second, and Carol (mapped to "Carol C" by .mailmap) appends one.
func exampleRepo() (dir string, cleanup func()) {
	dir, err := os.MkdirTemp("", "goblame-example-")
	if err != nil {
		panic(err)
	}
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			panic(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			panic(err)
		}
	}
	// object writes a loose object and returns its ID.
	object := func(typ string, data []byte) string {
		raw := append([]byte(fmt.Sprintf("%s %d\x00", typ, len(data))), data...)
		sum := sha1.Sum(raw)
		id := hex.EncodeToString(sum[:])
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(raw)
		w.Close()
		write(filepath.Join(".git", "objects", id[:2], id[2:]), z.String())
		return id
	}
	work := map[string]string{}
	head := ""
	// commit commits the work tree's files as who at when (RFC 3339).
	commit := func(when, who, msg string) {
		var names []string
		for name := range work {
			names = append(names, name)
		}
		sort.Strings(names)
		var tree []byte
		for _, name := range names {
			id, _ := hex.DecodeString(object("blob", []byte(work[name])))
			tree = append(append(tree, "100644 "+name+"\x00"...), id...)
		}
		t, err := time.Parse(time.RFC3339, when)
		if err != nil {
			panic(err)
		}
		name, email, _ := strings.Cut(who, " ")
		ident := fmt.Sprintf("%s <%s> %d %s", name, email, t.Unix(), t.Format("-0700"))
		text := "tree " + object("tree", tree) + "\n"
		if head != "" {
			text += "parent " + head + "\n"
		}
		text += "author " + ident + "\ncommitter " + ident + "\n\n" + msg + "\n"
		head = object("commit", []byte(text))
	}
	change := func(name, text string) {
		work[name] = text
		write(name, text)
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".git/config", "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n")
	change("README.md", "# demo\nhello\nbye\n")
	change("main.go", "package main\n")
	change(".mailmap", "Carol C <carol@example.com>\n")
	commit("2024-01-01T10:00:00+01:00", "Alice alice@example.com", "start the demo")
	change("README.md", "# demo\nhello, world\nbye\n")
	commit("2024-02-01T10:00:00-05:00", "Bob bob@example.com", "greet the world")
	change("README.md", "# demo\nhello, world\nbye\nsee you\n")
	change("main.go", "package main\n\nfunc main() {}\n")
	commit("2024-03-01T10:00:00+00:00", "carol carol@example.com", "say goodbye")
	write(".git/refs/heads/main", head+"\n")
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

// TestExampleRepositoryIsGits: the repository the examples write is one
// git reads without a complaint (fsck --strict), whose history git blames
// as the examples do.
func TestExampleRepositoryIsGits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	dir, cleanup := exampleRepo()
	defer cleanup()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := git("fsck", "--strict", "--no-dangling"); out != "" {
		t.Errorf("git fsck --strict: %s", out)
	}
	want := "Alice start the demo\nBob greet the world\nAlice start the demo\nCarol C say goodbye\n"
	var got strings.Builder
	var author string
	for _, line := range strings.Split(git("blame", "--line-porcelain", "README.md"), "\n") {
		if a, ok := strings.CutPrefix(line, "author "); ok {
			author = a
		}
		if s, ok := strings.CutPrefix(line, "summary "); ok {
			got.WriteString(author + " " + s + "\n")
		}
	}
	if got.String() != want {
		t.Errorf("git blame: authors and summaries\n%s\nwant\n%s", got.String(), want)
	}
}
