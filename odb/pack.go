package odb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Pack entry types beyond the four object types.
const (
	typeOfsDelta = 6
	typeRefDelta = 7
)

// pack is one pack-<hash>.pack with its .idx. Both files are mapped lazily
// on first use and stay mapped until the DB is closed, so a pack deleted by
// a concurrent repack stays readable for readers that already opened it.
type pack struct {
	id      uint32 // key of this pack in the delta-base cache
	base    string // path without the .idx/.pack suffix
	gitBase string // base as git names it (DB.gitName)
	format  oid.Format
	local   bool
	mtime   time.Time
	size    int64       // of the .pack file, when the directory was scanned
	inMidx  bool        // listed by a multi-pack-index of its directory
	viaMidx atomic.Bool // opened through a multi-pack-index (git then lists it too)

	idxOnce sync.Once
	idxMap  *mapping
	idx     *packIndex
	idxErr  error

	dataOnce sync.Once
	dataMap  *mapping
	data     []byte
	dataErr  error
	// file is the .pack file the mapping was made from, kept open so
	// that readers can read entries with pread instead of touching the
	// mapping (see Reader.entry); nil when over maxPackFiles.
	file *fsread.File

	// windows has a bit for every residentWindow of the mapping that
	// readers touched since its pages were last released, and resident
	// counts those bits (see touch).
	windows  []atomic.Uint64
	resident atomic.Int64
	releases atomic.Int64 // how often the pages were released
}

// releaseAfter is how many bytes of a mapped pack may be resident (by
// the windows readers touched) before its pages are released from the
// process (they stay in the page cache). A blame reads scattered entries
// of a pack that can be far larger than memory needs to be; without this,
// every page ever touched (and the neighbours the kernel maps with it)
// counts in the resident set. Counting windows rather than bytes read
// keeps the pages a walk returns to (commits, trees near each other,
// the bases of delta chains) mapped, instead of faulting them in again
// after every few hundred entries.
var releaseAfter int64 = 16 << 20

// residentWindow is the granule of touch's accounting: the kernel maps up
// to 64 KiB around each faulting page of a file mapping.
const residentWindow = 64 << 10

// touch records that readers read bytes [off, end) of the mapped pack
// and, once the windows touched since the last release exceed
// releaseAfter, drops the mapping's pages from the process's resident set.
func (p *pack) touch(off, end uint64) {
	if p.dataMap == nil || !p.dataMap.mmapped || len(p.windows) == 0 {
		return
	}
	var added int64
	for w := off / residentWindow; w <= (end-1)/residentWindow && w/64 < uint64(len(p.windows)); w++ {
		bit := uint64(1) << (w % 64)
		if p.windows[w/64].Or(bit)&bit == 0 {
			added += residentWindow
		}
	}
	if added == 0 || p.resident.Add(added) < releaseAfter {
		return
	}
	p.resident.Store(0)
	for i := range p.windows {
		p.windows[i].Store(0)
	}
	p.releases.Add(1)
	p.dataMap.release()
}

func (p *pack) idxPath() string  { return p.base + ".idx" }
func (p *pack) packPath() string { return p.base + ".pack" }

// index maps and validates the .idx file (once).
func (p *pack) index() (*packIndex, error) {
	p.idxOnce.Do(func() {
		m, err := mapFile(p.idxPath())
		if size, dir := fsread.DirSize(err); dir && size >= int64(4*256+2*p.format.Size()) {
			// git opens a directory large enough to be an index and
			// maps it: its mmap fails, and git dies.
			p.idxErr = ErrUnmappable
			return
		}
		if err != nil {
			if data, ok := readSmall(p.idxPath()); ok {
				if line := gitIndexLine(p.gitBase+".idx", data, p.format.Size()); line != "" {
					err = &LookupError{Line: line, Err: err}
				}
			}
			p.idxErr = err
			return
		}
		x, err := parseIndex(p.idxPath(), p.gitBase+".idx", m.data, p.format)
		if err != nil {
			m.close()
			p.idxErr = err
			return
		}
		p.idxMap, p.idx = m, x
	})
	return p.idx, p.idxErr
}

