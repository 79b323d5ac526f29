package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// specialFilesScript puts FIFOs and devices where a repository has small
// files. git 2.39.5 blocks forever on the FIFOs and reads /dev/zero
// without end; goblame must answer at once: skip what git skips when
// missing (.mailmap, mailmap.file, attributes, grafts), fail naming the
// file where it is needed (a ref), and treat /dev/null as empty.
const specialFilesScript = `git init -q r && cd r
printf 'A U Thor <author@example.com>\n' >f && git add f && commit_all one
printf 'two\n' >>f && commit_all two
cd ..
cp -r r fifo-mailmap && mkfifo fifo-mailmap/.mailmap
cp -r r dev-zero-mailmap && git -C dev-zero-mailmap config mailmap.file /dev/zero
cp -r r dev-null-mailmap && git -C dev-null-mailmap config mailmap.file /dev/null
cp -r r fifo-attributes && mkfifo fifo-attributes/.gitattributes
cp -r r fifo-grafts && mkfifo fifo-grafts/.git/info/grafts
cp -r r fifo-include && mkfifo fifo-include/inc && git -C fifo-include config include.path ../inc
cp -r r fifo-ref && rm fifo-ref/.git/refs/heads/main && mkfifo fifo-ref/.git/refs/heads/main
cp -r r fifo-revs && mkfifo fifo-revs/revs
cp -r r fifo-logs && rm -r fifo-logs/.git/logs && mkfifo fifo-logs/.git/logs
cp -r r fifo-reflog && rm fifo-reflog/.git/logs/HEAD && mkfifo fifo-reflog/.git/logs/HEAD
`

func TestSpecialFilesNeverBlock(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	f := oid.SHA1
	root := testgit.Fixture(t, "cli-special-files", f, specialFilesScript)
	want := goldens.Run(testgit.Case{Dir: filepath.Join(root, "r"), Format: f, Args: []string{"blame", "-e", "f"}})
	if want.ExitCode != 0 {
		t.Fatalf("git blame on the intact copy: %s", want)
	}
	cases := []struct {
		dir    string
		args   []string
		exit   int
		stderr string // substring of stderr; "" means empty stderr
	}{
		{"fifo-mailmap", []string{"-e", "f"}, 0, "warning: ignoring mailmap at .mailmap: not a regular file"},
		{"dev-zero-mailmap", []string{"-e", "f"}, 0, "warning: ignoring mailmap at /dev/zero: not a regular file"},
		{"dev-null-mailmap", []string{"-e", "f"}, 0, ""},
		{"fifo-attributes", []string{"-e", "f"}, 0, "warning: ignoring gitattributes file '.gitattributes': not a regular file"},
		{"fifo-grafts", []string{"-e", "f"}, 0, "info/grafts is not a regular file (a FIFO)"},
		{"fifo-include", []string{"-e", "f"}, 0, ""},
		{"fifo-ref", []string{"-e", "f"}, 128, "fatal: cannot read ref 'refs/heads/main': "},
		{"fifo-ref", []string{"-e", "HEAD", "--", "f"}, 128, "fatal: cannot read ref 'refs/heads/main': "},
		{"fifo-revs", []string{"-e", "--ignore-revs-file", "revs", "f"}, 128, "fatal: could not open object name list: revs"},
		// --reflog: a FIFO for the reflogs' directory is no directory,
		// one for a reflog no reflog (the branch's two records remain).
		{"fifo-logs", []string{"-e", "--reflog", "f"}, 0, ""},
		{"fifo-reflog", []string{"-e", "--reflog", "f"}, 128, "fatal: More than one commit to dig from  and ?"},
	}
	for _, c := range cases {
		done := make(chan testgit.Result, 1)
		start := time.Now()
		go func() { done <- runGoblame(filepath.Join(root, c.dir), f, nil, nil, c.args...) }()
		var got testgit.Result
		select {
		case got = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s %v: goblame still running after 10 s (blocked on a special file)", c.dir, c.args)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s %v: took %v", c.dir, c.args, d)
		}
		if got.ExitCode != c.exit {
			t.Errorf("%s %v: exit %d, want %d\n%s", c.dir, c.args, got.ExitCode, c.exit, got.Stderr)
			continue
		}
		if c.stderr == "" && len(got.Stderr) > 0 || !strings.Contains(string(got.Stderr), c.stderr) {
			t.Errorf("%s %v: stderr %q, want it to contain %q", c.dir, c.args, got.Stderr, c.stderr)
		}
		if c.exit == 0 && !bytes.Equal(got.Stdout, want.Stdout) {
			t.Errorf("%s %v: output differs from the intact repository's:\ngot:\n%s\nwant:\n%s", c.dir, c.args, got.Stdout, want.Stdout)
		}
	}
}

