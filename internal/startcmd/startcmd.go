// Package startcmd runs programs as git's start_command runs them with
// use_shell (run-command.c): a command line with any of the shell's
// special characters through /bin/sh, otherwise the program it names,
// found in PATH as git's locate_in_PATH finds it, and a program the
// kernel will not execute (a script without "#!") again as /bin/sh's
// script. goblame runs textconv commands, clean filters, filter
// processes and the pager this way, so that what they see (argv[0], $0,
// the directory they are found in) and the errors when they cannot run
// are git's.
package startcmd

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// shellChars are the characters for which git hands a command line to
// the shell (prepare_shell_cmd's strcspn).
const shellChars = "|&;<>()$`\\\"' \t\n*?[#~=%"

// ErrNotFound is Command's error for a program named without a slash
// that is in no PATH entry: git says "cannot run <name>: No such file or
// directory" (NotFoundLine) and does not start it.
var ErrNotFound = errors.New("no such program in PATH")

// Command returns the command git would start for the command line line
// with the arguments args, run in dir ("": this process's directory)
// with the environment env (nil: this process's): /bin/sh -c 'line
// "$@"' line args... when line has a special character of the shell
// (`line` alone without arguments), else the program named by line (a
// path as it is, a name looked up in env's PATH by LookPath), which is
// also its argv[0].
func Command(line string, args []string, dir string, env []string) (*exec.Cmd, error) {
	var c *exec.Cmd
	if strings.ContainsAny(line, shellChars) {
		script := line
		if len(args) > 0 {
			script += ` "$@"`
		}
		c = &exec.Cmd{Path: "/bin/sh", Args: append([]string{"/bin/sh", "-c", script, line}, args...)}
	} else {
		prog := line
		if !strings.Contains(line, "/") {
			path := os.Getenv("PATH")
			if env != nil {
				path, _ = EnvValue(env, "PATH")
			}
			if prog = LookPath(line, path, dir); prog == "" {
				return nil, ErrNotFound
			}
		}
		c = &exec.Cmd{Path: prog, Args: append([]string{prog}, args...)}
	}
	c.Dir = dir
	c.Env = env
	return c, nil
}

// LookPath finds the program name (without a slash) as git's
// locate_in_PATH does in path: none when path is empty; each entry
// joined to name (an empty entry is the current directory: name alone),
// the first that is a regular file its owner may execute. A relative
// result is taken from dir, where the program will run ("": the current
// directory). It returns the path to execute, "" when there is none.
func LookPath(name, path, dir string) string {
	if path == "" {
		return ""
	}
	for _, entry := range strings.Split(path, ":") {
		p := name
		if entry != "" {
			p = entry + "/" + name
		}
		full := p
		if dir != "" && !strings.HasPrefix(p, "/") {
			full = dir + "/" + p
		}
		if st, err := os.Stat(full); err == nil && st.Mode().IsRegular() && st.Mode()&0o100 != 0 {
			return p
		}
	}
	return ""
}

// EnvValue is the value of key in the environment list env (its last
// one) and whether it is set.
func EnvValue(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// Run runs c as Start, then waits for it.
func Run(c *exec.Cmd) error {
	c, err := Start(c)
	if err != nil {
		return err
	}
	return c.Wait()
}

// Start starts c, and when the kernel will not execute its program as
// it is (ENOEXEC: a script without "#!") starts /bin/sh with the same
// arguments instead, as git's child does. It returns the command that
// runs (c, or the shell's, which takes c's standard streams: give them
// as files or readers and writers, not StdinPipe's or StdoutPipe's,
// whose ends a failed start closes).
func Start(c *exec.Cmd) (*exec.Cmd, error) {
	err := c.Start()
	if err != nil && c.Process == nil && errors.Is(err, syscall.ENOEXEC) {
		sh := &exec.Cmd{Path: "/bin/sh", Args: append([]string{"/bin/sh"}, c.Args...),
			Dir: c.Dir, Env: c.Env, Stdin: c.Stdin, Stdout: c.Stdout, Stderr: c.Stderr}
		return sh, sh.Start()
	}
	return c, err
}

// StartPiped is Start with a pipe to the command's standard input and,
// with output, one from its standard output: pipes of its own, not
// StdinPipe's, whose ends a failed start closes before the retry through
// /bin/sh could take them. It returns the command that runs and the
// parent's ends (out nil without output).
func StartPiped(c *exec.Cmd, output bool) (started *exec.Cmd, in, out *os.File, err error) {
	inR, in, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	c.Stdin = inR
	var outW *os.File
	if output {
		if out, outW, err = os.Pipe(); err != nil {
			inR.Close()
			in.Close()
			return nil, nil, nil, err
		}
		c.Stdout = outW
	}
	started, err = Start(c)
	inR.Close()
	if outW != nil {
		outW.Close()
	}
	if err != nil {
		in.Close()
		if out != nil {
			out.Close()
		}
		return nil, nil, nil, err
	}
	return started, in, out, nil
}

// NotFoundLine is git's line for a program Command found in no PATH
// entry.
func NotFoundLine(line string) string {
	return "error: cannot run " + line + ": No such file or directory"
}

// ExecFailedLine is the line git's child dies with when it cannot
// execute the program of line (err, from Start): "cannot run" for a
// missing file, "cannot exec" for any other reason. strerror gives the
// C library's text of an error.
func ExecFailedLine(line string, err error, strerror func(error) string) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "fatal: cannot run " + line + ": " + strerror(err)
	}
	return "fatal: cannot exec '" + line + "': " + strerror(err)
}
