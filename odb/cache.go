package odb

import (
	"math/bits"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// baseKey names a pack entry: the pack's id in the DB and the entry offset.
type baseKey struct {
	pack uint32
	off  uint64
}

type baseEntry struct {
	key     baseKey
	typ     object.Type
	data    []byte
	partial bool   // data is only the first bytes of the object (Reader.ReadPrefix)
	weight  uint32 // cost of recomputing one byte of this entry (1/16 ns)
	prio    uint64 // clock + weight when last used
	seq     uint64 // when last used, to order entries of equal priority
	heapPos int32
}

// deltaBaseCache keeps recently used delta bases, bounded by the total
// capacity of the buffers it holds. It owns its buffers: put takes
// ownership, and evicted buffers go to a small free list from which
// buffer() hands them out again, so a long walk over delta chains stops
// allocating once the cache is warm.
//
// Eviction is cost-aware (GreedyDual-Size): an entry's priority is the
// cache's clock at its last use plus the cost of recomputing one of its
// bytes; the entry of lowest priority goes first and the clock advances to
// its priority, so
// that entries not used for a while age out. A full object costs an
// inflate to recompute, about ten times a delta result of the same size
// (a delta replay is mostly a copy), so chain roots outlive intermediate
// results; among entries of equal cost the least recently used goes first,
// which is plain LRU for the sequential reads of a file's history.
//
// The bound adapts: the cache starts at deltaBaseStartBytes (or its
// ceiling, if lower) and grows toward its ceiling only when a larger cache
// would have answered a miss: it remembers the keys and sizes of the
// entries it evicted most recently (ghosts, as many bytes as the bound
// could still grow by), and a miss on a ghost, which a cache at the
// ceiling would have answered, grows the bound by that entry's size. A blame of a short history, whose reuse distances are short,
// keeps a small cache and so touches few fresh pages (on the VMs we
// measure a fresh page costs about as much as inflating 10 KiB; the 8 MiB
// cache filled once doubled the time of git/git README.md); a long
// history's bases come back after more bytes than the bound and grow it to
// the ceiling (git/git diff.c reaches 8 MiB).
//
// An entry larger than the ceiling, which no growth of the bound could
// hold, is not dropped: it takes the cache's one place outside the bound
// (over), where it stays until the next such entry comes, as git's cache
// keeps every new base however large. The versions of a blob that large
// were otherwise each replayed from their chain's full object: a 9 MB
// file's 40 versions, in chains 20 deltas deep, inflated 9 MB and
// replayed 10 deltas of 9 MB a read (2.4 s, 5.6 GB allocated, against
// git's 5.0 s), where the last base kept replays one or two (0.9 s; see
// TestOversizedChainReadsOnce).
type deltaBaseCache struct {
	limit      int64 // the bound now
	maxLimit   int64 // the bound it may grow to
	ghosts     ghostList
	used       int64
	clock      uint64
	seq        uint64
	index      map[baseKey]int32
	entries    []baseEntry
	freeSlots  []int32
	heap       []int32    // entry indices, min-heap on prio
	spare      [][][]byte // spare buffers by size class
	spareBytes int64
	// over is the last entry larger than the ceiling (data nil: none),
	// not counted in used; overSpare the buffer of the one before it,
	// kept for the next such entry (too large for the spare lists'
	// budget).
	over      baseEntry
	overSpare []byte
}

// Recompute costs per byte, in 1/16 ns: inflating (about 3 ns a byte)
// and replaying a delta (about 0.4 ns a byte, plus inflating the delta).
const (
	costInflate = 48
	costReplay  = 6
)

// deltaBaseStartBytes is where a cache's bound starts (see
// deltaBaseCache), and long histories grow past it within their first
// few hundred misses. It was 512 KiB, the fastest start measured on
// short histories (gitoxide and git/git README.md) before tree lookups
// read prefixes; their replays now leave a prefix of every link in the
// cache, which a short blame's lookups come back to within a few reads
// or never: go-git's 81 root-tree prefixes of its JetBrains README.md
// call hit the same 49 times under a 64 KiB bound as under 512 KiB,
// with 306 KB allocated instead of 606. At 128 KiB (paired rounds,
// 2026-12-07): that call -0.13 ms [-0.26, -0.05] of 4.2 and 470 page
// faults instead of 524, gitoxide gix/src/lib.rs -0.36 [-0.70, -0.06]
// of 11.0, go-git repository.go (886 faults instead of 958), gitoxide
// and git/git README.md within their noise.
const deltaBaseStartBytes = 128 << 10

// newDeltaBaseCache returns a cache that may grow to limit bytes.
func newDeltaBaseCache(limit int64) *deltaBaseCache {
	return &deltaBaseCache{limit: min(limit, deltaBaseStartBytes), maxLimit: limit, index: map[baseKey]int32{}}
}

// setLimit bounds the cache at limit bytes from now on, without waiting
// for misses to grow it (bulk reads: see Reader.isBulkRead).
func (c *deltaBaseCache) setLimit(limit int64) {
	c.limit, c.maxLimit = limit, limit
}

// setCeiling makes n the bound the cache may grow to: a bound above it
// comes down at once, evicting entries of lowest priority (no ghost: a
// lower ceiling is not a miss a larger cache would have answered).
func (c *deltaBaseCache) setCeiling(n int64) {
	c.maxLimit = n
	if c.limit > n {
		c.limit = n
		for c.used > c.limit && len(c.heap) > 0 {
			c.evict(c.heap[0], false)
		}
	}
}

// missed records a lookup of key that the cache could not answer: when
// key is a ghost, a cache larger by its size would have answered it, and
// the bound grows by that much.
func (c *deltaBaseCache) missed(key baseKey) {
	if c.limit >= c.maxLimit {
		return // at its ceiling: no ghost is kept or asked for
	}
	if size, ok := c.ghosts.take(key); ok {
		c.limit = min(c.maxLimit, c.limit+size)
	}
}

// touch sets an entry's priority for a use now.
func (c *deltaBaseCache) touch(e *baseEntry) {
	c.seq++
	e.prio = c.clock + uint64(e.weight)
	e.seq = c.seq
}

func (c *deltaBaseCache) less(a, b int) bool {
	x, y := &c.entries[c.heap[a]], &c.entries[c.heap[b]]
	return x.prio < y.prio || x.prio == y.prio && x.seq < y.seq
}

func (c *deltaBaseCache) swap(a, b int) {
	c.heap[a], c.heap[b] = c.heap[b], c.heap[a]
	c.entries[c.heap[a]].heapPos = int32(a)
	c.entries[c.heap[b]].heapPos = int32(b)
}

func (c *deltaBaseCache) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !c.less(j, i) {
			break
		}
		c.swap(i, j)
		j = i
	}
}

