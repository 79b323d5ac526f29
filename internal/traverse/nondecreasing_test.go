package traverse

import (
	"encoding/binary"
	"math/rand"
	"testing"
)

// TestNonDecreasing compares nonDecreasing, which reads two values at a
// time, with the definition on random BE32 sequences of every length up
// to 13, a decrease (or none) at every place: inside a round of four,
// across two rounds, among the values after the last round.
func TestNonDecreasing(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n <= 13; n++ {
		for trial := 0; trial < 2000; trial++ {
			vals := make([]uint32, n)
			for i := range vals {
				vals[i] = uint32(r.Intn(6))
			}
			want := true
			for i := 1; i < n; i++ {
				if vals[i] < vals[i-1] {
					want = false
				}
			}
			b := make([]byte, 4*n, 4*n+3)
			for i, v := range vals {
				binary.BigEndian.PutUint32(b[4*i:], v)
			}
			if got := nonDecreasing(b); got != want {
				t.Fatalf("nonDecreasing(%v) = %v, want %v", vals, got, want)
			}
			// Stray bytes past the last whole value are not a value.
			if got := nonDecreasing(append(b, 0, 0, 0)); got != want {
				t.Fatalf("nonDecreasing(%v + 3 bytes) = %v, want %v", vals, got, want)
			}
		}
	}
}
