// Package posixre compiles and runs POSIX regular expressions the way git
// does: through the C library's regcomp/regexec, so that git blame's -L
// /regex/ and :funcname forms, and diff drivers' funcname patterns, match
// the same lines and fail with the same messages ("Unmatched ( or \(",
// "Invalid preceding regular expression", ...). git compiles -L patterns
// as basic regular expressions with REG_NEWLINE.
//
// Built without cgo, the package falls back to Go's regexp after
// translating the POSIX syntax; matches agree on ordinary patterns, error
// messages follow glibc's wording for the errors the translation detects.
//
// # Concurrency
//
// A compiled Regexp may be used by one goroutine at a time.
package posixre
