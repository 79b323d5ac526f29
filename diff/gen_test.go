package diff

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Generators of file pairs for the differential tests. Every generator is
// deterministic for a given seed; the test logs its seed.

type pairGen struct {
	r *rand.Rand
}

func newPairGen(seed uint64) *pairGen {
	return &pairGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *pairGen) n(k int) int {
	if k <= 0 {
		return 0
	}
	return g.r.IntN(k)
}

// word returns a short word from a vocabulary of size v.
func (g *pairGen) word(v int) string {
	syll := []string{"ka", "lo", "mi", "ne", "ru", "ta", "ve", "zo", "xi", "pu"}
	k := g.n(v)
	var sb strings.Builder
	for {
		sb.WriteString(syll[k%len(syll)])
		k /= len(syll)
		if k == 0 {
			break
		}
	}
	return sb.String()
}

// vocabLine is a line drawn from a vocabulary of v distinct lines.
func (g *pairGen) vocabLine(v int) string {
	return "line " + g.word(v) + "\n"
}

func (g *pairGen) uniqueLine() string {
	return fmt.Sprintf("u%x %s\n", g.r.Uint64(), g.word(1000))
}

// dupLine favours blank lines, braces and other lines that repeat a lot.
func (g *pairGen) dupLine() string {
	common := []string{"\n", "\n", "}\n", "{\n", "\treturn nil\n", "\t}\n", "end\n", "  \n", "\t\n", "x\n"}
	if g.n(4) > 0 {
		return common[g.n(len(common))]
	}
	return g.vocabLine(8)
}

// codeBlock returns a function-like block with nested indentation.
func (g *pairGen) codeBlock(indent string, depth int) []string {
	unit := "\t"
	if strings.HasPrefix(indent, " ") || (indent == "" && g.n(3) == 0) {
		unit = "    "
	}
	if depth == 0 {
		var out []string
		if g.n(3) == 0 {
			out = append(out, indent+"// "+g.word(50)+" "+g.word(50)+"\n")
		}
		out = append(out, indent+"func "+g.word(40)+"() {\n")
		out = append(out, g.codeBody(indent+unit, unit, 1+g.n(3))...)
		out = append(out, indent+"}\n")
		return out
	}
	return g.codeBody(indent, unit, depth)
}

func (g *pairGen) codeBody(indent, unit string, depth int) []string {
	var out []string
	for k := 1 + g.n(5); k > 0; k-- {
		switch g.n(6) {
		case 0:
			if depth > 0 {
				out = append(out, indent+"if "+g.word(20)+" {\n")
				out = append(out, g.codeBody(indent+unit, unit, depth-1)...)
				if g.n(3) == 0 {
					out = append(out, indent+"} else {\n")
					out = append(out, g.codeBody(indent+unit, unit, depth-1)...)
				}
				out = append(out, indent+"}\n")
			}
		case 1:
			out = append(out, "\n")
		case 2:
			out = append(out, indent+"return "+g.word(10)+"\n")
		default:
			out = append(out, indent+g.word(30)+" = "+g.word(30)+"\n")
		}
	}
	return out
}

func (g *pairGen) codeFile(blocks int) []string {
	var out []string
	for i := 0; i < blocks; i++ {
		if i > 0 {
			out = append(out, "\n")
		}
		out = append(out, g.codeBlock("", 0)...)
	}
	return out
}

// edit applies k random edits to lines, drawing new lines from mk.
func (g *pairGen) edit(lines []string, k int, mk func() string) []string {
	out := append([]string(nil), lines...)
	for ; k > 0; k-- {
		n := len(out)
		pos := g.n(n + 1)
		run := 1 + g.n(4)
		if g.n(4) == 0 {
			run += g.n(12)
		}
		switch g.n(7) {
		case 0, 1: // insert
			ins := make([]string, run)
			for i := range ins {
				ins[i] = mk()
			}
			out = append(out[:pos], append(ins, out[pos:]...)...)
		case 2, 3: // delete
			end := min(n, pos+run)
			out = append(out[:pos], out[end:]...)
		case 4: // replace
			end := min(n, pos+run)
			ins := make([]string, 1+g.n(run+1))
			for i := range ins {
				ins[i] = mk()
			}
			out = append(out[:pos], append(ins, out[end:]...)...)
		case 5: // duplicate a run elsewhere
			end := min(n, pos+run)
			dup := append([]string(nil), out[pos:end]...)
			at := g.n(len(out) + 1)
			out = append(out[:at], append(dup, out[at:]...)...)
		case 6: // move a run
			end := min(n, pos+run)
			mv := append([]string(nil), out[pos:end]...)
			out = append(out[:pos], out[end:]...)
			at := g.n(len(out) + 1)
			out = append(out[:at], append(mv, out[at:]...)...)
		}
	}
	return out
}

