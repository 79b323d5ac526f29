package blame

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/goblame/goblame/internal/blamecache"
	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/oid"
)

// Cache is a persistent blame cache: a directory outside the repository
// where finished blames are kept, so that blaming the same file again —
// as of the same commit, a newer one, or a dirty buffer over it — takes
// over what was found instead of walking history again. A blame result
// is a function of the commit, the path, the options and the history's
// rewrites, so an entry never goes stale; everything that could change
// an attribution is part of an entry's key, is checked before an entry
// is taken (the binary verdicts of the diff drivers that rename scoring
// asked, which the attributes and configuration give), or turns the
// cache off for that blame (see Repository.SetCache).
//
// A Cache is safe for concurrent use by goroutines and by processes.
// Entries are written atomically, carry a checksum and are checked
// against the repository before use; one that cannot be trusted is
// ignored and written again. Errors (a read-only or full disk) only
// cost speed.
type Cache struct {
	store *blamecache.Store
}

// DefaultCacheMaxBytes is the size a cache is kept under by default,
// least recently used entries going first.
const DefaultCacheMaxBytes = blamecache.DefaultMaxBytes

// OpenCache returns the cache kept in dir, at most maxBytes large (<= 0:
// DefaultCacheMaxBytes). Nothing is created until the first entry is
// written; directories are made 0700 and files 0600.
func OpenCache(dir string, maxBytes int64) *Cache {
	return &Cache{store: blamecache.Open(dir, maxBytes)}
}

// DefaultCacheDir is where goblame keeps its cache:
// $XDG_CACHE_HOME/goblame, else ~/.cache/goblame; "" when neither
// XDG_CACHE_HOME nor HOME is set, or HOME is not a directory (a cache
// does not make a home directory: HOME=/nonexistent, as daemons and
// sandboxes set it) (getenv reads the environment).
func DefaultCacheDir(getenv func(string) string) string {
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "goblame")
	}
	if h := getenv("HOME"); h != "" {
		if st, err := os.Stat(h); err != nil || !st.IsDir() {
			return ""
		}
		return filepath.Join(h, ".cache", "goblame")
	}
	return ""
}

// CacheCounts are a cache's hits, misses, entries written and damaged
// entries met since it was opened.
type CacheCounts struct{ Hits, Misses, Writes, Corrupt int64 }

// Counts reports what the cache did since it was opened.
func (c *Cache) Counts() CacheCounts {
	h, m, w, x := c.store.Counts()
	return CacheCounts{h, m, w, x}
}