// packData maps and validates the .pack file (once): signature, version,
// object count and trailing checksum must agree with the index, as git's
// open_packed_git_1 requires.
func (p *pack) packData() ([]byte, error) {
	p.dataOnce.Do(func() {
		x, err := p.index()
		if err != nil {
			p.dataErr = err
			return
		}
		path := p.packPath()
		f, m, err := openMapping(path)
		if err != nil {
			p.dataErr = err
			return
		}
		d := m.data
		h := p.format.Size()
		switch {
		case len(d) < 12+h:
			p.dataErr = corrupt(path, -1, nil, "pack file too small (%d bytes)", len(d))
		case string(d[:4]) != "PACK":
			p.dataErr = corrupt(path, 0, nil, "bad pack signature")
		case binary.BigEndian.Uint32(d[4:]) != 2 && binary.BigEndian.Uint32(d[4:]) != 3:
			p.dataErr = corrupt(path, 4, nil, "unsupported pack version %d", binary.BigEndian.Uint32(d[4:]))
		case binary.BigEndian.Uint32(d[8:]) != x.count:
			p.dataErr = corrupt(path, 8, nil, "pack claims %d objects, its index %d", binary.BigEndian.Uint32(d[8:]), x.count)
		case !bytes.Equal(d[len(d)-h:], x.packHash):
			p.dataErr = corrupt(path, int64(len(d)-h), nil, "pack checksum does not match its index")
		}
		if p.dataErr != nil {
			if line := gitPackLine(p.gitBase+".pack", d, x.count, x.packHash); line != "" {
				p.dataErr = &LookupError{Line: line, Err: p.dataErr}
			}
			m.close()
			f.Close()
			return
		}
		p.dataMap, p.data = m, d
		if m.mmapped {
			p.windows = make([]atomic.Uint64, (len(d)/residentWindow+64)/64)
			if openPackFiles.Add(1) <= maxPackFiles {
				p.file, f = f, nil
				// A database dropped without Close still closes
				// its packs' files (an *os.File did that).
				runtime.AddCleanup(p, closeDroppedFile, p.file)
			} else {
				openPackFiles.Add(-1)
			}
		}
		if f != nil {
			f.Close()
		}
	})
	return p.data, p.dataErr
}

// closeDroppedFile closes the file of a pack that was collected without
// DB.Close having closed it.
func closeDroppedFile(f *fsread.File) {
	if f.Fd() != ^uintptr(0) {
		f.Close()
		openPackFiles.Add(-1)
	}
}

func (p *pack) close() {
	// Only called from DB.Close, after every reader is done.
	if p.dataMap != nil {
		p.dataMap.close()
	}
	if p.file != nil {
		p.file.Close()
		p.file = nil
		openPackFiles.Add(-1)
	}
	if p.idxMap != nil {
		p.idxMap.close()
	}
}

// entryHeader is the parsed header of one pack entry.
type entryHeader struct {
	typ     uint8  // 1-4 object types, 6 OFS_DELTA, 7 REF_DELTA
	size    uint64 // inflated size of the body (of the delta data for deltas)
	dataOff uint64 // where the zlib stream starts
	baseOff uint64 // OFS_DELTA: offset of the base entry
	baseID  []byte // REF_DELTA: raw id of the base (a view into the pack)
}

// entryHeader parses the entry starting at off (the type/size varint, then
// the OFS_DELTA distance or REF_DELTA base id).
func (p *pack) entryHeader(data []byte, off uint64) (entryHeader, error) {
	return p.entryHeaderIn(data, 0, off, uint64(len(data)))
}

// errShortWindow says that an entry's header runs past the window it was
// parsed from (the caller reads it from the mapping instead).
var errShortWindow = errors.New("entry header runs past the window read")

