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
// That is a cgo build (go build and go install where a C compiler is
// found). The goblame binary that make build produces is built without
// cgo, for a faster start (README.md, Requirements).
//
// Built without cgo, the package uses an engine of its own (syntax.go,
// bracket.go, pike.go, backtrack.go), written to the behaviour of
// glibc's and compared with it by a differential test on random
// patterns and subjects (engine_clib_test.go, run in every cgo build):
// the same patterns are accepted, the same errors given, the same
// leftmost-longest matches found, in the C locale (bytes) and in UTF-8
// ones (characters, classified by tables generated from glibc 2.36's
// C.UTF-8: ctype_utf8_table.go, internal/gen/ctypegen). Where the
// locale to use is installed and UTF-8 is decided as glibc's newlocale
// decides it, from the locale files (localefind.go). Known differences,
// none of which a test hides:
//
//   - Collation. Ranges, [= =] and [. .] follow C.UTF-8, which has none
//     (a range endpoint above ASCII is "Invalid collation character");
//     a locale with collation rules (en_US.UTF-8) orders ranges by them
//     in glibc.
//   - A pattern that is not valid UTF-8 in a UTF-8 locale: glibc
//     matches its stray bytes against the subject's bytes, inside
//     characters too; the engine matches them only against the same
//     stray bytes.
//   - Back references: glibc's matching of them is not consistent with
//     itself (for example "\(a\)\{0,2\}\1" does not match "aa"); the
//     engine finds a match wherever one exists. The differential test
//     counts these and fails past one pattern in fifty.
//   - Under REG_ICASE in a UTF-8 locale, glibc misplaces an empty match
//     at the end of a subject whose case folding changes its length.
//
// # Concurrency
//
// A compiled Regexp may be used by one goroutine at a time.
package posixre
