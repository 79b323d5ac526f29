package blame

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"

	"github.com/goblame/goblame/internal/startcmd"
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
	return b.textconvBlob(d.textconv, p, blob)
}

// textconvBlob runs cmd on blob written to a temporary file named after
// path, as git's prep_temp_blob writes it.
func (b *run) textconvBlob(cmd, p string, blob []byte) ([]byte, error) {
	// A relative TMPDIR is git's, from where it runs: the command is
	// handed the name as git makes it.
	dir, err := makeBlobTempDir(b.tempDir(), b.commandDir())
	if err != nil {
		return nil, fatalf("unable to create temp-file: %s", repo.Strerror(err))
	}
	defer os.RemoveAll(fromDir(b.commandDir(), dir))
	tmp := dir + "/" + path.Base(p)
	if err := os.WriteFile(fromDir(b.commandDir(), tmp), blob, 0o600); err != nil {
		return nil, fatalf("unable to write temp-file: %s", repo.Strerror(err))
	}
	return b.runTextconv(cmd, tmp)
}

// textconvFile converts the uncommitted version of a work-tree blame
// when it is a regular file, as git's fake_working_tree_commit does: the
// driver is the one of the file it reads (name: the blamed path, or the
// --contents file as given, both relative to the top of the work tree
// where the command runs), and the command is handed that file itself,
// or, when name is a symbolic link (a --contents file; git's lstat sees
// the link), a temporary file holding the link's target.
// It returns nil when no conversion applies.
func (b *run) textconvFile(name string, mode uint32) ([]byte, error) {
	if mode&0o170000 != object.ModeFile&0o170000 {
		return nil, nil
	}
	d, err := b.diffDriverOf(name)
	if err != nil || !d.hasTextconv {
		return nil, err
	}
	full := fromDir(b.commandDir(), name)
	if st, err := os.Lstat(full); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(full)
		if err != nil {
			return nil, fatalf("readlink(%s): %s", name, repo.Strerror(err))
		}
		return b.textconvBlob(d.textconv, name, []byte(target))
	}
	return b.runTextconv(d.textconv, name)
}

// tempDir is the directory git makes its temporary files in: TMPDIR of
// its environment (the programs' environment: git's own), /tmp when it
// is unset — an empty one is the root, as git takes it.
func (b *run) tempDir() string {
	v, ok := os.LookupEnv("TMPDIR")
	if env := b.commandEnv(); env != nil {
		v, ok = startcmd.EnvValue(env, "TMPDIR")
	}
	if !ok {
		return "/tmp"
	}
	return v
}

// blobTempChars are the characters of git's mkstemp-style names.
const blobTempChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// makeBlobTempDir makes a new directory in tmp named as git names the one
// a blob is written to for a program (git-blob-XXXXXX, mode 0700: git's
// mks_tempfile_dt), a relative tmp taken from cwd. It returns the name
// git gives the directory.
func makeBlobTempDir(tmp, cwd string) (string, error) {
	var err error
	for range 100 {
		name := []byte("git-blob-XXXXXX")
		for i := len(name) - 6; i < len(name); i++ {
			name[i] = blobTempChars[rand.IntN(len(blobTempChars))]
		}
		dir := tmp + "/" + string(name)
		if err = os.Mkdir(fromDir(cwd, dir), 0o700); err == nil || !errors.Is(err, fs.ErrExist) {
			return dir, err
		}
	}
	return "", err
}

// fromDir is name taken from dir when it is relative, joined as it is
// (git's relative names are not cleaned: "x/.." goes through x).
func fromDir(dir, name string) string {
	if filepath.IsAbs(name) || dir == "" {
		return name
	}
	return dir + "/" + name
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
