package blame

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/repo"
)

// textconv converts a blob as git's textconv_object does: regular files
// whose driver has a textconv command are written to a temporary file
// named after the path, and the command's output (run as git's
// run_command with use_shell runs it, with the file name as argument)
// replaces the content. git may cache
// the result in notes (diff.<driver>.cachetextconv); goblame never writes
// to the repository and always runs the command.
func (b *run) textconv(p string, mode uint32, blob []byte) ([]byte, error) {
	if mode&0o170000 != object.ModeFile&0o170000 {
		return nil, nil
	}
	d, err := b.diffDriverOf(p)
	if err != nil {
		return nil, err
	}
	if !d.hasTextconv {
		return nil, nil
	}
	cmd := d.textconv
	dir, err := os.MkdirTemp("", "goblame-textconv-")
	if err != nil {
		return nil, fatalf("unable to read files to diff")
	}
	defer os.RemoveAll(dir)
	tmp := dir + "/" + path.Base(p)
	if err := os.WriteFile(tmp, blob, 0o600); err != nil {
		return nil, fatalf("unable to read files to diff")
	}
	// As git's run_command with use_shell: /bin/sh -c 'cmd "$@"' for a
	// command with the shell's special characters, else the program
	// itself, found in the programs' PATH.
	c, stderrOut, err := b.command(cmd, cmd, tmp)
	if err != nil {
		return nil, fatalf("unable to read files to diff")
	}
	var out bytes.Buffer
	c.Stdout = &out
	err = runCommand(c)
	stderrOut()
	if err != nil {
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			// git's "died of signal" line first (finish_command).
			b.runStatus(err, cmd)
		case errors.Is(err, fs.ErrNotExist):
			// What git's child dies of when the exec fails.
			b.warn("fatal: cannot run " + cmd + ": " + repo.Strerror(err))
		default:
			b.warn("fatal: cannot exec '" + cmd + "': " + repo.Strerror(err))
		}
		return nil, fatalf("unable to read files to diff")
	}
	if out.Len() == 0 {
		return []byte{}, nil
	}
	return out.Bytes(), nil
}
