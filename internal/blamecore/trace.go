package blamecore

import (
	"slices"
	"sort"

	"github.com/goblame/goblame/internal/binheap"
)

// A recording blame keeps, besides the entries it found, how it found
// them: the way each entry's lines came (a trail of origins from the
// final one) and, for each origin it worked on, the parents' origins it
// handed lines to, in order. With both, the walk of any subset of the
// lines can be replayed without diffs — which origins receive lines,
// which commits are queued when and with which insertion number, the
// order commits leave the queue — so a snapshot answers --incremental
// exactly even where commits share dates or clocks were skewed.

// trail is a way lines came: the origin they are at and the trail before.
// Trails are shared: entries that went the same way hold the same one.
type trail struct {
	o    *origin
	prev *trail
	// at is the trail's index + 1 in the snapshot being built (0: not
	// in it yet).
	at int
}

type trailKey struct {
	prev *trail
	o    *origin
}

// A recording blame's bookkeeping (see scoreboard.trails): most origins
// are reached by one way and worked on once, so the first trail made at
// an origin and its pass are kept in slices by the origin's seq, and only
// the further trails go to a map.
type recording struct {
	firstTrail []*trail            // by origin seq
	moreTrails map[trailKey]*trail // the trails after the first at an origin
	slab       []trail             // where trails are allocated from
	numTrails  int
	passes     []originPass // by origin seq
}

// extendTrail returns the trail t followed by o, made once.
func (sb *scoreboard) extendTrail(t *trail, o *origin) *trail {
	r := &sb.rec
	var first *trail
	if int(o.seq) < len(r.firstTrail) {
		first = r.firstTrail[o.seq]
	}
	if first != nil {
		if first.prev == t {
			return first
		}
		if n := r.moreTrails[trailKey{t, o}]; n != nil {
			return n
		}
	}
	if len(r.slab) == 0 {
		r.slab = make([]trail, 256)
	}
	n := &r.slab[0]
	r.slab = r.slab[1:]
	*n = trail{o: o, prev: t}
	r.numTrails++
	if first == nil {
		if int(o.seq) >= len(r.firstTrail) {
			r.firstTrail = slices.Grow(r.firstTrail, max(int(o.seq)+1, sb.originSeq+1)-len(r.firstTrail))
			r.firstTrail = r.firstTrail[:cap(r.firstTrail)]
		}
		r.firstTrail[o.seq] = n
		return n
	}
	if r.moreTrails == nil {
		r.moreTrails = make(map[trailKey]*trail)
	}
	r.moreTrails[trailKey{t, o}] = n
	return n
}

// originPass is how an origin handed its lines on: all to whole (the
// parent had the same blob), or to each of more.scapegoats in order (nil
// for a parent without the file). The zero value is no pass noted.
type originPass struct {
	whole *origin
	more  *passMore
}

type passMore struct {
	scapegoats []*origin
	// skipped: the dates of the commits a snapshot's whole pass went
	// through to reach whole (SnapshotOrigin.Skipped).
	skipped []uint64
}

// notePass records the first pass of o.
func (sb *scoreboard) notePass(o, whole *origin, scapegoats []*origin, skipped []uint64) {
	if !sb.tracing() {
		return
	}
	r := &sb.rec
	if int(o.seq) >= len(r.passes) {
		r.passes = slices.Grow(r.passes, max(int(o.seq)+1, sb.originSeq+1)-len(r.passes))
		r.passes = r.passes[:cap(r.passes)]
	}
	p := &r.passes[o.seq]
	if p.whole != nil || p.more != nil {
		return
	}
	p.whole = whole
	if whole == nil || len(skipped) > 0 {
		p.more = &passMore{scapegoats: append([]*origin(nil), scapegoats...), skipped: skipped}
	}
}

// passOf returns o's pass, nil when none was noted.
func (sb *scoreboard) passOf(o *origin) *originPass {
	if int(o.seq) < len(sb.rec.passes) {
		if p := &sb.rec.passes[o.seq]; p.whole != nil || p.more != nil {
			return p
		}
	}
	return nil
}

