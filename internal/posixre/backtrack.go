package posixre

// backtrackBudget bounds the steps of one search with back references
// (whose matching is NP-hard in general): past it the search gives up,
// reporting the best match found so far, or none.
const backtrackBudget = 1 << 24

type backtracker struct {
	e     *engine
	chars []int32 // the subject's characters
	offs  []int   // their byte offsets, and len(s) last
	caps  [][2]int
	steps int
	start int // where the attempt began
	// pending: a $ passed before a newline waits for it to be taken
	// (engine.holdsAt).
	pending bool
}

// backtrack searches s for the leftmost-longest match of an expression
// with back references: every way of matching from each start, a back
// reference comparing the characters its group took on that way.
func (e *engine) backtrack(s []byte, first bool) (int, int, bool) {
	b := &backtracker{e: e, caps: make([][2]int, e.groups+1)}
	for i := 0; i < len(s); {
		c, n := e.char(s, i)
		b.chars = append(b.chars, c)
		b.offs = append(b.offs, i)
		i += n
	}
	b.offs = append(b.offs, len(s))
	for i := range b.caps {
		b.caps[i] = [2]int{-1, -1}
	}
	for start := 0; start <= len(b.chars); start++ {
		best := -1
		b.start = start
		b.m(b.e.root, start, func(j int) bool {
			if b.pending {
				return false
			}
			best = max(best, j)
			return first
		})
		if best >= 0 {
			return b.offs[start], b.offs[best], true
		}
		if b.steps > backtrackBudget {
			break
		}
	}
	return 0, 0, false
}

func (b *backtracker) context(i int) context {
	cx := context{prev: -1, next: -1}
	if i > 0 {
		cx.prev = b.chars[i-1]
	}
	if i < len(b.chars) {
		cx.next = b.chars[i]
	}
	return cx
}

// m matches n at character i and calls k with where it ended, for every
// way it can, until k returns true.
func (b *backtracker) m(n *node, i int, k func(int) bool) bool {
	b.steps++
	if b.steps > backtrackBudget {
		return false
	}
	e := b.e
	switch n.kind {
	case nEmpty:
		return k(i)
	case nChar:
		return i < len(b.chars) && b.chars[i] == n.c && b.took(i+1, k)
	case nAny:
		return i < len(b.chars) && e.anyAccepts(b.chars[i]) && b.took(i+1, k)
	case nSet:
		return i < len(b.chars) && n.set.matches(b.chars[i], e.utf8) && b.took(i+1, k)
	case nAssert:
		switch e.holdsAt(n.assert, b.context(i), b.offs[i], b.offs[b.start]) {
		case holdsNow:
			return k(i)
		case holdsIfNewlineConsumed:
			old := b.pending
			b.pending = true
			r := k(i)
			b.pending = old
			return r
		}
		return false
	case nConcat:
		return b.seq(n.sub, i, k)
	case nAlt:
		for _, s := range n.sub {
			if b.m(s, i, k) {
				return true
			}
		}
		return false
	case nGroup:
		g := n.group
		return b.m(n.sub[0], i, func(j int) bool {
			old := b.caps[g]
			b.caps[g] = [2]int{i, j}
			if k(j) {
				return true
			}
			b.caps[g] = old
			return false
		})
	case nRepeat:
		return b.rep(n, 0, i, k)
	case nBackref:
		c := b.caps[n.group]
		if c[0] < 0 {
			return false
		}
		l := c[1] - c[0]
		if i+l > len(b.chars) {
			return false
		}
		for x := 0; x < l; x++ {
			if b.chars[c[0]+x] != b.chars[i+x] {
				return false
			}
		}
		if l == 0 {
			return k(i)
		}
		return b.took(i+l, k)
	}
	return false
}

func (b *backtracker) seq(ns []*node, i int, k func(int) bool) bool {
	if len(ns) == 0 {
		return k(i)
	}
	return b.m(ns[0], i, func(j int) bool { return b.seq(ns[1:], j, k) })
}

// rep matches the rest of a repetition after count times; an iteration
// past the minimum that matches nothing is the last (its groups are
// set, to the empty string).
func (b *backtracker) rep(n *node, count, i int, k func(int) bool) bool {
	if n.max >= 0 && count == n.max {
		return k(i)
	}
	if b.m(n.sub[0], i, func(j int) bool {
		if j == i && count >= n.min {
			return k(j)
		}
		return b.rep(n, count+1, j, k)
	}) {
		return true
	}
	return count >= n.min && k(i)
}

// took continues after characters were taken up to j: a pending $ is
// satisfied.
func (b *backtracker) took(j int, k func(int) bool) bool {
	old := b.pending
	b.pending = false
	r := k(j)
	b.pending = old
	return r
}
