package odb

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// gitUnpackEntry replays git 2.39.5's unpack_entry of the entry at off in
// p, for an object odb's reader failed to read there: the lines git
// prints on the way down the delta chain and back up, whether it made the
// object after all (ok), and the message it dies with instead (die: a
// read past the end of the pack). git's delta-base cache holds only
// objects it made, never a damaged entry's, so the replay starts cold and
// meets the damage where git meets it. A base git cannot read from the
// pack it reads it as an object instead (read_object: another pack's
// copy, or a loose one), with elsewhere, which may be nil (taken to find
// none). With ok it returns the object git made, obj, of type madeType (nil
// where p is no entry's damage).
func (db *DB) gitUnpackEntry(p *pack, off uint64, elsewhere func(id oid.ID) (object.Type, []byte, []string, bool)) (lines []string, obj []byte, madeType object.Type, ok bool, die string) {
	data, err := p.packData()
	if err != nil {
		return nil, nil, 0, true, "" // not an entry's damage
	}
	name := db.gitName(p.packPath())
	hashLen := uint64(p.format.Size())
	size := uint64(len(data))
	// usePack is use_pack's window: the rest of the file.
	usePack := func(at uint64) ([]byte, bool) {
		if size < hashLen || at > size-hashLen {
			die = "offset beyond end of packfile (truncated pack?)"
			return nil, false
		}
		return data[at:], true
	}
	// unpackCompressed is unpack_compressed_entry: inflate with room for
	// one byte more than n, to the end of the stream.
	unpackCompressed := func(at, n uint64) ([]byte, bool) {
		win, ok := usePack(at)
		if !ok {
			return nil, false
		}
		room := n + 1
		if n > maxInflatedFrom(len(win)) {
			// git allocates n+1 bytes first (xmallocz_gently): where
			// malloc refuses them it says so, else it inflates into
			// them, and the stream ends or fails before filling them.
			if line := gitMallocRefusal(n); line != "" {
				lines = append(lines, line)
				return nil, false
			}
			room = min(maxInflatedFrom(len(win)), db.maxObject) + 1
		} else if n > db.maxObject {
			return nil, false // beyond what odb reads (Options.MaxObjectBytes)
		}
		z := newZlibReplay(win)
		st := z.call(int(room), true)
		if l := z.zlibErrorLine(st); l != "" {
			lines = append(lines, l)
		}
		if st == zBufError && uint64(len(z.out)) <= n {
			// The input ran out: git asks for the window after it.
			usePack(size)
			return nil, false
		}
		if st != zStreamEnd || uint64(len(z.out)) != n {
			return nil, false
		}
		return z.out, true
	}
	type frame struct{ objOff, curpos, size uint64 }
	var stack []frame
	objOff, curpos := off, off
	var typ int
	var n uint64
	for {
		win, ok := usePack(curpos)
		if !ok {
			return lines, nil, 0, false, die
		}
		// unpack_object_header_buffer
		c := win[0]
		used := 1
		t := int(c>>4) & 7
		n = uint64(c & 15)
		shift := uint(4)
		bad := false
		for c&0x80 != 0 {
			if len(win) <= used || shift > 64-7 {
				lines = append(lines, "error: bad object header")
				bad = true
				break
			}
			c = win[used]
			used++
			n += uint64(c&0x7f) << shift
			shift += 7
		}
		if bad {
			typ = -1
		} else {
			typ = t
			curpos += uint64(used)
		}
		if typ != typeOfsDelta && typ != typeRefDelta {
			break
		}
		// get_delta_base
		if _, ok := usePack(curpos); !ok {
			return lines, nil, 0, false, die
		}
		base := db.deltaBase(p, data, curpos, typ, objOff)
		if base != 0 && typ == typeOfsDelta {
			curpos += uint64(ofsLength(data[curpos:]))
		} else if typ == typeRefDelta {
			curpos += hashLen
		}
		if base == 0 {
			lines = append(lines, fmt.Sprintf("error: failed to validate delta base reference at offset %d from %s", curpos, name))
			break
		}
		if len(stack) >= deltaChainLimit {
			// A cycle (git loops on it forever) or a chain deeper than
			// odb reads: not replayed.
			return nil, nil, 0, true, ""
		}
		stack = append(stack, frame{objOff, curpos, n})
		objOff, curpos = base, base
	}
	switch typ {
	case typeOfsDelta, typeRefDelta:
	case 1, 2, 3, 4:
		obj, _ = unpackCompressed(curpos, n)
		if die != "" {
			return lines, nil, 0, false, die
		}
	default:
		lines = append(lines, fmt.Sprintf("error: unknown object type %d at offset %d in %s", typ, objOff, name))
	}
	objType := object.Type(typ)
	for len(stack) > 0 {
		base := obj
		obj = nil
		if base == nil {
			if id, found := p.idAtOffset(objOff); !found {
				lines = append(lines, "error: bad offset for revindex")
			} else {
				lines = append(lines, fmt.Sprintf("error: failed to read delta base object %s at offset %d from %s", id, objOff, name))
				// git marks it bad in p and reads it as an object
				if bid, err := oid.ParseHex(p.format, id); err == nil && elsewhere != nil {
					t, b, more, ok := elsewhere(bid)
					lines = append(lines, more...)
					if ok {
						base, objType = b, t
					}
				}
			}
		}
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		objOff = f.objOff
		if base == nil {
			continue
		}
		delta, ok := unpackCompressed(f.curpos, f.size)
		if die != "" {
			return lines, nil, 0, false, die
		}
		if !ok {
			lines = append(lines, fmt.Sprintf("error: failed to unpack compressed delta at offset %d from %s", f.curpos, name))
			continue
		}
		var msg string
		obj, msg = gitPatchDelta(base, delta)
		if msg != "" {
			lines = append(lines, msg)
		}
		if obj == nil {
			lines = append(lines, "error: failed to apply delta")
		}
	}
	return lines, obj, objType, obj != nil, ""
}