// SetCache makes every blame of r use c (nil: none), except those with
// Options.NoCache. Blames whose attribution the cache cannot reproduce
// exactly do not use it: --reverse, -S grafts, revision ranges with
// bottoms under -M, -C or ignored revisions, repositories with replace
// refs, grafts or a shallow boundary, and configurations with a
// textconv driver. Under -M, -C and ignored revisions (whose results
// depend on which lines are blamed together) the cache keeps a blame's
// final result for the same blame again (the same commit, path, options
// and line ranges), and blames of uncommitted files do not use it. A
// cache inside the repository is not used (goblame never writes there).
// Set it before r is shared between goroutines.
func (r *Repository) SetCache(c *Cache) {
	r.cache = c
	if c == nil {
		return
	}
	root, err := filepath.Abs(c.store.Dir())
	if err != nil {
		r.cache = nil
		return
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	for _, d := range []string{r.repo.GitDir, r.repo.CommonDir, r.repo.WorkTree} {
		if d != "" && (root == d || strings.HasPrefix(root, d+string(filepath.Separator))) {
			r.cache = nil
			return
		}
	}
	r.cacheArea = c.store.Area(r.repo.Objects.ObjectDirs()[0], r.repo.Format)
}

// cacheKey is the part of an entry's key that comes from the options:
// everything that changes which line is blamed on what.
func cacheKey(core *blamecore.Options) string {
	d := core.Diff
	return fmt.Sprintf("w=%t minimal=%t indent=%t algorithm=%d root=%t first-parent=%t no-follow=%t since=%t/%d",
		d.IgnoreWhitespace, d.Minimal, d.IndentHeuristic, d.Algorithm, core.ShowRoot, core.FirstParent, core.NoFollow, core.HasSince, core.Since)
}

// exactKey is the rest of the key of an exact entry (core.Exact): the
// options that make a snapshot stand for one blame only, and the lines
// blamed (nil: the whole file).
func exactKey(core *blamecore.Options, ranges []LineRange) string {
	var k strings.Builder
	fmt.Fprintf(&k, " exact move=%t copy=%d score=%d/%d ignore=", core.Move, core.CopyLevel, core.MoveScore, core.CopyScore)
	if len(core.Ignore) > 0 {
		ids := make([]string, len(core.Ignore))
		for i, id := range core.Ignore {
			ids[i] = id.String()
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		sum := sha256.Sum256([]byte(strings.Join(ids, "\n")))
		fmt.Fprintf(&k, "%d:%x", len(ids), sum[:12])
	}
	k.WriteString(" lines=")
	for i, r := range ranges {
		if i > 0 {
			k.WriteByte(',')
		}
		fmt.Fprintf(&k, "%d-%d", r.Start, r.End)
	}
	return k.String()
}

// cacheUse is how a blame uses the cache.
type cacheUse int

const (
	noCache    cacheUse = iota
	reuseCache          // takes over and leaves snapshots other walks can take over
	exactCache          // keeps its final result for the same blame (core.Exact)
)

// usesCache says how this blame may use the cache.
func (b *run) usesCache(core *blamecore.Options, req blamecore.Request, historyRewritten bool) cacheUse {
	if b.r.cacheArea == nil || b.opts.NoCache || historyRewritten || core.Reverse || core.SimplifyByDecoration {
		return noCache
	}
	if !b.opts.NoTextConv {
		for _, e := range b.repo.Config.Entries() {
			if strings.HasPrefix(e.Key, "diff.") && strings.HasSuffix(e.Key, ".textconv") {
				return noCache
			}
		}
	}
	if core.Move || core.CopyLevel > 0 || len(core.Ignore) > 0 {
		if req.WorkTree != nil {
			return noCache
		}
		for _, t := range req.Tips {
			if t.Uninteresting {
				return noCache
			}
		}
		return exactCache
	}
	return reuseCache
}

// cacheBases serves a blame's snapshots from the cache: the commits with
// an entry are listed once per path, so the walk's questions cost no
// disk access unless an entry exists.
type cacheBases struct {
	area   *blamecache.Area
	key    string
	mu     sync.Mutex
	listed map[string]map[oid.ID]bool
	// primed is the snapshot prime saved for this blame, which it then
	// takes instead of reading the entry back from disk.
	primed *blamecore.Snapshot
}

func newCacheBases(area *blamecache.Area, key string) *cacheBases {
	return &cacheBases{area: area, key: key, listed: map[string]map[oid.ID]bool{}}
}

func (c *cacheBases) has(commit oid.ID, path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.list(path)[commit]
}

// list returns the commits with an entry for path; c.mu is held.
func (c *cacheBases) list(path string) map[oid.ID]bool {
	ids, ok := c.listed[path]
	if !ok {
		ids = c.area.Commits(c.key, path)
		c.listed[path] = ids
	}
	return ids
}

// HasPath reports whether the cache has an entry for path at any commit
// (the listing is read once per path); it implements
// blamecore.PathBases.
func (c *cacheBases) HasPath(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.list(path)) > 0
}

// extendKey appends to the key the entries are looked up under (an exact
// entry's ranges, known once the final image is read), forgetting what
// was listed under the shorter key.
func (c *cacheBases) extendKey(more string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key += more
	clear(c.listed)
}

// Snapshot implements blamecore.Bases.
func (c *cacheBases) Snapshot(commit oid.ID, path string, light bool) *blamecore.Snapshot {
	if !c.has(commit, path) {
		return nil
	}
	c.mu.Lock()
	primed := c.primed
	c.mu.Unlock()
	if primed != nil && primed.Commit == commit && primed.Path == path {
		return primed
	}
	return c.area.Load(c.key, path, commit, light)
}

// saved adds (commit, path) to the listing after a write.
func (c *cacheBases) saved(commit oid.ID, path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ids := c.listed[path]; ids != nil {
		ids[commit] = true
	} else {
		c.listed[path] = map[oid.ID]bool{commit: true}
	}
}

// save keeps a finished blame's snapshot. A blame that took its own
// commit's entry gives none (blamecore.TakeSnapshot), so one that gives a
// snapshot for a commit the cache has an entry for did not take that
// entry (the diff drivers' verdicts it recorded no longer hold, say):
// the entry is replaced, or every later blame would walk again.
func (c *cacheBases) save(snap *blamecore.Snapshot) {
	if snap == nil {
		return
	}
	if c.area.Save(c.key, snap) == nil {
		c.saved(snap.Commit, snap.Path)
	}
}

// prime blames the uncommitted file's parent version once, whole, when
// the cache has no entry for it, so that this and every later blame of a
// dirty buffer over it needs one diff instead of a walk.
func (b *run) prime(ctx context.Context, bases *cacheBases, parent oid.ID, path string) {
	if bases.has(parent, path) {
		return
	}
	opts := *b.opts
	opts.Contents, opts.ContentsFile, opts.ContentsFileGiven, opts.ContentsName = nil, "", false, ""
	opts.Ranges, opts.LineRanges = nil, nil
	opts.Revisions, opts.DefaultRevision, opts.Merge = nil, "", false
	opts.AfterRevisions, opts.Warn, opts.BeforeWalk = nil, nil, nil
	// The whole blame runs, as a cold one would, and keeps its entry.
	// (It stands for the history of the work-tree blame it serves,
	// which reads attributes and runs programs as a work-tree blame.)
	nested := &run{r: b.r, repo: b.repo, rd: b.rd, opts: &opts, now: b.now, local: b.local, topPath: path, inWorkTree: true}
	blamer, _, _, err := nested.prepare(ctx, []string{parent.String()}, path)
	if err != nil {
		return
	}
	blamer.OnLongWalk(b.beforeWalk)
	res, err := blamer.Run(nil)
	if err != nil {
		return
	}
	if nested.bases != nil {
		snap := blamecore.TakeSnapshot(res)
		nested.bases.save(snap)
		if snap != nil && nested.bases.key == bases.key && nested.bases.has(snap.Commit, snap.Path) {
			// Saved: the splice that follows takes it as it is instead
			// of reading the entry back and decoding it (0.15-0.3 ms of
			// gitoxide README.md's first blame with a cache).
			bases.mu.Lock()
			bases.primed = snap
			bases.mu.Unlock()
		}
	}
	bases.mu.Lock()
	delete(bases.listed, path)
	bases.mu.Unlock()
}

// beforeWalk runs Options.BeforeWalk the first time a walk starts.
func (b *run) beforeWalk() {
	if b.opts.BeforeWalk != nil && !b.walked {
		b.walked = true
		b.opts.BeforeWalk()
	}
}
