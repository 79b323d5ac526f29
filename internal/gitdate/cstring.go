// C library string semantics that date.c relies on: a Go string read as
// a C string (cut at its first NUL, 0 past its end), git's and the C
// locale's ctype, and strtol. The few that format also needs (color.c's
// parsing and utf8.c's width) are exported, so that there is one copy.

package gitdate

import "math"

// CString truncates s at its first NUL, as a C function would see it.
func CString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i]
		}
	}
	return s
}

// CStrlen is C's strlen: the length of b up to its first NUL.
func CStrlen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}

// At returns s[i], or 0 (C's terminating NUL) past the end.
func At[S ~string | ~[]byte](s S, i int) byte {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return 0
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// IsGitSpace is git's isspace: space, \t, \n, \r (not \v or \f).
func IsGitSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

func asciiUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// ASCIILower is tolower in the C locale.
func ASCIILower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// ---------------------------------------------------------------------
// strtol and friends, on a Go string read as a C string from index i.
// They return the value and the index where parsing stopped (i itself
// when there were no digits).

func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// cStrtoumax is strtoumax(s+i, &end, 10) (and strtoul on LP64).
func cStrtoumax[S ~string | ~[]byte](s S, i int) (uint64, int) {
	p := i
	for isCSpace(At(s, p)) {
		p++
	}
	neg := false
	if c := At(s, p); c == '+' || c == '-' {
		neg = c == '-'
		p++
	}
	if !isDigit(At(s, p)) {
		return 0, i
	}
	var v uint64
	overflow := false
	for isDigit(At(s, p)) {
		d := uint64(s[p] - '0')
		if v > (math.MaxUint64-d)/10 {
			overflow = true
		} else {
			v = v*10 + d
		}
		p++
	}
	if overflow {
		return math.MaxUint64, p
	}
	if neg {
		v = -v
	}
	return v, p
}

func cStrtoul(s string, i int) (uint64, int) { return cStrtoumax(s, i) }

// CStrtol is strtol(s+i, &end, 10) on LP64: clamped to the int64 range.
func CStrtol[S ~string | ~[]byte](s S, i int) (int64, int) {
	p := i
	for isCSpace(At(s, p)) {
		p++
	}
	neg := false
	if c := At(s, p); c == '+' || c == '-' {
		neg = c == '-'
		p++
	}
	if !isDigit(At(s, p)) {
		return 0, i
	}
	var v uint64
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	overflow := false
	for isDigit(At(s, p)) {
		d := uint64(s[p] - '0')
		if v > (limit-d)/10 {
			overflow = true
		} else {
			v = v*10 + d
		}
		p++
	}
	switch {
	case overflow && neg:
		return math.MinInt64, p
	case overflow:
		return math.MaxInt64, p
	case neg:
		return -int64(v), p
	}
	return int64(v), p
}
