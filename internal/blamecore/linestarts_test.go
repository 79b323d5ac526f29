package blamecore_test

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
)

// TestLineStarts compares LineStarts with the definition (a line ends
// after '\n', a final fragment is a line too, len(buf) closes the list)
// on random texts of newlines and other bytes, empty ones included.
func TestLineStarts(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 5000 {
		buf := make([]byte, r.Intn(200))
		for i := range buf {
			buf[i] = "ab\n"[r.Intn(3)]
		}
		var want []int
		start := 0
		for i, c := range buf {
			if c == '\n' {
				want = append(want, start)
				start = i + 1
			}
		}
		if start < len(buf) {
			want = append(want, start)
		}
		want = append(want, len(buf))
		if got := blamecore.LineStarts(buf); !slices.Equal(got, want) {
			t.Fatalf("LineStarts(%q) = %v, want %v", buf, got, want)
		}
	}
}
