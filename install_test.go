package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/cli"
)

// installEnv is the environment of the install tests' commands: this
// process's, without MANPATH and pagers, with an empty HOME and no system
// git config, man's width fixed, and PATH as given.
func installEnv(t *testing.T, path string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "MANPATH", "MANPAGER", "PAGER", "GIT_PAGER", "MANOPT", "MANWIDTH", "HOME", "PATH", "LANG", "LC_ALL", "COLUMNS":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "PATH="+path, "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "MANWIDTH=80", "LC_ALL=C.UTF-8")
	return append(env, extra...)
}

func run(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

// requireTools skips the test when a tool it needs is missing (.ci/run
// installs them on a bare machine).
func requireTools(t *testing.T, tools ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and installs goblame")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (.ci/run installs it)", tool)
		}
	}
}

// install runs make install (and install-shim) into a new prefix and
// returns it.
func install(t *testing.T) string {
	t.Helper()
	prefix := t.TempDir()
	for _, target := range []string{"install", "install-shim"} {
		if out, errOut, code := run(t, ".", append(os.Environ(), "PREFIX="+prefix), "make", "-s", target); code != 0 {
			t.Fatalf("make %s PREFIX=%s: exit %d\n%s%s", target, prefix, code, out, errOut)
		}
	}
	return prefix
}

var installedFiles = []string{
	"bin/goblame",
	"bin/git-goblame",
	"share/man/man1/goblame.1",
	"share/man/man1/git-goblame.1",
	"share/bash-completion/completions/goblame",
	"share/zsh/site-functions/_goblame",
	"share/fish/vendor_completions.d/goblame.fish",
	"libexec/goblame/git",
}

// TestMakeInstall installs goblame into a new prefix and checks what
// arrived: the binary and its git-goblame link, the manual page under both
// names (rendered by man -l), the three completion scripts, the shim link;
// goblame --help and git goblame --help showing the page through man from
// that prefix (PATH names only its bin, MANPATH is unset), the plain text
// where man is missing; and make uninstall removing it all.
func TestMakeInstall(t *testing.T) {
	requireTools(t, "make", "man", "git")
	prefix := install(t)
	for _, f := range installedFiles {
		if _, err := os.Stat(filepath.Join(prefix, f)); err != nil {
			t.Errorf("make install: %v", err)
		}
	}
	for name, want := range map[string]string{
		"share/man/man1/goblame.1":                     "goblame.1",
		"share/man/man1/git-goblame.1":                 "goblame.1",
		"share/bash-completion/completions/goblame":    "completions/goblame.bash",
		"share/zsh/site-functions/_goblame":            "completions/_goblame",
		"share/fish/vendor_completions.d/goblame.fish": "completions/goblame.fish",
	} {
		got, err1 := os.ReadFile(filepath.Join(prefix, name))
		src, err2 := os.ReadFile(want)
		if err1 != nil || err2 != nil || !bytes.Equal(got, src) {
			t.Errorf("%s is not %s (%v, %v)", name, want, err1, err2)
		}
	}
	if target, err := os.Readlink(filepath.Join(prefix, "libexec/goblame/git")); err != nil || target != "../../bin/goblame" {
		t.Errorf("the shim libexec/goblame/git links to %q (%v), want ../../bin/goblame", target, err)
	}
	shim, err1 := os.Stat(filepath.Join(prefix, "libexec/goblame/git"))
	bin, err2 := os.Stat(filepath.Join(prefix, "bin/goblame"))
	if err1 != nil || err2 != nil || !os.SameFile(shim, bin) {
		t.Errorf("the shim is not the installed goblame (%v, %v)", err1, err2)
	}

	path := filepath.Join(prefix, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")
	env := installEnv(t, path)
	page, errOut, code := run(t, ".", env, "man", "-l", filepath.Join(prefix, "share/man/man1/goblame.1"))
	if code != 0 || errOut != "" || !strings.HasPrefix(page, "GOBLAME(1)") || !strings.Contains(page, "\n       --contents <file>\n") {
		t.Fatalf("man -l goblame.1: exit %d, %s\n%.300s", code, errOut, page)
	}

	// goblame --help runs man from the prefix it was installed in (its
	// bin/../share/man first on MANPATH), with any words after --help.
	dir := t.TempDir()
	for _, args := range [][]string{{"--help"}, {"--help", "file"}, {"--help", "-w"}} {
		out, errOut, code := run(t, dir, installEnv(t, os.Getenv("PATH")), filepath.Join(prefix, "bin/goblame"), args...)
		if code != 0 || errOut != "" || out != page {
			t.Errorf("goblame %q from the prefix: exit %d, stderr %q; the output is not man's page:\n%.300s", args, code, errOut, out)
		}
	}
	// git goblame --help is git help goblame: man git-goblame, found
	// through PATH's <prefix>/bin.
	out, errOut, code := run(t, dir, env, "git", "goblame", "--help")
	if code != 0 || errOut != "" || out != page {
		t.Errorf("git goblame --help: exit %d, stderr %q; the output is not goblame's page:\n%.300s", code, errOut, out)
	}
	// git goblame runs goblame.
	out, _, code = run(t, dir, env, "git", "goblame", "--version")
	if code != 0 || !strings.HasPrefix(out, "goblame version "+cli.Version) {
		t.Errorf("git goblame --version: exit %d, %q", code, out)
	}
	// Without man on PATH, the plain text.
	noMan := t.TempDir()
	for _, tool := range []string{"sh"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(noMan, tool))
		}
	}
	out, errOut, code = run(t, dir, installEnv(t, noMan), filepath.Join(prefix, "bin/goblame"), "--help")
	if code != 0 || errOut != "" || out != cli.ManualText() {
		t.Errorf("goblame --help without man: exit %d, stderr %q, %.200q", code, errOut, out)
	}

	if out, errOut, code := run(t, ".", append(os.Environ(), "PREFIX="+prefix), "make", "-s", "uninstall"); code != 0 {
		t.Fatalf("make uninstall: exit %d\n%s%s", code, out, errOut)
	}
	for _, f := range append(installedFiles, "libexec/goblame") {
		if _, err := os.Lstat(filepath.Join(prefix, f)); err == nil {
			t.Errorf("make uninstall left %s", f)
		}
	}
}

