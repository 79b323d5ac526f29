// Package posixre compiles and runs POSIX regular expressions the way git
// does: through the C library's regcomp/regexec, so that git blame's -L
// /regex/ and :funcname forms, and diff drivers' funcname patterns, match
// the same lines and fail with the same messages ("Unmatched ( or \(",
// "Invalid preceding regular expression", ...). git compiles -L patterns
// as basic regular expressions with REG_NEWLINE, and runs funcname
// patterns on one line with REG_STARTEND (Match: NUL bytes are
// characters). Both run in the LC_CTYPE locale git would run in
// (CtypeLocale: git's main calls setlocale(LC_CTYPE, "")), which decides
// what a character is: one byte in the C locale, a UTF-8 sequence in a
// UTF-8 one. The locale is set for the calling thread only (uselocale)
// and only while the C library works, so nothing else in the process
// changes.
//
// The goblame binary that make build produces links the C library
// statically (Makefile: no dynamic loader at start-up, which cost every
// run about 25 page faults and a millisecond); go build and go install
// link it dynamically. goblame does not carry a regular expression engine
// of its own: an exact one would have to reproduce glibc's, and a
// translation of glibc's code is not ours to ship.
//
// Built without cgo, the package falls back to Go's regexp after
// translating the POSIX syntax; matches agree on ordinary patterns, error
// messages follow glibc's wording for the errors the translation detects,
// but leftmost-longest matching, back references, the GNU word
// operators and the C locale's bytes-as-characters are not glibc's
// there.
//
// # Concurrency
//
// A compiled Regexp may be used by one goroutine at a time.
package posixre
