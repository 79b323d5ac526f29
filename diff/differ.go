package diff

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Differ computes diffs whose hunks are those of git 2.39.5's xdiff. It
// owns the tables that intern lines for the Files it prepares, and work
// arrays reused from one diff to the next, so a steady stream of diffs
// allocates little. A Differ is not safe for concurrent use; use one per
// goroutine (Files prepared by one Differ are only diffed by that Differ).
type Differ struct {
	exact, ws *lineTable // line ids for prepared Files, without and with -w

	// The byte-slice entry points keep their own tables and remember the
	// last few blobs they prepared (blame diffs each version twice).
	byteTables [2]*lineTable
	recent     [recentFiles]recentFile
	tick       uint64

	myers     myersState
	nearIndex []int32 // PrepareNear's resync index: per id, 1+line in near, -1 if repeated
	ch        []byte
	hist      histState
	pat       patState
	err       error
}

// NewDiffer returns a Differ with empty tables.
func NewDiffer() *Differ {
	return &Differ{}
}

func (d *Differ) table(ignoreWS bool) *lineTable {
	if ignoreWS {
		if d.ws == nil {
			d.ws = newLineTable(true)
		}
		return d.ws
	}
	if d.exact == nil {
		d.exact = newLineTable(false)
	}
	return d.exact
}

// recentFiles is how many blobs the byte-slice entry points remember.
const recentFiles = 4

// Limits past which the byte-slice entry points start their tables
// afresh, so that a long-lived Differ fed unrelated blobs stays bounded.
const (
	byteTableMaxLines = 1 << 20
	byteTableMaxBytes = 64 << 20
)

// recentFile is a blob prepared by the byte-slice entry points, with a
// private copy of its bytes (the caller may reuse its buffer).
type recentFile struct {
	f    File
	copy []byte
	used uint64
}

func (d *Differ) byteTable(ignoreWS bool) *lineTable {
	i := 0
	if ignoreWS {
		i = 1
	}
	t := d.byteTables[i]
	if t == nil {
		t = newLineTable(ignoreWS)
		d.byteTables[i] = t
	} else if t.count() > byteTableMaxLines || t.arena.bytes > byteTableMaxBytes {
		t.reset(true)
	}
	return t
}

// bytesFile returns a prepared File for data: a remembered one if a
// remembered blob has the same bytes, else a new one prepared next to
// near (or next to the most recently used blob), replacing the least
// recently used entry other than near.
func (d *Differ) bytesFile(t *lineTable, data []byte, near *File) *File {
	d.tick++
	var victim, newest *recentFile
	for i := range d.recent {
		r := &d.recent[i]
		valid := r.f.table == t && r.f.gen == t.gen
		if valid && len(r.copy) == len(data) && bytes.Equal(r.copy, data) {
			r.used = d.tick
			return &r.f
		}
		if &r.f == near {
			continue
		}
		if !valid {
			r.used = 0
		}
		if victim == nil || r.used < victim.used {
			victim = r
		}
		if valid && (newest == nil || r.used > newest.used) {
			newest = r
		}
	}
	if near == nil && newest != nil && newest != victim {
		near = &newest.f
	}
	victim.copy = append(victim.copy[:0], data...)
	victim.used = d.tick
	prepareNear(&victim.f, t, victim.copy, near, &d.nearIndex)
	return &victim.f
}

// InternedBytes returns about how much memory the line tables of
// Prepare and PrepareNear hold: the lines interned so far (every distinct
// line of every File prepared since the last Reset) and their index.
func (d *Differ) InternedBytes() int {
	n := 0
	for _, t := range []*lineTable{d.exact, d.ws} {
		if t != nil {
			n += t.arena.bytes + 16*len(t.hashes)
		}
	}
	return n
}

// Reset forgets every interned line and remembered blob, releasing the
// memory the tables hold. Files prepared before Reset can no longer be
// diffed (ErrForeignFile).
func (d *Differ) Reset() { d.forget(true) }

// Clear forgets every interned line and remembered blob as Reset does,
// but keeps the tables' memory for the lines prepared after it (a
// caller that bounds the tables by clearing them when they grow past a
// budget then holds that much, and writes no fresh pages for the next).
func (d *Differ) Clear() { d.forget(false) }

