package posixre

import (
	"bytes"
	"unicode/utf8"
)

// engine is the package's own matcher for a parsed expression: a Pike
// machine (every alternative at once, time linear in the subject) for
// expressions without back references, a backtracking search over the
// expression for those with them. Both report the match POSIX asks for:
// the leftmost, and of those the longest.
type engine struct {
	root     *node
	utf8     bool
	icase    bool
	newline  bool
	backrefs bool
	groups   int
	prog     []inst
	// lit is bytes every match takes, in a row (requiredLiteral): a
	// subject without them has no match, which bytes.Contains finds
	// sooner than the machine (a message search over git/git's 80,000
	// commits spent a third of its time matching).
	lit []byte
}

// compileEngine compiles pattern with Compile's flags, in a UTF-8 locale
// or the C locale.
func compileEngine(pattern string, flags int, utf8Mode bool) (*engine, error) {
	e := &engine{utf8: utf8Mode, icase: flags&ICase != 0, newline: flags&Newline != 0}
	root, p, err := parse(pattern, flags&Extended != 0, e.icase, utf8Mode, e.newline)
	if err != nil {
		return nil, err
	}
	e.root, e.backrefs, e.groups = root, p.backrefs, p.groups
	if !e.backrefs {
		e.prog = compileProg(root)
	}
	if !e.icase {
		e.lit = requiredLiteral(root, utf8Mode)
	}
	return e, nil
}

// requiredLiteral returns the longest run of plain characters in a row
// of the expression's top-level sequence, as the subject's bytes hold
// them (a character is its byte in the C locale; in a UTF-8 locale a
// code point is its UTF-8 encoding, which is the only one the subject
// decodes to it, and an invalid byte is itself): every match takes
// those bytes in a row. nil where there is none (an alternation at the
// top, a single character), and not for ICase, whose characters match
// others.
func requiredLiteral(root *node, utf8Mode bool) []byte {
	seq := []*node{root}
	if root.kind == nConcat {
		seq = root.sub
	}
	var best, run []byte
	for _, n := range seq {
		if n.kind != nChar {
			run = run[:0]
			continue
		}
		switch c := n.c; {
		case !utf8Mode || c < utf8.RuneSelf:
			run = append(run, byte(c))
		case c >= invalidByte:
			run = append(run, byte(c-invalidByte))
		case utf8.ValidRune(c):
			run = utf8.AppendRune(run, c)
		default:
			run = run[:0]
			continue
		}
		if len(run) > len(best) {
			best = append(best[:0], run...)
		}
	}
	if len(best) < 2 {
		return nil
	}
	return best
}

// char returns the subject's character at byte i, as patterns compare it.
func (e *engine) char(s []byte, i int) (int32, int) {
	c, n := decodeChar(s[i:], e.utf8)
	if e.icase {
		c = foldChar(c, e.utf8)
	}
	return c, n
}

// find returns the leftmost-longest match in s.
func (e *engine) find(s []byte) (start, end int, ok bool) {
	if e.lit != nil && !bytes.Contains(s, e.lit) {
		return 0, 0, false
	}
	if e.backrefs {
		return e.backtrack(s, false)
	}
	return e.pike(s, false)
}

// match reports whether s has a match.
func (e *engine) match(s []byte) bool {
	if e.lit != nil && !bytes.Contains(s, e.lit) {
		return false
	}
	var ok bool
	if e.backrefs {
		_, _, ok = e.backtrack(s, true)
	} else {
		_, _, ok = e.pike(s, true)
	}
	return ok
}

// context is what the assertions see at a position: the characters
// before and after it (-1: none, the start or the end).
type context struct {
	prev, next int32
}

type holdResult uint8

const (
	holdsNot holdResult = iota
	holdsNow
	// holdsIfNewlineConsumed: a $ before a newline without REG_NEWLINE,
	// which holds if the next thing the match does is take that newline.
	holdsIfNewlineConsumed
)

// holdsAt decides assertion a at byte pos of a match attempt that began
// at start. Without REG_NEWLINE glibc's ^ and $ still see a newline
// that the match itself takes: ^ holds after a newline the attempt took
// (".^" matches "\n"), $ before one it takes next ("$." does), but not
// where the attempt begins after a newline or ends before one.
func (e *engine) holdsAt(a assertion, cx context, pos, start int) holdResult {
	switch a {
	case aLineStart:
		if cx.prev < 0 || cx.prev == '\n' && (e.newline || pos > start) {
			return holdsNow
		}
		return holdsNot
	case aLineEnd:
		switch {
		case cx.next < 0 || e.newline && cx.next == '\n':
			return holdsNow
		case cx.next == '\n':
			return holdsIfNewlineConsumed
		}
		return holdsNot
	}
	if e.holds(a, cx) {
		return holdsNow
	}
	return holdsNot
}

// holds decides the assertions that depend on the characters around
// the position only.
func (e *engine) holds(a assertion, cx context) bool {
	switch a {
	case aBufStart:
		return cx.prev < 0
	case aBufEnd:
		return cx.next < 0
	}
	pw := cx.prev >= 0 && isWordChar(cx.prev, e.utf8)
	nw := cx.next >= 0 && isWordChar(cx.next, e.utf8)
	switch a {
	case aWordStart:
		return !pw && nw
	case aWordEnd:
		return pw && !nw
	case aWordBoundary:
		return pw != nw
	}
	return pw == nw // aNotWordBoundary
}

// anyAccepts reports whether a "." accepts c.
func (e *engine) anyAccepts(c int32) bool {
	return c != 0 && !(e.newline && c == '\n') && !(e.utf8 && c >= invalidByte)
}
