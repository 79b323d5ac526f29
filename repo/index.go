package repo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unsafe"

	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// Index entry flag bits, as git keeps them in memory (ce_flags): the
// 16 on-disk bits without the name length, and the extended bits
// shifted up by 16.
const (
	IndexAssumeValid  uint32 = 0x8000
	IndexExtended     uint32 = 0x4000
	IndexStageMask    uint32 = 0x3000
	IndexIntentToAdd  uint32 = 1 << 29
	IndexSkipWorktree uint32 = 1 << 30

	// indexUpdateInBase is git's in-memory CE_UPDATE_IN_BASE, set on
	// split-index entries that replace a shared-index entry (and shown
	// by "git ls-files --debug").
	indexUpdateInBase uint32 = 1 << 27

	indexNameMask     = 0x0fff
	indexExtendedMask = IndexIntentToAdd | IndexSkipWorktree
)

// IndexEntry is one entry of the index (a path at a stage).
type IndexEntry struct {
	Path string
	Mode uint32
	ID   oid.ID
	// Stage is 0 for a merged path, 1-3 (base, ours, theirs) during a
	// conflict.
	Stage int
	// Flags holds IndexAssumeValid, IndexExtended, the stage bits,
	// IndexIntentToAdd and IndexSkipWorktree, as git's ce_flags (what
	// "git ls-files --debug" prints; entries a split index replaced also
	// carry git's in-memory bit 1<<27, CE_UPDATE_IN_BASE).
	Flags uint32
	// The cached stat data.
	CTimeSec, CTimeNsec, MTimeSec, MTimeNsec uint32
	Dev, Ino, UID, GID, Size                 uint32
}

// IsSparseDir reports a sparse-index directory entry: a directory
// outside the sparse-checkout cone, stored as its tree ("dir/", mode
// 040000, skip-worktree).
func (e *IndexEntry) IsSparseDir() bool {
	return e.Mode&0o170000 == 0o040000 && e.Flags&IndexSkipWorktree != 0 && strings.HasSuffix(e.Path, "/")
}

// SkipWorktree reports the skip-worktree bit (sparse checkout).
func (e *IndexEntry) SkipWorktree() bool { return e.Flags&IndexSkipWorktree != 0 }

// IntentToAdd reports an entry added with "git add -N".
func (e *IndexEntry) IntentToAdd() bool { return e.Flags&IndexIntentToAdd != 0 }

// Index is the staging area ($GIT_DIR/index or GIT_INDEX_FILE): entries
// sorted by path, then stage.
type Index struct {
	// Version is the on-disk format version (2, 3 or 4).
	Version int
	// EntryList holds every entry in index order.
	EntryList []IndexEntry
	// Sparse reports a sparse index (the "sdir" extension) that still
	// has directory entries.
	Sparse bool
	// Messages are lines git prints while reading the index ("ignoring
	// XXXX extension" for an optional extension it does not know).
	Messages []string
	// Checksum is the file's trailing hash (all zeros when index.skipHash
	// wrote none).
	Checksum oid.ID
	// OutOfOrder reports entries out of git's order in the file (a
	// name, then a stage, less than the entry's before it): a damaged
	// index, which git reads as it is. Its lookups are then git's
	// binary search (see pos), which may miss an entry the index
	// holds; an index read for one path (ReadIndexFor) is then read
	// whole, so that what it holds is what git's search finds.
	OutOfOrder bool
	// CacheTreeFirst is the first tree of the cache tree (the TREE
	// extension) in the order git's --indexed-objects lists them (the
	// root, then each directory's subtrees, shorter names first), of
	// those whose entry is valid; zero when there is none, or the
	// extension does not parse (git then has no cache tree). An index
	// read for some paths only (ReadIndexFor) leaves it zero.
	CacheTreeFirst oid.ID
}

// Entries returns every stage of path (nil when the index does not
// have it).
func (ix *Index) Entries(path string) []IndexEntry {
	if ix == nil {
		return nil
	}
	i := ix.pos(path)
	j := i
	for j < len(ix.EntryList) && ix.EntryList[j].Path == path {
		j++
	}
	return ix.EntryList[i:j]
}

// Entry returns path at stage.
func (ix *Index) Entry(path string, stage int) (IndexEntry, bool) {
	for _, e := range ix.Entries(path) {
		if e.Stage == stage {
			return e, true
		}
	}
	return IndexEntry{}, false
}

// NamePos is git's index_name_pos for path at stage 0: a binary search
// by name, then stage, that returns the entry it meets (found), else the
// position where such an entry would be inserted. In an index in order
// that is the path's first entry, if it has one; in a damaged one out of
// order the search can stop elsewhere, as git's does.
func (ix *Index) NamePos(path string) (pos int, found bool) {
	first, last := 0, len(ix.EntryList)
	for last > first {
		next := first + (last-first)>>1
		e := &ix.EntryList[next]
		cmp := strings.Compare(path, e.Path)
		if cmp == 0 && e.Stage != 0 {
			cmp = -1 // stage 0 before the others
		}
		switch {
		case cmp == 0:
			return next, true
		case cmp < 0:
			last = next
		default:
			first = next + 1
		}
	}
	return first, false
}

