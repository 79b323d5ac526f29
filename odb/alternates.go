package odb

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/goblame/goblame/internal/cquote"
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/internal/gitpath"
)

// maxAlternateDepth is git's nesting limit for info/alternates files: the
// main directory's file is depth 0, an alternate's own file depth 1, and so
// on; files deeper than 5 are ignored.
const maxAlternateDepth = 5

// alternatesLoader collects alternate object directories in git's order
// (object-file.c, prepare_alt_odb): first the GIT_ALTERNATE_OBJECT_DIRECTORIES
// entries, then the main directory's info/alternates, each alternate's own
// info/alternates read depth-first right after it is added. Paths are
// canonicalised with realpath; duplicates and the main directory itself
// are skipped, and entries that are not directories too, with git's
// error line (warn), as is an alternates file git cannot read.
type alternatesLoader struct {
	cwd      string // where git works: relative environment entries
	mainReal string
	seen     map[string]bool
	dirs     []string
	warn     func(string)
}

func loadAlternates(mainDir string, opts Options, warn func(string)) []string {
	l := &alternatesLoader{cwd: opts.WorkDir, seen: map[string]bool{}, warn: warn}
	if l.cwd == "" {
		l.cwd, _ = os.Getwd()
	}
	l.mainReal = l.realpath(mainDir)
	for _, e := range opts.ExtraAlternates {
		if e != "" {
			l.link(e, "", 0)
		}
	}
	name := mainDir
	if opts.ObjectsDirName != "" {
		name = opts.ObjectsDirName
	}
	l.readInfo(mainDir, name, 0)
	return l.dirs
}

// realpath is git's realpath of an existing directory, p itself when it
// cannot be resolved.
func (l *alternatesLoader) realpath(p string) string {
	if r, err := gitpath.RealPath(p, l.cwd, false); err == nil {
		return r
	}
	return p
}

// readInfo reads <dir>/info/alternates (dir a real path, or the main
// directory) at the given nesting depth; name is what git calls dir.
func (l *alternatesLoader) readInfo(dir, name string, depth int) {
	content, err := fsread.ReadFile(filepath.Join(dir, "info", "alternates"), 0)
	if err != nil {
		// git's warn_on_fopen_errors: silent for a missing file.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			l.warn("warning: unable to access '" + name + "/info/alternates': " + fsread.Strerror(err))
		}
		return
	}
	if len(content) == 0 || depth > maxAlternateDepth {
		return
	}
	if i := bytes.IndexByte(content, 0); i >= 0 {
		content = content[:i] // git reads the file as a C string
	}
	for _, entry := range parseAlternates(content, '\n') {
		l.link(entry, dir, depth)
	}
}

// link adds one alternate as git's link_alt_odb_entry does: a relative
// entry is taken from the real path of the object directory whose
// info/alternates named it (relativeBase; "" for the entries of the
// environment, taken from where git works), and the whole resolved with
// git's realpath, of which only the last component may be missing; a path
// that does not resolve, or is no directory, gets git's error line,
// naming the entry as git names it.
func (l *alternatesLoader) link(entry, relativeBase string, depth int) {
	path := entry
	if !filepath.IsAbs(path) && relativeBase != "" {
		path = l.realpath(relativeBase) + "/" + entry
	}
	real, err := gitpath.RealPath(path, l.cwd, false)
	if err != nil {
		l.warn("error: unable to normalize alternate object path: " + path)
		return
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		l.warn("error: object directory " + real + " does not exist; check .git/objects/info/alternates")
		return
	}
	if real == l.mainReal || l.seen[real] {
		return
	}
	l.seen[real] = true
	l.dirs = append(l.dirs, real)
	l.readInfo(real, real, depth+1)
}

// parseAlternates splits an alternates list the way git's
// parse_alt_odb_entry does: entries end at sep; an entry starting with '#'
// is a comment; one starting with '"' is C-quoted (and may then contain the
// separator) unless the quoting is broken, in which case it is taken
// literally; empty entries are skipped.
func parseAlternates(s []byte, sep byte) []string {
	var out []string
	for len(s) > 0 {
		var entry []byte
		var end int
		if s[0] == '#' {
			end = indexOrLen(s, sep)
		} else if unq, n, ok := cquote.Unquote(s); s[0] == '"' && ok {
			entry, end = unq, n
		} else {
			end = indexOrLen(s, sep)
			entry = s[:end]
		}
		if end < len(s) {
			end++ // skip one character: the separator
		}
		s = s[end:]
		if len(entry) > 0 {
			out = append(out, string(entry))
		}
	}
	return out
}

func indexOrLen(s []byte, c byte) int {
	if i := bytes.IndexByte(s, c); i >= 0 {
		return i
	}
	return len(s)
}
