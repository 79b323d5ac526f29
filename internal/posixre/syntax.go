package posixre

import (
	"errors"
	"unicode/utf8"
)

// The parser below accepts what glibc's regcomp accepts and fails with
// the error regcomp gives, for git's two syntaxes: POSIX basic (with the
// GNU operators \| \+ \? and a duplication not directly after another)
// and POSIX extended. The rules were found by running regcomp (the
// differential test compares every pattern it makes with it):
//
//   - An atom is a character, ".", a bracket expression, a group, a
//     back reference \1-\9 to a group already closed, an anchor (^ $
//     \` \' \< \> \b \B) or one of \w \W \s \S.
//   - Anchors take no repetition: what follows one starts a new atom. In
//     a basic expression ^ anchors only first in the pattern, a group or
//     an alternative, $ only last or before \) or \|; elsewhere they are
//     characters. In an extended one they anchor everywhere.
//   - A repetition operator with nothing before it (first in the
//     pattern, a group or an alternative, or after an anchor) is a
//     character in a basic expression ("*" and "\+"; "\{" is an error)
//     and "Invalid preceding regular expression" in an extended one.
//   - In a basic expression "*" or "\{" right after a repetition is that
//     error too.
//   - An unmatched \) is an error ("Unmatched ( or \(", as glibc words
//     it); an unmatched ")" in an extended expression is a character.
//   - \ followed by any other character is that character.

// Error messages, glibc's regerror wording.
var (
	errCollate  = errors.New("Invalid collation character")
	errCtype    = errors.New("Invalid character class name")
	errEscape   = errors.New("Trailing backslash")
	errSubReg   = errors.New("Invalid back reference")
	errBrack    = errors.New("Unmatched [, [^, [:, [., or [=")
	errParen    = errors.New(`Unmatched ( or \(`)
	errBrace    = errors.New(`Unmatched \{`)
	errBadBrace = errors.New(`Invalid content of \{\}`)
	errRange    = errors.New("Invalid range end")
	errBadRpt   = errors.New("Invalid preceding regular expression")
	errBadPat   = errors.New("Invalid regular expression")
	errSize     = errors.New("Regular expression too big")
)

// dupMax is RE_DUP_MAX: the largest count an interval may give.
const dupMax = 0x7fff

// maxNodes bounds the expanded expression (intervals copy their atom).
const maxNodes = 1 << 20

type nodeKind uint8

const (
	nEmpty  nodeKind = iota
	nChar            // one character, c
	nAny             // "."
	nSet             // a bracket expression or \w \W \s \S
	nAssert          // an anchor
	nConcat
	nAlt
	nRepeat // sub[0] min..max times (max -1: unbounded)
	nGroup  // sub[0], group number group
	nBackref
)

type assertion uint8

const (
	aLineStart       assertion = iota // ^
	aLineEnd                          // $
	aBufStart                         // \`
	aBufEnd                           // \'
	aWordStart                        // \<
	aWordEnd                          // \>
	aWordBoundary                     // \b
	aNotWordBoundary                  // \B
)

type node struct {
	kind     nodeKind
	c        int32 // nChar: the character (see char)
	set      *charSet
	assert   assertion
	min, max int
	group    int // nGroup, nBackref (1-based)
	sub      []*node
}

// A pattern character: its value for matching (folded under ICase) and
// its value as written (for the character after a backslash and class
// names, which regcomp reads unfolded). Values are those of chars in the
// subject: a byte in the C locale, else a code point, or invalidByte+b
// for a byte that is not part of a UTF-8 sequence.
type patChar struct {
	c, orig int32
}

type tokKind uint8

const (
	tEnd tokKind = iota
	tChar
	tTrailingBackslash
	tOpenGroup
	tCloseGroup
	tAlt
	tStar
	tPlus
	tQuestion
	tOpenBrace
	tCloseBrace
	tOpenBracket
	tPeriod
	tAnchor
	tBackref
	tWord
	tNotWord
	tSpace
	tNotSpace
)

type token struct {
	kind   tokKind
	c      int32 // tChar: the character
	assert assertion
	ref    int
	width  int // pattern characters it spans
}