func (c *deltaBaseCache) down(i int) {
	n := len(c.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && c.less(r, l) {
			j = r
		}
		if !c.less(j, i) {
			return
		}
		c.swap(i, j)
		i = j
	}
}

// get returns the cached base at key, the whole object. The bytes belong
// to the cache: they are valid only until the next put.
func (c *deltaBaseCache) get(key baseKey) (object.Type, []byte, bool) {
	typ, data, _, ok := c.getPrefix(key, -1)
	return typ, data, ok
}

// getPrefix is get that also takes the first bytes of the object, as
// ReadPrefix leaves them, where there are at least n of them (n < 0:
// only the whole object); partial says data is such a prefix.
func (c *deltaBaseCache) getPrefix(key baseKey, n int) (typ object.Type, data []byte, partial, ok bool) {
	i, ok := c.index[key]
	if !ok {
		if e := &c.over; e.data != nil && e.key == key && (!e.partial || n >= 0 && len(e.data) >= n) {
			return e.typ, e.data, e.partial, true
		}
		return 0, nil, false, false
	}
	e := &c.entries[i]
	if e.partial && (n < 0 || len(e.data) < n) {
		return 0, nil, false, false
	}
	c.touch(e)
	c.down(int(e.heapPos)) // priorities only grow
	return e.typ, e.data, e.partial, true
}

// put stores data (taking ownership) under key, evicting entries of lowest
// priority to stay within the limit. weight is the cost of recomputing
// one byte of data (costInflate for a full object).
func (c *deltaBaseCache) put(key baseKey, typ object.Type, data []byte, weight uint32) {
	c.store(key, typ, data, weight, false)
}