// insertCode inserts whole code blocks (the indent heuristic's playground).
func (g *pairGen) insertCode(lines []string, k int) []string {
	out := append([]string(nil), lines...)
	for ; k > 0; k-- {
		// Prefer positions just after a blank line or a closing brace.
		pos := g.n(len(out) + 1)
		for i := 0; i < 10 && pos < len(out) && pos > 0 && out[pos-1] != "\n" && out[pos-1] != "}\n"; i++ {
			pos = g.n(len(out) + 1)
		}
		blk := g.codeBlock("", 0)
		if g.n(2) == 0 {
			blk = append([]string{"\n"}, blk...)
		} else {
			blk = append(blk, "\n")
		}
		if g.n(3) == 0 && pos < len(out) {
			// An inner block at the indentation of the line there.
			ind := out[pos][:len(out[pos])-len(strings.TrimLeft(out[pos], " \t"))]
			blk = g.codeBody(ind, "\t", 1)
		}
		out = append(out[:pos], append(blk, out[pos:]...)...)
	}
	return out
}

// wsChange changes only whitespace in some lines.
func (g *pairGen) wsChange(lines []string, k int) []string {
	out := append([]string(nil), lines...)
	if len(out) == 0 {
		return out
	}
	for ; k > 0; k-- {
		i := g.n(len(out))
		s := out[i]
		switch g.n(6) {
		case 0:
			s = "\t" + s
		case 1:
			s = strings.Replace(s, "\n", "  \n", 1)
		case 2:
			s = strings.Replace(s, " ", "", -1)
		case 3:
			s = strings.Replace(s, "\n", "\r\n", 1)
		case 4:
			s = strings.Replace(s, " ", " \t ", 1)
		case 5:
			s = strings.TrimLeft(s, " \t")
		}
		out[i] = s
	}
	return out
}

func join(lines []string) []byte {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.Bytes()
}

func (g *pairGen) lines(n int, mk func() string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = mk()
	}
	return out
}