type parser struct {
	pat      []patChar
	pos      int
	extended bool
	icase    bool
	utf8     bool
	newline  bool
	tok      token
	groups   int    // groups opened so far
	closed   uint16 // groups 1-9 closed so far (bit n-1)
	nodes    int
	backrefs bool
}

// decodePattern splits a pattern into characters the way the subject is
// split, folding them under ICase.
func decodePattern(pattern string, utf8Mode, icase bool) []patChar {
	b := []byte(pattern)
	out := make([]patChar, 0, len(b))
	for i := 0; i < len(b); {
		c, n := decodeChar(b[i:], utf8Mode)
		i += n
		f := c
		if icase {
			f = foldChar(c, utf8Mode)
		}
		out = append(out, patChar{c: f, orig: c})
	}
	return out
}

// decodeChar returns the first character of s and its length in bytes.
func decodeChar(s []byte, utf8Mode bool) (int32, int) {
	b := s[0]
	if !utf8Mode || b < utf8.RuneSelf {
		return int32(b), 1
	}
	r, n := utf8.DecodeRune(s)
	if r == utf8.RuneError && n <= 1 {
		return invalidByte + int32(b), 1
	}
	return r, n
}

func parse(pattern string, extended, icase, utf8Mode, newline bool) (*node, *parser, error) {
	p := &parser{pat: decodePattern(pattern, utf8Mode, icase), extended: extended, icase: icase, utf8: utf8Mode, newline: newline}
	p.next(true)
	n, err := p.regexp(0)
	if err != nil {
		return nil, nil, err
	}
	if p.nodes > maxNodes {
		return nil, nil, errSize
	}
	return orEmpty(n), p, nil
}

// peek reads the token at position i; caretHere makes a basic
// expression's ^ an anchor (first in a group or an alternative).
func (p *parser) peek(i int, caretHere bool) token {
	if i >= len(p.pat) {
		return token{kind: tEnd}
	}
	c := p.pat[i].c
	if c == '\\' {
		if i+1 >= len(p.pat) {
			return token{kind: tTrailingBackslash, width: 1}
		}
		c2 := p.pat[i+1].orig
		if c2 >= utf8.RuneSelf {
			c2 = p.pat[i+1].c // a folded character, as regcomp reads it
		}
		t := token{kind: tChar, c: c2, width: 2}
		switch c2 {
		case '|':
			if !p.extended {
				t.kind = tAlt
			}
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			t.kind, t.ref = tBackref, int(c2-'0')
		case '<':
			t.kind, t.assert = tAnchor, aWordStart
		case '>':
			t.kind, t.assert = tAnchor, aWordEnd
		case 'b':
			t.kind, t.assert = tAnchor, aWordBoundary
		case 'B':
			t.kind, t.assert = tAnchor, aNotWordBoundary
		case '`':
			t.kind, t.assert = tAnchor, aBufStart
		case '\'':
			t.kind, t.assert = tAnchor, aBufEnd
		case 'w':
			t.kind = tWord
		case 'W':
			t.kind = tNotWord
		case 's':
			t.kind = tSpace
		case 'S':
			t.kind = tNotSpace
		case '(':
			if !p.extended {
				t.kind = tOpenGroup
			}
		case ')':
			if !p.extended {
				t.kind = tCloseGroup
			}
		case '+':
			if !p.extended {
				t.kind = tPlus
			}
		case '?':
			if !p.extended {
				t.kind = tQuestion
			}
		case '{':
			if !p.extended {
				t.kind = tOpenBrace
			}
		case '}':
			if !p.extended {
				t.kind = tCloseBrace
			}
		}
		return t
	}
	t := token{kind: tChar, c: c, width: 1}
	switch c {
	case '|':
		if p.extended {
			t.kind = tAlt
		}
	case '*':
		t.kind = tStar
	case '+':
		if p.extended {
			t.kind = tPlus
		}
	case '?':
		if p.extended {
			t.kind = tQuestion
		}
	case '{':
		if p.extended {
			t.kind = tOpenBrace
		}
	case '}':
		if p.extended {
			t.kind = tCloseBrace
		}
	case '(':
		if p.extended {
			t.kind = tOpenGroup
		}
	case ')':
		if p.extended {
			t.kind = tCloseGroup
		}
	case '[':
		t.kind = tOpenBracket
	case '.':
		t.kind = tPeriod
	case '^':
		if p.extended || caretHere || i == 0 {
			t.kind, t.assert = tAnchor, aLineStart
		}
	case '$':
		if p.extended || i+1 == len(p.pat) {
			t.kind, t.assert = tAnchor, aLineEnd
		} else if n := p.peek(i+1, false); n.kind == tAlt || n.kind == tCloseGroup {
			t.kind, t.assert = tAnchor, aLineEnd
		}
	}
	return t
}

