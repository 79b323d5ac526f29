package diff

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSweepsMatchGo runs sweepForward and sweepBackward (in assembly on
// amd64) and sweepForwardGo and sweepBackwardGo on the same random
// states: sequences over a few ids (long snakes) and over many (short
// ones), vectors as split leaves them, every domain of diagonals, with
// and without the check. Both must return the same and leave the same
// vectors.
func TestSweepsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for round := range 20000 {
		n1, n2 := rng.IntN(40), rng.IntN(40)
		ids := uint32(1 + rng.IntN(4))
		if round%2 == 1 {
			ids = 1000
		}
		a, b := make([]uint32, n1), make([]uint32, n2)
		for i := range a {
			a[i] = uint32(rng.IntN(int(ids)))
		}
		for i := range b {
			b[i] = uint32(rng.IntN(int(ids)))
		}
		sh := n2 + 1
		ndiags := n1 + n2 + 3
		off1, off2 := rng.IntN(n1+1), rng.IntN(n2+1)
		lim1, lim2 := off1+rng.IntN(n1-off1+1), off2+rng.IntN(n2-off2+1)
		dmin, dmax := off1-lim2, lim1-off2
		// A domain inside [dmin, dmax] (the sweeps read one diagonal
		// past each end).
		lo := dmin + rng.IntN(dmax-dmin+1)
		hi := lo + rng.IntN(dmax-lo+1)
		olo := dmin + rng.IntN(dmax-dmin+1)
		ohi := olo + rng.IntN(dmax-olo+1)
		check := rng.IntN(2) == 0
		fill := func(v []int32) {
			for i := range v {
				v[i] = int32(rng.IntN(n1+3) - 1)
			}
		}
		kvf, kvb := make([]int32, ndiags), make([]int32, ndiags)
		fill(kvf)
		fill(kvb)
		if rng.IntN(4) == 0 {
			kvb[lo-1+sh], kvb[hi+1+sh] = kvMax, kvMax
		}
		f1, b1 := slices.Clone(kvf), slices.Clone(kvb)
		x1, y1, m1, s1 := sweepForward(f1, b1, sh, lo, hi, olo, ohi, check, a[:lim1], b[:lim2])
		f2, b2 := slices.Clone(kvf), slices.Clone(kvb)
		x2, y2, m2, s2 := sweepForwardGo(f2, b2, sh, lo, hi, olo, ohi, check, a[:lim1], b[:lim2])
		if x1 != x2 || y1 != y2 || m1 != m2 || s1 != s2 || !slices.Equal(f1, f2) || !slices.Equal(b1, b2) {
			t.Fatalf("round %d: forward over [%d,%d] check %v [%d,%d]: %d %d %v %v, Go %d %d %v %v", round, lo, hi, check, olo, ohi, x1, y1, m1, s1, x2, y2, m2, s2)
		}
		f1, b1 = slices.Clone(kvf), slices.Clone(kvb)
		x1, y1, m1, s1 = sweepBackward(b1, f1, sh, lo, hi, olo, ohi, check, a[off1:lim1], b[off2:lim2], off1, off2)
		f2, b2 = slices.Clone(kvf), slices.Clone(kvb)
		x2, y2, m2, s2 = sweepBackwardGo(b2, f2, sh, lo, hi, olo, ohi, check, a[off1:lim1], b[off2:lim2], off1, off2)
		if x1 != x2 || y1 != y2 || m1 != m2 || s1 != s2 || !slices.Equal(f1, f2) || !slices.Equal(b1, b2) {
			t.Fatalf("round %d: backward over [%d,%d] check %v [%d,%d]: %d %d %v %v, Go %d %d %v %v", round, lo, hi, check, olo, ohi, x1, y1, m1, s1, x2, y2, m2, s2)
		}
	}
}