// TestMakeInstallDestDir checks that DESTDIR stages the installation: the
// files land under DESTDIR/PREFIX.
func TestMakeInstallDestDir(t *testing.T) {
	requireTools(t, "make")
	dest := t.TempDir()
	for _, target := range []string{"install", "install-shim"} {
		if out, errOut, code := run(t, ".", append(os.Environ(), "PREFIX=/opt/goblame", "DESTDIR="+dest), "make", "-s", target); code != 0 {
			t.Fatalf("make %s DESTDIR: exit %d\n%s%s", target, code, out, errOut)
		}
	}
	for _, f := range installedFiles {
		if _, err := os.Lstat(filepath.Join(dest, "opt/goblame", f)); err != nil {
			t.Errorf("make install DESTDIR=%s PREFIX=/opt/goblame: %v", dest, err)
		}
	}
}

// TestHelpPagesAsGitDoes runs git blame --help and goblame --help on a
// terminal (script(1) gives them one) and off it: on the terminal man pages
// both through MANPAGER; off it both print man's plain text unpaged. Where
// man is missing, goblame pages its plain-text page through GIT_PAGER on a
// terminal.
func TestHelpPagesAsGitDoes(t *testing.T) {
	requireTools(t, "make", "man", "git", "script")
	prefix := install(t)
	dir := t.TempDir()
	// The pager records that it ran and the page's first line.
	pager := filepath.Join(dir, "pager")
	if err := os.WriteFile(pager, []byte("#!/bin/sh\nIFS= read -r first\necho \"PAGER RAN: $first\"\ncat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(prefix, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")
	// Pagers are shell command lines: quoted, as a temporary directory
	// may hold a space.
	env := installEnv(t, path, "MANPAGER='"+pager+"'", "SHELL=/bin/sh", "TERM=dumb")
	onTerminal := func(env []string, command string) string {
		out, errOut, code := run(t, dir, env, "script", "-qec", command, "/dev/null")
		if code != 0 {
			t.Fatalf("script -qec %q: exit %d\n%s%s", command, code, out, errOut)
		}
		return strings.ReplaceAll(out, "\r\n", "\n")
	}
	cases := []struct{ command, title string }{
		{"goblame --help", "GOBLAME(1)"},
		{"goblame --help README.md", "GOBLAME(1)"},
	}
	if _, _, code := run(t, dir, env, "man", "-w", "git-blame"); code == 0 {
		cases = append(cases, struct{ command, title string }{"git blame --help", "GIT-BLAME(1)"})
	} else {
		t.Log("git's manual pages are not installed: git blame --help is not run")
	}
	for _, c := range cases {
		out := onTerminal(env, c.command)
		if !strings.HasPrefix(out, "PAGER RAN: "+c.title) {
			t.Errorf("%s on a terminal: not paged by man: %.200q", c.command, out)
		}
		args := strings.Fields(c.command)
		if args[0] == "goblame" {
			args[0] = filepath.Join(prefix, "bin/goblame")
		}
		out, _, code := run(t, dir, env, args[0], args[1:]...)
		if code != 0 || strings.Contains(out, "PAGER RAN") || !strings.HasPrefix(out, c.title) {
			t.Errorf("%s off a terminal: exit %d, %.200q (want man's plain text, unpaged)", c.command, code, out)
		}
	}

	noMan := t.TempDir()
	for _, tool := range []string{"sh", "cat"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(noMan, tool))
		}
	}
	scriptPath, err := exec.LookPath("script")
	if err != nil {
		t.Fatal(err)
	}
	env = installEnv(t, noMan, "GIT_PAGER='"+pager+"'", "SHELL=/bin/sh", "TERM=dumb")
	cmd := exec.Command(scriptPath, "-qec", "'"+filepath.Join(prefix, "bin/goblame")+"' --help", "/dev/null")
	cmd.Dir, cmd.Env = dir, env
	outBytes, err := cmd.CombinedOutput()
	out := strings.ReplaceAll(string(outBytes), "\r\n", "\n")
	if err != nil || out != "PAGER RAN: "+strings.SplitN(cli.ManualText(), "\n", 2)[0]+"\n" {
		t.Errorf("goblame --help without man on a terminal: %v, %q (want the plain text through GIT_PAGER)", err, out)
	}
}