// putPrefix is put for the first bytes of an object (ReadPrefix's
// intermediate results): they take the place of a shorter prefix, never
// of the whole object or of a longer prefix.
func (c *deltaBaseCache) putPrefix(key baseKey, typ object.Type, data []byte, weight uint32) {
	c.store(key, typ, data, weight, true)
}

func (c *deltaBaseCache) store(key baseKey, typ object.Type, data []byte, weight uint32, partial bool) {
	size := int64(cap(data))
	if size > c.limit {
		if size <= c.maxLimit {
			// The bound may grow to hold it, if it comes back.
			c.ghosts.add(key, size, c.maxLimit-c.limit)
			c.recycle(data)
			return
		}
		c.keepOver(key, typ, data, weight, partial)
		return
	}
	if c.over.data != nil && c.over.key == key {
		c.dropOver()
	}
	if i, ok := c.index[key]; ok {
		if e := &c.entries[i]; !e.partial || partial && len(e.data) >= len(data) {
			c.recycle(data)
			return
		}
		c.remove(i)
	}
	for c.used+size > c.limit && len(c.heap) > 0 {
		c.evictMin()
	}
	var i int32
	if n := len(c.freeSlots); n > 0 {
		i = c.freeSlots[n-1]
		c.freeSlots = c.freeSlots[:n-1]
	} else {
		c.entries = append(c.entries, baseEntry{})
		i = int32(len(c.entries) - 1)
	}
	c.entries[i] = baseEntry{key: key, typ: typ, data: data, partial: partial, weight: weight, heapPos: int32(len(c.heap))}
	c.touch(&c.entries[i])
	c.heap = append(c.heap, i)
	c.up(len(c.heap) - 1)
	c.index[key] = i
	c.used += size
}

// keepOver makes data (larger than the ceiling) the entry outside the
// bound, in place of the one there; a cache with no room at all (a
// ceiling of 0: no cache) keeps nothing.
func (c *deltaBaseCache) keepOver(key baseKey, typ object.Type, data []byte, weight uint32, partial bool) {
	if c.maxLimit <= 0 {
		c.recycle(data)
		return
	}
	if e := &c.over; e.data != nil && e.key == key && (!e.partial || partial && len(e.data) >= len(data)) {
		c.recycle(data) // the same object, or a longer start of it
		return
	}
	c.dropOver()
	c.over = baseEntry{key: key, typ: typ, data: data, partial: partial, weight: weight}
}

// dropOver empties the place outside the bound, keeping its buffer as
// overSpare if it is larger than the one kept there.
func (c *deltaBaseCache) dropOver() {
	b := c.over.data
	if b == nil {
		return
	}
	c.over = baseEntry{}
	if cap(b) > cap(c.overSpare) {
		b, c.overSpare = c.overSpare, b[:0]
	}
	if b != nil {
		c.recycle(b)
	}
}

// dropOversized lets go of the entry outside the bound and of its spare
// buffer: what the cache then holds is within its bound.
func (c *deltaBaseCache) dropOversized() {
	c.over, c.overSpare = baseEntry{}, nil
}

func (c *deltaBaseCache) evictMin() {
	i := c.heap[0]
	c.clock = c.entries[i].prio
	c.evict(i, true)
}

// remove drops entry i (a prefix a longer result replaces): an eviction
// that neither advances the clock nor leaves a ghost.
func (c *deltaBaseCache) remove(i int32) {
	c.evict(i, false)
}

// evict takes entry i out of the heap and the index and recycles its
// buffer, remembering it as a ghost if ghost is set.
func (c *deltaBaseCache) evict(i int32, ghost bool) {
	e := &c.entries[i]
	pos := int(e.heapPos)
	last := len(c.heap) - 1
	c.swap(pos, last)
	c.heap = c.heap[:last]
	if pos < last {
		c.down(pos)
		c.up(pos)
	}
	delete(c.index, e.key)
	c.used -= int64(cap(e.data))
	if ghost && c.limit < c.maxLimit {
		c.ghosts.add(e.key, int64(cap(e.data)), c.maxLimit-c.limit)
	}
	c.recycle(e.data)
	e.data = nil
	c.freeSlots = append(c.freeSlots, i)
}

