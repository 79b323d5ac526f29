package diff

import "math"

// Constants of xdiff's Myers path (xdiffi.c, xprepare.c).
const (
	maxCostMin     = 256  // the cost cutoff is never below this (XDL_MAX_COST_MIN)
	heurMinCost    = 256  // the snake heuristic waits for this cost (XDL_HEUR_MIN_COST)
	snakeCnt       = 20   // a "good" snake is longer than this (XDL_SNAKE_CNT)
	kHeur          = 4    // how far ahead of the cost a heuristic point must be (XDL_K_HEUR)
	maxEqLimit     = 1024 // cap on the multimatch limit (XDL_MAX_EQLIMIT)
	simscanWindow  = 100  // how far clean_mmatch looks (XDL_SIMSCAN_WINDOW)
	keepDiscardRun = 4    // XDL_KPDIS_RUN
	lineMax        = math.MaxInt
	kvMax          = math.MaxInt32 // the backward vector's sentinel
)

// bogosqrt is xdiff's rough square root: 1 doubled once for every time n
// can be shifted right by two before it reaches 0.
func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// myersState holds the work arrays of one classic diff; a Differ keeps one
// and reuses its slices.
type myersState struct {
	cnt1, cnt2 []int32 // occurrences per id in A and in B
	dis        []byte  // discard classification of the working lines
	ha1, ha2   []uint32
	ri1, ri2   []int32 // reduced index -> line
	kv         []int32 // forward and backward furthest x per diagonal
	ch1, ch2   []byte  // change marks of the current call (aliases)
	mxcost     int
	n2         int            // len(ha2), the diagonal offset
	mm         multimatchScan // reduce's, kept: its ring is not cleared
}

// classic runs xdiff's Myers path (xdl_do_diff minus preparation) on the
// id sequences a and b, marking changed lines with 1 in ch1 and ch2 (which
// have the lengths of a and b and start zeroed). nids bounds the ids.
func (m *myersState) classic(a, b []uint32, ch1, ch2 []byte, nids int, minimal bool) {
	n1, n2 := len(a), len(b)

	// trim_ends: the common prefix and suffix never enter the search.
	lim := min(n1, n2)
	p := 0
	for p < lim && a[p] == b[p] {
		p++
	}
	s := 0
	for s < lim-p && a[n1-1-s] == b[n2-1-s] {
		s++
	}
	dstart, dend1, dend2 := p, n1-s, n2-s // working ranges [dstart, dendX)
	if dstart == dend1 && dstart == dend2 {
		return
	}

	// Occurrence counts over the whole sequences (xdiff counts every
	// record of both files while classifying them).
	if len(m.cnt1) < nids {
		m.cnt1 = make([]int32, nids+nids/4)
		m.cnt2 = make([]int32, nids+nids/4)
	}
	cnt1, cnt2 := m.cnt1, m.cnt2
	for _, id := range a {
		cnt1[id]++
	}
	for _, id := range b {
		cnt2[id]++
	}

	w1, w2 := dend1-dstart, dend2-dstart
	if cap(m.dis) < w1+w2 {
		m.dis = make([]byte, w1+w2+(w1+w2)/4)
	}
	dis1, dis2 := m.dis[:w1], m.dis[w1:w1+w2]
	classify(dis1, a[dstart:dend1], cnt2, min(bogosqrt(n1), maxEqLimit))
	classify(dis2, b[dstart:dend2], cnt1, min(bogosqrt(n2), maxEqLimit))
	for _, id := range a {
		cnt1[id] = 0
	}
	for _, id := range b {
		cnt2[id] = 0
	}

	m.ha1, m.ri1 = reduce(m.ha1[:0], m.ri1[:0], dis1, a, ch1, dstart, &m.mm)
	m.ha2, m.ri2 = reduce(m.ha2[:0], m.ri2[:0], dis2, b, ch2, dstart, &m.mm)

	r1, r2 := len(m.ha1), len(m.ha2)
	ndiags := r1 + r2 + 3
	if cap(m.kv) < 2*ndiags {
		m.kv = make([]int32, 2*ndiags+ndiags/2)
	}
	m.kv = m.kv[:2*ndiags]
	m.mxcost = max(bogosqrt(ndiags), maxCostMin)
	m.n2 = r2
	m.ch1, m.ch2 = ch1, ch2
	m.compare(0, r1, 0, r2, minimal)
	m.ch1, m.ch2 = nil, nil
}

