package repo

import (
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/internal/gitpath"
)

// gitRealPath is git's strbuf_realpath (gitpath.RealPath).
func gitRealPath(path, cwd string, manyMissing bool) (string, error) {
	return gitpath.RealPath(path, cwd, manyMissing)
}

// errnoText is strerror's wording of err's cause (fsread.Strerror).
func errnoText(err error) string { return fsread.Strerror(err) }