// pair produces one file pair of the given kind.
func (g *pairGen) pair(kind string) (a, b []byte) {
	var la, lb []string
	switch kind {
	case "small":
		v := 3 + g.n(30)
		mk := func() string { return g.vocabLine(v) }
		la = g.lines(g.n(40), mk)
		lb = g.edit(la, 1+g.n(4), mk)
	case "move":
		la = g.lines(20+g.n(150), g.uniqueLine)
		lb = g.edit(la, 0, nil)
		for k := 1 + g.n(3); k > 0; k-- {
			n := len(lb)
			pos, run := g.n(n), 1+g.n(20)
			end := min(n, pos+run)
			mv := append([]string(nil), lb[pos:end]...)
			lb = append(lb[:pos], lb[end:]...)
			at := g.n(len(lb) + 1)
			lb = append(lb[:at], append(mv, lb[at:]...)...)
		}
		if g.n(2) == 0 {
			lb = g.edit(lb, 1+g.n(3), g.uniqueLine)
		}
	case "dup":
		la = g.lines(5+g.n(200), g.dupLine)
		lb = g.edit(la, 1+g.n(8), g.dupLine)
	case "code":
		la = g.codeFile(1 + g.n(8))
		switch g.n(3) {
		case 0:
			lb = g.insertCode(la, 1+g.n(3))
		case 1:
			lb = g.insertCode(la, 1+g.n(2))
			la, lb = lb, la // deletions of blocks
		default:
			mk := func() string { return g.codeBlock("\t", 1)[0] }
			lb = g.edit(g.insertCode(la, g.n(2)), 1+g.n(3), mk)
		}
	case "ws":
		v := 5 + g.n(40)
		base := g.codeFile(1 + g.n(5))
		if g.n(2) == 0 {
			base = g.lines(10+g.n(80), func() string { return g.vocabLine(v) })
		}
		la = base
		lb = g.wsChange(la, 1+g.n(10))
		if g.n(2) == 0 {
			lb = g.edit(lb, 1+g.n(3), func() string { return g.vocabLine(v) })
		}
	case "crlf":
		v := 4 + g.n(20)
		mk := func() string {
			l := g.vocabLine(v)
			if g.n(2) == 0 {
				l = strings.TrimSuffix(l, "\n") + "\r\n"
			}
			return l
		}
		la = g.lines(g.n(80), mk)
		lb = g.edit(la, 1+g.n(5), mk)
	case "bytes":
		// Odd bytes: \v, \f, high bytes, lines that differ only in them.
		alphabet := []string{"a", "b", " ", "\t", "\v", "\f", "\r", "\xc3\xa9", "\xff", "{", "}"}
		mk := func() string {
			var sb strings.Builder
			for k := g.n(6); k > 0; k-- {
				sb.WriteString(alphabet[g.n(len(alphabet))])
			}
			sb.WriteByte('\n')
			return sb.String()
		}
		la = g.lines(g.n(60), mk)
		lb = g.edit(la, 1+g.n(6), mk)
	case "tail":
		// A long common tail (several KiB), so that the tail trim matters,
		// with changes just before it and lines that could slide into it.
		v := 3 + g.n(10)
		mk := func() string { return g.vocabLine(v) }
		head := g.lines(g.n(60), mk)
		tail := g.lines(100+g.n(300), func() string {
			if g.n(3) == 0 {
				return mk()
			}
			return g.uniqueLine()
		})
		la = append(append([]string(nil), head...), tail...)
		lb = append(g.edit(head, 1+g.n(4), mk), tail...)
		if g.n(3) == 0 {
			lb = g.edit(lb, 1, mk)
		}
	case "medium":
		// A few thousand lines with scattered edits.
		v := 200 + g.n(2000)
		mk := func() string {
			if g.n(3) == 0 {
				return g.uniqueLine()
			}
			return g.vocabLine(v)
		}
		la = g.lines(1000+g.n(4000), mk)
		lb = g.edit(la, 5+g.n(60), mk)
	case "costly":
		// Heavily reordered lines that all match somewhere, so that the
		// Myers search pays a high cost and the 256-cost cutoff fires.
		v := 50 + g.n(400)
		mk := func() string { return g.vocabLine(v) }
		la = g.lines(1500+g.n(3000), mk)
		lb = g.edit(la, 200+g.n(400), mk)
	case "frequent":
		// A handful of distinct lines repeated hundreds of times: every
		// common line is too frequent for histogram (more than 64), which
		// then falls back to Myers, and many lines are multimatches.
		v := 2 + g.n(4)
		mk := func() string { return g.vocabLine(v) }
		la = g.lines(150+g.n(500), mk)
		lb = g.edit(la, 1+g.n(10), func() string {
			if g.n(4) == 0 {
				return g.uniqueLine()
			}
			return mk()
		})
	case "blanks":
		// Long runs of blank lines and deep indentation around inserted
		// blocks: the indent heuristic's blank-line and indent caps.
		var base []string
		for k := 1 + g.n(6); k > 0; k-- {
			ind := strings.Repeat("\t", g.n(3))
			if g.n(4) == 0 {
				ind = strings.Repeat(" ", 190+g.n(30))
			}
			base = append(base, ind+"x"+g.word(5)+"\n")
			for n := g.n(30); n > 0; n-- {
				base = append(base, []string{"\n", "  \n", "\t\n"}[g.n(3)])
			}
			base = append(base, ind+"}\n")
		}
		la = base
		lb = g.edit(la, 1+g.n(4), func() string {
			if g.n(2) == 0 {
				return "\n"
			}
			return []string{"}\n", "\tx" + g.word(5) + "\n", strings.Repeat(" ", 205) + "y\n"}[g.n(3)]
		})
	case "huge":
		// More than 65k lines (after discarding), so that xdiff's cost
		// limit rises above 256 and the snake heuristic can fire.
		v := 2000 + g.n(6000)
		mk := func() string { return g.vocabLine(v) }
		la = g.lines(66000+g.n(20000), mk)
		lb = g.edit(la, 300+g.n(1500), mk)
	default:
		panic("unknown kind " + kind)
	}
	a, b = join(la), join(lb)
	// Missing final newlines, on either or both sides.
	if g.n(6) == 0 && len(a) > 0 {
		a = a[:len(a)-1]
	}
	if g.n(6) == 0 && len(b) > 0 {
		b = b[:len(b)-1]
	}
	// Sometimes make the ends differ, so that no tail can be trimmed and
	// Diff (without the trim) is what git runs.
	if g.n(5) == 0 {
		a = append(a, "end a\n"...)
		b = append(b, "end b\n"...)
	}
	return a, b
}
