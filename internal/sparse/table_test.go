package sparse

import (
	"math/rand/v2"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// TestTableAgainstMap writes random values at random indices (spread
// over a graph-sized range and dense from 0, as the walk's two tables
// are) and compares every read and the iteration with a map.
func TestTableAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spread := range []uint32{300, 85_000, 1 << 24} {
		var tab Table
		if spread == 85_000 {
			tab.Reserve(spread)
		}
		want := map[uint32]uint32{}
		for k := 0; k < 5000; k++ {
			i := rng.Uint32N(spread)
			v := rng.Uint32()
			if k%7 == 0 {
				v = 0 // a 0 written reads as unset
			}
			tab.Set(i, v)
			want[i] = v
			j := rng.Uint32N(spread)
			if got := tab.Get(j); got != want[j] {
				t.Fatalf("spread %d: Get(%d) = %d, want %d", spread, j, got, want[j])
			}
		}
		var last uint32
		n := 0
		for i, v := range tab.All() {
			if n > 0 && i <= last {
				t.Fatalf("spread %d: All out of order: %d after %d", spread, i, last)
			}
			if v == 0 || want[i] != v {
				t.Fatalf("spread %d: All yields %d at %d, want %d", spread, v, i, want[i])
			}
			last = i
			n++
		}
		nonzero := 0
		for _, v := range want {
			if v != 0 {
				nonzero++
			}
		}
		if n != nonzero {
			t.Fatalf("spread %d: All yields %d values, want %d", spread, n, nonzero)
		}
		tab.Reset()
		if tab.Get(last) != 0 {
			t.Fatalf("spread %d: a value survives Reset", spread)
		}
	}
}

// TestShortUseAllocatesLittle: a few writes into a table reserved for
// 85,000 indices allocate a chunk each, not the table.
func TestShortUseAllocatesLittle(t *testing.T) {
	testgit.SkipUnderRace(t)
	allocs := testing.AllocsPerRun(20, func() {
		var tab Table
		tab.Reserve(85_000)
		for _, i := range []uint32{7, 40_000, 84_999, 8} {
			tab.Set(i, i+1)
		}
	})
	if allocs != 4 { // the chunk list and three chunks
		t.Errorf("%v allocations, want 4", allocs)
	}
}