func (d *Differ) forget(release bool) {
	if d.exact != nil {
		d.exact.reset(release)
	}
	if d.ws != nil {
		d.ws.reset(release)
	}
	for _, t := range d.byteTables {
		if t != nil {
			t.reset(release)
		}
	}
	for i := range d.recent {
		d.recent[i] = recentFile{}
	}
}

// Prepare splits data into lines and interns them for diffing with opts
// (only opts.IgnoreWhitespace matters: it decides which lines are equal).
// It fills f, reusing its slices, or a new File if f is nil. The File
// refers to data, which must stay unchanged while the File is used.
func (d *Differ) Prepare(f *File, data []byte, opts Options) (*File, error) {
	return d.PrepareNear(f, data, nil, opts)
}

// PrepareNear is Prepare for data that is likely to share most of its
// lines with near, an already prepared File (in blame: the child's version
// of the same file). Lines in the common byte prefix and suffix of the two
// take their ids from near instead of being hashed again. The result is
// identical to Prepare's. near may be nil; it must not be f.
func (d *Differ) PrepareNear(f *File, data []byte, near *File, opts Options) (*File, error) {
	if len(data) > MaxFileSize {
		return nil, ErrTooLarge
	}
	t := d.table(opts.IgnoreWhitespace)
	if f == nil {
		f = new(File)
	}
	if near != nil && (near.table != t || near.gen != t.gen) {
		near = nil
	}
	prepareNear(f, t, data, near, &d.nearIndex)
	return f, nil
}

func prepareNear(f *File, t *lineTable, data []byte, near *File, index *[]int32) {
	f.data = data
	f.table = t
	f.gen = t.gen
	f.ends = f.ends[:0]
	f.ids = f.ids[:0]
	if near == nil || near == f {
		f.splitInto(t, 0)
		return
	}
	nd := near.data

	// Lines wholly inside the common prefix (and ending in a newline, so
	// that the line cannot continue differently) are copied.
	p := commonPrefix(data, nd)
	k := near.linesUpTo(p)
	if k > 0 && nd[near.ends[k-1]-1] != '\n' {
		k-- // only possible for a final line without newline
	}
	if p == len(data) && p == len(nd) {
		k = near.Lines()
	}
	f.ends = append(f.ends, near.ends[:k]...)
	f.ids = append(f.ids, near.ids[:k]...)
	head := f.start(k)

	// Lines wholly inside the common suffix, beyond the copied prefix,
	// are copied too (with their ends shifted), provided that the first
	// of them also starts a line in data.
	q := commonSuffix(data[head:], nd[head:])
	delta := len(data) - len(nd)
	from := len(nd) - q
	j := near.linesUpTo(from) // the first line ending after from ...
	if j < near.Lines() && near.start(j) < from {
		j++ // ... straddles from: the suffix starts with the next line
	}
	if j < near.Lines() {
		if s := near.start(j) + delta; s != head && data[s-1] != '\n' {
			j++
		}
	}
	tailStart := len(data)
	if j < near.Lines() {
		tailStart = near.start(j) + delta
	}
	// The middle is walked in lockstep with near's middle lines: a line
	// equal in bytes to the next line of near takes its id (and the
	// shifted end); any other line is split off and interned, and its id
	// is looked for among near's next lines to find the place again.
	// Either way each id is exact; the lockstep only saves hashing.
	pos, nj := head, k
	nearMidEnd := near.start(j)
	indexed := false
	misses := 0 // consecutive lines found neither in step nor just ahead
	for pos < tailStart {
		if nj < j {
			s := near.start(nj)
			m := commonPrefix(data[pos:tailStart], nd[s:nearMidEnd])
			// near's lines wholly inside the common run are data's too.
			q := nj
			for q < j && int(near.ends[q]) <= s+m {
				q++
			}
			if q > nj && nd[near.ends[q-1]-1] != '\n' && pos+int(near.ends[q-1])-s != len(data) {
				q-- // a final line without newline, but data goes on
			}
			if q > nj {
				shift := int32(pos - s)
				for r := nj; r < q; r++ {
					f.ends = append(f.ends, near.ends[r]+shift)
				}
				f.ids = append(f.ids, near.ids[nj:q]...)
				pos += int(near.ends[q-1]) - s
				nj = q
				misses = 0
				continue
			}
		}
		end := tailStart
		if i := bytes.IndexByte(data[pos:tailStart], '\n'); i >= 0 {
			end = pos + i + 1
		}
		id := t.intern(data[pos:end])
		f.ends = append(f.ends, int32(end))
		f.ids = append(f.ids, id)
		pos = end
		found := false
		for look := nj; look < j && look < nj+lockstepLookahead; look++ {
			// A match just ahead counts if the following line agrees too
			// (a lone "}" or blank line matches all over the place).
			if near.ids[look] == id && (look+1 == j || hasLinePrefix(data[end:tailStart], near, look+1)) {
				nj = look + 1
				found = true
				break
			}
		}
		if found {
			misses = 0
		} else if misses++; misses >= lostAfter {
			// Lost: find the line in near's middle if it is unique there
			// (a moved block), building the index of near's middle lines
			// on first need.
			if !indexed {
				indexed = true
				buildNearIndex(index, near.ids[k:j], k, t.count())
			}
			if int(id) < len(*index) {
				if p := (*index)[id]; p > 0 {
					nj = int(p)
				}
			}
		}
	}
	if indexed {
		for _, id := range near.ids[k:j] {
			(*index)[id] = 0
		}
	}
	for i := j; i < near.Lines(); i++ {
		f.ends = append(f.ends, near.ends[i]+int32(delta))
	}
	f.ids = append(f.ids, near.ids[j:]...)
}