// deepPathScript commits a file 4,100 directories deep (a/a/.../f) with
// fast-import: its absolute path is longer than PATH_MAX.
const deepPathScript = `git init -q r && cd r
p=$(printf 'a/%.0s' $(seq 4100))f
{
  printf 'commit refs/heads/main\ncommitter A U Thor <author@example.com> 1112911993 +0000\ndata 3\none\n'
  printf 'M 100644 inline %s\ndata 6\nhello\n' "$p"
  printf 'commit refs/heads/main\ncommitter A U Thor <author@example.com> 1112912993 +0000\ndata 3\ntwo\n'
  printf 'M 100644 inline %s\ndata 12\nhello\nworld\n\n' "$p"
} | git fast-import --quiet
printf '%s' "$p" >../path
`

// TestDeepPathStaysSmall: a path 4,100 directories deep is blamed as git
// blames it (its .gitattributes warnings included, cut at git's 4,095
// bytes), allocating tens of megabytes, not the 740 MB that a full-size
// tree-lookup cache per directory level once cost.
func TestDeepPathStaysSmall(t *testing.T) {
	testgit.SkipUnderRace(t)
	goldens := testgit.Golden(t) // skips without git
	f := oid.SHA1
	root := testgit.Fixture(t, "cli-deep-path", f, deepPathScript)
	path, err := os.ReadFile(filepath.Join(root, "path"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "r")
	args := []string{"main", "--", string(path)}
	// git's standard error here is 8 MB of .gitattributes warnings, too
	// much for a golden file: the comparison needs git 2.39.x itself, the
	// allocation budget is checked with any git.
	goldens.RequireFixture(dir)
	want, live := goldens.Live(testgit.Case{Dir: dir, Format: f, Args: append([]string{"blame"}, args...)})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := runGoblame(dir, f, nil, nil, args...)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 150<<20 {
		t.Errorf("allocated %d MB for one blame of a deep path, budget 150 MB", alloc>>20)
	}
	if !live {
		return
	}
	if got.ExitCode != want.ExitCode || !bytes.Equal(got.Stdout, want.Stdout) {
		t.Fatalf("exit %d, git %d; stdout %q, git %q", got.ExitCode, want.ExitCode, got.Stdout, want.Stdout)
	}
	if !bytes.Equal(got.Stderr, want.Stderr) {
		g, w := strings.Split(string(got.Stderr), "\n"), strings.Split(string(want.Stderr), "\n")
		t.Errorf("stderr differs from git's: %d lines (longest %d bytes), git %d (longest %d)", len(g), longest(g), len(w), longest(w))
	}
}

func longest(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, len(l))
	}
	return n
}

// gitlinkScript has a submodule entry (a gitlink) whose commit is in the
// repository, and one whose commit is not. They are committed from the
// index as staged (commit_all's "git add -A" would drop them, as the
// work tree has no such directories).
const gitlinkScript = `git init -q r && cd r
printf 'one\n' >f && git add f && commit_all one
git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub && test_tick && git commit -q -m sub
git update-index --add --cacheinfo 160000,$(git rev-parse HEAD | tr 0-9a-f 1),gone && test_tick && git commit -q -m gone
git ls-tree HEAD | grep -q '^160000 commit .*	gone$'
`

