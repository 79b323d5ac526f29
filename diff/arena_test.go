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

// TestLineArenaLastChunk: past the last chunk number a location can
// hold, lines are kept apart as long lines are (never reached in a
// blame: a table is started afresh long before), and read back.
func TestLineArenaLastChunk(t *testing.T) {
	var a lineArena
	a.chunks = make([][]byte, maxLocChunks-1)
	a.cur = maxLocChunks - 2
	a.chunks[a.cur] = make([]byte, 0, 4)
	// abcd fills the chunk before the last, efgh starts the last (4 KiB),
	// the two lines of 3,000 bytes do not both fit in it.
	want := [][]byte{[]byte("abcd"), []byte("efgh"), bytes.Repeat([]byte("x"), 3000), bytes.Repeat([]byte("y"), 3000), []byte("z")}
	var locs []uint64
	for _, l := range want {
		a.reserve(len(l))
		locs = append(locs, a.add(l))
	}
	for i, l := range want {
		if got := a.line(locs[i]); !bytes.Equal(got, l) {
			t.Errorf("line %d reads back %q, want %q", i, got, l)
		}
	}
	if a.cur != maxLocChunks-1 || len(a.big) == 0 {
		t.Errorf("at chunk %d with %d long lines: the last chunk was not filled, or no line kept apart", a.cur, len(a.big))
	}
}
