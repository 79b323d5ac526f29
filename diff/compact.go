package diff

import "bytes"

// side is one file during compaction and script building: its ids (for
// equality), its line bytes (for indentation) and its change marks. ch
// has a zero sentinel at each end: ch[0] stands for line -1 and ch[n+1]
// for line n, so changed(i) is ch[i+1].
type side struct {
	f   *File
	ids []uint32
	ch  []byte
	n   int
}

func (s *side) changed(i int) bool { return s.ch[i+1] != 0 }
func (s *side) mark(i int, v byte) { s.ch[i+1] = v }

// group is a run [start, end) of changed lines, possibly empty: there is a
// group before the first unchanged line, one between any two unchanged
// lines and one after the last. The k-th group of one file corresponds to
// the k-th group of the other, since unchanged lines pair up one to one.
type group struct{ start, end int }

func (s *side) firstGroup() group {
	g := group{}
	for s.changed(g.end) {
		g.end++
	}
	return g
}

// next moves g to the following group; false at the end of the file.
func (s *side) next(g *group) bool {
	if g.end == s.n {
		return false
	}
	g.start = g.end + 1
	g.end = g.start
	for s.changed(g.end) {
		g.end++
	}
	return true
}

// prev moves g to the preceding group; false at the start of the file.
func (s *side) prev(g *group) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	g.start = g.end
	for s.changed(g.start - 1) {
		g.start--
	}
	return true
}

// slideDown moves a non-empty group one line down if the line after it
// equals its first line, absorbing any group it runs into.
func (s *side) slideDown(g *group) bool {
	if g.end < s.n && s.ids[g.start] == s.ids[g.end] {
		s.mark(g.start, 0)
		g.start++
		s.mark(g.end, 1)
		g.end++
		for s.changed(g.end) {
			g.end++
		}
		return true
	}
	return false
}

// slideUp is slideDown's mirror image.
func (s *side) slideUp(g *group) bool {
	if g.start > 0 && s.ids[g.start-1] == s.ids[g.end-1] {
		g.start--
		s.mark(g.start, 1)
		g.end--
		s.mark(g.end, 0)
		for s.changed(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

// compact is xdl_change_compact for x against the other file o: every
// group of x that can slide is moved first as far up and then as far down
// as it goes, merging with groups it meets, and then placed: lined up
// with a change in the other file if it can be, else where the indent
// heuristic likes it best (when on), else at the bottom. Corresponding
// groups of o are tracked alongside (they never move here).
func compact(x, o *side, indentHeuristic bool) {
	g := x.firstGroup()
	gOther := o.firstGroup()
	for {
		if g.end != g.start {
			var size, earliestEnd int
			endMatchingOther := -1
			for {
				size = g.end - g.start
				endMatchingOther = -1
				for x.slideUp(&g) {
					o.prev(&gOther)
				}
				earliestEnd = g.end
				if gOther.end > gOther.start {
					endMatchingOther = g.end
				}
				for x.slideDown(&g) {
					o.next(&gOther)
					if gOther.end > gOther.start {
						endMatchingOther = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}

			switch {
			case g.end == earliestEnd:
				// It cannot move.
			case endMatchingOther != -1:
				for gOther.end == gOther.start {
					x.slideUp(&g)
					o.prev(&gOther)
				}
			case indentHeuristic:
				best := bestShift(x, g.end, size, earliestEnd)
				for g.end > best {
					x.slideUp(&g)
					o.prev(&gOther)
				}
			}
		}
		if g.end == g.start && gOther.end == gOther.start {
			x.skipUnchanged(&g, o, &gOther)
		}
		if !x.next(&g) {
			break
		}
		o.next(&gOther)
	}
}

// skipUnchanged moves two corresponding empty groups forward together
// over the unchanged lines that follow them, stopping at the last empty
// group before a changed line in either file: the groups that stepping
// one by one would visit in between are all empty in both files, so
// nothing happens at them.
func (x *side) skipUnchanged(g *group, o *side, gOther *group) {
	s, so := g.end, gOther.end
	if s >= x.n || so >= o.n {
		return
	}
	// The first changed line after s in x (x.n if none), likewise in o.
	px := bytes.IndexByte(x.ch[s+2:x.n+1], 1)
	if px < 0 {
		px = x.n
	} else {
		px += s + 1
	}
	po := bytes.IndexByte(o.ch[so+2:o.n+1], 1)
	if po < 0 {
		po = o.n
	} else {
		po += so + 1
	}
	m := min(px-1-s, po-1-so)
	if m > 0 {
		g.start, g.end = s+m, s+m
		gOther.start, gOther.end = so+m, so+m
	}
}