// gitPatchDelta is git's patch_delta: the result, or nil and the error
// line it prints (none for a delta too short or for another base).
func gitPatchDelta(base, delta []byte) ([]byte, string) {
	if len(delta) < 4 {
		return nil, ""
	}
	pos := 0
	hdr := func() uint64 {
		var v uint64
		shift := uint(0)
		for {
			c := delta[pos]
			pos++
			if shift < 64 {
				v |= uint64(c&0x7f) << shift
			}
			shift += 7
			if c&0x80 == 0 || pos >= len(delta) {
				return v
			}
		}
	}
	if hdr() != uint64(len(base)) {
		return nil, ""
	}
	size := hdr()
	out := make([]byte, 0, min(size, uint64(len(base))+uint64(len(delta))))
	const wild = "error: delta replay has gone wild"
	for pos < len(delta) {
		cmd := delta[pos]
		pos++
		switch {
		case cmd&0x80 != 0:
			var cpOff, cpSize uint64
			for bit, shift := 0, uint(0); bit < 7; bit++ {
				if bit == 4 {
					shift = 0
				}
				if cmd&(1<<bit) != 0 {
					if pos >= len(delta) {
						return nil, wild
					}
					if bit < 4 {
						cpOff |= uint64(delta[pos]) << shift
					} else {
						cpSize |= uint64(delta[pos]) << shift
					}
					pos++
				}
				shift += 8
			}
			if cpSize == 0 {
				cpSize = 0x10000
			}
			if cpOff+cpSize > uint64(len(base)) || cpSize > size {
				return nil, wild
			}
			out = append(out, base[cpOff:cpOff+cpSize]...)
			size -= cpSize
		case cmd != 0:
			if uint64(cmd) > size || int(cmd) > len(delta)-pos {
				return nil, wild
			}
			out = append(out, delta[pos:pos+int(cmd)]...)
			pos += int(cmd)
			size -= uint64(cmd)
		default:
			return nil, "error: unexpected delta opcode 0"
		}
	}
	if size != 0 {
		return nil, wild
	}
	return out, ""
}

// idAtOffset is the object whose entry starts at off (git's
// offset_to_pack_pos and nth_packed_object_id); found is false when no
// entry starts there.
func (p *pack) idAtOffset(off uint64) (string, bool) {
	x, err := p.index()
	if err != nil {
		return "", false
	}
	offs := make([]uint64, x.count)
	order := make([]uint32, x.count)
	for i := range offs {
		o, err := x.offset(uint32(i))
		if err != nil {
			return "", false
		}
		offs[i], order[i] = o, uint32(i)
	}
	sort.Slice(order, func(a, b int) bool { return offs[order[a]] < offs[order[b]] })
	i := sort.Search(len(order), func(i int) bool { return offs[order[i]] >= off })
	if i == len(order) || offs[order[i]] != off {
		return "", false
	}
	return fmt.Sprintf("%x", x.name(order[i])), true
}