// lockstepLookahead is how far PrepareNear looks ahead in near for a line
// that did not match where it expected.
const lockstepLookahead = 16

// lostAfter is how many consecutive unmatched lines make PrepareNear look
// for its place with an index of near's lines.
const lostAfter = 8

// hasLinePrefix reports whether rest starts with near's line i.
func hasLinePrefix(rest []byte, near *File, i int) bool {
	line := near.Line(i)
	return len(rest) >= len(line) && bytes.Equal(rest[:len(line)], line)
}

// buildNearIndex records, for each id of near's middle lines (which start
// at line first), 1+its line number, or -1 if it occurs more than once.
// The index must be all zero for those ids on entry; the caller clears it.
func buildNearIndex(index *[]int32, ids []uint32, first, nids int) {
	if len(*index) < nids {
		*index = make([]int32, nids+nids/4)
	}
	idx := *index
	for i, id := range ids {
		if idx[id] == 0 {
			idx[id] = int32(first + i + 1)
		} else {
			idx[id] = -1
		}
	}
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+256 <= n && bytes.Equal(a[i:i+256], b[i:i+256]) {
		i += 256
	}
	for i+8 <= n {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	la, lb := len(a), len(b)
	i := 0
	for i+256 <= n && bytes.Equal(a[la-i-256:la-i], b[lb-i-256:lb-i]) {
		i += 256
	}
	for i+8 <= n {
		if x := binary.BigEndian.Uint64(a[la-i-8:]) ^ binary.BigEndian.Uint64(b[lb-i-8:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
		i += 8
	}
	for i < n && a[la-1-i] == b[lb-1-i] {
		i++
	}
	return i
}

// Err returns the error of the last Diff or BlameDiff call, which return
// no error themselves: ErrTooLarge, or ErrHistogramOverflow, the only ways
// a diff can fail (git fails on the same inputs).
func (d *Differ) Err() error { return d.err }

// Diff is xdl_diff with context 0: the hunks git's xdiff reports for a and
// b, in increasing order, appended to dst[:0]. It does not trim the
// common tail; BlameDiff does. On failure (see Err) it returns dst[:0].
//
// The byte-slice entry points prepare a and b as Files behind the scenes
// and remember the last four blobs (by a private copy of their bytes, so
// the caller may reuse its buffers): a blob diffed again is not split or
// hashed again, and a new blob is prepared next to a remembered one
// (PrepareNear), so only its changed lines are hashed. Blame, which diffs
// every version against its child and then against its parent, gets most
// of the benefit of prepared Files this way.
func (d *Differ) Diff(dst []Hunk, a, b []byte, opts Options) []Hunk {
	return d.bytesDiff(dst, a, b, opts, false)
}

// BlameDiff is what git blame (and git diff -U0) runs: TrimCommonTail,
// then Diff.
func (d *Differ) BlameDiff(dst []Hunk, a, b []byte, opts Options) []Hunk {
	return d.bytesDiff(dst, a, b, opts, true)
}

func (d *Differ) bytesDiff(dst []Hunk, a, b []byte, opts Options, trim bool) []Hunk {
	d.err = nil
	dst = dst[:0]
	if len(a) > MaxFileSize || len(b) > MaxFileSize {
		d.err = ErrTooLarge
		return dst
	}
	t := d.byteTable(opts.IgnoreWhitespace)
	fb := d.bytesFile(t, b, nil)
	fa := d.bytesFile(t, a, fb)
	na, nb := fa.Lines(), fb.Lines()
	if trim {
		if cut := trimmedTail(fa.data, fb.data); cut > 0 {
			na = fa.linesUpTo(len(fa.data) - cut)
			nb = fb.linesUpTo(len(fb.data) - cut)
		}
	}
	dst, d.err = d.diffLines(dst, fa, fb, na, nb, opts)
	return dst
}

// DiffFiles is Diff on prepared Files.
func (d *Differ) DiffFiles(dst []Hunk, a, b *File, opts Options) ([]Hunk, error) {
	if err := d.check(a, b, opts); err != nil {
		return dst[:0], err
	}
	return d.diffLines(dst[:0], a, b, a.Lines(), b.Lines(), opts)
}

// BlameDiffFiles is BlameDiff on prepared Files: the common tail is
// trimmed (in bytes, exactly as git does) and the remaining lines diffed.
func (d *Differ) BlameDiffFiles(dst []Hunk, a, b *File, opts Options) ([]Hunk, error) {
	if err := d.check(a, b, opts); err != nil {
		return dst[:0], err
	}
	na, nb := a.Lines(), b.Lines()
	if cut := trimmedTail(a.data, b.data); cut > 0 {
		na = a.linesUpTo(len(a.data) - cut)
		nb = b.linesUpTo(len(b.data) - cut)
	}
	return d.diffLines(dst[:0], a, b, na, nb, opts)
}

func (d *Differ) check(a, b *File, opts Options) error {
	t := d.ws
	if !opts.IgnoreWhitespace {
		t = d.exact
	}
	if t == nil || a == nil || b == nil || a.table != t || b.table != t || a.gen != t.gen || b.gen != t.gen {
		return ErrForeignFile
	}
	if len(a.data) > MaxFileSize || len(b.data) > MaxFileSize {
		return ErrTooLarge
	}
	return nil
}

// diffLines diffs the first na lines of a with the first nb lines of b.
func (d *Differ) diffLines(dst []Hunk, a, b *File, na, nb int, opts Options) ([]Hunk, error) {
	ida, idb := a.ids[:na], b.ids[:nb]
	need := na + nb + 4
	if cap(d.ch) < need {
		d.ch = make([]byte, need+need/4)
	}
	ch := d.ch[:need]
	clear(ch)
	chA, chB := ch[:na+2], ch[na+2:]
	nids := a.table.count()

	switch opts.Algorithm {
	case Histogram:
		if err := d.hist.run(d, ida, idb, chA[1:na+1], chB[1:nb+1], nids, opts.Minimal); err != nil {
			return dst, err
		}
	case Patience:
		d.pat.run(d, ida, idb, chA[1:na+1], chB[1:nb+1], nids, opts.Minimal)
	default:
		d.myers.classic(ida, idb, chA[1:na+1], chB[1:nb+1], nids, opts.Minimal)
	}

	sa := side{f: a, ids: ida, ch: chA, n: na}
	sb := side{f: b, ids: idb, ch: chB, n: nb}
	compact(&sa, &sb, opts.IndentHeuristic)
	compact(&sb, &sa, opts.IndentHeuristic)
	return buildScript(dst, &sa, &sb), nil
}

// buildScript is xdl_build_script: walk both files together; each place
// where either has changed lines is one hunk.
func buildScript(dst []Hunk, a, b *side) []Hunk {
	i, j := 0, 0
	for i < a.n || j < b.n {
		if a.changed(i) || b.changed(j) {
			si, sj := i, j
			for a.changed(i) {
				i++
			}
			for b.changed(j) {
				j++
			}
			dst = append(dst, Hunk{OldStart: si, OldCount: i - si, NewStart: sj, NewCount: j - sj})
			continue
		}
		i++
		j++
	}
	return dst
}
