// Package gitpath holds git's path rules that more than one stage
// needs: its realpath (strbuf_realpath), which discovery, pathspecs and
// the object database's alternates resolve paths with.
package gitpath

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/goblame/goblame/internal/fsread"
)

// maxSymlinks bounds symbolic-link expansion, as git's realpath does.
const maxSymlinks = 32

// RealPath resolves path (relative paths against cwd) to an absolute
// path without symbolic links, "." or ".." components, the way git's
// strbuf_realpath walks it: component by component, so ".." applies to
// the resolved prefix. Unless manyMissing, only the last component may
// be missing. A failure is an error with git's text ("Invalid path
// '/a/b': No such file or directory").
func RealPath(path, cwd string, manyMissing bool) (string, error) {
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
		// git's get_next_component: the separators before the
		// component are dropped, the one after it stays in remaining
		// (so that a missing component before a trailing "/" is not
		// the last one).
		rest := strings.TrimLeft(remaining, "/")
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			i = len(rest)
		}
		var next string
		next, remaining = rest[:i], rest[i:]
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
		remaining = target + remaining
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
	return p + " '" + e.path + "': " + fsread.Strerror(e.err)
}

func (e *pathError) Unwrap() error { return e.err }
