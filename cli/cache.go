package cli

import (
	"path/filepath"
	"strconv"

	"github.com/goblame/goblame/blame"
)

// cacheDir is the directory of the blame cache the environment asks for,
// or "" for none: GOBLAME_CACHE=off (or 0, false, no) turns it off,
// GOBLAME_CACHE=<dir> moves it (relative to the working directory), and
// by default it is $XDG_CACHE_HOME/goblame or ~/.cache/goblame.
func cacheDir(env Environ) string {
	v := env.Getenv("GOBLAME_CACHE")
	switch v {
	case "off", "0", "false", "no":
		return ""
	case "":
		return blame.DefaultCacheDir(env.Getenv)
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(env.Dir, v)
	}
	return v
}

// cacheMaxBytes is GOBLAME_CACHE_MAX_BYTES, the size the cache is kept
// under (default blame.DefaultCacheMaxBytes).
func cacheMaxBytes(env Environ) int64 {
	n, err := strconv.ParseInt(env.Getenv("GOBLAME_CACHE_MAX_BYTES"), 10, 64)
	if err != nil || n <= 0 {
		return blame.DefaultCacheMaxBytes
	}
	return n
}