// classify sets dis[i] to 0 when line i has no match in the other file, 2
// when it has at least mlim ("multimatch"), 1 otherwise.
func classify(dis []byte, lines []uint32, other []int32, mlim int) {
	dis = dis[:len(lines)]
	for i, id := range lines {
		nm := int(other[id])
		dis[i] = b2u8(nm != 0) + b2u8(nm >= mlim) // mlim >= 1
	}
}

func b2u8(b bool) uint8 {
	var v uint8
	if b {
		v = 1
	}
	return v
}

// reduce builds the reduced sequence of kept lines (and their real line
// numbers) and marks discarded lines changed; mm is scratch for the
// multimatch lines.
func reduce(ha []uint32, ri []int32, dis []byte, lines []uint32, ch []byte, dstart int, mm *multimatchScan) ([]uint32, []int32) {
	n := len(dis)
	if cap(ha) < n {
		ha = make([]uint32, n, n+n/4)
		ri = make([]int32, n, n+n/4)
	}
	ha, ri = ha[:n], ri[:n]
	lines = lines[dstart : dstart+n]
	ch = ch[dstart : dstart+n]
	mm.start(dis)
	k := 0
	for i, d := range dis {
		keep := d == 1
		if d == 2 {
			keep = !mm.discard(i)
		} else if d == 1 {
			mm.lastOne = i
		}
		// Write unconditionally, advance only for kept lines.
		ha[k] = lines[i]
		ri[k] = int32(dstart + i)
		kept := int(b2u8(keep))
		k += kept
		ch[i] = byte(1 - kept)
	}
	return ha[:k], ri[:k]
}

// multimatchScan is xdl_clean_mmatch for the multimatch lines of dis,
// asked about in increasing order: a line with many matches is discarded
// only when it sits inside a run of unmatched and multimatch lines,
// judged within simscanWindow lines on either side: the run must reach
// it from both sides with unmatched lines, and they must outnumber the
// multimatch ones (counting the line itself on each side) by more than
// three to one. xdiff scans both sides of every such line, which where
// multimatch lines run long (a file of mostly blank lines) costs up to
// 200 steps a line: 24% of such a file's blame. Here each run is read
// once: its ends are the nearest lines matching once (lastOne, kept by
// reduce, and nextOne, which only moves forward), and each side's counts
// are differences of running totals over the run.
type multimatchScan struct {
	dis     []byte
	lastOne int // the last line before the one asked about with one match, -1 if none (reduce keeps it)
	nextOne int // a line after the last one asked about, up to the first with one match
	// before[j%mmRing] counts the unmatched (low 32 bits) and the
	// multimatch (high 32 bits) lines of dis[base:j], for j from base
	// (where the totals last started) up to filled.
	before [mmRing]uint64
	filled int
}

// start readies m for the lines of dis. The ring is not cleared: only
// differences of totals filled since the position they start at are
// read, whatever that position holds.
func (m *multimatchScan) start(dis []byte) {
	m.dis, m.lastOne, m.nextOne, m.filled = dis, -1, 0, 0
}

// mmRing holds the totals of every position a question reads: from
// simscanWindow before the line to simscanWindow+1 after it.
const mmRing = 256

// discard reports whether the multimatch line i is discarded.
func (m *multimatchScan) discard(i int) bool {
	n := len(m.dis)
	s := max(i-simscanWindow, m.lastOne+1) // the run before i is dis[s:i]
	if s == i {
		return false
	}
	// The totals start again at s, from whatever its slot holds (only
	// their differences are read).
	m.filled = max(m.filled, s)
	m.fill(i)
	none0, multi0 := m.count(s, i)
	if none0 == 0 {
		return false
	}
	m.nextOne = max(m.nextOne, i+1)
	for m.nextOne < n && m.nextOne <= i+simscanWindow && m.dis[m.nextOne] != 1 {
		m.nextOne++
	}
	e := min(i+simscanWindow+1, m.nextOne) // the run after i is dis[i+1:e]
	m.fill(e)
	none1, multi1 := m.count(i+1, e)
	if none1 == 0 {
		return false
	}
	multi := multi0 + multi1 + 2 // the line itself, on each side
	return multi*keepDiscardRun < multi+none0+none1
}

// fill extends the totals up to position to.
func (m *multimatchScan) fill(to int) {
	for ; m.filled < to; m.filled++ {
		c := m.before[m.filled%mmRing]
		switch m.dis[m.filled] {
		case 0:
			c++
		case 2:
			c += 1 << 32
		}
		m.before[(m.filled+1)%mmRing] = c
	}
}