// pos is where git looks for path's entries (NamePos's position): they
// follow it.
func (ix *Index) pos(path string) int {
	pos, _ := ix.NamePos(path)
	return pos
}

// outOfOrder reports an entry (name, stage) that git's index order puts
// before the one read before it (prevName, prevStage).
func outOfOrder(prevName []byte, prevStage int, name []byte, stage int) bool {
	c := bytes.Compare(prevName, name)
	return c > 0 || c == 0 && prevStage > stage
}

// IndexFile returns the index path: GIT_INDEX_FILE or $GIT_DIR/index.
func (r *Repository) IndexFile() string {
	if v, ok := r.env.Lookup("GIT_INDEX_FILE"); ok {
		if v == "" {
			return "" // git opens "": no such file, an empty index
		}
		return join(r.gitCwd, v)
	}
	return r.GitDir + "/index"
}

func (r *Repository) indexFileName() string {
	if v, ok := r.env.Lookup("GIT_INDEX_FILE"); ok {
		return v
	}
	return r.gitDirName + "/index"
}

// ReadIndex reads the index the way blame (a command that needs the
// full index) sees it: versions 2, 3 and 4, a split index merged with
// its shared index, and sparse-index directory entries expanded into the
// files of their trees (skip-worktree set). A missing index is an empty
// index. Errors carry git's messages ("index file corrupt", "index uses
// abcd extension, which we do not understand" before it, ...).
func (r *Repository) ReadIndex() (*Index, error) {
	ix, err := r.ReadIndexSparse()
	if err != nil || !ix.Sparse {
		return ix, err
	}
	rd := r.Objects.NewReader()
	if err := ix.Expand(rd, r.Format); err != nil {
		return nil, err
	}
	return ix, nil
}

// ReadIndexFor reads the index for the one path a blame of the work tree
// asks about: ix holds path's entries alone, after the checks ReadIndex
// makes of the whole file (so a corrupt index is the same error), and
// whole reads the rest when it is needed (the same bytes, parsed in
// full). A split or sparse index is read whole at once: its entries are
// not the file's alone; so is one out of order, where git's search
// decides which of path's entries it holds (see pos). The scan checks
// the order of the names and skips the cache tree: BenchmarkReadIndexFor's
// 20,000 entries (7,600 directories) take 0.45 ms, a third of it the
// order's comparisons (1.3 ms when the cache tree was read too).
func (r *Repository) ReadIndexFor(path string) (ix *Index, whole func() (*Index, error), err error) {
	// A large index is mapped, not read into fresh memory (as git
	// maps it); the mapping lives as long as whole.
	data, mapped, err := fsread.MapFile(r.IndexFile(), 0, indexMapBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			empty := &Index{Version: 2}
			return empty, func() (*Index, error) { return empty, nil }, nil
		}
		return nil, nil, indexOpenError(err, r.indexFileName(), r.Format)
	}
	// The attribute files' entries are kept too, for the attributes the
	// blame reads next (gitoxide gix/src/lib.rs opened and scanned its
	// 355 KB index a second time for them; within the noise of its 14
	// ms, the second pass finding the pages mapped).
	ix, link, err := parseIndexOf(data, r.indexFileName(), r.Format, &indexFilter{paths: []string{path}, attrFiles: true})
	if err != nil || link != nil || ix.Sparse || ix.OutOfOrder {
		if mapped {
			fsread.Unmap(data)
		}
		if err != nil {
			return nil, nil, err
		}
		full, err := r.ReadIndex()
		if err != nil {
			return nil, nil, err
		}
		only := *full
		only.EntryList = full.Entries(path)
		return &only, func() (*Index, error) { return full, nil }, nil
	}
	r.offerAttrIndex(ix, path)
	// The entries kept hold no byte of data: only whole reads it again.
	held := &indexData{data}
	if mapped {
		runtime.AddCleanup(held, fsread.Unmap, data)
	}
	return ix, func() (*Index, error) {
		full, _, err := parseIndex(held.data, r.indexFileName(), r.Format)
		runtime.KeepAlive(held)
		return full, err
	}, nil
}

// offerAttrIndex takes the attribute files' entries out of ix (kept by a
// pass for path) and offers them to the work tree's attributes, which
// take them where they have not read them yet.
func (r *Repository) offerAttrIndex(ix *Index, path string) {
	attr := &Index{Version: ix.Version}
	kept := ix.EntryList[:0]
	for _, e := range ix.EntryList {
		if isAttrFile(e.Path) {
			attr.EntryList = append(attr.EntryList, e)
		}
		if e.Path == path {
			kept = append(kept, e)
		}
	}
	ix.EntryList = kept
	r.attrIndexOffer.CompareAndSwap(nil, attr)
}