// packedAsGit attaches to err, odb's failure to read id from its entry
// at off in p, how git fails there (gitUnpackEntry): the lines it prints
// and "packed object X (stored in P) is corrupt" (or its death on the
// way). Where git makes the object after all, from a delta base it
// reads from another copy, it returns that object (made, of type typ)
// and the lines git printed on the way instead. Other errors keep err as
// it is.
func (db *DB) packedAsGit(p *pack, off uint64, id oid.ID, err error, depth int) (typ object.Type, made []byte, lines []string, _ error) {
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Git != nil || errors.Is(err, ErrDeltaCycle) || errors.Is(err, ErrDeltaTooDeep) {
		return 0, nil, nil, err
	}
	lines, obj, typ, ok, die := db.gitUnpackEntry(p, off, func(base oid.ID) (object.Type, []byte, []string, bool) {
		if depth >= maxElsewhereDepth {
			return 0, nil, nil, false
		}
		return db.readElsewhere(base, p, depth+1)
	})
	if ok {
		if obj != nil {
			return typ, obj, lines, nil
		}
		return 0, nil, nil, err
	}
	fatal := die
	if fatal == "" {
		fatal = db.packedCorrupt(p, id)
	}
	_, infoOK, infoLines, infoDie := db.gitPackedType(p, off)
	c := *ce
	c.Git, c.ID = &GitFailure{InfoLines: infoLines, InfoOK: infoOK, InfoFatal: infoDie, Lines: lines, Fatal: fatal, Packed: true, Died: die != ""}, id
	return 0, nil, nil, &c
}

// maxElsewhereDepth bounds the reads of delta bases from other copies
// within one another (readElsewhere): two packs whose damaged bases are
// each other's objects send git from one to the other until its stack
// overflows; goblame takes the base for missing there.
const maxElsewhereDepth = 16

// readElsewhere is git's read_object of a delta base that failed to
// unpack from pack p (which git marks bad for it): the object from
// another pack or a loose file, read by a reader of its own, and the
// lines git prints for the copies that fail on the way.
func (db *DB) readElsewhere(id oid.ID, p *pack, depth int) (object.Type, []byte, []string, bool) {
	r := db.NewReader()
	r.exclude, r.depth = p, depth
	var lines []string
	r.collect = &lines
	typ, data, err := r.read(id, nil)
	if err != nil {
		if g := gitFailure(err); g != nil {
			lines = append(lines, g.Lines...)
		}
		return 0, nil, lines, false
	}
	return typ, data, lines, true
}

// packedTypeAsGit is git's read of id's type alone where odb failed to
// read the type and size of its entry at off in p with err: git's type
// (and size -1: odb could not read it) where git reads it, else err
// with git's failure attached (gitPackedType).
func (db *DB) packedTypeAsGit(p *pack, off uint64, id oid.ID, err error) (object.Type, int64, error) {
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Git != nil || errors.Is(err, ErrDeltaCycle) || errors.Is(err, ErrDeltaTooDeep) {
		return 0, 0, err
	}
	typ, infoOK, lines, die := db.gitPackedType(p, off)
	if infoOK {
		return typ, -1, nil
	}
	if _, err := p.packData(); err != nil {
		return 0, 0, err // the pack's own damage, not the entry's
	}
	fatal := die // the type read's death
	if fatal == "" {
		fatal = db.packedCorrupt(p, id)
	}
	c := *ce
	c.Git, c.ID = &GitFailure{InfoLines: lines, Lines: lines, Fatal: fatal, InfoFatal: die, Packed: true, Died: die != ""}, id
	return 0, 0, &c
}

func (db *DB) packedCorrupt(p *pack, id oid.ID) string {
	return "packed object " + id.String() + " (stored in " + db.gitName(p.packPath()) + ") is corrupt"
}