// next moves to the next token.
func (p *parser) next(caretHere bool) {
	p.pos += p.tok.width
	p.tok = p.peek(p.pos, caretHere)
}

func (p *parser) newNode(n *node) *node {
	p.nodes++
	return n
}

// regexp parses alternatives up to the end or (nest > 0) a closing
// parenthesis.
func (p *parser) regexp(nest int) (*node, error) {
	// A back reference sees the groups closed before the alternation
	// and in its own alternative only.
	before := p.closed
	branch, err := p.branch(nest)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tAlt {
		return branch, nil
	}
	alts := []*node{orEmpty(branch)}
	for p.tok.kind == tAlt {
		p.next(true)
		var b *node
		if p.tok.kind != tAlt && p.tok.kind != tEnd && (nest == 0 || p.tok.kind != tCloseGroup) {
			seen := p.closed
			p.closed = before
			b, err = p.branch(nest)
			p.closed |= seen
			if err != nil {
				return nil, err
			}
		}
		alts = append(alts, orEmpty(b))
	}
	return p.newNode(&node{kind: nAlt, sub: alts}), nil
}

func orEmpty(n *node) *node {
	if n == nil {
		return &node{kind: nEmpty}
	}
	return n
}

func (p *parser) branch(nest int) (*node, error) {
	var seq []*node
	for {
		e, err := p.expression(nest)
		if err != nil {
			return nil, err
		}
		if e != nil {
			seq = append(seq, e)
		}
		if p.tok.kind == tAlt || p.tok.kind == tEnd || nest > 0 && p.tok.kind == tCloseGroup {
			break
		}
	}
	switch len(seq) {
	case 0:
		return nil, nil
	case 1:
		return seq[0], nil
	}
	return p.newNode(&node{kind: nConcat, sub: seq}), nil
}

// expression parses one atom and the repetitions after it; nil is an
// expression that matches the empty string.
func (p *parser) expression(nest int) (*node, error) {
	t := p.tok
	var atom *node
	switch t.kind {
	case tChar:
		atom = p.newNode(&node{kind: nChar, c: t.c})
	case tOpenGroup:
		g, err := p.group(nest + 1)
		if err != nil {
			return nil, err
		}
		atom = g
	case tOpenBracket:
		s, err := p.bracket()
		if err != nil {
			return nil, err
		}
		atom = p.newNode(&node{kind: nSet, set: s})
	case tBackref:
		if p.closed&(1<<(t.ref-1)) == 0 {
			return nil, errSubReg
		}
		p.backrefs = true
		atom = p.newNode(&node{kind: nBackref, group: t.ref})
	case tOpenBrace:
		if !p.extended {
			return nil, errBadRpt
		}
		fallthrough
	case tStar, tPlus, tQuestion:
		if p.extended {
			return nil, errBadRpt
		}
		atom = p.newNode(&node{kind: nChar, c: t.c})
	case tCloseGroup:
		if !p.extended {
			return nil, errParen
		}
		atom = p.newNode(&node{kind: nChar, c: t.c})
	case tCloseBrace:
		atom = p.newNode(&node{kind: nChar, c: t.c})
	case tAnchor:
		p.next(false)
		return p.newNode(&node{kind: nAssert, assert: t.assert}), nil
	case tPeriod:
		atom = p.newNode(&node{kind: nAny})
	case tWord, tNotWord:
		atom = p.newNode(&node{kind: nSet, set: &charSet{classes: 1 << classAlnum, underscore: true, negate: t.kind == tNotWord}})
	case tSpace, tNotSpace:
		atom = p.newNode(&node{kind: nSet, set: &charSet{classes: 1 << classSpace, negate: t.kind == tNotSpace}})
	case tAlt, tEnd:
		return nil, nil
	case tTrailingBackslash:
		return nil, errEscape
	default:
		return nil, errBadPat
	}
	p.next(false)
	for p.tok.kind == tStar || p.tok.kind == tPlus || p.tok.kind == tQuestion || p.tok.kind == tOpenBrace {
		dup, err := p.repetition(atom)
		if err != nil {
			return nil, err
		}
		atom = dup
		if !p.extended && (p.tok.kind == tStar || p.tok.kind == tOpenBrace) {
			return nil, errBadRpt
		}
	}
	return atom, nil
}