// readIndexOf reads the entries only selects from the index, after the
// checks ReadIndex makes of the whole file; a split or sparse index is
// read whole, without expanding sparse directories, as ReadIndexSparse
// reads it (its Entries find the same entries).
func (r *Repository) readIndexOf(only *indexFilter) (*Index, error) {
	data, mapped, err := fsread.MapFile(r.IndexFile(), 0, indexMapBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &Index{Version: 2}, nil
		}
		return nil, indexOpenError(err, r.indexFileName(), r.Format)
	}
	// The entries kept hold no byte of data.
	ix, link, err := parseIndexOf(data, r.indexFileName(), r.Format, only)
	if mapped {
		fsread.Unmap(data)
	}
	if err != nil {
		return nil, err
	}
	if link != nil || ix.Sparse || ix.OutOfOrder {
		// (Out of order: git's lookups are its binary search over
		// every entry; see Index.pos.)
		return r.ReadIndexSparse()
	}
	return ix, nil
}

// indexMapBytes: an index larger than this is mapped (ReadIndexFor).
// git/git's 461 KB: 1,168 -> 1,091 faults for a gitsigns blame (-L
// 40,+1 with a dirty buffer, 9.41 -> 9.27 ms); go-git's 76 KB gained
// nothing from it.
const indexMapBytes = 256 << 10

// indexData holds the bytes of an index file for ReadIndexFor's whole.
type indexData struct{ data []byte }

// ReadIndexSparse is ReadIndex without expanding sparse directories.
func (r *Repository) ReadIndexSparse() (*Index, error) {
	return r.readIndexSparseAt(r.IndexFile(), r.indexFileName(), r.GitDir, r.gitDirName)
}

// ReadWorktreeIndex reads another worktree's index as ReadIndex reads
// the current one's (git's read_index_from of its index file, as
// --indexed-objects reads them).
func (r *Repository) ReadWorktreeIndex(w Worktree) (*Index, error) {
	ix, err := r.readIndexSparseAt(w.GitDir+"/index", w.gitDirName+"/index", w.GitDir, w.gitDirName)
	if err != nil || !ix.Sparse {
		return ix, err
	}
	if err := ix.Expand(r.Objects.NewReader(), r.Format); err != nil {
		return nil, err
	}
	return ix, nil
}

// readIndexSparseAt reads the index file at path (name: as git names it
// in its messages) of the worktree whose git directory is gitDir, where
// a split index's shared index is looked for first.
func (r *Repository) readIndexSparseAt(path, name, gitDir, gitDirName string) (*Index, error) {
	ix, link, err := readIndexFile(path, name, r.Format, false)
	if err != nil {
		return nil, err
	}
	if link == nil || link.base.IsNull() {
		return ix, nil
	}
	hexBase := link.base.String()
	basePath := gitDir + "/sharedindex." + hexBase
	baseName := gitDirName + "/sharedindex." + hexBase
	base, _, err := readIndexFile(basePath, baseName, r.Format, false)
	if err != nil {
		return nil, err
	}
	if len(base.EntryList) == 0 {
		basePath = filepath.Dir(path) + "/sharedindex." + hexBase
		baseName = filepath.Dir(name) + "/sharedindex." + hexBase
		base, _, err = readIndexFile(basePath, baseName, r.Format, true)
		if err != nil {
			return nil, err
		}
	}
	if base.Checksum != link.base {
		return nil, newError(ErrCorruptIndex, "broken index, expect %s in %s, got %s", hexBase, gitDirName+"/sharedindex."+hexBase, base.Checksum)
	}
	return mergeSplitIndex(ix, base, link)
}

// splitLink is the "link" extension of a split index.
type splitLink struct {
	base            oid.ID
	delete, replace ewahBitmap
	hasBitmaps      bool
}

// readIndexFile parses one index file. A missing file is an empty index
// unless mustExist.
func readIndexFile(path, name string, format oid.Format, mustExist bool) (*Index, *splitLink, error) {
	data, err := readIndexBytes(path, name, format, mustExist)
	if err != nil {
		return nil, nil, err
	}
	if data == nil {
		return &Index{Version: 2}, nil, nil
	}
	return parseIndex(data, name, format)
}

// readIndexBytes reads one index file: nil for a missing one unless
// mustExist.
func readIndexBytes(path, name string, format oid.Format, mustExist bool) ([]byte, error) {
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !mustExist {
			return nil, nil
		}
		return nil, indexOpenError(err, name, format)
	}
	return data, nil
}

// parseIndex parses the bytes of an index file named name.
func parseIndex(data []byte, name string, format oid.Format) (*Index, *splitLink, error) {
	return parseIndexOf(data, name, format, nil)
}

// indexFilter selects the entries a filtered pass over an index keeps:
// those of paths, and with attrFiles every attribute file's
// (.gitattributes at the top or in any directory).
type indexFilter struct {
	paths     []string
	attrFiles bool
}

