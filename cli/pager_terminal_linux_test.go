package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// pagerScript has a file in a subdirectory and, at the top of the work
// tree, a pager script without "#!" (which git's child runs again
// through /bin/sh).
const pagerScript = `git init -q r && cd r
mkdir sub
printf 'one\ntwo\n' >sub/f
commit_all one
printf 'sed s/^/P:/\n' >nosb
chmod +x nosb
`

// TestPagerStartsAsGit: the pager runs as git's setup_pager starts it
// (start_command with use_shell): a command line with the shell's special
// characters through /bin/sh (whose $0 is the command line), any other
// looked up in PATH or run by its path from the top of the work tree
// (the blame runs in a subdirectory), a script without "#!" through
// /bin/sh; one that cannot start gets git's error line and the output
// goes to the terminal itself. git runs with its standard output on a
// pseudo-terminal; goblame in-process, told its output is a terminal.
func TestPagerStartsAsGit(t *testing.T) {
	testgit.RequireGit(t)
	if !testgit.HaveTargetGit() {
		t.Skip("needs git 2.39.x itself: a pager only runs on a terminal, which the goldens do not hold")
	}
	f := oid.SHA1
	top := filepath.Join(testgit.Fixture(t, "cli-pager-start", f, pagerScript), "r")
	dir := filepath.Join(top, "sub")
	// (A shell pager that exits without reading would make the exit
	// status a race, git's own: killed by SIGPIPE or not.)
	for _, pager := range []string{"nosuchpager", "nosuchpager -x; cat", "./nosuchpager", "./nosb", "sed s/^/X/", "cat",
		"echo in $(pwd | sed 's,.*/,,'); cat", "/dev/null"} {
		compareOnTerminal(t, dir, testgit.Env(f, "GIT_PAGER="+pager), "-s", "HEAD", "--", "f")
	}
	// Started outside the work tree (GIT_DIR and GIT_WORK_TREE): git
	// stays where it started for a blame of a commit, and runs the pager
	// there; a work-tree blame went to the top of the work tree first.
	outside := filepath.Dir(top)
	for _, args := range [][]string{{"-s", "HEAD", "--", "sub/f"}, {"-s", "sub/f"}} {
		env := testgit.Env(f, "GIT_DIR=r/.git", "GIT_WORK_TREE=r", "GIT_PAGER=pwd | sed 's,.*/,in ,'; cat")
		if out := compareOnTerminal(t, outside, env, args...); !strings.HasPrefix(out, "in ") {
			t.Errorf("from outside, %q: git's pager printed %q, not its directory", args, out)
		}
	}
}

// compareOnTerminal compares git blame args, run in dir with the
// environment env and its standard output on a pseudo-terminal, with
// goblame in-process, told its output is a terminal, and returns what
// git printed there.
func compareOnTerminal(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	wantOut, wantErr, wantCode := runOnTerminal(t, dir, env, "git", append([]string{"blame"}, args...)...)
	var stdout, stderr bytes.Buffer
	e := testEnviron(dir, env, nil, &stdout, &stderr)
	e.StdoutIsTerminal = true
	code := Main(args, e)
	if stdout.String() != wantOut || stderr.String() != wantErr || code != wantCode {
		t.Errorf("%q in %s (env %q): goblame printed\n%q\nand\n%q (exit %d); git\n%q\nand\n%q (exit %d)",
			args, dir, env, stdout.String(), stderr.String(), code, wantOut, wantErr, wantCode)
	}
	return wantOut
}

// runOnTerminal runs name with args in dir, its standard output a new
// pseudo-terminal, and returns what came to the terminal (line ends as
// written, not as the terminal turns them), its standard error and exit
// status.
func runOnTerminal(t *testing.T, dir string, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ctl.Close()
	if err := unix.IoctlSetPointerInt(int(ctl.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ctl.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&out, ctl) // until the last writer's end closes (EIO)
		close(read)
	}()
	var stderr bytes.Buffer
	c := exec.Command(name, args...)
	c.Dir, c.Env, c.Stdout, c.Stderr = dir, env, term, &stderr
	err = c.Run()
	term.Close()
	<-read
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), stderr.String(), code
}
