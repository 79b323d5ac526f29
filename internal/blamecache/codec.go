package blamecache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/oid"
)

// The entry file format, version 10 (all integers unsigned varints):
//
//	magic "goblame-cache\x00" version 1
//	key            length, bytes: the attribution key and path it answers
//	format         1 = sha1, 2 = sha256
//	commit, blob   raw object IDs
//	numLines, ordered (0 or 1), traced (0 or 1), exact (0 or 1)
//	commits        count, then per commit: raw ID, boundary (0 or 1),
//	               text length+1 (0: none), text, committer time
//	paths          count, then per path: length, bytes
//	origins        count, then per origin: commit, path, previous+1 (0: none),
//	               pass, whole+1, scapegoat count, scapegoats+1,
//	               skipped count, skipped dates (each zigzag-coded as the
//	               difference from the date before it, the first from the
//	               origin's commit's)
//	trails         count, then per trail: origin, prev+1
//	pieces         count, then per piece: lno, sLno, numLines, origin,
//	               trail+1, and in an exact entry its flags (1 ignored,
//	               2 unblamable)
//	attrs          count, then per diff driver verdict: path length,
//	               bytes, verdict+1 (0 content, 1 text, 2 binary)
//	checksum       CRC-32 (IEEE) of everything before it, 4 bytes big-endian
//
// Every count is checked against the bytes left before anything is
// allocated, and the decoded snapshot is checked for consistency
// (blamecore validates indexes and that the pieces cover every line).
const magic = "goblame-cache\x00\x0a"

// errCorrupt is what any malformed entry decodes to: the caller ignores it.
var errCorrupt = errors.New("blamecache: corrupt entry")

func formatCode(f oid.Format) uint64 {
	if f == oid.SHA256 {
		return 2
	}
	return 1
}

// encode writes s as an entry answering key.
func encode(key string, format oid.Format, s *blamecore.Snapshot) []byte {
	b := make([]byte, 0, encodedSizeHint(key, format, s))
	u := func(v uint64) { b = binary.AppendUvarint(b, v) }
	str := func(v string) { u(uint64(len(v))); b = append(b, v...) }
	id := func(v oid.ID) { b = append(b, v.Bytes()...) }
	flag := func(v bool) {
		if v {
			u(1)
		} else {
			u(0)
		}
	}
	b = append(b, magic...)
	str(key)
	u(formatCode(format))
	id(s.Commit)
	id(s.Blob)
	u(uint64(s.NumLines))
	flag(s.Ordered)
	flag(s.Traced)
	flag(s.Exact)
	u(uint64(len(s.Commits)))
	for _, c := range s.Commits {
		id(c.ID)
		flag(c.Boundary)
		if c.Body == nil {
			u(0)
		} else {
			u(uint64(len(c.Body)) + 1)
			b = append(b, c.Body...)
		}
		u(c.Time)
	}
	paths := map[string]int{}
	var pathList []string
	for _, o := range s.Origins {
		if _, ok := paths[o.Path]; !ok {
			paths[o.Path] = len(pathList)
			pathList = append(pathList, o.Path)
		}
	}
	u(uint64(len(pathList)))
	for _, p := range pathList {
		str(p)
	}
	u(uint64(len(s.Origins)))
	for _, o := range s.Origins {
		u(uint64(o.Commit))
		u(uint64(paths[o.Path]))
		u(uint64(o.Previous + 1))
		u(uint64(o.Pass))
		u(uint64(o.Whole + 1))
		u(uint64(len(o.Scapegoats)))
		for _, g := range o.Scapegoats {
			u(uint64(g + 1))
		}
		u(uint64(len(o.Skipped)))
		last := s.Commits[o.Commit].Time
		for _, t := range o.Skipped {
			u(zigzag(int64(t - last)))
			last = t
		}
	}
	u(uint64(len(s.Trails)))
	for _, t := range s.Trails {
		u(uint64(t.Origin))
		u(uint64(t.Prev + 1))
	}
	u(uint64(len(s.Pieces)))
	for _, p := range s.Pieces {
		u(uint64(p.Lno))
		u(uint64(p.SLno))
		u(uint64(p.NumLines))
		u(uint64(p.Origin))
		u(uint64(p.Trail + 1))
		if s.Exact {
			var f uint64
			if p.Ignored {
				f |= 1
			}
			if p.Unblamable {
				f |= 2
			}
			u(f)
		}
	}
	u(uint64(len(s.Attrs)))
	for _, a := range s.Attrs {
		str(a.Path)
		u(uint64(a.Binary + 1))
	}
	return binary.BigEndian.AppendUint32(b, checksum(b))
}

