package charset

import (
	_ "embed"
	"sort"
	"sync"
)

// tableData holds the tables of every character set converted by table,
// generated from glibc's iconv (internal/gen/tablegen; the format is
// described there, at table.encode).
//
//go:embed tables.bin
var tableData string

// table is a character set converted by table: the byte sequences (of one
// to four bytes) each decoding to one or two code points, and the code
// points each encoding to bytes, as glibc's iconv converts them. The data
// is unpacked the first time the character set converts something.
type table struct {
	name     string
	off, end int

	once  sync.Once
	state *tableState // nil if the data does not unpack
}

// tableState is a table unpacked.
type tableState struct {
	dec      trie
	decPairs [][2]rune // the sequences decoding to two code points
	runs     []gbRun   // GB18030's four-byte sequences, by linear index
	runsByCP []gbRun   // the same, by code point
	anyHeld  bool
	held     [256]bool // single bytes held back to combine with the next
	compose  map[composeKey]composed
	enc      map[rune]packed // what is not the four-byte runs'
	skipTags bool
	starters map[rune]bool // code points held back to combine with the next
	encPairs map[[2]rune]packed
	hasPairs bool
}

// gbRun is a stretch of GB18030's four-byte sequences, numbered in order
// from 81 30 81 30, decoding to consecutive code points.
type gbRun struct {
	linear, first, n int32
}

type composeKey struct {
	pending rune
	next    byte
}

type composed struct {
	r    rune
	held bool
}

// packed is a short byte sequence in an integer: its length in the top
// byte, its bytes from the lowest. cannotEncode marks a code point the
// encoder fails on.
type packed uint64

const cannotEncode packed = 1<<64 - 1

func pack(b []byte) (packed, bool) {
	if len(b) > 7 {
		return 0, false
	}
	p := packed(len(b)) << 56
	for i, c := range b {
		p |= packed(c) << (8 * i)
	}
	return p, true
}

func (p packed) appendTo(dst []byte) []byte {
	for i := 0; i < int(p>>56); i++ {
		dst = append(dst, byte(p>>(8*i)))
	}
	return dst
}

func (t *table) unpacked() *tableState {
	t.once.Do(func() {
		if t.off < 0 || t.end > len(tableData) || t.off > t.end {
			return
		}
		t.state = unpackTable(tableData[t.off:t.end])
	})
	return t.state
}

func (t *table) decode(dst []rune, src []byte) ([]rune, bool) {
	s := t.unpacked()
	if s == nil {
		return dst, false
	}
	if s.anyHeld {
		return s.decodeHeld(dst, src)
	}
	for i := 0; i < len(src); {
		if s.runs != nil && i+1 < len(src) && 0x81 <= src[i] && src[i] <= 0xFE && 0x30 <= src[i+1] && src[i+1] <= 0x39 {
			r, ok := s.fourByte(src[i:])
			if !ok {
				return dst, false
			}
			dst = append(dst, r)
			i += 4
			continue
		}
		v, n, ok := s.dec.lookup(src[i:])
		if !ok {
			return dst, false
		}
		if v >= 0x110000 {
			p := s.decPairs[v-0x110000]
			dst = append(dst, p[0], p[1])
		} else {
			dst = append(dst, rune(v))
		}
		i += n
	}
	return dst, true
}

// decodeHeld decodes a single-byte character set whose decoder holds a
// character back until it sees whether the next one combines with it
// (CP1255, CP1258, TCVN). What is still held at the end is not written:
// git does not flush iconv.
func (s *tableState) decodeHeld(dst []rune, src []byte) ([]rune, bool) {
	pending, havePending := rune(0), false
	for _, b := range src {
		v, _, ok := s.dec.lookup([]byte{b})
		if !ok {
			return dst, false
		}
		if havePending {
			if c, ok := s.compose[composeKey{pending, b}]; ok {
				if c.held {
					pending = c.r
				} else {
					dst = append(dst, c.r)
					havePending = false
				}
				continue
			}
			dst = append(dst, pending)
			havePending = false
		}
		if s.held[b] {
			pending, havePending = rune(v), true
		} else {
			dst = append(dst, rune(v))
		}
	}
	return dst, true
}

// fourByte decodes a four-byte GB18030 sequence.
func (s *tableState) fourByte(b []byte) (rune, bool) {
	if len(b) < 4 || b[2] < 0x81 || b[2] > 0xFE || b[3] < 0x30 || b[3] > 0x39 {
		return 0, false
	}
	linear := ((int32(b[0]-0x81)*10+int32(b[1]-0x30))*126+int32(b[2]-0x81))*10 + int32(b[3]-0x30)
	i := sort.Search(len(s.runs), func(i int) bool { return s.runs[i].linear+s.runs[i].n > linear })
	if i == len(s.runs) || s.runs[i].linear > linear {
		return 0, false
	}
	return rune(s.runs[i].first + linear - s.runs[i].linear), true
}

