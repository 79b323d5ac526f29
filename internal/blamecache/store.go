package blamecache

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/oid"
)

// DefaultMaxBytes bounds a store's size: 256 MiB.
const DefaultMaxBytes = 256 << 20

// maxEntryBytes is the largest entry read back: a snapshot costs a few
// bytes a piece, so even a file of millions of lines stays far below it.
const maxEntryBytes = 64 << 20

// layoutVersion names the directory of this layout under the root; a
// store of another layout lives beside it and is trimmed away with age.
const layoutVersion = "v1"

// Store is a blame cache directory. It is safe for concurrent use by
// goroutines and by processes: entries are written to a temporary file
// and renamed into place, and anything unreadable reads as a miss.
type Store struct {
	root     string // <dir>/v1
	maxBytes int64

	hits, misses, writes, corrupt atomic.Int64
}

// Open returns the store in dir, creating nothing until the first
// write. maxBytes <= 0 means DefaultMaxBytes.
func Open(dir string, maxBytes int64) *Store {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return &Store{root: filepath.Join(dir, layoutVersion), maxBytes: maxBytes}
}

// Dir returns the directory the store was opened on.
func (s *Store) Dir() string { return filepath.Dir(s.root) }

// Counts reports the store's hits, misses, writes and corrupt entries
// met since Open.
func (s *Store) Counts() (hits, misses, writes, corrupt int64) {
	return s.hits.Load(), s.misses.Load(), s.writes.Load(), s.corrupt.Load()
}

// Area is the part of a store that belongs to one object database
// (entries name its objects).
type Area struct {
	s      *Store
	dir    string
	format oid.Format
}

// Area returns the area of the object database at objectDir (its real
// path is the key) in format.
func (s *Store) Area(objectDir string, format oid.Format) *Area {
	if real, err := filepath.EvalSymlinks(objectDir); err == nil {
		objectDir = real
	}
	if abs, err := filepath.Abs(objectDir); err == nil {
		objectDir = abs
	}
	sum := sha256.Sum256([]byte(format.String() + "\x00" + objectDir))
	return &Area{s: s, dir: filepath.Join(s.root, hex.EncodeToString(sum[:10])), format: format}
}

// entryKey is what an entry answers: the attribution key and the path.
func entryKey(key, path string) string { return key + "\x00" + path }

// pathDir is the directory of the entries of (key, path), one file per
// commit.
func (a *Area) pathDir(key, path string) string {
	sum := sha256.Sum256([]byte(entryKey(key, path)))
	h := hex.EncodeToString(sum[:16])
	return filepath.Join(a.dir, h[:2], h[2:])
}

// Commits lists the commits with an entry for (key, path): one directory
// read, so that a walk can ask at every commit without touching the disk.
func (a *Area) Commits(key, path string) map[oid.ID]bool {
	names, err := fsread.ReadDirNames(a.pathDir(key, path))
	if err != nil {
		return nil
	}
	var out map[oid.ID]bool
	for _, n := range names {
		if len(n) != a.format.HexSize() {
			continue
		}
		id, err := oid.ParseHex(a.format, n)
		if err != nil {
			continue
		}
		if out == nil {
			out = make(map[oid.ID]bool)
		}
		out[id] = true
	}
	return out
}

// Load reads the entry of (key, path) at commit; nil when there is none
// or it cannot be trusted (a damaged entry is removed, to be written
// again).
func (a *Area) Load(key, path string, commit oid.ID, light bool) *blamecore.Snapshot {
	name := filepath.Join(a.pathDir(key, path), commit.String())
	data, err := readEntry(name)
	if err != nil {
		a.s.misses.Add(1)
		return nil
	}
	snap, err := decode(data, entryKey(key, path), a.format, light)
	if err == nil {
		snap.Path = path // the key it answers, which decode checked
	}
	if err != nil || snap.Commit != commit {
		a.s.corrupt.Add(1)
		a.s.misses.Add(1)
		os.Remove(name)
		return nil
	}
	a.s.hits.Add(1)
	// Least recently used goes first: a hit renews the entry.
	now := time.Now()
	os.Chtimes(name, now, now)
	return snap
}

// readEntry reads a regular file of bounded size, opened without
// following a symbolic link and without blocking on a FIFO someone put
// in its place (fsread: a bare descriptor, which starts no network
// poller as an *os.File would).
func readEntry(name string) ([]byte, error) {
	f, st, err := fsread.OpenStat(name, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !st.Mode().IsRegular() || st.Size() > maxEntryBytes {
		return nil, errCorrupt
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return data, nil
}

// Save writes snap as the entry of (key, snap.Path) at snap.Commit.
// Errors (a read-only or full disk) only cost the next blame its speed.
func (a *Area) Save(key string, snap *blamecore.Snapshot) error {
	dir := a.pathDir(key, snap.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	data := encode(entryKey(key, snap.Path), a.format, snap)
	if err := a.s.writeFile(dir, filepath.Join(dir, snap.Commit.String()), data); err != nil {
		return err
	}
	a.s.writes.Add(1)
	return nil
}

// writeFile writes data as name, in dir, atomically: a temporary file
// renamed over it.
func (s *Store) writeFile(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	s.maybeTrim(len(data))
	return nil
}

// maybeTrim trims the store now and then: with a chance proportional to
// the bytes just written (n), so that between two trims about 1/64 of the
// bound is written — the store overshoots its bound by that much at most,
// on average, and each write pays for a scan of about 64 entries.
func (s *Store) maybeTrim(n int) {
	if rand.Int64N(s.maxBytes) < int64(n)*64 {
		s.Trim()
	}
}

// Trim removes the least recently used entries until the store holds at
// most 80% of its bound, and temporary files left by writers that died.
func (s *Store) Trim() {
	type file struct {
		path string
		size int64
		used time.Time
	}
	var files []file
	var total int64
	filepath.WalkDir(filepath.Dir(s.root), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(path)
			}
			return nil
		}
		files = append(files, file{path, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= s.maxBytes {
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].used.Before(files[j].used) })
	for _, f := range files {
		if total <= s.maxBytes*8/10 {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}