// checksum is an entry's CRC-32: it is there to catch torn and garbled
// files (an entry's commit texts are checked against their IDs besides),
// and the processor computes it at gigabytes a second, where SHA-256 cost
// a cached blame of a 160 KB entry a twentieth of its time. It is the IEEE
// polynomial's, whose table the standard library builds at start-up
// anyway: the CRC-32C table (format 7) cost every goblame process, cached
// or not, 1.2 million instructions to build (callgrind).
func checksum(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

const checksumSize = 4

// encodedSizeHint is about what encode writes for s, so that the entry is
// built in one buffer instead of growing through a dozen copies of itself
// (varints are counted at their common sizes; a larger one only grows the
// buffer once).
func encodedSizeHint(key string, format oid.Format, s *blamecore.Snapshot) int {
	n := len(magic) + len(key) + 2*format.Size() + 32 + checksumSize
	for _, c := range s.Commits {
		n += format.Size() + len(c.Body) + 12
	}
	for _, o := range s.Origins {
		n += len(o.Path) + 12 + 3*len(o.Scapegoats) + 3*len(o.Skipped)
	}
	for _, a := range s.Attrs {
		n += len(a.Path) + 2
	}
	return n + 6*len(s.Trails) + 12*len(s.Pieces)
}

// zigzag maps small signed differences to small unsigned values.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

// decoder is a sticky-error cursor over an entry.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uint() uint64 {
	// binary.Uvarint, inlined: an entry is mostly varints.
	if d.err == nil {
		b := d.b
		var v uint64
		for i := 0; i < len(b) && i < binary.MaxVarintLen64; i++ {
			c := b[i]
			if c < 0x80 {
				if i == binary.MaxVarintLen64-1 && c > 1 {
					break // overflows 64 bits
				}
				d.b = b[i+1:]
				return v | uint64(c)<<(7*i)
			}
			v |= uint64(c&0x7f) << (7 * i)
		}
		d.err = errCorrupt
	}
	return 0
}

// skipUints passes over n varints, as n calls of uint would.
func (d *decoder) skipUints(n int) {
	for ; n > 0 && d.err == nil; n-- {
		i := 0
		for i < len(d.b) && i < binary.MaxVarintLen64 && d.b[i] >= 0x80 {
			i++
		}
		if i == len(d.b) || i == binary.MaxVarintLen64 || i == binary.MaxVarintLen64-1 && d.b[i] > 1 {
			d.err = errCorrupt
			return
		}
		d.b = d.b[i+1:]
	}
}

// int reads a value that must be below limit.
func (d *decoder) int(limit int) int {
	v := d.uint()
	if v >= uint64(limit) {
		d.err = errCorrupt
		return 0
	}
	return int(v)
}

