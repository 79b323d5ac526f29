package odb

import (
	"bytes"
	"github.com/goblame/goblame/internal/cquote"
	"github.com/goblame/goblame/internal/fsread"
	"os"
	"path/filepath"
)

// maxAlternateDepth is git's nesting limit for info/alternates files: the
// main directory's file is depth 0, an alternate's own file depth 1, and so
// on; files deeper than 5 are ignored.
const maxAlternateDepth = 5

// alternatesLoader collects alternate object directories in git's order
// (object-file.c, prepare_alt_odb): first the GIT_ALTERNATE_OBJECT_DIRECTORIES
// entries, then the main directory's info/alternates, each alternate's own
// info/alternates read depth-first right after it is added. Paths are
// canonicalised with realpath; duplicates, the main directory itself and
// entries that are not directories are skipped (git prints an error for
// the latter and carries on).
type alternatesLoader struct {
	mainReal string
	seen     map[string]bool
	dirs     []string
}

func loadAlternates(mainDir string, extra []string) []string {
	l := &alternatesLoader{seen: map[string]bool{}}
	l.mainReal = realpath(mainDir)
	for _, e := range extra {
		if e == "" {
			continue
		}
		l.link(e, "", 0)
	}
	l.readInfo(mainDir, 0)
	return l.dirs
}

func realpath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// readInfo reads <dir>/info/alternates at the given nesting depth.
func (l *alternatesLoader) readInfo(dir string, depth int) {
	content, err := fsread.ReadFile(filepath.Join(dir, "info", "alternates"), 0)
	if err != nil || len(content) == 0 {
		return
	}
	if depth > maxAlternateDepth {
		return
	}
	if i := bytes.IndexByte(content, 0); i >= 0 {
		content = content[:i] // git reads the file as a C string
	}
	for _, entry := range parseAlternates(content, '\n') {
		l.link(entry, dir, depth)
	}
}

// link adds one alternate; relative entries are relative to the (real path
// of the) object directory whose info/alternates named them.
func (l *alternatesLoader) link(entry, relativeBase string, depth int) {
	path := entry
	if !filepath.IsAbs(path) && relativeBase != "" {
		path = filepath.Join(realpath(relativeBase), path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return
	}
	if real == l.mainReal || l.seen[real] {
		return
	}
	l.seen[real] = true
	l.dirs = append(l.dirs, real)
	l.readInfo(real, depth+1)
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
