package blame

import (
	"bytes"
	"errors"
	"github.com/goblame/goblame/internal/startcmd"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/goblame/goblame/internal/cquote"
	"github.com/goblame/goblame/repo"
)

// filterDriver is a filter.<name> of the configuration (git's
// convert_driver): its clean and long-running process commands, and
// whether a file that names it must be filtered.
type filterDriver struct {
	clean, process string
	required       bool
}

// filterDrivers reads every filter.<name>.* key in the order of the
// configuration, as git's read_convert_config does the first time a
// blame converts a work-tree file: the last clean and process command of
// each driver and its required flag. A command key without a value, or a
// required flag that is no boolean, is fatal with git's messages.
func (b *run) filterDrivers() (map[string]*filterDriver, error) {
	var drivers map[string]*filterDriver
	for _, e := range b.repo.Config.Entries() {
		rest, ok := strings.CutPrefix(e.Key, "filter.")
		dot := strings.LastIndexByte(rest, '.')
		if !ok || dot < 0 {
			continue // no subsection: no driver
		}
		name, key := rest[:dot], rest[dot+1:]
		if drivers == nil {
			drivers = map[string]*filterDriver{}
		}
		d := drivers[name]
		if d == nil {
			d = &filterDriver{}
			drivers[name] = d
		}
		switch key {
		case "smudge", "clean", "process":
			if !e.HasValue {
				return nil, repo.MissingValueError(e)
			}
			if key == "clean" {
				d.clean = e.Value
			} else if key == "process" {
				d.process = e.Value
			}
		case "required":
			v, err := repo.ConfigBool(e)
			if err != nil {
				return nil, err
			}
			d.required = v
		}
	}
	return drivers, nil
}

// cleanFilter returns the clean step of convert_to_git for path with the
// configured drivers (repo.ConvertToGitFiltered calls it with the name
// the path's filter attribute gives): git's apply_filter, which runs the
// driver's process command when it has one, else its clean command. A
// filter that fails leaves the content as it was, after git's error
// lines; for a required driver that is fatal, as it is when the driver
// has no command to run.
func (b *run) cleanFilter(path string, drivers map[string]*filterDriver) func(string, []byte) ([]byte, error) {
	return func(name string, data []byte) ([]byte, error) {
		d := drivers[name]
		if d == nil {
			return data, nil // a driver the configuration does not define
		}
		var out []byte
		var ok bool
		var err error
		switch {
		case d.process == "" && d.clean != "":
			out, ok = b.singleFileFilter(d.clean, path, data)
		case d.process != "":
			out, ok, err = b.processFilter(d.process, path, data)
			if err != nil {
				return nil, err
			}
		}
		if !ok {
			if d.required {
				return nil, fatalf("%s: clean filter '%s' failed", path, name)
			}
			return data, nil
		}
		return out, nil
	}
}

// singleFileFilter runs a clean command as git's apply_single_file_filter
// does: "%f" expanded to the path quoted for the shell, the content on
// its standard input, its output the filtered content. ok is false, after
// git's error lines, when the command cannot start or fails.
func (b *run) singleFileFilter(cmd, path string, data []byte) (out []byte, ok bool) {
	c, stderrOut, err := b.command(cmd, expandPercentF(cmd, cquote.SingleQuote(path)))
	if err != nil {
		b.warn("error: cannot fork to run external filter '" + cmd + "'")
		b.warn("error: external filter '" + cmd + "' failed")
		return nil, false
	}
	var stdout bytes.Buffer
	c.Stdin = bytes.NewReader(data)
	c.Stdout = &stdout
	err = startcmd.Run(c)
	stderrOut()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		// The exec failed in git's child (start_command): its line,
		// then apply_single_file_filter's.
		b.warn(startcmd.ExecFailedLine(cmd, err, repo.Strerror))
		b.warn("error: cannot fork to run external filter '" + cmd + "'")
		b.warn("error: external filter '" + cmd + "' failed")
		return nil, false
	}
	if code := b.runStatus(err, cmd); code != 0 {
		b.warn("error: external filter '" + cmd + "' failed " + strconv.Itoa(code))
		b.warn("error: external filter '" + cmd + "' failed")
		return nil, false
	}
	return stdout.Bytes(), true
}

// command prepares line, with the arguments args, as git's start_command
// with use_shell does (startcmd.Command), run where git runs it
// (commandDir) in the commands' environment, with git's error line when it names
// no program in PATH. name is what messages call it (the unexpanded
// command). stderrOut is called once the command has ended (see
// commandStderr).
func (b *run) command(name, line string, args ...string) (c *exec.Cmd, stderrOut func(), err error) {
	return b.commandWith(b.commandEnv(), name, line, args...)
}

// commandWith is command with the environment env.
func (b *run) commandWith(env []string, name, line string, args ...string) (c *exec.Cmd, stderrOut func(), err error) {
	c, err = startcmd.Command(line, args, b.commandDir(), env)
	if err != nil {
		b.warn(startcmd.NotFoundLine(line))
		return nil, nil, err
	}
	stderrOut = attachStderr(c, b.opts.CommandStderr)
	return c, stderrOut, nil
}

// attachStderr gives a command w (Options.CommandStderr) as its standard
// error: a file as it is, so that what the command writes comes where it
// writes it; any other writer through a buffer that the returned
// function writes out once the command has ended — os/exec copies into a
// writer from a goroutine of its own, which would race with the caller's
// own writes to it (a bytes.Buffer loses lines). nil is the null device.
func attachStderr(c *exec.Cmd, w io.Writer) func() {
	switch w := w.(type) {
	case nil:
		c.Stderr = nil // the null device
	case *os.File:
		c.Stderr = w
	default:
		var buf bytes.Buffer
		c.Stderr = &buf
		return func() {
			if buf.Len() > 0 {
				w.Write(buf.Bytes())
				buf.Reset()
			}
		}
	}
	return func() {}
}

// runStatus is finish_command's status for a command that ran with the
// error err: its exit code, or 128 plus the signal that killed it (git's
// "died of signal" line first, except for SIGINT, SIGQUIT and SIGPIPE);
// -1 when it could not run at all.
func (b *run) runStatus(err error, name string) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return -1
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		if sig != syscall.SIGINT && sig != syscall.SIGQUIT && sig != syscall.SIGPIPE {
			b.warn("error: " + name + " died of signal " + strconv.Itoa(int(sig)))
		}
		return 128 + int(sig)
	}
	return ee.ExitCode()
}

// expandPercentF is strbuf_expand with git's filter dictionary: "%f" is
// quoted, "%%" a percent sign, any other "%" stays.
func expandPercentF(cmd, quoted string) string {
	if !strings.Contains(cmd, "%") {
		return cmd
	}
	var sb strings.Builder
	for {
		i := strings.IndexByte(cmd, '%')
		if i < 0 {
			sb.WriteString(cmd)
			return sb.String()
		}
		sb.WriteString(cmd[:i])
		cmd = cmd[i+1:]
		switch {
		case strings.HasPrefix(cmd, "%"):
			sb.WriteByte('%')
			cmd = cmd[1:]
		case strings.HasPrefix(cmd, "f"):
			sb.WriteString(quoted)
			cmd = cmd[1:]
		default:
			sb.WriteByte('%')
		}
	}
}
