package diff

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestLineArena adds lines of every size class (empty, short, a chunk's
// worth, longer than a chunk can be) and reads each back by its loc,
// after more lines, after reserve, and across resets that keep and
// release the chunks; a line's bytes never move once added.
func TestLineArena(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var a lineArena
	for round, release := range []bool{false, false, true, false} {
		type added struct {
			loc  uint64
			want []byte
			at   *byte
		}
		var lines []added
		total := 0
		for i := 0; i < 3000; i++ {
			var n int
			switch r := rng.IntN(100); {
			case r < 60:
				n = rng.IntN(80)
			case r < 95:
				n = rng.IntN(4 << 10)
			case r < 99:
				n = minChunkBytes + rng.IntN(64<<10)
			default:
				n = maxChunkBytes + 1 + rng.IntN(1000)
			}
			if i == 1500 {
				a.reserve(1 << 20)
			}
			line := make([]byte, n)
			for j := range line {
				line[j] = byte(rng.Uint32())
			}
			loc := a.add(line)
			got := a.line(loc)
			var at *byte
			if len(got) > 0 {
				at = &got[0]
			}
			lines = append(lines, added{loc, line, at})
			total += n
		}
		if a.bytes != total {
			t.Fatalf("round %d: %d bytes held, %d added", round, a.bytes, total)
		}
		for i, l := range lines {
			got := a.line(l.loc)
			if !bytes.Equal(got, l.want) {
				t.Fatalf("round %d: line %d (%d bytes) reads back %d bytes, not the same", round, i, len(l.want), len(got))
			}
			if len(got) > 0 && &got[0] != l.at {
				t.Fatalf("round %d: line %d moved", round, i)
			}
		}
		chunks := len(a.chunks)
		a.reset(release)
		if a.bytes != 0 || len(a.big) != 0 {
			t.Fatalf("round %d: reset left %d bytes, %d long lines", round, a.bytes, len(a.big))
		}
		if release && a.chunks != nil || !release && len(a.chunks) != chunks {
			t.Fatalf("round %d: reset(%v) left %d chunks of %d", round, release, len(a.chunks), chunks)
		}
	}
}

// TestLineArenaGrowsWithoutCopying: adding 16 MiB of lines allocates
// about 16 MiB (chunks, none copied into a larger one), where one slice
// grown by append allocated about twice that.
func TestLineArenaGrowsWithoutCopying(t *testing.T) {
	line := bytes.Repeat([]byte("x"), 100)
	allocated := testing.AllocsPerRun(1, func() {
		var a lineArena
		for range 16 << 20 / len(line) {
			a.add(line)
		}
		if c := a.capacity(); c > 20<<20 {
			t.Errorf("16 MiB of lines in %d bytes of chunks", c)
		}
	})
	// Chunks of a quarter of what is held, from 4 KiB to 4 MiB: about
	// 40 of them.
	if allocated > 60 {
		t.Errorf("%v allocations for 16 MiB of lines", allocated)
	}
}