// keeps returns the path of the entry named name when f keeps it.
func (f *indexFilter) keeps(name []byte) (string, bool) {
	for _, p := range f.paths {
		if string(name) == p {
			return p, true
		}
	}
	if f.attrFiles && isAttrFile(name) {
		return string(name), true
	}
	return "", false
}

// isAttrFile reports a name of an attribute file: .gitattributes, at the
// top or in a directory.
func isAttrFile[S string | []byte](name S) bool {
	n := len(name) - len(".gitattributes")
	return n >= 0 && string(name[n:]) == ".gitattributes" && (n == 0 || name[n-1] == '/')
}

// parseIndexOf parses the bytes of an index file named name, keeping
// the entries only selects alone when only is not nil: the whole file is
// checked as git checks it either way, and Sparse reports a directory
// entry anywhere.
func parseIndexOf(data []byte, name string, format oid.Format, only *indexFilter) (*Index, *splitLink, error) {
	hashLen := format.Size()
	if len(data) < 12+hashLen {
		return nil, nil, newError(ErrCorruptIndex, "%s: index file smaller than expected", name)
	}
	corrupt := func(before ...string) error {
		return &Error{Kind: ErrCorruptIndex, Msg: "index file corrupt", Before: before}
	}
	if sig := binary.BigEndian.Uint32(data); sig != 0x44495243 {
		// git prints the signature as read into a native integer.
		return nil, nil, corrupt(fmt.Sprintf("error: bad signature 0x%08x", binary.LittleEndian.Uint32(data)))
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, nil, corrupt(fmt.Sprintf("error: bad index version %d", version))
	}
	count := binary.BigEndian.Uint32(data[8:])
	ix := &Index{Version: int(version)}
	ix.Checksum = oid.FromBytes(format, data[len(data)-hashLen:])
	body := data[:len(data)-hashLen]
	// git reads the entries from its mapping of the file without a
	// bound: entries that run past the end (a truncated index, a damaged
	// name length) read the trailing checksum and then the zeros that
	// fill the mapping's last page (pagePadded), and past that page
	// whatever the process has mapped next, which is seldom nothing (a
	// name 3,919 bytes long, read 157 bytes past the page, did not crash
	// git). goblame reads zeros there too, for as far as the longest
	// entries the count allows could run (beyond, git would crash or
	// read garbage; goblame calls it corrupt). The padding, a copy of
	// the whole file, is made only for an index whose entries run past
	// its end.
	pix, link, err := parseIndexEntries(ix, data, body, count, version, format, only)
	if err != nil && errors.Is(err, ErrCorruptIndex) {
		if padded := pagePadded(data, int(count)); len(padded) > len(data) {
			retry := &Index{Version: ix.Version, Checksum: ix.Checksum}
			if rix, rlink, rerr := parseIndexEntries(retry, padded, body, count, version, format, only); rerr == nil {
				return rix, rlink, nil
			}
		}
	}
	return pix, link, err
}

// parseIndexEntries reads the count entries of the index into ix from
// entries[12:] (the file as git maps it) and the extensions after them
// from body (the file without its checksum).
func parseIndexEntries(ix *Index, entries, body []byte, count, version uint32, format oid.Format, only *indexFilter) (*Index, *splitLink, error) {
	hashLen := format.Size()
	corrupt := func() error { return &Error{Kind: ErrCorruptIndex, Msg: "index file corrupt"} }
	// Every entry takes at least its fixed part; a count the mapping
	// cannot hold is corrupt.
	fixed := 40 + hashLen + 2
	if uint64(count) > uint64(len(entries)-12)/uint64(fixed-1)+1 {
		return nil, nil, corrupt()
	}
	if only != nil {
		off, err := scanIndexEntries(ix, entries, int(count), int(version), format, only)
		if err != nil {
			return nil, nil, err
		}
		return parseIndexExtensions(ix, body, off, format, only != nil)
	}
	ix.EntryList = make([]IndexEntry, 0, count)
	// Paths are collected into one buffer and become substrings of one
	// string: two allocations instead of one per entry.
	// v2 and v3 names fit in what the fixed parts leave (v4 names are
	// prefix-compressed: up to 4 KiB each, grown as needed).
	room := len(entries) - 12 - int(count)*fixed
	if version == 4 || room < 0 {
		room = len(entries)
	}
	paths := make([]byte, 0, room)
	spans := make([][2]int, 0, count)
	off := 12
	prev := [2]int{}
	for i := uint32(0); i < count; i++ {
		e, size, span, err := parseIndexEntry(entries, off, int(version), format, &paths, prev, i > 0)
		if err != nil {
			return nil, nil, err
		}
		ix.EntryList = append(ix.EntryList, e)
		spans = append(spans, span)
		prev = span
		off += size
	}
	// paths is not written again: the names share its bytes.
	all := unsafe.String(unsafe.SliceData(paths), len(paths))
	for i := range ix.EntryList {
		e := &ix.EntryList[i]
		e.Path = all[spans[i][0]:spans[i][1]]
		if e.IsSparseDir() {
			ix.Sparse = true
		}
		if i > 0 && outOfOrder(paths[spans[i-1][0]:spans[i-1][1]], ix.EntryList[i-1].Stage, paths[spans[i][0]:spans[i][1]], e.Stage) {
			ix.OutOfOrder = true
		}
	}
	return parseIndexExtensions(ix, body, off, format, false)
}

