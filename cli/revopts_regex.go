package cli

// validPOSIXExtendedRegex reports whether glibc's regcomp accepts pattern
// as an extended regular expression (REG_EXTENDED | REG_NEWLINE), in the C
// locale: the check git makes on the value of -I/--ignore-matching-lines.
// Only acceptance matters here (blame never matches with it), so this is a
// syntax checker for glibc's ERE dialect:
//
//   - a repetition (*, +, ?, {m,n}) must follow something: not the start
//     of the pattern, "(", "|", an anchor (^, $) or a GNU anchor escape
//     (\b, \B, \<, \>, \`, \'); repetitions may follow each other;
//   - "{" always starts an interval: {m}, {m,}, {,n}, {m,n}, {,} with
//     m <= n <= 32767 (RE_DUP_MAX);
//   - "(" must be closed; a ")" without "(" is an ordinary character;
//   - \1..\9 must name a group that is already closed;
//   - a bracket expression must be closed; [:class:] must be a known class,
//     [.x.] and [=x=] a single character; a range may not start or end
//     with a class and may not run backwards;
//   - a trailing backslash is an error.
func validPOSIXExtendedRegex(pattern string) bool {
	c := ereChecker{re: pattern}
	return c.check()
}

type ereChecker struct {
	re        string
	i         int
	opened    int          // groups opened so far
	completed map[int]bool // groups closed so far (back-references may name them)
}

func (c *ereChecker) check() bool {
	// canRepeat: the previous token can take a repetition operator.
	canRepeat := false
	var open []int // group numbers still open
	for c.i < len(c.re) {
		ch := c.re[c.i]
		switch ch {
		case '*', '+', '?':
			if !canRepeat {
				return false
			}
			c.i++
		case '{':
			if !canRepeat || !c.interval() {
				return false
			}
		case '(':
			c.opened++
			open = append(open, c.opened)
			c.i++
			canRepeat = false
		case ')':
			c.i++
			if len(open) == 0 {
				canRepeat = true // an ordinary character
				continue
			}
			if c.completed == nil {
				c.completed = map[int]bool{}
			}
			c.completed[open[len(open)-1]] = true
			open = open[:len(open)-1]
			canRepeat = true
		case '|':
			c.i++
			canRepeat = false
		case '^', '$':
			c.i++
			canRepeat = false
		case '[':
			if !c.bracket() {
				return false
			}
			canRepeat = true
		case '\\':
			if c.i+1 >= len(c.re) {
				return false
			}
			next := c.re[c.i+1]
			c.i += 2
			switch {
			case '1' <= next && next <= '9':
				if !c.completed[int(next-'0')] {
					return false
				}
				canRepeat = true
			case next == 'b' || next == 'B' || next == '<' || next == '>' || next == '`' || next == '\'':
				canRepeat = false
			default:
				canRepeat = true
			}
		default:
			c.i++
			canRepeat = true
		}
	}
	return len(open) == 0
}

// interval parses "{m,n}" at c.i.
func (c *ereChecker) interval() bool {
	const dupMax = 0x7fff
	j := c.i + 1
	num := func() (int, bool) {
		start := j
		v := 0
		for j < len(c.re) && isDigit(c.re[j]) {
			if v <= dupMax {
				v = v*10 + int(c.re[j]-'0')
			}
			j++
		}
		return v, j > start
	}
	lo, haveLo := num()
	hi, haveHi := lo, haveLo
	if j < len(c.re) && c.re[j] == ',' {
		j++
		hi, haveHi = num()
		if !haveHi {
			hi = dupMax
		}
	}
	if j >= len(c.re) || c.re[j] != '}' {
		return false
	}
	if !haveLo {
		lo = 0
	}
	if lo > dupMax || hi > dupMax || lo > hi {
		return false
	}
	c.i = j + 1
	return true
}

// isPOSIXClass tells the names of the character classes (a switch: a map
// literal would be built at start-up).
func isPOSIXClass(name string) bool {
	switch name {
	case "alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl", "blank", "alnum":
		return true
	}
	return false
}

// bracket parses a bracket expression starting at c.i ("[").
func (c *ereChecker) bracket() bool {
	j := c.i + 1
	if j < len(c.re) && c.re[j] == '^' {
		j++
	}
	first := true
	// prev is the last single character (for a range start), -1 when the
	// previous item cannot start a range.
	prev := -1
	for {
		if j >= len(c.re) {
			return false
		}
		ch := c.re[j]
		if ch == ']' && !first {
			c.i = j + 1
			return true
		}
		first = false
		// element reads one bracket element: a character, or a [:x:],
		// [.x.], [=x=] item. value is the character, or -1 for a class.
		element := func() (int, bool) {
			if c.re[j] == '[' && j+1 < len(c.re) && (c.re[j+1] == ':' || c.re[j+1] == '.' || c.re[j+1] == '=') {
				kind := c.re[j+1]
				end := -1
				for k := j + 2; k+1 < len(c.re); k++ {
					if c.re[k] == kind && c.re[k+1] == ']' {
						end = k
						break
					}
				}
				if end < 0 {
					return 0, false
				}
				name := c.re[j+2 : end]
				j = end + 2
				switch kind {
				case ':':
					return -1, isPOSIXClass(name)
				default:
					if len(name) != 1 {
						return 0, false
					}
					return int(name[0]), true
				}
			}
			v := int(c.re[j])
			j++
			return v, true
		}
		if ch == '-' && prev >= 0 && j+1 < len(c.re) && c.re[j+1] != ']' {
			// A range prev-end.
			j++
			end, ok := element()
			if !ok || end < 0 || end < prev {
				return false
			}
			prev = -1
			continue
		}
		v, ok := element()
		if !ok {
			return false
		}
		if v < 0 {
			// A class cannot start a range either.
			if j < len(c.re) && c.re[j] == '-' && j+1 < len(c.re) && c.re[j+1] != ']' {
				return false
			}
		}
		prev = v
	}
}
