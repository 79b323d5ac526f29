package startcmd

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestLookPath: git's locate_in_PATH rules: entries in order, an empty
// one the current directory (the name alone), relative entries from the
// directory the program runs in, only regular files their owner may
// execute, nothing for an empty PATH.
func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("a/prog", 0o755)
	write("b/prog", 0o755)
	write("c/prog", 0o011) // others and group may execute, not the owner
	write("d/prog", 0o644)
	write("prog", 0o700)
	if err := os.MkdirAll(filepath.Join(dir, "e/prog"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, dir, want string
	}{
		{"", dir, ""},
		{"a:b", dir, "a/prog"},
		{"b:a", dir, "b/prog"},
		{"c:d:e:b", dir, "b/prog"},
		{"c:d:e", dir, ""},
		{":a", dir, "prog"},
		{"x::a", dir, "prog"},
		{dir + "/a", "", dir + "/a/prog"},
		{"a", dir + "/a", ""}, // a/a/prog does not exist
		{"..", dir + "/a", "../prog"},
	} {
		if got := LookPath("prog", c.path, c.dir); got != c.want {
			t.Errorf("LookPath(prog, %q, %q) = %q, want %q", c.path, c.dir, got, c.want)
		}
	}
}

// TestCommand: which command lines go to the shell, and the argv of
// each kind.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "conv"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/nonexistent", "PATH=bin", "X=1"} // the last PATH counts
	for _, c := range []struct {
		line string
		args []string
		want []string
		err  error
	}{
		{"conv", []string{"f"}, []string{"bin/conv", "f"}, nil},
		{"./bin/conv", nil, []string{"./bin/conv"}, nil},
		{"conv -x", []string{"f"}, []string{"/bin/sh", "-c", `conv -x "$@"`, "conv -x", "f"}, nil},
		{"a|b", nil, []string{"/bin/sh", "-c", "a|b", "a|b"}, nil},
		{"a=b", nil, []string{"/bin/sh", "-c", "a=b", "a=b"}, nil},
		{"nosuch", nil, nil, ErrNotFound},
		{"", nil, nil, ErrNotFound},
	} {
		cmd, err := Command(c.line, c.args, dir, env)
		if !errors.Is(err, c.err) {
			t.Errorf("Command(%q): error %v, want %v", c.line, err, c.err)
			continue
		}
		if err != nil {
			continue
		}
		if !slices.Equal(cmd.Args, c.want) || cmd.Path != c.want[0] || cmd.Dir != dir || !slices.Equal(cmd.Env, env) {
			t.Errorf("Command(%q) = %q %q in %q, want %q", c.line, cmd.Path, cmd.Args, cmd.Dir, c.want)
		}
	}
	if _, err := Command("conv", nil, dir, []string{"X=1"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("without PATH: %v, want ErrNotFound", err)
	}
}

// TestStartRetriesThroughShell: a script without "#!" runs as /bin/sh's
// script with the same arguments and streams; a missing program fails
// with its error, which ExecFailedLine words as git's child does.
func TestStartRetriesThroughShell(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "noshebang")
	if err := os.WriteFile(script, []byte("echo \"$0 $1\"; cat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Named relative to dir: a temporary directory may hold a space, and
	// a line with one is a shell command, not a program's path.
	cmd, err := Command("./noshebang", []string{"arg"}, dir, []string{"PATH=/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout = strings.NewReader("input\n"), &out
	if err := Run(cmd); err != nil {
		t.Fatal(err)
	}
	if want := "./noshebang arg\ninput\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
	missing, err := Command("./missing", nil, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = Run(missing)
	strerror := func(err error) string { return "E" }
	if got, want := ExecFailedLine("x", err, strerror), "fatal: cannot run x: E"; got != want {
		t.Errorf("missing program (%v): %q, want %q", err, got, want)
	}
	if got, want := ExecFailedLine("x", syscall.EACCES, strerror), "fatal: cannot exec 'x': E"; got != want {
		t.Errorf("EACCES: %q, want %q", got, want)
	}
}

// TestStartPipedRetriesThroughShell: the pipes StartPiped makes survive
// the retry through /bin/sh of a script without "#!": what is written to
// its input comes back from its output.
func TestStartPipedRetriesThroughShell(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "noshebang")
	if err := os.WriteFile(script, []byte("sed 's/^/got /'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd, err := Command("./noshebang", nil, dir, []string{"PATH=/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	started, in, out, err := StartPiped(cmd, true)
	if err != nil {
		t.Fatal(err)
	}
	if started.Path != "/bin/sh" {
		t.Errorf("ran %q, want the retry through /bin/sh", started.Path)
	}
	in.WriteString("line\n")
	in.Close()
	var buf bytes.Buffer
	buf.ReadFrom(out)
	out.Close()
	if err := started.Wait(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "got line\n" {
		t.Errorf("output %q, want %q", buf.String(), "got line\n")
	}
	// A program that cannot start leaves no pipe open and says why.
	missing, _ := Command("./missing", nil, dir, nil)
	if _, in, out, err := StartPiped(missing, true); err == nil || in != nil || out != nil {
		t.Errorf("missing program: %v, %v, %v", err, in, out)
	}
}