// ghostList remembers recently evicted cache keys with their sizes, in
// eviction order, within a byte budget (and at most maxGhosts keys), so
// that a miss on one of them says that a cache larger by the bytes evicted
// since would have hit.
type ghostList struct {
	index map[baseKey]uint64 // key -> sequence number of its ring slot
	ring  []ghost            // FIFO, oldest at head
	head  int
	count int
	seq   uint64
	bytes int64
}

type ghost struct {
	key  baseKey
	size int64
	seq  uint64
}

const maxGhosts = 4096

// add remembers key (size bytes), forgetting the oldest ghosts beyond
// budget bytes or maxGhosts keys.
func (g *ghostList) add(key baseKey, size, budget int64) {
	if g.index == nil {
		g.index = map[baseKey]uint64{}
	}
	if _, ok := g.index[key]; ok {
		return
	}
	for g.count > 0 && (g.count == maxGhosts || g.bytes+size > budget) {
		g.dropOldest()
	}
	if g.count == len(g.ring) {
		// Grow the ring (to at most maxGhosts), oldest first again.
		ring := make([]ghost, min(max(2*len(g.ring), 64), maxGhosts))
		for i := range g.count {
			ring[i] = g.ring[(g.head+i)%len(g.ring)]
		}
		g.ring, g.head = ring, 0
	}
	g.seq++
	g.ring[(g.head+g.count)%len(g.ring)] = ghost{key: key, size: size, seq: g.seq}
	g.count++
	g.index[key] = g.seq
	g.bytes += size
}

// take forgets key and returns its size, if it is a ghost.
func (g *ghostList) take(key baseKey) (int64, bool) {
	seq, ok := g.index[key]
	if !ok {
		return 0, false
	}
	delete(g.index, key)
	// Its ring slot stays until it is the oldest; the bytes are released
	// now. Slots are in sequence order, so the slot is found by offset.
	slot := &g.ring[(g.head+int(seq-g.ring[g.head].seq))%len(g.ring)]
	size := slot.size
	g.bytes -= size
	slot.size = 0
	return size, true
}

func (g *ghostList) dropOldest() {
	old := &g.ring[g.head]
	if seq, ok := g.index[old.key]; ok && seq == old.seq {
		delete(g.index, old.key)
	}
	g.bytes -= old.size
	*old = ghost{}
	g.head = (g.head + 1) % len(g.ring)
	g.count--
}

// Spare buffers are kept by size class: capacities are rounded up to one
// of four steps per power of two (at most 25% slack), so that a buffer
// freed by one object fits the next object of about the same size.
const numSizeClasses = 4 * 64

// sizeClass returns the class of the smallest capacity >= n, and that
// capacity.
func sizeClass(n int) (int, int) {
	if n <= 64 {
		return 0, 64
	}
	e := bits.Len(uint(n-1)) - 1 // 2^e < n <= 2^(e+1)
	step := 1 << (e - 2)         // quarter of 2^e
	q := (n - 1 - 1<<e) / step   // 0..3
	return 4*e + q, 1<<e + (q+1)*step
}

// floorClass returns the class of the largest class capacity <= c, or -1.
func floorClass(c int) int {
	if c < 64 {
		return -1
	}
	if c < 80 { // 64 itself is class 0 (sizeClass(64))
		return 0
	}
	e := bits.Len(uint(c)) - 1 // 2^e <= c < 2^(e+1)
	step := 1 << (e - 2)
	q := (c - 1<<e) / step // 0..3: c >= 2^e + q*step
	if q == 0 {
		// 2^e is the last class of the previous power: 4*(e-1)+3.
		return 4*(e-1) + 3
	}
	return 4*e + q - 1
}

