package diff

// LineSet is the set of lines of one prepared File, for asking of the
// lines of another File of the same Differ whether they occur in it:
// equal as the Differ's diffs compare lines (the same bytes, newline
// included; under -w the same bytes but whitespace). A line that occurs
// nowhere in the set's File is changed in every diff against that File,
// so a caller can rule out a diff whose only use would be common lines it
// cannot have (blame's -M and -C prefilters). The zero value judges no
// line (Has answers true) until Reset; reuse one to avoid allocating.
type LineSet struct {
	bits  []uint64 // bit id set for each id of the File's lines
	ids   []uint32 // a copy of the File's ids, to clear their bits on the next Reset
	table *lineTable
	gen   uint64
}

// Reset makes s the set of f's lines.
func (s *LineSet) Reset(f *File) {
	for _, id := range s.ids {
		if int(id>>6) < len(s.bits) {
			s.bits[id>>6] = 0
		}
	}
	s.ids, s.table, s.gen = s.ids[:0], nil, 0
	if f == nil || f.table == nil {
		return
	}
	words := (f.table.count() + 63) >> 6
	if len(s.bits) < words {
		s.bits = make([]uint64, words+words/4)
	}
	for _, id := range f.ids {
		s.bits[id>>6] |= 1 << (id & 63)
	}
	s.ids, s.table, s.gen = append(s.ids, f.ids...), f.table, f.gen
}

// Has reports whether line i of g occurs in s's File. For a g that the
// same table did not prepare (another Differ, the other -w setting, or a
// table started afresh since) it answers true: it never rules out a line
// it cannot judge.
func (s *LineSet) Has(g *File, i int) bool {
	if g.table != s.table || g.gen != s.gen || s.table == nil || g.table.gen != s.gen {
		return true
	}
	id := g.ids[i]
	// An id the table handed out after Reset is no line of s's File.
	return int(id>>6) < len(s.bits) && s.bits[id>>6]&(1<<(id&63)) != 0
}