// count returns the unmatched and multimatch lines of dis[from:to].
func (m *multimatchScan) count(from, to int) (none, multi int) {
	d := m.before[to%mmRing] - m.before[from%mmRing]
	return int(uint32(d)), int(d >> 32)
}

// compare is xdl_recs_cmp on the reduced sequences: shrink the box by the
// snakes at both ends, mark a one-sided box changed, otherwise split it
// and solve both halves, each with the minimality the split asks for.
func (m *myersState) compare(off1, lim1, off2, lim2 int, needMin bool) {
	ha1, ha2 := m.ha1, m.ha2
	for off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
		off1++
		off2++
	}
	for off1 < lim1 && off2 < lim2 && ha1[lim1-1] == ha2[lim2-1] {
		lim1--
		lim2--
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			m.ch2[m.ri2[off2]] = 1
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			m.ch1[m.ri1[off1]] = 1
		}
	default:
		x, y, minLo, minHi := m.split(off1, lim1, off2, lim2, needMin)
		m.compare(off1, x, off2, y, minLo)
		m.compare(x, lim1, y, lim2, minHi)
	}
}

// split is xdl_split: Myers' bidirectional search for a point on an
// optimal path through the box, with xdiff's two ways of giving up early
// when the cost grows (unless needMin): a long snake far enough along
// (the snake heuristic) or, past mxcost, the furthest-reaching point.
// It returns the point and whether each half must be solved minimally.
func (m *myersState) split(off1, lim1, off2, lim2 int, needMin bool) (int, int, bool, bool) {
	ha1, ha2 := m.ha1, m.ha2
	ndiags := len(m.kv) / 2
	// kvf and kvb hold, per diagonal d = x - y, the furthest x reached
	// forwards and backwards; d is stored at d+sh, since d can be as low
	// as -(len(ha2)+1).
	sh := m.n2 + 1
	kvf := m.kv[:ndiags]
	kvb := m.kv[ndiags:]

	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid

	kvf[fmid+sh] = int32(off1)
	kvb[bmid+sh] = int32(lim1)

	// Snakes never leave the box: forward ones stop at lim, backward ones
	// at off. These views let the compiler drop the bounds checks.
	a1, a2 := ha1[:lim1], ha2[:lim2]
	b1, b2 := ha1[off1:lim1], ha2[off2:lim2]

	for ec := 1; ; ec++ {
		gotSnake := false

		// Grow the forward domain by one diagonal on each side, or shrink
		// it where it would leave the box, keeping the parity.
		if fmin > dmin {
			fmin--
			kvf[fmin-1+sh] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			kvf[fmax+1+sh] = -1
		} else {
			fmax--
		}
		if x, y, met, snake := sweepForward(kvf, kvb, sh, fmin, fmax, bmin, bmax, odd, a1, a2); met {
			return x, y, true, true
		} else if snake {
			gotSnake = true
		}

		if bmin > dmin {
			bmin--
			kvb[bmin-1+sh] = kvMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			kvb[bmax+1+sh] = kvMax
		} else {
			bmax--
		}
		if x, y, met, snake := sweepBackward(kvb, kvf, sh, bmin, bmax, fmin, fmax, !odd, b1, b2, off1, off2); met {
			return x, y, true, true
		} else if snake {
			gotSnake = true
		}

		if needMin {
			continue
		}

		// The snake heuristic: past heurMinCost, if some diagonal has
		// gone far ahead of the cost (measured from the box corner and
		// penalised by its distance from the middle diagonal) and ends in
		// a snake of at least snakeCnt, cut there.
		if gotSnake && ec > heurMinCost {
			best, bx, by := 0, 0, 0
			for d := fmax; d >= fmin; d -= 2 {
				dd := d - fmid
				if dd < 0 {
					dd = -dd
				}
				i1 := int(kvf[d+sh])
				i2 := i1 - d
				v := (i1 - off1) + (i2 - off2) - dd
				if v > kHeur*ec && v > best &&
					off1+snakeCnt <= i1 && i1 < lim1 &&
					off2+snakeCnt <= i2 && i2 < lim2 {
					for k := 1; ha1[i1-k] == ha2[i2-k]; k++ {
						if k == snakeCnt {
							best, bx, by = v, i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				return bx, by, true, false
			}
			for d := bmax; d >= bmin; d -= 2 {
				dd := d - bmid
				if dd < 0 {
					dd = -dd
				}
				i1 := int(kvb[d+sh])
				i2 := i1 - d
				v := (lim1 - i1) + (lim2 - i2) - dd
				if v > kHeur*ec && v > best &&
					off1 < i1 && i1 <= lim1-snakeCnt &&
					off2 < i2 && i2 <= lim2-snakeCnt {
					for k := 0; ha1[i1+k] == ha2[i2+k]; k++ {
						if k == snakeCnt-1 {
							best, bx, by = v, i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				return bx, by, false, true
			}
		}

		// The cost cutoff: enough is enough; take the furthest-reaching
		// point of either direction.
		if ec >= m.mxcost {
			fbest, fbest1 := -1, -1
			for d := fmax; d >= fmin; d -= 2 {
				i1 := min(int(kvf[d+sh]), lim1)
				i2 := i1 - d
				if lim2 < i2 {
					i1, i2 = lim2+d, lim2
				}
				if fbest < i1+i2 {
					fbest, fbest1 = i1+i2, i1
				}
			}
			bbest, bbest1 := lineMax, lineMax
			for d := bmax; d >= bmin; d -= 2 {
				i1 := max(off1, int(kvb[d+sh]))
				i2 := i1 - d
				if i2 < off2 {
					i1, i2 = off2+d, off2
				}
				if i1+i2 < bbest {
					bbest, bbest1 = i1+i2, i1
				}
			}
			if (lim1+lim2)-bbest < fbest-(off1+off2) {
				return fbest1, fbest - fbest1, true, false
			}
			return bbest1, bbest - bbest1, false, true
		}
	}
}

// sweepForwardGo (sweepForward where there is no assembly one) extends
// every forward diagonal d = fmax, fmax-2, ..., fmin by one edit and then
// along its snake, recording the furthest x in kvf. With check set (the
// distance between the corner diagonals is odd), it stops at the first
// diagonal where the forward path has reached the backward one,
// returning that point and met. snake reports whether any snake was
// longer than snakeCnt. a1 and a2 are A and B up to the box's limits.
// (Kept small so that its loop gets registers.)
func sweepForwardGo(kvf, kvb []int32, sh, fmin, fmax, bmin, bmax int, check bool, a1, a2 []uint32) (x, y int, met, snake bool) {
	for d := fmax; d >= fmin; d -= 2 {
		w := kvf[d-1+sh : d+2+sh : d+2+sh] // diagonals d-1, d, d+1
		// Ties prefer d-1 (consuming a line of A): if F[d-1] >= F[d+1]
		// then F[d-1]+1 > F[d+1], else F[d-1]+1 <= F[d+1]; so max
		// picks as xdiff does, without a branch.
		i1 := max(int(w[0])+1, int(w[2]))
		prev := i1
		i2 := i1 - d
		for uint(i1) < uint(len(a1)) && uint(i2) < uint(len(a2)) && a1[i1] == a2[i2] {
			i1++
			i2++
		}
		if i1-prev > snakeCnt {
			snake = true
		}
		w[1] = int32(i1)
		if check && bmin <= d && d <= bmax && int(kvb[d+sh]) <= i1 {
			return i1, i2, true, snake
		}
	}
	return 0, 0, false, snake
}

// sweepBackwardGo is sweepForwardGo's mirror image from the box's far
// corner; b1 and b2 are A and B from the box's offsets (off1, off2) on.
func sweepBackwardGo(kvb, kvf []int32, sh, bmin, bmax, fmin, fmax int, check bool, b1, b2 []uint32, off1, off2 int) (x, y int, met, snake bool) {
	for d := bmax; d >= bmin; d -= 2 {
		w := kvb[d-1+sh : d+2+sh : d+2+sh]
		// B[d-1] if B[d-1] < B[d+1], else B[d+1]-1: that is the min.
		i1 := min(int(w[0]), int(w[2])-1)
		prev := i1
		// j1, j2 index b1, b2: the pair before (i1, i1-d).
		j1, j2 := i1-off1-1, i1-d-off2-1
		for uint(j1) < uint(len(b1)) && uint(j2) < uint(len(b2)) && b1[j1] == b2[j2] {
			j1--
			j2--
		}
		i1 = j1 + off1 + 1
		if prev-i1 > snakeCnt {
			snake = true
		}
		w[1] = int32(i1)
		if check && fmin <= d && d <= fmax && i1 <= int(kvf[d+sh]) {
			return i1, i1 - d, true, snake
		}
	}
	return 0, 0, false, snake
}
