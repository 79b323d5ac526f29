package diff

// lineArena holds the interned lines' bytes in chunks that are never
// moved: a line is added to the current chunk, or to a new one where it
// does not fit, so that the arena grows without copying what it holds.
// A single slice grown by append copied everything at each doubling, on
// fresh pages, in one memmove the collector cannot interrupt (it waits to
// scan the goroutine's stack meanwhile): a 620 KB file whose versions
// each brought new lines (vim's runtime/spell/en.latin1.spl) spent a
// quarter of its blame there, 116 ms against 87 with the arena reserved
// whole. A line is named by a loc: its chunk, its offset there and its
// length, or, for a line longer than a chunk can be, its place in big.
type lineArena struct {
	chunks [][]byte // chunks[cur] is being filled; those after it are spares
	cur    int
	big    [][]byte // lines longer than maxChunkBytes, each its own copy
	bytes  int      // bytes held (the lines' lengths)
}

// Chunk sizes: a new chunk holds a quarter of what the arena holds (as
// append grows a large slice by a quarter), from minChunkBytes to
// maxChunkBytes, or the size reserve asks for: chunks that doubled left
// the last one mostly empty (a 700 KB file of 3,000 versions of three
// changed lines peaked 6 MB higher).
const (
	minChunkBytes = 4 << 10
	maxChunkBytes = 4 << 20

	locLenBits   = 24
	locOffBits   = 24
	locLenMask   = 1<<locLenBits - 1
	locOffMask   = 1<<locOffBits - 1
	locBigChunk  = 1<<(64-locLenBits-locOffBits) - 1
	maxLocChunks = locBigChunk // chunk numbers below the big marker
)

// add copies line into the arena and returns its loc.
func (a *lineArena) add(line []byte) uint64 {
	a.bytes += len(line)
	if len(line) > maxChunkBytes {
		a.big = append(a.big, append([]byte(nil), line...))
		return locBigChunk<<(locLenBits+locOffBits) | uint64(len(a.big)-1)
	}
	if len(a.chunks) == 0 || cap(a.chunks[a.cur])-len(a.chunks[a.cur]) < len(line) {
		if a.cur+1 >= maxLocChunks {
			// (Not reached: a table is started afresh long before
			// it holds this many chunks.)
			a.big = append(a.big, append([]byte(nil), line...))
			return locBigChunk<<(locLenBits+locOffBits) | uint64(len(a.big)-1)
		}
		a.next(len(line))
	}
	c := a.chunks[a.cur]
	off := len(c)
	a.chunks[a.cur] = append(c, line...)
	return uint64(a.cur)<<(locLenBits+locOffBits) | uint64(off)<<locLenBits | uint64(len(line))
}

// line returns the bytes of the line at loc.
func (a *lineArena) line(loc uint64) []byte {
	chunk := loc >> (locLenBits + locOffBits)
	if chunk == locBigChunk {
		return a.big[loc&(1<<(locLenBits+locOffBits)-1)]
	}
	off := int(loc>>locLenBits) & locOffMask
	return a.chunks[chunk][off : off+int(loc&locLenMask)]
}

// next makes the chunk after the current one the current one, with room
// for at least n bytes: a spare kept from before a reset where it is
// large enough, else a new chunk (see minChunkBytes).
func (a *lineArena) next(n int) {
	if len(a.chunks) > 0 {
		a.cur++
	}
	size := max(minChunkBytes, min(a.bytes/4, maxChunkBytes), n)
	if a.cur < len(a.chunks) {
		if cap(a.chunks[a.cur]) >= n {
			a.chunks[a.cur] = a.chunks[a.cur][:0]
			return
		}
		a.chunks[a.cur] = make([]byte, 0, size)
		return
	}
	a.chunks = append(a.chunks, make([]byte, 0, size))
}

// reserve readies the arena for n more bytes in one chunk (at most
// maxChunkBytes): a large first version then goes into one chunk sized
// for it, not a run of doublings.
func (a *lineArena) reserve(n int) {
	n = min(n, maxChunkBytes)
	if len(a.chunks) > 0 && cap(a.chunks[a.cur])-len(a.chunks[a.cur]) >= n {
		return
	}
	if len(a.chunks) == 0 {
		a.chunks = append(a.chunks, make([]byte, 0, max(n, minChunkBytes)))
		return
	}
	if len(a.chunks[a.cur]) == 0 {
		// An empty current chunk too small: replaced.
		a.chunks[a.cur] = make([]byte, 0, n)
		return
	}
	if a.cur+1 < maxLocChunks { // (else add keeps its lines apart)
		a.next(n)
	}
}

// reset forgets every line; with release, the chunks go too, else they
// are kept for the lines to come.
func (a *lineArena) reset(release bool) {
	clear(a.big)
	a.big = a.big[:0]
	a.bytes = 0
	a.cur = 0
	if release {
		a.chunks = nil
		a.big = nil
		return
	}
	if len(a.chunks) > 0 {
		a.chunks[0] = a.chunks[0][:0]
	}
}

// capacity is the memory the arena's chunks and long lines take.
func (a *lineArena) capacity() int {
	n := 0
	for _, c := range a.chunks {
		n += cap(c)
	}
	for _, b := range a.big {
		n += cap(b)
	}
	return n
}
