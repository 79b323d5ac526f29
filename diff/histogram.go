package diff

// Histogram diff (xdiff's xhistogram.c, after JGit's HistogramDiff).
//
// For a range of A and B, index A's lines by equivalence class, counting
// occurrences. Walk B; for every B line whose class is in the index and is
// not more frequent than the best region found so far, extend each of its
// A occurrences into a maximal run of equal lines, tracking the lowest
// occurrence count of any line in the run. A run wins if it is longer than
// the best so far, or made of rarer lines. The winning region splits the
// problem: recurse on the part before it, loop on the part after it. If
// every common line occurs more than 64 times in A, the range is handed to
// the classic Myers diff; if there is no common line, everything in it
// changed. Positions are 1-based here, as in xdiff, so that 0 can mean
// "none".

const histMaxChain = 64

type region struct{ begin1, end1, begin2, end2 int } // inclusive, 1-based

type histState struct {
	d        *Differ
	a, b     []uint32
	ch1, ch2 []byte
	nids     int
	minimal  bool

	head []uint32 // per id: first A line of the class in the range, 0 if none
	cnt  []uint32 // per id: occurrences in the A range
	next []uint32 // per A line: the next A line of the same class, 0 if none

	bestCnt   uint32 // index->cnt
	hasCommon bool

	gitIDs  []uint32 // per A line: xdiff's class number (first appearance, A then B)
	buckets []uint16
}

func (h *histState) run(d *Differ, a, b []uint32, ch1, ch2 []byte, nids int, minimal bool) error {
	h.d, h.a, h.b, h.ch1, h.ch2, h.nids, h.minimal = d, a, b, ch1, ch2, nids, minimal
	if len(h.head) < nids {
		h.head = make([]uint32, nids+nids/4)
		h.cnt = make([]uint32, nids+nids/4)
	}
	if len(h.next) < len(a)+1 {
		h.next = make([]uint32, len(a)+1+len(a)/4)
	}
	h.gitIDs = h.gitIDs[:0]
	err := h.diff(1, len(a), 1, len(b))
	h.d, h.a, h.b, h.ch1, h.ch2 = nil, nil, nil, nil, nil
	return err
}

func (h *histState) diff(line1, count1, line2, count2 int) error {
	for {
		if count1 <= 0 && count2 <= 0 {
			return nil
		}
		if count1 == 0 {
			markRange(h.ch2, line2-1, count2)
			return nil
		}
		if count2 == 0 {
			markRange(h.ch1, line1-1, count1)
			return nil
		}
		lcs, found := h.findLCS(line1, count1, line2, count2)
		switch {
		case found < 0:
			return ErrHistogramOverflow
		case found > 0:
			h.d.myers.classic(h.a[line1-1:line1-1+count1], h.b[line2-1:line2-1+count2],
				h.ch1[line1-1:line1-1+count1], h.ch2[line2-1:line2-1+count2], h.nids, h.minimal)
			return nil
		case lcs.begin1 == 0 && lcs.begin2 == 0:
			markRange(h.ch1, line1-1, count1)
			markRange(h.ch2, line2-1, count2)
			return nil
		}
		if err := h.diff(line1, lcs.begin1-line1, line2, lcs.begin2-line2); err != nil {
			return err
		}
		end1, end2 := line1+count1-1, line2+count2-1
		count1, line1 = end1-lcs.end1, lcs.end1+1
		count2, line2 = end2-lcs.end2, lcs.end2+1
	}
}

func markRange(ch []byte, from, n int) {
	for i := range n {
		ch[from+i] = 1
	}
}