// TestGitlinkThroughContents: blaming a gitlink path with --contents
// reads the gitlink's object as git's fill_origin_blob does (any type),
// so lines are "Not Committed Yet" where git says so, and a missing
// object is git's "Cannot read blob".
func TestGitlinkThroughContents(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-gitlink", f, gitlinkScript), "r")
		// The buffer's lines are not committed yet: git dates them now.
		for _, args := range [][]string{
			{"--contents", "-", "sub"}, {"-p", "--contents", "-", "sub"}, {"--incremental", "--contents", "-", "sub"},
		} {
			compareWithLiveGit(t, dir, f, []byte("hi\none\n"), nil, args...)
		}
		for _, args := range [][]string{{"--contents", "-", "gone"}, {"sub"}, {"HEAD", "--", "sub"}} {
			compareWithGit(t, dir, f, []byte("hi\none\n"), nil, args...)
		}
	}
}

// userListsScript writes the lists a user names on the command line:
// HEAD to ignore, a graft that makes HEAD a root, and a mailmap.
const userListsScript = `git init -q r && cd r
printf 'one\n' >f && git add f && commit_all one
printf 'One\n' >f && commit_all two
git rev-parse HEAD >revs
git rev-parse HEAD >graft
printf 'New Name <new@example.com> <author@example.com>\n' >mailmap
`

// TestUserListsReadFromPipes: an --ignore-revs-file list, a -S graft
// file or a mailmap.file given as a pipe (a shell's "<(git log ...)",
// /dev/stdin) is read as git reads it: the answer is git's for the same
// list in a regular file.
func TestUserListsReadFromPipes(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	f := oid.SHA1
	root := testgit.Fixture(t, "cli-user-lists", f, userListsScript)
	dir := filepath.Join(root, "r")
	plain := goldens.Run(testgit.Case{Dir: dir, Format: f, Args: []string{"blame", "-e", "f"}})
	mailmapEnv := func(path string) []string {
		return []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=mailmap.file", "GIT_CONFIG_VALUE_0=" + path}
	}
	for _, c := range []struct {
		list string
		args func(path string) []string
		env  func(path string) []string
	}{
		{"revs", func(p string) []string { return []string{"--ignore-revs-file", p} }, nil},
		{"graft", func(p string) []string { return []string{"-S", p} }, nil},
		{"mailmap", func(string) []string { return nil }, mailmapEnv},
	} {
		env := func(p string) []string {
			if c.env == nil {
				return nil
			}
			return c.env(p)
		}
		args := append(append([]string{"-e"}, c.args(c.list)...), "f")
		want := goldens.Run(testgit.Case{Dir: dir, Format: f, Env: env(c.list), Args: append([]string{"blame"}, args...)})
		if want.ExitCode != 0 || bytes.Equal(want.Stdout, plain.Stdout) {
			t.Fatalf("%s: git's answer with the list (%s) should differ from its answer without it", c.list, want)
		}
		data, err := os.ReadFile(filepath.Join(dir, c.list))
		if err != nil {
			t.Fatal(err)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() { w.Write(data); w.Close() }()
		pipe := "/proc/self/fd/" + strconv.Itoa(int(r.Fd()))
		args = append(append([]string{"-e"}, c.args(pipe)...), "f")
		got := runGoblame(dir, f, nil, env(pipe), args...)
		r.Close()
		if got.ExitCode != 0 || !bytes.Equal(got.Stdout, want.Stdout) || len(got.Stderr) > 0 {
			t.Errorf("%s from a pipe: exit %d, stderr %q, stdout:\n%s\ngit with the list in a file:\n%s", c.list, got.ExitCode, got.Stderr, got.Stdout, want.Stdout)
		}
	}
}
