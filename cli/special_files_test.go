package cli

import (
	"bytes"
	"path/filepath"
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
`

func TestSpecialFilesNeverBlock(t *testing.T) {
	testgit.RequireGit(t)
	f := oid.SHA1
	root := testgit.Fixture(t, "cli-special-files", f, specialFilesScript)
	want, err := testgit.Run(filepath.Join(root, "r"), f, nil, nil, "git", "blame", "-e", "f")
	if err != nil || want.ExitCode != 0 {
		t.Fatalf("git blame on the intact copy: %v %s", err, want.Stderr)
	}
	cases := []struct {
		dir    string
		args   []string
		exit   int
		stderr string // substring of stderr; "" means empty stderr
	}{
		{"fifo-mailmap", []string{"-e", "f"}, 0, ""},
		{"dev-zero-mailmap", []string{"-e", "f"}, 0, ""},
		{"dev-null-mailmap", []string{"-e", "f"}, 0, ""},
		{"fifo-attributes", []string{"-e", "f"}, 0, "warning: ignoring gitattributes file '.gitattributes': not a regular file"},
		{"fifo-grafts", []string{"-e", "f"}, 0, "info/grafts is not a regular file (a FIFO)"},
		{"fifo-include", []string{"-e", "f"}, 0, ""},
		{"fifo-ref", []string{"-e", "f"}, 128, "fatal: cannot read ref 'refs/heads/main': "},
		{"fifo-ref", []string{"-e", "HEAD", "--", "f"}, 128, "fatal: cannot read ref 'refs/heads/main': "},
		{"fifo-revs", []string{"-e", "--ignore-revs-file", "revs", "f"}, 128, "fatal: could not open object name list: revs"},
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
