package diff

import (
	"math/rand/v2"
	"testing"
)

// cleanMmatch is xdiff's xdl_clean_mmatch as written there: both sides
// of line i scanned, one line at a time, up to simscanWindow lines.
func cleanMmatch(dis []byte, i int) bool {
	s, e := 0, len(dis)-1
	if i-s > simscanWindow {
		s = i - simscanWindow
	}
	if e-i > simscanWindow {
		e = i + simscanWindow
	}
	none0, multi0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if d := dis[i-r]; d == 0 {
			none0++
		} else if d == 2 {
			multi0++
		} else {
			break
		}
	}
	if none0 == 0 {
		return false
	}
	none1, multi1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if d := dis[i+r]; d == 0 {
			none1++
		} else if d == 2 {
			multi1++
		} else {
			break
		}
	}
	if none1 == 0 {
		return false
	}
	multi := multi0 + multi1
	return multi*keepDiscardRun < multi+none0+none1
}

// TestMultimatchScan: reduce's discards are xdiff's, line for line, on
// classifications of every mix: random, long runs of multimatch lines
// with unmatched ones scattered in (a file of blank lines), runs longer
// than the ring and the window, lines matching once far apart or none;
// one scratch for every round, its ring never cleared.
func TestMultimatchScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var mm multimatchScan // reused across rounds, as a myersState's is
	for round := range 3000 {
		n := rng.IntN(700)
		if round%10 == 0 {
			n = rng.IntN(4)
		}
		p0, p1 := rng.Float64(), rng.Float64()
		if round%3 == 0 {
			p1 /= 200 // lines matching once are rare: long runs
		}
		dis := make([]byte, n)
		for i := range dis {
			switch r := rng.Float64(); {
			case r < p0*(1-p1):
				dis[i] = 0
			case r < p0*(1-p1)+p1:
				dis[i] = 1
			default:
				dis[i] = 2
			}
		}
		lines := make([]uint32, n)
		ch := make([]byte, n)
		ha, ri := reduce(nil, nil, dis, lines, ch, 0, &mm)
		k := 0
		for i, d := range dis {
			keep := d == 1 || d == 2 && !cleanMmatch(dis, i)
			if got := ch[i] == 0; got != keep {
				t.Fatalf("round %d, line %d of %d (class %d): kept %v, xdiff keeps %v", round, i, n, d, got, keep)
			}
			if keep {
				if k >= len(ri) || ri[k] != int32(i) {
					t.Fatalf("round %d: kept line %d is not the reduced sequence's %d", round, i, k)
				}
				k++
			}
		}
		if k != len(ha) {
			t.Fatalf("round %d: %d lines kept, reduced sequence of %d", round, k, len(ha))
		}
	}
}