// pagePadded is data as git's mapping of it reads: followed by zeros to
// the end of its last 4 KiB page, and past it by room for count entries
// of the longest name a length field gives (maxPaddedEntry each, at most
// maxIndexPadding in all).
func pagePadded(data []byte, count int) []byte {
	n := (len(data) + 4095) &^ 4095
	n += min(count, maxIndexPadding/maxPaddedEntry) * maxPaddedEntry
	padded := make([]byte, n)
	copy(padded, data)
	return padded
}

// maxPaddedEntry is the size of an index entry whose name length field
// is the largest below the mask (4,094 bytes), with its SHA-256 name and
// extended flags; maxIndexPadding bounds pagePadded's zeros.
const (
	maxPaddedEntry  = (40 + 32 + 4 + 4094 + 8) &^ 7
	maxIndexPadding = 1 << 20
)

// scanIndexEntries checks the count entries from body[12:] as
// parseIndex does and adds those only keeps to ix, in the file's order;
// it returns where the extensions start. Each name but the last (which a
// v4 name is compressed against) is dropped once compared: no allocation
// per entry.
func scanIndexEntries(ix *Index, body []byte, count, version int, format oid.Format, only *indexFilter) (int, error) {
	off := 12
	if version != 4 {
		// Names are whole: each is compared where it lies, and only
		// the path's entries are decoded.
		hashLen := format.Size()
		var names, prevName []byte
		prevStage := 0
		for i := 0; i < count; i++ {
			flags, p, err := indexEntryHead(body, off, hashLen)
			if err != nil {
				return 0, err
			}
			name, size, err := indexEntryName(body, off, flags, p)
			if err != nil {
				return 0, err
			}
			stage := int(flags&IndexStageMask) >> 12
			if i > 0 && outOfOrder(prevName, prevStage, name, stage) {
				ix.OutOfOrder = true
			}
			prevName, prevStage = name, stage
			if path, ok := only.keeps(name); ok {
				e, _, _, err := parseIndexEntry(body, off, version, format, &names, [2]int{}, false)
				if err != nil {
					return 0, err
				}
				e.Path = path
				ix.EntryList = append(ix.EntryList, e)
			}
			if mode := binary.BigEndian.Uint32(body[off+24:]); isSparseDir(mode, flags, name) {
				ix.Sparse = true
			}
			off += size
		}
		return off, nil
	}
	names := make([]byte, 0, 256)
	prev := [2]int{}
	prevStage := 0
	for i := 0; i < count; i++ {
		e, size, span, err := parseIndexEntry(body, off, version, format, &names, prev, i > 0)
		if err != nil {
			return 0, err
		}
		off += size
		name := names[span[0]:span[1]]
		if i > 0 && outOfOrder(names[prev[0]:prev[1]], prevStage, name, e.Stage) {
			ix.OutOfOrder = true
		}
		prevStage = e.Stage
		if path, ok := only.keeps(name); ok {
			e.Path = path
			ix.EntryList = append(ix.EntryList, e)
		}
		if isSparseDir(e.Mode, e.Flags, name) {
			ix.Sparse = true
		}
		// Only the last name is kept: the next is compressed against it.
		n := copy(names, name)
		names = names[:n]
		prev = [2]int{0, n}
	}
	return off, nil
}

// isSparseDir is IndexEntry.IsSparseDir of an entry's mode, flags and
// name.
func isSparseDir(mode, flags uint32, name []byte) bool {
	return mode&0o170000 == 0o040000 && flags&IndexSkipWorktree != 0 && bytes.HasSuffix(name, []byte("/"))
}

