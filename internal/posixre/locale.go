package posixre

// CtypeLocale returns the name of the LC_CTYPE locale that git runs in
// with these environment variables: git's main calls
// setlocale(LC_CTYPE, ""), which takes the first of LC_ALL, LC_CTYPE and
// LANG that is set and not empty, else "C". Its regular expressions (-L
// /regex/ and :funcname, funcname patterns, ":/" revisions) are compiled
// and run in that locale: under a UTF-8 one "." matches "é" whole and
// [[:alpha:]] matches it. A name the C library has no locale for leaves
// git in the C locale, and Compile does the same.
func CtypeLocale(getenv func(string) string) string {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	return "C"
}