func (t *table) encode(dst []byte, src []rune) ([]byte, bool) {
	s := t.unpacked()
	if s == nil {
		return dst, false
	}
	for i := 0; i < len(src); i++ {
		r := src[i]
		if s.hasPairs && s.starters[r] {
			// The encoder holds r back to see whether the next code
			// point combines with it; at the end, without the flush,
			// nothing is written.
			if i+1 == len(src) {
				break
			}
			if p, ok := s.encPairs[[2]rune{r, src[i+1]}]; ok {
				dst = p.appendTo(dst)
				i++
				continue
			}
		}
		p, ok := s.enc[r]
		switch {
		case ok && p == cannotEncode:
			return dst, false
		case ok:
			dst = p.appendTo(dst)
		case s.skipTags && isTag(r):
		default:
			b, ok := s.encodeFourByte(r)
			if !ok {
				return dst, false
			}
			dst = append(dst, b[:]...)
		}
	}
	return dst, true
}

func (s *tableState) encodeFourByte(r rune) ([4]byte, bool) {
	i := sort.Search(len(s.runsByCP), func(i int) bool { return rune(s.runsByCP[i].first+s.runsByCP[i].n) > r })
	if i == len(s.runsByCP) || rune(s.runsByCP[i].first) > r {
		return [4]byte{}, false
	}
	run := s.runsByCP[i]
	linear := run.linear + int32(r) - run.first
	return [4]byte{byte(0x81 + linear/12600), byte(0x30 + linear/1260%10), byte(0x81 + linear/10%126), byte(0x30 + linear%10)}, true
}

// unpackTable reads a table's data; nil if it is malformed.
func unpackTable(data string) *tableState {
	r := &reader{data: data}
	s := &tableState{enc: map[rune]packed{}}
	flags := r.uint()
	s.skipTags = flags&1 != 0

	n := r.count()
	keys := make([]uint64, 0, n)
	values := make([]uint32, 0, n)
	var key uint64
	var cp rune
	for i := 0; i < n && r.err == nil; i++ {
		key += r.uint()
		v := r.uint()
		cp += rune(unzigzag(v >> 1))
		keys = append(keys, key)
		seq, ok := keyBytes(key)
		if !ok || cp < 0 || cp >= 0x110000 {
			return nil
		}
		if v&1 != 0 {
			second := rune(r.uint())
			values = append(values, uint32(0x110000+len(s.decPairs)))
			s.decPairs = append(s.decPairs, [2]rune{cp, second})
			continue
		}
		values = append(values, uint32(cp))
		if p, ok := pack(seq); ok {
			if _, dup := s.enc[cp]; !dup {
				s.enc[cp] = p
			}
		}
	}
	if !s.dec.build(keys, values) {
		return nil
	}

	n = r.count()
	var end, cpEnd int32
	for i := 0; i < n && r.err == nil; i++ {
		run := gbRun{linear: end + int32(r.uint())}
		run.first = cpEnd + int32(unzigzag(r.uint()))
		run.n = int32(r.uint())
		s.runs = append(s.runs, run)
		end, cpEnd = run.linear+run.n, run.first+run.n
	}
	if len(s.runs) > 0 {
		s.runsByCP = append([]gbRun(nil), s.runs...)
		sort.Slice(s.runsByCP, func(i, j int) bool { return s.runsByCP[i].first < s.runsByCP[j].first })
	}

	n = r.count()
	for i := 0; i < n && r.err == nil; i++ {
		s.held[byte(r.uint())] = true
		s.anyHeld = true
	}
	n = r.count()
	if n > 0 {
		s.compose = make(map[composeKey]composed, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		k := composeKey{pending: rune(r.uint()), next: byte(r.uint())}
		v := r.uint()
		s.compose[k] = composed{r: rune(v >> 1), held: v&1 != 0}
	}

	n = r.count()
	cp = 0
	for i := 0; i < n && r.err == nil; i++ {
		cp += rune(r.uint())
		l := r.uint()
		if l == 0 {
			s.enc[cp] = cannotEncode
			continue
		}
		p, ok := pack(r.bytes(int(l - 1)))
		if !ok {
			return nil
		}
		s.enc[cp] = p
	}
	n = r.count()
	if n > 0 {
		s.starters = make(map[rune]bool, n)
	}
	cp = 0
	for i := 0; i < n && r.err == nil; i++ {
		cp += rune(r.uint())
		s.starters[cp] = true
	}
	n = r.count()
	if n > 0 {
		s.encPairs = make(map[[2]rune]packed, n)
		s.hasPairs = true
	}
	for i := 0; i < n && r.err == nil; i++ {
		k := [2]rune{rune(r.uint()), rune(r.uint())}
		p, ok := pack(r.bytes(int(r.uint())))
		if !ok {
			return nil
		}
		s.encPairs[k] = p
	}
	if r.err != nil || r.off != len(r.data) {
		return nil
	}
	if len(s.starters) > 0 && !s.hasPairs {
		s.hasPairs = true
		s.encPairs = map[[2]rune]packed{}
	}
	return s
}

// keyBytes is the byte sequence of a key: its length above bit 32, its
// bytes big-endian below.
func keyBytes(key uint64) ([]byte, bool) {
	n := int(key >> 32)
	if n < 1 || n > 4 {
		return nil, false
	}
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = byte(key)
		key >>= 8
	}
	return b, true
}

func unzigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

// reader reads the varints of table data, with a sticky error.
type reader struct {
	data string
	off  int
	err  error
}

const errBadTable = charsetError("charset: malformed table data")

func (r *reader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if r.off >= len(r.data) {
			break
		}
		c := r.data[r.off]
		r.off++
		v |= uint64(c&0x7F) << shift
		if c < 0x80 {
			return v
		}
	}
	r.err = errBadTable
	return 0
}

// count reads the length of a section, at most what the rest of the data
// could hold.
func (r *reader) count() int {
	n := r.uint()
	if n > uint64(len(r.data)-r.off) {
		r.err = errBadTable
		return 0
	}
	return int(n)
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.data)-r.off {
		r.err = errBadTable
		return nil
	}
	b := []byte(r.data[r.off : r.off+n])
	r.off += n
	return b
}

// trie finds the sequence at the start of some bytes: each node covers
// the bytes lo to hi that can follow a prefix, each cell holding a value
// plus one, a child node (childCell | its index), or 0 (invalid).
type trie struct {
	nodes []trieNode
}

type trieNode struct {
	lo, hi byte
	cells  []uint32
}

const childCell = 1 << 31

// build makes the trie of sorted keys (length << 32 | bytes) and their
// values; false if the keys are not sorted or a key is also a prefix.
func (t *trie) build(keys []uint64, values []uint32) bool {
	// The range of bytes after each prefix, then the nodes, by prefix.
	type span struct{ lo, hi byte }
	spans := map[uint64]span{}
	for i, k := range keys {
		if i > 0 && keys[i-1] >= k {
			return false
		}
		seq, ok := keyBytes(k)
		if !ok {
			return false
		}
		for j := range seq {
			p := prefixKey(seq[:j])
			sp, ok := spans[p]
			if !ok {
				sp = span{seq[j], seq[j]}
			}
			sp.lo, sp.hi = min(sp.lo, seq[j]), max(sp.hi, seq[j])
			spans[p] = sp
		}
	}
	index := map[uint64]int{}
	node := func(p uint64) int {
		if i, ok := index[p]; ok {
			return i
		}
		sp := spans[p]
		index[p] = len(t.nodes)
		t.nodes = append(t.nodes, trieNode{lo: sp.lo, hi: sp.hi, cells: make([]uint32, int(sp.hi)-int(sp.lo)+1)})
		return len(t.nodes) - 1
	}
	node(prefixKey(nil))
	for i, k := range keys {
		seq, _ := keyBytes(k)
		n := node(prefixKey(nil))
		for j, b := range seq {
			cell := &t.nodes[n].cells[b-t.nodes[n].lo]
			if j == len(seq)-1 {
				if *cell != 0 {
					return false
				}
				*cell = values[i] + 1
				break
			}
			if *cell == 0 {
				child := node(prefixKey(seq[:j+1]))
				cell = &t.nodes[n].cells[b-t.nodes[n].lo] // t.nodes may have moved
				*cell = childCell | uint32(child)
			} else if *cell&childCell == 0 {
				return false
			}
			n = int(*cell &^ childCell)
		}
	}
	return true
}

func prefixKey(p []byte) uint64 {
	k := uint64(len(p)) << 32
	var v uint64
	for _, b := range p {
		v = v<<8 | uint64(b)
	}
	return k | v
}

// lookup finds the sequence at the start of src: its value and length;
// ok is false for an invalid or incomplete sequence.
func (t *trie) lookup(src []byte) (value uint32, n int, ok bool) {
	if len(t.nodes) == 0 {
		return 0, 0, false
	}
	node := &t.nodes[0]
	for i, b := range src {
		if b < node.lo || b > node.hi {
			return 0, 0, false
		}
		cell := node.cells[b-node.lo]
		switch {
		case cell == 0:
			return 0, 0, false
		case cell&childCell != 0:
			node = &t.nodes[cell&^childCell]
		default:
			return cell - 1, i + 1, true
		}
	}
	return 0, 0, false
}