// group parses a parenthesised expression, the opening token current.
func (p *parser) group(nest int) (*node, error) {
	p.groups++
	num := p.groups
	p.next(true)
	var sub *node
	if p.tok.kind != tCloseGroup {
		var err error
		if sub, err = p.regexp(nest); err != nil {
			return nil, err
		}
		if p.tok.kind != tCloseGroup {
			return nil, errParen
		}
	}
	if num <= 9 {
		p.closed |= 1 << (num - 1)
	}
	return p.newNode(&node{kind: nGroup, group: num, sub: []*node{orEmpty(sub)}}), nil
}

// repetition applies the repetition token to atom (nil: the empty
// string) and moves past it.
func (p *parser) repetition(atom *node) (*node, error) {
	lo, hi := 0, -1
	switch p.tok.kind {
	case tPlus:
		lo = 1
	case tQuestion:
		hi = 1
	case tOpenBrace:
		p.next(false)
		start, t := p.number()
		if start == -1 {
			if t.kind == tChar && t.c == ',' {
				start = 0
			} else {
				return nil, errBadBrace
			}
		}
		end := -2
		if start != -2 {
			switch {
			case t.kind == tCloseBrace:
				end = start
			case t.kind == tChar && t.c == ',':
				p.next(false)
				end, t = p.number()
			}
		}
		if start == -2 || end == -2 {
			if t.kind == tEnd {
				return nil, errBrace
			}
			return nil, errBadBrace
		}
		if end != -1 && start > end || t.kind != tCloseBrace {
			return nil, errBadBrace
		}
		if max(start, end) > dupMax {
			return nil, errSize
		}
		lo, hi = start, end
	}
	p.next(false)
	if atom == nil {
		return nil, nil
	}
	if lo == 0 && hi == 0 {
		return nil, nil
	}
	copies := max(lo, hi)
	if hi == -1 {
		copies = lo + 1
	}
	p.nodes += copies * countNodes(atom)
	if p.nodes > maxNodes {
		return nil, errSize
	}
	return p.newNode(&node{kind: nRepeat, min: lo, max: hi, sub: []*node{atom}}), nil
}

// number reads the digits of an interval up to "," or the closing
// brace, from the current token: -1 for none, -2 for anything else
// (and at the end of the pattern). It returns the token it stopped at.
func (p *parser) number() (int, token) {
	num := -1
	for {
		t := p.tok
		if t.kind == tEnd {
			return -2, t
		}
		if t.kind == tCloseBrace || t.kind == tChar && t.c == ',' {
			return num, t
		}
		switch {
		case t.kind != tChar || t.c < '0' || t.c > '9' || num == -2:
			num = -2
		case num == -1:
			num = int(t.c - '0')
		default:
			num = min(dupMax+1, num*10+int(t.c-'0'))
		}
		p.next(false)
	}
}

func countNodes(n *node) int {
	c := 1
	for _, s := range n.sub {
		c += countNodes(s)
	}
	if n.kind == nRepeat {
		copies := max(n.min, n.max)
		if n.max == -1 {
			copies = n.min + 1
		}
		c += (copies - 1) * countNodes(n.sub[0])
	}
	return c
}