// count reads a number of records each at least minSize bytes long.
func (d *decoder) count(minSize int) int {
	return d.int(len(d.b)/minSize + 1)
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n > len(d.b) {
		d.err = errCorrupt
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string { return string(d.bytes(d.int(len(d.b) + 1))) }

func (d *decoder) id(f oid.Format) oid.ID {
	raw := d.bytes(f.Size())
	if d.err != nil {
		return oid.ID{}
	}
	return oid.FromBytes(f, raw)
}

func (d *decoder) flag() bool { return d.int(2) == 1 }

// decode reads an entry that must answer key in format. A light decode
// (for a blame that neither replays the walk nor records one: the
// entries are all it needs) checks every byte as a full one does but
// keeps no trails, scapegoats or skipped dates, and gives an untraced
// snapshot.
func decode(data []byte, key string, format oid.Format, light bool) (*blamecore.Snapshot, error) {
	if len(data) < len(magic)+checksumSize || !bytes.HasPrefix(data, []byte(magic)) {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-checksumSize], data[len(data)-checksumSize:]
	if binary.BigEndian.Uint32(sum) != checksum(body) {
		return nil, errCorrupt
	}
	d := &decoder{b: body[len(magic):]}
	if d.str() != key || d.uint() != formatCode(format) || d.err != nil {
		return nil, errCorrupt
	}
	s := &blamecore.Snapshot{}
	s.Commit = d.id(format)
	s.Blob = d.id(format)
	s.NumLines = d.int(len(d.b) + 1) // a piece per line at most, each bytes long
	s.Ordered = d.flag()
	s.Traced = d.flag()
	s.Exact = d.flag()
	s.Commits = make([]blamecore.SnapshotCommit, d.count(format.Size()+3))
	for i := range s.Commits {
		s.Commits[i] = blamecore.SnapshotCommit{ID: d.id(format), Boundary: d.flag()}
		if n := d.int(len(d.b) + 2); n > 0 {
			s.Commits[i].Body = d.bytes(n - 1)
		}
		s.Commits[i].Time = d.uint()
	}
	paths := make([]string, d.count(1))
	for i := range paths {
		paths[i] = d.str()
	}
	s.Origins = make([]blamecore.SnapshotOrigin, d.count(3))
	var dates []uint64
	for i := range s.Origins {
		c := d.int(len(s.Commits))
		p := d.int(len(paths))
		if d.err != nil {
			return nil, errCorrupt
		}
		o := blamecore.SnapshotOrigin{Commit: c, Path: paths[p], Previous: d.int(len(s.Origins)+1) - 1}
		o.Pass = d.int(3)
		o.Whole = d.int(len(s.Origins)+1) - 1
		if n := d.count(1); n > 0 && light {
			for range n {
				d.int(len(s.Origins) + 1)
			}
		} else if n > 0 {
			o.Scapegoats = make([]int, n)
			for k := range o.Scapegoats {
				o.Scapegoats[k] = d.int(len(s.Origins)+1) - 1
			}
		}
		if n := d.count(1); n > 0 && light {
			d.skipUints(n)
		} else if n > 0 {
			if len(dates) < n {
				// One array for the skipped dates of many origins
				// (thousands of dates, a few each): at most what the
				// bytes left can hold, at least n.
				dates = make([]uint64, max(n, min(len(d.b), 4096)))
			}
			o.Skipped, dates = dates[:n:n], dates[n:]
			last := s.Commits[c].Time
			for k := range o.Skipped {
				last += uint64(unzigzag(d.uint()))
				o.Skipped[k] = last
			}
		}
		s.Origins[i] = o
	}
	numTrails := d.count(2)
	if light {
		for i := range numTrails {
			d.int(len(s.Origins))
			d.int(i + 1)
		}
	} else if numTrails > 0 {
		s.Trails = make([]blamecore.SnapshotTrail, numTrails)
		for i := range s.Trails {
			s.Trails[i] = blamecore.SnapshotTrail{Origin: d.int(len(s.Origins)), Prev: d.int(i+1) - 1}
		}
	}
	s.Pieces = make([]blamecore.SnapshotPiece, d.count(5))
	for i := range s.Pieces {
		s.Pieces[i] = blamecore.SnapshotPiece{Lno: d.int(s.NumLines), SLno: d.int(1 << 31), NumLines: d.int(s.NumLines + 1), Origin: d.int(len(s.Origins))}
		s.Pieces[i].Trail = d.int(numTrails+1) - 1
		if light {
			s.Pieces[i].Trail = -1
		}
		if s.Exact {
			f := d.int(4)
			s.Pieces[i].Ignored, s.Pieces[i].Unblamable = f&1 != 0, f&2 != 0
		}
	}
	if n := d.count(2); n > 0 {
		s.Attrs = make([]blamecore.SnapshotAttr, n)
		for i := range s.Attrs {
			s.Attrs[i] = blamecore.SnapshotAttr{Path: d.str(), Binary: d.int(3) - 1}
		}
	}
	if light {
		s.Traced = false
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errCorrupt
	}
	return s, nil
}
