package diff

import (
	"bytes"
	"hash/maphash"
	"slices"
)

// isGitSpace reports whether c is whitespace to git (its sane_ctype
// isspace): space, tab, newline and carriage return only.
func isGitSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// lineTable interns lines: every distinct line (or, under -w, every
// distinct line once whitespace is deleted) gets a small integer id, the
// same for every File prepared through the same table. Ids play the role
// of xdiff's equivalence classes; their values carry no order.
type lineTable struct {
	ignoreWS bool
	seed     maphash.Seed
	gen      uint64 // changes on reset, invalidating Files

	// slots is an open-addressing table: the high 32 bits of a line's
	// hash above its id+1 (0 for an empty slot), so that most misses are
	// decided without touching the line.
	slots  []uint64
	mask   uint64
	hashes []uint64  // per id, for growing the table
	locs   []uint64  // per id, where arena holds its line
	arena  lineArena // line contents (normalised under -w)
	norm   []byte    // scratch for -w normalisation
}

func newLineTable(ignoreWS bool) *lineTable {
	t := &lineTable{ignoreWS: ignoreWS, seed: maphash.MakeSeed()}
	t.reset(true)
	return t
}

// reset forgets every line. With release, a large table is also shrunk
// and its memory released; without, the memory is kept for reuse.
func (t *lineTable) reset(release bool) {
	t.gen++
	if t.slots == nil || (release && len(t.slots) > 1<<16) {
		t.slots = make([]uint64, 1024)
		if release {
			t.hashes, t.locs = nil, nil
		}
	} else {
		clear(t.slots)
	}
	t.mask = uint64(len(t.slots) - 1)
	t.hashes = t.hashes[:0]
	t.locs = t.locs[:0]
	t.arena.reset(release)
}

// count is the number of distinct ids handed out.
func (t *lineTable) count() int { return len(t.hashes) }

// intern returns the id of line.
func (t *lineTable) intern(line []byte) uint32 {
	key := line
	if t.ignoreWS {
		key = t.normalise(line)
	}
	h := maphash.Bytes(t.seed, key)
	tag := h &^ 0xffffffff
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s == 0 {
			id := uint32(len(t.hashes))
			t.slots[i] = tag | uint64(id+1)
			t.hashes = append(t.hashes, h)
			t.locs = append(t.locs, t.arena.add(key))
			if uint64(len(t.hashes))*2 > uint64(len(t.slots)) {
				t.grow()
			}
			return id
		}
		if s&^0xffffffff != tag {
			continue
		}
		id := uint32(s) - 1
		if bytes.Equal(t.arena.line(t.locs[id]), key) {
			return id
		}
	}
}

// reserveMinBytes is the size from which splitInto sizes the table and
// the File for a text's lines before interning them, rather than growing
// them as the lines come: a first large file (git/git diff.c, 7,700
// lines) doubled the slot table four times, rehashing every id each
// time, and copied its line arena as often, all on fresh pages.
const reserveMinBytes = 16 << 10

// reserveMaxLines and reserveMaxBytes cap what reserve readies: a text's
// lines are the table's ids only where most are distinct, and a huge
// repetitive one (a million copies of two lines) had 4M slots and a
// 8.6 MB arena reserved for two ids, kept for the Differ's life. Past the
// caps the table grows as the ids come.
const (
	reserveMaxLines = 1 << 16
	reserveMaxBytes = 4 << 20
)

// reserve readies t for up to lines more ids holding up to bytes more
// line bytes: room in the arena and the per-id slices, and slots for
// them at most half full. It does nothing where t already holds as many
// ids as are coming (most of a version's lines are known by then).
func (t *lineTable) reserve(lines, bytes int) {
	if t.count() >= lines {
		return
	}
	lines, bytes = min(lines, reserveMaxLines), min(bytes, reserveMaxBytes)
	t.arena.reserve(bytes)
	t.hashes = slices.Grow(t.hashes, lines)
	t.locs = slices.Grow(t.locs, lines)
	want := uint64(len(t.slots))
	for uint64(t.count()+lines)*2 > want {
		want *= 2
	}
	if want > uint64(len(t.slots)) {
		t.rehash(want)
	}
}

func (t *lineTable) grow() {
	t.rehash(uint64(len(t.slots)) * 2)
}

// rehash moves the ids to a slot table of n slots (a power of two).
func (t *lineTable) rehash(n uint64) {
	t.slots = make([]uint64, n)
	t.mask = uint64(n - 1)
	for id, h := range t.hashes {
		i := h & t.mask
		for t.slots[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = h&^0xffffffff | uint64(id+1)
	}
}

// normalise deletes git's whitespace from line into t.norm.
func (t *lineTable) normalise(line []byte) []byte {
	n := t.norm[:0]
	for _, c := range line {
		if !isGitSpace(c) {
			n = append(n, c)
		}
	}
	t.norm = n
	return n
}

// File is a blob split into lines, each line interned as an id by a
// Differ. Prepare a blob once and diff it as often as needed (in blame
// every version is diffed against its child and against its parent).
//
// A File keeps a reference to the data it was prepared from; the caller
// must not modify those bytes while the File is in use.
type File struct {
	data  []byte
	ends  []int32  // ends[i] is the offset just past line i (its '\n', if any)
	ids   []uint32 // ids[i] is the interned id of line i
	table *lineTable
	gen   uint64
}

// Lines is the number of lines (xdiff records): a line ends after each
// '\n', and a final fragment without '\n' is a line too.
func (f *File) Lines() int { return len(f.ids) }

// Line returns line i including its newline, if any.
func (f *File) Line(i int) []byte {
	return f.data[f.start(i):f.ends[i]]
}

// Data returns the bytes the File was prepared from.
func (f *File) Data() []byte { return f.data }

func (f *File) start(i int) int {
	if i == 0 {
		return 0
	}
	return int(f.ends[i-1])
}

// splitInto appends the line ends and ids of data[from:] (which starts at
// a line boundary) to f.
func (f *File) splitInto(t *lineTable, from int) {
	data := f.data
	if rest := len(data) - from; rest >= reserveMinBytes {
		n := bytes.Count(data[from:], []byte{'\n'}) + 1
		f.ends = slices.Grow(f.ends, n)
		f.ids = slices.Grow(f.ids, n)
		t.reserve(n, rest)
	}
	for from < len(data) {
		end := len(data)
		if j := bytes.IndexByte(data[from:], '\n'); j >= 0 {
			end = from + j + 1
		}
		f.ends = append(f.ends, int32(end))
		f.ids = append(f.ids, t.intern(data[from:end]))
		from = end
	}
}

// linesUpTo returns how many lines of f end at or before byte offset n,
// where n is known to be a line boundary of f.
func (f *File) linesUpTo(n int) int {
	lo, hi := 0, len(f.ends)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(f.ends[m]) <= n {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