// parseIndexExtensions reads the extensions of an index from body[off:]
// into ix; partial (an index read for some paths only) leaves the cache
// tree unread: it is a tree per directory (7,600 in the benchmark's
// index of 20,000 files), which only --indexed-objects asks about, and
// it cannot fail (git drops one it cannot read).
func parseIndexExtensions(ix *Index, body []byte, off int, format oid.Format, partial bool) (*Index, *splitLink, error) {
	hashLen := format.Size()
	// git prints the lines of the extensions it ignored as it reads
	// them, before the error that ends the read.
	corrupt := func(line string) error {
		before := append(append([]string(nil), ix.Messages...), line)
		return &Error{Kind: ErrCorruptIndex, Msg: "index file corrupt", Before: before}
	}
	var link *splitLink
	sawSdir := false
	for off+8 <= len(body) {
		sig := body[off : off+4]
		size := binary.BigEndian.Uint32(body[off+4:])
		start := off + 8
		end := uint64(start) + uint64(size)
		if end > uint64(len(body)) {
			// git reads the extension with its size as given, past
			// the end of its mapping; those goblame ignores are left
			// unread, and the loop ends there as git's does.
			switch string(sig) {
			case "TREE", "REUC", "UNTR", "FSMN", "EOIE", "IEOT", "sdir":
				break
			default:
				if sig[0] >= 'A' && sig[0] <= 'Z' {
					ix.Messages = append(ix.Messages, "ignoring "+cString(string(sig))+" extension")
					return ix, link, nil
				}
				return nil, nil, corrupt(fmt.Sprintf("error: index uses %s extension, which we do not understand", cString(string(sig))))
			}
			return ix, link, nil
		}
		ext := body[start:end]
		switch string(sig) {
		case "TREE":
			if partial {
				break
			}
			if first, ok := cacheTreeFirst(ext, format); ok {
				ix.CacheTreeFirst = first
			}
		case "REUC", "UNTR", "FSMN", "EOIE", "IEOT":
		case "link":
			if len(ext) < hashLen {
				return nil, nil, corrupt("error: corrupt link extension (too short)")
			}
			link = &splitLink{base: oid.FromBytes(format, ext)}
			rest := ext[hashLen:]
			if len(rest) > 0 {
				del, n, ok := readEWAH(rest)
				if !ok {
					return nil, nil, corrupt("error: corrupt delete bitmap in link extension")
				}
				rest = rest[n:]
				rep, n, ok := readEWAH(rest)
				if !ok {
					return nil, nil, corrupt("error: corrupt replace bitmap in link extension")
				}
				if n != len(rest) {
					return nil, nil, corrupt("error: garbage at the end of link extension")
				}
				link.delete, link.replace, link.hasBitmaps = del, rep, true
			}
		case "sdir":
			sawSdir = true
		default:
			if sig[0] < 'A' || sig[0] > 'Z' {
				return nil, nil, corrupt(fmt.Sprintf("error: index uses %s extension, which we do not understand", cString(string(sig))))
			}
			ix.Messages = append(ix.Messages, "ignoring "+cString(string(sig))+" extension")
		}
		off = start + int(size)
	}
	_ = sawSdir // the marker only; the directory entries say it all
	return ix, link, nil
}

// errIndexCorrupt is git's "index file corrupt".
func errIndexCorrupt() error { return &Error{Kind: ErrCorruptIndex, Msg: "index file corrupt"} }

// indexEntryHead checks the fixed part of the entry at body[off:] and
// returns its flags (the extended ones included) and where its name
// starts, relative to off.
func indexEntryHead(body []byte, off, hashLen int) (flags uint32, name int, err error) {
	if off+40+hashLen+2 > len(body) {
		return 0, 0, errIndexCorrupt()
	}
	b := body[off:]
	flags = uint32(binary.BigEndian.Uint16(b[40+hashLen:]))
	name = 40 + hashLen + 2
	if flags&IndexExtended != 0 {
		if name+2 > len(b) {
			return 0, 0, errIndexCorrupt()
		}
		ext := uint32(binary.BigEndian.Uint16(b[name:])) << 16
		if ext&^indexExtendedMask != 0 {
			return 0, 0, newError(ErrCorruptIndex, "unknown index entry format 0x%08x", ext)
		}
		flags |= ext
		name += 2
	}
	return flags, name, nil
}

// indexEntryName returns the name of the v2 or v3 entry at body[off:],
// whose name starts at off+p, and the entry's size.
func indexEntryName(body []byte, off int, flags uint32, p int) (name []byte, size int, err error) {
	b := body[off:]
	nameLen := int(flags & indexNameMask)
	if nameLen == indexNameMask {
		nul := bytes.IndexByte(b[p:], 0)
		if nul < 0 {
			return nil, 0, errIndexCorrupt()
		}
		nameLen = nul
	}
	if p+nameLen > len(b) {
		return nil, 0, errIndexCorrupt()
	}
	size = (p + nameLen + 8) &^ 7
	if size > len(b) {
		return nil, 0, errIndexCorrupt()
	}
	return b[p : p+nameLen], size, nil
}

