package odb

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

func TestSizeClasses(t *testing.T) {
	prevCap := 0
	for n := 1; n < 1<<22; n += 1 + n/7 {
		cls, c := sizeClass(n)
		if c < n || c > n+n/4+64 {
			t.Fatalf("sizeClass(%d) capacity %d", n, c)
		}
		if floorClass(c) != cls {
			t.Fatalf("floorClass(%d) = %d, sizeClass(%d) = %d", c, floorClass(c), n, cls)
		}
		// Any capacity >= c floors to a class >= cls.
		if f := floorClass(c + 1); f < cls {
			t.Fatalf("floorClass(%d) = %d < %d", c+1, f, cls)
		}
		if c < prevCap {
			t.Fatalf("capacities not monotonic at %d", n)
		}
		prevCap = c
	}
	// A recycled buffer is handed out again for a request of its class.
	c := newDeltaBaseCache(16 << 20)
	b := c.buffer(1000)
	c.recycle(b)
	if b2 := c.buffer(990); cap(b2) != cap(b) {
		t.Fatalf("spare not reused: cap %d, want %d", cap(b2), cap(b))
	}
}

// TestDeltaBaseCacheBound fills the cache past its limit and checks that
// it stays within it, evicting least recently used entries first.
func TestDeltaBaseCacheBound(t *testing.T) {
	c := newDeltaBaseCache(10000)
	for i := 0; i < 100; i++ {
		c.put(baseKey{1, uint64(i)}, 3, c.buffer(1000), costInflate)
		if c.used > c.limit {
			t.Fatalf("cache holds %d bytes, limit %d", c.used, c.limit)
		}
	}
	if _, _, ok := c.get(baseKey{1, 0}); ok {
		t.Fatal("oldest entry survived")
	}
	if _, _, ok := c.get(baseKey{1, 99}); !ok {
		t.Fatal("newest entry evicted")
	}
	// Touching an entry protects it from the next eviction.
	c.get(baseKey{1, 92})
	c.put(baseKey{2, 0}, 3, c.buffer(1000), costInflate)
	if _, _, ok := c.get(baseKey{1, 92}); !ok {
		t.Fatal("recently used entry evicted")
	}
	// An entry larger than the whole cache is kept outside the bound,
	// evicting nothing, until the next such entry takes its place.
	used := c.used
	c.put(baseKey{3, 0}, 3, make([]byte, 20000), costInflate)
	if _, data, ok := c.get(baseKey{3, 0}); !ok || len(data) != 20000 {
		t.Fatal("the last oversized entry is not kept")
	}
	if c.used != used {
		t.Fatalf("an oversized entry changed the bounded entries' bytes from %d to %d", used, c.used)
	}
	if _, _, ok := c.get(baseKey{1, 92}); !ok {
		t.Fatal("an oversized entry evicted a bounded one")
	}
	c.put(baseKey{3, 1}, 3, make([]byte, 30000), costInflate)
	if _, _, ok := c.get(baseKey{3, 0}); ok {
		t.Fatal("two oversized entries kept")
	}
	if _, _, ok := c.get(baseKey{3, 1}); !ok {
		t.Fatal("the last oversized entry is not kept")
	}
	// Its buffer is handed out again (the spare lists' budget would
	// drop it) once the next one replaces it.
	c.put(baseKey{3, 2}, 3, make([]byte, 20000), costInflate)
	if b := c.buffer(25000); cap(b) != 30000 {
		t.Fatalf("buffer for 25000 bytes has capacity %d, want the replaced entry's 30000", cap(b))
	}

	// dropOversized leaves only what the bound holds.
	c.put(baseKey{3, 3}, 3, make([]byte, 20000), costInflate) // {3, 2}'s buffer spare
	if c.overSpare == nil {
		t.Fatal("no spare kept from the replaced oversized entry")
	}
	c.dropOversized()
	if _, _, ok := c.get(baseKey{3, 3}); ok || c.overSpare != nil {
		t.Fatal("dropOversized kept the oversized entry or its spare")
	}
	if _, _, ok := c.get(baseKey{1, 92}); !ok {
		t.Fatal("dropOversized dropped a bounded entry")
	}

	// A cache with no room (bound 0) keeps nothing.
	c = newDeltaBaseCache(0)
	c.put(baseKey{1, 0}, 3, make([]byte, 100), costInflate)
	if _, _, ok := c.get(baseKey{1, 0}); ok {
		t.Fatal("a cache of bound 0 kept an entry")
	}
}

