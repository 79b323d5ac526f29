package traverse

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQueueOrder pushes commits with many equal dates in random order,
// interleaving pops, and checks every pop against a reference: the
// highest date first (lowest with Reverse), ties by push order.
func TestQueueOrder(t *testing.T) {
	for _, reverse := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(1, 2))
		q := Queue{Reverse: reverse}
		type ref struct {
			time, seq uint64
			c         *Commit
		}
		var model []ref
		seq := uint64(0)
		commits := make([]Commit, 2000)
		for i := range commits {
			commits[i].Time = uint64(rng.IntN(20))
			commits[i].Index = uint32(i)
		}
		popModel := func() *Commit {
			best := 0
			for i, r := range model {
				b := model[best]
				if r.time != b.time {
					if (r.time > b.time) != reverse {
						best = i
					}
				} else if r.seq < b.seq {
					best = i
				}
			}
			c := model[best].c
			model = slices.Delete(model, best, best+1)
			return c
		}
		for i := 0; i < 5000; i++ {
			if len(model) == 0 || rng.IntN(3) > 0 {
				c := &commits[rng.IntN(len(commits))] // the same commit may be pushed twice
				q.Push(c)
				model = append(model, ref{c.Time, seq, c})
				seq++
				continue
			}
			want := popModel()
			if q.Peek() != want {
				t.Fatalf("reverse=%v step %d: Peek differs", reverse, i)
			}
			if got := q.Pop(); got != want {
				t.Fatalf("reverse=%v step %d: popped %d (t=%d), want %d (t=%d)", reverse, i, got.Index, got.Time, want.Index, want.Time)
			}
			if q.Len() != len(model) {
				t.Fatalf("Len = %d, want %d", q.Len(), len(model))
			}
		}
		for len(model) > 0 {
			if got, want := q.Pop(), popModel(); got != want {
				t.Fatalf("reverse=%v drain: popped %d, want %d", reverse, got.Index, want.Index)
			}
		}
		if q.Pop() != nil || q.Peek() != nil || q.Len() != 0 {
			t.Fatal("empty queue not empty")
		}
		q.Push(&commits[0])
		q.Reset()
		if q.Len() != 0 {
			t.Fatal("Reset kept entries")
		}
	}
}

// TestQueueAllocs: pushing and popping in steady state does not allocate.
func TestQueueAllocs(t *testing.T) {
	commits := make([]Commit, 64)
	for i := range commits {
		commits[i].Time = uint64(i * 7 % 13)
	}
	var q Queue
	for i := range commits {
		q.Push(&commits[i])
	}
	allocs := testing.AllocsPerRun(100, func() {
		for i := range commits {
			q.Push(&commits[i])
		}
		for range commits {
			q.Pop()
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per push/pop round", allocs)
	}
}
