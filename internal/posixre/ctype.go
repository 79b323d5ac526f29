package posixre

import "sort"

// invalidByte+b stands for byte b of a UTF-8 locale's subject or pattern
// that is no part of a UTF-8 sequence: a character of its own that only
// the same byte written in the pattern matches.
const invalidByte = 0x200000

// The character classes, in the order of utf8ClassRanges.
const (
	classAlpha = iota
	classUpper
	classLower
	classDigit
	classXdigit
	classSpace
	classPrint
	classPunct
	classGraph
	classCntrl
	classBlank
	classAlnum
	numClasses
)

var classNames = [numClasses]string{"alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl", "blank", "alnum"}

// classIndex returns the class called name, -1 for none.
func classIndex(name string) int {
	for k, n := range classNames {
		if n == name {
			return k
		}
	}
	return -1
}

// asciiClass reports whether byte c is in class k in the C locale (and
// for ASCII in every locale glibc has).
func asciiClass(k int, c int32) bool {
	if c >= 0x80 || c < 0 {
		return false
	}
	upper := 'A' <= c && c <= 'Z'
	lower := 'a' <= c && c <= 'z'
	digit := '0' <= c && c <= '9'
	switch k {
	case classAlpha:
		return upper || lower
	case classUpper:
		return upper
	case classLower:
		return lower
	case classDigit:
		return digit
	case classXdigit:
		return digit || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	case classSpace:
		return c == ' ' || '\t' <= c && c <= '\r'
	case classPrint:
		return 0x20 <= c && c < 0x7f
	case classPunct:
		return 0x20 < c && c < 0x7f && !upper && !lower && !digit
	case classGraph:
		return 0x20 < c && c < 0x7f
	case classCntrl:
		return c < 0x20 || c == 0x7f
	case classBlank:
		return c == ' ' || c == '\t'
	case classAlnum:
		return upper || lower || digit
	}
	return false
}

// wideClass reports whether code point c is in class k in a UTF-8
// locale (glibc's C.UTF-8 tables).
func wideClass(k int, c int32) bool {
	if c < 0x80 {
		return asciiClass(k, c)
	}
	rs := utf8ClassRanges[k]
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] >= c })
	return i < len(rs) && rs[i][0] <= c
}

// foldChar is a character as REG_ICASE compares it: upper case (toupper
// in the C locale, towupper in a UTF-8 one).
func foldChar(c int32, utf8Mode bool) int32 {
	if c < 0x80 || !utf8Mode {
		if 'a' <= c && c <= 'z' {
			return c - 'a' + 'A'
		}
		return c
	}
	if c >= invalidByte {
		return c
	}
	rs := utf8UpperRanges
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] >= c })
	if i < len(rs) && rs[i][0] <= c {
		return c + rs[i][2]
	}
	return c
}

// isWordChar reports whether c is a word character for \b \< \> (alnum
// or '_'); a lone byte in a UTF-8 locale counts as the code point of its
// value, as glibc's matcher sees it.
func isWordChar(c int32, utf8Mode bool) bool {
	if c == '_' {
		return true
	}
	if !utf8Mode {
		return asciiClass(classAlnum, c)
	}
	if c >= invalidByte {
		c -= invalidByte
	}
	return wideClass(classAlnum, c)
}
