package cli

import (
	_ "embed"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/goblame/goblame/internal/startcmd"
)

// goblame --help and --version.
//
// git blame --help is git help blame: git puts its own manual directory
// first on MANPATH and runs "man git-blame" (help.format=man, the default),
// whatever standard output is; man pages on a terminal and prints plain
// text elsewhere, and git's exit status is man's. goblame --help runs
// "man goblame" the same way, with the manual directory of its own
// installation (<prefix>/share/man next to <prefix>/bin/goblame, where
// make install puts the page) first on MANPATH. Where man is missing or
// finds no goblame page (a binary built by go install), it prints the
// plain-text rendering of the same page, generated with it
// (goblame.1.txt), through the pager when standard output is a terminal.

//go:embed goblame.1.txt
var manualText string

// ManualText returns the plain-text rendering of the manual page goblame.1
// that goblame --help prints where man cannot show the page.
func ManualText() string { return manualText }

// showManual answers goblame --help (and goblame annotate --help). Words
// after --help are ignored: git's "git blame --help <word>" shows the same
// page (it reads them as git help's own options and arguments).
func showManual(env Environ) int {
	if man := lookPath("man", env.Getenv("PATH")); man != "" {
		manEnv := manEnviron(env)
		probe := exec.Command(man, "-w", Name)
		probe.Env = manEnv
		if probe.Run() == nil {
			cmd := exec.Command(man, Name)
			cmd.Env = manEnv
			if f, ok := env.Stdin.(*os.File); ok {
				cmd.Stdin = f
			}
			cmd.Stdout, cmd.Stderr = env.Stdout, env.Stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if err == nil {
				return 0
			}
			if errors.As(err, &exit) {
				if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					return 128 + int(ws.Signal())
				}
				return exit.ExitCode()
			}
			// man did not start: the plain text instead.
		}
	}
	return printManual(env)
}

// printManual prints the plain-text manual, through the pager on a
// terminal: GIT_PAGER, PAGER or less ("cat" or an empty value for none),
// as git chooses a pager outside a repository. A pager that quits before
// reading it all ends the run with status 141, as for a blame.
func printManual(env Environ) int {
	out := env.Stdout
	wait := func() {}
	if pager := helpPager(env); pager != "" {
		w, done, err := startPager(env, pager, env.Dir)
		if err == nil {
			out, wait = w, done
		}
	}
	_, err := io.WriteString(out, manualText)
	wait()
	if errors.Is(err, syscall.EPIPE) {
		return 141
	}
	return 0
}

// helpPager is the pager for the plain-text manual; "" for none.
func helpPager(env Environ) string {
	if !env.StdoutIsTerminal {
		return ""
	}
	pager := env.Getenv("GIT_PAGER")
	if pager == "" {
		pager = env.Getenv("PAGER")
	}
	if pager == "" {
		pager = "less"
	}
	if pager == "cat" || strings.TrimSpace(pager) == "" {
		return ""
	}
	return pager
}

// manEnviron is env's environment with the manual directory of goblame's
// installation first on MANPATH, as git's setup_man_path puts its own: a
// trailing colon (an empty MANPATH) keeps man's default directories after
// it.
func manEnviron(env Environ) []string {
	vars := append([]string(nil), env.Env...)
	dir := installedManDir()
	if dir == "" {
		return vars
	}
	manpath := dir + ":" + env.Getenv("MANPATH")
	out := vars[:0]
	for _, kv := range vars {
		if !strings.HasPrefix(kv, "MANPATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "MANPATH="+manpath)
}

// installedManDir is <prefix>/share/man for the goblame binary at
// <prefix>/bin/goblame (the git shim <prefix>/libexec/goblame/git is a
// link to it), when it holds goblame's page; "" otherwise.
func installedManDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	dir := filepath.Join(filepath.Dir(exe), "..", "share", "man")
	if st, err := os.Stat(filepath.Join(dir, "man1", Name+".1")); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return filepath.Clean(dir)
}

// lookPath finds the program file in path (an environment's PATH, which
// exec.LookPath would take from the process) as git's locate_in_PATH
// does (startcmd.LookPath), a relative entry from the working directory;
// the result is a path exec runs as it is ("./file" for an empty entry).
func lookPath(file, path string) string {
	p := startcmd.LookPath(file, path, "")
	if p != "" && !strings.Contains(p, "/") {
		p = "./" + p
	}
	return p
}

// buildCommit is the commit goblame was built from, as make build sets it
// (-ldflags -X; "<12 hex digits>", ".dirty" after them for a modified work
// tree), for builds that have no version control stamp (-buildvcs=false).
var buildCommit string

// VersionLine returns what goblame --version prints: goblame's version
// (with the commit it was built from, where the build recorded one) and
// the git version whose git blame it reproduces.
func VersionLine() string {
	v := Version
	if buildCommit != "" {
		v += "+" + buildCommit
	} else if info, ok := debug.ReadBuildInfo(); ok {
		v += buildSuffix(info)
	}
	return Name + " version " + v + " (git blame " + GitVersion + " compatible)\n"
}

// buildSuffix is "+<commit>" (".dirty" after it for a modified work tree)
// from the build's version control stamp, or "+<module version>" for a
// binary go install built from a module version; "" for neither.
func buildSuffix(info *debug.BuildInfo) string {
	rev, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if modified {
			rev += ".dirty"
		}
		return "+" + rev
	}
	if mv := info.Main.Version; mv != "" && mv != "(devel)" {
		return "+" + mv
	}
	return ""
}