// gitPackedType replays git 2.39.5's packed_object_info asked for the
// type alone (oid_object_info(r, oid, NULL)): the entry's header, then
// packed_to_object_type down the delta chain by headers alone. It returns
// whether git gets a type and the lines it prints; a failure marks the
// object bad, so that git's next read of it finds nothing and prints
// nothing.
func (db *DB) gitPackedType(p *pack, off uint64) (typ object.Type, ok bool, lines []string, die string) {
	data, err := p.packData()
	if err != nil {
		return object.Invalid, false, nil, ""
	}
	name := db.gitName(p.packPath())
	hashLen := uint64(p.format.Size())
	size := uint64(len(data))
	// header is unpack_object_header: the type (-1 for a bad header) and
	// where the entry's data starts.
	header := func(at uint64) (int, uint64, bool) {
		if size < hashLen || at > size-hashLen {
			die = "offset beyond end of packfile (truncated pack?)" // use_pack
			return 0, 0, false
		}
		win := data[at:]
		c := win[0]
		used := 1
		shift := uint(4)
		for c&0x80 != 0 {
			if len(win) <= used || shift > 64-7 {
				lines = append(lines, "error: bad object header")
				return -1, at, true
			}
			c = win[used]
			used++
			shift += 7
		}
		return int(win[0]>>4) & 7, at + uint64(used), true
	}
	// retry is retry_bad_packed_offset: the object is marked bad and
	// looked for elsewhere, where it is taken to be missing.
	retry := func(at uint64) {
		if _, found := p.idAtOffset(at); !found {
			lines = append(lines, "error: bad offset for revindex")
		}
	}
	t, curpos, alive := header(off)
	if !alive {
		return object.Invalid, false, lines, die
	}
	objOff := off
	var stack []uint64
	for t == typeOfsDelta || t == typeRefDelta {
		if len(stack) >= deltaChainLimit {
			return object.Invalid, false, nil, "" // a cycle: not replayed
		}
		stack = append(stack, objOff)
		base := db.deltaBase(p, data, curpos, t, objOff)
		if base == 0 {
			for i := len(stack) - 1; i >= 0; i-- {
				retry(stack[i])
			}
			return object.Invalid, false, lines, die
		}
		objOff = base
		t, curpos, alive = header(base)
		if !alive {
			return object.Invalid, false, lines, die
		}
		if t <= 0 {
			retry(base)
			for i := len(stack) - 1; i >= 0; i-- {
				retry(stack[i])
			}
			return object.Invalid, false, lines, die
		}
	}
	switch t {
	case -1:
		return object.Invalid, false, lines, die
	case 1, 2, 3, 4:
		return object.Type(t), true, lines, ""
	}
	lines = append(lines, fmt.Sprintf("error: unknown object type %d at offset %d in %s", t, objOff, name))
	return object.Invalid, false, lines, die
}

// deltaBase is git's get_delta_base for the delta entry at objOff whose
// base reference starts at curpos: the base's offset, 0 when the
// reference is out of bounds or names an object not in this pack.
func (db *DB) deltaBase(p *pack, data []byte, curpos uint64, typ int, objOff uint64) uint64 {
	info := data[curpos:]
	if typ == typeOfsDelta {
		n := ofsLength(info)
		if n == 0 {
			return 0
		}
		dist := uint64(info[0] & 127)
		for i := 1; i < n; i++ {
			dist = (dist+1)<<7 + uint64(info[i]&127)
		}
		if dist == 0 || dist >= objOff {
			return 0
		}
		return objOff - dist
	}
	hashLen := p.format.Size()
	if len(info) < hashLen {
		return 0
	}
	if o, found, err := p.find(info[:hashLen]); err == nil && found {
		return o
	}
	return 0
}

// ofsLength is the length of the OFS_DELTA distance at the start of b, 0
// when it overflows (git's check) or runs out.
func ofsLength(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	dist := uint64(b[0] & 127)
	i := 1
	for c := b[0]; c&128 != 0; {
		dist++
		if dist == 0 || dist>>(64-7) != 0 || i >= len(b) {
			return 0
		}
		c = b[i]
		i++
		dist = dist<<7 + uint64(c&127)
	}
	return i
}

// gitMallocRefusal is the line git prints where its xmallocz_gently of
// n bytes (n+1 allocated) fails, or "" where malloc gives them: Linux
// refuses an allocation larger than the memory and swap together under
// its default overcommit heuristic (vm.overcommit_memory 0), one past
// CommitLimit under 2, none under 1.
func gitMallocRefusal(n uint64) string {
	if n == math.MaxUint64 {
		return "error: Data too large to fit into virtual memory space."
	}
	if n+1 > mallocLimit() {
		return fmt.Sprintf("error: Out of memory, malloc failed (tried to allocate %d bytes)", n+1)
	}
	return ""
}

var (
	mallocLimitOnce sync.Once
	mallocLimitV    uint64
)

// mallocLimit is the largest allocation malloc gives here (see
// gitMallocRefusal); math.MaxUint64 where it cannot be told.
func mallocLimit() uint64 {
	mallocLimitOnce.Do(func() {
		mallocLimitV = math.MaxUint64
		mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
		if err != nil {
			return
		}
		info, err := os.ReadFile("/proc/meminfo")
		if err != nil {
			return
		}
		field := func(name string) uint64 {
			for _, l := range strings.Split(string(info), "\n") {
				if rest, ok := strings.CutPrefix(l, name+":"); ok {
					f := strings.Fields(rest)
					if len(f) > 0 {
						if v, err := strconv.ParseUint(f[0], 10, 64); err == nil {
							return v << 10 // kB
						}
					}
				}
			}
			return 0
		}
		switch strings.TrimSpace(string(mode)) {
		case "0":
			if total := field("MemTotal") + field("SwapTotal"); total > 0 {
				mallocLimitV = total
			}
		case "2":
			if limit := field("CommitLimit"); limit > 0 {
				mallocLimitV = limit
			}
		}
	})
	return mallocLimitV
}