// recycle keeps a no longer used buffer for buffer() to hand out, within a
// byte budget of the cache limit (at least 4 MiB). A quarter of it (at
// least 1 MiB) dropped most of what the evictions of a long walk gave
// back: git/git Makefile made 3,985 buffers (64 MB) in all its readers
// and dropped 2,205 (48 MB), which the collector had to take and the
// next reads to make again; now 3,009 (40 MB), 830 dropped (Makefile
// 287.8 -> 273.0 ms, builtin/blame.c 132.8 -> 126.3, gitoxide -C
// gix/src/lib.rs 232 -> 214), at the same peak RSS but where the caches
// run full for long (-C -C -C builtin/blame.c: 234 -> 274 MB; git 405).
func (c *deltaBaseCache) recycle(b []byte) {
	cls := floorClass(cap(b))
	if cls < 0 || cls >= numSizeClasses {
		return
	}
	budget := max(c.limit, 4<<20)
	if c.spareBytes+int64(cap(b)) > budget {
		return // let the garbage collector have it
	}
	if c.spare == nil {
		c.spare = make([][][]byte, numSizeClasses)
	}
	c.spare[cls] = append(c.spare[cls], b[:0])
	c.spareBytes += int64(cap(b))
}

// buffer returns a buffer of length n, reusing a spare of its size class
// when there is one.
func (c *deltaBaseCache) buffer(n int) []byte {
	cls, capacity := sizeClass(n)
	if c.spare != nil {
		// The buffer's own class first, then up to three classes larger
		// (at most about twice the size).
		for k := cls; k < cls+4 && k < numSizeClasses; k++ {
			if list := c.spare[k]; len(list) > 0 {
				b := list[len(list)-1]
				list[len(list)-1] = nil
				c.spare[k] = list[:len(list)-1]
				c.spareBytes -= int64(cap(b))
				return b[:n]
			}
		}
	}
	if b := c.overSpare; cap(b) >= n && cap(b) <= 2*capacity {
		c.overSpare = nil
		return b[:n]
	}
	return make([]byte, n, capacity)
}

// objectCache is the by-ID cache behind ReadCached: an LRU bounded in
// bytes. Its buffers are never reused, so bytes it returned stay valid
// after eviction (the garbage collector frees them once unreferenced).
type objectCache struct {
	limit      int64
	used       int64
	index      map[oid.ID]int32
	entries    []objEntry
	freeSlots  []int32
	head, tail int32
}

type objEntry struct {
	id         oid.ID
	typ        object.Type
	data       []byte
	prev, next int32
}

func newObjectCache(limit int64) *objectCache {
	return &objectCache{limit: limit, index: map[oid.ID]int32{}, head: -1, tail: -1}
}

func (c *objectCache) unlink(i int32) {
	e := &c.entries[i]
	if e.prev >= 0 {
		c.entries[e.prev].next = e.next
	} else {
		c.head = e.next
	}
	if e.next >= 0 {
		c.entries[e.next].prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = -1, -1
}

func (c *objectCache) pushFront(i int32) {
	e := &c.entries[i]
	e.prev = -1
	e.next = c.head
	if c.head >= 0 {
		c.entries[c.head].prev = i
	}
	c.head = i
	if c.tail < 0 {
		c.tail = i
	}
}

func (c *objectCache) get(id oid.ID) (object.Type, []byte, bool) {
	i, ok := c.index[id]
	if !ok {
		return 0, nil, false
	}
	if c.head != i {
		c.unlink(i)
		c.pushFront(i)
	}
	e := &c.entries[i]
	return e.typ, e.data, true
}

func (c *objectCache) put(id oid.ID, typ object.Type, data []byte) {
	size := int64(len(data)) + objEntryOverhead
	if size > c.limit {
		return
	}
	if _, ok := c.index[id]; ok {
		return
	}
	for c.used+size > c.limit && c.tail >= 0 {
		t := c.tail
		c.unlink(t)
		e := &c.entries[t]
		delete(c.index, e.id)
		c.used -= int64(len(e.data)) + objEntryOverhead
		e.data = nil
		c.freeSlots = append(c.freeSlots, t)
	}
	var i int32
	if n := len(c.freeSlots); n > 0 {
		i = c.freeSlots[n-1]
		c.freeSlots = c.freeSlots[:n-1]
	} else {
		c.entries = append(c.entries, objEntry{})
		i = int32(len(c.entries) - 1)
	}
	c.entries[i] = objEntry{id: id, typ: typ, data: data, prev: -1, next: -1}
	c.index[id] = i
	c.used += size
	c.pushFront(i)
}

// objEntryOverhead approximates the bookkeeping bytes of one cached object
// (entry, map slot), so that many tiny objects are accounted fairly.
const objEntryOverhead = 96
