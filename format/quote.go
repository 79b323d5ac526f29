// Path quoting: git 2.39.5's quote_c_style (quote.c), as the porcelain
// formats print the paths of their "filename" and "previous" lines.
//
// A path that needs no quoting is printed as it is. Otherwise it is put
// in double quotes with C escapes: \a \b \t \n \v \f \r, \" and \\ by
// name, every other control byte and DEL as a three-digit octal escape
// (\001, \177), and — when core.quotePath is true, git's default — every
// byte >= 0x80 as octal too ("\303\251" for é). With core.quotePath=false
// those bytes pass through unchanged. Spaces are never quoted.

package format

// cqLookup is quote.c's cq_lookup: 'o' quote as octal, 'h' quote as
// octal only with core.quotePath (the bytes >= 0x80), 0 never quote, or
// the letter of the named escape.
var cqLookup = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		t[c] = 'o'
	}
	t['\a'], t['\b'], t['\t'], t['\n'], t['\v'], t['\f'], t['\r'] = 'a', 'b', 't', 'n', 'v', 'f', 'r'
	t['"'] = '"'
	t['\\'] = '\\'
	t[0x7f] = 'o'
	for c := 0x80; c < 0x100; c++ {
		t[c] = 'h'
	}
	return t
}()

func mustQuote(c byte, quotePath bool) bool {
	q := cqLookup[c]
	return q != 0 && (q != 'h' || quotePath)
}

// NeedsQuoting reports whether QuotePath would quote path.
func NeedsQuoting(path []byte, quotePath bool) bool {
	for _, c := range path {
		if mustQuote(c, quotePath) {
			return true
		}
	}
	return false
}

// QuotePath appends path to dst as git's quote_c_style prints it,
// quotePath being core.quotePath (true by default): unchanged when no
// byte needs quoting, else in double quotes with C escapes. A NUL byte,
// which no git path contains, is escaped as \000.
func QuotePath(dst []byte, path []byte, quotePath bool) []byte {
	if !NeedsQuoting(path, quotePath) {
		return append(dst, path...)
	}
	dst = append(dst, '"')
	start := 0
	for i, c := range path {
		if !mustQuote(c, quotePath) {
			continue
		}
		dst = append(dst, path[start:i]...)
		start = i + 1
		switch q := cqLookup[c]; q {
		case 'o', 'h':
			dst = append(dst, '\\', '0'+c>>6&3, '0'+c>>3&7, '0'+c&7)
		default:
			dst = append(dst, '\\', q)
		}
	}
	dst = append(dst, path[start:]...)
	return append(dst, '"')
}