// path returns t's origins, the final one first.
func (t *trail) path() []*origin {
	var out []*origin
	for ; t != nil; t = t.prev {
		out = append(out, t.o)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// replay plays the walk of a subset of a traced snapshot's lines, from
// its commit just taken from an otherwise empty queue: cut k has come to
// Origins[0] and goes the way the trail leaves[k] ends, starting at line
// sLno[k] of its last origin. It returns the order the cuts are found in,
// or false where the order is not decided by the trace (a commit holding
// lines on two paths at once, two cuts of one origin starting on the same
// line) or the trace does not fit the snapshot.
//
// Lines that went the same way so far travel together: the walk moves
// trails (each standing for the cuts whose way goes through it), so a
// stretch of history that hands every line to one parent costs one step
// whatever the number of lines; cuts are only looked at where found.
func replay(snap *Snapshot, leaves []int, sLno []int) ([]int, bool) {
	nt := len(snap.Trails)
	children := make([][]int, nt)
	root := -1
	for i, t := range snap.Trails {
		if t.Prev < 0 {
			if root >= 0 {
				return nil, false
			}
			root = i
		} else {
			children[t.Prev] = append(children[t.Prev], i)
		}
	}
	if root < 0 {
		return nil, false
	}
	// ending[t]: the cuts whose way ends at t; under[t]: how many cuts
	// go through t (Prev is a smaller index: one pass from the end).
	ending := make(map[int][]int)
	under := make([]int, nt)
	for k, l := range leaves {
		if l < 0 || l >= nt {
			return nil, false
		}
		ending[l] = append(ending[l], k)
		under[l]++
	}
	for i := nt - 1; i >= 0; i-- {
		if pv := snap.Trails[i].Prev; pv >= 0 {
			under[pv] += under[i]
		}
	}

	commitOrigins := make([][]int, len(snap.Commits))
	for i, o := range snap.Origins {
		commitOrigins[o.Commit] = append(commitOrigins[o.Commit], i)
	}
	pending := make([][]int, len(snap.Origins)) // trails at each origin
	withLines := make([]int, len(snap.Commits))
	// A whole pass through skipped commits (compact.go) puts a
	// stand-in for each in the queue in turn, numbered after the
	// commits: skip k stands for the commit Skipped[step] of origin x,
	// holding the trails kids.
	type skip struct {
		x, step int
		kids    []int
	}
	var skips []skip
	nc := len(snap.Commits)
	q := &replayQueue{time: func(c int) uint64 {
		if c < nc {
			return snap.Commits[c].Time
		}
		sk := skips[c-nc]
		return snap.Origins[sk.x].Skipped[sk.step]
	}}
	var order []int
	// queue is queue_blames: trails handed to origin y.
	queue := func(y int, trails []int) {
		c := snap.Origins[y].Commit
		if len(pending[y]) > 0 {
			pending[y] = append(pending[y], trails...)
			return
		}
		put := withLines[c] == 0
		pending[y] = trails
		if len(trails) > 0 {
			withLines[c]++
		}
		if put {
			q.put(c)
		}
	}
	process := func(x int) bool {
		trails := pending[x]
		pending[x] = nil
		withLines[snap.Origins[x].Commit]--
		var kids []int  // trails the lines go on to
		var found []int // cuts found here
		for _, t := range trails {
			if snap.Trails[t].Origin != x {
				return false
			}
			found = append(found, ending[t]...)
			for _, c := range children[t] {
				if under[c] > 0 {
					kids = append(kids, c)
				}
			}
		}
		so := snap.Origins[x]
		switch so.Pass {
		case PassWhole:
			for _, c := range kids {
				if snap.Trails[c].Origin != so.Whole {
					return false
				}
			}
			if len(found) > 0 {
				return false
			}
			if len(so.Skipped) > 0 {
				skips = append(skips, skip{x: x, kids: kids})
				q.put(nc + len(skips) - 1)
			} else {
				queue(so.Whole, kids)
			}
			kids = nil
		case PassEach:
			for _, g := range so.Scapegoats {
				if len(kids) == 0 && len(found) == 0 {
					break // nothing left: the pass stops
				}
				if g < 0 {
					continue
				}
				var moved, kept []int
				for _, c := range kids {
					if snap.Trails[c].Origin == g {
						moved = append(moved, c)
					} else {
						kept = append(kept, c)
					}
				}
				kids = kept
				queue(g, moved)
			}
		}
		if len(kids) > 0 {
			return false // lines the trace sends where the pass does not
		}
		sort.SliceStable(found, func(a, b int) bool { return sLno[found[a]] < sLno[found[b]] })
		for i := 1; i < len(found); i++ {
			if sLno[found[i]] == sLno[found[i-1]] {
				return false
			}
		}
		order = append(order, found...)
		return true
	}
	if snap.Trails[root].Origin != 0 {
		return nil, false
	}
	pending[0] = []int{root}
	withLines[snap.Origins[0].Commit] = 1
	if !process(0) {
		return nil, false
	}
	for {
		c, ok := q.get()
		if !ok {
			break
		}
		if c >= nc {
			// A skipped commit's turn: it hands its lines on (none: it
			// was queued with nothing, and nothing goes further).
			sk := &skips[c-nc]
			so := snap.Origins[sk.x]
			switch {
			case len(sk.kids) == 0:
			case sk.step+1 < len(so.Skipped):
				sk.step++
				q.put(c)
			default:
				queue(so.Whole, sk.kids)
			}
			continue
		}
		live := -1
		for _, i := range commitOrigins[c] {
			if len(pending[i]) > 0 {
				if live >= 0 {
					return nil, false
				}
				live = i
			}
		}
		if live >= 0 && !process(live) {
			return nil, false
		}
	}
	if len(order) != len(leaves) {
		return nil, false
	}
	return order, true
}

// replayQueue is commitQueue over a snapshot's commit indexes: newest
// first, ties in the order they were put.
type replayQueue struct {
	time  func(int) uint64
	items [][2]uint64 // commit, insertion number
	ctr   uint64
}

func (q *replayQueue) less(a, b [2]uint64) bool {
	if ta, tb := q.time(int(a[0])), q.time(int(b[0])); ta != tb {
		return ta > tb
	}
	return a[1] < b[1]
}

func (q *replayQueue) put(c int) {
	q.items = binheap.Push(q.items, [2]uint64{uint64(c), q.ctr}, q.less)
	q.ctr++
}

func (q *replayQueue) get() (int, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	var top [2]uint64
	q.items, top = binheap.Pop(q.items, q.less)
	return int(top[0]), true
}