// parseIndexEntry decodes the entry at body[off:], appending its path
// to *paths; span is where it landed there, prev the previous entry's.
func parseIndexEntry(body []byte, off, version int, format oid.Format, paths *[]byte, prev [2]int, hasPrev bool) (e IndexEntry, size int, span [2]int, err error) {
	hashLen := format.Size()
	flags, p, err := indexEntryHead(body, off, hashLen)
	if err != nil {
		return IndexEntry{}, 0, span, err
	}
	b := body[off:]
	be := binary.BigEndian
	e = IndexEntry{
		CTimeSec: be.Uint32(b[0:]), CTimeNsec: be.Uint32(b[4:]),
		MTimeSec: be.Uint32(b[8:]), MTimeNsec: be.Uint32(b[12:]),
		Dev: be.Uint32(b[16:]), Ino: be.Uint32(b[20:]), Mode: be.Uint32(b[24:]),
		UID: be.Uint32(b[28:]), GID: be.Uint32(b[32:]), Size: be.Uint32(b[36:]),
	}
	e.ID = oid.FromBytes(format, b[40:])
	e.Flags = flags &^ indexNameMask
	e.Stage = int(flags&IndexStageMask) >> 12
	start := len(*paths)
	if version == 4 {
		strip, n := decodeIndexVarint(b[p:])
		if n == 0 {
			return IndexEntry{}, 0, span, errIndexCorrupt()
		}
		p += n
		keep := 0
		if hasPrev {
			prevLen := prev[1] - prev[0]
			if uint64(prevLen) < strip {
				return IndexEntry{}, 0, span, newError(ErrCorruptIndex, "malformed name field in the index, near path '%s'", (*paths)[prev[0]:prev[1]])
			}
			keep = prevLen - int(strip)
		}
		nul := bytes.IndexByte(b[p:], 0)
		if nul < 0 {
			return IndexEntry{}, 0, span, errIndexCorrupt()
		}
		*paths = append(*paths, (*paths)[prev[0]:prev[0]+keep]...)
		*paths = append(*paths, b[p:p+nul]...)
		return e, p + nul + 1, [2]int{start, len(*paths)}, nil
	}
	name, size, err := indexEntryName(body, off, flags, p)
	if err != nil {
		return IndexEntry{}, 0, span, err
	}
	*paths = append(*paths, name...)
	return e, size, [2]int{start, len(*paths)}, nil
}

// decodeIndexVarint reads git's offset varint (varint.c): 7 bits per
// byte, most significant first, with one added per continuation.
func decodeIndexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || val+1 > 1<<57 {
			return 0, 0
		}
		c = b[i]
		i++
		val = ((val + 1) << 7) | uint64(c&127)
	}
	return val, i
}

