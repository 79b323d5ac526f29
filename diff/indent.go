package diff

// The indent heuristic (xdiffi.c, after Michael Haggerty's diff-slider
// tools): a group of added or removed lines that can slide has two
// boundaries, one above and one below, and each boundary is a "split"
// between two lines of the file. Each candidate position is scored by the
// badness of its two splits, judged from the indentation and blank lines
// around them; the least bad position wins, ties going to the lower one.

const (
	maxIndent    = 200 // indentation beyond this counts as this
	maxBlanks    = 20  // runs of blank lines beyond this count as this
	maxSliding   = 100 // candidate positions considered, counted from the bottom
	indentWeight = 60

	startOfFilePenalty              = 1
	endOfFilePenalty                = 21
	totalBlankWeight                = -30
	postBlankWeight                 = 6
	relativeIndentPenalty           = -4
	relativeIndentWithBlankPenalty  = 10
	relativeOutdentPenalty          = 24
	relativeOutdentWithBlankPenalty = 17
	relativeDedentPenalty           = 23
	relativeDedentWithBlankPenalty  = 17
)

// indentOf is get_indent: the indentation of a line, a tab advancing to
// the next multiple of 8, capped at maxIndent; -1 for a line that is all
// whitespace (git's whitespace: '\n' and '\r' count as such but add no
// width).
func indentOf(line []byte) int {
	ret := 0
	for _, c := range line {
		if !isGitSpace(c) {
			return ret
		}
		if c == ' ' {
			ret++
		} else if c == '\t' {
			ret += 8 - ret%8
		}
		if ret >= maxIndent {
			return maxIndent
		}
	}
	return -1
}

// splitMeasure describes the split just above line split.
type splitMeasure struct {
	endOfFile  bool
	indent     int // of the line below the split; -1 if blank or at EOF
	preBlank   int // blank lines directly above
	preIndent  int // indent of the nearest non-blank line above, or -1
	postBlank  int // blank lines after the line below the split
	postIndent int // indent of the nearest non-blank line after that, or -1
}

func measureSplit(x *side, split int) splitMeasure {
	var m splitMeasure
	if split >= x.n {
		m.endOfFile = true
		m.indent = -1
	} else {
		m.indent = indentOf(x.f.Line(split))
	}
	m.preIndent = -1
	for i := split - 1; i >= 0; i-- {
		m.preIndent = indentOf(x.f.Line(i))
		if m.preIndent != -1 {
			break
		}
		m.preBlank++
		if m.preBlank == maxBlanks {
			m.preIndent = 0
			break
		}
	}
	m.postIndent = -1
	for i := split + 1; i < x.n; i++ {
		m.postIndent = indentOf(x.f.Line(i))
		if m.postIndent != -1 {
			break
		}
		m.postBlank++
		if m.postBlank == maxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

type splitScore struct{ effectiveIndent, penalty int }

// add adds the badness of one split to s.
func (s *splitScore) add(m splitMeasure) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if m.endOfFile {
		s.penalty += endOfFilePenalty
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += totalBlankWeight * totalBlank
	s.penalty += postBlankWeight * postBlank

	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effectiveIndent += indent // -1 at the end of the file

	switch {
	case indent == -1, m.preIndent == -1:
	case indent > m.preIndent:
		if anyBlanks {
			s.penalty += relativeIndentWithBlankPenalty
		} else {
			s.penalty += relativeIndentPenalty
		}
	case indent == m.preIndent:
	default:
		if m.postIndent != -1 && m.postIndent > indent {
			if anyBlanks {
				s.penalty += relativeOutdentWithBlankPenalty
			} else {
				s.penalty += relativeOutdentPenalty
			}
		} else {
			if anyBlanks {
				s.penalty += relativeDedentWithBlankPenalty
			} else {
				s.penalty += relativeDedentPenalty
			}
		}
	}
}

// cmpScore orders scores: the sign of the effective-indent difference
// weighs indentWeight, the penalties add.
func cmpScore(a, b splitScore) int {
	c := 0
	if a.effectiveIndent > b.effectiveIndent {
		c = 1
	} else if a.effectiveIndent < b.effectiveIndent {
		c = -1
	}
	return indentWeight*c + (a.penalty - b.penalty)
}

// bestShift returns the end position the indent heuristic picks for a
// group of size lines that currently ends at end (its lowest position)
// and can end as high as earliestEnd.
func bestShift(x *side, end, size, earliestEnd int) int {
	shift := max(earliestEnd, end-size-1, end-maxSliding)
	best := -1
	var bestScore splitScore
	for ; shift <= end; shift++ {
		var sc splitScore
		sc.add(measureSplit(x, shift))
		sc.add(measureSplit(x, shift-size))
		if best == -1 || cmpScore(sc, bestScore) <= 0 {
			bestScore = sc
			best = shift
		}
	}
	return best
}
