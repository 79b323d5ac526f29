package odb

import "testing"

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
	// An entry larger than the whole cache is not kept.
	c.put(baseKey{3, 0}, 3, make([]byte, 20000), costInflate)
	if _, _, ok := c.get(baseKey{3, 0}); ok {
		t.Fatal("oversized entry kept")
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