// mergeSplitIndex applies a split index to its shared base: replaced
// base entries take the new data (keeping their names), deleted ones go,
// and the named entries of the split index are added in order.
func mergeSplitIndex(ix, base *Index, link *splitLink) (*Index, error) {
	entries := append([]IndexEntry(nil), base.EntryList...)
	saved := ix.EntryList
	replaced := 0
	deleted := make([]bool, len(entries))
	var err error
	fail := func(format string, args ...any) bool {
		err = newError(ErrCorruptIndex, format, args...)
		return false
	}
	if link.hasBitmaps {
		link.replace.each(func(pos uint64) bool {
			if pos >= uint64(len(entries)) {
				return fail("position for replacement %d exceeds base index size %d", pos, len(entries))
			}
			if replaced >= len(saved) {
				return fail("too many replacements (%d vs %d)", replaced, len(saved))
			}
			src := saved[replaced]
			if src.Path != "" {
				return fail("corrupt link extension, entry %d should have zero length name", pos)
			}
			src.Path = entries[pos].Path
			src.Flags |= indexUpdateInBase
			entries[pos] = src
			replaced++
			return true
		})
		if err != nil {
			return nil, err
		}
		link.delete.each(func(pos uint64) bool {
			if pos >= uint64(len(entries)) {
				return fail("position for existing entry %d exceeds base index size %d", pos, len(entries))
			}
			deleted[pos] = true
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	merged := entries[:0]
	for i, e := range entries {
		if !deleted[i] {
			merged = append(merged, e)
		}
	}
	out := &Index{Version: ix.Version, EntryList: merged, Messages: append(base.Messages, ix.Messages...), Checksum: ix.Checksum}
	for i := replaced; i < len(saved); i++ {
		e := saved[i]
		if e.Path == "" {
			return nil, newError(ErrCorruptIndex, "corrupt link extension, entry %d should have name", i)
		}
		out.insert(e)
	}
	for i := range out.EntryList {
		if out.EntryList[i].IsSparseDir() {
			out.Sparse = true
		}
	}
	return out, nil
}

// insert adds e in order, replacing an entry with the same path and
// stage.
func (ix *Index) insert(e IndexEntry) {
	i := sort.Search(len(ix.EntryList), func(i int) bool {
		x := &ix.EntryList[i]
		if x.Path != e.Path {
			return x.Path > e.Path
		}
		return x.Stage >= e.Stage
	})
	if i < len(ix.EntryList) && ix.EntryList[i].Path == e.Path && ix.EntryList[i].Stage == e.Stage {
		ix.EntryList[i] = e
		return
	}
	ix.EntryList = append(ix.EntryList, IndexEntry{})
	copy(ix.EntryList[i+1:], ix.EntryList[i:])
	ix.EntryList[i] = e
}

// Expand replaces every sparse directory entry by the files of its tree,
// as git's ensure_full_index does (each with skip-worktree set).
func (ix *Index) Expand(rd *odb.Reader, format oid.Format) error {
	if !ix.Sparse {
		return nil
	}
	var out []IndexEntry
	var buf []byte
	var walk func(tree oid.ID, prefix string) error
	walk = func(tree oid.ID, prefix string) error {
		typ, data, err := rd.Read(tree, buf)
		if err != nil {
			return err
		}
		if typ != object.Tree {
			return newError(ErrCorruptIndex, "index entry is a directory, but not sparse (%s)", prefix)
		}
		body := append([]byte(nil), data...)
		buf = data
		it := object.NewTreeIter(format, body)
		var te object.TreeEntry
		for it.Next(&te) {
			name := prefix + string(te.Name)
			if object.IsTree(te.Mode) {
				if err := walk(te.ID, name+"/"); err != nil {
					return err
				}
				continue
			}
			out = append(out, IndexEntry{Path: name, Mode: te.Mode, ID: te.ID,
				Flags: IndexSkipWorktree | IndexExtended})
		}
		return it.Err()
	}
	for _, e := range ix.EntryList {
		if !e.IsSparseDir() {
			out = append(out, e)
			continue
		}
		if err := walk(e.ID, e.Path); err != nil {
			return err
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Stage < out[j].Stage
	})
	ix.EntryList = out
	ix.Sparse = false
	return nil
}

// indexOpenError is git's death when it cannot read the index file name:
// a directory it opens and then maps, unless it is smaller than an
// index's header and checksum; anything else cannot be opened.
func indexOpenError(err error, name string, format oid.Format) error {
	if size, dir := fsread.DirSize(err); dir {
		if size < int64(12+format.Size()) {
			return newError(ErrCorruptIndex, "%s: index file smaller than expected", name)
		}
		return &Error{Kind: ErrCorruptIndex, Msg: name + ": unable to map index file: No such device", Err: err}
	}
	return &Error{Kind: ErrCorruptIndex, Msg: name + ": index file open failed: " + errnoText(err), Err: err}
}

// cacheTreeFirst reads a TREE extension as cache_tree_read does and
// returns its first valid tree in the order git's --indexed-objects
// lists them (add_cache_tree: a node's own tree, then its subtrees in
// subtree_name_cmp's order, shorter names first, each with its own),
// zero for none; ok is false where git's read fails (and the index has
// no cache tree): the root named other than "", a count that is no
// number, a node cut short. Nothing is allocated: a full read of the
// index reads it (7,600 directories in BenchmarkReadIndex's).
func cacheTreeFirst(ext []byte, format oid.Format) (first oid.ID, ok bool) {
	if len(ext) == 0 || ext[0] != 0 {
		return oid.ID{}, false
	}
	_, first, _, ok = cacheTreeNodeFirst(ext, format, 0)
	return first, ok
}

// maxCacheTreeDepth bounds the nesting a damaged extension could claim.
const maxCacheTreeDepth = 4096

// cacheTreeNodeFirst reads the node at buf's start: its name, the first
// valid tree of it and its subtrees (cacheTreeFirst's order: the
// subtree of the least name, the first of equal ones, that has one),
// and what follows it.
func cacheTreeNodeFirst(buf []byte, format oid.Format, depth int) (name []byte, first oid.ID, rest []byte, ok bool) {
	nul := bytes.IndexByte(buf, 0)
	if nul < 0 || nul+1 >= len(buf) || depth > maxCacheTreeDepth {
		return nil, oid.ID{}, nil, false
	}
	name = buf[:nul]
	buf = buf[nul+1:]
	nl := bytes.IndexByte(buf, '\n')
	if nl < 0 {
		return nil, oid.ID{}, nil, false
	}
	// (strtol twice, each with at least one digit.)
	line := string(buf[:nl])
	count, end, _ := cnum.Strtol(line, 10)
	if end == 0 {
		return nil, oid.ID{}, nil, false
	}
	nsub, end2, _ := cnum.Strtol(line[end:], 10)
	if end2 == 0 {
		return nil, oid.ID{}, nil, false
	}
	buf = buf[nl+1:]
	valid := count >= 0
	if valid {
		if len(buf) < format.Size() {
			return nil, oid.ID{}, nil, false
		}
		first = oid.FromBytes(format, buf[:format.Size()])
		buf = buf[format.Size():]
	}
	var best []byte
	for i := int64(0); i < nsub; i++ {
		sub, subFirst, after, ok := cacheTreeNodeFirst(buf, format, depth+1)
		if !ok {
			return nil, oid.ID{}, nil, false
		}
		buf = after
		if !valid && !subFirst.IsZero() && (best == nil || subtreeNameLess(sub, best)) {
			best, first = sub, subFirst
		}
	}
	return name, first, buf, true
}

// subtreeNameLess is subtree_name_cmp's order: shorter names first,
// then bytes.
func subtreeNameLess(a, b []byte) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return bytes.Compare(a, b) < 0
}
