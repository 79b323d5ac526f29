package posixre

import "unicode/utf8"

// A charSet is a bracket expression (or \w \W \s \S). In the C locale
// it is a set of bytes; in a UTF-8 one, the ASCII characters are a set
// of bytes too and the others match by the characters, ranges and
// classes listed. Nothing matches a byte that is not UTF-8 there.
type charSet struct {
	bytes      [256 / 64]uint64
	chars      []int32    // UTF-8: characters at or above U+0080
	ranges     [][2]int32 // UTF-8: ranges, as written (may cover ASCII)
	classes    uint16     // bit per class
	underscore bool       // \w: '_' too
	negate     bool
	// noNewline: a non-matching bracket expression under REG_NEWLINE,
	// which never matches '\n' (\W and \S are not).
	noNewline bool
}

func (s *charSet) addByte(b int32) { s.bytes[b>>6] |= 1 << (b & 63) }

func (s *charSet) hasByte(b int32) bool { return s.bytes[b>>6]&(1<<(b&63)) != 0 }

// matches reports whether character c (a subject character) is in the
// set.
func (s *charSet) matches(c int32, utf8Mode bool) bool {
	if c >= invalidByte {
		return false
	}
	if !utf8Mode || c < utf8.RuneSelf {
		in := s.hasByte(c) || s.underscore && c == '_' || s.classes != 0 && inClasses(c, s.classes, utf8Mode)
		if !in && utf8Mode {
			for _, r := range s.ranges {
				if r[0] <= c && c <= r[1] {
					in = true
					break
				}
			}
		}
		if s.negate {
			return !in && !(s.noNewline && c == '\n')
		}
		return in
	}
	in := false
	for _, x := range s.chars {
		if x == c {
			in = true
			break
		}
	}
	if !in && s.classes != 0 {
		in = inClasses(c, s.classes, true)
	}
	if !in {
		for _, r := range s.ranges {
			if r[0] <= c && c <= r[1] {
				in = true
				break
			}
		}
	}
	return in != s.negate
}

// inClasses reports whether c is in one of the classes (a bit each): a
// byte of the C locale, or a character of a UTF-8 one.
func inClasses(c int32, classes uint16, utf8Mode bool) bool {
	for k := 0; k < numClasses; k++ {
		if classes&(1<<k) != 0 && (utf8Mode && wideClass(k, c) || !utf8Mode && asciiClass(k, c)) {
			return true
		}
	}
	return false
}

type elemKind uint8

const (
	eChar  elemKind = iota // a character
	eColl                  // [.x.]
	eEquiv                 // [=x=]
	eClass                 // [:name:]
)

type bracketElem struct {
	kind elemKind
	c    int32  // eChar
	name []byte // the others: the name's bytes
}

type btokKind uint8

const (
	bEnd btokKind = iota
	bChar
	bOpenColl
	bOpenEquiv
	bOpenClass
	bRange
	bClose
	bNonMatch
)

// peekBracket reads the token at position i inside a bracket expression.
func (p *parser) peekBracket(i int) (btokKind, int) {
	if i >= len(p.pat) {
		return bEnd, 0
	}
	switch p.pat[i].c {
	case '[':
		if i+1 < len(p.pat) {
			switch p.pat[i+1].c {
			case '.':
				return bOpenColl, 2
			case '=':
				return bOpenEquiv, 2
			case ':':
				return bOpenClass, 2
			}
		}
	case '-':
		return bRange, 1
	case ']':
		return bClose, 1
	case '^':
		return bNonMatch, 1
	}
	return bChar, 1
}

// bracket parses a bracket expression, the '[' current, and moves to
// the token after its ']'.
func (p *parser) bracket() (*charSet, error) {
	s := &charSet{}
	i := p.pos + 1
	kind, width := p.peekBracket(i)
	if kind == bNonMatch {
		s.negate = true
		s.noNewline = p.newline
		i += width
		kind, width = p.peekBracket(i)
	}
	if kind == bEnd {
		return nil, errBadPat // "[" or "[^" last
	}
	if kind == bClose {
		kind = bChar
	}
	first := true
	for {
		var start, end bracketElem
		var err error
		start, i, err = p.bracketElem(i, kind, width, first)
		if err != nil {
			return nil, err
		}
		first = false
		kind, width = p.peekBracket(i)
		isRange := false
		if start.kind != eClass && start.kind != eEquiv {
			if kind == bEnd {
				return nil, errBrack
			}
			if kind == bRange {
				k2, w2 := p.peekBracket(i + width)
				if k2 == bEnd {
					return nil, errBrack
				}
				if k2 == bClose {
					kind = bChar // a '-' last is a character
				} else {
					isRange = true
					if end, i, err = p.bracketElem(i+width, k2, w2, true); err != nil {
						return nil, err
					}
					kind, width = p.peekBracket(i)
				}
			}
		}
		if isRange {
			if err := p.addRange(s, start, end); err != nil {
				return nil, err
			}
		} else if err := p.addElem(s, start); err != nil {
			return nil, err
		}
		if kind == bEnd {
			return nil, errBrack
		}
		if kind == bClose {
			break
		}
	}
	// The current token becomes the ']': next moves past it.
	p.pos = i
	p.tok = token{kind: tChar, width: width}
	return s, nil
}

