package traverse

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// TestPrefetchNextStaysInBounds asks prefetchNext for every position of
// the fixtures' graphs (split ones too, with and without changed-path
// filters) with parents at both ends, its own and past the end: a hint
// for a place outside the graph's files must be dropped, never read.
func TestPrefetchNextStaysInBounds(t *testing.T) {
	for _, format := range testgit.Formats {
		for _, v := range graphVariants {
			if !v.graph {
				continue
			}
			g := openGraph(t, historyFixture(t, v.name, format), format)
			n := uint32(g.Len())
			for pos := uint32(0); pos < n+3; pos++ {
				for _, parent := range []uint32{0, n - 1, pos, n, n + 100, NoGraphPosition} {
					g.prefetchNext(pos, parent)
				}
			}
		}
	}
}
