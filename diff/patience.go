package diff

// Patience diff (xdiff's xpatience.c, after Bram Cohen's idea).
//
// In a range, find the lines that occur exactly once in A and exactly once
// in B. Taken in A order, the longest subsequence of them that is also
// increasing in B (found by patience sorting with binary search) are
// anchors: common lines nobody can argue with. Between consecutive
// anchors, first grow the common runs outwards from the anchors and from
// the gap's ends, then recurse on what remains. A range with no unique
// common line goes to the classic Myers diff; a range with no common line
// at all is all changed. Positions are 1-based here, as in xdiff.

const patNonUnique = -1

type patEntry struct {
	line1, line2 int // line2: 0 = not in B, patNonUnique = not unique
	prev         int // index of the previous entry in the chain, -1 if none
}

type pair struct{ line1, line2 int }

type patState struct {
	d        *Differ
	a, b     []uint32
	ch1, ch2 []byte
	nids     int
	minimal  bool

	slot    []int32 // per id: index+1 of its entry, 0 if none
	entries []patEntry
	seq     []int
	pairs   []pair // the anchors of every active recursion level
}

func (p *patState) run(d *Differ, a, b []uint32, ch1, ch2 []byte, nids int, minimal bool) {
	p.d, p.a, p.b, p.ch1, p.ch2, p.nids, p.minimal = d, a, b, ch1, ch2, nids, minimal
	if len(p.slot) < nids {
		p.slot = make([]int32, nids+nids/4)
	}
	p.pairs = p.pairs[:0]
	p.diff(1, len(a), 1, len(b))
	p.d, p.a, p.b, p.ch1, p.ch2 = nil, nil, nil, nil, nil
}

func (p *patState) match(l1, l2 int) bool { return p.a[l1-1] == p.b[l2-1] }

func (p *patState) diff(line1, count1, line2, count2 int) {
	if count1 == 0 {
		markRange(p.ch2, line2-1, count2)
		return
	}
	if count2 == 0 {
		markRange(p.ch1, line1-1, count1)
		return
	}

	// Which lines are unique on both sides?
	entries := p.entries[:0]
	for l := line1; l < line1+count1; l++ {
		c := p.a[l-1]
		if e := p.slot[c]; e != 0 {
			entries[e-1].line2 = patNonUnique
			continue
		}
		entries = append(entries, patEntry{line1: l, prev: -1})
		p.slot[c] = int32(len(entries))
	}
	hasMatches := false
	for l := line2; l < line2+count2; l++ {
		e := p.slot[p.b[l-1]]
		if e == 0 {
			continue
		}
		hasMatches = true
		if entries[e-1].line2 != 0 {
			entries[e-1].line2 = patNonUnique
		} else {
			entries[e-1].line2 = l
		}
	}
	for l := line1; l < line1+count1; l++ {
		p.slot[p.a[l-1]] = 0
	}
	p.entries = entries

	if !hasMatches {
		markRange(p.ch1, line1-1, count1)
		markRange(p.ch2, line2-1, count2)
		return
	}

	// Longest increasing subsequence (by line2) of the unique common
	// lines in line1 order.
	seq := p.seq[:0]
	for i := range entries {
		e := &entries[i]
		if e.line2 == 0 || e.line2 == patNonUnique {
			continue
		}
		left, right := -1, len(seq)
		for left+1 < right {
			mid := left + (right-left)/2
			if entries[seq[mid]].line2 > e.line2 {
				right = mid
			} else {
				left = mid
			}
		}
		if left >= 0 {
			e.prev = seq[left]
		}
		if left+1 == len(seq) {
			seq = append(seq, i)
		} else {
			seq[left+1] = i
		}
	}
	p.seq = seq
	if len(seq) == 0 {
		p.d.myers.classic(p.a[line1-1:line1-1+count1], p.b[line2-1:line2-1+count2],
			p.ch1[line1-1:line1-1+count1], p.ch2[line2-1:line2-1+count2], p.nids, p.minimal)
		return
	}

	// The anchors, in order, kept on the shared stack while this level
	// recurses.
	base := len(p.pairs)
	for i := seq[len(seq)-1]; i >= 0; i = entries[i].prev {
		p.pairs = append(p.pairs, pair{entries[i].line1, entries[i].line2})
	}
	n := len(p.pairs) - base
	for i, j := base, len(p.pairs)-1; i < j; i, j = i+1, j-1 {
		p.pairs[i], p.pairs[j] = p.pairs[j], p.pairs[i]
	}
	p.walk(base, n, line1, count1, line2, count2)
	p.pairs = p.pairs[:base]
}

// walk is walk_common_sequence over the anchors p.pairs[base:base+n].
func (p *patState) walk(base, n, line1, count1, line2, count2 int) {
	end1, end2 := line1+count1, line2+count2
	k := 0 // the next anchor
	for {
		var next1, next2 int
		if k < n {
			first := p.pairs[base+k]
			next1, next2 = first.line1, first.line2
			for next1 > line1 && next2 > line2 && p.match(next1-1, next2-1) {
				next1--
				next2--
			}
		} else {
			next1, next2 = end1, end2
		}
		for line1 < next1 && line2 < next2 && p.match(line1, line2) {
			line1++
			line2++
		}
		if next1 > line1 || next2 > line2 {
			p.diff(line1, next1-line1, line2, next2-line2)
		}
		if k >= n {
			return
		}
		for k+1 < n && p.pairs[base+k+1].line1 == p.pairs[base+k].line1+1 &&
			p.pairs[base+k+1].line2 == p.pairs[base+k].line2+1 {
			k++
		}
		line1 = p.pairs[base+k].line1 + 1
		line2 = p.pairs[base+k].line2 + 1
		k++
	}
}