// TestDeltaBaseCacheKeepsExpensiveEntries checks the cost-aware eviction:
// full objects (costly to inflate again) survive a stream of cheap delta
// results of the same size that would push them out of a plain LRU.
func TestDeltaBaseCacheKeepsExpensiveEntries(t *testing.T) {
	c := newDeltaBaseCache(10000)
	for i := 0; i < 3; i++ {
		c.put(baseKey{1, uint64(i)}, 3, c.buffer(1000), costInflate)
	}
	for i := 0; i < 30; i++ {
		c.put(baseKey{2, uint64(i)}, 3, c.buffer(1000), costReplay)
	}
	for i := 0; i < 3; i++ {
		if _, _, ok := c.get(baseKey{1, uint64(i)}); !ok {
			t.Fatalf("full object %d evicted by cheap delta results", i)
		}
	}
	if _, _, ok := c.get(baseKey{2, 0}); ok {
		t.Fatal("oldest delta result survived")
	}
	if _, _, ok := c.get(baseKey{2, 29}); !ok {
		t.Fatal("newest delta result evicted")
	}
	// Unused expensive entries still age out: the clock catches up.
	for i := 0; i < 200; i++ {
		c.put(baseKey{3, uint64(i)}, 3, c.buffer(1000), costReplay)
	}
	if _, _, ok := c.get(baseKey{1, 0}); ok {
		t.Fatal("an unused full object never aged out")
	}
}

// TestDeltaBaseCacheGrowsOnlyWhenLargerWouldHit: the bound starts at
// deltaBaseStartBytes, stays there for reads that never come back to a
// base, and grows when bases come back after more bytes than it holds,
// until a cyclic working set fits.
func TestDeltaBaseCacheGrowsOnlyWhenLargerWouldHit(t *testing.T) {
	const entry = 16 << 10
	read := func(c *deltaBaseCache, key baseKey) bool {
		if _, _, ok := c.get(key); ok {
			return true
		}
		c.missed(key)
		c.put(key, 3, c.buffer(entry), costInflate)
		return false
	}

	// Never the same base twice: no ghost is ever asked for.
	c := newDeltaBaseCache(8 << 20)
	if c.limit != deltaBaseStartBytes {
		t.Fatalf("starts at %d, want %d", c.limit, deltaBaseStartBytes)
	}
	for i := range 4096 {
		read(c, baseKey{1, uint64(i)})
	}
	if c.limit != deltaBaseStartBytes {
		t.Fatalf("a stream without reuse grew the bound to %d", c.limit)
	}
	if c.used > c.limit {
		t.Fatalf("holds %d bytes over the bound %d", c.used, c.limit)
	}

	// A cycle over 96 entries (1.5 MiB): misses at first, then the bound
	// grows to hold the cycle and every read hits.
	c = newDeltaBaseCache(8 << 20)
	var hits int
	for round := range 6 {
		hits = 0
		for i := range 96 {
			if read(c, baseKey{1, uint64(i)}) {
				hits++
			}
		}
		if round == 0 && hits != 0 {
			t.Fatalf("first round hit %d times", hits)
		}
	}
	if hits != 96 {
		t.Fatalf("last round hit %d of 96 (bound %d)", hits, c.limit)
	}
	if c.limit < 96*entry || c.limit > 2*96*entry {
		t.Fatalf("bound %d for a working set of %d", c.limit, 96*entry)
	}

	// The ceiling holds: cycles up to it grow the bound to hold them,
	// longer ones (which only a larger cache could serve) no further.
	c = newDeltaBaseCache(1 << 20)
	for n := 40; n <= 200; n += 20 {
		for range 3 {
			for i := range n {
				read(c, baseKey{1, uint64(i)})
			}
		}
		if c.limit > 1<<20 || c.used > c.limit {
			t.Fatalf("bound %d (holding %d) with a ceiling of %d", c.limit, c.used, 1<<20)
		}
	}
	if c.limit < 60*entry { // the largest cycle under the ceiling
		t.Fatalf("bound %d does not hold a cycle of %d under the ceiling %d", c.limit, 60*entry, 1<<20)
	}

	// A base larger than the bound but within the ceiling is kept once a
	// miss on it shows that it comes back.
	c = newDeltaBaseCache(8 << 20)
	big := baseKey{2, 0}
	for range 2 {
		if _, _, ok := c.get(big); ok {
			t.Fatal("hit before it could be kept")
		}
		c.missed(big)
		c.put(big, 3, c.buffer(1<<20), costInflate)
	}
	if _, _, ok := c.get(big); !ok {
		t.Fatalf("a base that came back is not kept (bound %d)", c.limit)
	}
	// One larger than the ceiling is kept outside the bound at once (no
	// miss can grow the bound to it), until the next such base.
	huge, other := baseKey{3, 0}, baseKey{3, 1}
	c.put(huge, 3, c.buffer(9<<20), costInflate)
	if _, _, ok := c.get(huge); !ok || c.used > c.limit {
		t.Fatalf("a base over the ceiling: kept %v, bounded bytes %d of %d", ok, c.used, c.limit)
	}
	c.put(other, 3, c.buffer(9<<20), costInflate)
	if _, _, ok := c.get(huge); ok {
		t.Fatal("two bases over the ceiling kept")
	}
	if _, _, ok := c.get(big); !ok {
		t.Fatal("a base over the ceiling evicted one within the bound")
	}
}