// bracketElem reads one element starting at i, whose token is kind.
func (p *parser) bracketElem(i int, kind btokKind, width int, acceptHyphen bool) (bracketElem, int, error) {
	if i < len(p.pat) && p.utf8 && p.pat[i].c >= utf8.RuneSelf && p.pat[i].c < invalidByte {
		return bracketElem{kind: eChar, c: p.pat[i].c}, i + 1, nil
	}
	if kind == bEnd {
		return bracketElem{kind: eChar}, i, nil
	}
	i += width
	switch kind {
	case bOpenColl, bOpenEquiv, bOpenClass:
		return p.bracketSymbol(i, kind)
	case bRange:
		if !acceptHyphen {
			if k2, _ := p.peekBracket(i); k2 != bClose {
				return bracketElem{}, i, errRange
			}
		}
	}
	return bracketElem{kind: eChar, c: p.pat[i-width].c}, i, nil
}

// bracketNameMax is the longest name between [: :], [. .] or [= =].
const bracketNameMax = 32

// bracketSymbol reads the name after "[:", "[." or "[=" up to its
// closing ":]", ".]" or "=]".
func (p *parser) bracketSymbol(i int, kind btokKind) (bracketElem, int, error) {
	delim := byte(':')
	ek := eClass
	switch kind {
	case bOpenColl:
		delim, ek = '.', eColl
	case bOpenEquiv:
		delim, ek = '=', eEquiv
	}
	// The name is bytes; for [: :] the bytes as written.
	var name []byte
	src := p.patternBytes(i, kind == bOpenClass)
	j := 0
	if j >= len(src) {
		return bracketElem{}, i, errBrack
	}
	for n := 0; ; n++ {
		if n >= bracketNameMax {
			return bracketElem{}, i, errBrack
		}
		ch := src[j]
		j++
		if j >= len(src) {
			return bracketElem{}, i, errBrack
		}
		if ch == delim && src[j] == ']' {
			break
		}
		name = append(name, ch)
	}
	j++ // the ']'
	return bracketElem{kind: ek, name: name}, i + p.charsIn(i, j, kind == bOpenClass), nil
}

// patternBytes returns the pattern from character i on as bytes (folded
// unless orig).
func (p *parser) patternBytes(i int, orig bool) []byte {
	var b []byte
	for _, pc := range p.pat[i:] {
		c := pc.c
		if orig {
			c = pc.orig
		}
		b = appendChar(b, c, p.utf8)
	}
	return b
}

// charsIn returns how many characters from i on the first n bytes of
// patternBytes(i, orig) hold; a name that ends inside a character takes
// it whole.
func (p *parser) charsIn(i, n int, orig bool) int {
	k := 0
	for n > 0 && i+k < len(p.pat) {
		c := p.pat[i+k].c
		if orig {
			c = p.pat[i+k].orig
		}
		n -= len(appendChar(nil, c, p.utf8))
		k++
	}
	return k
}

// appendChar appends a character's bytes.
func appendChar(b []byte, c int32, utf8Mode bool) []byte {
	switch {
	case c >= invalidByte:
		return append(b, byte(c-invalidByte))
	case !utf8Mode || c < utf8.RuneSelf:
		return append(b, byte(c))
	}
	return utf8.AppendRune(b, c)
}

func (p *parser) addElem(s *charSet, e bracketElem) error {
	switch e.kind {
	case eChar:
		p.addChar(s, e.c)
	case eColl, eEquiv:
		// No collation: a single byte names itself (in a UTF-8
		// locale, only an ASCII one is a character).
		if len(e.name) != 1 {
			return errCollate
		}
		if b := int32(e.name[0]); !p.utf8 || b < utf8.RuneSelf {
			s.addByte(b)
		}
	case eClass:
		name := string(e.name)
		if p.icase && (name == "upper" || name == "lower") {
			name = "alpha"
		}
		k := classIndex(name)
		if k < 0 {
			return errCtype
		}
		s.classes |= 1 << k
	}
	return nil
}

// addChar adds a character (a byte in the C locale; in a UTF-8 locale a
// character, or the bytes of [.x.] and [=x=], which below U+0080 are
// characters and above are never matched).
func (p *parser) addChar(s *charSet, c int32) {
	switch {
	case c >= invalidByte:
		// A byte that is no character: only in the C locale's sense.
	case !p.utf8 || c < utf8.RuneSelf:
		if c < 256 {
			s.addByte(c)
		}
	default:
		s.chars = append(s.chars, c)
	}
}

func (p *parser) addRange(s *charSet, start, end bracketElem) error {
	if start.kind == eEquiv || start.kind == eClass || end.kind == eEquiv || end.kind == eClass {
		return errRange
	}
	if start.kind == eColl && len(start.name) > 1 || end.kind == eColl && len(end.name) > 1 {
		return errCollate
	}
	lo, ok1 := p.rangeEnd(start)
	hi, ok2 := p.rangeEnd(end)
	if !ok1 || !ok2 {
		return errCollate
	}
	if lo > hi {
		return errRange
	}
	if !p.utf8 {
		for c := lo; c <= hi && c < 256; c++ {
			s.addByte(c)
		}
		return nil
	}
	s.ranges = append(s.ranges, [2]int32{lo, hi})
	return nil
}

// rangeEnd is a range endpoint's character: in the C locale a byte, in a
// UTF-8 one only an ASCII character (glibc finds no collation sequence
// value for the others in C.UTF-8: "Invalid collation character").
func (p *parser) rangeEnd(e bracketElem) (int32, bool) {
	c := e.c
	if e.kind == eColl {
		if len(e.name) == 0 {
			c = 0
		} else {
			c = int32(e.name[0])
		}
		if p.utf8 && c >= utf8.RuneSelf {
			return 0, false
		}
		return c, true
	}
	if c >= invalidByte || p.utf8 && c >= utf8.RuneSelf {
		return 0, false
	}
	return c, true
}
