package repo

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/goblame/goblame/internal/fsread"
)

// maxSymlinks bounds symbolic-link expansion, as git's realpath does.
const maxSymlinks = 32

// gitRealPath resolves path (relative paths against cwd) to an absolute
// path without symbolic links, "." or ".." components, the way git's
// strbuf_realpath walks it: component by component, so ".." applies to
// the resolved prefix. Unless manyMissing, only the last component may
// be missing. A failure is an error with git's text ("Invalid path
// '/a/b': No such file or directory").
func gitRealPath(path, cwd string, manyMissing bool) (string, error) {
	if path == "" {
		return "", errors.New("The empty string is not a valid path")
	}
	resolved := "/"
	remaining := path
	if !strings.HasPrefix(path, "/") {
		resolved = cwd
	}
	links := 0
	for remaining != "" {
		var next string
		if i := strings.IndexByte(remaining, '/'); i >= 0 {
			next, remaining = remaining[:i], remaining[i+1:]
		} else {
			next, remaining = remaining, ""
		}
		switch next {
		case "", ".":
			continue
		case "..":
			resolved = stripLastComponent(resolved)
			continue
		}
		if !strings.HasSuffix(resolved, "/") {
			resolved += "/"
		}
		resolved += next
		st, err := os.Lstat(resolved)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) || (!manyMissing && remaining != "") {
				return "", &pathError{path: resolved, err: err}
			}
			continue
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		links++
		if links > maxSymlinks {
			return "", errors.New("More than 32 nested symlinks on path '" + path + "'")
		}
		target, err := os.Readlink(resolved)
		if err != nil {
			return "", &pathError{prefix: "Invalid symlink", path: resolved, err: err}
		}
		if strings.HasPrefix(target, "/") {
			resolved = "/"
		} else {
			resolved = stripLastComponent(resolved)
		}
		if remaining != "" {
			target += "/" + remaining
		}
		remaining = target
	}
	return resolved, nil
}

func stripLastComponent(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

// pathError is git's die_errno("Invalid path '%s'") text.
type pathError struct {
	prefix string
	path   string
	err    error
}

func (e *pathError) Error() string {
	p := e.prefix
	if p == "" {
		p = "Invalid path"
	}
	return p + " '" + e.path + "': " + errnoText(e.err)
}

func (e *pathError) Unwrap() error { return e.err }

// errnoText is strerror's wording of err's cause. A directory fsread
// would not read is EISDIR's, as git's fopen says of one (git is built
// with FREAD_READS_DIRECTORIES on Linux).
func errnoText(err error) string {
	var nr *fsread.NotRegularError
	if errors.As(err, &nr) && nr.Mode.IsDir() {
		err = syscall.EISDIR
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		if s != "" {
			s = strings.ToUpper(s[:1]) + s[1:]
		}
		return s
	}
	return err.Error()
}