// TestGhostList: ghosts stay within their byte budget and key count, are
// taken once, and forgotten oldest first.
func TestGhostList(t *testing.T) {
	var g ghostList
	for i := range 3 * maxGhosts {
		g.add(baseKey{1, uint64(i)}, 10, 1<<30)
		if g.count > maxGhosts {
			t.Fatalf("%d ghosts", g.count)
		}
	}
	if _, ok := g.take(baseKey{1, 0}); ok {
		t.Fatal("oldest ghost kept past maxGhosts")
	}
	newest := baseKey{1, 3*maxGhosts - 1}
	if size, ok := g.take(newest); !ok || size != 10 {
		t.Fatalf("newest ghost: %d %v", size, ok)
	}
	if _, ok := g.take(newest); ok {
		t.Fatal("ghost taken twice")
	}
	g = ghostList{}
	for i := range 100 {
		g.add(baseKey{1, uint64(i)}, 100, 1000)
		if g.bytes > 1000 {
			t.Fatalf("ghosts hold %d bytes over a budget of 1000", g.bytes)
		}
	}
	if _, ok := g.take(baseKey{1, 89}); ok {
		t.Fatal("ghost beyond the byte budget kept")
	}
	if _, ok := g.take(baseKey{1, 95}); !ok {
		t.Fatal("recent ghost forgotten")
	}
}

