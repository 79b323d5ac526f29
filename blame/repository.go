package blame

import (
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/goblame/goblame/internal/blamecache"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// Delta-base cache sizes: a blame reads one file's versions (whose delta
// chains an 8 MiB cache serves well) and, with -C, other files; a fixed
// bound keeps the peak memory of -C below git's (the odb default grows to
// 96 MiB for bulk reads). The second reader reads -C candidates (or,
// without a commit-graph, commits) ahead of the walk, with a cache of an
// eighth of the packs' size, between minReadAheadCacheBytes and
// maxReadAheadCacheBytes (readAheadCacheBytes).
const (
	deltaBaseCacheBytes = 8 << 20
	// helpReadCacheBytes is the delta-base cache of the reader a -C walk
	// reads candidates with while it waits for the read-ahead's (see
	// blamecore.HistoryOptions.NewHelpReader). gitoxide's -C
	// gix/src/lib.rs peaked at 69 MB when the walk read them with its own
	// reader (whose cache grows for bulk reads), at 58-63 with a cache
	// of 1 MiB or none, and at 54 when the walk only waited; go-git's -C
	// repository.go took 7 ms less than waiting with no cache, 17 with
	// 1 MiB (paired rounds).
	helpReadCacheBytes     = 1 << 20
	minReadAheadCacheBytes = 2 << 20
	maxReadAheadCacheBytes = 16 << 20
)

// largeFileDeltaBases is the delta-base cache a blame (without -C) of a
// file of size bytes may grow to: largeFileVersions versions of it for a
// file of more than 8 MiB / largeFileVersions (up to
// maxLargeFileDeltaBases), else deltaBaseCacheBytes. An 8 MiB cache
// holds two versions of a 3 MB file, and a walk over its delta chains
// replayed each chain from its full object for every third version
// (50 deep: a 3 MB file of 30 long lines took 0.42 s against git's 0.44,
// 0.19 s with 32 MiB). Measured (`/usr/bin/time`, peak against git's):
// that file 0.42 s and 49 MB -> 0.25 s and 59 MB at 16 MiB (git 121
// MB); a 3.2 MB file of 30,000 short lines, 150 versions, 0.58 s and 62
// MB -> 0.42 s and 68 MB (git 1.33 s, 144 MB); large-8mb's 7.8 MB x 200
// 3.90 s and 130 MB -> 2.29 s and 166 MB at 32 MiB (git 334 MB). A file
// over 8 MiB keeps the cache's one place outside its bound instead
// (large-10mb at 32 MiB: 1.12 -> 0.75 s but 168 -> 197 MB against git's
// 232); po/ca.po (900 KB) gained little from 16 MiB (0.30 -> 0.26 s).
func largeFileDeltaBases(size int) int64 {
	n := int64(size) * largeFileVersions
	if n <= deltaBaseCacheBytes || int64(size) > deltaBaseCacheBytes {
		return deltaBaseCacheBytes
	}
	return min(n, maxLargeFileDeltaBases)
}

const (
	largeFileVersions      = 5
	maxLargeFileDeltaBases = 32 << 20
)

// readAheadCacheBytes sizes the read-ahead reader's delta-base cache for
// packs of packBytes: its reads are scattered over many files' histories
// and keep it full from the start, and in a small repository a cache the
// size of the packs holds bases that are never asked for again. On
// go-git (14 MB of packs) -C -C -C blames peaked at 34-41 MB with 16
// MiB, 31-34 with 3.5 and 26-32 with 2, in the same time (10 paired
// rounds: +2.5 ms [-16, +17] of 322); on git/git's builtin/blame.c 4
// MiB instead of 16 cost 7% of its time (the cap holds there from 128
// MB of packs).
func readAheadCacheBytes(packBytes int64) int64 {
	return min(max(packBytes/8, minReadAheadCacheBytes), maxReadAheadCacheBytes)
}

// Repository is a repository opened for blaming. It is safe for
// concurrent use: every blame takes an object reader (with its own
// inflater and caches) from a pool and gives it back when it ends.
type Repository struct {
	repo *repo.Repository
	// dir is the directory relative paths of files outside the work tree
	// (ContentsFile, IgnoreRevsFiles of a bare repository) start from.
	dir  string
	owns bool // Close closes repo

	readers sync.Pool // *odb.Reader

	// cache, when set, keeps finished blames (SetCache); cacheArea is
	// this object database's part of it.
	cache     *Cache
	cacheArea *blamecache.Area
	abbrevs   abbrevMemo

	graphOnce     sync.Once
	graph         *traverse.Graph
	graphWarnings []string
	graphErr      error // what git dies of reading the graph

	// graphOK: git would read a commit-graph here (graphEnabled).
	graphEnabledOnce sync.Once
	graphOK          bool

	// lazy fetches a partial clone's missing objects (fetch.go); nil
	// for other repositories.
	lazy *lazyFetch

	settingsOnce sync.Once
	settings     repo.Settings
	settingsErr  error

	// background holds the path look-aheads a blame stopped without
	// waiting for (blamecore.HistoryOptions.Background): Close waits for
	// them before it closes what they read.
	background sync.WaitGroup
}

// CheckSettings reads, once, the settings git reads at the start of every
// blame (repo.Repository.ReadSettings) and returns the error git dies of:
// Prepare does, and the command line calls it where git does, once its
// options are parsed.
func (r *Repository) CheckSettings() error {
	_, err := r.readSettings()
	return err
}

func (r *Repository) readSettings() (repo.Settings, error) {
	r.settingsOnce.Do(func() { r.settings, r.settingsErr = r.repo.ReadSettings() })
	return r.settings, r.settingsErr
}

// Open opens the repository that contains dir, found as git finds it
// from a working directory (GIT_DIR and the other variables of the
// process's environment apply).
func Open(dir string) (*Repository, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := repo.Discover(repo.Env{Cwd: abs, Getenv: os.Getenv, LookupEnv: os.LookupEnv})
	if err != nil {
		return nil, err
	}
	b := NewRepository(r, abs)
	b.owns = true
	return b, nil
}

// NewRepository blames in an already discovered repository; dir is the
// working directory relative file names start from where git takes them
// from it (a bare repository's --contents file). Close does not close r.
// r's WarningHandler should be set before the repository is shared.
func NewRepository(r *repo.Repository, dir string) *Repository {
	b := &Repository{repo: r, dir: dir}
	b.installLazyFetch()
	if r.InCommitGraph == nil {
		r.InCommitGraph = b.inCommitGraph
	}
	if r.CommitGraphParents == nil {
		r.CommitGraphParents = b.commitGraphParents
	}
	if r.CommitGraphInfo == nil {
		r.CommitGraphInfo = b.commitGraphInfo
	}
	if r.CommitGraphTime == nil {
		r.CommitGraphTime = b.commitGraphTime
	}
	if r.CommitGraphRows == nil {
		r.CommitGraphRows = b.commitGraphRows
	}
	return b
}

// commitGraphRows is the commit-graph git would read (see gitGraph), by
// row, or nil.
func (r *Repository) commitGraphRows() repo.GraphRows {
	if g := r.gitGraph(); g != nil {
		return graphRows{g}
	}
	return nil
}

// graphRows is a commit-graph as repo.GraphRows reads it: a row git
// dies of is its error, one damaged otherwise is not found (git reads
// that commit from its object), as commitGraphParents answers.
type graphRows struct{ *traverse.Graph }

func (g graphRows) Row(pos uint32, parents []uint32) (date, gen uint64, out []uint32, found bool, err error) {
	date, gen, out, err = g.Graph.Row(pos, parents)
	var death *traverse.GraphDeath
	if errors.As(err, &death) {
		return 0, 0, out, false, err
	}
	return date, gen, out, err == nil, nil
}

// commitGraphTime is the commit date the commit-graph git would read
// (see gitGraph) gives the commit id (traverse.Graph.Time).
func (r *Repository) commitGraphTime(id oid.ID) (uint64, bool, error) {
	if g := r.gitGraph(); g != nil {
		return g.Time(id)
	}
	return 0, false, nil
}

// commitGraphInfo is git's death reading the commit-graph's data for
// the commit id parsed from its object (traverse.Graph.Info), or nil.
func (r *Repository) commitGraphInfo(id oid.ID) error {
	if g := r.gitGraph(); g != nil {
		return g.Info(id)
	}
	return nil
}

// commitGraphParents gives the parents the commit-graph git would read
// (see gitGraph) lists for the commit id; its error is git's death at a
// parent position beyond the graph. A row git would read past its file
// (goblame drops the graph there) reads as not found.
func (r *Repository) commitGraphParents(id oid.ID) ([]oid.ID, bool, error) {
	g := r.gitGraph()
	if g == nil {
		return nil, false, nil
	}
	parents, found, err := g.Parents(id)
	var death *traverse.GraphDeath
	if errors.As(err, &death) {
		return nil, false, err
	}
	if err != nil {
		return nil, false, nil
	}
	return parents, found, nil
}

// inCommitGraph reports whether the commit-graph git would read holds
// the commit id.
func (r *Repository) inCommitGraph(id oid.ID) bool {
	g := r.gitGraph()
	if g == nil {
		return false
	}
	_, ok := g.Position(id)
	return ok
}

// gitGraph is the commit-graph git would read outside a blame's own
// options: none with replace refs, grafts or a shallow boundary, or
// core.commitGraph off.
func (r *Repository) gitGraph() *traverse.Graph {
	if !r.graphEnabled() {
		return nil
	}
	g, _, err := r.commitGraph()
	if err != nil {
		return nil
	}
	return g
}

// graphEnabled reports whether git would read a commit-graph here (see
// gitGraph).
func (r *Repository) graphEnabled() bool {
	// Decided once, as the settings and the graph are read once: the
	// grafts and shallow files read at each call cost a revision word
	// of --tags two file opens (vim's 19,880 tags: 40 ms).
	r.graphEnabledOnce.Do(func() {
		settings, err := r.readSettings()
		if err != nil || !settings.CommitGraph || r.repo.HasReplacements() {
			return
		}
		parents, _, err := r.repo.EffectiveParents()
		r.graphOK = err == nil && len(parents) == 0
	})
	return r.graphOK
}

// Repo returns the underlying repository (its paths, config, refs).
func (r *Repository) Repo() *repo.Repository { return r.repo }

// Close releases the commit-graph and, for a repository from Open, the
// object store. Blames running at the time must have ended; the reads a
// finished blame left on another goroutine (its path look-ahead, stopped
// without waiting for a read under way) are waited for.
func (r *Repository) Close() error {
	r.background.Wait()
	r.SaveCache()
	if r.graph != nil {
		r.graph.Close()
		r.graph = nil
	}
	if r.owns {
		return r.repo.Close()
	}
	return nil
}

// reader takes an object reader from the pool; put gives it back.
func (r *Repository) reader() *odb.Reader {
	if rd, ok := r.readers.Get().(*odb.Reader); ok {
		return rd
	}
	return r.repo.Objects.NewReaderCache(deltaBaseCacheBytes)
}

func (r *Repository) put(rd *odb.Reader) {
	rd.DropOversized() // (a large file's last base and its spare)
	rd.SetDeltaBaseCeiling(deltaBaseCacheBytes)
	r.readers.Put(rd)
}

// commitGraph opens the commit-graph once; nil when there is none or git
// would not use it (the caller checks replace refs, grafts and
// core.commitGraph). Its warnings are returned with it every time.
func (r *Repository) commitGraph() (*traverse.Graph, []string, error) {
	r.graphOnce.Do(func() {
		g, warnings, err := traverse.OpenGraph(r.repo.Objects.ObjectDirs(), r.repo.Format)
		if err == nil {
			r.graph = g
		}
		r.graphWarnings, r.graphErr = warnings, err
	})
	return r.graph, r.graphWarnings, r.graphErr
}

// Name is what a revision word resolves to (see ResolveName).
type Name struct {
	// ID is the object the word names, peeled to a non-tag object
	// when it can be; Type is that object's type.
	ID   oid.ID
	Type object.Type
	// Missing: the word parses as an object name whose object is not
	// in the repository.
	Missing bool
}

// ResolveName resolves a revision word as git's get_oid does ("HEAD",
// "v1.0^{tree}", "main~3", an abbreviated ID) and peels tags; the error
// is repo's when the word is no revision.
func (r *Repository) ResolveName(word string) (Name, error) {
	rd := r.reader()
	defer r.put(rd)
	id, err := r.repo.ResolveRevision(rd, word)
	if err != nil {
		return Name{}, err
	}
	typ, _, err := rd.ReadHeader(id)
	if err != nil {
		return Name{ID: id, Missing: true}, nil
	}
	if peeled, err := repo.Peel(rd, id, object.Invalid); err == nil {
		if t, _, err := rd.ReadHeader(peeled); err == nil {
			typ = t
		}
		id = peeled
	}
	return Name{ID: id, Type: typ}, nil
}

// IsRevision reports whether word names a revision (git's
// verify_revision without the path check), as the command line asks
// before it takes a word without "--" for a revision.
func (r *Repository) IsRevision(word string) bool {
	rd := r.reader()
	defer r.put(rd)
	return r.repo.IsRevision(rd, word)
}

// HasCommitGraph reports whether git would read a commit-graph here:
// one exists and neither core.commitGraph nor replace refs or a shallow
// boundary turn it off.
func (r *Repository) HasCommitGraph() bool {
	if s, err := r.readSettings(); err == nil && !s.CommitGraph {
		return false // (nor opened)
	}
	if r.repo.HasReplacements() || len(r.repo.Shallow()) > 0 {
		return false
	}
	g, _, _ := r.commitGraph()
	return g != nil
}
