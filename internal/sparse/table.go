// Package sparse holds Table, a table of uint32 values by uint32 index
// whose storage comes in chunks of chunkLen entries, each allocated on
// the first write into it.
//
// The walk keeps two such tables of the commit-graph's size (graph
// position -> commit, commit -> scoreboard node: git/git's 85,000
// commits). Allocated whole they took 680 KB of a blame's heap, a third
// of what a short walk allocates (a file added lately: a few commits, a
// few positions written), and on a heap whose first megabytes are huge
// pages that pushed such a blame's 2 MB of allocations into a second
// 2 MiB page, whole pages counted resident: git/git compat/writev.c
// peaked at 13.7 MB in half of its runs against git's 12.7. In chunks, a
// short walk allocates a chunk per position it writes and a long one
// about what the flat table took, at the cost of one load more a lookup.
// The chunks hold no pointers: no collection scans them.
package sparse

import "iter"

const (
	chunkBits = 8
	chunkLen  = 1 << chunkBits
)

// Table maps uint32 indices to uint32 values, 0 where never set. The
// zero Table is empty and ready to use.
type Table struct {
	chunks []*[chunkLen]uint32
}

// Reserve makes room in the chunk list for indices below n, so that Set
// does not grow it (the chunks themselves are still made on first write).
func (t *Table) Reserve(n uint32) { t.reserve(uint64(n)) }

func (t *Table) reserve(n uint64) {
	if want := int(n>>chunkBits) + 1; want > len(t.chunks) {
		t.chunks = append(t.chunks, make([]*[chunkLen]uint32, want-len(t.chunks))...)
	}
}

// Get returns the value at i (0 where never set).
func (t *Table) Get(i uint32) uint32 {
	if c := int(i >> chunkBits); c < len(t.chunks) {
		if ch := t.chunks[c]; ch != nil {
			return ch[i&(chunkLen-1)]
		}
	}
	return 0
}

// Set sets the value at i.
func (t *Table) Set(i, v uint32) {
	c := int(i >> chunkBits)
	if c >= len(t.chunks) {
		// Half again as many chunk slots as needed (up to a million
		// entries more): appends by increasing index (the scoreboard's)
		// grow the list rarely.
		t.reserve(uint64(i) + min(uint64(i)/2, 1<<20))
	}
	ch := t.chunks[c]
	if ch == nil {
		ch = new([chunkLen]uint32)
		t.chunks[c] = ch
	}
	ch[i&(chunkLen-1)] = v
}

// All yields the indices set to a value other than 0, in increasing
// order, with their values.
func (t *Table) All() iter.Seq2[uint32, uint32] {
	return func(yield func(uint32, uint32) bool) {
		for c, ch := range t.chunks {
			if ch == nil {
				continue
			}
			for k, v := range ch {
				if v != 0 && !yield(uint32(c)<<chunkBits|uint32(k), v) {
					return
				}
			}
		}
	}
}

// Reset empties the table (its chunks go to the collector).
func (t *Table) Reset() { t.chunks = nil }