// TestFullCacheStartsAtItsBound: NewReaderFullCache's cache holds its
// whole bound from the start; NewReaderCache's starts small.
func TestFullCacheStartsAtItsBound(t *testing.T) {
	db, err := Open(emptyObjects(t), oid.SHA1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.NewReaderFullCache(16 << 20).Stats().DeltaBaseCacheBound; got != 16<<20 {
		t.Errorf("full cache starts at %d", got)
	}
	if got := db.NewReaderCache(16 << 20).Stats().DeltaBaseCacheBound; got != deltaBaseStartBytes {
		t.Errorf("adaptive cache starts at %d", got)
	}
}

// TestDeltaBaseCachePrefixes checks the cache's prefixes (ReadPrefix's
// intermediate results): get never returns one, getPrefix only one of
// at least the bytes asked for, a whole object replaces a prefix but
// never the other way round, a longer prefix replaces a shorter one, and
// the heap and the byte count stay consistent through the replacements.
func TestDeltaBaseCachePrefixes(t *testing.T) {
	c := newDeltaBaseCache(1 << 20)
	k := func(i int) baseKey { return baseKey{1, uint64(i)} }
	buf := func(n int, fill byte) []byte {
		b := c.buffer(n)
		for i := range b {
			b[i] = fill
		}
		return b
	}
	c.putPrefix(k(1), 3, buf(100, 'p'), costReplay)
	if _, _, ok := c.get(k(1)); ok {
		t.Fatal("get returned a prefix")
	}
	if _, d, partial, ok := c.getPrefix(k(1), 100); !ok || !partial || len(d) != 100 {
		t.Fatalf("getPrefix(100) = %d bytes, partial %v, ok %v", len(d), partial, ok)
	}
	if _, _, _, ok := c.getPrefix(k(1), 101); ok {
		t.Fatal("getPrefix(101) returned a 100-byte prefix")
	}
	c.putPrefix(k(1), 3, buf(50, 's'), costReplay) // shorter: ignored
	if _, d, _, _ := c.getPrefix(k(1), 0); len(d) != 100 {
		t.Fatalf("a shorter prefix replaced a longer one: %d bytes", len(d))
	}
	c.putPrefix(k(1), 3, buf(200, 'l'), costReplay) // longer: replaces
	if _, d, _, _ := c.getPrefix(k(1), 150); len(d) != 200 || d[0] != 'l' {
		t.Fatalf("a longer prefix did not replace a shorter one: %d bytes", len(d))
	}
	c.put(k(1), 3, buf(300, 'w'), costInflate) // whole: replaces
	if _, d, ok := c.get(k(1)); !ok || len(d) != 300 || d[0] != 'w' {
		t.Fatalf("the whole object did not replace a prefix: %d bytes, %v", len(d), ok)
	}
	c.putPrefix(k(1), 3, buf(250, 'x'), costReplay) // never over the whole
	if _, d, partial, _ := c.getPrefix(k(1), 10); partial || d[0] != 'w' {
		t.Fatal("a prefix replaced the whole object")
	}
	// Many replacements among many entries: the heap stays a heap and
	// used counts the buffers held.
	for i := 0; i < 2000; i++ {
		key := k(10 + i%37)
		if i%3 == 0 {
			c.put(key, 3, buf(64+i%500, 'w'), costInflate)
		} else {
			c.putPrefix(key, 3, buf(32+i%700, 'p'), costReplay)
		}
		var used int64
		for j, e := range c.heap {
			if c.entries[e].heapPos != int32(j) {
				t.Fatalf("step %d: entry %d at heap %d says %d", i, e, j, c.entries[e].heapPos)
			}
			if j > 0 && c.less(j, (j-1)/2) {
				t.Fatalf("step %d: heap order broken at %d", i, j)
			}
			used += int64(cap(c.entries[e].data))
		}
		if used != c.used || len(c.index) != len(c.heap) {
			t.Fatalf("step %d: used %d, buffers %d; index %d, heap %d", i, c.used, used, len(c.index), len(c.heap))
		}
	}
}

// TestOversizedChainReadsOnce reads the versions of a delta chain whose
// objects are all larger than the reader's delta-base cache, each after
// the one it is a delta of, as a blame reads a large file's history: the
// last base stays outside the bound, so each read replays two deltas
// (its own and its base's, which the read before returned and did not
// cache) and the chain's full object is inflated once. Dropping them
// replayed every chain from its full object: 820 deltas.
func TestOversizedChainReadsOnce(t *testing.T) {
	db, ids, contents := strideChains(t)
	r := db.NewReaderCache(1 << 10)
	var buf []byte
	for i := 0; i <= 40; i++ {
		typ, data, err := r.Read(ids[i], buf)
		if err != nil || typ != object.Blob || !bytes.Equal(data, contents[i]) {
			t.Fatalf("version %d: %v %v", i, typ, err)
		}
		buf = data
	}
	s := r.Stats()
	if s.DeltasApplied != 1+2*39 {
		t.Fatalf("%d deltas replayed for the 40 versions above the full object, want %d", s.DeltasApplied, 1+2*39)
	}
	var deltas int64
	for i := 1; i <= 40; i++ {
		deltas += int64(len(testpack.Delta(contents[i-1], contents[i])))
	}
	if full := int64(len(contents[0])); s.BytesInflated > full+2*deltas {
		t.Fatalf("%d bytes inflated: the full object (%d bytes) more than once, or deltas (%d bytes) more than twice", s.BytesInflated, full, deltas)
	}
	if r.bases.used != 0 || r.bases.limit != 1<<10 {
		t.Fatalf("bounded entries %d bytes, bound %d: the oversized bases went inside the bound", r.bases.used, r.bases.limit)
	}
}

// TestDeltaBaseCeiling: a Reader whose delta-base cache may grow past
// the default (SetDeltaBaseCeiling, as a blame of a large file raises
// it) reads the versions of a chain of 2 MiB blobs, newest first, with
// fewer deltas replayed than the default's three versions allow (54
// against 93: the bound grows as versions come back); a
// lower ceiling brings the bound down at once, and reads still give the
// same bytes.
func TestDeltaBaseCeiling(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		objects := emptyObjects(t)
		base := bytes.Repeat([]byte("a line of a large file that every version keeps\n"), (2<<20)/48)
		chain, contents := deltaChain(format, base, 24, 0)
		testpack.Write(t, filepath.Join(objects, "pack"), format, "ceiling", chain)
		db, err := Open(objects, format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		readAll := func(r *Reader) int64 {
			t.Helper()
			before := r.Stats().DeltasApplied
			for i := len(chain) - 1; i >= 0; i-- {
				_, data, err := r.Read(chain[i].ID, nil)
				if err != nil || !bytes.Equal(data, contents[i]) {
					t.Fatalf("%v: version %d: %d bytes, %v", format, i, len(data), err)
				}
			}
			return r.Stats().DeltasApplied - before
		}
		def := readAll(db.NewReaderCache(DefaultDeltaBaseCacheBytes))
		r := db.NewReaderCache(DefaultDeltaBaseCacheBytes)
		r.SetDeltaBaseCeiling(32 << 20)
		raised := readAll(r)
		if raised*3 > def*2 {
			t.Errorf("%v: %d deltas replayed with a 32 MiB ceiling, %d with the default; want at most two thirds", format, raised, def)
		}
		if b := r.Stats().DeltaBaseCacheBound; b <= DefaultDeltaBaseCacheBytes {
			t.Errorf("%v: the bound stayed at %d under a 32 MiB ceiling", format, b)
		}
		r.SetDeltaBaseCeiling(0)
		if b := r.Stats().DeltaBaseCacheBound; b > DefaultDeltaBaseCacheBytes {
			t.Errorf("%v: the bound is %d after the ceiling came back to the default", format, b)
		}
		readAll(r)
		t.Logf("%v: %d deltas replayed with the default ceiling, %d with 32 MiB", format, def, raised)
		db.Close()
	}
}