// findLCS returns the best common region, and -1 if xdiff's index
// overflows, 1 if the range must go to the classic diff, 0 otherwise.
func (h *histState) findLCS(line1, count1, line2, count2 int) (region, int) {
	a := h.a
	end1 := line1 + count1 - 1
	distinct := 0
	for ptr := end1; ptr >= line1; ptr-- {
		c := a[ptr-1]
		if h.head[c] != 0 {
			h.next[ptr] = h.head[c]
			h.cnt[c]++
		} else {
			distinct++
			h.next[ptr] = 0
			h.cnt[c] = 1
		}
		h.head[c] = uint32(ptr)
	}
	defer func() {
		for ptr := line1; ptr <= end1; ptr++ {
			c := a[ptr-1]
			h.head[c], h.cnt[c] = 0, 0
		}
	}()
	if distinct > histMaxChain && h.overflows(line1, count1) {
		return region{}, -1
	}

	var lcs region
	h.bestCnt = histMaxChain + 1
	h.hasCommon = false
	for bPtr := line2; bPtr <= line2+count2-1; {
		bPtr = h.tryLCS(&lcs, bPtr, line1, count1, line2, count2)
	}
	if h.hasCommon && histMaxChain < h.bestCnt {
		return lcs, 1
	}
	return lcs, 0
}

func (h *histState) tryLCS(lcs *region, bPtr, line1, count1, line2, count2 int) int {
	a, b := h.a, h.b
	bNext := bPtr + 1
	c := b[bPtr-1]
	if h.head[c] == 0 {
		return bNext
	}
	if h.cnt[c] > h.bestCnt {
		h.hasCommon = true
		return bNext
	}
	h.hasCommon = true
	end1, end2 := line1+count1-1, line2+count2-1
	as := int(h.head[c])
	for {
		np := int(h.next[as])
		bs := bPtr
		ae, be := as, bs
		rc := h.cnt[c]
		for line1 < as && line2 < bs && a[as-2] == b[bs-2] {
			as--
			bs--
			if rc > 1 {
				rc = min(rc, h.cnt[a[as-1]])
			}
		}
		for ae < end1 && be < end2 && a[ae] == b[be] {
			ae++
			be++
			if rc > 1 {
				rc = min(rc, h.cnt[a[ae-1]])
			}
		}
		if bNext <= be {
			bNext = be + 1
		}
		if lcs.end1-lcs.begin1 < ae-as || rc < h.bestCnt {
			*lcs = region{begin1: as, begin2: bs, end1: ae, end2: be}
			h.bestCnt = rc
		}
		if np == 0 {
			return bNext
		}
		for np <= ae {
			np = int(h.next[np])
			if np == 0 {
				return bNext
			}
		}
		as = np
	}
}

// overflows reports whether xdiff's histogram index for the A range would
// chain more than 64 distinct classes in one bucket, which makes xdiff
// give up. Buckets are chosen by XDL_HASHLONG of xdiff's class number (the
// order of first appearance over A then B) with as many bits as the range
// needs, so the class numbers are reconstructed here.
func (h *histState) overflows(line1, count1 int) bool {
	if len(h.gitIDs) == 0 {
		h.numberClasses()
	}
	bits := hashBits(uint(count1))
	size := 1 << bits
	if cap(h.buckets) < size {
		h.buckets = make([]uint16, size)
	}
	buckets := h.buckets[:size]
	clear(buckets)
	over := false
	for ptr := line1; ptr < line1+count1; ptr++ {
		c := h.a[ptr-1]
		if h.head[c] != uint32(ptr) {
			continue // not the class's first line in the range
		}
		v := uint(h.gitIDs[ptr-1])
		i := (v + v>>bits) & uint(size-1)
		buckets[i]++
		if buckets[i] > histMaxChain {
			over = true
		}
	}
	return over
}

// numberClasses computes, for every A line, xdiff's class number.
func (h *histState) numberClasses() {
	seen := h.d.myers.cnt1 // borrowed: all zero between uses
	if len(seen) < h.nids {
		h.d.myers.cnt1 = make([]int32, h.nids+h.nids/4)
		h.d.myers.cnt2 = make([]int32, h.nids+h.nids/4)
		seen = h.d.myers.cnt1
	}
	n := int32(0)
	for _, c := range h.a {
		if seen[c] == 0 {
			n++
			seen[c] = n
		}
		h.gitIDs = append(h.gitIDs, uint32(seen[c]-1))
	}
	for _, c := range h.a {
		seen[c] = 0
	}
}

// hashBits is xdl_hashbits: the bits of the smallest power of two not
// below size, at least 1.
func hashBits(size uint) uint {
	bits := uint(0)
	for val := uint(1); val < size && bits < 32; val <<= 1 {
		bits++
	}
	if bits == 0 {
		return 1
	}
	return bits
}
