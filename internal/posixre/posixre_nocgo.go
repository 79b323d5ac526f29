//go:build !cgo

package posixre

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
)

// Regexp is a compiled POSIX regular expression (Go regexp underneath).
type Regexp struct {
	re *regexp.Regexp
}

// Flags for Compile.
const (
	Extended = 1 << iota // REG_EXTENDED
	ICase                // REG_ICASE
	Newline              // REG_NEWLINE
)

// Compile translates pattern to Go syntax and compiles it. locale is
// ignored: Go's regexp matches UTF-8 text by characters in every locale.
func Compile(pattern string, flags int, locale string) (*Regexp, error) {
	var src string
	var err error
	if flags&Extended != 0 {
		src = pattern
	} else {
		src, err = translateBRE(pattern)
		if err != nil {
			return nil, err
		}
	}
	prefix := ""
	if flags&ICase != 0 {
		prefix += "i"
	}
	if flags&Newline != 0 {
		prefix += "m"
	}
	if prefix != "" {
		src = "(?" + prefix + ")" + src
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, errors.New("Invalid regular expression")
	}
	return &Regexp{re: re}, nil
}

// translateBRE rewrites a POSIX basic regular expression (with GNU
// extensions \| \+ \?) as Go syntax.
func translateBRE(p string) (string, error) {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", errors.New("Trailing backslash")
			}
			i++
			d := p[i]
			switch d {
			case '(':
				depth++
				b.WriteByte('(')
			case ')':
				if depth == 0 {
					return "", errors.New(`Unmatched ( or \(`)
				}
				depth--
				b.WriteByte(')')
			case '{', '}', '|', '+', '?':
				b.WriteByte(d)
			default:
				b.WriteString(regexp.QuoteMeta(string(d)))
			}
		case c == '(' || c == ')' || c == '{' || c == '}' || c == '|' || c == '+' || c == '?':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '*' && (i == 0 || p[i-1] == '^' && i == 1):
			b.WriteString(`\*`)
		case c == '[':
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '=') {
					k := strings.Index(p[j+2:], string(p[j+1])+"]")
					if k < 0 {
						return "", errors.New("Unmatched [, [^, [:, [., or [=")
					}
					j += k + 4
					continue
				}
				j++
			}
			if j >= len(p) {
				return "", errors.New("Unmatched [, [^, [:, [., or [=")
			}
			b.WriteString(p[i : j+1])
			i = j
		default:
			b.WriteByte(c)
		}
	}
	if depth != 0 {
		return "", errors.New(`Unmatched ( or \(`)
	}
	return b.String(), nil
}

// Find returns the first match in s, which ends at its first NUL byte.
func (r *Regexp) Find(s []byte) (start, end int, ok bool) {
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	loc := r.re.FindIndex(s)
	if loc == nil {
		return 0, 0, false
	}
	return loc[0], loc[1], true
}

// Free releases nothing; it exists for symmetry with the cgo version.
func (r *Regexp) Free() {}

// Match reports whether s, all of it (NUL bytes included), has a match:
// regexec with REG_STARTEND, as git's regexec_buf runs funcname patterns.
func (r *Regexp) Match(s []byte) bool { return r.re.Match(s) }
