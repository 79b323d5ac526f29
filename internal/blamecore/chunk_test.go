package blamecore

import (
	"math/rand"
	"testing"

	"github.com/goblame/goblame/diff"
	"github.com/goblame/goblame/internal/traverse"
)

// lineFate is where one target line ends up after passToParent.
type lineFate struct {
	kept  bool
	sLine int // line in the target (kept) or in the parent (passed)
}

// modelFates computes, line by line, what blame_chunk must do: a target
// line inside a hunk's new side stays, any other moves to the parent at
// its line plus the offset accumulated by the hunks before it.
func modelFates(hunks []diff.Hunk, targetLine int) lineFate {
	offset := 0
	for _, h := range hunks {
		if targetLine < h.NewStart {
			break
		}
		if targetLine < h.NewStart+h.NewCount {
			return lineFate{kept: true, sLine: targetLine}
		}
		offset = h.OldStart + h.OldCount - (h.NewStart + h.NewCount)
	}
	return lineFate{sLine: targetLine + offset}
}

// randomHunks makes a valid increasing hunk list for a target of n lines.
func randomHunks(r *rand.Rand, n int) []diff.Hunk {
	var hunks []diff.Hunk
	a, b := 0, 0
	for b <= n {
		gap := r.Intn(4)
		if b+gap > n {
			break
		}
		a += gap
		b += gap
		oldCount := r.Intn(3)
		newCount := r.Intn(3)
		if b+newCount > n {
			newCount = n - b
		}
		if oldCount == 0 && newCount == 0 {
			oldCount = 1
		}
		hunks = append(hunks, diff.Hunk{OldStart: a, OldCount: oldCount, NewStart: b, NewCount: newCount})
		a += oldCount
		b += newCount
		if r.Intn(4) == 0 {
			break
		}
		// hunks are separated by at least one unchanged line
		a++
		b++
		if b > n {
			break
		}
	}
	return hunks
}

// TestChunkerMatchesLineModel checks the range algebra of passToParent
// (splitting entries at both hunk edges, shifting what goes to the
// parent) against a line-by-line model on random entry layouts and
// hunks, including entries that straddle one or several hunk edges.
func TestChunkerMatchesLineModel(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 20000; iter++ {
		n := 1 + r.Intn(30)
		target := &origin{path: "t", seq: 1}
		parent := &origin{path: "p", seq: 2}
		// Cut [0, n) target lines into consecutive entries; final lines
		// are a shifted copy so that lno and sLno differ.
		var head *entry
		tail := &head
		lnoBase := r.Intn(5)
		for s := 0; s < n; {
			k := 1 + r.Intn(n-s)
			e := &entry{lno: lnoBase + s, sLno: s, numLines: k, suspect: target}
			*tail = e
			tail = &e.next
			s += k
		}
		target.suspects = head
		hunks := randomHunks(r, n)

		c := &chunker{parent: parent, target: target, rest: target.suspects}
		offset := 0
		for _, h := range hunks {
			c.chunk(h.NewStart, h.OldStart-h.NewStart, h.NewStart+h.NewCount, h.OldCount)
			offset = h.OldStart + h.OldCount - (h.NewStart + h.NewCount)
		}
		c.finish(offset)

		seen := make([]bool, n)
		check := func(list *entry, kept bool, owner *origin) {
			prev := -1
			for e := list; e != nil; e = e.next {
				if e.suspect != owner {
					t.Fatalf("iter %d: entry on wrong list", iter)
				}
				if e.sLno < prev {
					t.Fatalf("iter %d: list not sorted by sLno", iter)
				}
				prev = e.sLno
				if e.numLines < 1 {
					t.Fatalf("iter %d: empty entry", iter)
				}
				for k := 0; k < e.numLines; k++ {
					tl := e.lno - lnoBase + k
					if tl < 0 || tl >= n || seen[tl] {
						t.Fatalf("iter %d: line %d lost or duplicated", iter, tl)
					}
					seen[tl] = true
					want := modelFates(hunks, tl)
					if want.kept != kept || want.sLine != e.sLno+k {
						t.Fatalf("iter %d: hunks %v: target line %d went kept=%v to %d, want kept=%v to %d",
							iter, hunks, tl, kept, e.sLno+k, want.kept, want.sLine)
					}
				}
			}
		}
		check(target.suspects, true, target)
		check(c.parentHead, false, parent)
		for i, ok := range seen {
			if !ok {
				t.Fatalf("iter %d: line %d lost", iter, i)
			}
		}
	}
}

func TestMergeBySLnoIsStable(t *testing.T) {
	a := &entry{sLno: 1, lno: 10, next: &entry{sLno: 3, lno: 11}}
	b := &entry{sLno: 1, lno: 20, next: &entry{sLno: 2, lno: 21}}
	var got []int
	for e := mergeBySLno(a, b); e != nil; e = e.next {
		got = append(got, e.lno)
	}
	want := []int{10, 20, 21, 11}
	if len(got) != len(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v want %v (existing entries must win ties)", got, want)
		}
	}
}

func TestCommitQueueOrder(t *testing.T) {
	var q commitQueue
	mk := func(date uint64) *commitNode { return &commitNode{tc: &traverse.Commit{Time: date}} }
	a, b, c, d := mk(5), mk(7), mk(5), mk(9)
	for _, x := range []*commitNode{a, b, c, d} {
		q.put(x)
	}
	want := []*commitNode{d, b, a, c}
	for i, w := range want {
		if got := q.get(); got != w {
			t.Fatalf("pop %d: got date %d, want date %d (newest first, then insertion order)", i, got.date(), w.date())
		}
	}
	q.reverse = true
	for _, x := range []*commitNode{a, b, c, d} {
		q.put(x)
	}
	want = []*commitNode{a, c, b, d}
	for i, w := range want {
		if got := q.get(); got != w {
			t.Fatalf("reverse pop %d: got date %d, want %d", i, got.date(), w.date())
		}
	}
}
