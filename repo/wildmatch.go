package repo

import "strings"

// Pattern flags for wildmatch.
const (
	// wmCasefold compares ASCII letters without regard to case.
	wmCasefold = 1 << iota
	// wmPathname keeps '*', '?' and bracket expressions from matching
	// '/', and gives "**" its directory-spanning meaning.
	wmPathname
)

type wildResult int8

const (
	wildMatch wildResult = iota
	wildNoMatch
	wildAbortAll        // the text ran out: no later start can match
	wildAbortToStarStar // a single '*' hit '/': only an outer "**" may retry
)

// wildmatch reports whether text matches the shell-style pattern as
// git's wildmatch() does (the matcher of pathspecs, attributes, ignore
// rules and includeIf conditions): '?', '*', "**" (with wmPathname: any
// number of directories when it stands between slashes or at an end),
// bracket expressions with ranges, '!' or '^' negation and [:class:]
// names, and backslash escapes.
func wildmatch(pattern, text string, flags int) bool {
	return matchWild(pattern, text, flags) == wildMatch
}

func foldByte(c byte, flags int) byte {
	if flags&wmCasefold != 0 && 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

// matchWild matches pattern p against text t from their starts.
func matchWild(p, t string, flags int) wildResult {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		var tc byte
		if ti < len(t) {
			tc = t[ti]
		} else if pc != '*' {
			return wildAbortAll
		}
		tc = foldByte(tc, flags)
		pc = foldByte(pc, flags)
		switch pc {
		case '\\':
			// The next pattern byte is literal (a trailing backslash
			// matches nothing).
			pi++
			if pi >= len(p) || tc != p[pi] {
				return wildNoMatch
			}
		case '?':
			if flags&wmPathname != 0 && tc == '/' {
				return wildNoMatch
			}
		case '*':
			r, done := matchStar(p, &pi, t, &ti, flags)
			if done {
				return r
			}
		case '[':
			r, ok := matchBracket(p, &pi, tc, flags)
			if !ok {
				return r
			}
		default:
			if tc != pc {
				return wildNoMatch
			}
		}
	}
	if ti < len(t) {
		return wildNoMatch
	}
	return wildMatch
}

// matchStar handles a '*' or "**" at p[*pi] against t[*ti:]. It either
// decides the whole match (done) or, for "*/" under wmPathname, moves ti
// to the next '/' so the caller continues with the slash.
func matchStar(p string, pi *int, t string, ti *int, flags int) (r wildResult, done bool) {
	start := *pi
	i := start + 1
	matchSlash := flags&wmPathname == 0
	if i < len(p) && p[i] == '*' {
		for i < len(p) && p[i] == '*' {
			i++
		}
		if flags&wmPathname != 0 {
			atDirStart := start == 0 || p[start-1] == '/'
			atDirEnd := i == len(p) || p[i] == '/' || (p[i] == '\\' && i+1 < len(p) && p[i+1] == '/')
			if atDirStart && atDirEnd {
				// "**/" may also match no directory at all.
				if i < len(p) && p[i] == '/' && matchWild(p[i+1:], t[*ti:], flags) == wildMatch {
					return wildMatch, true
				}
				matchSlash = true
			} else {
				matchSlash = false
			}
		}
	}
	rest := t[*ti:]
	if i == len(p) {
		// A trailing "**" matches everything, a trailing '*' everything
		// up to the next slash.
		if !matchSlash && strings.IndexByte(rest, '/') >= 0 {
			return wildNoMatch, true
		}
		return wildMatch, true
	}
	if !matchSlash && p[i] == '/' {
		// A single '*' followed by '/' spans exactly one component.
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			return wildNoMatch, true
		}
		*ti += slash
		*pi = i
		return 0, false
	}
	sub := p[i:]
	j := 0
	for j < len(rest) {
		if !isGlobSpecial(sub[0]) {
			// Skip ahead to the next possible start of the literal.
			want := foldByte(sub[0], flags)
			for j < len(rest) && (matchSlash || rest[j] != '/') && foldByte(rest[j], flags) != want {
				j++
			}
			if j >= len(rest) || foldByte(rest[j], flags) != want {
				return wildNoMatch, true
			}
		}
		m := matchWild(sub, rest[j:], flags)
		if m != wildNoMatch {
			if !matchSlash || m != wildAbortToStarStar {
				return m, true
			}
		} else if !matchSlash && rest[j] == '/' {
			return wildAbortToStarStar, true
		}
		j++
	}
	return wildAbortAll, true
}

// matchBracket matches a bracket expression starting at p[*pi] == '['
// against tc, leaving *pi on its closing ']'. ok is false when the match
// fails (r says how).
func matchBracket(p string, pi *int, tc byte, flags int) (r wildResult, ok bool) {
	i := *pi + 1
	at := func(k int) byte {
		if k < len(p) {
			return p[k]
		}
		return 0
	}
	pc := at(i)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		i++
		pc = at(i)
	}
	var prev byte
	matched := false
	for {
		if pc == 0 {
			return wildAbortAll, false
		}
		switch {
		case pc == '\\':
			i++
			pc = at(i)
			if pc == 0 {
				return wildAbortAll, false
			}
			if tc == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && at(i+1) != 0 && at(i+1) != ']':
			i++
			pc = at(i)
			if pc == '\\' {
				i++
				pc = at(i)
				if pc == 0 {
					return wildAbortAll, false
				}
			}
			if prev <= tc && tc <= pc {
				matched = true
			} else if flags&wmCasefold != 0 && 'a' <= tc && tc <= 'z' {
				up := tc - 'a' + 'A'
				if prev <= up && up <= pc {
					matched = true
				}
			}
			pc = 0
		case pc == '[' && at(i+1) == ':':
			s := i + 2
			k := s
			for at(k) != 0 && at(k) != ']' {
				k++
			}
			if at(k) == 0 {
				return wildAbortAll, false
			}
			n := k - s - 1
			if n < 0 || p[k-1] != ':' {
				// Not a [:class:]; the '[' is an ordinary member.
				i = s - 2
				pc = '['
				if tc == pc {
					matched = true
				}
				break
			}
			cls, known := charClass(p[s:s+n], tc, flags)
			if !known {
				return wildAbortAll, false
			}
			if cls {
				matched = true
			}
			i = k
			pc = 0
		default:
			if tc == pc {
				matched = true
			}
		}
		prev = pc
		i++
		pc = at(i)
		if pc == ']' {
			break
		}
	}
	*pi = i
	if matched == negated || (flags&wmPathname != 0 && tc == '/') {
		return wildNoMatch, false
	}
	return 0, true
}

// charClass tests c against a POSIX class name (ASCII only).
func charClass(name string, c byte, flags int) (match, known bool) {
	upper := 'A' <= c && c <= 'Z'
	lower := 'a' <= c && c <= 'z'
	digit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return upper || lower || digit, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return lower, true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !upper && !lower && !digit, true
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r'), true
	case "upper":
		return upper || (flags&wmCasefold != 0 && lower), true
	case "xdigit":
		return digit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