// entryHeaderIn is entryHeader for a window of the pack: win holds the
// pack's bytes from offset base, packLen is the pack's length. A header
// that runs past the window returns errShortWindow.
func (p *pack) entryHeaderIn(win []byte, base, off, packLen uint64) (entryHeader, error) {
	var h entryHeader
	if packLen < uint64(12+p.format.Size()) {
		return h, corrupt(p.packPath(), int64(off), nil, "entry offset outside the pack")
	}
	end := packLen - uint64(p.format.Size()) // entries end before the trailer
	if off < 12 || off >= end {
		return h, corrupt(p.packPath(), int64(off), nil, "entry offset outside the pack")
	}
	if winEnd := base + uint64(len(win)); winEnd < end {
		end = winEnd // a header past it is errShortWindow, not corrupt
		if off >= end || off < base {
			return h, errShortWindow
		}
	}
	data := win[:end-base]
	short := end < packLen-uint64(p.format.Size())
	bad := func(msg string) (entryHeader, error) {
		if short {
			return h, errShortWindow
		}
		return h, corrupt(p.packPath(), int64(off), nil, "%s", msg)
	}
	pos := off - base
	lim := end - base
	c := data[pos]
	pos++
	h.typ = (c >> 4) & 7
	h.size = uint64(c & 15)
	shift := uint(4)
	for c&0x80 != 0 {
		if pos >= lim {
			return bad("bad object header")
		}
		if shift > 63 {
			return h, corrupt(p.packPath(), int64(off), nil, "bad object header")
		}
		c = data[pos]
		pos++
		h.size |= uint64(c&0x7f) << shift
		shift += 7
	}
	switch h.typ {
	case uint8(object.Commit), uint8(object.Tree), uint8(object.Blob), uint8(object.Tag):
	case typeOfsDelta:
		if pos >= lim {
			return bad("truncated delta base offset")
		}
		c = data[pos]
		pos++
		dist := uint64(c & 0x7f)
		for c&0x80 != 0 {
			dist++
			if dist == 0 || dist>>(64-7) != 0 {
				return h, corrupt(p.packPath(), int64(off), nil, "bad delta base offset")
			}
			if pos >= lim {
				return bad("bad delta base offset")
			}
			c = data[pos]
			pos++
			dist = dist<<7 | uint64(c&0x7f)
		}
		if dist == 0 || dist >= off {
			return h, corrupt(p.packPath(), int64(off), nil, "delta base offset out of bounds")
		}
		h.baseOff = off - dist
	case typeRefDelta:
		hl := uint64(p.format.Size())
		if pos+hl > lim {
			return bad("truncated delta base name")
		}
		h.baseID = data[pos : pos+hl]
		pos += hl
	default:
		return h, corrupt(p.packPath(), int64(off), nil, "unknown object type %d", h.typ)
	}
	if pos >= lim {
		return bad("entry data outside the pack")
	}
	h.dataOff = base + pos
	return h, nil
}

// stream returns the bytes that can hold the zlib stream of an entry.
func (p *pack) stream(data []byte, h *entryHeader) []byte {
	return data[h.dataOff : len(data)-p.format.Size()]
}

// find looks raw up in the pack's index.
func (p *pack) find(raw []byte) (uint64, bool, error) {
	off, _, ok, err := p.findPos(raw)
	return off, ok, err
}

// findPos is find that also returns the object's position in the index.
func (p *pack) findPos(raw []byte) (off uint64, pos uint32, found bool, err error) {
	x, err := p.index()
	if err != nil {
		return 0, 0, false, err
	}
	i, ok := x.find(raw)
	if !ok {
		return 0, 0, false, nil
	}
	off, err = x.offset(i)
	if ce, ok := err.(*CorruptError); ok && ce.Err == errBadLargeOffset {
		// nth_packed_object_offset dies there (check_pack_index_ptr).
		death := "offset beyond end of pack index for " + p.gitBase + ".pack (truncated index?)"
		ce.Git = &GitFailure{InfoFatal: death, Fatal: death}
	}
	if err != nil {
		return 0, 0, false, err
	}
	if off == 0 {
		// The pack's header is there: git's find_pack_entry_one
		// answers 0 for "not in this pack", and so does such an entry
		// of a damaged index.
		return 0, 0, false, nil
	}
	return off, i, true, nil
}
