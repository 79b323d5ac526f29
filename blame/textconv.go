package blame

import (
	"bytes"
	"errors"
	"github.com/goblame/goblame/internal/startcmd"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/repo"
)

// textconv converts a blob as git's textconv_object does: regular files
// whose driver has a textconv command are written to a temporary file
// named after the path (git's prepare_temp_file: a directory
// git-blob-XXXXXX in the temporary directory), and the command's output
// (run as git's run_command with use_shell runs it, with the file name
// as argument) replaces the content. git may cache the result in notes
// (diff.<driver>.cachetextconv); goblame never writes to the repository
// and always runs the command.
func (b *run) textconv(p string, mode uint32, blob []byte) ([]byte, error) {
	if mode&0o170000 != object.ModeFile&0o170000 {
		return nil, nil
	}
	d, err := b.diffDriverOf(p)
	if err != nil || !d.hasTextconv {
		return nil, err
	}
	dir, err := makeBlobTempDir()
	if err != nil {
		return nil, fatalf("unable to read files to diff")
	}
	defer os.RemoveAll(dir)
	tmp := dir + "/" + path.Base(p)
	if err := os.WriteFile(tmp, blob, 0o600); err != nil {
		return nil, fatalf("unable to read files to diff")
	}
	return b.runTextconv(d.textconv, tmp)
}

// textconvFile converts the uncommitted version of a work-tree blame
// when it is a regular file, as git's fake_working_tree_commit does: the
// driver is the one of the file it reads (name: the blamed path, or the
// --contents file as given, both relative to the top of the work tree
// where the command runs), and the command is handed that file itself.
// It returns nil when no conversion applies.
func (b *run) textconvFile(name string, mode uint32) ([]byte, error) {
	if mode&0o170000 != object.ModeFile&0o170000 {
		return nil, nil
	}
	d, err := b.diffDriverOf(name)
	if err != nil || !d.hasTextconv {
		return nil, err
	}
	return b.runTextconv(d.textconv, name)
}

// blobTempChars are the characters of git's mkstemp-style names.
const blobTempChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// makeBlobTempDir makes a new directory named as git names the one a
// blob is written to for a program (git-blob-XXXXXX, mode 0700) in the
// temporary directory ($TMPDIR, else /tmp).
func makeBlobTempDir() (string, error) {
	var err error
	for range 100 {
		name := []byte("git-blob-XXXXXX")
		for i := len(name) - 6; i < len(name); i++ {
			name[i] = blobTempChars[rand.IntN(len(blobTempChars))]
		}
		dir := filepath.Join(os.TempDir(), string(name))
		if err = os.Mkdir(dir, 0o700); err == nil || !errors.Is(err, fs.ErrExist) {
			return dir, err
		}
	}
	return "", err
}

// runTextconv runs a textconv command on file and returns its output.
func (b *run) runTextconv(cmd, file string) ([]byte, error) {
	// As git's run_command with use_shell: /bin/sh -c 'cmd "$@"' for a
	// command with the shell's special characters, else the program
	// itself, found in the programs' PATH.
	c, stderrOut, err := b.command(cmd, cmd, file)
	if err != nil {
		return nil, fatalf("unable to read files to diff")
	}
	var out bytes.Buffer
	c.Stdout = &out
	err = startcmd.Run(c)
	stderrOut()
	if err != nil {
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			// git's "died of signal" line first (finish_command).
			b.runStatus(err, cmd)
		default:
			// What git's child dies of when the exec fails.
			b.warn(startcmd.ExecFailedLine(cmd, err, repo.Strerror))
		}
		return nil, fatalf("unable to read files to diff")
	}
	if out.Len() == 0 {
		return []byte{}, nil
	}
	return out.Bytes(), nil
}
